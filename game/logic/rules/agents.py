"""Computer players for every described game, by name: the levels beginner to master
(:mod:`~game.logic.rules.levels`, the computer the window plays and hints with), and the
agents every game offers (:mod:`game.logic.search.agents`: random, alpha-beta, Monte Carlo
tree search), kept for comparison. Those search the described game through its own cursor
(:mod:`~game.logic.rules.cursor`): make/unmake on the rulebook's position, captures first,
the description's piece values.

``uct`` is the older name of ``mcts`` here: saved settings and commands that name it keep
working.

>>> list(AGENTS)[:2]
['beginner', 'intermediate']
>>> make_agent("uct").name
'mcts'
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules.design import FORMER_AGENTS
from game.logic.rules.levels import LEVELS, level_agent
from game.logic.search.agents import BASELINES, UnknownBaselineError, make_baseline

__all__ = ["AGENTS", "describe", "make_agent"]

#: The described games' own agents: the levels, weakest first.
AGENTS: Final = {level.name: level.description for level in LEVELS.values()}


def describe() -> dict[str, str]:
    """The described games' own agents, name -> a line about it (:data:`AGENTS`)."""
    return dict(AGENTS)


def make_agent(name: str) -> Any:
    """A fresh agent by name: a level (:mod:`~game.logic.rules.levels`; a level's
    :func:`~game.logic.rules.levels.steady_name` makes its steady form, the window's hint) or
    one of every game's agents. Raises ValueError naming the choices."""
    level = level_agent(name)
    if level is not None:
        return level
    try:
        return make_baseline(FORMER_AGENTS.get(name, name))
    except UnknownBaselineError:
        raise ValueError(
            f"no agent {name!r}; the agents are: {', '.join([*AGENTS, *BASELINES])}"
        ) from None
