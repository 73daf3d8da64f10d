"""Described games: this tree's rulebook beside another checkout's (the commit before a
change), run alternately in fresh processes so that both meet the same machine. Prints one
line per run.

    .venv/bin/python benchmarks/rules_compare.py /path/to/other/checkout
    .venv/bin/python benchmarks/rules_compare.py ../main --rounds 3

Each line: the tree (``this`` or ``other``), the case, the nodes, the CPU seconds to build the
rulebook (read the description, compile its move programs) and the CPU seconds of the perft:
chess perft(4), English draughts perft(8) and International draughts perft(6), the figures
issue 26 asks to stay within 10% of.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = [("chess", 4), ("english-draughts", 8), ("international-draughts", 6)]
RUN = """
import sys, time
started = time.process_time()
from game.logic.rules.catalogue import rulebook
e = rulebook(sys.argv[1])
built = time.process_time()
nodes = e.perft(e.start(), int(sys.argv[2]))
done = time.process_time()
print(f"nodes={nodes} build={built - started:.2f}s perft={done - built:.2f}s")
"""


def _run(tree: Path, game: str, depth: int) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run(
        [sys.executable, "-c", RUN, game, str(depth)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout's root folder")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each case and tree")
    args = parser.parse_args()
    if not (args.other / "game" / "logic" / "rules").is_dir():
        print(f"{args.other}: not a checkout of this project", file=sys.stderr)
        return 2
    for round_ in range(1, args.rounds + 1):
        for game, depth in CASES:
            for name, tree in (("other", args.other.resolve()), ("this", ROOT)):
                line = _run(tree, game, depth)
                print(f"round={round_} tree={name} {game} perft({depth}) {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
