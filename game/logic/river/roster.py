"""The agents of Priests and Devils, as the registry lists and makes them: the solver alone
(:class:`~game.logic.river.game.SolverAgent`, the computer player behind the hint)."""

from __future__ import annotations

from game.logic.river.game import SolverAgent

__all__ = ["describe", "make_agent"]


def describe() -> dict[str, str]:
    """The puzzle's agents, name -> a line about it."""
    return {SolverAgent.name: SolverAgent.description}


def make_agent(name: str) -> SolverAgent:
    """A fresh agent called ``name``; raises ValueError for any name but the solver's."""
    if name != SolverAgent.name:
        raise ValueError(
            f"Priests and Devils has no agent {name!r}; the agents are: {SolverAgent.name}"
        )
    return SolverAgent()
