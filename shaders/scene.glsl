// Lit, shadowed, instanced scene pass. One draw (multi-draw-indirect) covers every mesh.
// Per instance: model matrix, tint (rgb, a = highlight glow), material (specular, shininess,
// wave flag, casts-no-shadow flag).
//
// Lighting is computed per vertex: the meshes are low-poly and flat-shaded, so a per-vertex
// result is the same colour a per-pixel one would give, at a fraction of the cost in a
// software rasteriser. Only the shadow look-up, which must follow the pixel, stays per pixel:
// the vertex stage hands over the unshadowed part (ambient, glow) and the sunlit part apart.

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
uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;
uniform vec3 u_sky_bottom;
uniform float u_fog;

out vec3 v_base;     // ambient + glow + fog (linear), not affected by the shadow
out vec3 v_sun;      // diffuse + specular from the sun (linear, fogged), scaled by the shadow
out vec3 v_shadow;   // shadow-map coordinates (0..1) with the depth bias already applied

// Gamma 2.0 instead of 2.2: a square and a square root cost far less than pow() in a
// software rasteriser, and the difference is invisible here.
vec3 to_linear(vec3 c) { return c * c; }

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
    vec3 n = normalize(mat3(in_model) * in_normal);
    if (in_material.z > 0.5) {
        vec2 grad;
        world.y += wave_height(world.xz, u_time, grad);
        n = normalize(vec3(-grad.x, 1.0, -grad.y));
    }
    vec3 l = normalize(-u_light_dir);
    vec3 v = normalize(u_eye - world.xyz);
    if (dot(n, v) < 0.0) n = -n;  // thin, two-sided geometry is lit from the side we see
    vec3 h = normalize(l + v);
    float ndl = max(dot(n, l), 0.0);
    vec3 base = to_linear(in_color * in_tint.rgb);
    // Hemisphere ambient: sky colour from above, warm ground bounce from below.
    vec3 ground = to_linear(vec3(0.42, 0.36, 0.28));
    vec3 ambient = to_linear(u_ambient) * mix(ground * 1.4, vec3(1.0), 0.5 + 0.5 * n.y);
    vec3 light = to_linear(u_light_color);
    float spec = in_material.x * pow(max(dot(n, h), 0.0), in_material.y) * ndl;
    // Highlight: a warm glow, brighter at the silhouette so shapes stay readable.
    float rim = 1.0 - max(dot(n, v), 0.0);
    vec3 glow = in_tint.a * to_linear(vec3(1.0, 0.82, 0.35)) * (0.35 + 0.9 * rim * rim);
    // Distance fog towards the horizon colour, folded into both parts: the fragment stage is
    // left with one shadow look-up and one multiply-add.
    float fog = u_fog * clamp((length(u_eye - world.xyz) - 12.0) / 40.0, 0.0, 1.0);
    v_base = mix(base * ambient + glow, to_linear(u_sky_bottom), fog);
    v_sun = (base * light * ndl + light * spec) * (1.0 - fog);
    // The sun's projection is orthographic (w = 1): no divide needed per pixel.
    vec3 s = (u_light_vp * world).xyz * 0.5 + 0.5;
    v_shadow = vec3(s.xy, s.z - max(0.004 * (1.0 - ndl), 0.0015));
    gl_Position = u_view_proj * world;
}

#elif defined FRAGMENT_SHADER

in vec3 v_base;
in vec3 v_sun;
in vec3 v_shadow;

uniform bool u_shadows;
uniform sampler2DShadow u_shadow_map;

out vec4 f_color;

void main() {
    // One hardware-filtered tap: the linear filter on a depth-compare sampler is a 2x2 PCF,
    // which softens the texel edges. Each extra tap costs about 1.5 ms a frame in llvmpipe.
    // Beyond the far side of the map (z > 1) everything is lit; the sides clamp to the
    // border, which the shadow pass clears to the far depth.
    float lit = 1.0;
    if (u_shadows && v_shadow.z <= 1.0) lit = texture(u_shadow_map, v_shadow);
    f_color = vec4(sqrt(v_base + v_sun * lit), 1.0);
}

#endif
