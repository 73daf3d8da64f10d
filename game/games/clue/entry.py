"""Cluedo in the registry: its options, its computer detectives, its table scene,
``gamehall bench clue`` and the terminal game (``gamehall clue --console``).

``play`` and ``shot`` take the options as flags (``--seats 6``, ``--deck quick``,
``--opponent article``) and ``--seed S`` (the same seed gives the same deal), ``--assistant``
(the notebook for a game played at a real table) and ``--console`` (play in the terminal).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from game.logic.clue.game import OPTIONS, ClueGame
from game.registry import CliHook, Entry, UnknownAgentError


def _agents() -> dict[str, str]:
    from game.logic.clue.roster import describe

    return describe()


def _make_agent(name: str, options: Mapping[str, Any]) -> Any:
    from game.logic.clue.roster import UnknownDetectiveError, make_agent

    try:
        return make_agent(name)
    except UnknownDetectiveError as exc:
        raise UnknownAgentError(str(exc)) from None


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    """A table of computer players, one per name (tournaments)."""
    return {"seats": len(agents), "human_playing": False}


#: The largest ``--seed``.
MAX_SEED = 2**63 - 1


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import whole

    parser.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        metavar="S",
        help="the deal (the same seed, the same deal)",
    )
    parser.add_argument(
        "--assistant", action="store_true",
        help="the notebook for a game at a real table: enter what happens there",
    )  # fmt: skip
    parser.add_argument(
        "--case", metavar="FILE",
        help="with --assistant: the case file to load at the start and to save to",
    )  # fmt: skip


def _play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if getattr(args, "seed", None) is not None:
        out["seed"] = args.seed
    if getattr(args, "assistant", False):
        out["assistant"] = True
    if getattr(args, "case", None):
        if not getattr(args, "assistant", False):
            raise ValueError("--case goes with --assistant (the case file of a real table's game)")
        out["case"] = args.case
    return out


def _console(args: argparse.Namespace, entry: Entry) -> int:
    from game.games.clue.console import run

    return run(args, entry)


# -- bench ------------------------------------------------------------------------------------

MAX_GAMES = 10_000


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import whole

    parser.add_argument(
        "--games", type=whole(1, MAX_GAMES), default=40, metavar="N",
        help=f"games timed per seat count, 1..{MAX_GAMES} (default 40)",
    )  # fmt: skip
    parser.add_argument(
        "--solo", type=whole(1, MAX_GAMES), default=100, metavar="N",
        help=f"deals for the solo suggestion count, 1..{MAX_GAMES} (default 100)",
    )  # fmt: skip


def _bench(args: argparse.Namespace, entry: Entry) -> int:
    """One line per seat count: the notebook's update time, the full detective's suggestion
    time and its suggestions to certainty when it alone suggests."""
    from game.logic.clue.bench import bench_lines

    for line in bench_lines(games=args.games, solo=args.solo):
        print(line, flush=True)
    return 0


ENTRY = Entry(
    id="clue",
    title="Cluedo",
    summary="Deduce the envelope's three cards before the other detectives do.",
    options=OPTIONS,
    make_game=ClueGame,
    agents=_agents,
    make_agent=_make_agent,
    hint_agent="full",
    opponents=("opponent",),
    controller="game.games.clue.controller:open_table",
    picture="scenes/cards/clue.png",
    hooks={
        "bench": CliHook(
            help="notebook update and suggestion times, and suggestions to certainty alone",
            add_arguments=_bench_arguments,
            run=_bench,
        )
    },
    play_arguments=_play_arguments,
    play_overrides=_play_overrides,
    seat_options=_seat_options,
    console=_console,
    # The table's plain card faces, made while the menu shows (not in its first frame).
    ahead="game.games.clue.faces:paint_ahead",
)
