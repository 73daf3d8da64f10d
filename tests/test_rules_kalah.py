"""Kalah described as text agrees with a small Kalah written here by hand, straight from the
rules (pits 0-5 South's, 6 South's store, 7-12 North's, 13 North's store): the same perft,
and the same moves and counts along random games."""

from __future__ import annotations

import random

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.notation import read_position
from game.logic.rules.rulebook import DescribedPosition
from tests.deep import sized

Board = tuple[int, ...]
#: The perft depth compared: 6 in CI (23,233 lines, with sowing past the store, extra turns
#: and captures; the 7th, 114,430, was three quarters of the file's time), 7 under
#: benchmarks/slow_checks.py.
PERFT_DEPTH = sized(6, 7)


def _moves(board: Board, south: bool) -> list[int]:
    pits = range(0, 6) if south else range(7, 13)
    if not any(board[0:6]) or not any(board[7:13]):
        return []
    return [p for p in pits if board[p]]


def _sow(board: Board, south: bool, pit: int) -> tuple[Board, bool]:
    """The board after sowing ``pit``, and whether the same player moves again."""
    cells = list(board)
    seeds, cells[pit] = cells[pit], 0
    skip = 13 if south else 6
    at = pit
    while seeds:
        at = (at + 1) % 14
        if at == skip:
            continue
        cells[at] += 1
        seeds -= 1
    store = 6 if south else 13
    own = range(0, 6) if south else range(7, 13)
    if at == store:
        return tuple(cells), True
    if at in own and cells[at] == 1 and cells[12 - at]:
        cells[store] += cells[12 - at] + 1
        cells[at] = cells[12 - at] = 0
    return tuple(cells), False


def _perft(board: Board, south: bool, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for pit in _moves(board, south):
        after, again = _sow(board, south, pit)
        total += _perft(after, south if again else not south, depth - 1)
    return total


#: Our pit of each of the description's positions.
ORDER = ["s1", "s2", "s3", "s4", "s5", "s6", "S", "n1", "n2", "n3", "n4", "n5", "n6", "N"]


def _board(e: object, pos: DescribedPosition) -> Board:
    names = e.design.board.names  # type: ignore[attr-defined]
    return tuple(pos.board[names.index(n)] for n in ORDER)


@pytest.mark.deep
def test_perft_agrees_with_kalah_written_by_hand() -> None:
    e = rulebook("kalah")
    start = (4,) * 6 + (0,) + (4,) * 6 + (0,)
    assert _board(e, e.start()) == start
    for depth in range(1, PERFT_DEPTH + 1):
        assert e.perft(e.start(), depth) == _perft(start, True, depth)


def test_moves_and_counts_agree_along_random_games() -> None:
    e = rulebook("kalah")
    names = e.design.board.names
    rng = random.Random(3)
    for _ in range(60):
        pos = e.start()
        while True:
            board, south = _board(e, pos), e.player(pos) == 0
            ours = e.legal(pos)
            theirs = _moves(board, south)
            if e.outcome(pos, ours) is not None:  # one side's pits are empty: the count
                assert e.outcome(pos, ours) == "count" and theirs == []
                break
            assert sorted(ORDER.index(names[m[0][0]]) for m in ours) == theirs
            move = rng.choice(ours)
            after, again = _sow(board, south, ORDER.index(names[move[0][0]]))
            e.make(pos, move)
            assert _board(e, pos) == after
            assert (e.player(pos) == 0) == (south if again else not south)


def test_the_generic_text_reads_back() -> None:
    e = rulebook("kalah")
    text = "Seed: s1 1, n5 3, n1 2 / South to move"
    pos = read_position(e, text)
    from game.logic.rules.notation import position_text

    assert position_text(e, pos) == "Seed: s1 1, n1 2, n5 3 / South to move"
