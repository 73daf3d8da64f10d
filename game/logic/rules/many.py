"""How a level thinks in a game of more than two players: Monte Carlo tree search whose
simulated games return a result for every seat (a vector), each seat choosing for itself.

Alpha-beta pits one side against one other; with three or four players (or teams) each seat
maximises its own share of the result instead (a max-n tree estimated by playouts, the UCT of
:mod:`game.logic.search.mcts`). A level's strength is the number of simulated games: a
beginner plays a few dozen, a master as many as its time allows. The games are seeded by the
position, so a level bounded by games gives the same move every time.
"""

from __future__ import annotations

import random
import zlib
from typing import Any, Final

from game.logic.contract import Limits, Stop
from game.logic.search.mcts import MctsAgent

__all__ = ["GAMES", "choose_many"]

#: Simulated games a choice, by level, where the caller gives no positions or time.
GAMES: Final = {"beginner": 40, "intermediate": 200, "advanced": 1_500}


def choose_many(
    level: str, state: Any, nodes: int | None, seconds: float | None, stop: Stop
) -> tuple[Any, str, dict[str, Any]]:
    """The move, the words that say why, and the figures for F3."""
    games = nodes or GAMES.get(level)
    limits = Limits(nodes=games) if games else Limits(time=seconds or 1.0)
    rng = random.Random(zlib.crc32(repr(state.key()).encode()))
    agent = MctsAgent()
    move = agent.choose(state, limits, rng, stop)
    seat = state.current_player()
    said = agent.explain() or "best of the simulated games"
    name = state.rulebook.design.players[seat]
    return move, f"{name}: {said}", {"games": games or 0}
