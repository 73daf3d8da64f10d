"""Perft: the spec's table from the start in both conventions, and a pure-Python perft."""

from __future__ import annotations

import doctest
import random

import pytest

from game.logic.reversi import perft as perft_module
from game.logic.reversi.board import PASS, Position
from game.logic.reversi.perft import PERFT_START, PerftError, perft, perft_both


def python_perft(position: Position, depth: int) -> tuple[int, int]:
    """Plain recursive ``(bik, edax)`` perft on :class:`Position`; a pass is one ply."""
    if depth == 0:
        return 1, 1
    legal = position.legal_moves()
    if not legal:
        return 1, 0  # Bik counts a game that ended early as a leaf; Edax does not
    bik = edax = 0
    for move in legal:
        b, e = python_perft(position.apply(move), depth - 1)
        bik += b
        edax += e
    return bik, edax


def random_position(seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    position = Position.start()
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        position = position.apply(rng.choice(legal))
    return position


def test_doctests() -> None:
    assert doctest.testmod(perft_module).failed == 0


@pytest.mark.parametrize("depth", range(1, 11))
def test_start_position_table(depth: int) -> None:
    bik, edax = PERFT_START[depth]
    assert perft(Position.start(), depth) == bik
    assert perft(Position.start(), depth, "edax") == edax
    assert perft_both(Position.start(), depth) == (bik, edax)


def test_conventions_differ_from_depth_ten() -> None:
    assert all(b == e for d, (b, e) in PERFT_START.items() if d < 10)
    assert all(b > e for d, (b, e) in PERFT_START.items() if d >= 10)


@pytest.mark.parametrize("depth", range(0, 8))
def test_bulk_counting_matches_full_visits(depth: int) -> None:
    start = Position.start()
    assert perft_both(start, depth, bulk=False) == perft_both(start, depth)


def test_start_matches_pure_python() -> None:
    assert python_perft(Position.start(), 5) == PERFT_START[5]


@pytest.mark.parametrize(("seed", "plies", "depth"), [(1, 20, 4), (2, 30, 4), (3, 40, 4)])
def test_mid_game_matches_pure_python(seed: int, plies: int, depth: int) -> None:
    position = random_position(seed, plies)
    assert python_perft(position, depth) == perft_both(position, depth)
    assert python_perft(position, depth) == perft_both(position, depth, bulk=False)


@pytest.mark.parametrize("seed", range(8))
def test_endgames_with_passes_and_early_ends(seed: int) -> None:
    """Near the end, passes and games that end before the last ply are common."""
    rng = random.Random(seed)
    position = Position.start()
    while position.empties > 7 and position.legal_moves():
        position = position.apply(rng.choice(position.legal_moves()))
    depth = position.empties + 3  # deep enough to run past every game's end
    expected = python_perft(position, depth)
    assert perft_both(position, depth) == expected
    assert perft_both(position, depth, bulk=False) == expected


def test_a_pass_is_one_ply() -> None:
    text = "--OOO----X-O------XX-------XX------XX-------X-------------------X"
    position = Position.from_text(text)
    assert position.legal_moves() == [PASS]
    assert perft_both(position, 1) == (1, 1)
    assert perft_both(position, 2) == (3, 3)  # the pass, then white's three moves
    over = Position.from_text("X" * 63 + "- O")
    assert perft_both(over, 0) == (1, 1)
    assert perft_both(over, 3) == (1, 0)


@pytest.mark.parametrize(
    ("depth", "convention", "message"),
    [
        (-1, "bik", "depth -1"),
        (2.0, "bik", "depth 2.0"),
        (True, "bik", "depth True"),
        (2, "Bik", "convention 'Bik'"),
    ],
)
def test_bad_requests(depth: object, convention: str, message: str) -> None:
    with pytest.raises(PerftError, match=message):
        perft(Position.start(), depth, convention)  # type: ignore[arg-type]
