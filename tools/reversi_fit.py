"""Fit the Reversi pattern weights to labelled positions and write the shipped weights file.

    python tools/reversi_fit.py .data/positions_s1.npz --seed 1 \\
        --out game/logic/reversi/data/patterns.npz

Reads one or more ``.npz`` files of :mod:`tools.reversi_data`, keeps a tenth of the games
aside (chosen by ``--seed``) and fits, phase by phase, the weights of
:mod:`game.logic.reversi.patterns` by regularised least squares: minimise
``sum s_i (x_i . w - y_i)^2 + lam * |w_patterns|^2 + lam_scalar * |w_scalars|^2``, ``y`` the
label in discs. A phase is fitted on its own positions (weight 1) and on those of the two
neighbouring phases (weight ``--neighbour``), which smooths the weights across phases. The
solver is conjugate gradients on the normal equations with a diagonal preconditioner, numpy
only. Weights are written in hundredths of a disc as ``int16``; the held-out mean absolute
error, per phase group, is printed next to today's evaluation
(:mod:`game.logic.reversi.evaluation`) on the same positions.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.logic.reversi import evaluation  # noqa: E402
from game.logic.reversi import patterns as pat  # noqa: E402

Array = np.ndarray[Any, Any]


def fit_sparse(
    cols: Array,
    vals: Array,
    y: Array,
    sample_weight: Array,
    size: int,
    penalty: Array,
    iterations: int = 200,
    tol: float = 1e-6,
) -> Array:
    """Solve ``(X^T S X + diag(penalty)) w = X^T S y`` by preconditioned conjugate gradients.

    Row ``i`` of the sparse ``X`` has the values ``vals[i]`` in the columns ``cols[i]``;
    ``size`` is the number of columns, ``penalty`` the L2 weight of each column.
    """
    flat_cols = cols.ravel()

    def xt(u: Array) -> Array:
        return np.bincount(flat_cols, weights=(vals * u[:, None]).ravel(), minlength=size)

    def a_mul(w: Array) -> Array:
        return xt(sample_weight * (w[cols] * vals).sum(axis=1)) + penalty * w

    b = xt(sample_weight * y)
    diag = np.bincount(
        flat_cols, weights=(vals * vals * sample_weight[:, None]).ravel(), minlength=size
    )
    diag = diag + penalty
    diag[diag == 0] = 1.0
    w = np.zeros(size)
    r = b.copy()
    z = r / diag
    d = z.copy()
    rz = float(r @ z)
    b_norm = float(np.linalg.norm(b)) or 1.0
    for _ in range(iterations):
        ad = a_mul(d)
        step = rz / float(d @ ad)
        w += step * d
        r -= step * ad
        if float(np.linalg.norm(r)) < tol * b_norm:
            break
        z = r / diag
        rz_new = float(r @ z)
        d = z + (rz_new / rz) * d
        rz = rz_new
    return w


def design(mine: Array, theirs: Array) -> tuple[Array, Array]:
    """The sparse rows of the positions: pattern entries (value 1), then the scalar terms."""
    idx, sc = pat.batch_features(mine, theirs)
    n = len(mine)
    scalar_cols = np.broadcast_to(
        np.arange(pat.TABLE_SIZE - len(pat.SCALARS), pat.TABLE_SIZE), (n, len(pat.SCALARS))
    )
    cols = np.concatenate([idx, scalar_cols], axis=1)
    vals = np.concatenate([np.ones(idx.shape), sc.astype(float)], axis=1)
    return cols, vals


def fit_all(
    mine: Array,
    theirs: Array,
    score: Array,
    lam: float,
    lam_scalar: float,
    neighbour: float,
    iterations: int,
) -> Array:
    """Weights ``(N_PHASES, TABLE_SIZE)`` in discs (float), one fit per phase."""
    empties = 64 - np.array(
        [bin(int(m) | int(t)).count("1") for m, t in zip(mine, theirs, strict=True)]
    )
    phase = np.minimum(empties // pat.PHASE_STEP, pat.N_PHASES - 1)
    cols, vals = design(mine, theirs)
    y = score.astype(float)
    penalty = np.full(pat.TABLE_SIZE, lam)
    penalty[pat.TABLE_SIZE - len(pat.SCALARS) :] = lam_scalar
    out = np.zeros((pat.N_PHASES, pat.TABLE_SIZE))
    for k in range(pat.N_PHASES):
        near = np.abs(phase - k) <= 1
        if not near.any():
            continue
        sw = np.where(phase[near] == k, 1.0, neighbour)
        out[k] = fit_sparse(
            cols[near], vals[near], y[near], sw, pat.TABLE_SIZE, penalty, iterations
        )
    return out


def old_evaluation(mine: Array, theirs: Array) -> Array:
    """Today's feature evaluation of the positions, in discs."""
    return np.array(
        [
            evaluation._evaluate(np.uint64(m), np.uint64(t), evaluation.WEIGHTS) / 100
            for m, t in zip(mine, theirs, strict=True)
        ]
    )


