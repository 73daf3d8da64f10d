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

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from . import endgame
from .board import PASS, Move, Position, ReversiError
from .patterns import load_weights

__all__ = ["SearchCancelled", "Solution", "SolverError", "solve"]

_POLL_SECONDS = 0.005
#: From this many empty squares on, :func:`solve` estimates the score before it searches.
GUESS_EMPTIES = 18
_GUESS_DEPTH = 8  # of the midgame search that estimates it
_MAX_PROBES = 2  # null-window searches before the rest of the window is searched at once
_T = TypeVar("_T")


class SolverError(ReversiError):
    """A solve request with bad arguments."""


class SearchCancelled(RuntimeError):
    """The search was stopped by the caller's flag or ran past its time limit."""


@dataclass(frozen=True, slots=True)
class Solution:
    """Exact score for the side to move, its best moves (ascending), nodes searched, seconds.

    ``best`` holds one best move, or all of them when :func:`solve` was asked for
    ``all_moves``; it is ``[PASS]`` when the side to move must pass and ``[]`` at game end.
    """

    score: int
    best: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


def solve(
    position: Position,
    *,
    all_moves: bool = False,
    time_limit: float | None = None,
    stop: np.ndarray | None = None,
    tt_bits: int | None = None,
    guess: float | None = None,
) -> Solution:
    """Solve ``position`` exactly.

    ``all_moves``: find every move reaching the best score (one null-window test per other
    move). ``time_limit`` (seconds) and ``stop`` (a numpy uint8 array of length 1 that another
    thread may set to 1) cancel the search with :class:`SearchCancelled`; the caller's array is
    only read. ``tt_bits``: log2 of the transposition-table entries, 24 bytes each (default:
    the number of empties less 4, clamped to 12..18, i.e. at most 6 MB). ``guess``: an estimate
    of the score (discs, side to move) to start from; without one, positions with
    :data:`GUESS_EMPTIES` or more empty squares get one from a short midgame search.

    The score is found by null-window searches: the first at the guess, the next at the bound
    the first returned; if the lower and upper bounds have not met after two, one search covers
    what is left between them. The transposition table carries what each search learnt to the
    next. On FFO #40-49 this visits 14% fewer nodes than one search with the full window (950
    against 1,099 million, the guessing searches included); a guess 10 discs off can cost 1.4
    times the nodes.
    """
    if not isinstance(position, Position):
        raise SolverError(f"solve needs a Position, not {type(position).__name__}")
    if time_limit is not None and not time_limit > 0:
        raise SolverError(f"time limit {time_limit!r} is not a positive number of seconds")
    if stop is not None and (
        not isinstance(stop, np.ndarray) or stop.dtype != np.uint8 or stop.shape != (1,)
    ):
        raise SolverError("stop must be a numpy uint8 array of length 1")
    # A table bigger than the caches costs more in memory stalls than it saves in nodes:
    # 2**18 entries (6 MB) were fastest on FFO #41-45.
    bits = tt_bits if tt_bits is not None else min(18, max(12, position.empties - 4))
    if not 4 <= bits <= 30:
        raise SolverError(f"tt_bits {bits!r} is not in 4..30")

    started = time.perf_counter()
    mine, theirs = position.mine, position.theirs
    legal = position.legal_moves()
    if not legal:  # game over: the score is the board
        score = position.score() if position.to_move.player == 0 else -position.score()
        return Solution(score, [], 0, time.perf_counter() - started)

    job = _Job(np.uint64(mine), np.uint64(theirs), endgame.new_tt(bits), stop, time_limit)
    if legal == [PASS]:
        score = -job.value(np.uint64(theirs), np.uint64(mine), -64, 64)
        return Solution(score, [PASS], job.nodes, time.perf_counter() - started)

    if guess is None and position.empties >= GUESS_EMPTIES:
        guess, nodes = _estimate(position, stop, time_limit)
        job.stats[0] += nodes
    if guess is None:
        score, best_sq = job.root(-64, 64)
    else:
        score, best_sq = job.converge(guess)
    best = [best_sq]
    if all_moves:
        for move in legal:
            if move == best_sq:
                continue
            child = position.apply(move)
            # A fail-low of the child at -score means the move reaches score too.
            value = job.value(np.uint64(child.mine), np.uint64(child.theirs), -score, -score + 1)
            if value <= -score:
                best.append(move)
        best.sort()
    return Solution(score, best, job.nodes, time.perf_counter() - started)


