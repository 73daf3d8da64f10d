"""Numba kernels on 64-bit bitboards: move generation, flips, perft, the solver's last plies.

Every kernel is ``@njit(nogil=True, cache=True)`` and takes the two bitboards as ``np.uint64``:
``p`` holds the discs of the side to move, ``o`` those of its opponent. A square is
``sq = row * 8 + col`` with A1 = 0 (bit 0), B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63, i.e. the
"A1..H8 row by row" order of the board text (:mod:`game.logic.reversi.board`). Scores are final
disc differences for the side to move with the empty squares going to the winner (the FFO
convention); they are always even.

Move generation and flips
    ``legal_moves(p, o) -> uint64``  mask of the squares the side to move may play.
    ``flips(p, o, sq) -> uint64``    discs flipped by playing ``sq`` (0 when ``sq`` is illegal).
    ``play(p, o, sq) -> (p2, o2)``   both bitboards after the move, *not* swapped (``p2`` still
    belongs to the player who moved).
    ``popcount(x) -> int``; ``lowest_square(x) -> int`` (index of the lowest set bit, x != 0).

Evaluation helpers (for the midgame search)
    ``potential_mobility(p, o) -> int``  empty squares next to an opponent disc.
    ``stable_discs(p, o) -> uint64``     a subset of ``p``'s discs that can never be flipped:
    edge discs found stable by an exact edge table, then discs whose four lines are each full
    or continue into a stable disc of the same colour (a lower bound, as in Edax).
    ``ordered_moves(p, o, out) -> int``  writes the legal squares into ``out`` (an int64 array
    of length >= 32) fastest first (fewest, corner-weighted opponent replies) and returns their
    number.
    ``insert_move(keys, out, n, key, sq) -> int``  inserts ``sq`` into the ``n`` squares of
    ``out`` kept sorted by ``keys`` (lowest first, stable) and returns the new count.

Perft
    ``perft(p, o, depth, bulk) -> (leaves_bik, leaves_edax)``. A pass is one ply. Bik counts a
    game that ended before ``depth`` as one leaf, Edax (OEIS A124004) does not count it. With
    ``bulk`` the last ply is counted with a popcount of the move mask.

Exact endgame solver, lower layers (the upper one, with the table, is
:mod:`game.logic.reversi.endgame`)
    ``solve_small(p, o, alpha, beta, empties, n_empties) -> (score, nodes)``  fail-soft value of
    a position with at most ``SHALLOW_EMPTIES`` empty squares (``empties`` is their mask).
    ``final_score(p, o) -> int``  the disc difference of a finished game.
    ``order_key(p, o, sq) -> int``  the fastest-first ordering key of the move ``sq`` just
    played by ``p`` (lower first).

The search is negamax with principal-variation (null-window) re-searches. Below the table:

* from ``SHALLOW_EMPTIES`` down to 5 empties (``_shallow``): no table and no arrays. The empty
  squares travel as one int, six bits a square, in square-value order (corners, other edge
  squares, inner squares, the squares next to the corners last), with the quadrant parity as a
  4-bit int; moves into odd quadrants are tried first;
* 4 to 2 empties (``_solve4`` .. ``_solve2``): compiled copies of one template, one per
  number of squares so that numba unrolls each one's loop (the squares packed as above, odd
  quadrants first at 4), a pass handled by letting the opponent try the same squares; 1 empty
  (``_solve1``): the last square scored from a flip count on the full board
  (``_last_flip_count``) without playing the move. Every layer returns ``(score, nodes)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from game.logic.compiling import cache_by_package_path, kernel_copy

__all__ = [
    "SHALLOW_EMPTIES",
    "final_score",
    "flips",
    "insert_move",
    "legal_moves",
    "lowest_square",
    "order_key",
    "ordered_moves",
    "perft",
    "play",
    "popcount",
    "potential_mobility",
    "solve_small",
    "stable_discs",
]

cache_by_package_path()  # before the first @njit(cache=True)

_jit = njit(nogil=True, cache=True)

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
_FULL = U64(0xFFFFFFFFFFFFFFFF)
_NOT_A = U64(0xFEFEFEFEFEFEFEFE)  # every column but A
_NOT_H = U64(0x7F7F7F7F7F7F7F7F)  # every column but H
_INNER_COLS = U64(0x7E7E7E7E7E7E7E7E)
_INNER_DIAG = U64(0x007E7E7E7E7E7E00)
_COL_A = U64(0x0101010101010101)
_COL_H = U64(0x8080808080808080)
_ROW_1 = U64(0x00000000000000FF)
_ROW_8 = U64(0xFF00000000000000)
_BORDER = _COL_A | _COL_H | _ROW_1 | _ROW_8
_CORNERS = U64(0x8100000000000081)
_PACK_COL = U64(0x0102040810204080)  # packs column A (bits 0, 8, ..) into the top byte
# Shift amounts as uint64: numba types a uint64 mixed with a signed int as a float64.
_S1, _S2, _S4, _S7, _S8, _S9, _S16, _S32, _S56 = (U64(s) for s in (1, 2, 4, 7, 8, 9, 16, 32, 56))

SHALLOW_EMPTIES = 7  # at or below: no table, parity ordering
_X_C = U64(0x42C300000000C342)  # the squares next to the corners (C and X squares)
_SQUARE_CLASSES = np.array(
    [_CORNERS, _BORDER & ~_X_C & ~_CORNERS, ~_BORDER & ~_X_C, _X_C & _BORDER, _X_C & ~_BORDER],
    dtype=np.uint64,
)
_N_CLASSES = 5  # rows of the move-list scratch array, indexed by the number of empties


def _build_rays() -> tuple[np.ndarray, np.ndarray]:
    """Rays from every square: four increasing directions and four decreasing ones."""
    up = np.zeros((4, 64), dtype=np.uint64)
    down = np.zeros((4, 64), dtype=np.uint64)
    # (drow, dcol): E, N, NE, NW increase the index; W, S, SW, SE decrease it.
    for table, steps in (
        (up, ((0, 1), (1, 0), (1, 1), (1, -1))),
        (down, ((0, -1), (-1, 0), (-1, -1), (-1, 1))),
    ):
        for d, (dr, dc) in enumerate(steps):
            for sq in range(64):
                r, c = divmod(sq, 8)
                mask = 0
                r, c = r + dr, c + dc
                while 0 <= r < 8 and 0 <= c < 8:
                    mask |= 1 << (r * 8 + c)
                    r, c = r + dr, c + dc
                table[d, sq] = mask
    return up, down


_RAY_UP, _RAY_DOWN = _build_rays()
# _RAYS[sq * 8 + d]: the four increasing rays from sq (d = 0..3), then the four decreasing ones.
_RAYS = np.concatenate((_RAY_UP.T, _RAY_DOWN.T), axis=1).reshape(-1).copy()
_BIT = np.array([1 << i for i in range(64)], dtype=np.uint64)
_QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
    dtype=np.uint64,
)


def _build_unpack_col() -> np.ndarray:
    """Byte b (bit k = row k) spread over column A."""
    out = np.zeros(256, dtype=np.uint64)
    for b in range(256):
        out[b] = sum(1 << (8 * k) for k in range(8) if b >> k & 1)
    return out


_UNPACK_COL = _build_unpack_col()
_NEIGHBOURS = np.array(
    [
        sum(
            1 << (r * 8 + c)
            for r in range(sq // 8 - 1, sq // 8 + 2)
            for c in range(sq % 8 - 1, sq % 8 + 2)
            if 0 <= r < 8 and 0 <= c < 8 and r * 8 + c != sq
        )
        for sq in range(64)
    ],
    dtype=np.uint64,
)


# --- bit tricks --------------------------------------------------------------------------------


@intrinsic
def _ctpop(typingctx: Any, x: Any) -> Any:  # pragma: no cover - compiled by numba
    """The CPU's popcount on a 64-bit integer, as an int64."""
    if not isinstance(x, types.Integer) or getattr(x, "bitwidth", 0) != 64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(x), codegen


