"""The classic minimax AI of Mike Hall's "Reversi in C#", at its four levels.

The program's article describes the AI in words:

* plain minimax look-ahead with alpha-beta pruning, to a depth set by the difficulty, and an
  exhaustive search "at the end of the game, when only some ten or twenty squares are left";
* a board is ranked by five criteria, each multiplied by a weight that depends on the
  difficulty, and added up: **forfeit** (making the opponent pass), **mobility** (my legal
  moves against the opponent's), **frontier** (discs next to an empty square), **stability**
  (discs that can never be outflanked) and **score** (the disc difference);
* ``maxRank = Int32.MaxValue - 64``: a move that ends the game ranks ``±maxRank`` plus the
  final disc difference, so it outranks every other move, a bigger win ranking higher (a draw
  ranks 0).

The article gives no numbers. They are taken from the program it describes, as its public
ports show them:

======================  =====  =======  ========  ========  ==========  ==================
level                   depth  forfeit  frontier  mobility  stability   exhaustive from
======================  =====  =======  ========  ========  ==========  ==================
``classic-beginner``        3        2         1         0           3   6 empty squares
``classic-intermediate``    4        3         1         0           5   7 empty squares
``classic-advanced``        5        7         2         1          10   8 empty squares
``classic-expert``          6       35        10         5          50   9 empty squares
======================  =====  =======  ========  ========  ==========  ==================

(The score weight is 1 at every level. The original's depth is ``difficulty + 3``; it searches
to the end when ``moveNumber >= 55 - difficulty``, which from the start position means
``empties <= 6 + difficulty``.)

Details kept from the original, all from White's point of view (positive is good for White):

* the rank of a move at the look-ahead horizon is
  ``forfeit_w * forfeit + frontier_w * (black_frontier - white_frontier)
  + mobility_w * colour * (my_moves - their_moves) + stability_w * (white_safe - black_safe)
  + (white_discs - black_discs)``, where ``colour`` is +1 for White and -1 for Black, ``forfeit``
  is ``colour`` when the move leaves the opponent without a move, ``my_moves`` is the mover's
  move count *before* the move and ``their_moves`` the opponent's count after it;
* above the horizon, a move's rank is the best reply's rank, plus ``forfeit_w * forfeit`` when
  the move made the opponent pass and the rank is not a game-end rank (forfeits add up);
* depth counts moves, not turns: after a pass the same side moves again one level deeper;
* "safe" discs are those that, along each of the four lines through them, have an empty square
  on neither side, or an empty square on one side only and only safe discs of their own colour
  on the other, found by repeating the test until nothing changes;
* ties are broken by scanning the squares from a random row and column (here from the injected
  ``random.Random``), the first best move found being kept.

One deliberate difference: after a forfeit the original passes the unchanged alpha-beta window
to a child whose rank then gets the forfeit bonus added, which can prune a line wrongly. Here
that child is searched with a full window, so the result is the true minimax rank.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
from numba import njit

from . import kernels
from .board import PASS, Color, Position
from .classic_levels import CLASSIC_LEVELS, ClassicLevel
from .evaluation import _cache_depends_on
from .kernels import flips, legal_moves, popcount
from .solver import SearchCancelled

__all__ = [
    "CLASSIC_LEVELS",
    "MAX_RANK",
    "ClassicLevel",
    "classic_move",
    "safe_discs",
]

#: ``System.Int32.MaxValue - 64`` as in the original.
MAX_RANK: Final = 2**31 - 1 - 64
_INF: Final = MAX_RANK + 64 + 1


def classic_move(
    position: Position,
    level: ClassicLevel,
    rng: random.Random | None = None,
    stop: np.ndarray[Any, Any] | None = None,
) -> tuple[int, float, int]:
    """The classic AI's move for the side to move: ``(square, score, nodes)``.

    ``score`` is from the side to move's point of view: the rank in the original's units, or
    the final disc difference (not counting empty squares) when the move is a forced game end.
    Returns ``PASS`` (64) with score 0 when the side to move has no legal move. Raises
    ``ValueError`` when the game is over, and ``SearchCancelled`` when ``stop`` (a numpy
    ``uint8`` array of length 1) is set to 1 while it searches.
    """
    if position.is_terminal():
        raise ValueError("the game is over: there is no move to choose")
    flag = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    black, white = np.uint64(position.black), np.uint64(position.white)
    colour = 1 if position.to_move is Color.WHITE else -1
    mine, theirs = (white, black) if colour == 1 else (black, white)
    moves = int(legal_moves(mine, theirs))
    if moves == 0:
        return PASS, 0.0, 0
    rng = rng if rng is not None else random.Random()
    row_start = rng.randrange(8)
    col_start = rng.randrange(8)
    order = []
    for i in range(8):
        for j in range(8):
            sq = ((row_start + i) % 8) * 8 + (col_start + j) % 8
            if moves >> sq & 1:
                order.append(sq)
    empties = 64 - (position.black | position.white).bit_count()
    depth = empties if empties <= level.exhaustive_empties else level.depth
    weights = np.array(
        [level.forfeit, level.frontier, level.mobility, level.stability], dtype=np.int64
    )
    stats = np.zeros(1, dtype=np.int64)
    best = np.zeros(1, dtype=np.int64)
    root_order = np.array(order, dtype=np.int64)
    rank = int(
        _search(black, white, colour, 1, depth, -_INF, _INF, weights, stats, root_order, best, flag)
    )
    if flag[0]:
        raise SearchCancelled(f"the classic search was stopped after {int(stats[0])} nodes")
    index = int(best[0])
    if abs(rank) > MAX_RANK:
        value = float(rank - MAX_RANK if rank > 0 else rank + MAX_RANK)
    else:
        value = float(rank)
    return order[index], value * colour, int(stats[0])


def safe_discs(black: int, white: int) -> int:
    """Bitboard of the discs (both colours) the classic AI counts as safe."""
    return int(_safe(np.uint64(black), np.uint64(white)))


# --------------------------------------------------------------------------- private helpers

_U0: Final = np.uint64(0)
_U1: Final = np.uint64(1)
_NOT_A: Final = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_H: Final = np.uint64(0x7F7F7F7F7F7F7F7F)


def _line_rays() -> np.ndarray[Any, Any]:
    """rays[line, side, sq]: the squares on one side of ``sq`` along one of its four lines."""
    rays = np.zeros((4, 2, 64), dtype=np.uint64)
    for line, (dr, dc) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
        for side, sign in enumerate((-1, 1)):
            for sq in range(64):
                r, c = divmod(sq, 8)
                mask = 0
                r, c = r + sign * dr, c + sign * dc
                while 0 <= r < 8 and 0 <= c < 8:
                    mask |= 1 << (r * 8 + c)
                    r, c = r + sign * dr, c + sign * dc
                rays[line, side, sq] = mask
    return rays


_RAYS: Final = _line_rays()
# Below the root the scan order does not change a rank, only the pruning: corners first.
_SCAN_ORDER: Final = np.array(
    sorted(
        range(64),
        key=lambda sq: (0 if sq in (0, 7, 56, 63) else 2 if sq in (9, 14, 49, 54) else 1, sq),
    ),
    dtype=np.int64,
)


@njit(cache=True, nogil=True)
def _safe(black: np.uint64, white: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """The original's safe-disc map, both colours, repeated to a fixed point."""
    occupied = black | white
    empty = ~occupied
    safe = _U0
    changed = True
    while changed:
        changed = False
        todo = occupied & ~safe
        while todo != _U0:
            low = todo & (~todo + _U1)
            todo ^= low
            sq = popcount(low - _U1)
            own_safe = safe & (black if black & low else white)
            ok = True
            for line in range(4):
                r1 = _RAYS[line, 0, sq]
                r2 = _RAYS[line, 1, sq]
                space1 = r1 & empty != _U0
                space2 = r2 & empty != _U0
                if space1 and space2:
                    ok = False
                    break
                # With no empty square on a side, every disc there must be a safe own disc.
                if space1 and r2 & ~own_safe != _U0:
                    ok = False
                    break
                if space2 and r1 & ~own_safe != _U0:
                    ok = False
                    break
            if ok:
                safe |= low
                changed = True
    return safe


