"""ZRF goals, passes and recycled captures, on our own small ZRF files (tests/data/zrf/) with
counts and lines worked out by hand; and the end conditions of our own language they map
onto (rules/goals.py), on our own small descriptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.rules.catalogue import made_rulebook, rulebook
from game.logic.rules.design import parse
from game.logic.rules.notation import move_texts, parse_move, read_position
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError
from game.logic.zrf.load import design, forms

DATA = Path(__file__).parent / "data" / "zrf"


def _book(name: str, variant: int = 0) -> Rulebook:
    path = DATA / name
    return made_rulebook(design(path.read_text(), str(path), variant))


def _play(book: Rulebook, line: str) -> tuple[str | None, tuple[float, ...]]:
    """The outcome and each player's result after the moves of ``line``."""
    pos = book.start()
    for text in line.split():
        moves = book.legal(pos)
        book.make(pos, parse_move(book, pos, moves, move_texts(book, pos, moves), text))
    outcome = book.outcome(pos, book.legal(pos))
    return outcome, book.returns(pos, outcome)


def test_goals_become_end_conditions_for_the_mover_and_the_player_to_move() -> None:
    path = DATA / "goals-race.zrf"
    end = next(f for f in forms(path.read_text(), str(path)) if getattr(f, "head", "") == "end")
    assert str(end) == (
        "(end (loss (exactly 0)) (win (exactly 0 theirs)) (win stuck)"
        ' (win (and (moved White) (at ("a4" "b4" "c4") Pawn)))'
        ' (win (and (moved Black) (at ("a1" "b1" "c1") Pawn)))'
        ' (loss (and (to-move White) (at ("a4" "b4" "c4") Pawn theirs)))'
        ' (loss (and (to-move Black) (at ("a1" "b1" "c1") Pawn theirs))))'
    )


def test_a_puzzle_of_one_player_is_judged_for_that_player() -> None:
    path = DATA / "goals-puzzle.zrf"
    end = next(f for f in forms(path.read_text(), str(path)) if getattr(f, "head", "") == "end")
    assert str(end) == '(end (win (and (at ("b2") Box) (at ("c2") Box))) (loss stuck))'


def test_the_race_counts_and_each_goal_after_a_known_line() -> None:
    book = _book("goals-race.zrf")
    start = book.start()
    assert [book.perft(start, d) for d in (1, 2, 3)] == [3, 3, 9]
    # b2 takes Black's only pawn: Black has no piece left (pieces-remaining 0) and loses.
    assert _play(book, "b1-b2 c4-c3 b2xc3") == ("win", (1.0, -1.0))
    # Black's pawn stands blocked on c3 with nothing to take: stalemated, Black loses.
    assert _play(book, "c1-c2 c4-c3 a1-a2") == ("win", (1.0, -1.0))
    # A White pawn reaches White's part of the goal zone (absolute-config): White wins.
    assert _play(book, "a1-a2 c4-c3 a2-a3 c3-c2 a3-a4") == ("win", (1.0, -1.0))
    assert _play(book, "a1-a2 c4-c3 a2-a3 c3-c2")[0] is None


def test_checkmated_makes_the_king_royal_and_mates() -> None:
    book = _book("goals-mate.zrf")
    assert [p.name for p in book.design.pieces if p.royal] == ["King"]
    start = book.start()
    texts = move_texts(book, start, book.legal(start))
    # The White king may not step next to the Black king (a3, b3): 6 king moves, 6 rook
    # moves, where the plain moves would be 14.
    assert len(texts) == 12 and "b2-a3" not in texts and "b2-b3" not in texts
    assert _play(book, "d1-d4") == ("win", (1.0, -1.0))  # a4 attacked, a3 b3 b4 too
    assert _play(book, "d1-d3")[0] is None


def test_pass_partial_makes_each_part_of_a_chain_a_move() -> None:
    with_option, without = _book("goals-partial.zrf", 0), _book("goals-partial.zrf", 1)
    assert move_texts(with_option, with_option.start(), with_option.legal(with_option.start())) == [
        "a1-c1",
        "a1-c1-e1",
    ]
    assert move_texts(without, without.start(), without.legal(without.start())) == ["a1-c1-e1"]


def test_recycle_captures_gives_the_taken_piece_back_to_drop() -> None:
    recycled, kept = _book("goals-recycle.zrf", 0), _book("goals-recycle.zrf", 1)
    assert [recycled.perft(recycled.start(), d) for d in (1, 2, 3)] == [1, 2, 1]
    assert [kept.perft(kept.start(), d) for d in (1, 2)] == [1, 0]
    assert _play(kept, "a1xb1") == ("win", (1.0, -1.0))  # Black stalemated: it loses


