"""Cluedo on the command line: ``gamehall bench clue``, the notebook's update time, the full
detective's suggestion time and its suggestions to certainty when it alone suggests; the
hook yields its lines for the CLI to print (:func:`game.hooks.hook`). The terminal
game (``gamehall play clue --console``) is :mod:`game.games.clue.console`.

``play`` and ``shot`` take, beyond the options' flags, ``--seed S`` (the same seed gives the
same deal), ``--assistant`` (the notebook for a game played at a real table, with ``--case
FILE`` its case file) and ``--console`` (play in the terminal)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from game.games.flags import count_flag, given, seed_flag
from game.hooks import hook

if TYPE_CHECKING:
    from game.registry import Entry

#: The most games (and solo deals) ``bench clue`` times.
MAX_GAMES: Final = 10_000


def play_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed S``, ``--assistant`` and ``--case FILE``."""
    seed_flag(parser, "the deal (the same seed, the same deal)")
    parser.add_argument(
        "--assistant", action="store_true",
        help="the notebook for a game at a real table: enter what happens there",
    )  # fmt: skip
    parser.add_argument(
        "--case", metavar="FILE",
        help="with --assistant: the case file to load at the start and to save to",
    )  # fmt: skip


def play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The seed, ``assistant`` and ``case``, where the command line set them; a case file
    without ``--assistant`` is a ValueError."""
    out = given(args, "seed", "assistant", "case")
    if out.get("case") and not out.get("assistant"):
        raise ValueError("--case goes with --assistant (the case file of a real table's game)")
    return out


def console(args: argparse.Namespace, entry: Entry) -> int:
    """``play clue --console``: the game in the terminal (:mod:`game.games.clue.console`)."""
    from game.games.clue.console import run

    return run(args, entry)


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    count_flag(parser, "--games", 1, MAX_GAMES, 40, "games timed per seat count")
    count_flag(parser, "--solo", 1, MAX_GAMES, 100, "deals for the solo suggestion count")


@hook("notebook update and suggestion times, and suggestions to certainty alone", _bench_arguments)
def bench(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    """One line per seat count: the notebook's update time, the full detective's suggestion
    time and its suggestions to certainty when it alone suggests."""
    from game.logic.clue.bench import bench_lines

    yield from bench_lines(games=args.games, solo=args.solo)
