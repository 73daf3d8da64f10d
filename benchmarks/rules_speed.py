"""Described games: the speed figures of the rulebook. Prints one line per figure.

    .venv/bin/python benchmarks/rules_speed.py            # everything (a few minutes)
    .venv/bin/python benchmarks/rules_speed.py --quick    # smaller depths

- ``chess perft(4)`` of the described chess beside python-chess (``chess`` on PyPI, the
  test extra) in the same run, both counting the last ply in bulk (python-chess's
  ``legal_moves.count()``) and python-chess also making every last move (push/pop);
- ``English draughts perft(9)`` and ``International draughts perft(7)``, against the
  hand-written Python baselines of 51 s and 16 s measured on a 2-core machine like this one;
- random playouts a second (tic-tac-toe, English and International draughts, Othello,
  chess), against the targets 2,000 / 50 / 15 / 30 / 1;
- each description's length in lines (at most 150, chess 200).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.logic.rules.bench import run_playouts  # noqa: E402
from game.logic.rules.catalogue import design, rulebook, shipped  # noqa: E402

PLAYOUT_TARGETS = {
    "tic-tac-toe": 2000,
    "english-draughts": 50,
    "international-draughts": 15,
    "othello": 30,
    "chess": 1,
}
BASELINES = {"english-draughts": (9, 51.0), "international-draughts": (7, 16.0)}


def _timed(run, repeats: int = 2) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    best, result = float("inf"), 0
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


def chess_perft(board, d: int, in_bulk: bool = True) -> int:  # type: ignore[no-untyped-def]
    """python-chess's perft: the last ply counted in bulk (``legal_moves.count()``), or
    (``in_bulk`` false) every last move made and taken back too."""
    if d == 0 or (in_bulk and d == 1):
        return 1 if d == 0 else int(board.legal_moves.count())
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, d - 1, in_bulk)
        board.pop()
    return total


def chess_lines(depth: int) -> list[str]:
    e = rulebook("chess")
    ours, nodes = _timed(lambda: e.perft(e.start(), depth))
    lines = [f"game=chess perft_depth={depth} nodes={nodes} seconds={ours:.3f}"]
    try:
        import chess
    except ImportError:
        return [*lines, "python-chess is not installed (pip install chess): no comparison"]

    theirs_bulk, n1 = _timed(lambda: chess_perft(chess.Board(), depth))
    theirs_full, n2 = _timed(lambda: chess_perft(chess.Board(), depth, in_bulk=False))
    assert n1 == n2 == nodes, (n1, n2, nodes)
    lines.append(
        f"python-chess {chess.__version__} perft_depth={depth} bulk_seconds={theirs_bulk:.3f} "
        f"push_pop_seconds={theirs_full:.3f} ratio_vs_bulk={ours / theirs_bulk:.2f} "
        f"ratio_vs_push_pop={ours / theirs_full:.2f}"
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths and counts")
    args = parser.parse_args()
    for line in chess_lines(3 if args.quick else 4):
        print(line, flush=True)
    for game, (depth, baseline) in BASELINES.items():
        depth = depth - 2 if args.quick else depth
        e = rulebook(game)
        seconds, nodes = _timed(lambda e=e, depth=depth: e.perft(e.start(), depth), 1)
        note = f" baseline_s={baseline:g} ratio={seconds / baseline:.2f}" if not args.quick else ""
        print(f"game={game} perft_depth={depth} nodes={nodes} seconds={seconds:.2f}{note}",
              flush=True)  # fmt: skip
    for game, target in PLAYOUT_TARGETS.items():
        games = max(5, min(2000, target * (2 if args.quick else 10)))
        plies, seconds = run_playouts(rulebook(game), games, random.Random(1))
        print(
            f"game={game} playouts={games} playouts_per_s={games / seconds:.1f} "
            f"plies_per_s={plies / seconds:.0f} target_per_s={target}",
            flush=True,
        )
    for game in shipped():
        d = design(game)
        print(f"game={game} description_lines={d.lines} limit={200 if game == 'chess' else 150}")


if __name__ == "__main__":
    main()
