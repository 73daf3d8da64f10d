"""How the levels (:mod:`game.logic.rules.levels`) play a game of dice: the expectimax of
every game with chance (:mod:`game.logic.rules.expectimax`), where a throw of the dice is
worth the mean of its outcomes weighed by their chances and a position it stops at is worth
the description's evaluation. A game's own levels may call :func:`choose_by_expectation`.
"""

from __future__ import annotations

from typing import Any

from game.logic.contract import Stop
from game.logic.rules.expectimax import expected_choice

__all__ = ["choose_by_expectation"]


def choose_by_expectation(
    state: Any,
    depth: int | None,
    nodes: int | None,
    seconds: float | None,
    stop: Stop,
) -> tuple[Any, str]:
    """The move of ``state`` (a described game's, a player to move) with the best expected
    value within the limits (``depth`` in plies, each throw one; a second when none is
    given), and the words that say why."""
    found = expected_choice(state, depth, nodes, seconds, stop)
    return found.move, found.said
