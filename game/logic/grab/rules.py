"""MasterGrab army formulas (spec section 3): capacity and growth.

>>> capacities(np.array([154, 77, 10]), 20.0).tolist()
[20, 10, 1]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def capacities(sizes: npt.NDArray[np.int64], armies_in_biggest: float) -> npt.NDArray[np.int64]:
    """``floor(size * armies_in_biggest / biggest size)`` per country (spec 3.1).

    Fixes the original's rounding bug: it divides first (``ArmiesPerSize``) and so sometimes
    gives the biggest country 19 instead of 20 (e.g. size 154); multiplying first does not.
    """
    biggest = int(sizes.max())
    return np.floor(sizes * armies_in_biggest / biggest).astype(np.int64)


def grow(
    armies: npt.NDArray[np.float64],
    sizes: npt.NDArray[np.int64],
    capacity: npt.NDArray[np.int64],
    armies_in_biggest: float,
    growth_factor: float,
    players: int,
) -> npt.NDArray[np.float64]:
    """Armies after one move's growth (spec 3.3); pass only non-mountain countries.

    A country below its capacity gains ``size * armies_per_size * growth_factor / players``,
    clamped to the capacity; one at or above it is left alone (never reduced).
    """
    per_size = armies_in_biggest / int(sizes.max())
    gained = np.minimum(armies + sizes * per_size * growth_factor / players, capacity)
    return np.where(armies < capacity, gained, armies)
