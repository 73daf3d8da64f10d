"""The compiled back end on the games whose forms came after the spike (hands, drops first,
counters, turn kinds, walks that turn): perft compiled beside the Python back end, each
twice, wall and CPU seconds, and with ``--cold`` the first compile of each game in a new
process and an empty cache folder (shogi's takes one to two CPU minutes).

    .venv/bin/python benchmarks/compiled_forms.py                # every game
    .venv/bin/python benchmarks/compiled_forms.py kalah oware    # some
    .venv/bin/python benchmarks/compiled_forms.py --cold shogi
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.compiled.build import compiled_rules  # noqa: E402

#: game -> (compiled perft depth, Python back end perft depth).
GAMES = {
    "shogi": (4, 3),
    "nine-mens-morris": (5, 3),
    "kalah": (9, 6),
    "oware": (9, 6),
    "neutron": (5, 4),
    "surakarta": (4, 3),
}

_FIRST_CALL = """
import sys, time
sys.path.insert(0, {root!r})
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import compiled_rules
e = rulebook({game!r})
made, cpu = time.perf_counter(), time.process_time()
rules = compiled_rules(e.design)
rules.perft(e.start(), 1)
print(f"{{time.perf_counter() - made:.1f}} {{time.process_time() - cpu:.1f}}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--cold", action="store_true", help="time the first compile too")
    args = parser.parse_args()
    for game in args.games:
        if game not in GAMES:
            parser.error(f"{game!r} is not one of {', '.join(GAMES)}")
    print(f"load: {os.getloadavg()[0]:.2f}")
    for game in args.games:
        if args.cold:
            with tempfile.TemporaryDirectory() as folder:
                env = {**os.environ, "NUMBA_CACHE_DIR": folder, "GAMEHALL_COMPILED_DIR": folder}
                code = _FIRST_CALL.format(root=str(ROOT), game=game)
                for kind in ("cold", "warm"):
                    out = subprocess.run(
                        [sys.executable, "-c", code], env=env, capture_output=True, text=True
                    )
                    wall, cpu = out.stdout.split()
                    print(f"{game} compile {kind}: {wall} s wall, {cpu} s CPU")
        e = rulebook(game)
        rules = compiled_rules(e.design)
        deep, shallow = GAMES[game]
        for name, depth in (("compiled", deep), ("compiled", shallow), ("python", shallow)):
            for _ in range(2):
                pos = e.start()
                wall, cpu = time.perf_counter(), time.process_time()
                n = rules.perft(pos, depth) if name == "compiled" else e.perft(pos, depth)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                print(f"{game} perft({depth}) = {n:,} {name}: {wall:.3f} s wall, {cpu:.3f} s CPU")


if __name__ == "__main__":
    main()