GOALS = """
(game goals)
(players A B)
(board (grid (columns a b c) (rows 1 2 3)) (directions (n 0 1) (e 1 0) (w -1 0)))
(piece Man (moves (move step n (verify empty) add)))
(piece King (moves (move step e (verify empty) add)))
(end (win CONDITION) (draw stuck))
"""
#: A to move, so B moved last: A has a Man on a1, B Men on b3 and c3.
POSITION = "A: Man a1 / B: Man b3, Man c3 / A to move"


@pytest.mark.parametrize(
    ("condition", "holds"),
    [
        ("(exactly 2)", True),
        ("(exactly 1 theirs)", True),
        ("(exactly 1 Man)", False),
        ("(exactly 0 King)", True),
        ("(total 3)", True),
        ("(total 2 Man)", False),
        ('(at ("a1" "b1") Man theirs)', True),
        ('(at ("a1") Man)', False),
        ('(at ("a1") (opponent Man))', True),
        ('(at ("a1") (not Man))', True),
        ('(at ("c1") empty)', True),
        ('(at ("b3") (any-owner King))', False),
        ("(pattern Man w Man)", True),
        ("(pattern Man e Man)", True),
        ("(pattern Man n Man)", False),
        ("(pattern Man n Man theirs)", False),
        ("(to-move A)", True),
        ("(moved A)", False),
        ("(and (moved B) (exactly 1 theirs))", True),
    ],
)
def test_our_goal_conditions(condition: str, holds: bool) -> None:
    book = Rulebook(parse(GOALS.replace("CONDITION", condition), "goals.txt"))
    pos = read_position(book, POSITION)
    assert book.outcome(pos, book.legal(pos)) == ("win" if holds else None)


def test_three_in_a_row_as_a_pattern_counts_as_tic_tac_toe() -> None:
    rows = " ".join(f"(win (pattern mark {d} mark {d} mark))" for d in ("n", "e", "ne", "nw"))
    text = (
        "(game rows) (players X O)"
        " (board (grid (columns a b c) (rows 1 2 3))"
        " (directions (n 0 1) (e 1 0) (ne 1 1) (nw -1 1)))"
        " (piece mark (drops (move place (verify empty) add)))"
        f" (end {rows} (draw full))"
    )
    book, lines = Rulebook(parse(text, "rows.txt")), rulebook("tic-tac-toe")
    # Positions where either player can make a row: paths end there as with (line 3).
    for where in (
        "X: mark a1 b1 / O: mark a2 b2 / X to move",
        "X: mark a1 c1 b2 / O: mark a3 c3 b1 / O to move",
        "X: mark b2 / O: mark a1 / X to move",
    ):
        pos, same = read_position(book, where), read_position(lines, where)
        assert [book.perft(pos, d) for d in (1, 2, 3)] == [lines.perft(same, d) for d in (1, 2, 3)]


@pytest.mark.parametrize(
    ("condition", "says"),
    [
        ('(at ("z9") Man)', "no position"),
        ("(to-move C)", "no player 'C'"),
        ("(exactly 1 Queen)", "no piece type 'Queen'"),
        ("(pattern Man w (friend Man))", "an occupant is"),
    ],
)
def test_goal_condition_mistakes_are_named(condition: str, says: str) -> None:
    with pytest.raises(DescriptionError) as caught:
        Rulebook(parse(GOALS.replace("CONDITION", condition), "goals.txt"))
    assert says in str(caught.value) and "goals.txt:7:" in str(caught.value)


def test_a_piece_taken_by_one_part_is_gone_for_the_next() -> None:
    book = _book("goals-gone.zrf")
    start = book.start()
    # a1 leaps over b1 to c1 (taking it), then steps back onto the square it emptied.
    assert move_texts(book, start, book.legal(start)) == ["a1xc1xb1"]
    assert [book.perft(start, d) for d in (1, 2)] == [1, 1]


def test_a_chain_that_takes_may_come_back_to_its_start() -> None:
    book = _book("goals-loop.zrf")
    start = book.start()
    texts = move_texts(book, start, book.legal(start))
    assert sorted(texts) == ["a1xa3xc3xc1xa1", "a1xc1xc3xa3xa1"]
    # Every goose is taken: the Geese have no piece left and lose.
    assert _play(book, texts[0]) == ("win", (1.0, -1.0))


def test_a_chain_that_took_in_an_earlier_part_may_step_back_to_its_start() -> None:
    # The Lion takes the Man next to it and steps back: the last part takes nothing, but the
    # board is not the one the move began with (Tenjiku Shogi's Free Eagle, 9c-10d-9c).
    book = _book("lion-igui.zrf")
    start = book.start()
    assert sorted(move_texts(book, start, book.legal(start))) == ["b1xb2xb1", "b1xb2xb3"]
