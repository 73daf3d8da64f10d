"""Reversi through its commands, clicks and typed moves, on the shared headless Director."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from game.engine.controller import Tone
from game.games.reversi.controller import ReversiController
from game.logic.reversi.board import PASS, Color, Position, square_name
from game.registry import MemorySession

pytestmark = pytest.mark.gl

Opener = Callable[..., ReversiController]


@pytest.fixture
def open_reversi(director) -> Iterator[Opener]:
    """Opens a fresh game with the options given (default: a person on each colour) and a
    session of its own; the shared Director's factory is put back afterwards."""
    before = director.factories.get("reversi")

    def opener(**options: Any) -> ReversiController:
        values = {"black": "human", "white": "human", "time_per_move": 0.05, **options}
        session = MemorySession(values)
        director.register("reversi", lambda: ReversiController(session, seed=1))
        if director.overlay.visible:
            director.overlay.toggle()
        director.switch("reversi")
        assert director.settle()
        return director.controller

    try:
        yield opener
    finally:
        director.tweens.cancel_all()
        if before is not None:
            director.register("reversi", before)


@pytest.fixture
def reversi(open_reversi) -> ReversiController:
    return open_reversi()


def run(director, *commands: str) -> None:
    for command in commands:
        assert director.perform(command), (command, director.toast)
        assert director.settle()


def board_state(c: ReversiController) -> dict[int, str]:
    """What the player sees: each square's disc (hidden or which face up)."""
    assert c.board is not None
    seen = {}
    for sq, node in c.board.discs.items():
        if node.hidden:
            seen[sq] = "-"
        else:
            seen[sq] = "X" if float(node.rotation[0]) > 0.5 else "O"
    return seen


def expected(position: Position) -> dict[int, str]:
    text = position.text()
    return {sq: text[sq] for sq in range(64)}


def test_the_start_shows_four_discs_and_four_legal_marks(director, reversi):
    assert board_state(reversi) == expected(Position.start())
    marks = [n for n in director.scene if n.name.startswith("legal_") and not n.hidden]
    assert sorted(n.name for n in marks) == sorted(
        f"legal_{square_name(m)}" for m in Position.start().legal_moves()
    )


def test_a_move_drops_a_disc_and_flips_outward(director, reversi):
    assert director.perform("d3")
    assert director.tweens.busy > 0
    # During the animation a move changes nothing.
    key = reversi.position.key()
    assert not director.perform("c3")
    assert "settle" in director.toast
    assert reversi.position.key() == key
    director.settle()
    after = Position.start().apply(19)  # d3
    assert reversi.position == after
    assert board_state(reversi) == expected(after)
    assert not director.scene["last_move"].hidden


def test_a_click_on_a_square_plays_its_move(director, reversi):
    # The Director's pick met the felt at d3's centre: the square is read from that point.
    reversi.host.hit = reversi.board.center(19, 0.0)
    assert reversi.on_pick(director.scene["board"]) == 19
    assert reversi.on_pick(None) is None
    assert director.play(19)
    director.settle()
    assert reversi.match.actions() == [19]


def test_typed_moves(director, reversi):
    for ch in "d3":
        director.window.dispatch_event("on_text", ch)
    director.window.dispatch_events()
    director.settle()
    assert reversi.match.actions() == [19]  # d3 = row 2, column 3


def test_the_standard_keys_are_in_the_table(reversi):
    keys = reversi.commands().keys()
    assert {keys[k] for k in ("H", "N", "U", "Y", "R", "W", "HOME", "END")} == {
        "hint", "next", "undo", "redo", "new", "swap", "undo-all", "redo-all",
    }  # fmt: skip


