"""Described games: the default level against random players, one function a game. Prints
``GAME wins=W/N draws=D`` for each; the issue asks at least 90 wins in 100.

    .venv/bin/python benchmarks/rules_strength.py                 # every game, 100 each
    .venv/bin/python benchmarks/rules_strength.py shogi --games 20
    .venv/bin/python benchmarks/rules_strength.py shogi --games 25 --first 25   # games 25-49

The default level (the description's ``(computer ..)``, ``master`` unless it says) thinks for
a number of positions (or simulated games) a move where it can, so those figures are the same
on any machine; the level takes each seat in turn (a random player every other seat), every
game is seeded (chance's outcomes too), and a game still going after :data:`PLY_CAP` actions
counts as a draw.
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
from game.logic.rules.catalogue import rulebook  # noqa: E402

PLY_CAP = 1000


def against_random(
    game_id: str, games: int, first: int, limits: Limits, cap: int = PLY_CAP
) -> tuple[int, int]:
    """(wins, draws) of the game's default level against random over ``games`` games, the
    first numbered ``first`` (the games of ``benchmarks/rules_agents.py``), a game still going
    after ``cap`` actions a draw."""
    computer = rulebook(game_id).design.computer
    wins, draws, _losses = play(game_id, computer, limits, games, cap, first)
    return wins, draws


def ur(games: int, first: int) -> tuple[int, int]:
    """The Royal Game of Ur: expectimax through the throws, a twentieth of a second a move."""
    return against_random("ur", games, first, Limits(time=0.05))


def banqi(games: int, first: int) -> tuple[int, int]:
    """Banqi: expectimax through the pieces still face down, a fifth of a second a move."""
    return against_random("banqi", games, first, Limits(time=0.2))


def italian_draughts(games: int, first: int) -> tuple[int, int]:
    """Italian draughts: 1,000 positions a move."""
    return against_random("italian-draughts", games, first, Limits(nodes=1_000))


def barrage(games: int, first: int) -> tuple[int, int]:
    """Barrage: 3,000 positions a move (about a fifth of a second), spread over its guesses
    at the enemy pieces it has not seen (the same moves on any machine)."""
    return against_random("barrage", games, first, Limits(nodes=3_000))


def go(games: int, first: int) -> tuple[int, int]:
    """Go on 9 x 9 (komi 7.5): 200 simulated games a move."""
    return against_random("go", games, first, Limits(nodes=200))


def shogi(games: int, first: int) -> tuple[int, int]:
    """Shogi: 1,000 positions a move (half a second of the window's hint)."""
    return against_random("shogi", games, first, Limits(nodes=1_000))


def pentago(games: int, first: int) -> tuple[int, int]:
    """Pentago: 400 positions a move."""
    return against_random("pentago", games, first, Limits(nodes=400))


def oware(games: int, first: int) -> tuple[int, int]:
    """Oware: 2,000 positions a move."""
    return against_random("oware", games, first, Limits(nodes=2_000))


def backgammon(games: int, first: int) -> tuple[int, int]:
    """Backgammon: expectimax through the throws, 30 positions a checker move; a game is
    some 300 to 1,200 actions (a throw and a checker move each one), so it may run to 4,000."""
    return against_random("backgammon", games, first, Limits(nodes=30), cap=4_000)


def chaturaji(games: int, first: int) -> tuple[int, int]:
    """Chaturaji: the default level in one of the four seats (game ``n`` in seat ``n % 4``)
    against three random players, 200 simulated games a move; a win is the game won by our
    seat (the first to 18 points)."""
    return against_random("chaturaji", games, first, Limits(nodes=200))


#: game id -> its line: (games, the first game's number) -> (wins, draws).
GAMES: dict[str, Callable[[int, int], tuple[int, int]]] = {
    "ur": ur,
    "banqi": banqi,
    "italian-draughts": italian_draughts,
    "go": go,
    "shogi": shogi,
    "pentago": pentago,
    "oware": oware,
    "barrage": barrage,
    "backgammon": backgammon,
    "chaturaji": chaturaji,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="*", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--games", type=int, default=100, help="games each (default 100)")
    parser.add_argument(
        "--first", type=int, default=0, help="the first game's number (to split a run in parts)"
    )
    args = parser.parse_args(argv)
    for name in args.game or list(GAMES):
        if name not in GAMES:
            parser.error(f"no strength line for {name!r}; the games: {', '.join(GAMES)}")
        wins, draws = GAMES[name](args.games, args.first)
        part = f" (games {args.first}-{args.first + args.games - 1})" if args.first else ""
        print(f"{name} wins={wins}/{args.games} draws={draws}{part}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
