"""Reversi: search speed, then a match of our strongest level against the classic AI.

    python benchmarks/reversi_strength.py                 # 40 games, 1 s a move, 2 processes
    python benchmarks/reversi_strength.py --games 10 --time 0.2
    python benchmarks/reversi_strength.py --games 0       # search speed only
    python benchmarks/reversi_strength.py --games 0 --speed-level grandmaster  # its options
    python benchmarks/reversi_strength.py --fit weights.npy   # re-derive the evaluation weights
    python benchmarks/reversi_strength.py --a grandmaster --b master --games 200 --time 0.1 \
        --jobs 1 --positions 0 --seed 14     # the pattern evaluation against today's features

First one line per mid-game position: the depth reached in ``--time`` seconds, the nodes and
the nodes per second (exact solving turned off, so only the midgame search is measured). Then
the match, a tournament of the generic runner (:func:`game.logic.tournament.run_tournament`,
as ``gamehall tournament reversi`` plays it): each random 2-6 ply opening is played twice,
each level taking Black once. One line per game, then a line per level
(``agent=master ... score=0.xx``, a draw counting half; the target for ``master`` against
``classic-expert`` at 1 s a move is ``score >= 0.90``), and ``winrates=...`` last. Progress
goes to stderr when it is a terminal.

``--fit OUT`` re-derives :data:`game.logic.reversi.evaluation.WEIGHTS` the way they were made:
``--fit-rounds`` rounds of ``--fit-games`` self-play games each (2 to 24 plies of noisy
one-ply play, then a 3-ply search with the current weights and perfect play over the last 14
squares), every position after the noisy plies labelled with the game's final disc difference
for its side to move, then a least-squares fit of the features with the evaluation's phase
interpolation (and a penalty on jumps between neighbouring phase points). The first round
plays with the hand-set weights, each next one with the weights of the round before. The
last weights are saved to ``OUT`` (numpy) and printed.
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
sys.path.insert(0, str(ROOT))

from game import registry  # noqa: E402
from game.logic.contract import Limits  # noqa: E402
from game.logic.reversi.board import PASS, Color, Position, square_name  # noqa: E402
from game.logic.reversi.evaluation import (  # noqa: E402
    FEATURES,
    HAND_WEIGHTS,
    PHASE_STEP,
    evaluate,
    feature_vector,
)
from game.logic.reversi.patterns import load_weights  # noqa: E402
from game.logic.reversi.players import SearchPlayer, get_player  # noqa: E402
from game.logic.reversi.search import TranspositionTable, search  # noqa: E402
from game.logic.tournament import PlayedGame, run_tournament  # noqa: E402


def midgame_positions(count: int, seed: int = 2024) -> list[Position]:
    """Positions after 16 to 30 random plies (reproducible)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        position = Position.start()
        for _ in range(rng.randint(16, 30)):
            if position.is_terminal():
                break
            position = position.apply(rng.choice(position.legal_moves()))
        if not position.is_terminal() and position.legal_moves() != [PASS]:
            out.append(position)
    return out


def measure_speed(seconds: float, count: int, level: str | None = None) -> None:
    """Depth and speed on ``count`` positions; ``level`` names a player whose search options
    (evaluation, aspiration, ProbCut) are used, by default the plain search."""
    options: dict[str, Any] = {}
    if level is not None:
        player = get_player(level)
        if not isinstance(player, SearchPlayer):
            raise SystemExit(f"{level} does not use our search")
        options = {
            "weights": load_weights() if player.patterns else None,
            "aspiration": player.aspiration,
            "probcut": player.probcut,
        }
    search(Position.start(), depth=3, exact_empties=0, **options)  # compile (or load) first
    total_nodes = 0
    total_time = 0.0
    for i, position in enumerate(midgame_positions(count)):
        result = search(
            position,
            time_limit=seconds,
            exact_empties=0,
            table=TranspositionTable(1 << 20),
            **options,
        )
        total_nodes += result.nodes
        total_time += result.seconds
        print(
            f"position={i} empties={position.empties} depth={result.depth}"
            f" move={square_name(result.move)} score={result.score:+.2f}"
            f" nodes={result.nodes} seconds={result.seconds:.2f} nps={result.nps:,.0f}"
        )
    print(f"search_nps mean={total_nodes / total_time:,.0f}")


def self_play(seed: int, weights: np.ndarray[Any, Any]) -> list[tuple[int, int, int]]:
    """One self-play game: ``(mine, theirs, final disc difference for mine)`` per position."""
    rng = random.Random(seed)
    table = TranspositionTable(1 << 16)
    position = Position.start()
    noisy_plies = rng.randint(2, 24)
    seen: list[tuple[int, int, int]] = []
    ply = 0
    while not position.is_terminal():
        moves = position.legal_moves()
        if moves == [PASS]:
            move = PASS
        elif ply < noisy_plies:
            move = max(moves, key=lambda m: _noisy_value(position.apply(m), rng))
        else:
            sign = 1 if position.to_move is Color.BLACK else -1
            seen.append((position.mine, position.theirs, sign))
            move = search(position, depth=3, exact_empties=14, table=table, weights=weights).move
        position = position.apply(move)
        ply += 1
    final = position.score()
    return [(mine, theirs, sign * final) for mine, theirs, sign in seen]


