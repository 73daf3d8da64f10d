"""Priests and Devils in the registry: its options, its solver agent, its scene controller and
``gamehall solve river``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from game.logic.river.game import (
    OPTIONS,
    RiverGame,
    RiverPuzzle,
    RiverState,
    SolverAgent,
    rules_from,
)
from game.registry import CliHook, Entry, UnknownAgentError


def _agents() -> dict[str, str]:
    return {SolverAgent.name: SolverAgent.description}


def _make_agent(name: str, options: Mapping[str, Any]) -> SolverAgent:
    if name != SolverAgent.name:
        raise UnknownAgentError(
            f"Priests and Devils has no agent {name!r}; the agents are: {SolverAgent.name}"
        )
    return SolverAgent()


def _solve(args: argparse.Namespace, entry: Entry) -> int:
    """Print the optimal crossings from the start, one a line, then ``crossings=N``; exit 2
    with the reason for options that are out of range, start lost or cannot be solved."""
    if getattr(args, "position", None):
        print("gamehall solve river: takes options, not a position", file=sys.stderr)
        return 2
    try:
        rules = rules_from(args.options)  # checked by the command line against OPTIONS
    except ValueError as exc:
        print(f"gamehall solve: {exc}", file=sys.stderr)
        return 2
    state = RiverState.start(rules)
    node = state.crossing()
    loads = RiverPuzzle(rules).solution(state)
    for i, load in enumerate(loads, 1):
        side = node.boat
        landed = node.after(load)
        print(
            f"{i:3d}. {side.value:>5} -> {side.other.value:<5}  {load}"
            f"   left bank then {landed.left_priests}P {landed.left_devils}D"
        )
        node = landed
    print(f"crossings={len(loads)}")
    return 0


def _no_flags(parser: argparse.ArgumentParser) -> None:
    """``solve river`` has no flags of its own: its options are the puzzle."""


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
    hooks={
        "solve": CliHook(
            help="print the fewest crossings for the options (default 3 priests, 3 devils, "
            "a boat for 2), one a line, then crossings=N",
            add_arguments=_no_flags,  # the options' flags are every game's (game.cli.options)
            run=_solve,
        )
    },
)
