"""MasterGrab capacity and growth (spec 3.1, 3.3) against hand-worked numbers."""

from __future__ import annotations

import numpy as np

from game.logic.grab.rules import capacities, grow


def test_capacity_scales_with_size_and_fixes_the_19_bug() -> None:
    # 20 armies in the biggest (154 px): 77 px -> 10, 100 px -> floor(12.98) = 12.
    sizes = np.array([154, 77, 100, 7], dtype=np.int64)
    assert capacities(sizes, 20.0).tolist() == [20, 10, 12, 0]


def test_growth_per_move() -> None:
    # Biggest 200 px, 20 armies: per size 0.1. Defaults AGF 0.1, 4 players.
    # 100 px at 3.0 gains 100 * 0.1 * 0.1 / 4 = 0.25 -> 3.25 (capacity 10).
    # 200 px at 19.9 gains 0.5 but is clamped to 20; at 25 (over capacity) it stays 25.
    sizes = np.array([100, 200, 200], dtype=np.int64)
    capacity = capacities(sizes, 20.0)
    armies = np.array([3.0, 19.9, 25.0])
    assert grow(armies, sizes, capacity, 20.0, 0.1, 4).tolist() == [3.25, 20.0, 25.0]
