"""The levels' choice in a described game where chance acts (face-down pieces turned up):
expectimax, alpha-beta whose chance nodes are worth the mean of their outcomes weighed by
their probabilities (:mod:`game.logic.search.alphabeta`), on the described game's cursor
with its evaluation. It reads only the state, where nothing hidden is written (a face-down
piece is no piece until chance turns it up), and draws nothing from the caller's ``rng``:
ties are broken by a generator seeded by the position, so a search bounded by depth or
positions gives the same move every time.
"""

from __future__ import annotations

import random
import zlib

from game.logic.contract import Limits, Stop
from game.logic.rules.position import Move
from game.logic.rules.state import RulesState
from game.logic.search.alphabeta import AlphaBetaAgent

__all__ = ["expectimax_choice"]


def expectimax_choice(
    state: RulesState, depth: int | None, nodes: int | None, seconds: float | None, stop: Stop
) -> tuple[Move, str]:
    """The move a search through the chance nodes chooses within the bounds given, and
    why in words."""
    agent = AlphaBetaAgent()
    rng = random.Random(zlib.crc32(repr(state.key()).encode()))
    chosen: Move = agent.choose(state, Limits(time=seconds, depth=depth, nodes=nodes), rng, stop)
    return chosen, "expects the most over the pieces still face down: " + agent.explain()