def test_undo_and_redo_restore_exact_states(director, reversi):
    run(director, "d3", "c5", "f6", "f5")
    states = [(reversi.match.state_at(i), expected(reversi.match.state_at(i))) for i in range(5)]
    for i in range(4, -1, -1):
        assert reversi.position == states[i][0]
        assert board_state(reversi) == states[i][1]
        if i:
            run(director, "undo")
    run(director, "redo-all")
    assert reversi.position == states[4][0]
    run(director, "goto:2")
    assert reversi.position == states[2][0]
    assert board_state(reversi) == states[2][1]
    run(director, "move-2")  # the move list's button: Black's and White's second turns
    assert reversi.position == states[4][0]
    labels = [b.label for b in director.commands().buttons() if b.group == "list"]
    assert labels == ["The start position", "1. d3 c5", "▸ 2. f6 f5"]
    run(director, "goto:2")
    # A new move from the middle drops the redo branch.
    run(director, square_name(reversi.position.legal_moves()[0]))
    assert len(reversi.match.full_record) == 3


def test_hover_previews_the_flips(reversi):
    pos = reversi.position
    move = pos.legal_moves()[0]
    reversi.hover = None
    reversi.on_hover(None)
    reversi.hover = move
    reversi._marks_dirty = True
    reversi._refresh_marks()
    lit = {sq for sq, node in reversi.board.discs.items() if node.highlight > 0}
    flips = pos.flips(move)
    assert lit == {sq for sq in range(64) if flips >> sq & 1}


def test_a_bad_move_or_file_is_a_message(director, reversi, tmp_path):
    assert not director.perform("a1")
    assert "a1" in director.toast.lower()
    bad = tmp_path / "bad.txt"
    bad.write_text("f5 d6 zz")
    run(director, "d3")
    assert not director.perform(f"load-from:{bad}")
    assert reversi.match.actions() == [19]
    assert str(bad) in director.toast


def test_save_and_load_a_transcript(director, reversi, tmp_path):
    run(director, "f5", "d6", "c3")
    path = tmp_path / "game.txt"
    run(director, f"save-to:{path}")
    assert path.read_text().strip() == "f5d6c3"
    assert reversi.message == f"Saved 3 moves to {path}"
    run(director, "new", "new")  # a game in progress: the second press starts the new one
    assert reversi.match.cursor == 0
    run(director, f"load-from:{path}")
    assert [square_name(m) for m in reversi.match.actions()] == ["f5", "d6", "c3"]
    assert board_state(reversi) == expected(reversi.position)


def test_the_save_message_counts_moves_without_the_passes(open_reversi, tmp_path):
    moves = _a_game_with_a_pass()
    c = open_reversi()
    c.load_moves(moves)  # as --load does
    path = tmp_path / "passes.txt"
    c.save(path)
    placed = [m for m in moves if m != PASS]
    assert len(placed) < len(moves) == c.match.cursor
    assert c.message == f"Saved {len(placed)} moves to {path}"
    assert len(path.read_text().strip()) == 2 * len(placed)


def test_new_game_asks_once_while_a_game_is_in_progress(director, reversi):
    run(director, "d3", "new")
    assert reversi.match.cursor == 1
    assert "again" in reversi.message
    run(director, "new")
    assert reversi.match.cursor == 0


def test_a_full_game_against_the_computer(director, open_reversi):
    c = open_reversi(white="beginner")
    guard = 0
    while not c.match.over:
        guard += 1
        assert guard < 200
        if c.match.person_to_move():
            moves = c.position.legal_moves()
            assert director.perform(square_name(moves[-1]))
        assert director.settle()
    assert c.status().tone in (Tone.WON, Tone.LOST, Tone.INFO)
    assert "wins" in c.status().banner or "Draw" in c.status().banner
    black, white = c.position.disc_count()
    assert c.session.records == [
        {"key": "reversi:beginner:black", "won": black > white, "drawn": black == white,
         "setting": None, "score": None, "margin": black - white}
    ]  # fmt: skip
    # After the end, moves change nothing.
    key = c.position.key()
    assert not director.perform("a1")
    assert c.position.key() == key


