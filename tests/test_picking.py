"""Picking hits what is drawn under the mouse: in every described game (four drawn as
English draughts is, under GAMEHALL_DEEP_CHECKS only) and in Reversi, at two window sizes
(three under GAMEHALL_DEEP_CHECKS), a click where a piece is drawn picks that piece's square.

Where a piece is drawn comes from the picture itself, not from the picking code: the scene is
rendered, its depth buffer read back, and each pixel's depth turned into the world point drawn
there; a pixel shows a piece when that point lies inside the piece's own box (above the board).
Each piece is clicked at its visual centre (its box's centre, projected), at the middle of the
pixels it covers and at its foot (the lowest pixel it covers, where a taller piece in front
reached over it when picking tested bounding boxes), whichever of those it is drawn at.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from game.engine.director import Director
from game.engine.scene import Node
from game.games.reversi.controller import ReversiController
from game.games.rules.controller import BoardController
from game.logic.rules.catalogue import shipped
from game.registry import MemorySession
from tests.deep import sized as deep_sized
from tests.waiting import HANG_S

pytestmark = pytest.mark.gl

#: The window's two shapes (4:3, 16:9); 1920 x 1080, the second shape half as large again (and
#: a third of the file's CPU time: the depth of two million pixels read back and turned
#: into world points per game), under GAMEHALL_DEEP_CHECKS.
SIZES = deep_sized(((800, 600), (1280, 720)), ((800, 600), (1280, 720), (1920, 1080)))
#: Games whose start has fewer pieces than this get seeded random moves first.
FEW = 4
#: Described games drawn as another game of the list is (the same 8x8 grid of dark squares,
#: the same men at the same start as English draughts): picked in CI through English
#: draughts, each of them under GAMEHALL_DEEP_CHECKS. Italian draughts' board is turned
#: (its bottom-left square light) and stays.
DRAWN_AS_ENGLISH = ("russian-draughts", "brazilian-draughts", "pool-checkers", "czech-draughts")
PICKED = ["reversi", *(g for g in shipped() if deep_sized(g not in DRAWN_AS_ENGLISH, True))]


@pytest.fixture
def sized(director: Director) -> Iterator[Director]:
    """The shared Director, drawn without the still-frame cache (whose copy leaves the depth
    buffer empty) and put back to its size afterwards."""
    size = director.window_size()
    cache = director.renderer.cache_still
    if director.overlay.visible:
        director.overlay.toggle()
    director.renderer.cache_still = False
    try:
        yield director
    finally:
        director.renderer.cache_still = cache
        director.on_resize(*size)


def settle(director: Director) -> None:
    for _ in range(100):
        controller = director.controller
        match = getattr(controller, "match", None)
        if match is not None:
            assert match.wait(timeout=HANG_S)
        assert director.settle()
        if not director.busy():
            return
    raise AssertionError("the scene did not settle")


def open_game(director: Director, game: str) -> Any:
    """``game`` with people on both sides (Reversi included), a few seeded random moves
    played when its start shows fewer than :data:`FEW` pieces."""
    if game == "reversi":
        session = MemorySession({"black": "human", "white": "human", "animation": False})
        director.register(game, lambda: ReversiController(session))
    else:
        values = {"first": "human", "second": "human"}
        director.register(game, lambda: BoardController(MemorySession(values), game=game, seed=1))
    director.switch(game)
    settle(director)
    c = director.controller
    rng = random.Random(game)
    while len(pieces(c)) < FEW and not c.match.over:
        c.match.play(rng.choice(c.match.state.legal_actions()))
        c._reset_scene()
        settle(director)
    return c


def pieces(c: Any) -> list[tuple[int, list[Node]]]:
    """Every piece drawn (its nodes: a Reversi disc is two faces), with its square."""
    if isinstance(c, ReversiController):
        assert c.board is not None
        return [(sq, [n, c.board.unders[sq]]) for sq, n in c.board.discs.items() if not n.hidden]
    return [(p, [n]) for p, nodes in c.board.pieces.items() for n in nodes if not n.hidden]


def picked(director: Director, x: float, y: float) -> int | None:
    """The square a click at window point (x, y) picks, as the scene's controller reads it."""
    c = director.controller
    action = c.on_pick(director.pick_at(x, y))
    return getattr(action, "position", action)


