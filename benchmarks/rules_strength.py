"""Described games: the default level against a random player, one function a game. Prints
``GAME wins=W/N draws=D`` for each; the issue asks at least 90 wins in 100.

    .venv/bin/python benchmarks/rules_strength.py                 # every game, 100 each
    .venv/bin/python benchmarks/rules_strength.py shogi --games 20

The default level (the description's ``(computer ..)``, ``master`` unless it says) thinks
for a number of positions a move, so the figures are the same on any machine; colours
alternate, every game is seeded, and a game that reaches the ply cap counts as a draw.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Limits, Stop  # noqa: E402
from game.logic.rules.agents import make_agent  # noqa: E402
from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.state import RulesGame  # noqa: E402


def against_random(game_id: str, games: int, limits: Limits, ply_cap: int) -> tuple[int, int]:
    """(wins, draws) of the game's default level against random over ``games`` games."""
    book = rulebook(game_id)
    game = RulesGame(book)
    wins = draws = 0
    for number in range(games):
        rng = random.Random(number)
        players = [make_agent(book.design.computer), make_agent("random")]
        seat = number % 2
        if seat:
            players.reverse()
        state = game.initial_state(rng)
        for _ in range(ply_cap):
            if state.is_terminal():
                break
            mover = players[state.current_player()]
            state = state.apply(mover.choose(state, limits, rng, Stop()))
        score = state.returns()[seat] if state.is_terminal() else 0.0
        wins += score > 0
        draws += score == 0
    return wins, draws


def shogi(games: int) -> tuple[int, int]:
    """Shogi: 1,000 positions a move (half a second of the window's hint), 400 plies."""
    return against_random("shogi", games, Limits(nodes=1_000), 400)


GAMES: dict[str, Callable[[int], tuple[int, int]]] = {"shogi": shogi}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="*", help=f"games (default: all of {', '.join(GAMES)})")
    parser.add_argument("--games", type=int, default=100, help="games each (default 100)")
    args = parser.parse_args(argv)
    for name in args.game or list(GAMES):
        if name not in GAMES:
            parser.error(f"no strength line for {name!r}; the games: {', '.join(GAMES)}")
        wins, draws = GAMES[name](args.games)
        print(f"{name} wins={wins}/{args.games} draws={draws}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
