"""Described games: what the bounds of :mod:`game.logic.rules.limits` cost, and how soon a
game past them stops. Prints one line per figure.

    .venv/bin/python benchmarks/rules_limits.py
    .venv/bin/python benchmarks/rules_limits.py --rounds 9

- ``perft GAME DEPTH``: the CPU seconds of a perft with the generated bound checks and with
  them left out (the writer's ``limits`` made to write nothing), the best of ``--rounds``
  runs each, alternated in one process so that both meet the same machine; and the ratio;
- ``anywhere 26x26``: ``(anywhere (anywhere add))`` on a 26 x 26 board (676 ** 3 drops
  without the cap): the CPU seconds until the RulesError and the peak of Python's allocations
  on the way (tracemalloc).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.rules.catalogue import path_of  # noqa: E402
from game.logic.rules.design import load, parse  # noqa: E402
from game.logic.rules.limits import MAX_MOVES, RulesError  # noqa: E402
from game.logic.rules.rulebook import Rulebook  # noqa: E402
from game.logic.rules.writer import ProgramWriter  # noqa: E402

CASES = [("chess", 3), ("othello", 6), ("english-draughts", 7), ("lines-of-action", 3)]
ANYWHERE = """(game wide)
(players A B)
(board (grid (size 26 26)) (directions (n 0 1) (e 1 0) (ne 1 1) (se 1 -1)))
(piece Stone (drops (move place (anywhere (anywhere add)))))
(end (draw full))
"""


def _rulebook(game: str, checks: bool) -> Rulebook:
    original = ProgramWriter.limits
    if not checks:
        ProgramWriter.limits = lambda self, indent, item, moves: None  # type: ignore[method-assign]
    try:
        return Rulebook(load(path_of(game)))
    finally:
        ProgramWriter.limits = original  # type: ignore[method-assign]


def _perft_cpu(rulebook: Rulebook, depth: int) -> tuple[float, int]:
    started = time.process_time()
    nodes = rulebook.perft(rulebook.start(), depth)
    return time.process_time() - started, nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs of each perft (best kept)")
    args = parser.parse_args()
    for game, depth in CASES:
        rulebooks = {True: _rulebook(game, True), False: _rulebook(game, False)}
        best = {True: float("inf"), False: float("inf")}
        counts = set()
        for _ in range(args.rounds):
            for checks, rulebook in rulebooks.items():
                seconds, nodes = _perft_cpu(rulebook, depth)
                best[checks] = min(best[checks], seconds)
                counts.add(nodes)
        assert len(counts) == 1, counts
        print(
            f"perft {game} {depth}: nodes={counts.pop()} with_checks={best[True]:.3f}s "
            f"without={best[False]:.3f}s ratio={best[True] / best[False]:.3f}"
        )
    tracemalloc.start()
    started = time.process_time()
    try:
        rulebook = Rulebook(parse(ANYWHERE, "wide.txt"))
        rulebook.legal(rulebook.start())
    except RulesError as exc:
        said = str(exc).split(":")[1:3]
    else:
        raise AssertionError("the 26 x 26 board's moves passed the cap unnoticed")
    seconds = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"anywhere 26x26: stopped at line {said[0]} column {said[1]} after {seconds:.3f}s "
        f"of CPU, peak {peak / 2**20:.1f} MiB allocated (cap {MAX_MOVES} moves)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
