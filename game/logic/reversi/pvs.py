"""The compiled midgame search of :mod:`game.logic.reversi.search`: fail-soft negamax PVS.

:func:`pvs` runs under numba with ``nogil``; :func:`game.logic.reversi.search.search` drives
it (iterative deepening, time, the solver hand-over). It scores from the side to move's view
in hundredths of a disc, a finished game as ``±WIN + 100 * disc difference``. It shares with
its driver a transposition table (two numpy arrays, two slots per bucket: one kept by depth,
one always replaced, both keyed by both bitboards), per-ply scratch arrays and a counter array
``ctr`` whose slots are :data:`NODES`, :data:`TT_HITS`, :data:`ABORTED`, :data:`NODE_LIMIT`,
:data:`ROOT_MOVE` and :data:`ROOT_SCORE`. The stop flag, the timer flag and the node limit are
read every 1024 nodes; once one is up the search sets ``ctr[ABORTED]`` and unwinds.

The evaluation is chosen by the weights passed in ``w``: ``int32`` feature weights
(:mod:`game.logic.reversi.evaluation`) or an ``int16`` pattern table
(:mod:`game.logic.reversi.patterns`); numba compiles one search for each.

ProbCut (``pc_t > 0``, at null-window nodes with :data:`PC_MIN_DEPTH` plies or more left and
more than :data:`PC_MIN_EMPTIES` empty squares, where the search does not reach the end of the
game): two null-window searches of the shallow depth given by the ProbCut calibration test
whether the
line ``deep = a * shallow + b`` puts the deep value ``pc_t * sigma`` above beta or below
alpha; if so the node returns beta (alpha) at once. The calibration is ``data/probcut.npz``
(:func:`load_probcut`), made by ``tools/reversi_probcut.py``.

Move ordering: the table's move first; then, five plies or more from the leaves, the
evaluation of the position after each move; closer, the moves leaving the opponent the fewest
replies (corner replies count double) and the least potential mobility; one ply from the
leaves, square values and a history table.
"""

from __future__ import annotations

import math
from functools import cache
from importlib import resources
from typing import Any, Final

import numpy as np
from numba import njit, types
from numba.extending import overload

from . import evaluation, kernels, patterns
from .evaluation import _cache_depends_on, _evaluate
from .kernels import flips, legal_moves, popcount, potential_mobility
from .patterns import evaluate_bits

__all__ = [
    "ABORTED",
    "INF",
    "MAX_MOVES",
    "MAX_PLY",
    "NODES",
    "NODE_LIMIT",
    "PC_BUCKET",
    "PC_MIN_DEPTH",
    "PC_MIN_EMPTIES",
    "ROOT_MOVE",
    "ROOT_SCORE",
    "SQUARE_VALUE",
    "TT_HITS",
    "WIN",
    "evaluate_leaf",
    "load_probcut",
    "pvs",
]

#: A terminal score is ``±WIN + 100 * disc difference``: any won game ranks above any heuristic
#: score, and bigger wins above smaller ones.
WIN: Final = 1 << 20
INF: Final = 1 << 28
_EVAL_CAP: Final = WIN - 10_000
MAX_PLY: Final = 128
MAX_MOVES: Final = 40
_CHECK_EVERY: Final = 1023  # mask: the stop flags are read every 1024 nodes

#: ProbCut is tried at nodes with at least this many plies left ...
PC_MIN_DEPTH: Final = 3
#: ... and more than this many empty squares (closer to the end the search stays exact).
PC_MIN_EMPTIES: Final = 16
#: The ProbCut calibration has one row of depths per this many empty squares.
PC_BUCKET: Final = 10
PROBCUT_FILE: Final = "probcut.npz"

# Bound types stored in the table.
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2

# Counter slots in the ``ctr`` array shared with the compiled search.
NODES: Final = 0
TT_HITS: Final = 1
ABORTED: Final = 2
NODE_LIMIT: Final = 3
ROOT_MOVE: Final = 4
ROOT_SCORE: Final = 5

_U0: Final = np.uint64(0)
_U1: Final = np.uint64(1)
_CORNERS: Final = np.uint64(0x8100000000000081)
_HASH_P: Final = np.uint64(0x9E3779B97F4A7C15)
_HASH_O: Final = np.uint64(0xC2B2AE3D27D4EB4F)

