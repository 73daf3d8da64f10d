"""The bounds every described game runs within, and the error for a game that reaches one.

A description that compiles is checked once more while it plays, by the generated code itself
(:mod:`game.logic.rules.writer` writes the checks), so a game whose moves branch without end
stops with one line naming the form at fault instead of filling the memory or hanging:

* :data:`MAX_MOVES`: the moves of one position, counted as they are generated (before the
  compulsory and most-captures rules choose among them), so that the list never grows past it;
* :data:`MAX_PASSES`: the passes of the loops that stand inside another loop (``while`` in
  ``while``, ``anywhere`` in ``anywhere``, any loop in a ``sweep``), per program run from one
  piece (or, for a drop, one position), a condition that reads the whole board (``exists``,
  ``only-lines``, ``pieces-at-most``) in a loop counting a pass per position it may read;
* :data:`MAX_NESTING`: the loops and choices (``while``, ``repeat``, ``anywhere``, ``sweep``,
  ``one-of``) that stand inside one another on one way through a move program, read when it
  compiles: Python's compiler takes no more than 20 nested loops in one function.

>>> over = Overflow("my.txt", [(3, 14, "anywhere")])
>>> over(0, 0)
Traceback (most recent call last):
...
game.logic.rules.limits.RulesError: my.txt:3:14: (anywhere ...) makes more than 50000 moves in \
one position, the most a position may have; choose among fewer places
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NoReturn

from game.logic.contract import GameError

__all__ = ["MAX_MOVES", "MAX_NESTING", "MAX_PASSES", "Overflow", "RulesError"]

#: The most moves one position may have (chess has at most 218, a 26 x 26 board's drops 676).
MAX_MOVES: Final = 50_000
#: The most passes of inner loops (a loop inside another) one program run may make.
MAX_PASSES: Final = 200_000
#: The most loops and choices inside one another on one way through a move program; a choice
#: (``one-of``, ``anywhere``, an ``if`` holding one) holds the statements after it too.
MAX_NESTING: Final = 16


class RulesError(GameError):
    """A described game that cannot be played on: its moves branch past a bound. The message
    starts with ``file:line:column:`` of the form at fault (``file:`` where there is none)."""


class Overflow:
    """The function the generated code calls when it passes a bound: ``over(k, what)`` raises
    :class:`RulesError` for form ``k`` of ``forms`` (``(line, column, head)``), ``what`` 0 for
    :data:`MAX_MOVES`, 1 for :data:`MAX_PASSES` (passes), 2 for it (a condition that reads
    the whole board, counting its positions)."""

    def __init__(self, source: str, forms: Sequence[tuple[int, int, str]]) -> None:
        self.source = source
        self.forms = forms

    def __call__(self, k: int, what: int) -> NoReturn:
        line, column, head = self.forms[k]
        if what == 0:
            why = (
                f"makes more than {MAX_MOVES} moves in one position, the most a position may "
                "have; choose among fewer places"
            )
        elif what == 1:
            why = (
                f"goes round more than {MAX_PASSES} times inside other loops in one run of "
                "its move program, the most the rulebook allows; nest fewer loops"
            )
        else:
            why = (
                "reads the whole board at each pass of the loop around it: more than "
                f"{MAX_PASSES} positions in one run of its move program, the most the rules "
                "rulebook allows; ask it once, before the loop"
            )
        raise RulesError(f"{self.source}:{line}:{column}: ({head} ...) {why}")
