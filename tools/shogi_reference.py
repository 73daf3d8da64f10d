"""Write ``tests/data/shogi_perft.txt``: perft counts of shogi positions, counted by cshogi.

cshogi is not a dependency of the project: install it beside it to run this script
(``pip install cshogi``); the tests read only the file it writes.

    python tools/shogi_reference.py [--games 24] [--seed 27]

The positions: the start (to depth 4; the published counts are 30, 900, 25470, 719731), a
few set up to try the drop rules (two pawns in a file, a pawn drop that would mate, pieces
that could never move again, forced and optional promotion), and positions taken from
random games that cshogi plays from the start with a seeded generator: one position a
game at a ply of 30 to 150, every one with pieces in hand, a third of them in check where
the game gives one. Each line of the file is a position in SFEN followed by ``;`` and the
counts from depth 1 on.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: Positions that try the rules one at a time.
SET_UP = (
    # A pawn dropped on 1b would mate the king on 1a (the gold on 2c guards it and holds
    # 2b): uchifuzume, refused; other drops of it, and its check without the gold, are not.
    "7nk/9/7G1/9/9/9/9/9/K8 b P 1",
    "7nk/9/9/9/9/9/9/9/K8 b P 1",
    # A pawn in file 5 forbids pawn drops there (nifu); a tokin does not.
    "4k4/9/9/9/4P4/9/2+P6/9/4K4 b P 1",
    # Every piece in hand for both sides on a nearly empty board.
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
    # Pawn, lance and knight about to reach the last ranks: forced and optional promotion.
    "4k4/P1L3N2/9/2N6/9/9/9/9/4K4 b - 1",
    # A rook and a bishop leaving the camp, a silver inside it.
    "3k5/1R3S3/9/5B3/9/9/9/9/4K4 b - 1",
)
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "shogi_perft.txt"


def perft(board: Any, depth: int) -> int:
    """Move paths of ``depth`` plies from ``board`` (cshogi's make and unmake)."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += perft(board, depth - 1)
        board.pop()
    return total


def random_positions(cshogi: Any, games: int, seed: int) -> list[str]:
    """One position from each of ``games`` random games, with pieces in hand, a third in
    check where the game passes through one."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < games:
        board = cshogi.Board()
        stop = rng.randrange(30, 150)
        want_check = len(out) % 3 == 0
        found = None
        for ply in range(stop + 60):
            moves = list(board.legal_moves)
            if not moves or board.is_draw() == cshogi.REPETITION_DRAW:
                break
            has_hand = any(any(h) for h in board.pieces_in_hand)
            if ply >= stop and has_hand and (board.is_check() or not want_check):
                found = board.sfen()
                break
            board.push(rng.choice(moves))
        if found is not None and found not in out:
            out.append(found)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="random positions (default 24)")
    parser.add_argument("--seed", type=int, default=27, help="the random games' seed")
    args = parser.parse_args(argv)
    try:
        import cshogi
    except ImportError:
        print("cshogi is not installed: pip install cshogi", file=sys.stderr)
        return 1
    lines = [
        "# Perft of shogi positions counted by cshogi (make and unmake, legal moves);"
        " written by tools/shogi_reference.py"
    ]
    plan = [(START, 4)] + [(s, 2 if "RB" in s else 3) for s in SET_UP]
    plan += [(s, 2) for s in random_positions(cshogi, args.games, args.seed)]
    for sfen, depth in plan:
        board = cshogi.Board(sfen)
        counts = [perft(board, d) for d in range(1, depth + 1)]
        print(sfen, counts, file=sys.stderr)
        lines.append(f"{sfen} ; {' '.join(map(str, counts))}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