@_jit
def popcount(x: np.uint64) -> int:
    """Number of set bits."""
    return _ctpop(x)  # type: ignore[call-arg]


@_jit
def lowest_square(x: np.uint64) -> int:
    """Index of the lowest set bit of a non-zero board."""
    return np.int64(trailing_zeros(x))  # type: ignore[call-arg, return-value]


# --- move generation ---------------------------------------------------------------------------


@njit(nogil=True, cache=True, inline="always")
def _moves_up(p: np.uint64, m: np.uint64, s: np.uint64) -> np.uint64:
    """The squares ``s`` bits above a run of discs of ``m`` that starts ``s`` bits above a disc
    of ``p`` (runs of up to six, found by doubling the shift)."""
    f = m & (p << s)
    f |= m & (f << s)
    pre = m & (m << s)
    f |= pre & (f << (s + s))
    f |= pre & (f << (s + s))
    return f << s


@njit(nogil=True, cache=True, inline="always")
def _moves_down(p: np.uint64, m: np.uint64, s: np.uint64) -> np.uint64:
    """:func:`_moves_up` in the other direction."""
    f = m & (p >> s)
    f |= m & (f >> s)
    pre = m & (m >> s)
    f |= pre & (f >> (s + s))
    f |= pre & (f >> (s + s))
    return f >> s


