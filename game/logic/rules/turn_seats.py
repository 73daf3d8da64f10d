"""Turns in which one player moves another's pieces: ``(turn-order White (White Black) Black)``.

A turn-order step ``(P Q)`` (or ``(P Q KIND)``, Q's moves of that kind only) lets P choose a
move of Q's pieces: the moves are Q's, made as Q makes them (Q's directions, Q's friends and
enemies, Q as the player who moved when the end conditions are read), and P chooses among
them: the state's player to move is P, so a person or agent in P's seat plays it (chance,
where P is a random player). :func:`read_step` reads a step of the turn order; the rulebook's
``seat`` (who chooses) reads :attr:`Design.turn_seats` where a step names two players.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from game.logic.rules.sexpr import Form, Item
from game.logic.rules.words import err, word_of

__all__ = ["read_step"]


def read_step(step: Form, players: Sequence[str], kinds: Collection[str]) -> tuple[str, Item, str]:
    """``(PLAYER KIND)``, ``(PLAYER SIDE)`` or ``(PLAYER SIDE KIND)``: the player who chooses,
    the player (the word) whose pieces move, and the move type ("" for any)."""
    if not 2 <= len(step) <= 3:
        raise err(step, "a turn is PLAYER, (PLAYER MOVE-TYPE) or (PLAYER SIDE [MOVE-TYPE])")
    chooser = word_of(step[0])
    if chooser not in players:
        raise err(step[0], f"no player {chooser!r}")
    second = word_of(step[1])
    side: Item = step[1] if second in players else step[0]
    if len(step) == 3 and side is step[0]:
        raise err(step[1], f"no player {second!r}")
    kind_item = step[-1] if len(step) == 3 or side is step[0] else None
    kind = word_of(kind_item) if kind_item is not None else ""
    if kind_item is not None and kind not in kinds:
        raise err(kind_item, f"no move program has the type {kind!r}")
    return chooser, side, kind
