"""A position of a described game and the move tuple; see :mod:`game.logic.rules.rulebook`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, TypeAlias

__all__ = ["PASS", "THROW", "DescribedPosition", "Move"]

#: (path, captures, effects, program): see the rulebook's module docstring.
Move: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...], int]
#: The move of a player who cannot move in a game that lets them pass.
PASS: Final[Move] = ((), (), (), -1)
#: The program index of a throw of the dice, a chance outcome: ``((), (), VALUES, THROW)``.
THROW: Final = -2


@dataclass
class DescribedPosition:
    """A mutable position: pieces, whose turn, the last move's ends, pieces in hand, the
    plies played, the plies since the last capture or move of a named type, and the keys of
    the positions since then (for repetition)."""

    board: list[int]
    turn: int
    last_from: int = -1
    last_to: int = -1
    hands: tuple[tuple[int, ...], ...] = ()
    plies: int = 0
    quiet: int = 0
    history: tuple[Any, ...] = ()
    #: In a game of stacks: the pieces under each position's top piece, bottom first.
    under: list[tuple[int, ...]] | None = None
    #: The player who made the last move (-1 at the start).
    mover: int = -1
    #: In a game of dice: the dice thrown for this turn (None: chance throws next).
    throw: tuple[int, ...] | None = None
    #: The tallies' values (:mod:`~game.logic.rules.numbers`); empty in a game without.
    tallies: tuple[int, ...] = ()

    def copy(self) -> DescribedPosition:
        return DescribedPosition(
            list(self.board),
            self.turn,
            self.last_from,
            self.last_to,
            self.hands,
            self.plies,
            self.quiet,
            self.history,
            list(self.under) if self.under is not None else None,
            self.mover,
            self.throw,
            self.tallies,
        )