def _estimate(
    position: Position, stop: np.ndarray | None, time_limit: float | None
) -> tuple[float | None, int]:
    """The pattern evaluation's score for ``position`` after a short midgame search, or None
    when the caller's flag stopped it (the solve then reports the cancel itself); and the nodes
    it searched."""
    from .search import TranspositionTable, search  # the search hands its endgames to solve

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


class _Job:
    """One solve: the shared table and node count, and the cancel logic.

    Without a time limit the kernel reads the caller's flag directly. With one, the kernel runs
    in a worker thread (the kernels release the GIL) on a private flag that this thread raises
    when the caller's flag is set or the time is up.
    """

    def __init__(
        self,
        p: np.uint64,
        o: np.uint64,
        tt: np.ndarray,
        stop: np.ndarray | None,
        time_limit: float | None,
    ) -> None:
        self.p = p
        self.o = o
        self.tt = tt
        self.weights = load_weights()
        self.stats = np.zeros(1, dtype=np.int64)
        self.user_stop = stop
        self.time_limit = time_limit
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        if stop is not None and time_limit is None:
            self.flag = stop
        else:
            self.flag = np.zeros(1, dtype=np.uint8)

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    def root(self, alpha: int, beta: int) -> tuple[int, int]:
        """Fail-soft score in ``(alpha, beta)`` and the move reaching it."""

        def run() -> tuple[int, int]:
            score, sq = endgame.solve_root(
                self.p, self.o, alpha, beta, self.tt, self.stats, self.flag, self.weights
            )
            return int(score), int(sq)

        return self._guarded(run)

    def converge(self, guess: float) -> tuple[int, int]:
        """The exact score and a best move: null-window searches starting at ``guess``, each
        next one at the bound the last returned; after :data:`_MAX_PROBES` of them without the
        bounds meeting (a poor guess), one search over the window left between them."""
        lower, upper = -64, 64
        bound = max(-64, min(64, 2 * round(guess / 2)))  # scores are even
        best_sq = -1
        for _ in range(_MAX_PROBES):
            beta = bound + 1 if bound == lower else bound
            score, sq = self.root(beta - 1, beta)
            if score >= beta:
                lower = score
                best_sq = sq  # it reaches at least the new lower bound
            else:
                upper = score
            if lower >= upper:
                break
            bound = score
        if lower < upper or best_sq < 0:
            # The score lies in [lower, upper]: exact inside this window. (Also when no search
            # failed high, so no move is known to reach the score yet.)
            return self.root(lower - 1, upper + 1)
        return lower, best_sq

    def value(self, p: np.uint64, o: np.uint64, alpha: int, beta: int) -> int:
        def run() -> int:
            args = (p, o, alpha, beta, self.tt, self.stats, self.flag, self.weights)
            return int(endgame.solve_root(*args)[0])

        return self._guarded(run)

    def _guarded(self, run: Callable[[], _T]) -> _T:
        self._check()
        if self.deadline is None:
            result = run()
        else:
            box: list[_T] = []
            errors: list[BaseException] = []

            def work() -> None:
                try:
                    box.append(run())
                except BaseException as error:  # handed to the calling thread
                    errors.append(error)

            worker = threading.Thread(target=work, name="reversi-solve", daemon=True)
            worker.start()
            while worker.is_alive():
                worker.join(_POLL_SECONDS)
                if self._should_stop():
                    self.flag[0] = 1
            worker.join()
            if errors:
                raise errors[0]
            result = box[0]
        self._check()
        return result

    def _should_stop(self) -> bool:
        if self.user_stop is not None and self.user_stop[0]:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def _check(self) -> None:
        if self.user_stop is not None and self.user_stop[0]:
            raise SearchCancelled(f"solve cancelled by the caller after {self.nodes} nodes")
        if self.flag[0] or (self.deadline is not None and time.perf_counter() >= self.deadline):
            raise SearchCancelled(
                f"solve ran past its time limit of {self.time_limit} s ({self.nodes} nodes)"
            )
