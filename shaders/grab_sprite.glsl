// MasterGrab labels: army numbers and state rings as sprites lying flat on the map (u_right
// and u_up span the ground), from a glyph atlas (red: the shape, green: the shape grown by a
// few pixels, drawn as a dark outline so numbers read on every colour). Drawn over the map
// without a depth test: a number is never hidden. One instanced draw per copy of the map.

#if defined VERTEX_SHADER

in vec3 in_anchor;   // world point the sprite hangs from
in vec4 in_rect;     // x0, y0, x1, y1 in world units, in the camera's right/up plane
in vec4 in_uv;       // u0, v0, u1, v1 in the atlas
in vec4 in_color;    // rgb fill, a opacity

uniform mat4 u_view_proj;
uniform vec3 u_right;
uniform vec3 u_up;
uniform vec2 u_offset;

out vec2 v_uv;
out vec4 v_color;

void main() {
    int corner = gl_VertexID % 6;
    // Two triangles: (0, 1, 2) and (0, 2, 3) over the corners 0 = x0y0, 1 = x1y0 ...
    int c = corner < 3 ? corner : (corner == 3 ? 0 : corner - 2);
    float fx = (c == 1 || c == 2) ? 1.0 : 0.0;
    float fy = (c >= 2) ? 1.0 : 0.0;
    float x = mix(in_rect.x, in_rect.z, fx);
    float y = mix(in_rect.y, in_rect.w, fy);
    vec3 world = in_anchor + vec3(u_offset.x, 0.0, u_offset.y) + u_right * x + u_up * y;
    v_uv = vec2(mix(in_uv.x, in_uv.z, fx), mix(in_uv.y, in_uv.w, fy));
    v_color = in_color;
    gl_Position = u_view_proj * vec4(world, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;
in vec4 v_color;
uniform sampler2D u_atlas;
out vec4 f_color;

void main() {
    vec2 cover = texture(u_atlas, v_uv).rg;
    float alpha = max(cover.r, cover.g * 0.75) * v_color.a;
    if (alpha < 0.02) discard;
    vec3 outline = vec3(0.06, 0.06, 0.08);
    f_color = vec4(mix(outline, v_color.rgb, cover.r), alpha);
}

#endif