def test_undo_then_redo_or_a_jump_to_the_computers_turn_lets_it_move(director, open_reversi):
    """The computer thinks whenever it is to move, also after undo, redo and a jump (it
    used to stall at ``moves=1 to_move=O``)."""
    c = open_reversi(white="advanced")
    run(director, "d3")
    assert c.status_line() == "status=playing black=3 white=3 moves=2 to_move=X"
    run(director, "undo")
    assert c.status_line().endswith("moves=0 to_move=X")
    run(director, "redo")
    assert c.status_line().endswith("moves=2 to_move=X")
    run(director, "goto:1")  # the move list: the computer's turn
    assert c.status_line().endswith("moves=2 to_move=X")
    assert c.match.seats[1] is not None and len(c.match.full_record) == 2


def test_clicks_during_the_computers_turn_change_nothing(director, open_reversi):
    c = open_reversi(white="master", time_per_move=5.0)
    director.perform("d3")
    while director.tweens.busy:
        director.update(1 / 60)  # the disc lands; the computer starts thinking
    director.update(1 / 60)
    assert c.match.thinking()
    key = c.position.key()
    for move in c.position.legal_moves():
        assert not director.perform(square_name(move))
    assert c.position.key() == key
    director.perform("undo")  # undo cancels the search and takes back the person's move
    assert not c.match.thinking()
    assert c.position == Position.start()
    assert all(n.hidden for sq, n in c.board.discs.items() if sq not in (27, 28, 35, 36))


def test_swap_gives_the_computer_the_other_colour_and_saves_the_sides(director, open_reversi):
    c = open_reversi(white="beginner")
    run(director, "d3")
    assert c.match.cursor == 2  # the computer answered; Black (the person) to move
    run(director, "swap")
    assert c.sides == {Color.BLACK: "beginner", Color.WHITE: "human"}
    assert {k: c.session.saved[-1][k] for k in ("black", "white", "time_per_move")} == {
        "black": "beginner", "white": "human", "time_per_move": 0.05
    }  # fmt: skip
    assert c.match.cursor == 3 and c.match.person_to_move()  # the computer played Black


def test_the_hint_is_the_computers_level(director, open_reversi):
    c = open_reversi(white="classic-beginner")
    run(director, "hint")
    hint = c.match.current_hint()
    assert hint is not None and hint.action in Position.start().legal_moves()
    assert c.match.hint_agent.name == "classic-beginner"
    assert c.message.startswith(f"Hint: {hint.text} (rank ")
    assert not director.scene["hint_ghost"].hidden
    run(director, "next")
    assert c.match.actions()[0] == hint.action


def _a_game_with_a_pass() -> list[int]:
    """A random finished game in which a side had to pass (found from a fixed seed)."""
    for seed in range(500):
        rng = random.Random(seed)
        position, moves = Position.start(), []
        while not position.is_terminal():
            move = rng.choice(position.legal_moves())
            moves.append(move)
            position = position.apply(move)
        if PASS in moves:
            return moves
    raise AssertionError("no random game with a pass")


def test_a_file_that_cannot_be_written_is_a_message(director, reversi, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert not director.perform(f"save-to:{blocker / 'game.txt'}")
    assert "cannot write" in director.toast


def test_save_refuses_a_link_a_pipe_and_a_folder_and_changes_nothing(director, reversi, tmp_path):
    """Save writes through the one safe writer: it once wrote through a link to its target
    (/etc/passwd) and waited for ever on a named pipe."""
    run(director, "f5")
    target = tmp_path / "passwd"
    target.write_text("root:x:0:0\n")
    link, pipe, folder = tmp_path / "link.txt", tmp_path / "pipe.txt", tmp_path / "folder"
    link.symlink_to(target)
    os.mkfifo(pipe)
    folder.mkdir()
    # A reader holds the pipe open, so that a write that opened it would go through, not hang.
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        for path, kind in ((link, "a symbolic link"), (pipe, "a named pipe"), (folder, "a folder")):
            assert not director.perform(f"save-to:{path}")
            assert director.toast == (
                f"cannot write {path}: is {kind}, not a regular file; nothing was written"
            )
        assert os.read(reader, 100) == b""  # nothing was written into the pipe
    finally:
        os.close(reader)
    assert target.read_text() == "root:x:0:0\n" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "folder",
        "link.txt",
        "passwd",
        "pipe.txt",
    ]
    assert list(folder.iterdir()) == []
