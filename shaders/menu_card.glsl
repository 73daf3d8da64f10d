// The menu's game cards in one draw call: each card is a frame quad and a picture quad; the
// pictures are the layers of one texture array. Unlit, facing the camera.

#if defined VERTEX_SHADER

in vec3 in_position;
in vec2 in_uv;
in vec2 in_card;  // x: the card's index; y: its picture's layer, -1 for the frame, -2 none
uniform mat4 u_view_proj;
out vec2 v_uv;
flat out vec2 v_card;

void main() {
    v_uv = in_uv;
    v_card = in_card;
    gl_Position = u_view_proj * vec4(in_position, 1.0);
}

#elif defined FRAGMENT_SHADER

in vec2 v_uv;
flat in vec2 v_card;
uniform sampler2DArray u_pictures;
uniform float u_hover;  // the hovered card's index, -1 for none
out vec4 f_color;

void main() {
    bool hovered = abs(v_card.x - u_hover) < 0.5;
    vec3 color;
    if (v_card.y > -0.5) {
        color = texture(u_pictures, vec3(v_uv, v_card.y)).rgb;
    } else if (v_card.y > -1.5) {
        color = hovered ? vec3(0.96, 0.74, 0.27) : vec3(0.1, 0.13, 0.2);
    } else {
        color = vec3(0.32, 0.4, 0.56);  // no picture: the title under the card names it
    }
    if (hovered) {
        color = mix(color, vec3(1.0, 0.85, 0.45), 0.18);
    }
    f_color = vec4(color, 1.0);
}

#endif
