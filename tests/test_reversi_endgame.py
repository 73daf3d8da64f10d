"""The solver's upper layer: the evaluated move ordering's shallow search and its schedule, and
exact scores where that ordering is in play, checked against the layer below it."""

from __future__ import annotations

import numpy as np
import pytest
from reversi_positions import played

from game.logic.reversi import endgame
from game.logic.reversi.board import PASS, Color, Position
from game.logic.reversi.patterns import evaluate_bits, load_weights
from game.logic.reversi.solver import solve

INF = 1 << 20


def reference(position: Position, depth: int) -> int:
    """Plain negamax over the pattern evaluation, no pruning, in hundredths of a disc: a pass
    counts as a ply, a finished game one ply or more from the root scores 100 per disc, and a
    position at depth 0 is evaluated even when the game is over (as the ordering search does)."""
    if depth == 0:
        return evaluate_bits(np.uint64(position.mine), np.uint64(position.theirs), load_weights())
    legal = position.legal_moves()
    if not legal:
        score = position.score() if position.to_move is Color.BLACK else -position.score()
        return 100 * score
    return max(-reference(position.apply(move), depth - 1) for move in legal)


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_eval_search_is_negamax_over_the_evaluation(depth: int) -> None:
    """Inside the window the value is the negamax value; outside, a bound on the right side."""
    w = load_weights()
    for seed in range(6):
        position = played(100 * depth + seed, 14 + 3 * seed)
        exact = reference(position, depth)
        p, o = np.uint64(position.mine), np.uint64(position.theirs)
        assert endgame._eval_search(p, o, -INF, INF, depth, w) == exact
        for alpha, beta in ((exact - 50, exact + 50), (exact, exact + 1), (exact - 1, exact)):
            value = endgame._eval_search(p, o, alpha, beta, depth, w)
            if value <= alpha:
                assert exact <= value
            elif value >= beta:
                assert exact >= value
            else:
                assert value == exact


def test_eval_search_scores_finished_games_by_discs() -> None:
    # Black has every disc but one and no empty square is left next to white: game over.
    position = Position.from_text("X" * 63 + "O X")
    assert not position.legal_moves()
    p, o = np.uint64(position.mine), np.uint64(position.theirs)
    assert endgame._eval_search(p, o, -INF, INF, 2, load_weights()) == 100 * 62
    assert reference(position, 2) == 100 * 62


def test_sort_depth_schedule() -> None:
    depths = [endgame.sort_depth(n) for n in range(61)]
    assert all(d == -1 for d in depths[: endgame.EVAL_ORDER_EMPTIES])
    assert depths[endgame.EVAL_ORDER_EMPTIES] == 0
    assert depths == sorted(depths)  # deeper the more squares are empty
    assert max(depths) == 3  # the ordering search is written out to three plies


@pytest.mark.parametrize("seed", range(8))
def test_evaluated_ordering_keeps_scores_exact(seed: int) -> None:
    """At the first count of empties where the pattern evaluation orders the moves, the score
    and the best moves equal those from the children's solves, which are ordered without it."""
    position = next(
        pos
        for pos in (played(500 + 97 * seed + k, endgame.EVAL_ORDER_EMPTIES) for k in range(50))
        if pos.empties == endgame.EVAL_ORDER_EMPTIES and pos.legal_moves() not in ([], [PASS])
    )
    legal = position.legal_moves()
    values = {move: -solve(position.apply(move)).score for move in legal}
    best = max(values.values())
    solution = solve(position, all_moves=True)
    assert solution.score == best
    assert solution.best == sorted(m for m, v in values.items() if v == best)
    p, o = np.uint64(position.mine), np.uint64(position.theirs)
    assert endgame.solve_exact(p, o, best - 1, best + 1) == best
    assert endgame.solve_exact(p, o, best, best + 1) <= best  # fail-low at the score
    assert endgame.solve_exact(p, o, best - 1, best) >= best  # fail-high at the score


@pytest.mark.parametrize("seed", range(4))
def test_null_window_searches_from_any_guess_find_the_score(seed: int) -> None:
    """Whatever the guess (far below, at, far above the score, odd, out of range), the
    searches meet at the exact score and the move returned reaches it."""
    position = next(
        pos
        for pos in (played(900 + 31 * seed + k, 12) for k in range(50))
        if pos.empties == 12 and pos.legal_moves() not in ([], [PASS])
    )
    exact = solve(position, guess=None, all_moves=True)
    assert exact.score == max(-solve(position.apply(m)).score for m in position.legal_moves())
    for guess in (-64.0, -99.0, exact.score - 13.5, float(exact.score), exact.score + 7.0, 64.0):
        solution = solve(position, guess=guess, all_moves=True)
        assert solution.score == exact.score, guess
        assert solution.best == exact.best, guess


def test_null_window_searches_find_a_move_when_every_move_loses_everything() -> None:
    # White to move, one disc left and two empty squares: whatever it plays, black then takes
    # every disc (score -64), so no null-window search fails high.
    position = Position.from_text("X" * 35 + "-XXXXXXOX-" + "X" * 19 + " O")
    legal = position.legal_moves()
    assert legal and legal != [PASS]
    solution = solve(position, guess=10.0)
    assert solution.score == -64
    assert solution.best[0] in legal
    assert -solve(position.apply(solution.best[0])).score == solution.score
