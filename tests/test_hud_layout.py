"""The HUD at every window size: every button and panel inside the window, none over another,
text that grows with the window and the screen's density, and the scene's pieces clear of it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.engine.hud import font_size, ui_scale
from game.engine.hud_layout import place_buttons

SIZES = [(800, 600), (1280, 720), (1920, 1080), (3840, 2160)]


def _inside(rect, size, slack=0.5) -> bool:
    x, y, w, h = rect
    return x >= -slack and y >= -slack and x + w <= size[0] + slack and y + h <= size[1] + slack


def _overlap(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw - 0.5 and bx < ax + aw - 0.5 and ay < by + bh - 0.5 and by < ay + ah - 0.5


def _check(rects, size) -> None:
    for r in rects:
        assert _inside(r, size), f"{r} leaves the {size} window"
    for a, b in itertools.combinations(rects, 2):
        assert not _overlap(a, b), f"{a} and {b} overlap at {size}"


# -- the arithmetic alone --------------------------------------------------------------------


def test_the_text_grows_with_the_window_and_the_screen_density() -> None:
    sizes = [font_size(s) for s in SIZES]
    assert sizes == sorted(sizes) and sizes[-1] >= 3 * sizes[0]
    assert font_size((800, 600), 2.0) >= 2 * font_size((800, 600)) - 4
    assert font_size((3840, 2160), float("nan")) == font_size((3840, 2160))
    assert ui_scale((800, 600), (800, 600), 144.0) == 1.5
    assert ui_scale((800, 600), (1600, 1200), 192.0) == 1.0, "the framebuffer already doubles"
    assert ui_scale((800, 600), (800, 600), float("inf")) == 1.0


@pytest.mark.parametrize("size", [(640, 400), *SIZES])
def test_a_full_hud_fits_every_window(size) -> None:
    fs = font_size(size)
    # Reversi's bar with Save and Load, a 12-move list and a grid of 24 option buttons
    # (MasterGrab's panel): text widths as the font would make them.
    widths = {
        "main": [fs * 0.6 * len(t) for t in ("Hint  H", "Next  N", "Undo  U", "Redo  Y",
                 "First  Home", "Last  End", "Swap  W", "New game  R", "Save", "Load")],
        "options": [fs * 0.9 * 0.6 * 14] * 24,
        "list": [fs * 0.8 * 0.6 * 9] * 12,
    }  # fmt: skip
    placed = place_buttons(widths, size, fs)
    rects = [r for group in placed.rects.values() for r in group]
    _check(rects, size)
    assert len(placed.rects["main"]) == 10 and len(placed.rects["options"]) == 24
    assert placed.rects["list"], "the move list keeps at least its newest entries"
    top_right = placed.rects["options"] + placed.rects["list"]
    assert min(r[1] for r in top_right) > placed.bar_top, "nothing reaches down into the bar"


def test_a_button_wider_than_the_window_makes_the_text_smaller() -> None:
    placed = place_buttons({"main": [900.0, 60.0]}, (800, 600), 12)
    assert placed.scale < 1.0
    _check(placed.rects["main"], (800, 600))


# -- every scene, through the Director ------------------------------------------------------------


def _hud_rects(director) -> list[tuple[float, float, float, float]]:
    hud = director.hud
    rects = [(v.x, v.y, v.w, v.h) for v in hud._buttons]
    rects.append((hud.panel.x, hud.panel.y, hud.panel.width, hud.panel.height))
    if hud.sheet.visible:
        rects.append((hud.sheet.x, hud.sheet.y, hud.sheet.width, hud.sheet.height))
    return rects


@pytest.mark.gl
@pytest.mark.parametrize("game", ["river", "reversi", "clue", "grab", "chess", "hex", "kalah"])
def test_every_scene_keeps_its_hud_inside_and_apart_at_800x600_and_4k(director, game):
    try:
        director.switch(game)
        for size, scale in [((800, 600), 1.0), ((3840, 2160), 1.0), ((800, 600), 2.0)]:
            director.scale_override = scale
            director.on_resize(*size)
            director.update(1 / 60)
            if size[0] > 3000:
                assert director.hud.font_size() > 30, "4K text is large"
            rects = _hud_rects(director)
            _check(rects, size)
            hud = director.hud
            if hud.banner_box.visible:
                banner = (hud.banner_box.x, hud.banner_box.y, hud.banner_box.width,
                          hud.banner_box.height)  # fmt: skip
                assert _inside(banner, size)
                for r in rects:
                    assert not _overlap(banner, r), f"the banner covers {r} in {game} at {size}"
    finally:
        director.scale_override = None
        director.on_resize(640, 400)
        director.switch("river")


@pytest.mark.gl
def test_at_800x600_every_character_of_the_river_is_in_the_free_part_of_the_window(director):
    director.switch("river")
    try:
        director.on_resize(800, 600)
        director.update(1 / 60)
        left, bottom, right, top = director.hud.free_rect()
        vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
        w, h = director.window_size()
        names = [n for n in director.scene.nodes if n.startswith(("priest", "devil"))]
        assert len(names) == 6
        for name in names:
            for lift in (0.0, 1.2):  # feet and head
                point = director.scene[name].world_position() + np.array([0, lift, 0], "f4")
                clip = vp @ np.append(point, 1.0)
                x = (clip[0] / clip[3] + 1) / 2 * w
                y = (clip[1] / clip[3] + 1) / 2 * h
                assert left - 1 <= x <= right + 1 and bottom - 1 <= y <= top + 1, (name, x, y)
    finally:
        director.on_resize(640, 400)
