"""How much work a test with a deep version does: the CI size, or the full one.

Some checks are worth running on thousands of games or to deep perft depths, but a two-core
CI machine cannot afford that on every run. Such a test takes its sizes from :func:`sized`:
the CI size by default (still large enough to fail when the thing it guards breaks), the full
size when ``GAMEHALL_DEEP_CHECKS=1``. Those tests carry the ``deep`` marker, and
``benchmarks/slow_checks.py`` runs them all at the full size (``pytest -m deep``).
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

#: Set to 1 to run every ``deep`` test at its full size.
DEEP_ENV = "GAMEHALL_DEEP_CHECKS"
DEEP = os.environ.get(DEEP_ENV, "") == "1"


def sized(ci: T, deep: T) -> T:
    """``deep`` when the deep checks are asked for (:data:`DEEP_ENV`), else ``ci``."""
    return deep if DEEP else ci
