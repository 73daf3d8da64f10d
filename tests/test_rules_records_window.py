"""A described game's record in the window, headless: a move after undo starts a variation
that the move list shows and a click goes to, the rows name the move rule, and the game
with its variations is saved and loaded (PGN, PDN, SGF, the plain record)."""

from __future__ import annotations

import pytest

from game.logic.rules.records import read_record
from tests.test_board_controller import move_list, open_board, run

__all__ = ["open_board"]  # the fixture, used by name

pytestmark = pytest.mark.gl


def tips(director) -> list[str]:
    return [b.tooltip for b in director.commands().buttons() if b.group == "list"]


def test_a_move_after_undo_starts_a_variation_and_both_lines_stay(director, open_board):
    c = open_board("chess")
    run(director, "e2-e4", "e7-e5", "g1-f3", "undo", "b1-c3")
    # The other line's row follows the row of the move it was played instead of.
    assert move_list(director) == ["1. e4 e5", "▸ 2. Nc3", "  ↳ 2. Nf3"]
    assert [[n.text for n in line] for line in c.record().lines()] == [
        ["e4", "e5", "Nf3"],
        ["e4", "e5", "Nc3"],
    ]
    # Each row's tooltip names the piece and the move program of its turns.
    assert tips(director)[0].startswith("Pawn ") and "e2-e4" in tips(director)[0]
    run(director, "variation-3-0")  # the row under move 2: the other line
    assert [s.text for s in c.match.full_record] == ["e4", "e5", "Nf3"]
    assert move_list(director) == ["1. e4 e5", "▸ 2. Nf3", "  ↳ 2. Nc3"]
    assert "Knight" in c.message
    run(director, "move-1")
    assert c.match.cursor == 2 and "Move 2 of 3" in c.message


def test_the_hint_names_the_move_rule(director, open_board):
    from game.logic.match import Hint

    c = open_board("english-draughts", position="B:W6,7,15,16,24:B1,2")
    jump = next(m for m in c.state.legal_actions() if len(m[0]) > 2)  # a capture chain
    c.match.hint_result = Hint(c.state.key(), jump, c.state.action_text(jump))
    c._show_hint()  # as when the hint agent's answer comes
    assert f"Hint: {c.state.action_text(jump)} (Man " in c.message
    assert c.state.describe(jump) in c.message


def test_chess_saved_with_a_variation_loads_back_with_both(director, open_board, tmp_path):
    c = open_board("chess")
    run(director, "e2-e4", "e7-e5", "undo", "c7-c5", "g1-f3")
    path = tmp_path / "game.pgn"
    run(director, f"save-to:{path}")
    text = path.read_text(encoding="utf-8")
    assert "1. e4 e5 (1... c5 2. Nf3) *" in text
    c.restart()
    assert c.match.cursor == 0
    run(director, f"load-from:{path}")
    assert [s.text for s in c.match.full_record] == ["e4", "e5"]
    assert len(list(c.record().lines())) == 2
    run(director, "variation-2-1")
    assert [s.text for s in c.match.full_record] == ["e4", "c5", "Nf3"]
    assert c.match.cursor == 2 and c.match.can_redo()


@pytest.mark.parametrize(
    "game,moves,suffix",
    [
        ("english-draughts", ["11-15", "22-18", "15x22"], "PDN"),
        ("hex", ["a1", "b2", "c3"], "SGF"),
        ("kalah", ["s3", "s6"], "plain"),
    ],
)
def test_each_format_saves_and_loads_in_the_window(director, open_board, tmp_path, game, moves,
                                                   suffix):  # fmt: skip
    c = open_board(game)
    run(director, *moves)
    played = [s.text for s in c.match.full_record]
    path = tmp_path / "game"
    c.save(path)
    assert read_record(path.read_text(encoding="utf-8")).format == suffix.lower()
    c.restart()
    run(director, f"load-from:{path}")
    assert [s.text for s in c.match.full_record] == played


def test_a_bad_record_is_a_message_and_the_game_goes_on(director, open_board, tmp_path):
    c = open_board("chess")
    run(director, "e2-e4")
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. e4 e5 2. Ke3 *\n")
    assert not director.perform(f"load-from:{bad}")
    assert "move 2 (Ke3)" in director.toast
    assert [s.text for s in c.match.full_record] == ["e4"]
    other = tmp_path / "kalah.txt"
    other.write_text('[Game "kalah"]\n\n1. s3 *\n')
    assert not director.perform(f"load-from:{other}")
    assert "a game of kalah, not chess" in director.toast
    assert [s.text for s in c.match.full_record] == ["e4"]


def test_play_load_opens_the_record(director, tmp_path):
    from game.games.rules.controller import BoardController
    from game.registry import MemorySession

    path = tmp_path / "game.pgn"
    path.write_text("1. d4 (1. e4 e5) 1... d5 2. c4 *\n")
    session = MemorySession({"first": "human", "second": "human"})
    c = BoardController(session, game="chess", record=(path.read_text(), str(path)))
    try:
        assert [s.text for s in c.match.full_record] == ["d4", "d5", "c4"]
        assert len(list(c.record().lines())) == 2
    finally:
        c.match.close()


def test_a_kept_game_comes_back_with_its_variations(director, open_board):
    from game.games.rules.controller import BoardController

    c = open_board("chess")
    run(director, "e2-e4", "e7-e5", "undo", "c7-c5")
    session = c.session
    session.keep_match(c.kept_now())
    again = BoardController(session, game="chess")  # Continue: no seed, no overrides
    try:
        assert [s.text for s in again.match.full_record] == ["e4", "c5"]
        lines = [[n.text for n in line] for line in again.record().lines()]
        assert lines == [["e4", "e5"], ["e4", "c5"]]
    finally:
        again.match.close()
