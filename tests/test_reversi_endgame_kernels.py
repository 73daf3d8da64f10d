"""The solver's hand-written last-empties kernels and the branch-free flips, each against a
plain Python reference built on :class:`Position` (its own move generator, not the kernels')."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from game.logic.reversi import endgame, kernels
from game.logic.reversi.board import Color, Position

_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def python_flips(mine: int, theirs: int, sq: int) -> int:
    """Discs flipped by ``mine`` playing ``sq``, walked square by square."""
    if (mine | theirs) >> sq & 1:
        return 0
    row, col = divmod(sq, 8)
    flipped = 0
    for dr, dc in _DIRECTIONS:
        r, c = row + dr, col + dc
        run = 0
        while 0 <= r < 8 and 0 <= c < 8 and theirs >> (r * 8 + c) & 1:
            run |= 1 << (r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and mine >> (r * 8 + c) & 1:
            flipped |= run
    return flipped


@functools.cache
def exact(position: Position) -> int:
    """Plain negamax to the end of the game (side to move's disc difference), memoised."""
    legal = position.legal_moves()
    if not legal:
        score = position.score()
        return score if position.to_move is Color.BLACK else -score
    return max(-exact(position.apply(move)) for move in legal)


def random_board(rng: random.Random, empties: int) -> Position:
    """Random discs on all but ``empties`` squares, one colour often far ahead: many passes and
    finished games."""
    cells = list(range(64))
    rng.shuffle(cells)
    share = rng.choice([0.5, 0.9, 0.98])
    black = white = 0
    for sq in cells[empties:]:
        if rng.random() < share:
            black |= 1 << sq
        else:
            white |= 1 << sq
    return Position(black, white, rng.choice([Color.BLACK, Color.WHITE]))


def played_board(rng: random.Random, empties: int) -> Position:
    """A position reached by random legal moves (or the game's end, if it came first)."""
    position = Position.start()
    while position.empties > empties and position.legal_moves():
        position = position.apply(rng.choice(position.legal_moves()))
    return position


def positions(seed: int, count: int) -> list[Position]:
    """``count`` positions with 1 to 6 empties, half from random play, half random boards."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        empties = 1 + i % 6
        out.append(played_board(rng, empties) if i % 2 else random_board(rng, empties))
    return out


def windows(score: int) -> list[tuple[int, int]]:
    """The full window and null or narrow windows below, on and above ``score``."""
    return [(-64, 64), (score - 1, score + 1), (score, score + 1), (score - 1, score)] + [
        (a, a + 1) for a in (score - 10, score + 8)
    ]


def check_fail_soft(value: int, exact_score: int, alpha: int, beta: int) -> None:
    if value <= alpha:
        assert exact_score <= value, (value, exact_score, alpha, beta)
    elif value >= beta:
        assert exact_score >= value, (value, exact_score, alpha, beta)
    else:
        assert value == exact_score, (value, exact_score, alpha, beta)


def test_flips_match_a_square_by_square_walk() -> None:
    rng = random.Random(7)
    for i in range(3000):
        density = 0.3 + 0.6 * (i % 10) / 10
        black = white = 0
        for sq in range(64):
            if rng.random() < density:
                if rng.random() < 0.5:
                    black |= 1 << sq
                else:
                    white |= 1 << sq
        p, o = np.uint64(black), np.uint64(white)
        for sq in range(64):
            if not (black | white) >> sq & 1:  # flips is only defined on an empty square
                assert int(kernels.flips(p, o, sq)) == python_flips(black, white, sq), (i, sq)


@pytest.mark.parametrize("seed", range(4))
def test_last_empties_solvers_match_minimax(seed: int) -> None:
    """``_solve_small`` (1-4 empties: the hand-written solvers; 5-6: the shallow search)."""
    passes = ends = 0
    for position in positions(100 + seed, 120):
        mine, theirs = position.mine, position.theirs
        p, o = np.uint64(mine), np.uint64(theirs)
        empties = np.uint64(~(mine | theirs) & 0xFFFFFFFFFFFFFFFF)
        legal = position.legal_moves()
        passes += legal == [-1] or legal == [64]
        ends += not legal
        score = exact(position)
        for alpha, beta in windows(score):
            value, nodes = kernels.solve_small(p, o, alpha, beta, empties, position.empties)
            check_fail_soft(int(value), score, alpha, beta)
            assert nodes >= 1
        assert endgame.solve_exact(p, o, -64, 64) == score
    assert passes > 0 and ends > 0  # the random boards reach both


@pytest.mark.parametrize("seed", range(2))
def test_each_solver_by_itself(seed: int) -> None:
    """``_solve1`` .. ``_solve4`` called with their squares in every rotation of the order (packed
    six bits a square from ``_solve2`` on)."""
    for position in positions(200 + seed, 96):
        n = position.empties
        if n > 4:
            continue
        mine, theirs = position.mine, position.theirs
        p, o = np.uint64(mine), np.uint64(theirs)
        squares = [sq for sq in range(64) if not (mine | theirs) >> sq & 1]
        score = exact(position)
        for shift in range(n):
            xs = squares[shift:] + squares[:shift]
            for alpha, beta in windows(score):
                if n == 1:
                    value = kernels._solve1(p, o, alpha, xs[0])
                    if value > alpha:  # fail-low may stop early, otherwise exact
                        assert value == score
                    else:
                        assert score <= value
                    continue
                solver = {2: kernels._solve2, 3: kernels._solve3, 4: kernels._solve4}[n]
                packed = sum(x << (6 * k) for k, x in enumerate(xs))  # six bits a square
                value, _ = solver(p, o, alpha, beta, packed)
                check_fail_soft(int(value), score, alpha, beta)


def test_last_flip_count_matches_flips_on_a_full_board() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        sq = rng.randrange(64)
        mine = rng.getrandbits(64) & ~(1 << sq)
        theirs = ~mine & ~(1 << sq) & 0xFFFFFFFFFFFFFFFF
        expected = python_flips(mine, theirs, sq).bit_count()
        assert kernels._last_flip_count(np.uint64(mine), sq) == expected


def test_the_last_layers_are_copies_of_one_template() -> None:
    """``_solve2`` .. ``_solve4`` and the ordering search's ``_eval1`` .. ``_eval3`` are each
    compiled from one function's code, not written out once per depth."""
    for layers in (
        (kernels._solve2, kernels._solve3, kernels._solve4),
        (endgame._eval1, endgame._eval2, endgame._eval3),
    ):
        assert len({layer.py_func.__code__ for layer in layers}) == 1
        assert len({layer.py_func.__name__ for layer in layers}) == len(layers)  # cache files
