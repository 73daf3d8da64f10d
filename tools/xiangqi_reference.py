"""Write ``tests/data/xiangqi_perft.txt``: perft counts of the published Xiangqi test
positions, counted by Fairy-Stockfish (through its Python binding, pyffish).

pyffish is not a dependency of the project: install it beside it to run this script
(``pip install pyffish``); the tests read only the file it writes.

    python tools/xiangqi_reference.py [--depth 4] [--cap 10000]

Each line of the file is a position in FEN (Xiangqi letters: K general, A advisor,
B elephant, N horse, R chariot, C cannon, P soldier; upper case for Red) followed by
``;`` and the counts from depth 1 on.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: The start and the ten positions of the chessprogramming wiki's Xiangqi perft list
#: ("Chinese Chess Perft Results"), as Fairy-Stockfish's own tests also use them.
POSITIONS = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w",
)
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "xiangqi_perft.txt"


def perft(sf: object, fen: str, depth: int) -> int:
    """Move paths of ``depth`` plies from ``fen``, each position set up anew from its FEN
    (pyffish has no make/unmake)."""
    moves = sf.legal_moves("xiangqi", fen, [])  # type: ignore[attr-defined]
    if depth == 1:
        return len(moves)
    return sum(
        perft(sf, sf.get_fen("xiangqi", fen, [m]), depth - 1)  # type: ignore[attr-defined]
        for m in moves
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=4, help="deepest count (default 4)")
    parser.add_argument(
        "--cap",
        type=int,
        default=10_000,
        help="go a depth deeper only from a count below this (default 10,000)",
    )
    args = parser.parse_args(argv)
    try:
        import pyffish as sf
    except ImportError:
        print("pyffish is not installed: pip install pyffish", file=sys.stderr)
        return 1
    version = ".".join(map(str, sf.version()))
    lines = [
        f"# Perft of Xiangqi positions counted by Fairy-Stockfish {version} (pyffish);"
        " written by tools/xiangqi_reference.py",
    ]
    for position in POSITIONS:
        fen = f"{position} - - 0 1"
        counts = [perft(sf, fen, 1)]
        while len(counts) < args.depth and counts[-1] < args.cap:
            counts.append(perft(sf, fen, len(counts) + 1))
        print(position, counts, file=sys.stderr)
        lines.append(f"{position} ; {' '.join(map(str, counts))}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
