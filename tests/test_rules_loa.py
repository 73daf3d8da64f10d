"""Lines of Action as described in game/logic/rules/games/lines-of-action.txt: perft against
the counts of another program (tests/data/loa_perft.txt, written by tools/loa_reference.py
with the Riddles.io rulebook's move generator), to the deepest depth under a node cap; and the
two forms of the language it needs, a count of the pieces on a line ``(line-pieces DIR)``
as a ``(repeat COUNT ...)`` and the end ``(connected [theirs])``."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.rules.catalogue import path_of, rulebook
from game.logic.rules.design import parse
from game.logic.rules.notation import move_texts, read_position
from game.logic.rules.rulebook import PASS, Rulebook
from game.logic.rules.sexpr import DescriptionError
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data" / "loa_perft.txt"
NODE_CAP = 20_000


CASES = perft_cases(DATA)


@pytest.mark.parametrize(("text", "counts"), CASES, ids=[f"pos{i}" for i in range(len(CASES))])
def test_perft_matches_another_program(text: str, counts: list[int]) -> None:
    check_perft(rulebook("lines-of-action"), text, counts, NODE_CAP)


def test_the_data_reaches_the_ends_of_games() -> None:
    assert CASES[0][1][:3] == [36, 1244, 44952]
    assert len(CASES) >= 10
    assert sum(1 for text, _ in CASES if text.count(" ") < 25) >= 3  # few pieces left


def test_a_piece_moves_as_far_as_the_line_holds_pieces_over_its_own_not_the_enemys() -> None:
    e = rulebook("lines-of-action")
    # Row 5 holds four pieces: each moves four squares along it. The White pieces are
    # blocked by Black ones; Black's f5 goes to b5 over its own d5; d5 takes h5.
    pos = read_position(e, "Black: Checker d5 f5 / White: Checker a5 h5 / Black to move")
    texts = move_texts(e, pos, e.legal(pos))
    assert "f5-b5" in texts and "d5xh5" in texts
    assert not any(t.startswith("d5-") and t.endswith("5") for t in texts)


def test_a_move_that_connects_both_players_wins_for_the_mover() -> None:
    e = rulebook("lines-of-action")
    # Black d4 takes White's lone d2 (two pieces on the d-file: two squares) and joins c1;
    # White's a8 and b8 are left as one group too. The mover, Black, wins.
    pos = read_position(e, "Black: Checker c1 d4 / White: Checker d2 a8 b8 / Black to move")
    moves = e.legal(pos)
    e.make(pos, moves[move_texts(e, pos, moves).index("d4xd2")])
    assert e.outcome(pos, e.legal(pos)) == "win"  # for Black, who moved
    assert sorted(e.design.board.names[p] for p in e.winning(pos)) == ["c1", "d2"]


def test_a_capture_that_leaves_the_opponent_one_group_loses() -> None:
    e = rulebook("lines-of-action")
    # Black b3 takes the lone White piece on d3 (two pieces on the row); White's other
    # pieces g7 and h8 touch: White wins.
    pos = read_position(e, "Black: Checker b3 a8 / White: Checker d3 g7 h8 / Black to move")
    texts = move_texts(e, pos, e.legal(pos))
    move = e.legal(pos)[texts.index("b3xd3")]
    e.make(pos, move)
    assert e.outcome(pos, e.legal(pos)) == "loss"  # for Black, who moved


def test_a_player_who_cannot_move_passes() -> None:
    e = rulebook("lines-of-action")
    # Every line through White's a1 and h8 carries them over a Black piece: White passes.
    pos = read_position(
        e, "Black: Checker b1 a2 b2 g7 g8 h7 / White: Checker a1 h8 / White to move"
    )
    moves = e.legal(pos)
    assert moves == [PASS]
    assert e.outcome(pos, moves) is None
    e.make(pos, PASS)
    assert e.player(pos) == 0 and e.legal(pos)


def test_the_language_checks_counts_and_connected() -> None:
    text = path_of("lines-of-action").read_text(encoding="utf-8")
    bad_count = text.replace("(minus (line-pieces d) 1)", "(line-pieces)")
    with pytest.raises(DescriptionError, match="line-pieces"):
        parse(bad_count, "loa.txt")
    not_a_count = text.replace("(minus (line-pieces d) 1)", "(empty)")
    with pytest.raises(DescriptionError, match="a count is a whole number"):
        parse(not_a_count, "loa.txt")
    no_direction = text.replace("(line-pieces d)", "(line-pieces up)")
    with pytest.raises(DescriptionError, match="unknown direction 'up'"):
        parse(no_direction, "loa.txt")
    bad_end = text.replace("(connected theirs)", "(connected mine)")
    with pytest.raises(DescriptionError, match="connected theirs"):
        parse(bad_end, "loa.txt")
    body = "(repeat (minus (line-pieces d) 1) d (verify (not enemy)))"
    no_body = text.replace(body, "(repeat 2)")
    with pytest.raises(DescriptionError, match="needs a count and a body"):
        parse(no_body, "loa.txt")


def test_a_fixed_count_repeats_a_step() -> None:
    # A piece that moves exactly three squares east.
    text = (
        "(game hop) (players A B) (board (grid (size 5 1)) (directions (e 1 0) (w -1 0)))"
        "(piece P (moves (move hop (repeat 3 e) (verify empty) add)))"
        "(setup (A (P a1)) (B (P e1))) (end (draw stuck))"
    )
    e = Rulebook(parse(text, "hop.txt"))
    pos = e.start()
    assert move_texts(e, pos, e.legal(pos)) == ["a1-d1"]


def test_rules_check_names_a_bad_count_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.cli import main

    text = path_of("lines-of-action").read_text(encoding="utf-8")
    wrong = tmp_path / "loa.txt"
    wrong.write_text(text.replace("(minus (line-pieces d) 1)", "(minus (line-pieces d) x)"))
    assert main(["rules", "check", str(wrong)]) == 2
    err = capsys.readouterr().err
    line = text.splitlines().index(next(t for t in text.splitlines() if "(repeat" in t)) + 1
    assert f"loa.txt:{line}:" in err and "whole number" in err
    assert main(["rules", "check", "lines-of-action"]) == 0
    assert "8 move programs" in capsys.readouterr().out
