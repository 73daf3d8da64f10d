"""MasterGrab in the registry: its options, its robots, its scene controller and
``gamehall bench grab``.

The robots a game may seat are the built-in ones (``simple``, ``basic``, ``strategic``), the
Python files in the ``robots`` folder of the gamehall home (``GAMEHALL_HOME``) and the entry
points of the group ``gamehall.robots``; each plays as an agent in its sandbox. The hint is
the ``strategic`` robot, the same agent a computer seat of that kind is.

``play`` and ``shot`` take the options as flags (``--countries N``, ``--robots a,b,c``,
``--distribution compact`` ...) and ``--seed S`` (the same seed gives the same map and game)
and ``--watch`` (the robots play alone).
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from game.logic.grab.options import SCHEMA
from game.registry import CliHook, Entry, UnknownAgentError

if TYPE_CHECKING:
    from game.logic.grab.discovery import RobotRegistry
    from game.logic.grab.game import GrabGame
    from game.logic.grab.sandbox import RobotAgent

_REGISTRY: RobotRegistry | None = None
#: Held while the robots are found: the window's warm-up thread finds them while the menu
#: shows, and a game opened meanwhile waits for that search instead of making a second one.
_FINDING = threading.Lock()


def robot_registry() -> RobotRegistry:
    """The robots of this program (found once, on first use: the window's warm-up looks them
    up ahead): built-ins, the robots folder under the gamehall home, entry points. Problems
    finding them are logged."""
    global _REGISTRY
    with _FINDING:
        if _REGISTRY is None:
            from game.logic.grab.discovery import RobotRegistry
            from game.settings import home_dir

            folder = home_dir() / "robots"
            _REGISTRY = RobotRegistry(folder if folder.is_dir() else None)
        return _REGISTRY


def _make_game(options: Mapping[str, Any]) -> GrabGame:
    from game.logic.grab.game import GrabGame

    return GrabGame(options)


def _agents() -> dict[str, str]:
    return robot_registry().describe()


def _make_agent(name: str, options: Mapping[str, Any]) -> RobotAgent:
    from game.logic.grab.robot import UnknownRobotError

    memory = options.get("robot_memory_mb")
    try:
        return robot_registry().agent(name, memory_mb=None if memory is None else int(memory))
    except UnknownRobotError as exc:
        raise UnknownAgentError(str(exc)) from None


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    """A robots-only game with one robot player per agent name (tournaments)."""
    return {"human_playing": False, "robots": ",".join(agents)}


# -- play and shot --------------------------------------------------------------------------


#: The largest ``--seed``: seeds reach numba kernels as 64-bit integers.
MAX_SEED = 2**63 - 1
#: The most games ``bench grab --strength`` plays, and processes it plays them in.
MAX_GAMES = 100_000
MAX_JOBS = 256


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import whole

    parser.add_argument(
        "--seed",
        type=whole(0, MAX_SEED),
        metavar="S",
        help="the map and armies (the same seed gives the same game)",
    )
    parser.add_argument("--watch", action="store_true", help="the robots play alone")


def _play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if getattr(args, "seed", None) is not None:
        out["seed"] = args.seed
    if getattr(args, "watch", False):
        out["watch"] = True
    return out


# -- bench ------------------------------------------------------------------------------------


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import whole

    parser.add_argument(
        "--strength", action="store_true", help="also strategic against 3 basic robots (slow)"
    )
    parser.add_argument(
        "--quick", action="store_true",
        help="one map and one game for each figure instead of a median (a check that runs)",
    )  # fmt: skip
    parser.add_argument(
        "--games", type=whole(1, MAX_GAMES), default=200, metavar="N",
        help=f"--strength: games, 1..{MAX_GAMES} (default 200)",
    )  # fmt: skip
    parser.add_argument(
        "--jobs", type=whole(1, MAX_JOBS), default=2, metavar="J",
        help=f"--strength: games at once, 1..{MAX_JOBS} (default 2)",
    )  # fmt: skip


def _bench(args: argparse.Namespace, entry: Entry) -> int:
    return run_bench(
        entry, strength=args.strength, games=args.games, jobs=args.jobs, quick=args.quick
    )


def run_bench(entry: Entry, *, strength: bool, games: int, jobs: int, quick: bool = False) -> int:
    """Map generation, robot move times and whole robots-only games
    (:func:`game.logic.grab.bench.speed_lines`, ``quick``: one sample each); with
    ``strength`` a tournament of ``games`` games of strategic against three basic robots in
    ``jobs`` processes, its ``winrates=`` line last. The parser has checked ``games`` and
    ``jobs``: nothing is refused after the work starts."""
    from game.logic.grab.bench import speed_lines

    for line in speed_lines(quick=quick):
        print(line, flush=True)
    if strength:
        for line in _strength_lines(entry, games, jobs):
            print(line, flush=True)
    return 0


def _strength_lines(entry: Entry, games: int, jobs: int) -> list[str]:
    from game.cli.tournament import progress_bar
    from game.logic.grab.tournament import strength_tournament

    with progress_bar() as progress:
        return strength_tournament(entry, games, jobs=jobs, progress=progress).lines()


ENTRY = Entry(
    id="grab",
    title="MasterGrab",
    summary="Conquer a borderless map against robots.",
    options=SCHEMA,
    make_game=_make_game,
    agents=_agents,
    make_agent=_make_agent,
    hint_agent="strategic",
    controller="game.games.grab.controller:GrabController",
    picture="scenes/cards/grab.png",
    hooks={
        "bench": CliHook(
            help="map generation, robot moves and whole robot games (--strength: who wins)",
            add_arguments=_bench_arguments,
            run=_bench,
        )
    },
    play_arguments=_play_arguments,
    play_overrides=_play_overrides,
    # The frame-time benchmark draws the biggest map: 1000 countries at 3840x2160.
    bench_render={"countries": 1000, "size": (3840, 2160), "seed": 1},
    seat_options=_seat_options,
    # The window's maps are made in a worker process readied by this (numba's kernels).
    prepare="game.logic.grab.making:prepare",
)
