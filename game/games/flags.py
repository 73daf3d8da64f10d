"""Flags that several games' commands take beyond their options, declared once: ``--seed``
(the same seed, the same deal or map), ``--time`` (short for ``--time-per-move``) and
whole-number counts (:func:`count_flag`), and :func:`given`, the flags a command line set, as
the controller's keyword arguments (:func:`shot_seats`: who sits where in a ``shot``)."""

from __future__ import annotations

import argparse
from typing import Any, Final

#: The largest ``--seed``: seeds reach numba kernels as 64-bit integers.
MAX_SEED: Final = 2**63 - 1


def seed_flag(parser: argparse.ArgumentParser, help: str) -> None:
    """``--seed S``, a whole number from 0 to :data:`MAX_SEED`."""
    from game.arguments import whole

    parser.add_argument("--seed", type=whole(0, MAX_SEED), metavar="S", help=help)


def count_flag(
    parser: argparse.ArgumentParser,
    flag: str,
    least: int,
    most: int,
    default: int,
    help: str,
    metavar: str = "N",
) -> None:
    """``FLAG N``, a whole number from ``least`` to ``most``; its help ends with the range and
    the default, so neither is written twice."""
    from game.arguments import whole

    parser.add_argument(
        flag, type=whole(least, most), default=default, metavar=metavar,
        help=f"{help}, {least}..{most} (default {default})",
    )  # fmt: skip


def time_flag(parser: argparse.ArgumentParser, help: str) -> None:
    """``--time S``, the computer's seconds for a move (the option ``time_per_move``, checked
    by the schema)."""
    parser.add_argument("--time", dest="time_per_move", default=None, metavar="S", help=help)


def given(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The flags of ``names`` the command line set: not None, not a switch left off, not an
    empty text (a seed of 0 is set)."""
    values = {name: getattr(args, name, None) for name in names}
    return {
        name: value
        for name, value in values.items()
        if value is not None and value is not False and value != ""  # 0 == False: not `in`
    }


def shot_seats(args: argparse.Namespace, person: str, *seats: str) -> dict[str, str]:
    """For ``shot`` (a scripted game: its ``--do`` list plays for each person), ``person`` in
    each of ``seats`` (the options that seat a player) the command line left unnamed, and the
    agent it named in the others; nothing for another command."""
    if getattr(args, "command", None) != "shot":
        return {}
    return {seat: getattr(args, seat, None) or person for seat in seats}
