"""Cluedo on the command line: ``gamehall bench clue``, the notebook's update time, the full
detective's suggestion time and its suggestions to certainty when it alone suggests; the
hook yields its lines for the CLI to print (:class:`game.registry.CliHook`). The terminal
game (``gamehall play clue --console``) is :mod:`game.games.clue.console`."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from game.games.flags import count_flag
from game.registry import CliHook

if TYPE_CHECKING:
    from game.registry import Entry

#: The most games (and solo deals) ``bench clue`` times.
MAX_GAMES: Final = 10_000


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    count_flag(parser, "--games", 1, MAX_GAMES, 40, "games timed per seat count")
    count_flag(parser, "--solo", 1, MAX_GAMES, 100, "deals for the solo suggestion count")


def bench(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    """One line per seat count: the notebook's update time, the full detective's suggestion
    time and its suggestions to certainty when it alone suggests."""
    from game.logic.clue.bench import bench_lines

    yield from bench_lines(games=args.games, solo=args.solo)


HOOKS = {
    "bench": CliHook(
        help="notebook update and suggestion times, and suggestions to certainty alone",
        add_arguments=_bench_arguments,
        run=bench,
    )
}
