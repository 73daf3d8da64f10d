// The menu's game cards: a picture on a frame, unlit, facing the camera.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec2 in_uv;
uniform mat4 u_view_proj;
out vec2 v_uv;

void main() {
    v_uv = in_uv;
    gl_Position = u_view_proj * vec4(in_position, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;
uniform sampler2D u_picture;
uniform bool u_textured;
uniform vec4 u_color;
uniform float u_glow;
out vec4 f_color;

void main() {
    vec4 color = u_textured ? texture(u_picture, v_uv) : u_color;
    f_color = vec4(mix(color.rgb, vec3(1.0, 0.85, 0.45), u_glow * 0.18), color.a);
}

#endif
