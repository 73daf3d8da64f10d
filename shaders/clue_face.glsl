// Cluedo's card faces and backs: textured quads lying on the card nodes, lit by the sun and
// the ambient light like the scene (no shadow look-up: they are a hair above a card that
// already took it). The pictures are the layers of one texture array.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
in float in_layer;
in float in_glow;

uniform mat4 u_view_proj;
uniform vec3 u_light_dir;
uniform vec3 u_light_color;
uniform vec3 u_ambient;

out vec2 v_uv;
flat out float v_layer;
out vec3 v_light;
out float v_glow;

void main() {
    vec3 n = normalize(in_normal);
    float ndl = max(dot(n, normalize(-u_light_dir)), 0.0);
    v_light = u_ambient * u_ambient + u_light_color * u_light_color * ndl;
    v_uv = in_uv;
    v_layer = in_layer;
    v_glow = in_glow;
    gl_Position = u_view_proj * vec4(in_position, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;
flat in float v_layer;
in vec3 v_light;
in float v_glow;

uniform sampler2DArray u_faces;

out vec4 f_color;

void main() {
    vec3 c = texture(u_faces, vec3(v_uv, v_layer)).rgb;
    vec3 lit = c * c * v_light + v_glow * vec3(0.30, 0.22, 0.06);
    f_color = vec4(sqrt(lit), 1.0);
}

#endif
