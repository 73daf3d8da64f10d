"""The exact endgame solver's upper layer: PVS with a transposition table over the numba kernels.

Above :data:`~game.logic.reversi.kernels.SHALLOW_EMPTIES` empty squares the search is here;
below, it hands over to :func:`game.logic.reversi.kernels.solve_small` (no table, parity
ordering, hand-written solvers for the last four squares). Scores are final disc differences
for the side to move, empty squares to the winner (the FFO convention).

``new_tt(bits) -> ndarray``  a transposition table of ``2**bits`` entries (24 bytes each).
``solve_root(p, o, alpha, beta, tt, stats, stop, w) -> (score, best_sq)``  fail-soft value of
the position within ``(alpha, beta)`` and the move reaching it (64 when the side to move must
pass, -1 at game end); ``stats[0]`` gains the nodes searched; ``stop[0] != 0`` makes the search
unwind at once returning garbage (check the flag after). ``w`` is the pattern evaluation's table
(:func:`game.logic.reversi.patterns.load_weights`), used only to order moves.
``solve_exact(p, o, alpha, beta)``  the score alone, with a private table sized to the position
and the shipped weights.

Each node of :func:`_deep`:

* a stability cut-off (the opponent keeps at least its stable discs);
* a two-way bucketed table (the first slot keeps the deeper search, the second always takes)
  whose bounds narrow the window and whose move is tried first, before the others are ordered;
* from ``_ETC_MIN_EMPTIES`` empties on, an enhanced transposition cut-off: a child whose stored
  upper bound refutes beta ends the node before any search;
* the other moves fastest first: fewest corner-weighted opponent replies, then potential
  mobility; from ``EVAL_ORDER_EMPTIES`` empties on, the pattern evaluation of each child, found
  by a shallow alpha-beta search (deeper the more squares are empty, see :func:`sort_depth`),
  is added to that key, so the likely best move comes first where a wrong first move costs
  most;
* principal-variation search: the first move with the full window, the others with a null
  window and a re-search when they beat alpha.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba import njit

from game.logic.compiling import kernel_copy

from . import evaluation, kernels, patterns
from .evaluation import _cache_depends_on
from .kernels import (  # the bit constants too
    _BIT,
    _ONE,
    _S8,
    _S16,
    _S32,
    _ZERO,
    SHALLOW_EMPTIES,
    U64,
    final_score,
    flips,
    insert_move,
    legal_moves,
    lowest_square,
    order_key,
    popcount,
    solve_small,
    stable_discs,
)
from .patterns import evaluate_bits, load_weights

__all__ = [
    "EVAL_ORDER_EMPTIES",
    "new_tt",
    "solve_exact",
    "solve_root",
    "sort_depth",
]

_jit = njit(nogil=True, cache=True)

_HASH_P = U64(0x9E3779B97F4A7C15)
_HASH_O = U64(0xC2B2AE3D27D4EB4F)
_TT_MIN_EMPTIES = SHALLOW_EMPTIES + 1
_ETC_MIN_EMPTIES = 10  # enhanced transposition cut-offs at and above this many empties
_MAX_PLY = 64

#: From this many empty squares on, moves are ordered with the pattern evaluation.
EVAL_ORDER_EMPTIES = 12
_SORT_DEPTH_BASE = 14  # the ordering search looks 1 ply deep from 17 empties, 2 from 20, 3 from 23
_KEY_OFFSET = 1 << 24  # keeps the ordering keys positive in their uint64 column
_KEY_PER_DISC = 8  # ordering-key units per disc of evaluation (a reply to the opponent: 16)
_SORT_MARGIN = 8  # discs below alpha where the ordering search stops telling moves apart
_EVAL_INF = 1 << 20


def new_tt(bits: int = 20) -> np.ndarray:
    """A zeroed transposition table of ``2**bits`` entries (24 bytes each) for the solver."""
    if not 4 <= bits <= 30:
        raise ValueError(f"transposition table bits must be in 4..30, not {bits}")
    return np.zeros((1 << bits, 3), dtype=np.uint64)


@_jit
def _tt_store(
    tt: np.ndarray,
    p: np.uint64,
    o: np.uint64,
    lo: int,
    hi: int,
    move: int,
    n_empties: int,
) -> None:
    """Two-way bucket: the first slot keeps the deeper search, the second always takes."""
    mask = U64(tt.shape[0] - 1) & ~_ONE
    h = p * _HASH_P + o * _HASH_O
    i = np.int64((h ^ (h >> _S32)) & mask)
    for j in (i, i + 1):
        if tt[j, 0] == p and tt[j, 1] == o:  # merge the bounds
            data = tt[j, 2]
            lo = max(lo, np.int64(data & U64(0xFF)) - 64)  # type: ignore[assignment]
            hi = min(hi, np.int64((data >> _S8) & U64(0xFF)) - 64)  # type: ignore[assignment]
            if move < 0:
                move = np.int64((data >> _S16) & U64(0xFF))  # type: ignore[assignment]
            tt[j, 2] = U64((lo + 64) | ((hi + 64) << 8) | ((move & 0xFF) << 16) | (n_empties << 24))
            return
    stored = np.int64((tt[i, 2] >> U64(24)) & U64(0xFF))
    j = i if n_empties >= stored else i + 1
    tt[j, 0] = p
    tt[j, 1] = o
    tt[j, 2] = U64((lo + 64) | ((hi + 64) << 8) | ((move & 0xFF) << 16) | (n_empties << 24))


@njit(nogil=True, cache=True, inline="always")
def _tt_store_value(
    tt: np.ndarray,
    p: np.uint64,
    o: np.uint64,
    best: int,
    alpha: int,
    beta: int,
    move: int,
    n_empties: int,
) -> None:
    """Stores the fail-soft value ``best`` of a search with the window (alpha, beta): an upper
    bound at or below alpha, a lower bound at or above beta, else the exact value."""
    lo = best if best > alpha else -64
    hi = best if best < beta else 64
    _tt_store(tt, p, o, lo, hi, move, n_empties)


@_jit
def _tt_probe(tt: np.ndarray, p: np.uint64, o: np.uint64) -> np.int64:
    """Packed entry (lo + 64, hi + 64 << 8, move << 16) or -1 when absent."""
    mask = U64(tt.shape[0] - 1) & ~_ONE
    h = p * _HASH_P + o * _HASH_O
    i = np.int64((h ^ (h >> _S32)) & mask)
    if tt[i, 0] == p and tt[i, 1] == o:
        return np.int64(tt[i, 2] & U64(0xFFFFFF))
    if tt[i + 1, 0] == p and tt[i + 1, 1] == o:
        return np.int64(tt[i + 1, 2] & U64(0xFFFFFF))
    return np.int64(-1)


@_jit
def sort_depth(n_empties: int) -> int:
    """Depth of the evaluated search ordering the moves at ``n_empties`` empty squares, or -1
    below :data:`EVAL_ORDER_EMPTIES` (one ply deeper for every three more empties)."""
    if n_empties < EVAL_ORDER_EMPTIES:
        return -1
    return min(3, max(0, (n_empties - _SORT_DEPTH_BASE) // 3))


@njit(nogil=True, cache=True, inline="always")
def _eval0(p: np.uint64, o: np.uint64, alpha: int, beta: int, w: np.ndarray) -> int:
    """The pattern evaluation (hundredths of a disc for the side to move), as a zero-ply search."""
    return evaluate_bits(p, o, w)


def _shallower(p: np.uint64, o: np.uint64, alpha: int, beta: int, w: np.ndarray) -> int:
    """The children's search in :func:`_one_ply_deeper`; each compiled copy has its own."""
    raise NotImplementedError("only the compiled copies of _one_ply_deeper have a _shallower")


