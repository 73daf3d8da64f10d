"""The compiled outcome beside the Python back end's: positions judged a second (the whole
outcome, draw counters included, the legal moves already known), on the positions of
seeded random games, each figure twice, CPU time.

    .venv/bin/python benchmarks/compiled_outcome.py                    # the default games
    .venv/bin/python benchmarks/compiled_outcome.py --game chess --games 4

Both are called from Python once per position, as a driver in Python calls them; the
compiled one pays numba's call from Python too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import compiled_rules
from game.logic.rules.compiled.play import CompiledPlay

GAMES = ("tic-tac-toe", "othello", "breakthrough", "lines-of-action", "chess")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game (repeatable)")
    parser.add_argument("--games", type=int, default=4, help="random games per game")
    parser.add_argument("--plies", type=int, default=200, help="plies at most per game")
    args = parser.parse_args()
    for game in args.game or GAMES:
        e = rulebook(game)
        rules = compiled_rules(e.design)
        positions = []  # (Python position, its moves, the compiled state)
        for seed in range(args.games):
            rng = random.Random(seed)
            pos = e.start()
            play = CompiledPlay(rules, pos, e)
            for _ in range(args.plies):
                moves = e.legal(pos)
                kept = (play.b.copy(), play.turn, play.lf, play.lt, play.n, play.quiet)
                positions.append(
                    (pos.copy(), moves, (*kept, play.plies, play.hist.copy(), play.nh))
                )
                if e.outcome(pos, moves) is not None:
                    break
                i = rng.randrange(len(moves))
                e.make(pos, moves[i])
                play.play(i)
        outcome = rules.module.outcome
        for _ in range(2):
            began = time.process_time()
            for pos, moves, _state in positions:
                e.outcome(pos, moves)
            python = time.process_time() - began
            began = time.process_time()
            for _pos, _moves, state in positions:
                outcome(*state)
            compiled = time.process_time() - began
            print(
                f"{game}: {len(positions)} positions; Python {len(positions) / python:,.0f}/s, "
                f"compiled {len(positions) / compiled:,.0f}/s ({python / compiled:.0f}x)",
                flush=True,
            )


if __name__ == "__main__":
    main()
