"""Calibrate ProbCut for the Reversi midgame search, reproducibly from a seed.

    python tools/reversi_probcut.py --positions 2000 --depth 10 --seed 14 --jobs 2

Each position comes from a game of 2 to 8 random plies followed by noisy one-ply play with the
pattern evaluation (its value plus Gaussian noise of 2 discs), stopped at a number of empty
squares drawn from 17 to 58. Each position is searched with the pattern evaluation, no
ProbCut and no solver, to ``--depth`` plies by iterative deepening; every iteration gives the
position's value at that depth (an exact result, one that reaches the end of every line,
is left out). For each deep depth ``d`` from
3 to ``--depth`` and its shallow depth ``d'`` (:func:`shallow_depth`), and for each bucket of
positions by empty squares (``empties // PC_BUCKET``), a least-squares line ``deep = a *
shallow + b`` is fitted, with ``sigma`` the standard deviation of its residuals (hundredths of
a disc). The calibration (:func:`game.logic.reversi.pvs.load_probcut`) is written to ``--out``
(default: the shipped file) with the command line as ``command``, and the fits are printed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.logic.reversi.board import PASS, Position  # noqa: E402
from game.logic.reversi.patterns import load_weights  # noqa: E402
from game.logic.reversi.pvs import (  # noqa: E402
    PC_BUCKET,
    PC_MIN_DEPTH,
    PC_MIN_EMPTIES,
    PROBCUT_FILE,
    evaluate_leaf,
)
from game.logic.reversi.search import SearchResult, TranspositionTable, search  # noqa: E402

#: Buckets of empty squares: 0..9, 10..19, ..., 60.
BUCKETS = 64 // PC_BUCKET
#: Fewest positions a (bucket, depth) cell needs to be fitted.
MIN_SAMPLES = 30
_OUT = ROOT / "game" / "logic" / "reversi" / "data" / PROBCUT_FILE


def shallow_depth(deep: int) -> int:
    """The depth of the shallow search for a deep one: about half of it, with the same parity
    (so that both end on the same side to move), at least 1."""
    shallow = deep // 2
    if (deep - shallow) % 2:
        shallow -= 1
    return max(shallow, 1)


def make_position(rng: random.Random, weights: np.ndarray[Any, Any]) -> Position | None:
    """A position from noisy play (see the module docstring); None when the game went wrong."""
    position = Position.start()
    target = rng.randint(PC_MIN_EMPTIES + 1, 58)
    random_plies = rng.randint(2, 8)
    ply = 0
    while position.empties > target:
        if position.is_terminal():
            return None
        moves = position.legal_moves()
        if moves == [PASS]:
            position = position.apply(PASS)
            continue
        if ply < random_plies:
            move = rng.choice(moves)
        else:
            move = max(moves, key=lambda m: _noisy_value(position.apply(m), rng, weights))
        position = position.apply(move)
        ply += 1
    if position.is_terminal() or position.legal_moves() == [PASS]:
        return None
    return position


def _noisy_value(child: Position, rng: random.Random, weights: np.ndarray[Any, Any]) -> float:
    """The move to ``child`` valued by the pattern evaluation plus noise (hundredths)."""
    value = -int(evaluate_leaf(np.uint64(child.mine), np.uint64(child.theirs), weights))
    return value + rng.gauss(0.0, 200.0)


def values(position: Position, depth: int, weights: np.ndarray[Any, Any]) -> list[int | None]:
    """The position's value (hundredths) at depths 0..``depth``; None for a game-end value."""
    out: list[int | None] = [None] * (depth + 1)
    out[0] = int(evaluate_leaf(np.uint64(position.mine), np.uint64(position.theirs), weights))

    def seen(result: SearchResult) -> None:
        if not result.exact:
            out[result.depth] = round(result.score * 100)

    search(
        position,
        depth=depth,
        exact_empties=0,
        table=TranspositionTable(1 << 18),
        weights=weights,
        on_iteration=seen,
    )
    return out


def _work(args: tuple[int, int, int]) -> list[tuple[int, list[int | None]]]:
    seed, count, depth = args
    rng = random.Random(seed)
    weights = load_weights()
    rows: list[tuple[int, list[int | None]]] = []
    while len(rows) < count:
        position = make_position(rng, weights)
        if position is not None:
            rows.append((position.empties, values(position, depth, weights)))
    return rows


def fit_line(
    shallow: np.ndarray[Any, Any], deep: np.ndarray[Any, Any]
) -> tuple[float, float, float]:
    """Least-squares ``deep = a * shallow + b``; returns ``(a, b, sigma)``, ``sigma`` the
    standard deviation of the residuals (two degrees of freedom taken by the line)."""
    x = np.asarray(shallow, dtype=float)
    y = np.asarray(deep, dtype=float)
    if len(x) < 3:
        raise ValueError("a line needs at least 3 points")
    design = np.column_stack([x, np.ones_like(x)])
    (a, b), *_ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - (a * x + b)
    sigma = float(np.sqrt(residual @ residual / (len(x) - 2)))
    return float(a), float(b), sigma


def fit_calibration(rows: list[tuple[int, list[int | None]]], depth: int) -> np.ndarray[Any, Any]:
    """The ProbCut calibration (see :func:`game.logic.reversi.pvs.load_probcut`) from ``rows`` of
    ``(empties, values at depths 0..depth)``; cells with too few positions get ``sigma = 0``."""
    calibration = np.zeros((BUCKETS, depth + 1, 4))
    for d in range(PC_MIN_DEPTH, depth + 1):
        s = shallow_depth(d)
        calibration[:, d, 0] = s
        for bucket in range(BUCKETS):
            pairs = [
                (v[s], v[d])
                for empties, v in rows
                if empties // PC_BUCKET == bucket and v[s] is not None and v[d] is not None
            ]
            if len(pairs) < MIN_SAMPLES:
                continue
            x, y = zip(*pairs, strict=True)
            a, b, sigma = fit_line(np.array(x), np.array(y))
            calibration[bucket, d, 1:] = (a, b, sigma)
    return calibration


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="positions to search")
    parser.add_argument("--depth", type=int, default=10, help="deepest depth calibrated")
    parser.add_argument("--seed", type=int, default=14, help="seed of the positions")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--out", default=str(_OUT), help="where to write the calibration (.npz)")
    args = parser.parse_args(argv)
    if args.depth < PC_MIN_DEPTH:
        parser.error(f"--depth must be at least {PC_MIN_DEPTH}")

    started = time.perf_counter()
    parts = 20 * args.jobs
    counts = [args.positions // parts + (i < args.positions % parts) for i in range(parts)]
    tasks = [(args.seed * 1000 + i, n, args.depth) for i, n in enumerate(counts) if n]
    rows: list[tuple[int, list[int | None]]] = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for part in pool.imap(_work, tasks):
            rows.extend(part)
    calibration = fit_calibration(rows, args.depth)
    command = " ".join(["python", "tools/reversi_probcut.py", *(argv or sys.argv[1:])])
    np.savez_compressed(args.out, calibration=calibration, command=np.array(command))
    print(f"positions={len(rows)} seconds={time.perf_counter() - started:.0f} out={args.out}")
    for bucket in range(BUCKETS):
        for d in range(PC_MIN_DEPTH, args.depth + 1):
            s, a, b, sigma = calibration[bucket, d]
            if sigma > 0:
                empties = f"{bucket * PC_BUCKET}-{bucket * PC_BUCKET + PC_BUCKET - 1}"
                print(
                    f"empties={empties} deep={d} shallow={int(s)}"
                    f" a={a:.3f} b={b:+.1f} sigma={sigma:.1f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
