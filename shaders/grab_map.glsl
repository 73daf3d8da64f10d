// MasterGrab map tiles: one vertex buffer for the whole map, drawn once per visible copy of
// the map (the wrap) and per visible chunk, as one multi-draw-indirect. A vertex carries its
// country; the country's colour and height come from a one-row data texture, so a conquest or
// a hover changes a texel, not the mesh. Lit per vertex (flat tiles), no shadows.

#if defined VERTEX_SHADER

in vec3 in_pos;      // x, top flag (0 bottom, 1 top), z
in vec3 in_normal;
in float in_country;
in vec2 in_offset;   // per instance: where this copy of the map lies

uniform mat4 u_view_proj;
uniform sampler2D u_data;  // per country: rgb colour, a height
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;

out vec3 v_color;

vec3 to_linear(vec3 c) { return c * c; }

void main() {
    vec4 data = texelFetch(u_data, ivec2(int(in_country + 0.5), 0), 0);
    vec3 world = vec3(in_pos.x + in_offset.x, in_pos.y * data.a, in_pos.z + in_offset.y);
    vec3 n = in_normal;
    vec3 base = to_linear(data.rgb);
    if (n.y < 0.5) {
        // Walls darken towards the foot, which draws the borders between tiles.
        base *= mix(0.35, 0.8, in_pos.y);
    }
    vec3 ambient = to_linear(u_ambient) * mix(0.7, 1.15, 0.5 + 0.5 * n.y);
    float ndl = max(dot(n, -u_light_dir), 0.0);
    v_color = sqrt(base * (ambient + to_linear(u_light_color) * ndl * 0.85));
    gl_Position = u_view_proj * vec4(world, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec3 v_color;
out vec4 f_color;

void main() {
    f_color = vec4(v_color, 1.0);
}

#endif
