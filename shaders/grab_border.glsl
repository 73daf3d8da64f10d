// MasterGrab borders: every border edge of the map as a band a little above the taller of
// its two countries, widened in the vertex stage (each end pushed out by half the width so
// neighbouring edges overlap, no gaps at bends) and anti-aliased in the fragment stage.
// A border between two owners is wide and dark; one inside an owner's land is thin and
// light; the hovered country's outline is white. Dark inks are drawn with MIN blending and
// light ones with MAX, so the overlaps of neighbouring edges never darken (or light) twice.

#if defined VERTEX_SHADER

in vec2 in_start;
in vec2 in_end;
in vec2 in_corner;     // end flag (0 start, 1 end), side (-1 or 1)
in vec2 in_countries;  // the countries on either side

uniform mat4 u_view_proj;
uniform vec2 u_offset;
uniform sampler2D u_data;  // row 0: rgb, height; row 1: owner, raised
uniform int u_hover;
uniform float u_width;     // half-width of a border between owners, world units

out float v_side;
out vec3 v_ink;
out float v_strength;

void main() {
    int a = int(in_countries.x + 0.5);
    int b = int(in_countries.y + 0.5);
    vec4 da = texelFetch(u_data, ivec2(a, 0), 0);
    vec4 db = texelFetch(u_data, ivec2(b, 0), 0);
    float owner_a = texelFetch(u_data, ivec2(a, 1), 0).r;
    float owner_b = texelFetch(u_data, ivec2(b, 1), 0).r;
    bool hovered = a == u_hover || b == u_hover;
    bool between = abs(owner_a - owner_b) > 0.5;
    float half_width = between ? u_width : u_width * 0.45;
    v_ink = vec3(0.05, 0.05, 0.07);
    v_strength = between ? 0.92 : 0.45;
    if (hovered) {
        half_width = u_width * 1.3;
        v_ink = vec3(1.0, 1.0, 0.92);
        v_strength = 1.0;
    }
    vec2 dir = in_end - in_start;
    float len = length(dir);
    dir = len > 1e-6 ? dir / len : vec2(1.0, 0.0);
    vec2 normal = vec2(-dir.y, dir.x);
    vec2 p = mix(in_start, in_end, in_corner.x) + dir * (in_corner.x * 2.0 - 1.0) * half_width
        + normal * in_corner.y * half_width;
    float y = max(da.a, db.a) + 0.004;
    v_side = in_corner.y;
    gl_Position = u_view_proj * vec4(p.x + u_offset.x, y, p.y + u_offset.y, 1.0);
}

#elif defined FRAGMENT_SHADER

in float v_side;
in vec3 v_ink;
in float v_strength;
uniform int u_pass;  // 0: dark inks, MIN blending; 1: light inks (the hover), MAX blending
out vec4 f_color;

void main() {
    bool light = v_ink.r > 0.5;
    if (light != (u_pass == 1)) discard;
    float aa = max(fwidth(v_side), 1e-4);
    float cover = clamp((1.0 - abs(v_side)) / (1.5 * aa), 0.0, 1.0) * v_strength;
    if (cover < 0.01) discard;
    vec3 neutral = light ? vec3(0.0) : vec3(1.0);
    f_color = vec4(mix(neutral, v_ink, cover), 1.0);
}

#endif
