"""Random playouts a second of the compiled back end, beside the Python back end's, each
compiled figure twice (wall and CPU seconds of this process), and the connection games'
tree search (simulated games a second through the tree, compiled and Python).

    .venv/bin/python benchmarks/compiled_playouts.py                    # every game below
    .venv/bin/python benchmarks/compiled_playouts.py --game hex --games 20000
    .venv/bin/python benchmarks/compiled_playouts.py --game chess --python-games 0

The compiled playouts end as perft reads the ends (no draw counters; a cap of
``bench.PLY_CAP`` plies); the Python back end's run every end (``gamehall bench``'s
playouts). Hex plays by filling the board (the union-find kernel): its move-by-move rate,
the kernel every other game uses, is printed beside it. The first line gives the load.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Stop  # noqa: E402
from game.logic.rules.bench import PLY_CAP, run_playouts  # noqa: E402
from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.compiled.build import CompiledRules, compiled_rules  # noqa: E402
from game.logic.rules.connect import Connection, connection_zones  # noqa: E402

#: (game, parameters, compiled games, Python games).
GAMES = {
    "chess": (None, 2000, 5),
    "hex": ({"side": 11}, 20000, 20),
    "othello": (None, 5000, 20),
    "breakthrough": (None, 10000, 40),
}


def compiled_lines(game: str, rules: CompiledRules, games: int) -> None:
    """The compiled playouts' rate, twice."""
    e = rulebook(game, GAMES[game][0])
    rules.playouts(e.start(), 10, 1, PLY_CAP)  # loaded from the cache before timing
    for run in range(2):
        started, cpu = time.perf_counter(), time.process_time()
        plies, wins = rules.playouts(e.start(), games, run + 1, PLY_CAP)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        print(
            f"{game} playouts compiled per_s={games / wall:.0f} cpu_per_s={games / cpu:.0f} "
            f"plies_per_s={plies / wall:.0f} mean_plies={plies / games:.1f} wins={wins}",
            flush=True,
        )
    if getattr(rules.module, "FILL", False):
        stepped_line(game, rules, max(1, games // 4))


def stepped_line(game: str, rules: CompiledRules, games: int) -> None:
    """A game that fills the board played move by move instead (the kernel of every game)."""
    e = rulebook(game, GAMES[game][0])
    m, pos = rules.module, e.start()
    record = np.zeros((0, 1), dtype=np.int64)
    m.seed(1)
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        m.playout(
            rules.board(pos), rules.state(pos), PLY_CAP, rules.rows, rules.cs, rules.es,
            rules.undo, record,
        )  # fmt: skip
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"{game} playouts compiled-move-by-move per_s={games / wall:.0f} "
        f"cpu_per_s={games / cpu:.0f}",
        flush=True,
    )


def search_lines(game: str, seconds: float) -> None:
    """Simulated games a second through the connection search's tree, from the start:
    compiled, then Python (each for ``seconds``)."""
    e = rulebook(game, GAMES[game][0])
    zones = connection_zones(e)
    if zones is None:
        return
    pos = e.start()
    moves = e.legal(pos)
    for label in ("compiled", "python"):
        play = Connection(e, zones)
        if label == "python":
            play._compiled = lambda: None  # type: ignore[method-assign]
        play.choose(pos, moves, games=10, deadline=None, stop=Stop())  # loaded before timing
        started, cpu = time.perf_counter(), time.process_time()
        n = play.choose(pos, moves, games=None, deadline=started + seconds, stop=Stop()).games
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        rates = f"games_per_s={n / wall:.0f} cpu_games_per_s={n / cpu:.0f} games={n}"
        print(f"{game} tree search {label:8} {rates}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="repeatable")
    parser.add_argument("--games", type=int, help="compiled games per run (default per game)")
    parser.add_argument("--python-games", type=int, help="Python back end games (0: none)")
    parser.add_argument("--search-seconds", type=float, default=2.0, help="0: no tree search")
    args = parser.parse_args()
    print(f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    for game in args.game or list(GAMES):
        values, games, python_games = GAMES[game]
        e = rulebook(game, values)
        compiled_lines(game, compiled_rules(e.design), args.games or games)
        python_games = python_games if args.python_games is None else args.python_games
        if python_games:
            plies, seconds = run_playouts(e, python_games, random.Random(1))
            print(
                f"{game} playouts python   per_s={python_games / seconds:.1f} "
                f"plies_per_s={plies / seconds:.0f} mean_plies={plies / python_games:.1f}",
                flush=True,
            )
        if args.search_seconds:
            search_lines(game, args.search_seconds)


if __name__ == "__main__":
    main()
