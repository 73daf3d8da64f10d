"""The four levels of the classic minimax AI (:mod:`game.logic.reversi.classic`), as data.

They live apart from the compiled search so that the list of players (and a window that only
names them) does not import numba.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["CLASSIC_LEVELS", "ClassicLevel"]


@dataclass(frozen=True, slots=True)
class ClassicLevel:
    """One difficulty of the classic AI: look-ahead depth, weights, exhaustive threshold."""

    name: str
    depth: int
    forfeit: int
    frontier: int
    mobility: int
    stability: int
    exhaustive_empties: int


CLASSIC_LEVELS: Final = {
    level.name: level
    for level in (
        ClassicLevel("classic-beginner", 3, 2, 1, 0, 3, 6),
        ClassicLevel("classic-intermediate", 4, 3, 1, 0, 5, 7),
        ClassicLevel("classic-advanced", 5, 7, 2, 1, 10, 8),
        ClassicLevel("classic-expert", 6, 35, 10, 5, 50, 9),
    )
}
