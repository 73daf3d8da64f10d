"""Issue 29's speed figures of the compiled back end in one run, each twice (wall and CPU
seconds of this process): random games a second (English draughts, chess), perft (chess 5,
Kiwipete 4, International draughts 8, English draughts 10), and with ``--cold GAME`` the
first compile of breakthrough, English draughts or chess, each in a new process with an empty
cache folder.

    .venv/bin/python benchmarks/compiled_speed.py          # every figure but the cold compiles
    .venv/bin/python benchmarks/compiled_speed.py --only english-games --only chess-games
    .venv/bin/python benchmarks/compiled_speed.py --only none --cold breakthrough --cold chess
    .venv/bin/python benchmarks/compiled_speed.py --root ../other     # another checkout's code

``--root`` imports the ``game`` package of another checkout (side by side with this one's:
run both in one shell line, alternating). The first line gives the load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"

#: Random playouts: (name, game, games per run).
GAMES = [("english-games", "english-draughts", 20000), ("chess-games", "chess", 2000)]

#: Perft: (name, game, position or None for the start, depth, the count).
PERFT = [
    ("chess-perft5", "chess", None, 5, 4_865_609),
    ("kiwipete-perft4", "chess", KIWIPETE, 4, 4_085_603),
    ("international-perft8", "international-draughts", None, 8, 6_483_961),
    ("english-perft10", "english-draughts", None, 10, 18_391_564),
]

#: The games whose first compile ``--cold`` may time.
COLD = ("breakthrough", "english-draughts", "chess")

_COLD = """
import sys, time
sys.path.insert(0, {root!r})
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import compiled_rules
e = rulebook({game!r})
started, cpu = time.perf_counter(), time.process_time()
compiled_rules(e.design).perft(e.start(), 1)
print(f"{{time.perf_counter() - started:.1f}} {{time.process_time() - cpu:.1f}}")
"""


def _twice(name: str, run: Callable[[], tuple[int, str]], per: int = 0) -> None:
    """Two runs of ``run`` (returning a count and a note), printed with wall and CPU
    seconds; ``per`` > 0 prints ``per`` a second instead of the count's seconds."""
    for _ in range(2):
        started, cpu = time.perf_counter(), time.process_time()
        count, note = run()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        rate = f"per_s={per / wall:.0f} cpu_per_s={per / cpu:.0f}" if per else ""
        print(f"{name} {rate} count={count}{note} seconds={wall:.3f} cpu={cpu:.3f}", flush=True)


def cold(root: str, game: str) -> None:
    """The first compile of ``game`` in a new process with empty cache folders."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, GAMEHALL_COMPILED_DIR=cache)
        done = subprocess.run(
            [sys.executable, "-c", _COLD.format(root=root, game=game)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    wall, cpu = done.stdout.split()
    print(f"{game}-cold seconds={wall} cpu={cpu}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--only", action="append", help="a figure's name (repeatable)")
    parser.add_argument(
        "--cold", action="append", choices=COLD, help="also this game's cold compile (repeatable)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(args.root).resolve()))
    from game.logic.rules.bench import PLY_CAP
    from game.logic.rules.catalogue import rulebook
    from game.logic.rules.compiled.build import compiled_rules
    from game.logic.rules.notation import read_position

    print(f"root {args.root} load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    wanted = set(args.only or [])
    for name, game, games in GAMES:
        if wanted and name not in wanted:
            continue
        e = rulebook(game)
        rules = compiled_rules(e.design)
        rules.playouts(e.start(), 10, 1, PLY_CAP)  # loaded before timing
        seeds = iter(range(1, 3))

        def play(e=e, rules=rules, games=games, seeds=seeds) -> tuple[int, str]:
            plies, _ = rules.playouts(e.start(), games, next(seeds), PLY_CAP)
            return games, f" mean_plies={plies / games:.1f}"

        _twice(name, play, games)
    for name, game, fen, depth, want in PERFT:
        if wanted and name not in wanted:
            continue
        e = rulebook(game)
        pos = e.start() if fen is None else read_position(e, fen)
        rules = compiled_rules(e.design)
        rules.perft(pos, 1)

        def count(rules=rules, pos=pos, depth=depth, want=want) -> tuple[int, str]:
            nodes = rules.perft(pos, depth)
            return nodes, "" if nodes == want else f" DIFFERS {want}"

        _twice(name, count)
    for game in args.cold or []:
        cold(str(Path(args.root).resolve()), game)


if __name__ == "__main__":
    main()