@_jit
def legal_moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """Mask of the squares where the side to move (``p``) may play."""
    # Horizontally and diagonally only opponent discs off the A and H columns can be jumped.
    m = o & _INNER_COLS
    moves = _moves_up(p, m, _S1) | _moves_down(p, m, _S1)
    moves |= _moves_up(p, o, _S8) | _moves_down(p, o, _S8)
    m = o & _INNER_DIAG
    moves |= _moves_up(p, m, _S7) | _moves_down(p, m, _S7)
    moves |= _moves_up(p, m, _S9) | _moves_down(p, m, _S9)
    return moves & ~(p | o)


@_jit
def flips(p: np.uint64, o: np.uint64, sq: int) -> np.uint64:
    """Discs of ``o`` flipped when ``p`` plays the empty square ``sq`` (0 if the move is illegal).

    Per direction, the first square of the ray that is not an opponent disc must be one of
    ``p``'s: rays going up take the lowest such square, rays going down the highest. Written
    without branches (a mispredicted branch per ray cost more than the arithmetic).
    """
    f = _ZERO
    not_o = ~o
    base = sq * 8
    for d in range(4):
        ray = _RAYS[base + d]
        stop = ray & not_o
        mine = stop & (~stop + _ONE) & p  # the lowest stop square when it is ours, else 0
        f |= ray & (mine - U64(mine != _ZERO))
        ray = _RAYS[base + 4 + d]
        # The highest stop square (bit 0 when there is none: "& ray" then rules it out).
        top = _ONE << (U64(63) - leading_zeros(ray & not_o | _ONE))  # type: ignore[call-arg]
        mine = top & p & ray
        f |= ray & ~((mine << _ONE) - _ONE)  # the ray above ``mine``; nothing when it is 0
    return f


@_jit
def play(p: np.uint64, o: np.uint64, sq: int) -> tuple[np.uint64, np.uint64]:
    """Both boards after ``p`` plays the legal square ``sq`` (not swapped)."""
    f = flips(p, o, sq)
    return p | f | _BIT[sq], o ^ f


@_jit
def _neighbours(x: np.uint64) -> np.uint64:
    """Squares next to (any of the eight directions) a disc of ``x``."""
    h = ((x << _S1) & _NOT_A) | ((x >> _S1) & _NOT_H)
    x2 = x | h
    return h | (x2 << _S8) | (x2 >> _S8)


@_jit
def potential_mobility(p: np.uint64, o: np.uint64) -> int:
    """Empty squares next to an opponent disc: where ``p`` might one day be able to play."""
    return popcount(_neighbours(o) & ~(p | o))


# --- stability ---------------------------------------------------------------------------------


@_jit
def _edge_flip(a: int, b: int, x: int) -> int:
    """Cells of ``b`` flipped on an 8-cell line when ``a`` plays cell ``x``."""
    flipped = 0
    run = 0
    y = x + 1
    while y < 8 and (b >> y) & 1:
        run |= 1 << y
        y += 1
    if y < 8 and (a >> y) & 1:
        flipped |= run
    run = 0
    y = x - 1
    while y >= 0 and (b >> y) & 1:
        run |= 1 << y
        y -= 1
    if y >= 0 and (a >> y) & 1:
        flipped |= run
    return flipped


