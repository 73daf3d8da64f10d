"""Drawing helpers for the controllers' debug panels (called inside a panel, F3 overlay shown).

``imgui_bundle`` is imported lazily, when a helper first draws.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from game.engine.imgui_renderer import imgui_module

__all__ = ["col32", "draw_graph", "room", "set_room"]

#: How wide the overlay's column lets a panel's contents grow (window units); the overlay sets
#: it before it calls a panel.
_ROOM = [float("inf")]


def room() -> float:
    """The widest a panel's contents may be: the overlay's column grows to what its contents
    need up to this, so a panel that can draw a wide or a narrow form (full or short names)
    picks the wide one when it fits here, the narrow one when not."""
    return _ROOM[0]


def set_room(width: float) -> None:
    """Say how wide the panel about to be drawn may grow (the overlay calls it)."""
    _ROOM[0] = float(width)


def col32(r: int, g: int, b: int, a: int = 255) -> int:
    """Pack an RGBA colour the way ImDrawList wants it (IM_COL32)."""
    return (a << 24) | (b << 16) | (g << 8) | r


_GRAPH_BG = col32(20, 24, 32, 170)
_GRAPH_BORDER = col32(90, 100, 120, 160)
_GRAPH_EDGE = col32(140, 150, 170, 150)
_GRAPH_EDGE_HINT = col32(80, 220, 255, 230)
_GRAPH_NODE = col32(105, 120, 150, 255)
_GRAPH_NODE_RIM = col32(15, 18, 24, 255)
_GRAPH_CURRENT = col32(255, 200, 40, 255)
_GRAPH_GOAL = col32(70, 200, 90, 255)
_GRAPH_HIGHLIGHT = col32(80, 220, 255, 255)
_GRAPH_HOVER = col32(255, 255, 255, 230)
_GRAPH_LABEL = col32(200, 205, 215, 220)
_GRAPH_LABEL_BG = col32(20, 24, 32, 190)


def draw_graph(
    nodes: Sequence[tuple[float, float]],
    edges: Sequence[tuple[int, int]],
    *,
    labels: Sequence[str] = (),
    current: int | None = None,
    goal: Iterable[int] = (),
    highlight: Iterable[int] = (),
    size: tuple[float, float] = (320, 220),
) -> None:
    """Draw a node-link diagram in the current imgui window (call it inside a panel).

    ``nodes`` are positions in 0..1 x 0..1 with (0, 0) at the top-left of a region of ``size``
    pixels reserved at the cursor (smaller, in its shape, where the overlay's column cannot
    grow that wide: :func:`room`). The ``current`` node is filled bright yellow, ``goal`` nodes
    green, ``highlight`` nodes (e.g. the optimal next states) get a cyan ring and so does the
    edge to them from the current node. ``labels`` (one per node, may be shorter) are written
    small beside the nodes; hovering a node shows its label as a tooltip.
    """
    imgui = imgui_module()
    count = len(nodes)
    for a, b in edges:
        if not (0 <= a < count and 0 <= b < count):
            raise ValueError(f"draw_graph: edge ({a}, {b}) names a node outside 0..{count - 1}")
    if current is not None and not 0 <= current < count:
        raise ValueError(f"draw_graph: current node {current} is outside 0..{count - 1}")
    goals = set(goal)
    hints = set(highlight)

    width, height = float(size[0]), float(size[1])
    if width > room() > 0:
        width, height = room(), height * room() / width
    origin = imgui.get_cursor_screen_pos()
    ox, oy = origin.x, origin.y
    imgui.dummy((width, height))
    region_hovered = imgui.is_item_hovered()

    radius = max(3.0, min(7.0, min(width, height) / 30.0))
    pad = radius + 5.0
    span_x, span_y = max(width - 2 * pad, 1.0), max(height - 2 * pad, 1.0)
    points = [
        (
            ox + pad + min(max(float(u), 0.0), 1.0) * span_x,
            oy + pad + min(max(float(v), 0.0), 1.0) * span_y,
        )
        for u, v in nodes
    ]

    hovered: int | None = None
    if region_hovered and points:
        mouse = imgui.get_mouse_pos()
        best = (radius + 4.0) ** 2
        for i, (x, y) in enumerate(points):
            d2 = (x - mouse.x) ** 2 + (y - mouse.y) ** 2
            if d2 <= best:
                best, hovered = d2, i

    dl = imgui.get_window_draw_list()
    dl.push_clip_rect((ox, oy), (ox + width, oy + height), True)
    try:
        dl.add_rect_filled((ox, oy), (ox + width, oy + height), _GRAPH_BG, 4.0)
        dl.add_rect((ox, oy), (ox + width, oy + height), _GRAPH_BORDER, 4.0)
        for a, b in edges:
            dl.add_line(points[a], points[b], _GRAPH_EDGE, 1.2)
        if current is not None:
            for a, b in edges:
                other = b if a == current else a if b == current else None
                if other is not None and other in hints:
                    dl.add_line(points[current], points[other], _GRAPH_EDGE_HINT, 2.5)

        font = imgui.get_font()
        font_size = max(imgui.get_font_size() * 0.8, 8.0)
        font_scale = font_size / imgui.get_font_size()
        for i, (x, y) in enumerate(points):
            r = radius * 1.35 if i == current else radius
            fill = _GRAPH_NODE
            if i in goals:
                fill = _GRAPH_GOAL
            if i == current:
                fill = _GRAPH_CURRENT
            dl.add_circle_filled((x, y), r, fill)
            dl.add_circle((x, y), r, _GRAPH_NODE_RIM, 0, 1.0)
            if i == current and i in goals:
                dl.add_circle((x, y), r + 2.5, _GRAPH_GOAL, 0, 2.0)
            if i in hints:
                dl.add_circle((x, y), r + 3.5, _GRAPH_HIGHLIGHT, 0, 2.0)
            if i == hovered:
                dl.add_circle((x, y), r + 6.0, _GRAPH_HOVER, 0, 1.5)
            if i < len(labels) and labels[i]:
                text_w = imgui.calc_text_size(labels[i]).x * font_scale
                tx = x + r + 6.0
                if tx + text_w > ox + width - 2.0:  # no room on the right: write it on the left
                    tx = x - r - 6.0 - text_w
                ty = y - font_size * 0.5
                dl.add_rect_filled(
                    (tx - 1.0, ty), (tx + text_w + 1.0, ty + font_size), _GRAPH_LABEL_BG, 2.0
                )
                dl.add_text(font, font_size, (tx, ty), _GRAPH_LABEL, labels[i])
    finally:
        dl.pop_clip_rect()

    if hovered is not None:
        text = labels[hovered] if hovered < len(labels) and labels[hovered] else f"node {hovered}"
        tags = [
            tag
            for tag, on in (
                ("current", hovered == current),
                ("goal", hovered in goals),
                ("hint", hovered in hints),
            )
            if on
        ]
        imgui.set_tooltip(f"{text}  ({', '.join(tags)})" if tags else text)
