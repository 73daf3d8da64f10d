"""Cluedo in the registry: its options, its computer detectives, its table scene,
``gamehall bench clue`` (:mod:`game.games.clue.hooks`) and the terminal game (``gamehall play
clue --console``, :mod:`game.games.clue.console`).

``play`` and ``shot`` take the options as flags (``--seats 6``, ``--deck quick``,
``--opponent article``) and ``--seed S`` (the same seed gives the same deal), ``--assistant``
(the notebook for a game played at a real table) and ``--console`` (play in the terminal).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from game.games.clue.hooks import HOOKS
from game.games.flags import given, seed_flag
from game.logic.clue.game import OPTIONS, ClueGame
from game.registry import Entry, agent_maker


def _agents() -> dict[str, str]:
    from game.logic.clue.roster import describe

    return describe()


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    """A table of computer players, one per name (tournaments)."""
    return {"seats": len(agents), "human_playing": False}


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    seed_flag(parser, "the deal (the same seed, the same deal)")
    parser.add_argument(
        "--assistant", action="store_true",
        help="the notebook for a game at a real table: enter what happens there",
    )  # fmt: skip
    parser.add_argument(
        "--case", metavar="FILE",
        help="with --assistant: the case file to load at the start and to save to",
    )  # fmt: skip


def _play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    out = given(args, "seed", "assistant", "case")
    if out.get("case") and not out.get("assistant"):
        raise ValueError("--case goes with --assistant (the case file of a real table's game)")
    return out


def _console(args: argparse.Namespace, entry: Entry) -> int:
    from game.games.clue.console import run

    return run(args, entry)


ENTRY = Entry(
    id="clue",
    title="Cluedo",
    summary="Deduce the envelope's three cards before the other detectives do.",
    options=OPTIONS,
    make_game=ClueGame,
    agents=_agents,
    make_agent=agent_maker("game.logic.clue.roster:make_agent", "UnknownDetectiveError"),
    hint_agent="full",
    opponents=("opponent",),
    controller="game.games.clue.controller:open_table",
    picture="scenes/cards/clue.png",
    hooks=HOOKS,
    play_arguments=_play_arguments,
    play_overrides=_play_overrides,
    seat_options=_seat_options,
    console=_console,
    # The table's plain card faces, made while the menu shows (not in its first frame).
    ahead="game.games.clue.faces:paint_ahead",
)
