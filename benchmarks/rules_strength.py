"""The new described games' computers against a random player: each game's default level
(the hint's and the computer side's) should win at least 90 of 100 games (draws count as not
won). Prints one line a game:

    .venv/bin/python benchmarks/rules_strength.py                 # every game, 100 games each
    .venv/bin/python benchmarks/rules_strength.py banqi --games 20

``GAME wins=W/N draws=D``. Colours alternate; every game is seeded (chance's outcomes too).
A game still going after :data:`PLY_CAP` actions counts as a draw.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.rules_agents import play  # noqa: E402
from game.logic.contract import Limits  # noqa: E402
from game.logic.rules.catalogue import design  # noqa: E402

PLY_CAP = 1000


def against_random(game_id: str, limits: Limits, games: int) -> tuple[int, int]:
    """(wins, draws) of the game's default level against random over ``games`` games."""
    wins, draws, _ = play(game_id, design(game_id).computer, limits, games, PLY_CAP)
    return wins, draws


def ur(games: int) -> tuple[int, int]:
    """The Royal Game of Ur: the master level (expectimax through the throws) at a twentieth
    of a second a move."""
    return against_random("ur", Limits(time=0.05), games)


def banqi(games: int) -> tuple[int, int]:
    """Banqi: the master level (expectimax through the pieces still face down) at a fifth of
    a second a move."""
    return against_random("banqi", Limits(time=0.2), games)


def italian_draughts(games: int) -> tuple[int, int]:
    """Italian draughts: the master level bounded by 1,000 positions a move."""
    return against_random("italian-draughts", Limits(nodes=1000), games)


def go(games: int) -> tuple[int, int]:
    """Go on 9 x 9 (komi 7.5): the master level bounded by 200 simulated games a move."""
    return against_random("go", Limits(nodes=200), games)


#: Each game's line: a function of the number of games giving (wins, draws).
GAMES: dict[str, Callable[[int], tuple[int, int]]] = {
    "ur": ur,
    "banqi": banqi,
    "italian-draughts": italian_draughts,
    "go": go,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", help="default: every game")
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    for name in args.games_to_run or list(GAMES):
        wins, draws = GAMES[name](args.games)
        print(f"{name} wins={wins}/{args.games} draws={draws}", flush=True)


if __name__ == "__main__":
    main()
