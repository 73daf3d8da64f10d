"""The dice of a described game: the ``(dice ...)`` form, read and checked, and the distinct
throws it makes with their probabilities.

``(dice (count N) (faces F))`` throws N dice of the faces 1 to F; ``(faces 0 1)`` names the
faces one by one (a stick with a marked side); ``(total)`` makes a throw the sum of the dice
(four sticks of the Royal Game of Ur throw 0 to 4), otherwise a throw is the dice's values,
smallest first, one outcome for each distinct set of values (two six-sided dice: 21 throws,
doubles 1/36, the others 2/36), or with ``(ordered)`` in the order the dice fell (36 throws of
1/36 each, 3-5 and 5-3 apart, as OpenSpiel's backgammon throws).

``(each)`` plays a turn die by die (:mod:`game.logic.rules.per_die`): each part of the turn is a
move of its own that uses one die, ``thrown`` being that die's value; ``(doubles N)`` makes a
throw of equal dice N dice of that value (backgammon's four).

>>> dice = Dice(count=4, faces=(0, 1), total=True)
>>> [(values, round(p * 16)) for values, p in dice.outcomes()]
[((0,), 1), ((1,), 4), ((2,), 6), ((3,), 4), ((4,), 1)]
>>> len(Dice(count=2, faces=(1, 2, 3, 4, 5, 6)).outcomes())
21
>>> len(Dice(count=2, faces=(1, 2, 3, 4, 5, 6), ordered=True).outcomes())
36
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from game.logic.rules.sexpr import Form
from game.logic.rules.words import ReaderPart, arg, err, whole_number

__all__ = ["Dice", "DiceReader", "throw_text"]

#: The most dice and the most faces a die may have.
MAX_DICE: Final = 8
MAX_FACES: Final = 64


@dataclass(frozen=True)
class Dice:
    """``count`` dice with these ``faces`` (each equally likely); ``total``: a throw is
    their sum."""

    count: int
    faces: tuple[int, ...]
    total: bool = False
    ordered: bool = False
    #: A turn is played die by die, one part for each die used.
    each: bool = False
    #: How many dice of its value a throw of equal dice gives (0: as many as were thrown).
    doubles: int = 0

    def dice_of(self, values: tuple[int, ...]) -> tuple[int, ...]:
        """The dice a turn of ``values`` (a throw) may use, a double's multiplied."""
        if self.doubles and len(values) > 1 and len(set(values)) == 1:
            return (values[0],) * self.doubles
        return values

    def outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """Each distinct throw (its values, smallest first unless ordered) with its
        probability, in order."""
        counted: Counter[tuple[int, ...]] = Counter()
        for throw in itertools.product(self.faces, repeat=self.count):
            if self.total:
                counted[(sum(throw),)] += 1
            else:
                counted[throw if self.ordered else tuple(sorted(throw))] += 1
        every = len(self.faces) ** self.count
        return [(values, float(Fraction(n, every))) for values, n in sorted(counted.items())]


def throw_text(values: tuple[int, ...]) -> str:
    """A throw as the record writes it: ``roll 3``, ``roll 3-5``."""
    return "roll " + "-".join(str(v) for v in values)


class DiceReader(ReaderPart):
    """Reads the ``(dice ...)`` form (the description's reader's part for it)."""

    def _dice(self) -> Dice | None:
        form = self.one("dice", required=False)
        if form is None:
            return None
        count, faces, total, ordered = 1, tuple(range(1, 7)), False, False
        each, doubles = False, 0
        heads = ("count", "faces", "total", "ordered", "each", "doubles")
        for item in form.args:
            if not isinstance(item, Form) or item.head not in heads:
                raise err(
                    item,
                    "expected (count N), (faces F), (faces V1 V2 ...), (total), (ordered), "
                    "(each) or (doubles N)",
                )
            if item.head == "count":
                count = whole_number(arg(item, 1, 1)[0], 1, MAX_DICE)
            elif item.head in ("total", "ordered", "each"):
                arg(item, 0, 0)
                total = total or item.head == "total"
                ordered = ordered or item.head == "ordered"
                each = each or item.head == "each"
            elif item.head == "doubles":
                doubles = whole_number(arg(item, 1, 1)[0], 2, MAX_DICE)
            elif len(item) == 2:
                faces = tuple(range(1, whole_number(item[1], 2, MAX_FACES) + 1))
            else:
                faces = tuple(whole_number(a, 0, 1000) for a in arg(item, 2, MAX_FACES))
        if len(faces) ** count > 1_000_000:
            raise form.error("too many ways to throw these dice (at most 1,000,000)")
        if total and ordered:
            raise form.error("(total) and (ordered) exclude each other: a total has no order")
        if each and total:
            raise form.error("(each) plays the dice one by one: a (total) is one number")
        if doubles and (count < 2 or total or not each):
            raise form.error("(doubles N) multiplies equal dice played (each): two dice or more")
        return Dice(count, faces, total, ordered, each, doubles)
