"""Issue 29's spike measured: perft of the compiled back end (numba code generated from the
move programs' tree) beside the Python back end and python-chess, in one run, each twice.

    .venv/bin/python benchmarks/compiled_perft.py            # chess 4, 5; Kiwipete 3, 4
    .venv/bin/python benchmarks/compiled_perft.py --quick    # chess 4; Kiwipete 3
    .venv/bin/python benchmarks/compiled_perft.py --cold     # also the first compile, in a
                                                             # fresh cache (minutes)
    .venv/bin/python benchmarks/compiled_perft.py --others   # also Othello, breakthrough,
                                                             # Hex, Pentago, Italian, bashni perft
    .venv/bin/python benchmarks/compiled_perft.py --draughts # English perft(10) and
                                                             # International perft(8) instead
                                                             # of chess

python-chess counts the last ply in bulk (``legal_moves.count()``), as both of ours do.
Our Python back end runs only where it takes seconds (chess to 4, Kiwipete to 3; English
draughts to 8, International to 6, beside the compiled back end at the same depths, their
ratio printed) unless ``--python-deep`` (then also at the draughts' full depths, once: minutes
each). The compile lines time a new process that builds the module and makes
its first call: cold in an empty cache folder, warm with the cache that run filled.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules_speed import chess_perft  # noqa: E402  (this folder is on its scripts' path)

from game.logic.rules.catalogue import rulebook  # noqa: E402
from game.logic.rules.compiled.build import compiled_rules  # noqa: E402
from game.logic.rules.notation import read_position  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
EXPECTED = {
    (START, 4): 197281,
    (START, 5): 4865609,
    (KIWIPETE, 3): 97862,
    (KIWIPETE, 4): 4085603,
}

_FIRST_CALL = """
import sys, time
sys.path.insert(0, {root!r})
started = time.perf_counter()
from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import compiled_rules
e = rulebook("chess")
made, cpu = time.perf_counter(), time.process_time()
rules = compiled_rules(e.design)
rules.perft(e.start(), 1)
wall, cpu = time.perf_counter() - made, time.process_time() - cpu
print(f"{{made - started:.2f}} {{wall:.2f}} {{cpu:.2f}}")
"""


def _twice(run: Callable[[], int]) -> list[tuple[float, float, int]]:
    """Two runs: wall seconds, CPU seconds of this process (steadier on a shared machine),
    the count."""
    out = []
    for _ in range(2):
        started, cpu = time.perf_counter(), time.process_time()
        nodes = run()
        out.append((time.perf_counter() - started, time.process_time() - cpu, nodes))
    return out


def first_call(cache: str) -> str:
    """Seconds of a new process: the rulebook made, then the compiled module built and its
    first perft call (with ``cache`` as the cache folder)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, GAMEHALL_COMPILED_DIR=cache)
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL.format(root=str(ROOT))],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rulebook_s, compiled_s, cpu_s = done.stdout.split()
    return f"rulebook={rulebook_s}s compiled_first_call={compiled_s}s (cpu {cpu_s}s)"


#: The other games the spike compiles: (game, parameters, perft depth).
OTHERS = [
    ("othello", None, 7),
    ("breakthrough", None, 4),
    ("hex", {"side": 11}, 3),
    ("pentago", None, 2),
    ("italian-draughts", None, 7),
    ("bashni", None, 7),
]


def other_lines() -> None:
    """Perft of both back ends (the Python one where it takes seconds); the random playouts
    are ``benchmarks/compiled_playouts.py``'s."""
    for game, values, depth in OTHERS:
        e = rulebook(game, values)
        rules = compiled_rules(e.design)
        rules.perft(e.start(), 1)
        runs = [("compiled", _twice(lambda e=e, r=rules, d=depth: r.perft(e.start(), d)))]
        if game != "hex":  # 1.7 million leaves, none in bulk: minutes in Python
            runs.append(("python", _twice(lambda e=e, d=depth: e.perft(e.start(), d))))
        for label, timed in runs:
            for seconds, cpu, nodes in timed:
                print(
                    f"{game} perft({depth}) {label:8} nodes={nodes} seconds={seconds:.3f} "
                    f"cpu={cpu:.3f}",
                    flush=True,
                )


