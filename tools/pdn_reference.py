"""Write ``tests/data/records/``: PDN records of seeded draughts games as Gamehall writes
them, and ``pdn_reference.txt``, what pydraughts reads from each: how many moves its main
line has and the position it ends in.

pydraughts is not a dependency of the project: run this with a Python that has it
(``pip install pydraughts``), naming the Python that runs Gamehall (it writes the records:
``tests/records_sample.py``); the tests read only the files written here.

    python tools/pdn_reference.py --gamehall-python .venv/bin/python

Each line of ``pdn_reference.txt`` is ``GAME SEED PLIES ; MOVES ; FEN``: the record
``GAME-SEED.pdn`` (a random game of at most PLIES moves, with a variation), the moves
pydraughts read from its main line, and the position after them in PDN's FEN as pydraughts
writes it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "records"
#: (game, seed, plies): two games of each draughts game pydraughts plays.
GAMES = tuple(
    (game, seed, 40)
    for game in (
        "english-draughts",
        "international-draughts",
        "russian-draughts",
        "brazilian-draughts",
    )
    for seed in (7, 11)
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--gamehall-python",
        default=os.environ.get("GAMEHALL_PYTHON", "python3"),
        help="the Python that runs Gamehall (default $GAMEHALL_PYTHON or python3)",
    )
    args = parser.parse_args(argv)
    try:
        import draughts  # type: ignore[import-not-found]
        from draughts import Board, Move
        from draughts.PDN import PDNReader  # type: ignore[import-not-found]
    except ImportError:
        print("pydraughts is not installed: pip install pydraughts", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    version = getattr(draughts, "__version__", "")
    lines = [f"# PDN records of Gamehall read by pydraughts {version}".rstrip()
             + "; written by tools/pdn_reference.py"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for game, seed, plies in GAMES:
        text = subprocess.run(
            [args.gamehall_python, str(ROOT / "tests" / "records_sample.py"), game,
             str(seed), str(plies)],
            check=True, capture_output=True, text=True, env=env, cwd=ROOT,
        ).stdout  # fmt: skip
        path = OUT / f"{game}-{seed}.pdn"
        path.write_text(text, encoding="utf-8")
        read = PDNReader(filename=str(path)).games[0]
        board = Board(variant=read.variant)
        for move in read.moves:
            board.push(Move(board, pdn_move=move))
        lines.append(f"{game} {seed} {plies} ; {len(read.moves)} ; {board.fen}")
        print(lines[-1], flush=True)
    (OUT / "pdn_reference.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
