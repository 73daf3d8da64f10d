"""The agents every game offers, whatever its rules: random, alpha-beta and Monte Carlo tree
search, by name. The registry adds them to every game's own agents (a game's own agent of the
same name wins), so tournaments and the menus of opponents offer them as baselines.

>>> sorted(BASELINES)
['alphabeta', 'mcts', 'random']
>>> import random
>>> from game.logic.contract import Limits, Stop
>>> from game.logic.search.toys import Nim
>>> make_baseline("random").choose(Nim(5), Limits(), random.Random(0), Stop()) in (1, 2)
True
"""

from __future__ import annotations

import random
from typing import Any, Final

from game.logic.contract import Agent, Limits, State, Stop
from game.logic.search.alphabeta import AlphaBetaAgent
from game.logic.search.cursor import choices
from game.logic.search.mcts import MctsAgent

__all__ = ["BASELINES", "RandomAgent", "UnknownBaselineError", "make_baseline"]


class UnknownBaselineError(ValueError):
    """A name that is not one of the agents every game offers."""


class RandomAgent:
    """Any legal action, drawn uniformly with the ``rng`` it is given."""

    name = "random"
    description = "plays a legal move at random"

    def choose(self, state: State[Any], limits: Limits, rng: random.Random, stop: Stop) -> Any:
        _seat, moves = choices(state)
        return rng.choice(moves)


#: name -> one line about it, in the order the menus list them.
BASELINES: Final = {
    RandomAgent.name: RandomAgent.description,
    AlphaBetaAgent.name: AlphaBetaAgent.description,
    MctsAgent.name: MctsAgent.description,
}


def make_baseline(name: str) -> Agent[Any]:
    """A fresh agent called ``name`` (one of :data:`BASELINES`); raises
    :class:`UnknownBaselineError` naming the choices."""
    if name == RandomAgent.name:
        return RandomAgent()
    if name == AlphaBetaAgent.name:
        return AlphaBetaAgent()
    if name == MctsAgent.name:
        return MctsAgent()
    raise UnknownBaselineError(f"no agent {name!r}; the agents are: {', '.join(BASELINES)}")
