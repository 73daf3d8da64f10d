"""Hex as a description (a hexagonal board, and the connects end condition), checked against
a small Hex written here by hand: the same perft, and the same winner at the same ply in random
games on several board sizes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.notation import move_texts
from game.logic.rules.rulebook import DescribedPosition, Rulebook
from tests.deep import sized

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1))


def _joined(stones: set[tuple[int, int]], player: int, size: int) -> bool:
    """Whether player 0's stones join row 0 to row size-1 (player 1's: column 0 to size-1)."""
    axis = 1 if player == 0 else 0
    todo = [s for s in stones if s[axis] == 0]
    seen = set(todo)
    while todo:
        x, y = todo.pop()
        if (x, y)[axis] == size - 1:
            return True
        for dx, dy in NEIGHBOURS:
            q = (x + dx, y + dy)
            if q in stones and q not in seen:
                seen.add(q)
                todo.append(q)
    return False


def _perft(size: int, depth: int, stones: tuple[set[tuple[int, int]], ...], turn: int) -> int:
    if depth == 0:
        return 1
    if any(_joined(stones[p], p, size) for p in (0, 1)):
        return 0
    total = 0
    for x in range(size):
        for y in range(size):
            if (x, y) not in stones[0] and (x, y) not in stones[1]:
                stones[turn].add((x, y))
                total += _perft(size, depth - 1, stones, 1 - turn)
                stones[turn].remove((x, y))
    return total


def _cell(e: Rulebook, at: int) -> tuple[int, int]:
    x, y = e.design.board.xy[at]
    return round(x), round(y)


@pytest.mark.deep
@pytest.mark.parametrize(("size", "depth"), [(2, 4), (3, sized(6, 7))])
def test_hex_perft_agrees_with_a_hand_written_hex(size: int, depth: int) -> None:
    """On a side of 3 the first player can join at ply 5, which depth 6 sees (games that
    end there have no 6th move); the second player's joins at ply 6 show only at depth 7,
    which costs a CPU second and a half more and runs under GAMEHALL_DEEP_CHECKS: in CI,
    the random games below see both players win, at the ply the hand-written Hex says."""
    e = rulebook("hex", {"side": size})
    for d in range(1, depth + 1):
        assert e.perft(e.start(), d) == _perft(size, d, (set(), set()), 0)


@pytest.mark.parametrize("size", [4, 7, 11])
def test_random_hex_games_end_with_the_same_winner_at_the_same_ply(size: int) -> None:
    e = rulebook("hex", {"side": size})
    rng = random.Random(size)
    for _ in range(25):
        pos: DescribedPosition = e.start()
        stones: tuple[set[tuple[int, int]], ...] = (set(), set())
        while True:
            moves = e.legal(pos)
            ended = e.outcome(pos, moves)
            mover = e.last_mover(pos)
            if pos.plies and _joined(stones[mover], mover, size):
                assert ended == "win"
                chain = e.chain(pos, "first-side", "second-side")
                assert {_cell(e, p) for p in chain} <= stones[mover]
                break
            assert ended is None and moves  # Hex cannot fill up without a winner
            move = rng.choice(moves)
            stones[e.player(pos)].add(_cell(e, move[0][-1]))
            e.make(pos, move)


def _play(e: Rulebook, texts: list[str]) -> DescribedPosition:
    pos = e.start()
    for text in texts:
        moves = e.legal(pos)
        e.make(pos, moves[move_texts(e, pos, moves).index(text)])
    return pos


def test_the_board_is_told_which_pieces_won() -> None:
    hex4 = rulebook("hex", {"side": 4})
    names = hex4.design.board.names
    # Red joins row 1 to row 4: b1 b2 b3 then a4 (b3's neighbour up and to the left); c1
    # touches b1 but not the path, d4 stands alone.
    red = ["b1", "b2", "c1", "b3", "d4"]
    blue = ["a1", "a2", "d1", "d2", "c4"]
    moves = [m for pair in zip(red, blue, strict=True) for m in pair]
    pos = _play(hex4, moves)
    assert hex4.outcome(pos, None) is None and hex4.winning(pos) == []
    pos = _play(hex4, [*moves, "a4"])
    assert hex4.outcome(pos, None) == "win"
    # The chain is every red stone that touches the last one through red stones.
    assert sorted(names[p] for p in hex4.winning(pos)) == ["a4", "b1", "b2", "b3", "c1"]
    ttt = rulebook("tic-tac-toe")
    pos = _play(ttt, ["a1", "b1", "b2", "c1", "c3"])
    assert [ttt.design.board.names[p] for p in ttt.winning(pos)] == ["a1", "b2", "c3"]


def _openspiel_cases() -> list[tuple[int, list[str], list[int]]]:
    data = Path(__file__).parent / "data" / "hex_perft.txt"
    out = []
    for line in data.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        side, moves, counts = (part.strip() for part in line.split(";"))
        out.append((int(side), moves.split(), [int(c) for c in counts.split()]))
    return out


OPENSPIEL = _openspiel_cases()


@pytest.mark.parametrize("case", range(len(OPENSPIEL)))
def test_hex_counts_equal_openspiels(case: int) -> None:
    """A second opinion: OpenSpiel's hex counts the same move paths (tests/data/hex_perft.txt,
    written by tools/hex_reference.py) from the start and from random games' positions."""
    side, moves, counts = OPENSPIEL[case]
    e = rulebook("hex", {"side": side})
    pos = _play(e, moves)
    for depth, expected in enumerate(counts[: sized(2, 3)], start=1):
        assert e.perft(pos, depth) == expected, (side, moves, depth)
