"""Write ``tests/data/italian_perft.txt``: perft counts of Italian draughts counted by
pydraughts, from the start and from positions of seeded random games; with ``--variant``, the
same for another draughts variant pydraughts plays, as a second opinion on a shipped game.

pydraughts is not a dependency of the project: install it beside it to run this script
(``pip install pydraughts``); the tests read only the files it writes.

    python tools/italian_reference.py [--depth 3] [--positions 24]
    python tools/italian_reference.py --variant russian

Each line of a file is a position in PDN's FEN (``W:W21,K30:B1,2``: the side to move, then
each side's squares, ``K`` before a king) followed by ``;`` and the counts from depth 1 on. A
count is of move paths, as pydraughts lists moves: a capture is one move however many
pieces it takes, a finished game counts 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def perft(board: object, depth: int) -> int:
    """Move paths of ``depth`` plies from ``board`` (pydraughts' Board, played and taken back)."""
    moves = board.legal_moves()  # type: ignore[attr-defined]
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)  # type: ignore[attr-defined]
        total += perft(board, depth - 1)
        board.pop()  # type: ignore[attr-defined]
    return total


def random_position(draughts: object, variant: str, seed: int) -> str:
    """The position after a seeded random game of 10 to 60 plies (fewer where it ends)."""
    rng = random.Random(seed)
    board = draughts.Board(variant=variant)  # type: ignore[attr-defined]
    for _ in range(rng.randint(10, 60)):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    return str(board.fen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="italian", help="pydraughts' variant name")
    parser.add_argument("--out", type=Path, default=None, help="the file to write")
    parser.add_argument("--depth", type=int, default=3, help="deepest count (default 3)")
    parser.add_argument("--positions", type=int, default=24, help="random positions (24)")
    parser.add_argument(
        "--cap", type=int, default=20_000, help="go deeper only from a count below this"
    )
    args = parser.parse_args(argv)
    try:
        import draughts
    except ImportError:
        print("pydraughts is not installed: pip install pydraughts", file=sys.stderr)
        return 1
    out = args.out or DATA / f"{args.variant}_perft.txt"
    start = str(draughts.Board(variant=args.variant).fen)
    fens = [start] + [random_position(draughts, args.variant, s) for s in range(args.positions)]
    version = getattr(draughts, "__version__", "?")
    lines = [
        f"# Perft of {args.variant} draughts counted by pydraughts {version}: the start and"
        f" {args.positions} positions of seeded random games; written by"
        f" tools/italian_reference.py --variant {args.variant}"
    ]
    for fen in fens:
        board = draughts.Board(variant=args.variant, fen=fen)
        counts = [perft(board, 1)]
        while len(counts) < args.depth and 0 < counts[-1] < args.cap:
            counts.append(perft(board, len(counts) + 1))
        print(fen, counts, file=sys.stderr)
        lines.append(f"{fen} ; {' '.join(map(str, counts))}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