def _one_ply_deeper(  # pragma: no cover - the template of _eval1 .. _eval3, compiled copies only
    p: np.uint64, o: np.uint64, alpha: int, beta: int, w: np.ndarray
) -> int:
    """Fail-soft search one ply deeper than ``_shallower`` (its children's search), in hundredths
    of a disc for the side to move (a finished game: 100 per disc; a pass counts as the ply)."""
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return 100 * final_score(p, o)
        return -_shallower(o, p, -beta, -alpha, w)
    best = -_EVAL_INF
    while moves:
        sq = lowest_square(moves)
        moves &= moves - _ONE
        f = flips(p, o, sq)
        v = -_shallower(o ^ f, p | f | _BIT[sq], -beta, -alpha, w)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    return best


def _deeper(shallower: Any, name: str) -> Callable[[np.uint64, np.uint64, int, int, Any], int]:
    """The compiled copy of :func:`_one_ply_deeper` named ``name`` whose ``_shallower`` is
    ``shallower`` (:func:`game.logic.compiling.kernel_copy`). Copies of one template rather
    than one recursive function: numba cannot load a cached recursive function that calls
    another one (:func:`_deep` calls these)."""
    function = kernel_copy(_one_ply_deeper, name, _shallower=shallower)
    return cast("Callable[[np.uint64, np.uint64, int, int, Any], int]", _jit(function))


_eval1 = _deeper(_eval0, "_eval1")
_eval2 = _deeper(_eval1, "_eval2")
_eval3 = _deeper(_eval2, "_eval3")