@njit(cache=True, nogil=True, inline="always")
def _frontier(discs: np.uint64, empty: np.uint64) -> int:  # pragma: no cover - compiled
    """Discs next to an empty square."""
    side = ((empty << _U1) & _NOT_A) | ((empty >> _U1) & _NOT_H)
    band = empty | side
    near = side | (band << np.uint64(8)) | (band >> np.uint64(8))
    return popcount(discs & near)


@njit(cache=True, nogil=True)
def _horizon_rank(  # pragma: no cover - compiled
    black: np.uint64, white: np.uint64, colour: int, forfeit: int, mobility: int, w: np.ndarray
) -> int:
    """The rank at the horizon; ``mobility`` is the mover's move count less the opponent's."""
    empty = ~(black | white)
    safe = _safe(black, white)
    return (  # type: ignore[no-any-return]
        w[0] * forfeit
        + w[1] * (_frontier(black, empty) - _frontier(white, empty))
        + w[2] * colour * mobility
        + w[3] * (popcount(safe & white) - popcount(safe & black))
        + popcount(white)
        - popcount(black)
    )


@njit(cache=True, nogil=True)
def _search(  # pragma: no cover - compiled
    black: np.uint64,
    white: np.uint64,
    colour: int,
    depth: int,
    horizon: int,
    alpha: int | np.int64,
    beta: int | np.int64,
    w: np.ndarray,
    stats: np.ndarray,
    root_order: np.ndarray,
    root_best: np.ndarray,
    stop: np.ndarray,
) -> int:
    """Fail-soft minimax rank (White maximises) for ``colour``, who has a move, at ``depth``.

    At the root (``depth == 1``) the moves are tried in ``root_order`` and the index of the
    first best one is written to ``root_best[0]``. Once ``stop[0]`` is set every call returns
    0 at once (the caller discards the result).
    """
    if stop[0] != 0:
        return 0
    moves = legal_moves(white, black) if colour == 1 else legal_moves(black, white)
    my_moves = popcount(moves)
    best = -_INF if colour == 1 else _INF
    count = root_order.shape[0] if depth == 1 else 64
    for k in range(count):
        sq = root_order[k] if depth == 1 else _SCAN_ORDER[k]
        bit = _U1 << np.uint64(sq)
        if moves & bit == _U0:
            continue
        stats[0] += 1
        # Play the move.
        if colour == 1:
            f = flips(white, black, sq)
            w2 = white | f | bit
            b2 = black & ~f
            their_moves = popcount(legal_moves(b2, w2))
        else:
            f = flips(black, white, sq)
            b2 = black | f | bit
            w2 = white & ~f
            their_moves = popcount(legal_moves(w2, b2))
        score = popcount(w2) - popcount(b2)
        next_colour = -colour
        forfeit = 0
        end = False
        if their_moves == 0:
            forfeit = colour
            next_colour = colour
            end = legal_moves(w2, b2) == _U0 if colour == 1 else legal_moves(b2, w2) == _U0
        # Rank it.
        if end:
            if score < 0:
                rank = -MAX_RANK + score
            elif score > 0:
                rank = MAX_RANK + score
            else:
                rank = 0
        elif depth == horizon:
            rank = _horizon_rank(b2, w2, colour, forfeit, my_moves - their_moves, w)
        else:
            # After a forfeit the window is open. np.int64: a literal here would compile a
            # second, cache-unsafe specialisation.
            low = np.int64(-_INF) if forfeit != 0 else alpha
            high = np.int64(_INF) if forfeit != 0 else beta
            rank = _search(
                b2,
                w2,
                next_colour,
                depth + 1,
                horizon,
                low,
                high,
                w,
                stats,
                root_order,
                root_best,
                stop,
            )
            if forfeit != 0 and abs(rank) < MAX_RANK:
                rank += w[0] * forfeit
        # Keep the first best (strictly better only), narrow the window.
        if colour * rank > colour * best:
            best = rank
            if depth == 1:
                root_best[0] = k
            if colour == 1:
                alpha = max(alpha, rank)
            else:
                beta = min(beta, rank)
        if alpha >= beta:
            break
    return best


_cache_depends_on(__name__, kernels)
