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
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import CHANCE, Limits, Stop, sample_chance  # noqa: E402
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
        seat = number % 2  # the seat the level plays
        agents = {seat: make_agent(design(game_id).computer), 1 - seat: make_agent("random")}
        final = _to_the_end(game.initial_state(rng), agents, limits, rng)
        score = final.returns()[seat] if final.is_terminal() else 0.0
        wins += score > 0
        draws += score == 0
    return wins, draws


def _to_the_end(state: Any, agents: dict[int, Any], limits: Limits, rng: random.Random) -> Any:
    """The state where the game ends (or :data:`PLY_CAP` actions on): chance draws with
    ``rng``, each seat's agent chooses."""
    for _ in range(PLY_CAP):
        if state.is_terminal():
            return state
        seat = state.current_player()
        if seat == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(agents[seat].choose(state, limits, rng, Stop()))
    return state


def banqi(games: int) -> tuple[int, int]:
    """Banqi: the master level at a fifth of a second a move."""
    return against_random("banqi", Limits(time=0.2), games)


def barrage(games: int) -> tuple[int, int]:
    """Barrage: the master level given 1,200 positions a move, spread over its guesses at
    the enemy pieces it has not seen (the same moves on any machine)."""
    return against_random("barrage", Limits(nodes=1200), games)


#: Each game's line: a function of the number of games giving (wins, draws).
GAMES: dict[str, Callable[[int], tuple[int, int]]] = {"banqi": banqi, "barrage": barrage}


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
