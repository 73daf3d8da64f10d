"""Perpetual check, an end condition of repetition: ``(perpetual-check N [theirs])`` holds
when the position stands for the Nth time in its history (as ``(repetition N)`` counts) and
every move the player who just moved made since the first of those N times gave check; with
``theirs``, every move of the other player did (shogi's rule that the side giving perpetual
check loses, whichever side's move brought the position back).

A move gave check when the player to move after it is in check: the positions of the
history are their keys, so each is set up again from its key and asked. Only a position met
N times is looked at, so the condition costs a game nothing until a repetition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from game.logic.rules.sexpr import Item
from game.logic.rules.words import err, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.ends import Ends
    from game.logic.rules.position import DescribedPosition

__all__ = ["REPETITION_ENDS", "check_repetition_end", "perpetual_check"]

#: The conditions of this module: name -> (least, most) arguments.
REPETITION_ENDS: Final = {"perpetual-check": (1, 2)}


def check_repetition_end(head: str, args: tuple[Item, ...]) -> None:
    """Refuse a count below 2 or a second argument other than ``theirs``."""
    whole_number(args[0], 2, 10_000)
    if len(args) > 1 and word_of(args[1]) != "theirs":
        raise err(args[1], f"({head} N theirs): the other player's checks")


def perpetual_check(rules: Ends, pos: DescribedPosition, args: tuple[Item, ...]) -> bool:
    """Whether ``(perpetual-check args...)`` holds in ``pos`` (``rules``: the rulebook)."""
    history = pos.history
    seen = rules.occurrences(pos)
    count = int(args[0].value)  # type: ignore[union-attr]
    if len(seen) < count:
        return False
    checker = rules.last_mover(pos)
    if len(args) > 1:
        checker = rules.player(pos)
    turn_order = rules.design.turn_order
    for i in range(seen[-count] + 1, len(history)):
        before = rules.position_of(history[i - 1])
        if turn_order[before.turn] == checker and not rules.in_check(rules.position_of(history[i])):
            return False
    return True