@_jit
def _eval_search(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, depth: int, w: np.ndarray
) -> int:
    """Fail-soft alpha-beta to ``depth`` (0 to 3) plies with the pattern evaluation at the
    leaves, in hundredths of a disc for the side to move (see :func:`_deeper` for why there
    is no recursion)."""
    if depth <= 0:
        return evaluate_bits(p, o, w)
    if depth == 1:
        return _eval1(p, o, alpha, beta, w)
    if depth == 2:
        return _eval2(p, o, alpha, beta, w)
    return _eval3(p, o, alpha, beta, w)


@njit(nogil=True, cache=True, inline="always")  # called in every node's move loop
def _move_key(
    p: np.uint64,
    o: np.uint64,
    sq: int,
    f: np.uint64,
    depth: int,
    sort_beta: int,
    w: np.ndarray,
) -> int:
    """Ordering key of ``p`` playing ``sq`` (flipping ``f``), lower first: the fastest-first key
    plus, when ``depth >= 0`` (:func:`sort_depth`), the child's evaluation by a search of that
    depth whose window stops at ``sort_beta`` (hundredths, the child's view)."""
    mover = p | f | _BIT[sq]
    key = order_key(mover, o ^ f, sq)
    if depth >= 0:
        value = _eval_search(o ^ f, mover, -_EVAL_INF, sort_beta, depth, w)
        key += value * _KEY_PER_DISC // 100
    return key


@_jit
def _deep(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    n_empties: int,
    tt: np.ndarray,
    scratch: np.ndarray,
    stats: np.ndarray,
    stop: np.ndarray,
    w: np.ndarray,
) -> int:
    """PVS with the table, stability cut-off and evaluated, fastest-first ordering."""
    if n_empties <= SHALLOW_EMPTIES:
        v, n = solve_small(p, o, alpha, beta, ~(p | o), n_empties)
        stats[0] += n
        return v
    stats[0] += 1
    if stop[0]:
        return 0
    n_o = popcount(o)
    if 64 - 2 * n_o <= alpha:
        bound = 64 - 2 * popcount(stable_discs(o, p))
        if bound <= alpha:
            return bound
    hash_move = -1
    entry = _tt_probe(tt, p, o)
    if entry >= 0:
        lo = np.int64(entry & 0xFF) - 64
        hi = np.int64((entry >> 8) & 0xFF) - 64
        if lo >= beta:
            return lo  # type: ignore[return-value]
        if hi <= alpha or lo == hi:
            return hi  # type: ignore[return-value]
        alpha = max(alpha, lo)  # type: ignore[assignment]
        beta = min(beta, hi)  # type: ignore[assignment]
        hash_move = np.int64((entry >> 16) & 0xFF)  # type: ignore[assignment]
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return final_score(p, o)
        return -_deep(o, p, -beta, -alpha, n_empties, tt, scratch, stats, stop, w)
    alpha0 = alpha
    best = -65
    best_sq = -1
    searched = 0
    if hash_move >= 0 and moves & _BIT[hash_move & 63]:
        # The table's move first, before paying for the ordering of the others.
        f = flips(p, o, hash_move)
        best = _child_value(
            p, o, hash_move, f, alpha, beta, True, n_empties, tt, scratch, stats, stop, w
        )
        if stop[0]:
            return 0
        best_sq = hash_move
        searched = 1
        moves ^= _BIT[hash_move]
        if best > alpha:
            alpha = best
    if alpha < beta:
        # Move list in scratch[n_empties]: squares in columns 0..31, keys in 32..63, flips in
        # 64..95; ordered lazily by selection.
        row = scratch[n_empties]
        n = 0
        depth = sort_depth(n_empties)
        sort_beta = (_SORT_MARGIN - alpha) * 100  # children refuting this are bad moves anyway
        while moves:
            sq = lowest_square(moves)
            moves &= moves - _ONE
            f = flips(p, o, sq)
            if n_empties >= _ETC_MIN_EMPTIES:
                # Enhanced transposition cut-off: a child whose stored upper bound already
                # refutes beta proves this node's fail-high without a search.
                child = _tt_probe(tt, o ^ f, p | f | _BIT[sq])
                if child >= 0:
                    bound = 64 - int((child >> 8) & 0xFF)
                    if bound >= beta:
                        _tt_store(tt, p, o, bound, 64, sq, n_empties)
                        return bound
            row[n] = U64(sq)
            row[32 + n] = U64(_move_key(p, o, sq, f, depth, sort_beta, w) + _KEY_OFFSET)
            row[64 + n] = f
            n += 1
        for k in range(n):
            m = k
            for j in range(k + 1, n):
                if row[32 + j] < row[32 + m]:
                    m = j
            sq = np.int64(row[m])  # type: ignore[assignment]
            f = row[64 + m]
            if m != k:
                row[m] = row[k]
                row[32 + m] = row[32 + k]
                row[64 + m] = row[64 + k]
            v = _child_value(
                p, o, sq, f, alpha, beta, searched == 0, n_empties, tt, scratch, stats, stop, w
            )
            searched += 1
            if stop[0]:
                return 0
            if v > best:
                best = v
                best_sq = sq
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
    _tt_store_value(tt, p, o, best, alpha0, beta, best_sq, n_empties)
    return best


