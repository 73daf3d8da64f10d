"""Search that is not game-specific.

- :mod:`~game.logic.search.graph`: :class:`StateGraph`, a state graph explored once with a
  retrograde distance table (the river's solver);
- :mod:`~game.logic.search.agents`: the agents every game offers (random, alpha-beta, Monte
  Carlo tree search), over the contract of :mod:`game.logic.contract`;
- :mod:`~game.logic.search.cursor`: what those searches walk, and the hooks a game may offer
  them (its own make/unmake cursor with its ordering and evaluation; a determinizer for hidden
  information).
"""

from __future__ import annotations

from game.logic.search import graph
from game.logic.search.graph import *  # noqa: F403 (graph's __all__, offered here too)

#: The package offers what :mod:`~game.logic.search.graph` offers (the agents are imported
#: from their own modules).
__all__ = graph.__all__
