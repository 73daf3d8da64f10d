"""Tallies and number expressions (game/logic/rules/numbers.py): a tally changes with every
move and back with unmake, is part of the position's key, and an end condition compares
expressions over tallies; a game without tallies is untouched by them."""

from __future__ import annotations

import random

import pytest

from game.logic.rules.catalogue import path_of, rulebook
from game.logic.rules.design import parse
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError

TALLIES = """(tally taken per-player (add captured))
(tally kings per-player (add (captured King)))
(tally moves (add 1) (start 10))
"""


def _english(tallies: str = TALLIES, end: str = "(win (>= (tally taken) 3))") -> Rulebook:
    text = path_of("english-draughts").read_text(encoding="utf-8")
    text = text.replace("(end\n", f"{tallies}(end\n  {end}\n", 1)
    return Rulebook(parse(text, "t.txt"))


def test_a_game_of_three_captures_keeps_each_players_tally_and_ends_at_three() -> None:
    e = _english()
    pos = e.start()
    assert pos.tallies == (0, 0, 0, 0, 10)
    rng = random.Random(1)
    taken = [0, 0]
    for ply in range(200):
        moves = e.legal(pos)
        outcome = e.outcome(pos, moves)
        if outcome is not None:
            break
        move = rng.choice(moves)
        taken[e.player(pos)] += len(move[1])
        e.make(pos, move)
        assert pos.tallies[:2] == tuple(taken) and pos.tallies[4] == 11 + ply
    assert outcome == "win" and max(taken) == 3
    winner = taken.index(3)
    assert e.returns(pos, outcome)[winner] == 1.0


def test_unmake_puts_the_tallies_back_and_the_key_holds_them() -> None:
    e = _english()
    pos = e.start()
    rng = random.Random(4)
    for _ in range(12):
        e.make(pos, rng.choice(e.legal(pos)))
    before, key = pos.tallies, e.key(pos)
    for move in e.legal(pos):
        saved = e.make(pos, move)
        e.unmake(pos, saved)
        assert pos.tallies == before and e.key(pos) == key
    other = pos.copy()
    other.tallies = (9, *before[1:])
    assert e.key(other) != key and other.board == pos.board


def test_tallies_change_no_move_count() -> None:
    e, plain = _english(end="(win (< (tally moves) 0))"), rulebook("english-draughts")
    assert e.perft(e.start(), 4) == plain.perft(plain.start(), 4)


@pytest.mark.parametrize(
    ("end", "holds"),
    [
        ("(= (tally moves) 10)", True),
        ("(> (tally moves theirs) 10)", False),
        ("(<= (- (tally moves) 3) 7)", True),
        ("(< (max 1 (* 2 (tally moves)) 3) 20)", False),
        ("(>= (min (tally taken) (+ 1 2)) 0)", True),
    ],
)
def test_expressions_at_the_start(end: str, holds: bool) -> None:
    e = _english(end=f"(draw {end})")
    start = e.start()
    assert (e.outcome(start, e.legal(start)) == "draw") is holds


@pytest.mark.parametrize(
    ("tallies", "end", "message"),
    [
        (TALLIES, "(win (>= (tally lost) 3))", r"t\.txt:\d+:\d+: no tally 'lost'"),
        (TALLIES, "(win (>= (tally taken) x))", r"t\.txt:\d+:\d+: expected a whole number"),
        (TALLIES, "(win (>= (/ 1 2) 3))", r"t\.txt:\d+:\d+: expected a number, \(tally"),
        (TALLIES, "(win (>= (tally taken mine) 3))", r"\(tally NAME theirs\)"),
        (TALLIES, "(win (>= 1))", r"\(>= \.\.\.\) takes 2 arguments"),
        ("(tally a (add (captured Queen)))\n", "(win stuck)", r"no piece type 'Queen'"),
        ("(tally a)\n(tally a)\n", "(win stuck)", r"t\.txt:\d+:\d+: the tally 'a' is declared"),
        ("(tally a each)\n", "(win stuck)", r"expected per-player, per-square, \(start N\)"),
    ],
)
def test_a_bad_tally_or_expression_is_refused_with_its_place(
    tallies: str, end: str, message: str
) -> None:
    with pytest.raises(DescriptionError, match=message):
        _english(tallies, end)


def test_a_game_without_tallies_has_none_and_plays_with_the_plain_methods() -> None:
    e = rulebook("chess")
    assert e.start().tallies == () and "make" not in vars(e) and "key" not in vars(e)


def test_perft_ends_a_path_where_a_comparison_ends_the_game() -> None:
    """Win at the first capture: perft counts the paths that capture only on their last ply."""
    plain = rulebook("english-draughts")

    def paths(depth: int, took: bool) -> int:
        if depth == 0:
            return 1
        if took:
            return 0
        total = 0
        for move in plain.legal(pos):
            saved = plain.make(pos, move)
            total += paths(depth - 1, bool(move[1]))
            plain.unmake(pos, saved)
        return total

    e = _english(end="(win (>= (tally taken) 1))")
    pos = plain.start()
    assert e.perft(e.start(), 4) == paths(4, False) < plain.perft(plain.start(), 4)
