"""Random players: seats whose every move chance chooses (``(rules (random Dice))``), as a die
that is a player of its own throws by moving or dropping one of its pieces.

A position where a random player is to move is a chance node: its outcomes are that player's
legal moves, each as likely as any other, and playing one is making that move. Perft counts
each outcome as a ply (the legal moves are the outcomes), the levels weigh the outcomes by
their chances (expectimax, or the many-seat search's draws), and no agent ever chooses for a
random seat. A random player with no move is stuck like any player.

:func:`play_random` puts the wrapper on the rulebook for such a game only (the chance of dice,
when the game has them too, comes first); :func:`read_random` reads the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.logic.rules.sexpr import Form
from game.logic.rules.words import arg, distinct, err, word_of

if TYPE_CHECKING:
    from game.logic.rules.position import DescribedPosition, Move
    from game.logic.rules.rulebook import Rulebook

__all__ = ["play_random", "read_random"]


def read_random(form: Form, players: Sequence[str]) -> tuple[int, ...]:
    """``(random PLAYER...)``: the seats chance plays; at least one seat is left to a
    player who chooses."""
    given = arg(form, 1, len(players))
    distinct(given, "random player")
    seats = []
    for item in given:
        word = word_of(item)
        if word not in players:
            raise err(item, f"no player {word!r}")
        seats.append(players.index(word))
    if len(seats) == len(players):
        raise form.error("every player is random: no one would choose a move")
    return tuple(seats)


def play_random(rulebook: Rulebook) -> None:
    """Make the design's random players' turns chance nodes of ``rulebook``."""
    seats = frozenset(rulebook.design.random_players)
    before = rulebook.chance

    def random_chance(pos: DescribedPosition) -> Sequence[tuple[Move, float]]:
        found = before(pos)
        if found or rulebook.seat(pos) not in seats:
            return found
        moves = rulebook.legal(pos)
        if not moves:
            return ()
        each = 1.0 / len(moves)
        return tuple((move, each) for move in moves)

    # An instance attribute: it stands before the class's method for this rulebook only.
    vars(rulebook)["chance"] = random_chance
