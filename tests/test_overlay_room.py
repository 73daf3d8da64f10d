"""The F3 overlay takes a column of the window and the game the rest: in every scene, at two
window sizes (three under GAMEHALL_DEEP_CHECKS), nothing of the HUD and nothing of the scene
lies under the column, and nothing of the game shows through it."""

from __future__ import annotations

import numpy as np
import pytest

from game.engine.framing import pieces_box
from tests.deep import sized

pytestmark = [pytest.mark.gl, pytest.mark.deep]

#: The window's sizes: in CI the smallest (4:3, where the column leaves the game least room)
#: and the largest (16:9, the HUD and the overlay at their largest scale); 1280 x 720, between
#: the two in shape and scale, under GAMEHALL_DEEP_CHECKS too.
SIZES = sized([(800, 600), (1920, 1080)], [(800, 600), (1280, 720), (1920, 1080)])
#: One scene of each kind: the menu, the four games of their own and a described game.
SCENES = ["menu", "river", "reversi", "grab", "clue", "chess"]
MAGENTA = np.array([1.0, 0.0, 1.0], dtype="f4")


def _overlap(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw - 0.5 and bx < ax + aw - 0.5 and ay < by + bh - 0.5 and by < ay + ah - 0.5


def _inside(rect, size, slack=0.5) -> bool:
    x, y, w, h = rect
    return x >= -slack and y >= -slack and x + w <= size[0] + slack and y + h <= size[1] + slack


def _drawn_box(director, corners) -> tuple[float, float, float, float]:
    """The window rectangle around the drawn places of world ``corners``."""
    points = [director.to_window(c) for c in corners]
    assert all(p is not None for p in points), "part of the scene is behind the camera"
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def _scene_boxes(director) -> list[tuple[str, tuple[float, float, float, float]]]:
    """What the scene must show, as drawn: the board's or the river's pieces (and the
    points it labels) for a framed scene, each card for the menu."""
    out = []
    quads = getattr(director.controller, "quads", None)
    if quads:  # the menu's cards
        for i, quad in enumerate(quads):
            out.append((f"card {i}", _drawn_box(director, quad.corners(grow=0.06))))
    labels = getattr(director.controller, "world_labels", lambda: [])()
    box = pieces_box(director.scene, director.bounds, [p for _t, p, *_ in labels])
    if box is not None:
        lo, hi = box
        corners = [np.array([x, y, z]) for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                   for z in (lo[2], hi[2])]  # fmt: skip
        out.append(("the pieces", _drawn_box(director, corners)))
    return out


@pytest.fixture
def shown(director):
    """The overlay shown (docked at the left, unfolded); hidden again, unfolded and the window
    back to its size after the test."""
    overlay = director.overlay
    overlay.side, overlay.collapsed = "left", False
    if not overlay.visible:
        overlay.toggle()
    yield director
    if overlay.visible:
        overlay.toggle()
    overlay.side, overlay.collapsed = "left", False
    director.on_resize(640, 400)
    director.switch("river")


@pytest.mark.parametrize("game", SCENES)
def test_the_overlay_hides_nothing_of_the_hud_or_the_scene(shown, game):
    director = shown
    director.switch(game)
    for size in SIZES:
        for side in ("left", "right", "folded"):
            overlay = director.overlay
            if side == "folded":  # folded to its title bar (as the settings bring it back)
                overlay.collapsed = True
                overlay.toggle()
                overlay.toggle()
            else:
                overlay.side = side
            director.on_resize(*size)
            director.update(1 / 60)
            director.capture()  # the overlay measures its contents; the game makes room
            column = director.overlay.rect(size)
            assert column is not None and column[2] >= 200, "a column wide enough to read"
            assert director.overlay.panel_error is None, director.overlay.panel_error
            ax, ay, aw, ah = director.area()
            if side == "folded":
                assert column[1] + column[3] == size[1] and column[3] < 60, "a bar at the top"
                (x0, y0, x1, y1), *_ = overlay._rects  # what imgui drew: the title bar alone
                assert y1 - y0 <= column[3] + 1 and x1 - x0 <= column[2] + 1
                assert (ax, ay, aw) == (0, 0, size[0]) and ah == size[1] - column[3]
            else:
                assert overlay.fits(), f"the overlay's contents are clipped ({game}, {size})"
                assert aw >= size[0] * 0.66 - 1, "the game keeps two thirds of the window"
                assert not _overlap(column, (ax, ay, aw, ah)), "the game's part is beside it"
            where = f"{game} at {size[0]}x{size[1]}, the overlay at the {side}"
            for name, (x, y, w, h) in director.hud.rects():
                rect = (x + ax, y + ay, w, h)  # the HUD's own terms -> the window's
                assert _inside(rect, size), f"{name} {rect} leaves the window ({where})"
                assert not _overlap(rect, column), f"{name} {rect} under the overlay ({where})"
            boxes = _scene_boxes(director)
            assert boxes or game == "grab", f"nothing to check in {game}"
            for name, rect in boxes:
                assert _inside(rect, size, slack=2), f"{name} {rect} leaves the window ({where})"
                assert not _overlap(rect, column), f"{name} {rect} under the overlay ({where})"
            if side == "folded":
                overlay.collapsed = False
                overlay.toggle()
                overlay.toggle()


@pytest.mark.parametrize("game", SCENES)
def test_nothing_of_the_scene_shows_through_the_overlay(shown, game):
    """A magenta world behind everything: none of it tints the overlay's column, while the
    game's part is full of it."""
    director = shown
    director.switch(game)
    scene = director.scene
    background = scene.background
    saved = (background.top.copy(), background.bottom.copy(), scene.layers)
    hidden = [n for n in scene if not n.hidden]
    try:
        background.top[:] = MAGENTA
        background.bottom[:] = MAGENTA
        scene.layers = []
        for node in hidden:
            node.hidden = True
        for size in SIZES:
            director.on_resize(*size)
            director.update(1 / 60)
            pixels = director.capture().astype(int)
            x, y, w, h = (round(v) for v in director.overlay.rect(size))
            column = pixels[size[1] - (y + h) : size[1] - y, x : x + w]
            r, g, b = column[..., 0], column[..., 1], column[..., 2]
            tinted = ((r - g > 25) & (b - g > 25)).mean()
            assert tinted == 0.0, f"{tinted:.1%} of the overlay shows the scene ({game}, {size})"
            ax, _ay, aw, _ah = (round(v) for v in director.area())
            game_part = pixels[:, ax : ax + aw]
            magenta = ((game_part[..., 0] > 200) & (game_part[..., 1] < 60)).mean()
            assert magenta > 0.3, f"the scene is not drawn beside the overlay ({game}, {size})"
    finally:
        background.top[:], background.bottom[:], scene.layers = saved
        for node in hidden:
            node.hidden = False
