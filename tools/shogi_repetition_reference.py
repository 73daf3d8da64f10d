"""Write ``tests/data/shogi_repetition.txt``: lines of shogi moves that repeat a position,
and where python-shogi and cshogi end them.

python-shogi and cshogi are not dependencies of the project: install them beside it to run
this script (``pip install python-shogi cshogi``); the tests read only the file it writes.

    python tools/shogi_repetition_reference.py

Each line is played from its position, its cycle over and over: python-shogi says at which
ply the position stands for the fourth time (it counts the whole game, captures and drops
included), and cshogi's repetition status there says how the game ends: a draw, or a loss
for the side that gave check with every move of the cycle. Each line of the file is a
position in SFEN, ``;``, the moves in USI, ``;``, the ply of the end and the outcome for the
player who made that move (``draw``, ``win`` or ``loss``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: (position, one cycle of moves): each cycle brings the position back.
LINES = (
    # The kings step out and back: a plain fourth repetition.
    (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "5i5h 5a5b 5h5i 5b5a",
    ),
    # Black's rook checks at every move; the fourth time comes after White's move.
    ("4k4/R8/9/9/9/9/9/9/4K4 b - 1", "9b9a 5a5b 9a9b 5b5a"),
    # The same checks, the position counted with White to move: Black's move ends it.
    ("R3k4/9/9/9/9/9/9/9/4K4 w - 1", "5a5b 9a9b 5b5a 9b9a"),
    # White's rook checks at every move.
    ("4k4/9/9/9/9/9/9/r8/4K4 w - 1", "9h9i 5i5h 9i9h 5h5i"),
    # Black's rook checks at every other move only: a draw.
    ("4k4/9/R8/9/9/9/9/9/4K4 b - 1", "9c9a 5a5b 9a9c 5b5a"),
    # A cycle through captures and drops: pawns dropped, taken and dropped again.
    ("4k4/9/9/3s5/9/5S3/9/9/4K4 b P 1", "P*5e 6d5e 5i4i P*3e 4f3e 5e6d 3e4f 5a4a 4i5i 4a5a"),
    # A dragon (a promoted rook) checks at every move, the king steps aside each time.
    ("4k4/+R8/9/9/9/9/9/9/4K4 b - 1", "9b9a 5a5b 9a9b 5b5a"),
)
OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "shogi_repetition.txt"


def end_of(cshogi: Any, shogi: Any, sfen: str, cycle: list[str]) -> tuple[int, str]:
    """The ply at which the line's position stands for the fourth time and the outcome then,
    for the player who moved last."""
    board, other = cshogi.Board(sfen), shogi.Board(sfen)
    verdicts = {
        cshogi.REPETITION_DRAW: "draw",
        cshogi.REPETITION_WIN: "loss",  # the side to move wins: the last mover gave the checks
        cshogi.REPETITION_LOSE: "win",
    }
    for ply in range(1, 20 * len(cycle)):
        move = cycle[(ply - 1) % len(cycle)]
        if not board.is_legal(board.move_from_usi(move)):
            raise SystemExit(f"{sfen}: {move} is not legal at ply {ply}")
        board.push_usi(move)
        other.push_usi(move)
        if other.is_fourfold_repetition():
            return ply, verdicts[board.is_draw()]
    raise SystemExit(f"{sfen}: no fourth repetition")


def main() -> int:
    try:
        import cshogi
        import shogi
    except ImportError:
        print(
            "cshogi and python-shogi are needed: pip install cshogi python-shogi", file=sys.stderr
        )
        return 1
    lines = [
        "# Shogi lines ending by repetition: the fourth time counted by python-shogi, the"
        " outcome (for the last mover) by cshogi; written by tools/shogi_repetition_reference.py"
    ]
    for sfen, cycle in LINES:
        ply, outcome = end_of(cshogi, shogi, sfen, cycle.split())
        print(sfen, ply, outcome, file=sys.stderr)
        lines.append(f"{sfen} ; {cycle} ; {ply} {outcome}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