@njit(nogil=True, cache=True, inline="always")
def _child_value(
    p: np.uint64,
    o: np.uint64,
    sq: int,
    f: np.uint64,
    alpha: int,
    beta: int,
    first: bool,
    n_empties: int,
    tt: np.ndarray,
    scratch: np.ndarray,
    stats: np.ndarray,
    stop: np.ndarray,
    w: np.ndarray,
) -> int:
    """The value for ``p`` of playing ``sq`` (flipping ``f``) at ``n_empties`` empty squares:
    the first move of a node is searched with the full window, the others with a null window
    and again with the full one when they land inside it."""
    np_ = o ^ f
    no = p | f | _BIT[sq]
    if first:
        return -_deep(np_, no, -beta, -alpha, n_empties - 1, tt, scratch, stats, stop, w)
    v = -_deep(np_, no, -alpha - 1, -alpha, n_empties - 1, tt, scratch, stats, stop, w)
    if alpha < v < beta:
        v = -_deep(np_, no, -beta, -alpha, n_empties - 1, tt, scratch, stats, stop, w)
    return v


@_jit
def _root_order(p: np.uint64, o: np.uint64, n_empties: int, w: np.ndarray, out: np.ndarray) -> int:
    """The root's legal squares into ``out``, best first by :func:`_move_key` (full window);
    returns how many."""
    depth = sort_depth(n_empties)
    keys = np.empty(32, dtype=np.int64)
    moves = legal_moves(p, o)
    n = 0
    while moves:
        sq = lowest_square(moves)
        moves &= moves - _ONE
        n = insert_move(keys, out, n, _move_key(p, o, sq, flips(p, o, sq), depth, _EVAL_INF, w), sq)
    return n


@_jit
def solve_root(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    tt: np.ndarray,
    stats: np.ndarray,
    stop: np.ndarray,
    w: np.ndarray,
) -> tuple[int, int]:
    """Fail-soft score within (alpha, beta) and the move reaching it (64: pass, -1: game over)."""
    stats[0] += 1
    moves = legal_moves(p, o)
    n_empties = 64 - popcount(p | o)
    scratch = np.empty((_MAX_PLY + 1, 96), dtype=np.uint64)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return final_score(p, o), -1
        return -_deep(o, p, -beta, -alpha, n_empties, tt, scratch, stats, stop, w), 64
    squares = np.empty(32, dtype=np.int64)
    n = _root_order(p, o, n_empties, w, squares)
    entry = _tt_probe(tt, p, o)
    if entry >= 0:  # the table's move first
        hash_move = np.int64((entry >> 16) & 0xFF)
        for k in range(1, n):
            if squares[k] == hash_move:
                squares[1 : k + 1] = squares[0:k].copy()
                squares[0] = hash_move
                break
    alpha0 = alpha
    best = -65
    best_sq = squares[0]
    for k in range(n):
        sq = squares[k]
        f = flips(p, o, sq)
        v = _child_value(p, o, sq, f, alpha, beta, k == 0, n_empties, tt, scratch, stats, stop, w)
        if stop[0]:
            return 0, best_sq
        if v > best:
            best = v
            best_sq = sq
            if v > alpha:
                alpha = v
                if v >= beta:
                    break
    if n_empties >= _TT_MIN_EMPTIES:
        _tt_store_value(tt, p, o, best, alpha0, beta, best_sq, n_empties)
    return best, best_sq


def solve_exact(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> int:
    """Fail-soft exact-endgame value (exact inside ``(alpha, beta)``; -64, 64 for the score)
    with a private table sized to the position (24 KB to 6 MB) and the shipped weights."""
    bits = min(18, max(10, 64 - popcount(p | o) - 4))
    stats = np.zeros(1, dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8)
    return int(solve_root(p, o, alpha, beta, new_tt(bits), stats, stop, load_weights())[0])


_cache_depends_on(__name__, kernels, evaluation, patterns)
