// Lit, shadowed, instanced scene pass. One draw (multi-draw-indirect) covers every mesh.
// Per instance: model matrix, tint (rgb, a = highlight glow), material (specular, shininess,
// wave flag, casts-no-shadow flag).

#if defined VERTEX_SHADER

in vec3 in_position;
in vec3 in_normal;
in vec3 in_color;
in mat4 in_model;
in vec4 in_tint;
in vec4 in_material;

uniform mat4 u_view_proj;
uniform mat4 u_light_vp;
uniform float u_time;

out vec3 v_world;
out vec3 v_normal;
out vec3 v_color;
out vec4 v_light_pos;
out vec4 v_tint;
out vec2 v_material;

// Two crossing swells plus a ripple: cheap, smooth, and with an analytic normal.
float wave_height(vec2 p, float t, out vec2 grad) {
    float a1 = 0.55 * p.x + 0.8 * p.y + 1.1 * t;
    float a2 = -0.9 * p.x + 0.35 * p.y + 0.8 * t;
    float a3 = 1.7 * p.x - 1.3 * p.y + 2.3 * t;
    float h = 0.060 * sin(a1) + 0.045 * sin(a2) + 0.018 * sin(a3);
    grad = 0.060 * cos(a1) * vec2(0.55, 0.8) + 0.045 * cos(a2) * vec2(-0.9, 0.35)
         + 0.018 * cos(a3) * vec2(1.7, -1.3);
    return h;
}

void main() {
    vec4 world = in_model * vec4(in_position, 1.0);
    vec3 normal = normalize(mat3(in_model) * in_normal);
    if (in_material.z > 0.5) {
        vec2 grad;
        world.y += wave_height(world.xz, u_time, grad);
        normal = normalize(vec3(-grad.x, 1.0, -grad.y));
    }
    v_world = world.xyz;
    v_normal = normal;
    v_color = in_color;
    v_tint = in_tint;
    v_material = in_material.xy;
    v_light_pos = u_light_vp * world;
    gl_Position = u_view_proj * world;
}

#elif defined FRAGMENT_SHADER

in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;
in vec4 v_light_pos;
in vec4 v_tint;
in vec2 v_material;

uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_sky_top;
uniform vec3 u_sky_bottom;
uniform float u_fog;
uniform float u_time;
uniform bool u_shadows;
uniform sampler2DShadow u_shadow_map;
uniform float u_shadow_texel;

out vec4 f_color;

vec3 to_linear(vec3 c) { return pow(c, vec3(2.2)); }

float shadow_factor(vec3 n, vec3 l) {
    if (!u_shadows) return 1.0;
    vec3 p = v_light_pos.xyz / v_light_pos.w * 0.5 + 0.5;
    if (p.x < 0.0 || p.x > 1.0 || p.y < 0.0 || p.y > 1.0 || p.z > 1.0) return 1.0;
    float bias = max(0.0025 * (1.0 - dot(n, l)), 0.0008);
    float z = p.z - bias;
    // Four hardware-filtered taps (each a 2x2 PCF) give a soft 4x4 edge for the cost of four.
    float o = 0.75 * u_shadow_texel;
    float s = texture(u_shadow_map, vec3(p.xy + vec2(-o, -o), z));
    s += texture(u_shadow_map, vec3(p.xy + vec2(o, -o), z));
    s += texture(u_shadow_map, vec3(p.xy + vec2(-o, o), z));
    s += texture(u_shadow_map, vec3(p.xy + vec2(o, o), z));
    return s * 0.25;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(-u_light_dir);
    vec3 v = normalize(u_eye - v_world);
    if (dot(n, v) < 0.0) n = -n;  // thin, two-sided geometry is lit from the side we see
    vec3 h = normalize(l + v);
    float shadow = shadow_factor(n, l);
    float ndl = max(dot(n, l), 0.0);
    vec3 base = to_linear(v_color * v_tint.rgb);
    // Hemisphere ambient: sky colour from above, warm ground bounce from below.
    vec3 ground = to_linear(vec3(0.42, 0.36, 0.28));
    vec3 ambient = to_linear(u_ambient) * mix(ground * 1.4, vec3(1.0), 0.5 + 0.5 * n.y);
    vec3 light = to_linear(u_light_color);
    float spec = v_material.x * pow(max(dot(n, h), 0.0), v_material.y) * ndl;
    vec3 color = base * (ambient + light * ndl * shadow) + light * spec * shadow;
    // Highlight: a warm glow, brighter at the silhouette so shapes stay readable.
    float rim = pow(1.0 - max(dot(n, v), 0.0), 2.0);
    color += v_tint.a * to_linear(vec3(1.0, 0.82, 0.35)) * (0.35 + 0.9 * rim);
    // Distance fog towards the horizon colour.
    float dist = length(u_eye - v_world);
    float fog = u_fog * clamp((dist - 12.0) / 40.0, 0.0, 1.0);
    color = mix(color, to_linear(u_sky_bottom), fog);
    f_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}

#endif
