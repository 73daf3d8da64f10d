"""The new described games' computers against a random player: each game's default level
(the hint's and the computer side's) should win at least 90 of 100 games (draws count as not
won). Prints one line a game:

    .venv/bin/python benchmarks/rules_strength.py                 # every game, 100 games each
    .venv/bin/python benchmarks/rules_strength.py go --games 20

``GAME wins=W/N draws=D``. Colours alternate; every game is seeded. A game still going after
:data:`PLY_CAP` actions counts as a draw.
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
from game.logic.rules.catalogue import design, rulebook  # noqa: E402
from game.logic.rules.state import RulesGame  # noqa: E402

PLY_CAP = 1000


def against_random(game_id: str, limits: Limits, games: int) -> tuple[int, int]:
    """(wins, draws) of the game's default level against random over ``games`` games."""
    game = RulesGame(rulebook(game_id))
    wins = draws = 0
    for number in range(games):
        rng = random.Random(number)
        players = [make_agent(design(game_id).computer), make_agent("random")]
        seat = number % 2
        if seat:
            players.reverse()
        state = game.initial_state(rng)
        for _ in range(PLY_CAP):
            if state.is_terminal():
                break
            action = players[state.current_player()].choose(state, limits, rng, Stop())
            state = state.apply(action)
        score = state.returns()[seat] if state.is_terminal() else 0.0
        wins += score > 0
        draws += score == 0
    return wins, draws


def go(games: int) -> tuple[int, int]:
    """Go on 9 x 9 (komi 7.5): the master level bounded by 200 simulated games a move."""
    return against_random("go", Limits(nodes=200), games)


#: Each game's line: a function of the number of games giving (wins, draws).
GAMES: dict[str, Callable[[int], tuple[int, int]]] = {"go": go}


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
