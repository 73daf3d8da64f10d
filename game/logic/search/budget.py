"""A search's count of positions against its limits: a cap, a deadline and a stop flag."""

from __future__ import annotations

import time
from typing import ClassVar

from game.logic.contract import Stop

__all__ = ["Budget"]


class Budget:
    """Positions visited (``nodes``) against ``node_cap`` (None: no cap), a
    ``time.perf_counter()`` ``deadline`` (None: none) and a ``stop`` flag (None: none).

    :meth:`tick` counts one position; it raises :attr:`SPENT` past the cap or the deadline and
    :attr:`STOPPED` once the flag is set. The clock and the flag are read once every
    ``CHECK_MASK + 1`` positions (a power of two): reading them costs more than a position. A
    search subclasses it and names its own exceptions and rate.

    >>> class Walk(Budget):
    ...     SPENT = STOPPED = EOFError
    >>> walk = Walk(node_cap=2, deadline=None, stop=None)
    >>> walk.tick(); walk.tick(); walk.nodes
    2
    >>> walk.tick()
    Traceback (most recent call last):
    EOFError
    """

    SPENT: ClassVar[type[Exception]]
    STOPPED: ClassVar[type[Exception]]
    CHECK_MASK: ClassVar[int] = 63

    def __init__(self, node_cap: int | None, deadline: float | None, stop: Stop | None) -> None:
        self.node_cap = node_cap
        self.deadline = deadline
        self.stop = stop
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise self.SPENT
        if self.nodes & self.CHECK_MASK == 0:
            if self.stop is not None and self.stop.is_set():
                raise self.STOPPED
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise self.SPENT
