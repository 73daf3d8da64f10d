// MasterGrab move arrows: flat, unlit triangles with a colour per vertex, drawn above the
// tiles once per visible copy of the map.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec4 in_color;
uniform mat4 u_view_proj;
uniform vec2 u_offset;
out vec4 v_color;

void main() {
    v_color = in_color;
    gl_Position = u_view_proj * vec4(in_position + vec3(u_offset.x, 0.0, u_offset.y), 1.0);
}

#elif defined FRAGMENT_SHADER

in vec4 v_color;
out vec4 f_color;

void main() {
    f_color = v_color;
}

#endif
