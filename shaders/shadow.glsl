// Depth-only pass from the sun. Instances flagged "casts no shadow" (material.w) are moved
// outside the clip volume, so one multi-draw still covers every mesh.

#if defined VERTEX_SHADER

in vec3 in_position;
in mat4 in_model;
in vec4 in_material;

uniform mat4 u_light_vp;

void main() {
    if (in_material.w > 0.5) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    } else {
        gl_Position = u_light_vp * in_model * vec4(in_position, 1.0);
    }
}

#elif defined FRAGMENT_SHADER

void main() {}

#endif
