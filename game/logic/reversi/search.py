"""Midgame search for Reversi: negamax alpha-beta (PVS), iterative deepening and a hash table.

The search runs compiled (numba, ``nogil``): a UI thread keeps drawing while a worker thread
calls :func:`search`. The pieces:

* **PVS** (principal variation search): the first move gets the full window, the others a null
  window, re-searched only when they beat the best so far.
* **Iterative deepening** from depth 1, each depth reported through ``on_iteration``.
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

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numba import njit

from . import evaluation, kernels
from .board import PASS
from .evaluation import WEIGHTS, _cache_depends_on, _evaluate
from .kernels import flips, legal_moves, popcount, potential_mobility
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


#: A terminal score is ``±WIN + 100 * disc difference``: any won game ranks above any heuristic
#: score, and bigger wins above smaller ones.
WIN: Final = 1 << 20
_INF: Final = 1 << 28
_EVAL_CAP: Final = WIN - 10_000
_MAX_PLY: Final = 128
_MAX_MOVES: Final = 40
_CHECK_EVERY: Final = 1023  # mask: the stop flags are read every 1024 nodes
_DEFAULT_DEPTH: Final = 8
_FALLBACK_SHARE: Final = 0.25  # of the time, for the midgame search before a solve
_MAX_DEPTH: Final = 60

# Bound types stored in the table.
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2

# Counter slots in the ``ctr`` array shared with the compiled search.
_NODES: Final = 0
_TT_HITS: Final = 1
_ABORTED: Final = 2
_NODE_LIMIT: Final = 3
_ROOT_MOVE: Final = 4
_ROOT_SCORE: Final = 5

_U0: Final = np.uint64(0)
_U1: Final = np.uint64(1)
_CORNERS: Final = np.uint64(0x8100000000000081)
_HASH_P: Final = np.uint64(0x9E3779B97F4A7C15)
_HASH_O: Final = np.uint64(0xC2B2AE3D27D4EB4F)

#: Static square values, used to order moves near the leaves and to break ties.
_SQUARE_VALUE: Final = np.array(
    [
        [100, -20, 10, 5, 5, 10, -20, 100],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [10, -2, 1, 1, 1, 1, -2, 10],
        [5, -2, 1, 0, 0, 1, -2, 5],
        [5, -2, 1, 0, 0, 1, -2, 5],
        [10, -2, 1, 1, 1, 1, -2, 10],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [100, -20, 10, 5, 5, 10, -20, 100],
    ],
    dtype=np.int64,
).reshape(64)


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
) -> SearchResult:
    """Search ``position`` for the side to move and return the best move found.

    ``time_limit`` (seconds) and ``depth`` both bound the iterative deepening; with neither, the
    search goes to depth 8. ``node_limit`` caps the nodes of the midgame search. With
    ``exact_empties`` or fewer empty squares the exact solver is tried with the time left
    (``exact_empties=0`` turns it off). ``stop`` is a ``uint8`` array of length 1: setting
    ``stop[0] = 1`` from another thread makes the search raise ``SearchCancelled`` promptly.
    ``table`` is the hash table to use (by default one shared table, or a fresh one when a
    search in another thread holds it); ``weights`` overrides the evaluation weights (tuning).

    Raises ``ValueError`` when the game is over or a limit is not positive.
    """
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be positive, not {time_limit!r}")
    if depth is not None and depth < 1:
        raise ValueError(f"depth must be at least 1, not {depth!r}")
    if node_limit is not None and node_limit < 1:
        raise ValueError(f"node_limit must be at least 1, not {node_limit!r}")
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
        )
        result = SearchResult(
            move=PASS,
            score=-child.score,
            exact=child.exact,
            depth=child.depth,
            nodes=child.nodes,
            seconds=time.perf_counter() - start,
            pv=[PASS, *child.pv],
            tt_hits=child.tt_hits,
            nps=child.nps,
        )
        if on_iteration is not None:
            on_iteration(result)
        return result

    def run(chosen: TranspositionTable) -> SearchResult:
        return _search_with_table(
            chosen,
            position,
            p,
            o,
            start,
            time_limit,
            depth,
            stop,
            exact_empties,
            on_iteration,
            node_limit,
            weights,
        )

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
        self.moves = np.zeros((_MAX_PLY, _MAX_MOVES), dtype=np.int64)
        self.order = np.zeros((_MAX_PLY, _MAX_MOVES), dtype=np.int64)
        self.child_p = np.zeros((_MAX_PLY, _MAX_MOVES), dtype=np.uint64)
        self.child_o = np.zeros((_MAX_PLY, _MAX_MOVES), dtype=np.uint64)
        self.history = np.zeros(64, dtype=np.int64)
        self.pv = np.zeros((_MAX_PLY + 1, _MAX_PLY + 1), dtype=np.int64)
        self.pv_len = np.zeros(_MAX_PLY + 1, dtype=np.int64)


def _search_with_table(
    table: TranspositionTable,
    position: Position,
    p: int,
    o: int,
    start: float,
    time_limit: float | None,
    depth: int | None,
    stop: np.ndarray[Any, Any] | None,
    exact_empties: int,
    on_iteration: Callable[[SearchResult], None] | None,
    node_limit: int | None,
    weights: np.ndarray[Any, Any],
) -> SearchResult:
    user_stop = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    timer_flag = np.zeros(1, dtype=np.uint8)
    empties = 64 - (p | o).bit_count()
    max_depth = min(
        depth if depth is not None else (_MAX_DEPTH if time_limit is not None else _DEFAULT_DEPTH),
        _MAX_DEPTH,
    )
    use_solver = 0 < empties <= exact_empties
    midgame_time = time_limit
    if use_solver:
        # The midgame search only provides a fallback in case the solve runs out of time.
        if time_limit is None:
            max_depth = min(max_depth, 4)
        else:
            midgame_time = time_limit * _FALLBACK_SHARE
    watchdog: threading.Timer | None = None
    if midgame_time is not None:
        watchdog = threading.Timer(midgame_time, timer_flag.__setitem__, (0, 1))
        watchdog.daemon = True
        watchdog.start()
    try:
        table.generation = (table.generation + 1) & 0x3FFFFFFF
        best = _deepen(
            table,
            p,
            o,
            start,
            midgame_time,
            max_depth,
            user_stop,
            timer_flag,
            on_iteration,
            node_limit,
            weights,
        )
        if use_solver and not best.exact:
            best = _try_solver(position, best, start, time_limit, user_stop, on_iteration)
        return best
    finally:
        if watchdog is not None:
            watchdog.cancel()


def _deepen(
    table: TranspositionTable,
    p: int,
    o: int,
    start: float,
    time_limit: float | None,
    max_depth: int,
    user_stop: np.ndarray[Any, Any],
    timer_flag: np.ndarray[Any, Any],
    on_iteration: Callable[[SearchResult], None] | None,
    node_limit: int | None,
    weights: np.ndarray[Any, Any],
) -> SearchResult:
    """Iterative deepening; returns the last complete iteration (or a better partial one)."""
    buf = _Buffers()
    buf.ctr[_NODE_LIMIT] = node_limit if node_limit is not None else 1 << 62
    empties = 64 - (p | o).bit_count()
    bp, bo = np.uint64(p), np.uint64(o)
    best: SearchResult | None = None
    last_seconds = 0.0
    for d in range(1, max_depth + 1):
        buf.ctr[_ABORTED] = 0
        buf.ctr[_ROOT_MOVE] = -1
        iter_start = time.perf_counter()
        score = int(
            _pvs(
                bp,
                bo,
                d,
                -_INF,
                _INF,
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
            )
        )
        now = time.perf_counter()
        if user_stop[0]:
            raise SearchCancelled("search cancelled")
        nodes = int(buf.ctr[_NODES])
        elapsed = now - start
        if buf.ctr[_ABORTED]:
            best = _partial(best, buf, d, nodes, elapsed, bp, bo, weights)
            break
        pv = [int(m) for m in buf.pv[0, : buf.pv_len[0]]]
        exact = d >= empties
        best = _result(pv[0], score, exact, d, nodes, elapsed, pv, int(buf.ctr[_TT_HITS]))
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
    hits = int(buf.ctr[_TT_HITS])
    move = int(buf.ctr[_ROOT_MOVE])
    if move >= 0 and (best is None or move != best.move):
        return _result(
            move, int(buf.ctr[_ROOT_SCORE]), False, max(d - 1, 0), nodes, elapsed, [move], hits
        )
    if best is not None:
        nps = nodes / elapsed if elapsed > 0 else 0.0
        return replace(best, nodes=nodes, seconds=elapsed, tt_hits=hits, nps=nps)
    move = _first_move(p, o)
    return _result(move, int(_evaluate(p, o, weights)), False, 0, nodes, elapsed, [move], hits)


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
        if int(_SQUARE_VALUE[sq]) > best_value:
            best, best_value = sq, int(_SQUARE_VALUE[sq])
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
        solution = solve(position, time_limit=remaining, stop=user_stop)
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


@njit(cache=True, nogil=True, inline="always")
def _terminal(p: np.uint64, o: np.uint64) -> int:  # pragma: no cover - compiled
    """Score of a finished game: ±WIN plus 100 per disc of margin, empties to the winner."""
    mine = popcount(p)
    theirs = popcount(o)
    empties = 64 - mine - theirs
    if mine > theirs:
        return WIN + 100 * (mine - theirs + empties)
    if mine < theirs:
        return -WIN - 100 * (theirs - mine + empties)
    return 0


@njit(cache=True, nogil=True, inline="always")
def _slot(keys: np.ndarray, p: np.uint64, o: np.uint64) -> np.int64:  # pragma: no cover
    h = p * _HASH_P ^ (o * _HASH_O)
    h ^= h >> np.uint64(31)
    mask = np.uint64(keys.shape[0] - 2)  # even slots: the first of each two-slot bucket
    return np.int64(h & mask)


@njit(cache=True, nogil=True)
def _pvs(  # pragma: no cover - compiled
    p: np.uint64,
    o: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    keys: np.ndarray,
    info: np.ndarray,
    generation: int,
    ctr: np.ndarray,
    stop: np.ndarray,
    timer: np.ndarray,
    w: np.ndarray,
    moves_buf: np.ndarray,
    order_buf: np.ndarray,
    child_p: np.ndarray,
    child_o: np.ndarray,
    history: np.ndarray,
    pv: np.ndarray,
    pv_len: np.ndarray,
) -> int:
    """Fail-soft negamax PVS. Returns 0 (meaningless) once ``ctr[_ABORTED]`` is set."""
    ctr[_NODES] += 1
    if ctr[_NODES] & _CHECK_EVERY == 0 and (
        stop[0] != 0 or timer[0] != 0 or ctr[_NODES] >= ctr[_NODE_LIMIT]
    ):
        ctr[_ABORTED] = 1
    if ctr[_ABORTED] != 0:
        return 0
    pv_len[ply] = ply
    if p == _U0 or o == _U0 or (p | o) == ~_U0:
        return _terminal(p, o)
    if depth <= 0 or ply >= _MAX_PLY - 1:
        v = _evaluate(p, o, w)
        if v > _EVAL_CAP:
            return _EVAL_CAP
        if v < -_EVAL_CAP:
            return -_EVAL_CAP
        return v

    # Table probe.
    slot = _slot(keys, p, o)
    hit = np.int64(-1)
    if keys[slot, 0] == p and keys[slot, 1] == o and info[slot, 1] >= 0:
        hit = slot
    elif keys[slot + 1, 0] == p and keys[slot + 1, 1] == o and info[slot + 1, 1] >= 0:
        hit = slot + 1
    tt_move = -1
    if hit >= 0:
        ctr[_TT_HITS] += 1
        tt_move = info[hit, 3]
        if ply > 0 and info[hit, 1] >= depth:
            s = int(info[hit, 0])
            kind = info[hit, 2]
            if kind == _EXACT:
                return s
            if kind == _LOWER and s >= beta:
                return s
            if kind == _UPPER and s <= alpha:
                return s

    moves = legal_moves(p, o)
    if moves == _U0:
        if legal_moves(o, p) == _U0:
            return _terminal(p, o)
        s = -_pvs(
            o,
            p,
            depth,
            -beta,
            -alpha,
            ply + 1,
            keys,
            info,
            generation,
            ctr,
            stop,
            timer,
            w,
            moves_buf,
            order_buf,
            child_p,
            child_o,
            history,
            pv,
            pv_len,
        )
        pv[ply, ply] = 64
        for i in range(ply + 1, pv_len[ply + 1]):
            pv[ply, i] = pv[ply + 1, i]
        pv_len[ply] = max(pv_len[ply + 1], ply + 1)
        return s

    # Generate and score the moves.
    n = 0
    m = moves
    while m != _U0:
        low = m & (~m + _U1)
        sq = popcount(low - _U1)
        m ^= low
        f = flips(p, o, sq)
        np_ = o & ~f  # the opponent's discs after the move: they move next
        no_ = p | f | low
        child_p[ply, n] = np_
        child_o[ply, n] = no_
        moves_buf[ply, n] = sq
        if sq == tt_move:
            score = 1 << 40
        elif depth >= 5:
            score = -_evaluate(np_, no_, w) * 4
        elif depth >= 2:
            replies = legal_moves(np_, no_)
            mob = popcount(replies) + popcount(replies & _CORNERS)
            score = -(mob * 16 + potential_mobility(np_, no_)) * 64 + _SQUARE_VALUE[sq] * 4
        else:
            score = _SQUARE_VALUE[sq] * 64 + history[sq]
        order_buf[ply, n] = score
        n += 1

    alpha0 = alpha
    best = -_INF
    best_move = -1
    for i in range(n):
        # Selection sort step: bring the best-scored remaining move to position i.
        k = i
        for j in range(i + 1, n):
            if order_buf[ply, j] > order_buf[ply, k]:
                k = j
        if k != i:
            order_buf[ply, i], order_buf[ply, k] = order_buf[ply, k], order_buf[ply, i]
            moves_buf[ply, i], moves_buf[ply, k] = moves_buf[ply, k], moves_buf[ply, i]
            child_p[ply, i], child_p[ply, k] = child_p[ply, k], child_p[ply, i]
            child_o[ply, i], child_o[ply, k] = child_o[ply, k], child_o[ply, i]
        sq = moves_buf[ply, i]
        cp = child_p[ply, i]
        co = child_o[ply, i]
        if i == 0:
            s = -_pvs(
                cp,
                co,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                keys,
                info,
                generation,
                ctr,
                stop,
                timer,
                w,
                moves_buf,
                order_buf,
                child_p,
                child_o,
                history,
                pv,
                pv_len,
            )
        else:
            s = -_pvs(
                cp,
                co,
                depth - 1,
                -alpha - 1,
                -alpha,
                ply + 1,
                keys,
                info,
                generation,
                ctr,
                stop,
                timer,
                w,
                moves_buf,
                order_buf,
                child_p,
                child_o,
                history,
                pv,
                pv_len,
            )
            if ctr[_ABORTED] == 0 and s > alpha and s < beta:
                if ply == 0:
                    # Proven better than the best so far, even if the re-search is cut short.
                    ctr[_ROOT_MOVE] = sq
                    ctr[_ROOT_SCORE] = s
                s = -_pvs(
                    cp,
                    co,
                    depth - 1,
                    -beta,
                    -s,
                    ply + 1,
                    keys,
                    info,
                    generation,
                    ctr,
                    stop,
                    timer,
                    w,
                    moves_buf,
                    order_buf,
                    child_p,
                    child_o,
                    history,
                    pv,
                    pv_len,
                )
        if ctr[_ABORTED] != 0:
            return 0
        if s > best:
            best = s
            best_move = sq
            if s > alpha:
                alpha = s
                pv[ply, ply] = sq
                for t in range(ply + 1, pv_len[ply + 1]):
                    pv[ply, t] = pv[ply + 1, t]
                pv_len[ply] = max(pv_len[ply + 1], ply + 1)
                if ply == 0:
                    ctr[_ROOT_MOVE] = sq
                    ctr[_ROOT_SCORE] = s
                if s >= beta:
                    history[sq] += depth * depth
                    if history[sq] > 1 << 20:
                        for t in range(64):
                            history[t] >>= 1
                    break

    # Store: the slot kept by depth unless the entry there is deeper and from this search.
    if best <= alpha0:
        kind = _UPPER
    elif best >= beta:
        kind = _LOWER
    else:
        kind = _EXACT
    same = keys[slot, 0] == p and keys[slot, 1] == o
    if same or info[slot, 1] <= depth or info[slot, 4] != generation:
        target = slot
        if not same and info[slot, 1] >= 0:
            # The entry pushed out of the depth slot moves to the always-replace slot.
            keys[slot + 1, 0] = keys[slot, 0]
            keys[slot + 1, 1] = keys[slot, 1]
            for t in range(5):
                info[slot + 1, t] = info[slot, t]
    else:
        target = slot + 1
    keys[target, 0] = p
    keys[target, 1] = o
    info[target, 0] = best
    info[target, 1] = depth
    info[target, 2] = kind
    info[target, 3] = best_move
    info[target, 4] = generation
    return best


_cache_depends_on(__name__, kernels, evaluation)
