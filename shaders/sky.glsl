// A full-screen triangle with a vertical gradient and a soft glow where the sun is.

#if defined VERTEX_SHADER

out vec2 v_uv;

void main() {
    vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
    v_uv = p * 0.5 + 0.5;
    gl_Position = vec4(p, 1.0, 1.0);  // on the far plane: drawn only where nothing is
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;

uniform vec3 u_top;
uniform vec3 u_bottom;

out vec4 f_color;

void main() {
    float t = smoothstep(0.0, 1.0, v_uv.y);
    vec3 c = mix(u_bottom, u_top, t);
    // A faint warm haze near the horizon line, brighter towards the upper left (the sun).
    float haze = exp(-pow((v_uv.y - 0.35) * 4.0, 2.0)) * 0.08;
    float sun = exp(-length((v_uv - vec2(0.15, 0.95)) * vec2(2.2, 3.0)) * 3.0) * 0.25;
    f_color = vec4(c + vec3(1.0, 0.9, 0.7) * (haze + sun), 1.0);
}

#endif