#: Static square values, used to order moves near the leaves and to break ties.
SQUARE_VALUE: Final = np.array(
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


@cache
def load_probcut() -> np.ndarray[Any, Any]:
    """The shipped ProbCut calibration, ``float64`` of shape ``(buckets, depths, 4)``.

    Row ``[e // PC_BUCKET, d]`` is for a node with ``e`` empty squares and ``d`` plies left:
    the shallow depth ``d'``, then ``a``, ``b`` and ``sigma`` of the model ``deep = a * shallow
    + b`` (residual standard deviation ``sigma``, hundredths of a disc) relating the values of
    searches of depth ``d`` and ``d'``. ``sigma == 0`` marks a pair that was not calibrated:
    ProbCut is not tried there. The file was made by ``tools/reversi_probcut.py`` (its command
    line is stored in the file as ``command``). One array is shared: do not write to it.
    """
    ref = resources.files("game.logic.reversi").joinpath("data", PROBCUT_FILE)
    with resources.as_file(ref) as path, np.load(path) as data:
        calibration = np.ascontiguousarray(data["calibration"], dtype=np.float64)
    if calibration.ndim != 3 or calibration.shape[2] != 4:
        shape = calibration.shape
        raise ValueError(f"ProbCut calibration has shape {shape}, expected (buckets, depths, 4)")
    return calibration


def _eval(p: np.uint64, o: np.uint64, w: np.ndarray) -> int:  # pragma: no cover - stub
    """The evaluation the weights ``w`` belong to (compiled code only, see below)."""
    raise NotImplementedError("_eval is only callable from compiled code")


@overload(_eval, inline="always")
def _eval_overload(p, o, w):  # type: ignore[no-untyped-def]  # pragma: no cover - typing
    """Pick the evaluation by the weights' type when the search is compiled: ``int16`` tables
    are the pattern evaluation (:mod:`game.logic.reversi.patterns`), ``int32`` the features of
    :mod:`game.logic.reversi.evaluation`. Each kind of weights gets its own compiled search."""
    if isinstance(w, types.Array) and w.dtype == types.int16:
        return lambda p, o, w: evaluate_bits(p, o, w)
    return lambda p, o, w: _evaluate(p, o, w)


@njit(cache=True, nogil=True)
def evaluate_leaf(p: np.uint64, o: np.uint64, w: np.ndarray) -> int:  # pragma: no cover
    """The search's static evaluation (hundredths of a disc) with weights ``w`` of either kind."""
    return _eval(p, o, w)


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


@njit(cache=True, nogil=True, inline="always")
def _probe(  # pragma: no cover - compiled
    keys: np.ndarray, info: np.ndarray, slot: np.int64, p: np.uint64, o: np.uint64
) -> np.int64:
    """The slot of the bucket at ``slot`` that holds ``(p, o)``, or -1."""
    if keys[slot, 0] == p and keys[slot, 1] == o and info[slot, 1] >= 0:
        return slot
    if keys[slot + 1, 0] == p and keys[slot + 1, 1] == o and info[slot + 1, 1] >= 0:
        return slot + 1
    return np.int64(-1)


@njit(cache=True, nogil=True, inline="always")
def _probcut_window(  # pragma: no cover - compiled
    p: np.uint64, o: np.uint64, depth: int, alpha: int, beta: int, pc: np.ndarray, pc_t: float
) -> tuple[int, int, int]:
    """ProbCut at a null-window node with ``depth`` plies left (:func:`pvs` checks the rest):
    the depth of the shallow searches, and the shallow values ``above`` and ``below`` from which
    the calibration puts the deep value ``pc_t`` standard deviations above beta or below alpha
    (±``_EVAL_CAP`` where there is no such value); depth -1 where ProbCut is not tried."""
    empties = 64 - popcount(p | o)
    if (
        empties <= PC_MIN_EMPTIES
        or depth >= empties
        or depth >= pc.shape[1]
        or alpha <= -_EVAL_CAP
        or beta >= _EVAL_CAP
    ):
        return -1, _EVAL_CAP, -_EVAL_CAP
    bucket = min(empties // PC_BUCKET, pc.shape[0] - 1)
    slope = pc[bucket, depth, 1]
    sigma = pc[bucket, depth, 3]
    if not (sigma > 0.0 and slope > 0.0):
        return -1, _EVAL_CAP, -_EVAL_CAP
    margin = pc_t * sigma
    offset = pc[bucket, depth, 2]
    above = math.ceil((beta + margin - offset) / slope)
    below = math.floor((alpha - margin - offset) / slope)
    return int(pc[bucket, depth, 0]), above, below


@njit(cache=True, nogil=True, inline="always")
def _order_moves(  # pragma: no cover - compiled
    p: np.uint64,
    o: np.uint64,
    moves: np.uint64,
    tt_move: int,
    w: np.ndarray,
    history: np.ndarray,
    depth: int,
    ply: int,
    moves_buf: np.ndarray,
    order_buf: np.ndarray,
    child_p: np.ndarray,
    child_o: np.ndarray,
) -> int:
    """Order ``moves`` (``p`` to play, ``depth`` plies left; the table's move ``tt_move``,
    the evaluation's weights ``w``, the ``history`` table): write their squares, the positions
    after them (the opponent's view) and their scores (higher first) into row ``ply`` of the
    buffers; return how many."""
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
            score = -_eval(np_, no_, w) * 4
        elif depth >= 2:
            replies = legal_moves(np_, no_)
            mob = popcount(replies) + popcount(replies & _CORNERS)
            score = -(mob * 16 + potential_mobility(np_, no_)) * 64 + SQUARE_VALUE[sq] * 4
        else:
            score = SQUARE_VALUE[sq] * 64 + history[sq]
        order_buf[ply, n] = score
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _bring_best(  # pragma: no cover - compiled
    ply: int,
    i: int,
    n: int,
    moves_buf: np.ndarray,
    order_buf: np.ndarray,
    child_p: np.ndarray,
    child_o: np.ndarray,
) -> None:
    """Selection sort step: bring the best-scored of moves ``i .. n - 1`` to position ``i``."""
    k = i
    for j in range(i + 1, n):
        if order_buf[ply, j] > order_buf[ply, k]:
            k = j
    if k != i:
        order_buf[ply, i], order_buf[ply, k] = order_buf[ply, k], order_buf[ply, i]
        moves_buf[ply, i], moves_buf[ply, k] = moves_buf[ply, k], moves_buf[ply, i]
        child_p[ply, i], child_p[ply, k] = child_p[ply, k], child_p[ply, i]
        child_o[ply, i], child_o[ply, k] = child_o[ply, k], child_o[ply, i]


@njit(cache=True, nogil=True, inline="always")
def _store(  # pragma: no cover - compiled
    keys: np.ndarray,
    info: np.ndarray,
    slot: np.int64,
    p: np.uint64,
    o: np.uint64,
    best: int,
    kind: int,
    depth: int,
    best_move: int,
    generation: int,
) -> None:
    """Store a result in the bucket at ``slot``: in the slot kept by depth unless the entry
    there is deeper and from this search, else in the always-replaced one."""
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


@njit(cache=True, nogil=True)
def pvs(  # pragma: no cover - compiled
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
    pc: np.ndarray,
    pc_t: float,
) -> int:
    """Fail-soft negamax PVS. Returns 0 (meaningless) once ``ctr[ABORTED]`` is set.

    ``pc`` is the ProbCut calibration (:func:`load_probcut`) and ``pc_t`` its threshold in
    standard deviations; ``pc_t == 0`` turns ProbCut off and the search is plain alpha-beta.
    The arrays are separate arguments: passed as one tuple (a recursive call on one line
    instead of one line an argument) they made this search a fifth slower under numba 0.68
    (3.7 s of CPU where separate arguments take 3.0 s, for the same 6.0 million nodes), and
    numba 0.68 crashes on a recursive ``*args`` function. So that the 22 arguments are spelt
    out once, every search below a node goes through the one recursive call in its loop.
    """
    ctr[NODES] += 1
    if ctr[NODES] & _CHECK_EVERY == 0 and (
        stop[0] != 0 or timer[0] != 0 or ctr[NODES] >= ctr[NODE_LIMIT]
    ):
        ctr[ABORTED] = 1
    if ctr[ABORTED] != 0:
        return 0
    pv_len[ply] = ply
    if p == _U0 or o == _U0 or (p | o) == ~_U0:
        return _terminal(p, o)
    if depth <= 0 or ply >= MAX_PLY - 1:
        return max(-_EVAL_CAP, min(_EVAL_CAP, _eval(p, o, w)))

    # Table probe.
    slot = _slot(keys, p, o)
    hit = _probe(keys, info, slot, p, o)
    tt_move = -1
    if hit >= 0:
        ctr[TT_HITS] += 1
        tt_move = info[hit, 3]
        if ply > 0 and info[hit, 1] >= depth:
            s = int(info[hit, 0])
            kind = info[hit, 2]
            if kind == _EXACT or (kind == _LOWER and s >= beta) or (kind == _UPPER and s <= alpha):
                return s

    # ProbCut: on a null window, far enough from the end, a shallow search whose value the
    # calibration puts beyond beta (or below alpha) by pc_t standard deviations decides the node.
    # First a null-window search at ``above`` (a value there predicts one above beta), then one
    # at ``below``.
    shallow, above, below = -1, _EVAL_CAP, -_EVAL_CAP
    if pc_t > 0.0 and ply > 0 and beta == alpha + 1 and depth >= PC_MIN_DEPTH:
        shallow, above, below = _probcut_window(p, o, depth, alpha, beta, pc, pc_t)
    probe_above = shallow >= 0 and above < _EVAL_CAP
    probe_below = shallow >= 0 and below > -_EVAL_CAP

    # The searches below this node, one a turn of this loop: ProbCut's of this position, then
    # the pass, or the moves in order (the first with the full window, the others with a null
    # one first and again with the full one when they land inside it). Each turn searches
    # (cp, co) to depth cd at ply cply, with the window (lo, hi) from cp's view.
    n = -1  # the moves, once generated (ProbCut's searches fill this ply's buffers first)
    i = 0  # the move searched
    sq = 64  # its square (64: the pass)
    research = False  # the search is the full-window one after a null window landed inside
    alpha0 = alpha
    best = -INF
    best_move = -1
    while True:
        if probe_above or probe_below:
            lo = above - 1 if probe_above else below
            hi = lo + 1
            cp, co, cd, cply = p, o, shallow, ply
        elif research:
            cp, co, cd, cply = child_p[ply, i], child_o[ply, i], depth - 1, ply + 1
        elif n < 0:
            # ProbCut is done: order the moves (none: the pass).
            if shallow >= 0:
                if ctr[ABORTED] != 0:
                    return 0
                if tt_move < 0:
                    # The shallow searches may have left a move to try first.
                    hit = _probe(keys, info, slot, p, o)
                    if hit >= 0:
                        tt_move = info[hit, 3]
            moves = legal_moves(p, o)
            if moves == _U0 and legal_moves(o, p) == _U0:
                return _terminal(p, o)
            n = _order_moves(
                p, o, moves, tt_move, w, history, depth, ply, moves_buf, order_buf, child_p, child_o
            )
            continue
        else:
            if n == 0:  # the pass
                cp, co, cd = o, p, depth
            else:
                _bring_best(ply, i, n, moves_buf, order_buf, child_p, child_o)
                sq = moves_buf[ply, i]
                cp, co, cd = child_p[ply, i], child_o[ply, i], depth - 1
            lo = -beta if i == 0 else -alpha - 1
            hi = -alpha
            cply = ply + 1
        v = pvs(
            cp,
            co,
            cd,
            lo,
            hi,
            cply,
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
            pc,
            pc_t,
        )
        if probe_above:
            probe_above = False
            if ctr[ABORTED] == 0 and v >= above:
                return beta
            probe_below = probe_below and ctr[ABORTED] == 0
            continue
        if probe_below:
            probe_below = False
            if ctr[ABORTED] == 0 and v <= below:
                return alpha
            continue
        s = -v
        if n == 0:
            _take_pv(pv, pv_len, ply, 64)
            return s
        if i and not research and ctr[ABORTED] == 0 and s > alpha and s < beta:
            if ply == 0:
                # Proven better than the best so far, even if the re-search is cut short.
                ctr[ROOT_MOVE] = sq
                ctr[ROOT_SCORE] = s
            research = True
            lo, hi = -beta, -s
            continue
        research = False
        if ctr[ABORTED] != 0:
            return 0
        if s > best:
            best = s
            best_move = sq
            if s > alpha:
                alpha = s
                _take_pv(pv, pv_len, ply, sq)
                if ply == 0:
                    ctr[ROOT_MOVE] = sq
                    ctr[ROOT_SCORE] = s
                if s >= beta:
                    history[sq] += depth * depth
                    if history[sq] > 1 << 20:
                        for t in range(64):
                            history[t] >>= 1
                    break
        i += 1
        if i == n:
            break

    if best <= alpha0:
        kind = _UPPER
    elif best >= beta:
        kind = _LOWER
    else:
        kind = _EXACT
    _store(keys, info, slot, p, o, best, kind, depth, best_move, generation)
    return best


@njit(cache=True, nogil=True, inline="always")
def _take_pv(pv: np.ndarray, pv_len: np.ndarray, ply: int, sq: int) -> None:  # pragma: no cover
    """The line at ``ply`` becomes ``sq`` followed by the line found one ply deeper."""
    pv[ply, ply] = sq
    for t in range(ply + 1, pv_len[ply + 1]):
        pv[ply, t] = pv[ply + 1, t]
    pv_len[ply] = max(pv_len[ply + 1], ply + 1)


_cache_depends_on(__name__, kernels, evaluation, patterns)
