"""The connection games' tree search on compiled games against the same search on Python
games, at equal time a move: games from seeded openings (a few random stones), each opening
played twice with the colours swapped.

    .venv/bin/python benchmarks/connection_strength.py --games 10 --time 0.3
    .venv/bin/python benchmarks/connection_strength.py --side 7 --openings 2

Prints one line a game and the compiled search's score (a win 1, a loss 0).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Stop  # noqa: E402
from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.connect import Connection, connection_zones  # noqa: E402


def play(side: int, opening: int, compiled_first: bool, seconds: float, stones: int) -> float:
    """One game; 1 when the compiled search wins it."""
    e = rulebook("hex", {"side": side})
    zones = connection_zones(e)
    assert zones is not None
    compiled, python = Connection(e, zones), Connection(e, zones)
    python._compiled = lambda: None  # type: ignore[method-assign]
    players = (compiled, python) if compiled_first else (python, compiled)
    pos = e.start()
    rng = random.Random(opening)
    for _ in range(stones):
        e.make(pos, rng.choice(e.legal(pos)))
    while True:
        moves = e.legal(pos)
        outcome = e.outcome(pos, moves)
        if outcome is not None:
            winner = e.returns(pos, outcome).index(1.0)
            return 1.0 if (winner == 0) == compiled_first else 0.0
        who = players[e.player(pos)]
        deadline = time.perf_counter() + seconds
        found = who.choose(pos, moves, games=None, deadline=deadline, stop=Stop())
        e.make(pos, found.move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=11)
    parser.add_argument("--games", type=int, default=10, help="an even number: colours swap")
    parser.add_argument("--time", type=float, default=0.3, help="seconds a move")
    parser.add_argument("--stones", type=int, default=2, help="random stones of an opening")
    args = parser.parse_args()
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    score = 0.0
    for game in range(args.games):
        first = game % 2 == 0
        won = play(args.side, game // 2, first, args.time, args.stones)
        score += won
        side = "first" if first else "second"
        print(f"game {game + 1}: compiled plays {side}, scores {won:.0f}", flush=True)
    print(f"compiled search {score:.0f} / {args.games} at {args.time} s a move, side {args.side}")


if __name__ == "__main__":
    main()
