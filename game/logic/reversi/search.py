"""Midgame search for Reversi: negamax alpha-beta (PVS), iterative deepening and a hash table.

The search runs compiled (numba, ``nogil``; the kernel is :func:`game.logic.reversi.pvs.pvs`):
a UI thread keeps drawing while a worker thread calls :func:`search`. The pieces:

* **PVS** (principal variation search): the first move gets the full window, the others a null
  window, re-searched only when they beat the best so far.
* **Iterative deepening** from depth 1, each depth reported through ``on_iteration``. With
  ``aspiration``, from depth 4 on the root is first searched with a window of 4 discs either
  side of the value two depths back (odd and even depths differ); a value outside the window
  widens that side (twice as far, then without bound) and the root is searched again, so the
  value is the one the full window gives. Game-end values are never used as a centre.
* **ProbCut** (``probcut``, a number of standard deviations; off by default): at a null-window
  node with 3 plies or more left and more than 16 empty squares, a shallow search predicts
  the deep value through a line fitted per depth and phase
  (:func:`~game.logic.reversi.pvs.load_probcut`); when the prediction is beyond beta (or below
  alpha) by the given margin, the node fails high (low) without the deep search. Lines that
  reach the end of the game are never cut this way, so an exact result stays exact.
* **Transposition table**: numpy arrays, two slots per bucket (one kept by depth, one always
  replaced), keyed by both bitboards so two positions never share an entry. A table outlives
  one search: searching the same position again starts from what the last search learnt.
* **Move ordering**: the table's move first; then, five plies or more from the leaves, the
  evaluation of the position after each move; closer, the moves leaving the opponent the
  fewest replies (corner replies count double) and the least potential mobility; one ply from
  the leaves, square values and a history table.
* **Time and cancellation**: a watchdog thread sets a flag at the deadline; ``stop`` (a numpy
  ``uint8`` array of length 1, set to 1 by another thread) cancels the search, which then
  raises :class:`SearchCancelled`. Both flags are read every 1024 nodes.
* **Endgame**: with ``exact_empties`` or fewer empty squares the exact solver
  (:func:`game.logic.reversi.solver.solve`) takes over. With a time limit, a midgame search
  first spends a quarter of it to have a move ready, and that move stands if the solve does
  not finish in the rest. An iteration that reaches the end of every line is exact too.

Scores are from the side to move's view: in discs (the evaluation divided by 100) for a
heuristic result, or the exact final disc difference (empties to the winner) when ``exact``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from .board import PASS
from .evaluation import WEIGHTS
from .kernels import legal_moves
from .pvs import (
    ABORTED,
    INF,
    MAX_MOVES,
    MAX_PLY,
    NODE_LIMIT,
    NODES,
    ROOT_MOVE,
    ROOT_SCORE,
    SQUARE_VALUE,
    TT_HITS,
    WIN,
    evaluate_leaf,
    load_probcut,
    pvs,
)
from .solver import SearchCancelled, solve

if TYPE_CHECKING:
    from .board import Position

__all__ = [
    "PASS",
    "WIN",
    "SearchResult",
    "TranspositionTable",
    "search",
]


_DEFAULT_DEPTH: Final = 8
_FALLBACK_SHARE: Final = 0.25  # of the time, for the midgame search before a solve
_MAX_DEPTH: Final = 60
_EVAL_CAP: Final = WIN - 10_000  # beyond: a game-end score
#: Aspiration windows start at this depth, this far (hundredths of a disc) either side of the
#: value two depths before; a side that fails is widened to twice as far, then to no bound.
_ASPIRATION_DEPTH: Final = 4
_ASPIRATION_MARGIN: Final = 400


@dataclass(slots=True)
class SearchResult:
    """What a search found.

    ``move`` is a square (0..63) or :data:`PASS`. ``score`` is the side to move's score: the
    exact final disc difference when ``exact``, else the evaluation in discs (a forced game end
    seen inside the search reads as its disc difference). ``depth`` is the last depth searched
    to the end (for an exact result, the number of empty squares). ``pv`` starts with ``move``.
    """

    move: int
    score: float
    exact: bool
    depth: int
    nodes: int
    seconds: float
    pv: list[int] = field(default_factory=list)
    tt_hits: int = 0
    nps: float = 0.0


class TranspositionTable:
    """The hash table of the search, reusable between searches (not by two at once).

    ``size`` is a number of entries, rounded up to a power of two (each entry 36 bytes).
    """

    def __init__(self, size: int = 1 << 20) -> None:
        if size < 2:
            raise ValueError(f"table size must be at least 2, not {size}")
        n = 1 << (size - 1).bit_length()
        self.keys = np.zeros((n, 2), dtype=np.uint64)
        # score, depth, bound type, move, generation; depth -1 marks an empty slot
        self.info = np.zeros((n, 5), dtype=np.int32)
        self.info[:, 1] = -1
        self.generation = 0
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def clear(self) -> None:
        """Forget every entry."""
        self.keys[:] = 0
        self.info[:] = 0
        self.info[:, 1] = -1


_SHARED_TABLE: TranspositionTable | None = None
_SHARED_LOCK = threading.Lock()


def search(
    position: Position,
    *,
    time_limit: float | None = None,
    depth: int | None = None,
    stop: np.ndarray[Any, Any] | None = None,
    exact_empties: int = 16,
    on_iteration: Callable[[SearchResult], None] | None = None,
    table: TranspositionTable | None = None,
    node_limit: int | None = None,
    weights: np.ndarray[Any, Any] | None = None,
    aspiration: bool = False,
    probcut: float = 0.0,
) -> SearchResult:
    """Search ``position`` for the side to move and return the best move found.

    ``time_limit`` (seconds) and ``depth`` both bound the iterative deepening; with neither, the
    search goes to depth 8. ``node_limit`` caps the nodes of the midgame search. With
    ``exact_empties`` or fewer empty squares the exact solver is tried with the time left
    (``exact_empties=0`` turns it off). ``stop`` is a ``uint8`` array of length 1: setting
    ``stop[0] = 1`` from another thread makes the search raise ``SearchCancelled`` promptly.
    ``table`` is the hash table to use (by default one shared table, or a fresh one when a
    search in another thread holds it); ``weights`` overrides the evaluation: other ``int32``
    feature weights (tuning) or the ``int16`` table of the pattern evaluation
    (:func:`game.logic.reversi.patterns.load_weights`).

    ``aspiration`` searches each depth from 4 on with a window around the value found two
    depths before, searching again wider when the value falls outside (the value found is the
    same).
    ``probcut`` (standard deviations, 0: off) lets a shallow search decide a node whose deep
    value it predicts beyond the window by that margin: faster, but no longer the plain
    minimax value; it is only used with more than 16 empty squares left and never where the
    search reaches the end of the game.

    Raises ``ValueError`` when the game is over or a limit is not positive.
    """
    if time_limit is not None and not 0 < time_limit < math.inf:
        raise ValueError(f"time_limit must be finite and positive, not {time_limit!r}")
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, not {depth!r}")
    if node_limit is not None and node_limit < 1:
        raise ValueError(f"node_limit must be at least 1, not {node_limit!r}")
    if not probcut >= 0:
        raise ValueError(f"probcut must be zero or positive, not {probcut!r}")
    if stop is not None and (stop.dtype != np.uint8 or stop.shape != (1,)):
        raise ValueError("stop must be a numpy uint8 array of shape (1,)")
    if position.is_terminal():
        raise ValueError("the game is over: there is no move to search")
    if weights is None:
        weights = WEIGHTS
    start = time.perf_counter()
    p, o = position.mine, position.theirs
    if legal_moves(np.uint64(p), np.uint64(o)) == 0:
        # Forced pass: search the opponent's position and read it from this side.
        child = search(
            position.apply(PASS),
            time_limit=time_limit,
            depth=depth,
            stop=stop,
            exact_empties=exact_empties,
            on_iteration=None,
            table=table,
            node_limit=node_limit,
            weights=weights,
            aspiration=aspiration,
            probcut=probcut,
        )
        seconds = time.perf_counter() - start
        pv = [PASS, *child.pv]
        result = replace(child, move=PASS, score=-child.score, seconds=seconds, pv=pv)
        if on_iteration is not None:
            on_iteration(result)
        return result

    user_stop = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    request = _Request(
        position, start, time_limit, depth, user_stop, exact_empties, on_iteration, node_limit
    )
    request = replace(request, weights=weights, aspiration=aspiration, probcut=probcut)

    def run(chosen: TranspositionTable) -> SearchResult:
        return _search_with_table(chosen, request)

    if table is not None:
        return run(table)
    global _SHARED_TABLE
    with _SHARED_LOCK:
        if _SHARED_TABLE is None:
            _SHARED_TABLE = TranspositionTable()
        shared = _SHARED_TABLE
    if not shared.lock.acquire(blocking=False):
        return run(TranspositionTable(1 << 18))  # another thread is searching with it
    try:
        return run(shared)
    finally:
        shared.lock.release()


# --------------------------------------------------------------------------- private helpers


class _Buffers:
    """Per-search scratch arrays handed to the compiled search."""

    def __init__(self) -> None:
        self.ctr = np.zeros(8, dtype=np.int64)
        self.moves = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.order = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
        self.child_p = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.uint64)
        self.child_o = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.uint64)
        self.history = np.zeros(64, dtype=np.int64)
        self.pv = np.zeros((MAX_PLY + 1, MAX_PLY + 1), dtype=np.int64)
        self.pv_len = np.zeros(MAX_PLY + 1, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class _Request:
    """What :func:`search` was asked for (its arguments, checked), as its helpers read it."""

    position: Position
    start: float
    time_limit: float | None
    depth: int | None
    stop: np.ndarray[Any, Any]
    exact_empties: int
    on_iteration: Callable[[SearchResult], None] | None
    node_limit: int | None
    weights: np.ndarray[Any, Any] = field(default_factory=lambda: WEIGHTS)
    aspiration: bool = False
    probcut: float = 0.0


def _search_with_table(table: TranspositionTable, request: _Request) -> SearchResult:
    time_limit, depth = request.time_limit, request.depth
    p, o = request.position.mine, request.position.theirs
    timer_flag = np.zeros(1, dtype=np.uint8)
    empties = 64 - (p | o).bit_count()
    max_depth = min(
        depth if depth is not None else (_MAX_DEPTH if time_limit is not None else _DEFAULT_DEPTH),
        _MAX_DEPTH,
    )
    use_solver = 0 < empties <= request.exact_empties
    midgame_time = time_limit
    if use_solver:
        # The midgame search only provides a fallback in case the solve runs out of time.
        if time_limit is None:
            max_depth = min(max_depth, 4)
        else:
            midgame_time = time_limit * _FALLBACK_SHARE
    watchdog: threading.Timer | None = None
    if midgame_time is not None:
        # A timer cannot wait past threading.TIMEOUT_MAX (about 292 years): its thread would
        # die of an OverflowError. A longer limit is no limit in practice.
        wait = min(midgame_time, threading.TIMEOUT_MAX)
        watchdog = threading.Timer(wait, timer_flag.__setitem__, (0, 1))
        watchdog.daemon = True
        watchdog.start()
    try:
        table.generation = (table.generation + 1) & 0x3FFFFFFF
        best = _deepen(table, request, midgame_time, max_depth, timer_flag)
        if use_solver and not best.exact:
            best = _try_solver(
                request.position,
                best,
                request.start,
                time_limit,
                request.stop,
                request.on_iteration,
            )
        return best
    finally:
        if watchdog is not None:
            watchdog.cancel()


def _deepen(
    table: TranspositionTable,
    request: _Request,
    time_limit: float | None,
    max_depth: int,
    timer_flag: np.ndarray[Any, Any],
) -> SearchResult:
    """Iterative deepening; returns the last complete iteration (or a better partial one)."""
    p, o = request.position.mine, request.position.theirs
    start, user_stop, on_iteration = request.start, request.stop, request.on_iteration
    weights, probcut, node_limit = request.weights, request.probcut, request.node_limit
    buf = _Buffers()
    pc = load_probcut()
    buf.ctr[NODE_LIMIT] = node_limit if node_limit is not None else 1 << 62
    empties = 64 - (p | o).bit_count()
    bp, bo = np.uint64(p), np.uint64(o)
    best: SearchResult | None = None
    last_seconds = 0.0
    values: list[int] = [0]  # the value of each complete iteration, by depth
    for d in range(1, max_depth + 1):
        buf.ctr[ABORTED] = 0
        buf.ctr[ROOT_MOVE] = -1
        iter_start = time.perf_counter()

        def window(alpha: int, beta: int, d: int = d) -> int:
            return int(
                pvs(
                    bp,
                    bo,
                    d,
                    alpha,
                    beta,
                    0,
                    table.keys,
                    table.info,
                    table.generation,
                    buf.ctr,
                    user_stop,
                    timer_flag,
                    weights,
                    buf.moves,
                    buf.order,
                    buf.child_p,
                    buf.child_o,
                    buf.history,
                    buf.pv,
                    buf.pv_len,
                    pc,
                    probcut,
                )
            )

        # Around the value two depths back: the values of odd and even depths differ.
        if request.aspiration and d >= _ASPIRATION_DEPTH and abs(values[d - 2]) < _EVAL_CAP:
            score = _aspirate(window, values[d - 2], buf.ctr)
        else:
            score = window(-INF, INF)
        now = time.perf_counter()
        if user_stop[0]:
            raise SearchCancelled("search cancelled")
        nodes = int(buf.ctr[NODES])
        elapsed = now - start
        if buf.ctr[ABORTED]:
            best = _partial(best, buf, d, nodes, elapsed, bp, bo, weights)
            break
        pv = [int(m) for m in buf.pv[0, : buf.pv_len[0]]]
        exact = d >= empties
        values.append(score)
        best = _result(pv[0], score, exact, d, nodes, elapsed, pv, int(buf.ctr[TT_HITS]))
        if on_iteration is not None:
            on_iteration(best)
        if exact:
            break
        if time_limit is not None:
            took = now - iter_start
            growth = min(max(took / last_seconds, 2.0), 8.0) if last_seconds > 1e-4 else 4.0
            if elapsed + took * growth > time_limit * 1.1 and elapsed > time_limit * 0.3:
                break
            last_seconds = took
    assert best is not None
    return best


def _aspirate(window: Callable[[int, int], int], previous: int, ctr: np.ndarray[Any, Any]) -> int:
    """The root value, searched first within ``_ASPIRATION_MARGIN`` of ``previous``.

    A value at or beyond a bound only bounds the true value: that side of the window is moved
    past it by twice the margin, the next time (or at once for a game-end value) removed, and
    the root searched again. Returns the value that fell inside the window, or whatever the
    search returned when it was cut short (``ctr[ABORTED]``).
    """
    alpha, beta = previous - _ASPIRATION_MARGIN, previous + _ASPIRATION_MARGIN
    low_fails = high_fails = 0
    while True:
        score = window(alpha, beta)
        if ctr[ABORTED]:
            return score
        if score <= alpha and alpha > -INF:
            low_fails += 1
            # A root move recorded by an earlier, failed-high window is no longer proven best.
            ctr[ROOT_MOVE] = -1
            wide = low_fails > 1 or abs(score) >= _EVAL_CAP
            alpha = -INF if wide else score - 2 * _ASPIRATION_MARGIN
        elif score >= beta and beta < INF:
            high_fails += 1
            wide = high_fails > 1 or abs(score) >= _EVAL_CAP
            beta = INF if wide else score + 2 * _ASPIRATION_MARGIN
        else:
            return score


def _partial(
    best: SearchResult | None,
    buf: _Buffers,
    d: int,
    nodes: int,
    elapsed: float,
    p: np.uint64,
    o: np.uint64,
    weights: np.ndarray[Any, Any],
) -> SearchResult:
    """The answer after iteration ``d`` was cut short.

    A root move recorded by the unfinished iteration was proven better than the previous best
    at depth ``d`` (or is the first move, fully searched), so it is taken; otherwise the last
    complete iteration stands. With no complete iteration at all, the best-valued square.
    """
    hits = int(buf.ctr[TT_HITS])
    move = int(buf.ctr[ROOT_MOVE])
    if move >= 0 and (best is None or move != best.move):
        return _result(
            move, int(buf.ctr[ROOT_SCORE]), False, max(d - 1, 0), nodes, elapsed, [move], hits
        )
    if best is not None:
        nps = nodes / elapsed if elapsed > 0 else 0.0
        return replace(best, nodes=nodes, seconds=elapsed, tt_hits=hits, nps=nps)
    move = _first_move(p, o)
    return _result(move, int(evaluate_leaf(p, o, weights)), False, 0, nodes, elapsed, [move], hits)


def _result(
    move: int,
    score: int,
    exact: bool,
    depth: int,
    nodes: int,
    seconds: float,
    pv: list[int],
    tt_hits: int,
) -> SearchResult:
    if abs(score) >= WIN - 10_000:
        value = (score - WIN) / 100 if score > 0 else (score + WIN) / 100
        exact_value = float(round(value))
    else:
        exact_value = score / 100
    return SearchResult(
        move=move,
        score=exact_value,
        exact=exact,
        depth=depth,
        nodes=nodes,
        seconds=seconds,
        pv=pv,
        tt_hits=tt_hits,
        nps=nodes / seconds if seconds > 0 else 0.0,
    )


def _first_move(p: np.uint64, o: np.uint64) -> int:
    moves = int(legal_moves(p, o))
    best, best_value = -1, -(10**9)
    while moves:
        sq = (moves & -moves).bit_length() - 1
        moves &= moves - 1
        if int(SQUARE_VALUE[sq]) > best_value:
            best, best_value = sq, int(SQUARE_VALUE[sq])
    return best


def _try_solver(
    position: Position,
    fallback: SearchResult,
    start: float,
    time_limit: float | None,
    user_stop: np.ndarray[Any, Any],
    on_iteration: Callable[[SearchResult], None] | None,
) -> SearchResult:
    """Solve exactly with the time left; on a timeout keep the midgame ``fallback``."""
    remaining = None if time_limit is None else time_limit - (time.perf_counter() - start)
    if remaining is not None and remaining <= 0.01:
        return fallback
    try:
        # The midgame result is the solve's first guess at the score.
        solution = solve(position, time_limit=remaining, stop=user_stop, guess=fallback.score)
    except SearchCancelled:
        if user_stop[0]:
            raise
        return fallback
    seconds = time.perf_counter() - start
    nodes = fallback.nodes + int(solution.nodes)
    move = int(solution.best[0]) if solution.best else fallback.move
    result = SearchResult(
        move=move,
        score=float(solution.score),
        exact=True,
        depth=64 - (position.black | position.white).bit_count(),
        nodes=nodes,
        seconds=seconds,
        pv=[move],
        tt_hits=fallback.tt_hits,
        nps=nodes / seconds if seconds > 0 else 0.0,
    )
    if on_iteration is not None:
        on_iteration(result)
    return result
