// The sky: a vertical gradient, a faint haze at the horizon and a soft glow where the sun is.
// It is a grid of cells over the whole screen, drawn from gl_VertexID alone (no buffer), and
// the colour is worked out at the grid's corners: every term is smooth, so the interpolated
// colour looks the same as one worked out per pixel, and a pixel costs a software rasteriser
// next to nothing. It lies on the far plane, drawn last: only where nothing else is.

#if defined VERTEX_SHADER

uniform vec3 u_top;
uniform vec3 u_bottom;
uniform int u_cells;  // the grid is u_cells x u_cells

out vec3 v_color;

void main() {
    // Six corners a cell: two triangles.
    int cell = gl_VertexID / 6;
    int corner = gl_VertexID % 6;
    int dx = (corner == 1 || corner == 2 || corner == 4) ? 1 : 0;
    int dy = (corner == 2 || corner == 4 || corner == 5) ? 1 : 0;
    vec2 uv = vec2(float(cell % u_cells + dx), float(cell / u_cells + dy)) / float(u_cells);
    float t = smoothstep(0.0, 1.0, uv.y);
    vec3 c = mix(u_bottom, u_top, t);
    float haze = exp(-pow((uv.y - 0.35) * 4.0, 2.0)) * 0.08;
    float sun = exp(-length((uv - vec2(0.15, 0.95)) * vec2(2.2, 3.0)) * 3.0) * 0.25;
    v_color = c + vec3(1.0, 0.9, 0.7) * (haze + sun);
    gl_Position = vec4(uv * 2.0 - 1.0, 1.0, 1.0);  // on the far plane
}

#elif defined FRAGMENT_SHADER

in vec3 v_color;

out vec4 f_color;

void main() {
    f_color = vec4(v_color, 1.0);
}

#endif
