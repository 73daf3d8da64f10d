"""MasterGrab on the command line: ``gamehall bench grab``, map generation, robot moves and
whole robots-only games, with ``--strength`` a tournament of who wins; the hook yields its
lines for the CLI to print (:func:`game.hooks.hook`). ``play`` and ``shot`` take, beyond the
options' flags, ``--seed S`` (the same seed gives the same map and game) and ``--watch`` (the
robots play alone)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from game.games.flags import count_flag, given, seed_flag
from game.hooks import hook

if TYPE_CHECKING:
    from game.registry import Entry

#: The most games ``bench grab --strength`` plays, and processes it plays them in.
MAX_GAMES: Final = 100_000
MAX_JOBS: Final = 256


def play_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed S`` and ``--watch``."""
    seed_flag(parser, "the map and armies (the same seed gives the same game)")
    parser.add_argument("--watch", action="store_true", help="the robots play alone")


def play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The seed and ``watch``, where the command line set them."""
    return given(args, "seed", "watch")


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strength", action="store_true", help="also strategic against 3 basic robots (slow)"
    )
    parser.add_argument(
        "--quick", action="store_true",
        help="one map and one game for each figure instead of a median (a check that runs)",
    )  # fmt: skip
    count_flag(parser, "--games", 1, MAX_GAMES, 200, "--strength: games")
    count_flag(parser, "--jobs", 1, MAX_JOBS, 2, "--strength: games at once", metavar="J")


@hook("map generation, robot moves and whole robot games (--strength: who wins)", _bench_arguments)
def bench(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    return run_bench(
        entry, strength=args.strength, games=args.games, jobs=args.jobs, quick=args.quick
    )


def run_bench(
    entry: Entry, *, strength: bool, games: int, jobs: int, quick: bool = False
) -> Iterator[str]:
    """Map generation, robot move times and whole robots-only games
    (:func:`game.logic.grab.bench.speed_lines`, ``quick``: one sample each); with
    ``strength`` a tournament of ``games`` games of strategic against three basic robots in
    ``jobs`` processes, its ``winrates=`` line last. The parser has checked ``games`` and
    ``jobs``: nothing is refused after the work starts."""
    from game.logic.grab.bench import speed_lines

    yield from speed_lines(quick=quick)
    if strength:
        yield from _strength_lines(entry, games, jobs)


def _strength_lines(entry: Entry, games: int, jobs: int) -> list[str]:
    from game.logic.grab.tournament import strength_tournament
    from game.progress import games_bar

    with games_bar() as progress:
        return strength_tournament(entry, games, jobs=jobs, progress=progress).lines()
