"""The ends of a description: ``(end (win CONDITION) (draw CONDITION) ...)``, each outcome
with a condition checked as it is read (a known word, its arguments of the right number and
kind, the zones and piece types it names declared). :class:`EndReader` is the part of the
description's reader (:mod:`game.logic.rules.design`) that reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from game.logic.rules.board_ends import BOARD_ENDS, check_board_end
from game.logic.rules.ends import walk
from game.logic.rules.goals import GOAL_ENDS, check_goal_end
from game.logic.rules.groups import GROUP_ENDS
from game.logic.rules.numbers import COMPARISONS
from game.logic.rules.perpetual import REPETITION_ENDS, check_repetition_end
from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item
from game.logic.rules.words import ReaderPart, arg, err, form_args, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = ["END_CONDITIONS", "OUTCOMES", "End", "EndReader"]

#: End conditions: name -> (least, most) arguments.
END_CONDITIONS: Final = {
    "stuck": (0, 0),
    "check": (0, 0),
    "line": (1, 1),
    "reached": (1, 3),
    "none-left": (0, 8),
    "repetition": (1, 1),
    "quiet-moves": (1, 9),
    "plies": (1, 1),
    "full": (0, 0),
    "both-stuck": (0, 0),
    "pieces-below": (1, 1),
    "zone-empty": (1, 1),
    "in-hand": (0, 0),
    "connects": (2, 2),
    "connected": (0, 1),
    "only": (1, 9),
    "at-most": (2, 10),
    "one-colour": (1, 9),
    "and": (1, 4),
    "not": (1, 1),
    **dict.fromkeys(COMPARISONS, (2, 2)),
    **GROUP_ENDS,
    **BOARD_ENDS,
    **REPETITION_ENDS,
}
OUTCOMES: Final = ("win", "loss", "draw", "count")


@dataclass(frozen=True)
class End:
    outcome: str
    condition: Item


class EndReader(ReaderPart):
    """Reads and checks the ``(end ...)`` form; the description's reader holds the board and
    the names the conditions refer to."""

    if TYPE_CHECKING:

        def _number(self, item: Item) -> None: ...

    def _ends(self, design: Design) -> None:
        form = self.one("end", required=False)
        if form is None:
            raise DescriptionError("the description has no (end ...)", self.source)
        ends = []
        for item in form.args:
            if not isinstance(item, Form) or item.head not in OUTCOMES:
                raise err(item, f"an end is ({' | '.join(OUTCOMES)} CONDITION)")
            cond = arg(item, 1, 1)[0]
            self._end_condition(cond)
            for part in walk(cond):
                word = part.head if isinstance(part, Form) else str(part.value)
                if design.groups is None and word in GROUP_ENDS:
                    raise err(part, "this end condition needs (groups ...) in (rules ...)")
            ends.append(End(item.head, cond))
        if not ends:
            raise form.error("(end ...) needs at least one condition")
        design.ends = tuple(ends)

    def _end_condition(self, cond: Item) -> None:
        if isinstance(cond, Atom):
            word = word_of(cond)
            if END_CONDITIONS.get(word, (1, 1))[0] != 0:
                raise err(
                    cond,
                    f"unknown end condition {word!r}; the conditions: {', '.join(END_CONDITIONS)}",
                )
            return
        head = cond.head
        args = form_args(cond, END_CONDITIONS, "end condition")
        if head in ("and", "not"):
            for a in args:
                self._end_condition(a)
        elif head in ("line", "repetition", "plies", "pieces-below", "plies-per-point"):
            whole_number(args[0], 1, 10_000)
        elif head in ("quiet-moves", "at-most"):  # a count (at least 1 quiet move), then types
            whole_number(args[0], 1 if head == "quiet-moves" else 0, 10_000)
            for a in args[1:]:
                self._type_name(a)
        elif head == "reached":
            self._zone_name(args[0])
            if len(args) > 1:
                self._type_name(args[1])
            if len(args) > 2 and word_of(args[2]) != "theirs":
                raise err(args[2], "(reached ZONE TYPE theirs): the other player's part")
        elif head in ("none-left", "only", "one-colour"):
            for a in args:
                self._type_name(a)
            if head == "one-colour" and not self.board.dark:
                raise cond.error("one-colour needs a checkered board (a grid of squares)")
        elif head in COMPARISONS:
            for a in args:
                self._number(a)
        elif head == "zone-empty":
            self._zone_name(args[0])
        elif head in GOAL_ENDS:
            check_goal_end(self, head, args)
        elif head in BOARD_ENDS:
            check_board_end(head, args)
        elif head in REPETITION_ENDS:
            check_repetition_end(head, args)
        elif head == "connects":
            self._zone_name(args[0])
            self._zone_name(args[1])
        elif head == "connected" and args and word_of(args[0]) != "theirs":
            raise err(args[0], "(connected theirs): the other player's pieces")
