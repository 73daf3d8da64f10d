"""Reversi through its UserActions only, on the shared headless Director."""

from __future__ import annotations

import numpy as np
import pytest

from game.engine.controller import Tone
from game.logic.reversi.board import PASS, Color, Position, square_name

pytestmark = pytest.mark.gl


@pytest.fixture
def reversi(director):
    """A fresh two-person game (both colours played by the test)."""
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("reversi")
    c = director.controller
    c.sides = {Color.BLACK: "human", Color.WHITE: "human"}
    director.settle()
    return c


def board_state(director, c):
    """What the player sees: each square's disc (hidden or which face up)."""
    seen = {}
    for sq, node in c.discs.items():
        if node.hidden:
            seen[sq] = "-"
        else:
            seen[sq] = "X" if float(node.rotation[0]) > 0.5 else "O"
    return seen


def expected(position: Position) -> dict[int, str]:
    text = position.text()
    return {sq: text[sq] for sq in range(64)}


def test_the_start_shows_four_discs_and_four_legal_marks(director, reversi):
    assert board_state(director, reversi) == expected(Position.start())
    marks = [n for n in director.scene if n.name.startswith("legal_") and not n.hidden]
    assert sorted(n.name for n in marks) == sorted(
        f"legal_{square_name(m)}" for m in Position.start().legal_moves()
    )


def test_a_move_drops_a_disc_and_flips_outward(director, reversi):
    assert director.perform("d3")
    assert director.tweens.busy > 0
    # During the animation a click changes nothing.
    key = reversi.position.key()
    assert not director.perform("c3")
    assert reversi.position.key() == key
    director.settle()
    after = Position.start().apply(19)  # d3
    assert reversi.position == after
    assert board_state(director, reversi) == expected(after)
    last = director.scene["last_move"]
    assert not last.hidden


def test_typed_moves(director, reversi):
    for ch in "d3":
        director.window.dispatch_event("on_text", ch)
    director.window.dispatch_events()
    director.settle()
    assert reversi.played == [19]  # d3 = row 2, column 3


def test_undo_and_redo_restore_exact_states(director, reversi):
    for move in ("d3", "c5", "f6", "f5"):
        assert director.perform(move)
        director.settle()
    states = [(p, expected(p)) for p in reversi.positions]
    for i in range(4, -1, -1):
        assert reversi.position == states[i][0]
        assert board_state(director, reversi) == states[i][1]
        if i:
            director.perform("undo")
            director.settle()
    director.perform("redo-all")
    assert reversi.position == states[4][0]
    director.perform("goto:2")
    assert reversi.position == states[2][0]
    assert board_state(director, reversi) == states[2][1]
    # A new move from the middle drops the redo branch.
    move = square_name(reversi.position.legal_moves()[0])
    director.perform(move)
    director.settle()
    assert len(reversi.played) == 3


def test_hover_previews_the_flips(director, reversi):
    pos = reversi.position
    move = pos.legal_moves()[0]
    reversi.hover_square = None
    director.ray = None
    reversi.hover_square = move
    reversi._refresh_marks()
    lit = {sq for sq, node in reversi.discs.items() if node.highlight > 0}
    flips = pos.flips(move)
    assert lit == {sq for sq in range(64) if flips >> sq & 1}


def test_a_bad_move_or_file_is_a_message(director, reversi, tmp_path):
    assert not director.perform("a1")
    assert "a1" in director.toast.lower() or "illegal" in director.toast.lower()
    bad = tmp_path / "bad.txt"
    bad.write_text("f5 d6 zz")
    director.perform("d3")
    director.settle()
    assert not director.perform(f"load:{bad}")
    assert reversi.played == [19]
    assert str(bad) in director.toast


def test_save_and_load_a_transcript(director, reversi, tmp_path):
    for move in ("f5", "d6", "c3"):
        director.perform(move)
        director.settle()
    path = tmp_path / "game.txt"
    assert director.perform(f"save:{path}")
    assert path.read_text().strip() == "f5d6c3"
    director.perform("restart")
    assert director.perform(f"load:{path}")
    assert [square_name(m) for m in reversi.played] == ["f5", "d6", "c3"]
    assert board_state(director, reversi) == expected(reversi.position)


def test_a_full_game_against_the_computer(director, reversi):
    reversi.sides[Color.WHITE] = "beginner"
    reversi.time_per_move = 0.05
    guard = 0
    while not reversi.position.is_terminal():
        guard += 1
        assert guard < 200
        if reversi.position.to_move is Color.BLACK and reversi._mover() == "human":
            moves = reversi.position.legal_moves()
            if moves != [PASS]:
                before = reversi.position
                assert director.perform(square_name(moves[-1]))
                assert reversi.position != before
        assert director.settle()
    black, white = reversi.position.disc_count()
    assert black + white <= 64
    assert reversi.status().tone in (Tone.WON, Tone.LOST, Tone.INFO)
    assert "wins" in reversi.status().banner or "Draw" in reversi.status().banner
    # After the end, moves change nothing.
    key = reversi.position.key()
    assert not director.perform("a1")
    assert reversi.position.key() == key


def test_clicks_during_the_computers_turn_change_nothing(director, reversi):
    reversi.sides[Color.WHITE] = "master"
    reversi.time_per_move = 0.5
    director.perform("d3")
    director.settle(limit=0.6, wall_limit=0.5)  # the disc lands; the computer starts thinking
    director.update(1 / 60)
    assert reversi.thinking is not None
    key = reversi.position.key()
    for move in reversi.position.legal_moves():
        assert not director.perform(square_name(move))
    assert reversi.position.key() == key
    director.perform("undo")  # undo cancels the search and takes back the person's move
    assert reversi.thinking is None
    assert reversi.position == Position.start()
    assert np.all([n.hidden for sq, n in reversi.discs.items() if sq not in (27, 28, 35, 36)])
