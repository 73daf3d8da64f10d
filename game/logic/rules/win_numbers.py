"""The number a described game is won by, for each player: what the window's status line
shows as the score of a game won by reaching a number of its tallies (Chaturaji's points).

The first ``win`` end whose condition is ``(>= NUMBER N)`` or ``(> NUMBER N)`` with NUMBER
reading a tally of each player's own is that game's score; NUMBER is worked out as if each
player in turn had just moved. A game without such an end has no score of this kind (None).
"""

from __future__ import annotations

from typing import Any

from game.logic.rules.numbers import value
from game.logic.rules.position import DescribedPosition
from game.logic.rules.sexpr import Form
from game.logic.rules.words import mentions

__all__ = ["win_numbers"]


def win_numbers(rulebook: Any, pos: DescribedPosition) -> list[int] | None:
    """Each player's value of the number the game's win condition compares (``rulebook``: a
    described game's rulebook); None where no win compares a number of per-player tallies."""
    slots: dict[str, int] = getattr(rulebook, "tally_slots", {})
    if not any(slot < 0 for slot in slots.values()):
        return None
    for end in rulebook.design.ends:
        cond = end.condition
        if end.outcome != "win" or not isinstance(cond, Form) or cond.head not in (">=", ">"):
            continue
        number = cond.args[0]
        if not mentions([number], "tally"):
            continue
        tallies = pos.tallies or rulebook.tally_start
        n = rulebook.players
        return [value(number, tallies, slots, p, n) for p in range(n)]
    return None
