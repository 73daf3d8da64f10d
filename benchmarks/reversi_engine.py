"""Reversi engine speed: perft from the start and exact solves of FFO #40-#44.

Run: ``python benchmarks/reversi_engine.py [--perft 10 11] [--ffo 40 41 42 43 44]
[--random24 N --seed S]``. ``--random24`` solves N reproducible positions with 24 empty squares
(random legal moves from the start, a finished game skipped) and prints their median time.
Results go to stdout, one line each; progress to stderr. Every kernel is compiled (or loaded
from numba's cache) and run once on a small input before the clock starts, so the timings
exclude compilation. Times are wall-clock seconds on one core (the kernels are single-threaded).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.logic.reversi.board import PASS, Position, square_name
from game.logic.reversi.ffo import FFO
from game.logic.reversi.perft import PERFT_START, perft
from game.logic.reversi.solver import solve


def warm_up() -> None:
    """Compile (or load) the kernels on small inputs so the timings below exclude it."""
    started = time.perf_counter()
    perft(Position.start(), 3)
    solve(_endgame(12), all_moves=True)
    print(
        f"# warm-up (compilation or cache load): {time.perf_counter() - started:.1f} s",
        file=sys.stderr,
    )


def _endgame(empties: int) -> Position:
    position = Position.start()
    while position.empties > empties and position.legal_moves():
        position = position.apply(position.legal_moves()[-1])
    return position


def bench_perft(depth: int) -> None:
    started = time.perf_counter()
    leaves = perft(Position.start(), depth, "bik")
    seconds = time.perf_counter() - started
    expected = PERFT_START.get(depth, (None, None))[0]
    note = "" if expected is None else f" correct={'yes' if leaves == expected else 'no'}"
    print(
        f"perft depth={depth} leaves={leaves} seconds={seconds:.3f} "
        f"leaves_per_s={leaves / seconds:.3g}{note}",
        flush=True,
    )


def bench_ffo(number: int, all_moves: bool) -> bool:
    ffo = FFO[number]
    position = Position.from_text(ffo.text)
    solution = solve(position, all_moves=all_moves)
    best = [square_name(m).upper() for m in solution.best]
    correct = solution.score == ffo.score and (
        sorted(best) == sorted(ffo.best) if all_moves else best[0] in ffo.best
    )
    print(
        f"ffo={number} empties={position.empties} seconds={solution.seconds:.2f} "
        f"nodes={solution.nodes} score={solution.score:+d} best={','.join(best)} "
        f"correct={'yes' if correct else 'no'}",
        flush=True,
    )
    return correct


def random_endgames(count: int, seed: int, empties: int = 24) -> list[Position]:
    """``count`` positions with ``empties`` empty squares from random legal moves (``seed``);
    a game that ends, or leaves the side to move with no move, before that is skipped."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.start()
        while position.empties > empties and position.legal_moves():
            position = position.apply(rng.choice(position.legal_moves()))
        legal = position.legal_moves()
        if position.empties == empties and legal and legal != [PASS]:
            found.append(position)
    return found


def bench_random(count: int, seed: int) -> None:
    times = []
    for index, position in enumerate(random_endgames(count, seed)):
        solution = solve(position)
        times.append(solution.seconds)
        print(
            f"random24 seed={seed} index={index} seconds={solution.seconds:.2f} "
            f"nodes={solution.nodes} score={solution.score:+d} "
            f"best={square_name(solution.best[0])} position={position.text()}",
            flush=True,
        )
    print(f"random24 count={count} seed={seed} median_s={statistics.median(times):.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--perft", type=int, nargs="*", default=[10, 11], metavar="DEPTH")
    parser.add_argument("--ffo", type=int, nargs="*", default=[40, 41, 42, 43, 44], metavar="N")
    parser.add_argument(
        "--all-moves", action="store_true", help="find every best move (null-window re-searches)"
    )
    parser.add_argument(
        "--random24", type=int, default=0, metavar="N", help="solve N random 24-empty positions"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the --random24 positions")
    args = parser.parse_args(argv)
    warm_up()
    print("# timings exclude numba compilation (warmed up first); one core", flush=True)
    for depth in args.perft:
        bench_perft(depth)
    total = 0.0
    ok = True
    for number in args.ffo:
        started = time.perf_counter()
        ok &= bench_ffo(number, args.all_moves)
        total += time.perf_counter() - started
    if args.ffo:
        print(f"ffo total seconds={total:.2f} all_correct={'yes' if ok else 'no'}")
    if args.random24:
        bench_random(args.random24, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