def new_evaluation(mine: Array, theirs: Array, table: Array) -> Array:
    """The pattern evaluation with the expanded ``int16`` table, in discs."""
    return np.array(
        [
            pat.evaluate_bits(np.uint64(m), np.uint64(t), table) / 100
            for m, t in zip(mine, theirs, strict=True)
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help=".npz files of tools/reversi_data.py")
    parser.add_argument("--seed", type=int, default=1, help="seed of the held-out split")
    parser.add_argument("--lam", type=float, default=10.0, help="L2 penalty, pattern weights")
    parser.add_argument("--lam-scalar", type=float, default=1.0, help="L2 penalty, scalars")
    parser.add_argument("--neighbour", type=float, default=0.5, help="weight of next phases")
    parser.add_argument("--iterations", type=int, default=150, help="CG iterations per phase")
    parser.add_argument("--holdout", type=float, default=0.1, help="share of games held out")
    parser.add_argument("--out", default="patterns.npz", help="weights file to write")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    parts = [np.load(path) for path in args.data]
    mine = np.concatenate([p["mine"] for p in parts])
    theirs = np.concatenate([p["theirs"] for p in parts])
    score = np.concatenate([p["score"] for p in parts]).astype(np.int64)
    game = np.concatenate([p["game"].astype(np.int64) + 1_000_000 * i for i, p in enumerate(parts)])
    rng = np.random.default_rng(args.seed)
    games = np.unique(game)
    held = rng.choice(games, size=max(1, int(len(games) * args.holdout)), replace=False)
    test = np.isin(game, held)
    train = ~test

    weights = fit_all(
        mine[train],
        theirs[train],
        score[train],
        args.lam,
        args.lam_scalar,
        args.neighbour,
        args.iterations,
    )
    quantised = np.clip(np.round(weights * 100), -32000, 32000).astype(np.int16)
    # keep only canonical entries: the loader copies them onto their mirror images
    keep = np.zeros(pat.TABLE_SIZE, dtype=bool)
    keep[np.unique(pat.CANONICAL)] = True
    quantised[:, ~keep] = 0
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        weights=quantised,
        table_size=np.array(pat.TABLE_SIZE),
        seed=np.array(args.seed),
        lam=np.array(args.lam),
        positions=np.array(int(train.sum())),
    )

    table = pat.expand_weights(quantised)
    tm, tt, ts = mine[test], theirs[test], score[test]
    new = new_evaluation(tm, tt, table)
    old = old_evaluation(tm, tt)
    empties = 64 - np.array([bin(int(m) | int(t)).count("1") for m, t in zip(tm, tt, strict=True)])
    print(
        f"fit positions={int(train.sum())} held_out={int(test.sum())} lam={args.lam}"
        f" seconds={time.perf_counter() - started:.0f} out={args.out}"
        f" bytes={Path(args.out).stat().st_size}"
    )
    for lo, hi in ((0, 16), (17, 30), (31, 44), (45, 60), (0, 60)):
        sel = (empties >= lo) & (empties <= hi)
        if sel.any():
            print(
                f"held_out empties={lo}-{hi} n={int(sel.sum())}"
                f" mae_patterns={np.abs(new[sel] - ts[sel]).mean():.2f}"
                f" mae_features={np.abs(old[sel] - ts[sel]).mean():.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
