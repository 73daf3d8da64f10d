"""Compiled kernels for the simulated games of a game of groups (Go): placing a stone with
its captures, suicide and ko, and playing a game out at random to its area count.

A board is an ``int8`` array of colours (0 empty, 1 the first player, 2 the second) and an
``int32`` array of each point's neighbours (-1 past the edge). A simulated game never fills
a point whose every neighbour is the mover's own stone (an eye: filling one's own eyes is
how a group dies), passes when no other stone can be placed, and ends after two passes in a
row or ``limit`` moves; it is scored as the rules score (stones and the empty points only one
colour reaches). The random numbers are numba's own generator, seeded by :func:`seed`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from game.logic.compiling import cache_by_package_path

cache_by_package_path()

__all__ = ["area_difference", "own_eye", "place", "playable", "playout", "seed"]


@njit(cache=True)
def seed(value: int) -> None:
    """Seed the generator the simulated games draw from."""
    np.random.seed(value)


@njit(cache=True)
def _flood(
    colour: npt.NDArray[np.int8],
    nbr: npt.NDArray[np.int32],
    start: int,
    mark: npt.NDArray[np.int32],
    stamp: int,
    members: npt.NDArray[np.int32],
) -> tuple[int, int]:
    """The points of ``start``'s colour joined to it, into ``members`` (each marked with
    ``stamp``): ``(how many, the colours beside them)``, each colour c as the bit 1 << c (an
    empty point beside the region: bit 1, a liberty)."""
    c = colour[start]
    mark[start] = stamp
    members[0] = start
    size = 1
    i = 0
    touches = 0
    while i < size:
        p = members[i]
        i += 1
        for k in range(4):
            q = nbr[p, k]
            if q < 0:
                continue
            cq = colour[q]
            if cq != c:
                touches |= 1 << cq
            elif mark[q] != stamp:
                mark[q] = stamp
                members[size] = q
                size += 1
    return size, touches


@njit(cache=True)
def own_eye(colour: npt.NDArray[np.int8], nbr: npt.NDArray[np.int32], p: int, me: int) -> bool:
    """Whether every neighbour of the empty point ``p`` is ``me``'s stone."""
    for k in range(4):
        q = nbr[p, k]
        if q >= 0 and colour[q] != me:
            return False
    return True


@njit(cache=True)
def place(
    colour: npt.NDArray[np.int8],
    nbr: npt.NDArray[np.int32],
    p: int,
    me: int,
    ko: int,
    mark: npt.NDArray[np.int32],
    stack: npt.NDArray[np.int32],
) -> int:
    """Place ``me``'s stone on the empty point ``p``, taking the enemy groups it leaves
    without a liberty. Returns -2 (and leaves the board as it was) for ko or suicide, else
    the ko point the next move may not take (-1: none). ``mark[0]`` is the stamp counter."""
    if p == ko:
        return -2
    enemy = 3 - me
    in_eye = own_eye(colour, nbr, p, enemy)  # a ko needs a point the enemy walls in
    colour[p] = me
    taken = 0
    last = -1
    for k in range(4):
        q = nbr[p, k]
        if q >= 0 and colour[q] == enemy:
            mark[0] += 1
            size, touches = _flood(colour, nbr, q, mark[1:], mark[0], stack)
            if not touches & 1:
                for j in range(size):
                    colour[stack[j]] = 0
                taken += size
                last = q
    if taken == 0:
        mark[0] += 1
        _, touches = _flood(colour, nbr, p, mark[1:], mark[0], stack)
        if not touches & 1:
            colour[p] = 0
            return -2
    if in_eye and taken == 1:
        return last
    return -1


@njit(cache=True)
def area_difference(colour: npt.NDArray[np.int8], nbr: npt.NDArray[np.int32]) -> int:
    """The first colour's area less the second's (stones and the empty points only that
    colour reaches)."""
    n = colour.shape[0]
    mark = np.zeros(n, np.int32)
    members = np.empty(n, np.int32)
    diff = 0
    for p in range(n):
        c = colour[p]
        if c == 1:
            diff += 1
        elif c == 2:
            diff -= 1
        elif not mark[p]:
            size, touches = _flood(colour, nbr, p, mark, 1, members)
            if touches == 2:
                diff += size
            elif touches == 4:
                diff -= size
    return diff


@njit(cache=True)
def playout(
    colour: npt.NDArray[np.int8],
    nbr: npt.NDArray[np.int32],
    me: int,
    ko: int,
    passes: int,
    limit: int,
    seen_by: npt.NDArray[np.int8],
) -> int:
    """Play the game on ``colour`` (changed) out at random from ``me`` to move (see the
    module docstring); returns the first colour's area less the second's. ``seen_by[p]``
    gets the colour that first placed a stone on ``p`` in this game (for RAVE), if none had."""
    n = colour.shape[0]
    cand = np.empty(n, np.int32)
    mark = np.zeros(n + 1, np.int32)
    stack = np.empty(n, np.int32)
    moves = 0
    while passes < 2 and moves < limit:
        k = 0
        for p in range(n):
            if colour[p] == 0:
                cand[k] = p
                k += 1
        played = False
        while k > 0:
            i = np.random.randint(k)
            p = cand[i]
            k -= 1
            cand[i] = cand[k]
            if own_eye(colour, nbr, p, me):
                continue
            result = place(colour, nbr, p, me, ko, mark, stack)
            if result != -2:
                ko = result
                played = True
                if seen_by[p] == 0:
                    seen_by[p] = me
                break
        if played:
            passes = 0
        else:
            passes += 1
            ko = -1
        me = 3 - me
        moves += 1
    return area_difference(colour, nbr)


@njit(cache=True)
def playable(
    colour: npt.NDArray[np.int8], nbr: npt.NDArray[np.int32], me: int, ko: int
) -> npt.NDArray[np.int32]:
    """The empty points where ``me`` may place a stone (not ko, not suicide) other than its
    own eyes, in order."""
    n = colour.shape[0]
    out = np.empty(n, np.int32)
    mark = np.zeros(n + 1, np.int32)
    stack = np.empty(n, np.int32)
    trial = colour.copy()
    k = 0
    for p in range(n):
        if colour[p] != 0 or own_eye(colour, nbr, p, me):
            continue
        if place(trial, nbr, p, me, ko, mark, stack) != -2:
            out[k] = p
            k += 1
            trial[:] = colour
    return out[:k]
