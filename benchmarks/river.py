"""Priests and Devils: how fast the solver answers. Prints one line per figure.

    .venv/bin/python benchmarks/river.py

- ``solve_cli``: the whole ``gamehall solve river --priests 100 --devils 100 --capacity 4``
  command, start-up included (it should stay under 1 s);
- ``build_s``: building the state graph and its retrograde distance table in-process;
- ``hint_us``: the puzzle's hint (every optimal load) on an already built graph;
- ``agent_us``: one choice of the solver agent, which the window's hint, Next step and Solve
  ask for each click (a table look-up: microseconds).
"""

from __future__ import annotations

import functools
import random
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.contract import Limits, Stop  # noqa: E402
from game.logic.river.game import RiverPuzzle, RiverRules, RiverState, SolverAgent  # noqa: E402


def main() -> None:
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "game",
                "solve",
                "river",
                "--priests",
                "100",
                "--devils",
                "100",
                "--capacity",
                "4",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        runs.append(time.perf_counter() - t0)
    last = out.strip().splitlines()[-1]
    print(f"solve_cli rules=100/100/4 median_s={statistics.median(runs):.3f} {last}")

    # Each rule set is built once per process (the graphs are cached), so build_s is a cold
    # build.
    for rules in (RiverRules(3, 3, 2), RiverRules(100, 100, 4), RiverRules(200, 100, 12)):
        t0 = time.perf_counter()
        puzzle = RiverPuzzle(rules)
        puzzle.optimal_crossings()
        built = time.perf_counter() - t0
        state = RiverState.start(rules)
        n = 2000
        per_hint = timeit.timeit(lambda p=puzzle, s=state: p.hint(s), number=n) / n
        choose = functools.partial(SolverAgent().choose, state, Limits(), random.Random(0), Stop())
        choose()  # the click table is built on the first choice
        per_choice = timeit.timeit(choose, number=n) / n
        print(
            f"river rules={rules.key()} nodes={len(puzzle.graph)} build_s={built:.3f} "
            f"hint_us={per_hint * 1e6:.1f} agent_us={per_choice * 1e6:.1f} "
            f"optimal={puzzle.optimal_crossings()}"
        )


if __name__ == "__main__":
    main()
