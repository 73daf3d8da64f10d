"""MasterGrab's compiled kernels: the map's flood fill and the distance transform that
places the army numbers.

They live apart from :mod:`game.logic.grab.map` and :mod:`game.logic.grab.labels` so that
importing those (the window does, for the map's type and the numbers' placement) loads no
numba: the window asks a worker process to make its maps (:mod:`game.logic.grab.making`),
and only a program that makes a map itself (the command line, a tournament, the tests)
compiles these, or loads them from numba's disk cache.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from game.logic.compiling import cache_by_package_path

__all__ = ["chamfer", "grow"]

cache_by_package_path()  # before the first @njit(cache=True)

# Left, Up, Right, Down: spec 1.2's order of directions (dx, dy).
_DX = np.array([-1, 0, 1, 0], dtype=np.int64)
_DY = np.array([0, -1, 0, 1], dtype=np.int64)


@njit(cache=True, nogil=True)
def grow(
    seeds: npt.NDArray[np.int64],
    width: int,
    height: int,
    countries: int,
    steps: npt.NDArray[np.int8],
) -> npt.NDArray[np.int32]:  # pragma: no cover - compiled
    """The flood fill of spec 1.2, countries in id order each round; returns the flat owners."""
    owner = np.full(width * height, -1, dtype=np.int32)
    frontier = np.empty(width * height, dtype=np.int64)
    frontier_owner = np.empty(width * height, dtype=np.int32)
    claimed = np.empty(width * height, dtype=np.int64)
    claimed_owner = np.empty(width * height, dtype=np.int32)
    for c in range(countries):
        owner[seeds[c]] = c
        frontier[c] = seeds[c]
        frontier_owner[c] = c
    size = countries
    step_index = 0
    while size > 0:
        new_size = 0
        # The frontier is grouped by country in id order, and so is what it claims.
        for i in range(size):
            pixel = frontier[i]
            c = frontier_owner[i]
            x0 = pixel % width
            y0 = pixel // width
            for d in range(4):
                k = steps[step_index]
                step_index += 1
                x = x0
                y = y0
                for _ in range(k):
                    x = (x + _DX[d]) % width
                    y = (y + _DY[d]) % height
                    target = y * width + x
                    if owner[target] != -1:
                        break
                    owner[target] = c
                    claimed[new_size] = target
                    claimed_owner[new_size] = c
                    new_size += 1
        # A country that claimed nothing has no empty pixel next to its frontier, and never
        # will, so dropping its frontier equals keeping it (spec 1.2 keeps it).
        frontier, claimed = claimed, frontier
        frontier_owner, claimed_owner = claimed_owner, frontier_owner
        size = new_size
    return owner


@njit(cache=True, nogil=True)
def chamfer(edge: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:  # pragma: no cover
    h, w = edge.shape
    big = np.float32(1e9)
    d = np.where(edge, np.float32(0.0), big).astype(np.float32)
    diag = np.float32(1.4142135)
    for _ in range(2):  # twice, so distances travel across the wrap
        for y in range(h):
            for x in range(w):
                v = d[y, x]
                v = min(v, d[y, x - 1] + 1)
                v = min(v, d[y - 1, x] + 1)
                v = min(v, d[y - 1, x - 1] + diag)
                v = min(v, d[y - 1, (x + 1) % w] + diag)
                d[y, x] = v
        for y in range(h - 1, -1, -1):
            for x in range(w - 1, -1, -1):
                v = d[y, x]
                v = min(v, d[y, (x + 1) % w] + 1)
                v = min(v, d[(y + 1) % h, x] + 1)
                v = min(v, d[(y + 1) % h, (x + 1) % w] + diag)
                v = min(v, d[(y + 1) % h, x - 1] + diag)
                d[y, x] = v
    return d
