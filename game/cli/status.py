"""``gamehall status HOST:PORT``: a server's matches, seats, who is connected and latency.

    gamehall status 127.0.0.1:8765

Parsed here, asked and printed by :mod:`game.server.status`.
"""

from __future__ import annotations

import argparse

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser, full: bool) -> None:
    p.add_argument(
        "address", nargs=None if full else "?", metavar="HOST:PORT",
        help="the server (the address gamehall serve printed)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from game.server.status import run_status

    return run_status(args.address)
