"""Described games: the computer at its default level against a random player, one line per
game: ``GAME wins=W/N draws=D`` (the issue asks for at least 90 wins in 100 games).

    .venv/bin/python benchmarks/rules_strength.py                 # every game, 100 games each
    .venv/bin/python benchmarks/rules_strength.py pentago --games 20

Colours alternate; every game is seeded. The default level is ``master``, here given a
budget of positions a move (the window's hint gets 2,000 a second), so each game is the
same on every machine.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from rules_agents import play  # noqa: E402

from game.logic.contract import Limits  # noqa: E402


def against_random(game_id: str, limits: Limits, games: int) -> tuple[int, int]:
    """(wins, draws) of the default level (``master``) against random over ``games`` seeded
    games, played as benchmarks/rules_agents.py plays its gates (colours alternate, a game
    not over at its ply cap counts as a draw)."""
    wins, draws, _ = play(game_id, "master", limits, games)
    return wins, draws


def pentago(games: int) -> tuple[int, int]:
    return against_random("pentago", Limits(nodes=400), games)


def oware(games: int) -> tuple[int, int]:
    return against_random("oware", Limits(nodes=2_000), games)


GAMES: dict[str, Callable[[int], tuple[int, int]]] = {"pentago": pentago, "oware": oware}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="*", help="the games (all when none)")
    parser.add_argument("--games", type=int, default=100, help="games each (100)")
    args = parser.parse_args(argv)
    for name in args.game or list(GAMES):
        wins, draws = GAMES[name](args.games)
        print(f"{name} wins={wins}/{args.games} draws={draws}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