def _noisy_value(child: Position, rng: random.Random) -> float:
    value = 100.0 if child.is_terminal() else -evaluate(child)
    return value + rng.gauss(0.0, 3.0)


def _self_play_many(args: tuple[list[int], np.ndarray[Any, Any]]) -> list[tuple[int, int, int]]:
    seeds, weights = args
    return [row for seed in seeds for row in self_play(seed, weights)]


def fit_weights(rows: list[tuple[int, int, int]], smooth: float = 100.0) -> np.ndarray[Any, Any]:
    """Least-squares weights (hundredths of a disc) predicting the labels of ``rows``."""
    phases = 60 // PHASE_STEP + 1
    n = len(FEATURES) * phases
    a = np.zeros((n, n))
    b = np.zeros(n)
    for start in range(0, len(rows), 20_000):
        chunk = rows[start : start + 20_000]
        raw = np.array([feature_vector(mine, theirs) for mine, theirs, _ in chunk], dtype=float)
        empties = np.minimum(raw[:, -1], 60)
        k = (empties // PHASE_STEP).astype(int)
        t = (empties - k * PHASE_STEP) / PHASE_STEP
        k2 = np.minimum(k + 1, phases - 1)
        x = np.zeros((len(chunk), n))
        rows_index = np.arange(len(chunk))
        for i in range(len(FEATURES)):
            np.add.at(x, (rows_index, i * phases + k), raw[:, i] * (1 - t))
            np.add.at(x, (rows_index, i * phases + k2), raw[:, i] * t)
        y = np.array([label for _, _, label in chunk], dtype=float) * 100
        a += x.T @ x
        b += x.T @ y
    # Penalise differences between neighbouring phase points of a feature, and size a little.
    jumps = np.zeros((len(FEATURES) * (phases - 1), n))
    for i in range(len(FEATURES)):
        for k in range(phases - 1):
            jumps[i * (phases - 1) + k, i * phases + k] = 1
            jumps[i * (phases - 1) + k, i * phases + k + 1] = -1
    a += smooth * jumps.T @ jumps + 10 * np.eye(n)
    weights = np.linalg.solve(a, b).reshape(len(FEATURES), phases)
    return np.round(weights).astype(np.int32)


def fit(out: str, games: int, rounds: int, jobs: int, seed: int) -> None:
    weights = HAND_WEIGHTS
    for r in range(rounds):
        started = time.perf_counter()
        seeds = list(range(seed + r * games, seed + (r + 1) * games))
        parts = [(seeds[i::50], weights) for i in range(50)]
        rows: list[tuple[int, int, int]] = []
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for part in pool.imap_unordered(_self_play_many, parts):
                rows.extend(part)
        weights = fit_weights(rows)
        print(
            f"fit round={r} games={games} positions={len(rows)}"
            f" seconds={time.perf_counter() - started:.0f}"
        )
    np.save(out, weights)
    for name, row in zip(FEATURES, weights, strict=True):
        print(f"{name:>20} {' '.join(f'{v:6d}' for v in row)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="master", help="first player (default: master)")
    parser.add_argument("--b", default="classic-expert", help="second player")
    parser.add_argument("--games", type=int, default=40, help="games to play (0: speed only)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the match")
    parser.add_argument("--seed", type=int, default=0, help="seed of the openings")
    parser.add_argument("--positions", type=int, default=4, help="positions for the speed test")
    parser.add_argument("--speed-level", help="level whose search options the speed test uses")
    parser.add_argument("--fit", metavar="OUT", help="fit the evaluation weights, save to OUT")
    parser.add_argument("--fit-games", type=int, default=6000, help="self-play games per round")
    parser.add_argument("--fit-rounds", type=int, default=2, help="rounds of play and fit")
    args = parser.parse_args(argv)

    if args.fit:
        fit(args.fit, args.fit_games, args.fit_rounds, args.jobs, args.seed)
        return 0

    if args.positions > 0:
        measure_speed(args.time, args.positions, args.speed_level)
    if args.games <= 0:
        return 0

    started = time.perf_counter()
    tty = sys.stderr.isatty()

    def progress(done: int, total: int, record: PlayedGame) -> None:
        if tty:
            print(
                f"\r{done}/{total} games, last {record.seats[0]} (X) vs {record.seats[1]} (O):"
                f" {record.result}   ",
                end="" if done < total else "\n",
                file=sys.stderr,
                flush=True,
            )

    result = run_tournament(
        registry.get("reversi"),
        [args.a, args.b],
        args.games,
        limits=Limits(time=args.time),
        jobs=args.jobs,
        seed=args.seed,
        progress=progress,
    )
    for game in result.games:
        black, white = game.seats
        print(f"game={game.index} black={black} white={white} result={game.result}")
    print(f"match a={args.a} b={args.b} seconds={time.perf_counter() - started:.0f}")
    for line in result.lines():
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