def drawn_points(
    director: Director, items: list[tuple[int, list[Node]]]
) -> list[tuple[int, float, float]]:
    """For each piece, the window points to click it at (see the module docstring), each with
    the piece's square."""
    size = director.framebuffer_size()
    assert size == director.window_size()
    w, h = size
    fbo = director.offscreen(size)
    director.render(fbo, size)
    raw = fbo.read(attachment=-1, components=1, dtype="f4")
    depth = np.frombuffer(raw, dtype="f4").reshape(h, w)  # row 0 at the bottom, as the mouse
    vp = director.renderer.view_projection(director.scene, size).astype("f8")
    inverse = np.linalg.inv(vp)
    points: list[tuple[int, float, float]] = []
    for square, nodes in items:
        boxes = []
        for node in nodes:
            lo, hi = (np.asarray(v, dtype="f8") for v in director.bounds[str(node.mesh)])
            boxes.append((lo, hi, node.world_matrix().astype("f8")))
        corners = np.array([world @ [x, y, z, 1.0] for lo, hi, world in boxes
                            for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                            for z in (lo[2], hi[2])])  # fmt: skip
        clip = (vp @ corners.T).T
        ndc = clip[:, :2] / clip[:, 3:4]
        x0, y0 = np.floor((ndc.min(axis=0) + 1) / 2 * (w, h)).astype(int)
        x1, y1 = np.ceil((ndc.max(axis=0) + 1) / 2 * (w, h)).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x0 >= x1 or y0 >= y1:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1]
        z = depth[y0:y1, x0:x1]
        # Each pixel's drawn point in the world.
        pixel = np.stack([(xs + 0.5) / w * 2 - 1, (ys + 0.5) / h * 2 - 1, z * 2 - 1,
                          np.ones_like(z, dtype="f8")], axis=-1).reshape(-1, 4)  # fmt: skip
        drawn = (inverse @ pixel.T).T
        inside = np.zeros(len(drawn), dtype=bool)
        for lo, hi, world in boxes:  # in each node's own space
            local = (np.linalg.inv(world) @ drawn.T).T
            local = local[:, :3] / local[:, 3:4]
            slack = 0.02 * (hi - lo)
            # Low marks on the board (a ring) reach into the corners of the box: not the piece.
            foot = lo[1] + 0.25 * (hi[1] - lo[1])
            inside |= (
                np.all(local >= lo - slack, axis=1)
                & np.all(local <= hi + slack, axis=1)
                & (local[:, 1] > foot)
            )
        inside &= z.reshape(-1) < 1.0
        # Clicks go inside the piece, not on its outline, where a pixel may go either way.
        mask = inside.reshape(z.shape)
        core = mask.copy()
        core[1:, :] &= mask[:-1, :]
        core[:-1, :] &= mask[1:, :]
        core[:, 1:] &= mask[:, :-1]
        core[:, :-1] &= mask[:, 1:]
        core[[0, -1], :] = False
        core[:, [0, -1]] = False
        if not core.any():
            continue
        shown = np.stack([xs[core], ys[core]], axis=1)
        lo, hi, world = boxes[0]
        c = vp @ world @ np.append((lo + hi) / 2, 1.0)
        projected = (c[:2] / c[3] + 1) / 2 * (w, h)
        middle = shown.mean(axis=0)
        lowest = shown[shown[:, 1] == shown[:, 1].min()]
        for target in (projected, middle, lowest.mean(axis=0)):
            nearest = shown[np.argmin(np.hypot(*(shown - target).T))]
            if director.hud.contains(float(nearest[0]), float(nearest[1])):
                continue  # the HUD takes a click there
            points.append((square, float(nearest[0]) + 0.5, float(nearest[1]) + 0.5))
    return points


@pytest.mark.deep
@pytest.mark.parametrize("game", PICKED)
def test_a_click_where_a_piece_is_drawn_picks_that_piece(sized, game):
    director = sized
    c = open_game(director, game)
    names = c.design.board.names if isinstance(c, BoardController) else None
    for size in SIZES:
        director.on_resize(*size)
        director.update(1 / 60)
        items = pieces(c)
        points = drawn_points(director, items)
        # Every piece is drawn somewhere a click can reach.
        assert {sq for sq, _x, _y in points} == {sq for sq, _n in items}, (game, size)
        wrong = []
        for square, x, y in points:
            got = picked(director, x, y)
            if got != square:
                wrong.append((names[square] if names else square, round(x), round(y),
                              names[got] if names and got is not None else got))  # fmt: skip
        assert not wrong, (game, size, wrong)


def test_the_boxes_tested_together_answer_as_each_box_alone() -> None:
    """The picking tests every node's box at once (``_ray_boxes``); the one-box slab test it
    replaced gives the same distance or the same miss, rays along an axis included."""
    from game.engine.picking import _ray_boxes, ray_box

    rng = np.random.default_rng(7)
    n = 3000
    lo = rng.uniform(-2, 1, (n, 3))
    hi = lo + rng.uniform(0.1, 2, (n, 3))
    origins = rng.uniform(-4, 4, (n, 3))
    directions = rng.normal(size=(n, 3))
    directions[rng.random((n, 3)) < 0.2] = 0.0  # along an axis, or a plane of two
    got = _ray_boxes(origins, directions, lo, hi)
    hits = 0
    for i in range(n):
        one = ray_box(origins[i], directions[i], lo[i], hi[i])
        if one is None:
            assert np.isnan(got[i]), i
        else:
            hits += 1
            assert got[i] == pytest.approx(one), i
    assert 0 < hits < n
