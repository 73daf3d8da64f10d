"""Perpetual check, an end condition of repetition: ``(perpetual-check N [theirs])`` holds
when the position stands for the Nth time in its history (as ``(repetition N)`` counts) and
every move the player who just moved made since the first of those N times gave check; with
``theirs``, every move of the other player did (shogi's rule that the side giving perpetual
check loses, whichever side's move brought the position back).

A move gave check when the player to move after it is in check: the positions of the
history are their keys, so each is set up again from its key and asked. Only a position met
N times is looked at, so the condition costs a game nothing until a repetition. The search
scores a position met again at once (:func:`repeat_outcome`): a cycle of checks loses there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from game.logic.rules.sexpr import Form, Item
from game.logic.rules.words import err, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.ends import Ends
    from game.logic.rules.position import DescribedPosition

__all__ = ["REPETITION_ENDS", "check_repetition_end", "perpetual_check", "repeat_outcome"]

#: The conditions of this module: name -> (least, most) arguments.
REPETITION_ENDS: Final = {"perpetual-check": (1, 2)}


def check_repetition_end(head: str, args: tuple[Item, ...]) -> None:
    """Refuse a count below 2 or a second argument other than ``theirs``."""
    whole_number(args[0], 2, 10_000)
    if len(args) > 1 and word_of(args[1]) != "theirs":
        raise err(args[1], f"({head} N theirs): the other player's checks")


def perpetual_check(rules: Ends, pos: DescribedPosition, args: tuple[Item, ...]) -> bool:
    """Whether ``(perpetual-check args...)`` holds in ``pos`` (``rules``: the rulebook)."""
    return _checked_throughout(rules, pos, int(args[0].value), len(args) > 1)  # type: ignore[union-attr]


def repeat_outcome(rules: Ends, pos: DescribedPosition) -> str:
    """How a search scores ``pos`` met again on its line: as the first perpetual-check end
    of the description that holds over the cycle since the time before, else a draw (the
    side that repeats gains nothing, and the side that checks throughout loses)."""
    for end in rules.design.ends:
        cond = end.condition
        if not isinstance(cond, Form) or cond.head not in REPETITION_ENDS:
            continue
        if _checked_throughout(rules, pos, 2, len(cond.args) > 1):
            return end.outcome
    return "draw"


def _checked_throughout(rules: Ends, pos: DescribedPosition, count: int, theirs: bool) -> bool:
    history = pos.history
    seen = rules.occurrences(pos)
    if len(seen) < count:
        return False
    checker = rules.player(pos) if theirs else rules.last_mover(pos)
    turn_order = rules.design.turn_order
    for i in range(seen[-count] + 1, len(history)):
        before = rules.position_of(history[i - 1])
        if turn_order[before.turn] == checker and not rules.in_check(rules.position_of(history[i])):
            return False
    return True