@_jit
def _build_edge_table() -> np.ndarray:
    """table[a * 256 + b]: cells of an edge (a, b disjoint) that no sequence of moves can flip.

    Any colour may play any empty cell of an edge (the move can be legal thanks to another
    line), so a cell is stable when no single placement flips it and it stays stable in every
    position reached; positions are filled from the full edges down.
    """
    table = np.zeros(65536, dtype=np.uint8)
    for filled in range(8, -1, -1):
        for occ in range(256):
            if popcount(U64(occ)) != filled:
                continue
            sub = occ
            while True:
                a = sub
                b = occ ^ sub
                stable = occ
                for x in range(8):
                    if (occ >> x) & 1:
                        continue
                    bit = 1 << x
                    f = _edge_flip(a, b, x)
                    stable &= ~f & table[(a | bit | f) * 256 + (b ^ f)]
                    f = _edge_flip(b, a, x)
                    stable &= ~f & table[(a ^ f) * 256 + (b | bit | f)]
                table[a * 256 + b] = stable
                if sub == 0:
                    break
                sub = (sub - 1) & occ
    return table


_EDGE_STABLE = _build_edge_table()


@_jit
def _full_lines(filled: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """Squares whose horizontal, vertical, a1-h8 and h1-a8 lines are completely filled."""
    x = filled & (filled >> _S1)
    x &= x >> _S2
    x &= x >> _S4
    full_h = (x & _COL_A) * U64(0xFF)
    x = filled & (filled >> _S8)
    x &= x >> _S16
    x &= x >> _S32
    full_v = (x & _ROW_1) * _COL_A
    # Diagonals: fill forward and backward until every square further along is filled.
    e9f = _COL_H | _ROW_8
    e9b = _COL_A | _ROW_1
    e7f = _COL_A | _ROW_8
    e7b = _COL_H | _ROW_1
    f9 = filled
    b9 = filled
    f7 = filled
    b7 = filled
    for _ in range(7):
        f9 = filled & ((f9 >> _S9) | e9f)
        b9 = filled & ((b9 << _S9) | e9b)
        f7 = filled & ((f7 >> _S7) | e7f)
        b7 = filled & ((b7 << _S7) | e7b)
    return full_h, full_v, f9 & b9, f7 & b7


@_jit
def _edge_stable(p: np.uint64, o: np.uint64) -> np.uint64:
    """Discs (both colours) on the four edges that can never be flipped."""
    s = U64(_EDGE_STABLE[np.int64(p & _ROW_1) * 256 + np.int64(o & _ROW_1)])
    s |= U64(_EDGE_STABLE[np.int64(p >> _S56) * 256 + np.int64(o >> _S56)]) << _S56
    pa = np.int64(((p & _COL_A) * _PACK_COL) >> _S56)
    oa = np.int64(((o & _COL_A) * _PACK_COL) >> _S56)
    s |= _UNPACK_COL[_EDGE_STABLE[pa * 256 + oa]]
    ph = np.int64((((p >> _S7) & _COL_A) * _PACK_COL) >> _S56)
    oh = np.int64((((o >> _S7) & _COL_A) * _PACK_COL) >> _S56)
    s |= _UNPACK_COL[_EDGE_STABLE[ph * 256 + oh]] << _S7
    return s  # type: ignore[no-any-return]


@_jit
def stable_discs(p: np.uint64, o: np.uint64) -> np.uint64:
    """A subset of ``p``'s discs that can never be flipped again (a lower bound)."""
    full_h, full_v, full_9, full_7 = _full_lines(p | o)
    stable = _edge_stable(p, o) & p
    # A line that is full or ends at the border cannot bracket the disc in that direction.
    safe_h = full_h | _COL_A | _COL_H
    safe_v = full_v | _ROW_1 | _ROW_8
    safe_9 = full_9 | _BORDER
    safe_7 = full_7 | _BORDER
    candidates = p & ~stable
    stable |= candidates & full_h & full_v & full_9 & full_7
    while True:
        h = safe_h | ((stable << _S1) & _NOT_A) | ((stable >> _S1) & _NOT_H)
        v = safe_v | (stable << _S8) | (stable >> _S8)
        d9 = safe_9 | ((stable << _S9) & _NOT_A) | ((stable >> _S9) & _NOT_H)
        d7 = safe_7 | ((stable << _S7) & _NOT_H) | ((stable >> _S7) & _NOT_A)
        new = candidates & h & v & d9 & d7 & ~stable
        if new == _ZERO:
            return stable
        stable |= new


# --- move ordering -----------------------------------------------------------------------------


@_jit
def order_key(p: np.uint64, o: np.uint64, sq: int) -> int:
    """Lower is tried first: the opponent's corner-weighted replies after the move, then
    its potential mobility (both boards as after ``p`` plays ``sq``: ``p`` moved)."""
    replies = legal_moves(o, p)
    key = (popcount(replies) + popcount(replies & _CORNERS)) * 16
    key += popcount(_neighbours(p) & ~(p | o)) * 8
    if _BIT[sq] & _CORNERS:
        key -= 8
    return key


@_jit
def ordered_moves(p: np.uint64, o: np.uint64, out: np.ndarray) -> int:
    """Legal squares written into ``out`` fastest first; returns how many there are."""
    moves = legal_moves(p, o)
    keys = np.empty(32, dtype=np.int64)
    n = 0
    while moves:
        sq = lowest_square(moves)
        moves &= moves - _ONE
        f = flips(p, o, sq)
        n = insert_move(keys, out, n, order_key(p | f | _BIT[sq], o ^ f, sq), sq)
    return n


@njit(nogil=True, cache=True, inline="always")
def insert_move(keys: np.ndarray, out: np.ndarray, n: int, key: int, sq: int) -> int:
    """Inserts ``sq`` with ``key`` into the ``n`` squares of ``out`` kept sorted by ``keys``
    (lowest first; after the squares of an equal key) and returns their new number."""
    i = n
    while i > 0 and keys[i - 1] > key:
        keys[i] = keys[i - 1]
        out[i] = out[i - 1]
        i -= 1
    keys[i] = key
    out[i] = sq
    return n + 1


# --- perft -------------------------------------------------------------------------------------


@_jit
def _perft(p: np.uint64, o: np.uint64, depth: int, bulk: bool) -> tuple[int, int]:
    """Perft of :func:`perft`; with ``bulk`` the last ply is counted with a popcount and the
    last two plies in one loop."""
    if depth == 0:
        return 1, 1
    moves = legal_moves(p, o)
    if moves == _ZERO:
        if legal_moves(o, p) == _ZERO:
            return 1, 0  # the game ended before the last ply
        return _perft(o, p, depth - 1, bulk)
    if bulk and depth == 1:
        n = popcount(moves)
        return n, n
    bik = 0
    edax = 0
    if bulk and depth == 2:
        while moves:
            sq = lowest_square(moves)
            moves &= moves - _ONE
            f = flips(p, o, sq)
            np_ = o ^ f
            no = p | f | _BIT[sq]
            replies = legal_moves(np_, no)
            if replies:
                n = popcount(replies)
                bik += n
                edax += n
            else:
                bik += 1
                if legal_moves(no, np_):
                    edax += 1  # a pass is a leaf
        return bik, edax
    while moves:
        sq = lowest_square(moves)
        moves &= moves - _ONE
        f = flips(p, o, sq)
        b, e = _perft(o ^ f, p | f | _BIT[sq], depth - 1, bulk)
        bik += b
        edax += e
    return bik, edax


@_jit
def perft(p: np.uint64, o: np.uint64, depth: int, bulk: bool) -> tuple[int, int]:
    """Leaves at ``depth`` plies as ``(bik, edax)``; see the module docstring."""
    return _perft(p, o, max(depth, 0), bulk)


# --- exact endgame solver ----------------------------------------------------------------------


@_jit
def final_score(p: np.uint64, o: np.uint64) -> int:
    """Disc difference at game end, the empty squares going to the winner."""
    n_p = popcount(p)
    n_o = popcount(o)
    if n_p > n_o:
        return 64 - 2 * n_o
    if n_p < n_o:
        return 2 * n_p - 64
    return 0


@_jit
def _last_flip_count(p: np.uint64, sq: int) -> int:
    """Discs flipped when ``p`` plays ``sq`` on an otherwise full board (every other disc is
    the opponent's, so a ray flips up to the nearest disc of ``p`` when it has one)."""
    n = 0
    base = sq * 8
    for d in range(4):
        ray = _RAYS[base + d]
        mine = ray & p
        mine &= ~mine + _ONE  # the nearest disc of p going up, or 0
        n += popcount(ray & (mine - U64(mine != _ZERO)))
        ray = _RAYS[base + 4 + d]
        mine = (_ONE << (U64(63) - leading_zeros(ray & p | _ONE))) & p & ray  # type: ignore[call-arg]
        n += popcount(ray & ~((mine << _ONE) - _ONE))
    return n


@_jit
def _solve1(p: np.uint64, o: np.uint64, alpha: int, sq: int) -> int:
    """Exact score with one empty square ``sq``, from the flip counts alone.

    When the side to move cannot play there and its score without the opponent's move is
    already at most ``alpha``, that score is returned as the (fail-low) upper bound without
    counting the opponent's flips.
    """
    n_p = popcount(p)
    n = _last_flip_count(p, sq)
    if n:
        return 2 * (n_p + n + 1) - 64
    score = 2 * n_p - 62 if n_p > 31 else 2 * n_p - 64  # if nobody can play sq
    if score <= alpha:
        return score  # the opponent's flips can only lower it
    n = _last_flip_count(o, sq)
    if n:
        return 2 * (n_p - n) - 64
    return score


@njit(nogil=True, cache=True, inline="always")
def _solve1_of(p: np.uint64, o: np.uint64, alpha: int, beta: int, squares: int) -> tuple[int, int]:
    """:func:`_solve1` in the form of the solvers above it (its node is counted by its caller)."""
    return _solve1(p, o, alpha, squares), 0


@njit(nogil=True, cache=True, inline="always")
def _without(squares: int, k: int) -> int:
    """The packed square list ``squares`` (six bits a square) without its ``k``-th square."""
    low = squares & ((1 << (6 * k)) - 1)
    return low | ((squares >> (6 * k + 6)) << (6 * k))


def _fewer(p: np.uint64, o: np.uint64, alpha: int, beta: int, squares: int) -> tuple[int, int]:
    """The children's solver in :func:`_solve_squares`; each compiled copy has its own."""
    raise NotImplementedError("only the compiled copies of _solve_squares have a _fewer")


_N = 0  # the number of squares of a copy of _solve_squares; each copy has its own


def _solve_squares(  # pragma: no cover - the template of _solve2 .. _solve4, compiled copies only
    p: np.uint64, o: np.uint64, alpha: int, beta: int, squares: int
) -> tuple[int, int]:
    """(score, nodes) with the ``_N`` empty squares packed six bits each in ``squares``, tried
    in that order, each child solved by ``_fewer`` (fail-soft in alpha, beta). When the side
    to move cannot play, its opponent tries the same squares (its best is our worst)."""
    nodes = 1
    for side in range(2):  # the side to move, then its opponent when it must pass
        best = -65
        for k in range(_N):
            sq = (squares >> (6 * k)) & 63
            if _NEIGHBOURS[sq] & o:
                f = flips(p, o, sq)
                if f:
                    v, n = _fewer(o ^ f, p | f | _BIT[sq], -beta, -alpha, _without(squares, k))
                    nodes += n
                    if -v > best:
                        best = -v
                        if best >= beta:
                            break
                        alpha = max(alpha, best)
        if best != -65:
            return (best if side == 0 else -best), nodes
        p, o = o, p
        alpha, beta = -beta, -alpha
    return final_score(p, o), nodes


def _solver(squares: int, fewer: Any) -> Any:
    """The compiled copy of :func:`_solve_squares` for ``squares`` empty squares, named
    ``_solve<squares>``. Copies of one template rather than one recursive function: numba
    cannot load a cached recursive function that calls another one, and a loop over a known
    number of squares compiles to the hand-unrolled code these layers need."""
    return _jit(kernel_copy(_solve_squares, f"_solve{squares}", _N=squares, _fewer=fewer))


_solve2 = _solver(2, _solve1_of)
_solve3 = _solver(3, _solve2)
_solve4 = _solver(4, _solve3)


@_jit
def _quadrant_parity(empties: np.uint64) -> int:
    """Bit q set when quadrant q (0: A1-D4, 1: E1-H4, 2: A5-D8, 3: E5-H8) has an odd number of
    the ``empties``."""
    parity = 0
    for q in range(4):
        parity |= (popcount(empties & _QUADRANTS[q]) & 1) << q
    return parity


@_jit
def _quadrant(sq: int) -> int:
    """Quadrant of a square, numbered as in :func:`_quadrant_parity`."""
    return ((sq >> 2) & 1) | ((sq >> 4) & 2)


@_jit
def _square_list(empties: np.uint64) -> int:
    """The empty squares packed six bits each, corners first, then the other edge squares, the
    inner squares, and the squares next to the corners last (the order the shallow search
    tries them in, within each parity class)."""
    packed = 0
    shift = 0
    for c in range(_N_CLASSES):
        todo = empties & _SQUARE_CLASSES[c]
        while todo:
            packed |= lowest_square(todo) << shift
            shift += 6
            todo &= todo - _ONE
    return packed


@_jit
def _solve4_list(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, squares: int, parity: int
) -> tuple[int, int]:
    """:func:`_solve4` on the four packed ``squares``, those in odd quadrants first."""
    odd = 0
    even = 0
    n_odd = 0
    n_even = 0
    for k in range(4):
        sq = (squares >> (6 * k)) & 63
        if (parity >> _quadrant(sq)) & 1:
            odd |= sq << (6 * n_odd)
            n_odd += 1
        else:
            even |= sq << (6 * n_even)
            n_even += 1
    return _solve4(p, o, alpha, beta, odd | (even << (6 * n_odd)))  # type: ignore[no-any-return]


@_jit
def solve_small(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, empties: np.uint64, n_empties: int
) -> tuple[int, int]:
    """(score, nodes) for a position with at most ``SHALLOW_EMPTIES`` empty squares."""
    if n_empties > 4:
        return _shallow(
            p, o, alpha, beta, _square_list(empties), n_empties, _quadrant_parity(empties)
        )
    if n_empties == 4:
        return _solve4_list(p, o, alpha, beta, _square_list(empties), _quadrant_parity(empties))
    squares = 0  # lowest first
    for k in range(n_empties):
        squares |= lowest_square(empties) << (6 * k)
        empties &= empties - _ONE
    if n_empties == 3:
        return _solve3(p, o, alpha, beta, squares)  # type: ignore[no-any-return]
    if n_empties == 2:
        return _solve2(p, o, alpha, beta, squares)  # type: ignore[no-any-return]
    if n_empties == 1:
        return _solve1(p, o, alpha, squares), 1
    return final_score(p, o), 1


@_jit
def _shallow(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    squares: int,
    n_empties: int,
    parity: int,
) -> tuple[int, int]:
    """(score, nodes) by alpha-beta over 5 to ``SHALLOW_EMPTIES`` empty squares, without the
    table; four empties go to :func:`_solve4`.

    ``squares`` lists the empty squares packed six bits each in square-value order (see
    :func:`_square_list`); ``parity`` has bit q set when quadrant q holds an odd number of
    them. Moves into odd quadrants are tried first, each class in list order.
    """
    nodes = 1
    # Stability: the opponent keeps at least its stable discs.
    if 64 - 2 * popcount(o) <= alpha:
        bound = 64 - 2 * popcount(stable_discs(o, p))
        if bound <= alpha:
            return bound, nodes
    best = -65
    for want in (1, 0):
        for k in range(n_empties):
            sq = (squares >> (6 * k)) & 63
            q = _quadrant(sq)
            if (parity >> q) & 1 != want:
                continue
            if _NEIGHBOURS[sq] & o == _ZERO:
                continue  # no opponent disc next to it: nothing to flip
            f = flips(p, o, sq)
            if f == _ZERO:
                continue
            bit = _BIT[sq]
            rest = _without(squares, k)
            if n_empties == 5:
                v, n = _solve4_list(o ^ f, p | f | bit, -beta, -alpha, rest, parity ^ (1 << q))
            else:
                v, n = _shallow(
                    o ^ f, p | f | bit, -beta, -alpha, rest, n_empties - 1, parity ^ (1 << q)
                )
            nodes += n
            v = -v
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        return v, nodes
    if best == -65:  # no move
        if legal_moves(o, p) == _ZERO:
            return final_score(p, o), nodes
        v, n = _shallow(o, p, -beta, -alpha, squares, n_empties, parity)
        return -v, nodes + n
    return best, nodes
