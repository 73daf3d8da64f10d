"""Exact endgame solver: the final disc difference under perfect play, and every best move.

:func:`solve` wraps the numba search of :mod:`game.logic.reversi.endgame` and
:mod:`game.logic.reversi.kernels` (PVS alpha-beta, a bucketed transposition table with enhanced
transposition cut-offs, stability cut-offs, moves ordered by a shallow search with the pattern
evaluation from 12 empties on and fastest first below, then parity and square-value ordering
without the table, and hand-written solvers for the last four empty squares). Scores are for the
side to move, empty squares going to the winner (the FFO convention). Practical up to about 26
empty squares (FFO #40, 20 empties: about half a second on one core; #45, 24 empties: about
25 s; #49, 26 empties: about 30 s).

>>> from game.logic.reversi.board import Position, square_name
>>> pos = Position.from_text("X" * 40 + "O" * 16 + "-OX-O--X X")
>>> sol = solve(pos, all_moves=True)
>>> sol.score, [square_name(m) for m in sol.best]
(56, ['a8'])
"""

from __future__ import annotations

from functools import partial
from typing import Final

import numpy as np

from . import exact
from .board import Position
from .exact import GUESS_EMPTIES, SearchCancelled, Solution, SolverError
from .patterns import load_weights

__all__ = ["GUESS_EMPTIES", "SearchCancelled", "Solution", "SolverError", "solve"]

_GUESS_DEPTH = 8  # of the midgame search that estimates the score


def _estimate(
    position: Position, stop: np.ndarray | None, time_limit: float | None
) -> tuple[float | None, int]:
    """The pattern evaluation's score for ``position`` after a short midgame search, or None
    when the caller's flag stopped it (the solve then reports the cancel itself); and the nodes
    it searched."""
    from .search import TranspositionTable, search  # imported when first needed, as before

    try:
        result = search(
            position,
            depth=_GUESS_DEPTH,
            exact_empties=0,
            stop=stop,
            time_limit=time_limit,
            weights=load_weights(),
            table=TranspositionTable(1 << 16),
        )
    except SearchCancelled:
        return None, 0
    return result.score, result.nodes


#: Solve ``position`` exactly: :func:`game.logic.reversi.exact.solve` (which says what each
#: argument does) with a short midgame search as its ``estimate``, so that without a
#: ``guess`` a position with :data:`GUESS_EMPTIES` or more empty squares gets one from it.
solve: Final = partial(exact.solve, estimate=_estimate)