#: The draughts' rows: (game, the depth measured, the depth the Python back end runs to
#: without ``--python-deep``, the count at the full depth).
DRAUGHTS = [
    ("english-draughts", 10, 8, 18_391_564),
    ("international-draughts", 8, 6, 6_483_961),
]


def draughts_lines(python_deep: bool) -> None:
    """Perft of the draughts from their starts on both back ends: the compiled one at the
    full and the smaller depth (twice each), the Python one at the smaller depth (twice), and
    at the full depth once where asked; each factor at equal depths."""
    for game, depth, small, want in DRAUGHTS:
        e = rulebook(game)
        rules = compiled_rules(e.design)
        rules.perft(e.start(), 1)  # compiled, or loaded from the cache, before timing
        timed = {
            ("compiled", depth): _twice(lambda e=e, r=rules, d=depth: r.perft(e.start(), d)),
            ("compiled", small): _twice(lambda e=e, r=rules, d=small: r.perft(e.start(), d)),
            ("python", small): _twice(lambda e=e, d=small: e.perft(e.start(), d)),
        }
        if python_deep:
            started, cpu = time.perf_counter(), time.process_time()
            nodes = e.perft(e.start(), depth)
            timed[("python", depth)] = [
                (time.perf_counter() - started, time.process_time() - cpu, nodes)
            ]
        for (label, d), runs in timed.items():
            for seconds, cpu, nodes in runs:
                ok = "" if d != depth else " equal" if nodes == want else f" DIFFERS {want}"
                print(
                    f"{game} perft({d}) {label:8} nodes={nodes}{ok} seconds={seconds:.3f} "
                    f"cpu={cpu:.3f}",
                    flush=True,
                )
        for d in (small, depth):
            if ("python", d) in timed:
                python = min(cpu for _, cpu, _ in timed[("python", d)])
                compiled = min(cpu for _, cpu, _ in timed[("compiled", d)])
                print(f"{game} perft({d}) python/compiled cpu={python / compiled:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--python-deep", action="store_true")
    parser.add_argument(
        "--others",
        action="store_true",
        help="Othello, Hex, breakthrough, Pentago, Italian, bashni too",
    )
    parser.add_argument("--draughts", action="store_true", help="the draughts instead of chess")
    args = parser.parse_args()
    if args.draughts:
        draughts_lines(args.python_deep)
        return
    try:
        import chess
    except ImportError:
        chess = None
    e = rulebook("chess")
    rules = compiled_rules(e.design)
    rules.perft(e.start(), 1)  # compiled, or loaded from the cache, before timing
    cases = [(START, 4), (KIWIPETE, 3)] if args.quick else list(EXPECTED)
    for fen, depth in cases:
        name = "start" if fen == START else "kiwipete"
        pos = read_position(e, fen)
        rows = [("compiled", _twice(lambda p=pos, d=depth: rules.perft(p, d)))]
        if args.python_deep or (fen, depth) in ((START, 4), (KIWIPETE, 3)):
            rows.append(("python", _twice(lambda p=pos, d=depth: e.perft(p.copy(), d))))
        if chess is not None:
            rows.append(
                ("python-chess", _twice(lambda f=fen, d=depth: chess_perft(chess.Board(f), d)))
            )
        for label, runs in rows:
            for seconds, cpu, nodes in runs:
                ok = "equal" if nodes == EXPECTED[(fen, depth)] else f"DIFFERS {nodes}"
                print(
                    f"chess {name} perft({depth}) {label:13} nodes={nodes} {ok} "
                    f"seconds={seconds:.3f} cpu={cpu:.3f}",
                    flush=True,
                )
    if args.others:
        other_lines()
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            print(f"compile cold: {first_call(cache)}", flush=True)
            print(f"compile warm: {first_call(cache)}", flush=True)
            print(f"compile warm: {first_call(cache)}", flush=True)


if __name__ == "__main__":
    main()
