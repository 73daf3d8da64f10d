"""How the levels (:mod:`game.logic.rules.levels`) play a game of dice: expectimax, the
generic alpha-beta (:mod:`game.logic.search.alphabeta`) through the described game's cursor,
where a throw of the dice is worth the mean of its outcomes weighed by their chances and a
position it stops at is worth the description's evaluation.

Each level searches as deep as its strength allows: a beginner a move and the throw after
it, an intermediate one more move, advanced 5,000 positions, master as long as it is given.
"""

from __future__ import annotations

import random
from typing import Any

from game.logic.contract import Limits, Stop
from game.logic.search.alphabeta import AlphaBetaAgent

__all__ = ["choose_by_expectation"]


def choose_by_expectation(
    state: Any,
    depth: int | None,
    nodes: int | None,
    seconds: float | None,
    stop: Stop,
) -> tuple[Any, str]:
    """The move of ``state`` (a described game's, a player to move) with the best expected
    value within the limits (``depth`` in plies, each throw one), and the words that say
    why."""
    agent = AlphaBetaAgent()
    # A position's own seed: the same position gets the same choice on every run.
    seeded = random.Random(repr(state.key()))
    if not (depth or nodes or seconds):
        seconds = 1.0
    move = agent.choose(state, Limits(time=seconds, depth=depth, nodes=nodes), seeded, stop)
    said = agent.explain()  # "depth D, score S, N positions"
    return move, f"the best expected outcome over the throws to come ({said})"
