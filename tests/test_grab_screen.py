"""MasterGrab on screen: the hint's arrows read on every owner's colour, the camera stays where
the player put it while rounds play, and nothing of the map shows through the HUD."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from game.games.grab.paint import HINT_COLOUR, MOUNTAIN_COLOUR, arrows
from game.games.grab.view import HALO_WIDTH, OUTLINE_WIDTH
from game.logic.grab.game import GrabGame
from game.logic.grab.options import GrabOptions
from game.logic.grab.palette import PALETTE
from game.logic.grab.robots.strategic import choose_move
from game.logic.grab.state import MoveKind
from game.registry import MemorySession

#: WCAG's contrast for text (4.5:1): an edge this far from the land stands out at a glance.
CONTRAST = 4.5
#: The least width of an edge band (world units; about 2 pixels at the default zoom in a
#: window of 800x600).
EDGE = 0.06


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG relative luminance of an sRGB colour (0..1)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def over(colour: tuple[float, ...], below: tuple[float, ...]) -> tuple[float, ...]:
    """``colour`` (rgba) blended over ``below`` (rgb), as the arrows are drawn."""
    a = colour[3]
    return tuple(a * c + (1 - a) * b for c, b in zip(colour[:3], below[:3], strict=True))


def test_the_hint_arrows_have_an_edge_that_stands_out_on_every_owners_colour():
    game = GrabGame(GrabOptions(countries=40), size=(320, 200))
    state = game.initial_state(random.Random(3))
    hint = choose_move(state, 0)
    assert hint.kind is not MoveKind.NONE
    palette = [tuple(v / 255 for v in rgb) for rgb in PALETTE.values()]
    shapes = arrows(state, game.map_of(state), palette, hint)
    hinted = shapes[len(shapes) - len(hint.sources) :]
    assert hinted and all(a.fill == HINT_COLOUR for a in hinted)
    for arrow in hinted:
        # Outside in: the bands that edge the gold, each wide enough to see.
        edges = [(arrow.outline, OUTLINE_WIDTH)]
        halo = getattr(arrow, "halo", None)
        if halo is not None:
            edges.insert(0, (halo, HALO_WIDTH))
        assert all(width >= EDGE for _colour, width in edges)
        for land in [*palette, MOUNTAIN_COLOUR]:
            seen = [over(colour, land) for colour, _w in edges]
            best = max(contrast(edge, land) for edge in seen)
            assert best >= CONTRAST, (land, best)
            # And the gold stands out from the edge right around it.
            assert contrast(over(arrow.fill, seen[-1]), seen[-1]) >= CONTRAST


@pytest.fixture
def grab_5(director) -> Iterator[Any]:
    """MasterGrab (seed 5, as the gallery shows it) on the shared Director, in its own
    window size (a headless window draws the HUD at its first size, so pixels are read at
    that size)."""
    from game.games.grab.controller import GrabController

    if director.overlay.visible:
        director.overlay.toggle()
    session = MemorySession(options={})
    director.register("grab-screen", lambda: GrabController(session, seed=5))
    director.switch("grab-screen")
    assert director.settle()
    try:
        yield director.controller
    finally:
        director.tweens.cancel_all()


@pytest.mark.gl
def test_the_camera_stays_where_the_player_put_it_while_rounds_play(director, grab_5):
    c = grab_5
    c.pan(1, 0)
    c.zoom(1.25)
    director.advance(2.0)  # the camera eases to where the player sent it
    camera = director.scene.camera
    put = (camera.eye.copy(), camera.target.copy(), camera.shift, camera.zoom)
    for _ in range(3):  # three rounds: every robot moves, many of them out of view
        assert director.perform("pass"), director.toast
        assert director.settle()
        director.advance(1.0)
        assert np.allclose(camera.eye, put[0], atol=1e-4)
        assert np.allclose(camera.target, put[1], atol=1e-4)
        assert (camera.shift, camera.zoom) == pytest.approx(put[2:])
    assert len(c.match.record) >= 3 * c.game.seats


@pytest.mark.gl
def test_nothing_of_the_map_shows_through_the_ranking_and_the_buttons(director, grab_5):
    hud = director.hud
    assert hud.sheet.visible  # the ranking
    disabled = [v for v in hud._buttons if not v.enabled]
    assert disabled  # Redo and Skip at the first turn
    boxes = [(hud.sheet.x, hud.sheet.y, hud.sheet.width, hud.sheet.height)]
    boxes += [(v.x, v.y, v.w, v.h) for v in hud._buttons]
    boxes.append((hud.panel.x, hud.panel.y, hud.panel.width, hud.panel.height))
    before = director.capture()
    grab_5.pan(2, 1)  # the map moves under the HUD
    director.advance(2.0)
    after = director.capture()
    h = before.shape[0]
    moved = np.abs(before.astype(int) - after.astype(int)).max(axis=2)
    assert (moved > 40).mean() > 0.3  # the map did move under the HUD
    for x, y, w, bh in boxes:
        inset = 8  # inside the rounded corners
        rows = slice(int(h - (y + bh)) + inset, int(h - y) - inset)
        cols = slice(int(x) + inset, int(x + w) - inset)
        assert moved[rows, cols].max() == 0, (x, y, w, bh)
