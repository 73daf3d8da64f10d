// MasterGrab map tiles: one vertex buffer for the whole map, drawn once per visible copy of
// the map (the wrap) and per visible chunk, as one multi-draw-indirect. A vertex carries its
// country and a rise (a mountain's peaks); the country's colour and height come from a data
// texture (row 0: rgb, height), so a conquest or a hover changes a texel, not the mesh.
// Lit per vertex (flat tiles); a flat top shows its owner's colour exactly, walls and the
// slopes facing away from the sun are darker, and a mountain turns to snow near its peaks.

#if defined VERTEX_SHADER

in vec3 in_pos;      // x, top flag (0 bottom, 1 top), z
in vec3 in_normal;
in float in_country;
in float in_rise;    // extra height of a mountain's corner
in vec2 in_offset;   // per instance: where this copy of the map lies

uniform mat4 u_view_proj;
uniform sampler2D u_data;
uniform vec3 u_light_dir;

out vec3 v_color;

void main() {
    vec4 data = texelFetch(u_data, ivec2(int(in_country + 0.5), 0), 0);
    vec3 world = vec3(in_pos.x + in_offset.x, in_pos.y * data.a + in_rise, in_pos.z + in_offset.y);
    vec3 n = normalize(in_normal);
    vec3 base = data.rgb;
    if (in_rise > 0.0) {
        // Rock darkens a little with height, then snow covers the peaks.
        base = mix(base * 0.92, vec3(0.96, 0.97, 1.0), smoothstep(0.45, 0.7, in_rise));
    }
    vec3 sun = normalize(-u_light_dir);
    // Normalised so that a flat top (n = up) gets exactly its colour.
    float flat_light = 0.62 + 0.38 * max(sun.y, 0.0);
    float light = (0.62 + 0.38 * max(dot(n, sun), 0.0)) / flat_light;
    if (n.y < 0.5) {
        // Walls darken towards the foot, so raised tiles stand out from lower ones.
        light *= mix(0.45, 0.8, in_pos.y);
    }
    v_color = base * light;
    gl_Position = u_view_proj * vec4(world, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec3 v_color;
out vec4 f_color;

void main() {
    f_color = vec4(v_color, 1.0);
}

#endif
