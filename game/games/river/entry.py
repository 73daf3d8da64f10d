"""Priests and Devils in the registry: its options, its solver agent, its scene controller and
``gamehall solve river`` (:mod:`game.games.river.hooks`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.games.river.hooks import HOOKS
from game.logic.river.game import OPTIONS, RiverGame, SolverAgent
from game.registry import Entry, UnknownAgentError


def _agents() -> dict[str, str]:
    return {SolverAgent.name: SolverAgent.description}


def _make_agent(name: str, options: Mapping[str, Any]) -> SolverAgent:
    if name != SolverAgent.name:
        raise UnknownAgentError(
            f"Priests and Devils has no agent {name!r}; the agents are: {SolverAgent.name}"
        )
    return SolverAgent()


ENTRY = Entry(
    id="river",
    title="Priests and Devils",
    summary="Ferry everyone across; devils must never outnumber priests.",
    options=OPTIONS,
    make_game=RiverGame,
    agents=_agents,
    make_agent=_make_agent,
    hint_agent=SolverAgent.name,
    controller="game.games.river.controller:RiverController",
    picture="scenes/cards/river.png",
    hooks=HOOKS,
)
