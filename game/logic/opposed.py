"""Two-member enums whose members are each other's opposite: a Reversi colour, a river bank.

>>> class Way(Opposed):
...     UP = "up"
...     DOWN = "down"
>>> Way.UP.other, Way.DOWN.other
(<Way.DOWN: 'down'>, <Way.UP: 'up'>)
"""

from __future__ import annotations

import enum
from typing import Self

__all__ = ["Opposed"]


class Opposed(enum.Enum):
    """Base of an enum with exactly two members; ``other`` gives the one that is not this."""

    @property
    def other(self) -> Self:
        """The opposite member."""
        first, second = type(self).__members__.values()
        return second if self is first else first
