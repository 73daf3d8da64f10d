"""Reversi's board on screen, at the three window sizes a player meets most: every coordinate
shows, clear of the HUD and of the discs; the board keeps its place as the move list fills;
and the F3 panel shows the real figures of the last search (headless Director)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from game.games.reversi.controller import ReversiController
from game.games.reversi.panel import evaluation_lines, panel_lines, search_lines
from game.logic.contract import Limits, Stop
from game.logic.reversi.board import Position, parse_move, square_name
from game.logic.reversi.evaluation import evaluate, explain
from game.logic.reversi.players import make_agent
from game.registry import MemorySession

SIZES = [(800, 600), (1280, 720), (1920, 1080)]
COORDINATES = set("abcdefgh12345678")
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 (window units, from bottom-left)


@pytest.fixture
def open_game(director) -> Iterator[Any]:
    """Opens Reversi on the shared Director at a window size, with ``options`` (a person on
    each colour unless told), and puts the window and the factory back afterwards."""
    before = director.factories.get("reversi")
    size = director.window_size()

    def opener(window: tuple[int, int], **options: Any) -> ReversiController:
        values = {"black": "human", "white": "human", "time_per_move": 0.05, **options}
        director.register("reversi", lambda: ReversiController(MemorySession(values), seed=1))
        if director.overlay.visible:
            director.overlay.toggle()
        director.on_resize(*window)
        director.switch("reversi")
        assert director.settle()
        return director.controller

    try:
        yield opener
    finally:
        director.tweens.cancel_all()
        director.on_resize(*size)
        if before is not None:
            director.register("reversi", before)


def run(director, *commands: str) -> None:
    for command in commands:
        assert director.perform(command), (command, director.toast)
        assert director.settle()


def shown_labels(director) -> list[tuple[str, Rect]]:
    """The world labels the HUD draws, each with the rectangle of its text."""
    out = []
    for label in director.hud._world:
        if label.visible and label.text:
            w, h = label.content_width, label.content_height
            out.append((label.text, (label.x - w / 2, label.y - h / 2, label.x + w / 2,
                                     label.y + h / 2)))  # fmt: skip
    return out


def hud_rects(director) -> list[Rect]:
    """What the HUD draws over the scene: the title panel, the banner, every button, the
    sheet."""
    hud = director.hud
    boxes = [hud.panel] + ([hud.banner_box] if hud.banner_box.visible else [])
    rects = [(b.x, b.y, b.x + b.width, b.y + b.height) for b in boxes]
    rects += [(v.x, v.y, v.x + v.w, v.y + v.h) for v in hud._buttons]
    if hud.sheet.visible:
        s = hud.sheet
        rects.append((s.x, s.y, s.x + s.width, s.y + s.height))
    return rects


def disc_rects(director, c: ReversiController) -> list[Rect]:
    """The screen rectangle of a disc resting on each of the 64 squares."""
    rects = []
    for sq in range(64):
        corners = []
        for dx in (-0.45, 0.45):
            for dz in (-0.45, 0.45):
                for y in (0.0, 0.13):
                    point = c.board.center(sq, y) + np.array([dx, 0.0, dz], "f4")
                    corners.append(point)
        xy = [(x, y) for _t, x, y in director._project([("", p) for p in corners])]
        xs, ys = [p[0] for p in xy], [p[1] for p in xy]
        rects.append((min(xs), min(ys), max(xs), max(ys)))
    return rects


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def board_centre(director) -> tuple[float, float]:
    """Where the middle of the felt is drawn."""
    [(_t, x, y)] = director._project([("", np.zeros(3, dtype="f4"))])
    return x, y


# -- the coordinates --------------------------------------------------------------------------


@pytest.mark.gl
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_coordinate_shows_clear_of_the_hud_and_the_discs(director, open_game, size):
    c = open_game(size)
    for commands in ((), ("f5", "d6", "c3", "hint")):  # at the start; with the hint's banner
        run(director, *commands)
        director.advance(0.1)
        labels = shown_labels(director)
        texts = [text for text, _rect in labels]
        # Every letter along the near and far edges, every number down both sides.
        assert sorted(texts) == sorted(list(COORDINATES) * 2), (size, commands, texts)
        w, h = size
        covers = hud_rects(director)
        discs = disc_rects(director, c)
        for text, rect in labels:
            assert rect[0] >= 0 and rect[2] <= w and rect[1] >= 0 and rect[3] <= h, (text, rect)
            hidden_by = [r for r in covers if overlap(rect, r)]
            assert not hidden_by, (size, commands, text, rect, hidden_by)
            on_discs = [r for r in discs if overlap(rect, r)]
            assert not on_discs, (size, commands, text, rect, on_discs)


@pytest.mark.gl
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_board_keeps_its_place_as_the_move_list_comes_and_grows(director, open_game, size):
    c = open_game(size)
    start = board_centre(director)
    # Fourteen moves: the list appears, reaches two-digit numbers and scrolls.
    for _ in range(14):
        move = square_name(c.position.legal_moves()[-1])
        run(director, move)
        assert board_centre(director) == pytest.approx(start, abs=0.5), (move, size)
    run(director, "hint")
    assert board_centre(director) == pytest.approx(start, abs=0.5)
    run(director, "undo")  # the list writes the undone turn in brackets: "▸ 7. b6 (c6)"
    assert board_centre(director) == pytest.approx(start, abs=0.5)
    run(director, "undo-all")
    assert board_centre(director) == pytest.approx(start, abs=0.5)
    assert c.match.cursor == 0


# -- F3: the figures of the last search -------------------------------------------------------


@pytest.mark.parametrize("level", ["beginner", "intermediate", "advanced", "grandmaster"])
def test_every_level_reports_what_it_searched(level):
    """The weak levels too (they score each move with a search and add noise): nodes, hash
    hits where a search ran, and the line of the move played."""
    agent = make_agent(level)
    position = Position.start().apply(parse_move("f5"))
    # Bounded by depth, not the clock: on a loaded machine 0.2 s once ended the search
    # before its second ply, with no table hit and a line of one move.
    move = agent.choose(position, Limits(depth=4), random.Random(3), Stop())
    info = agent.last.info
    assert info["nodes"] >= len(position.legal_moves())
    assert info["pv"] and info["pv"][0] == move
    assert info["seconds"] >= 0.0
    if level != "beginner":  # one ply: each move judged by the evaluation, no table
        assert info["tt_hits"] > 0 or len(info["pv"]) > 1
    lines = search_lines(agent, "the hint")
    assert any(line.startswith("nodes ") and not line.startswith("nodes 0 ") for line in lines)
    assert any(line.startswith("PV ") for line in lines), lines


def test_the_classic_levels_say_they_keep_no_table_and_no_line():
    agent = make_agent("classic-expert")
    agent.choose(Position.start(), Limits(time=1.0), random.Random(0), Stop())
    lines = search_lines(agent)
    assert any(line.startswith("nodes ") and int(line.split()[1].replace(",", "")) > 0
               for line in lines)  # fmt: skip
    assert "the classic minimax keeps no hash table and no principal variation" in lines
    assert not any(line.startswith(("TT hits", "PV")) for line in lines)


def test_no_search_yet_is_said_in_words():
    assert search_lines(None) == [
        "last search: none yet (the computer's next move or a hint, H, fills this in)"
    ]
    assert search_lines(make_agent("master"))[0].startswith("last search: none yet")


def test_the_evaluation_lines_are_the_positions_own_terms():
    position = Position.start()
    for move in ["f5", "d6", "c3"]:
        position = position.apply(parse_move(move))
    lines = evaluation_lines(position, explain(position))
    assert lines[0] == f"evaluation of this position: {evaluate(position):+.2f} discs for white"
    terms = [line.split() for line in lines if line.startswith("  ")]
    assert terms and all(float(value) != 0.0 for _name, value in terms)  # the zeros named after
    assert lines[-1].startswith("zero here: ")


@pytest.mark.gl
def test_f3_shows_the_hints_search_with_real_figures(director, open_game):
    c = open_game((1280, 720), white="intermediate")
    text = "\n".join(panel_lines(c))
    assert "last search: none yet" in text
    run(director, "f5")  # the computer (intermediate) answers
    run(director, "hint")
    lines = panel_lines(c)
    assert "last search: the hint for Black after move 2" in lines
    nodes = next(line for line in lines if line.startswith("nodes "))
    assert int(nodes.split()[1].replace(",", "")) > 0
    pv = next(line for line in lines if line.startswith("PV "))
    assert pv.split()[1] == square_name(c.match.current_hint().action)
