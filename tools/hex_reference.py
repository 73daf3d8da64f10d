"""Write ``tests/data/hex_perft.txt``: move counts of Hex positions counted by OpenSpiel's
``hex`` (its Python binding, pyspiel): the start and positions of seeded random games, on
boards of 3 to 7 cells a side, many near their end where a move wins.

open_spiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/hex_reference.py [--games 24] [--seed 27]

Each line is ``SIDE ; MOVES ; COUNTS``: the board's side, the stones placed from the empty
board as the description names the cells (column letter, row number; OpenSpiel's row r is
row r + 1, its first player joins the first and last rows as Red does), and the move paths
from there at depth 1, 2, ...; a finished game ends its paths, counting 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from go_reference import counted_line, start

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "hex_perft.txt"


def main(argv: list[str] | None = None) -> int:
    started = start(__doc__ or "", argv)
    if started is None:
        return 1
    args, pyspiel, rng = started
    lines = [
        "# Move counts of Hex positions by OpenSpiel's hex (pyspiel); written by"
        " tools/hex_reference.py",
        "# SIDE ; MOVES (cells, column letter and row) ; COUNTS from depth 1",
    ]
    cases: list[tuple[int, list[int]]] = [(side, []) for side in (3, 4, 5)]
    while len(cases) < 3 + args.games:
        side = rng.randrange(3, 8)
        game = pyspiel.load_game("hex", {"num_cols": side, "num_rows": side})
        state = game.new_initial_state()
        actions: list[int] = []
        # Stop a few stones short of the end, often just one: a move then may win.
        plies = rng.randrange(1, side * side)
        while len(actions) < plies:
            action = rng.choice(state.legal_actions())
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                break
            state = child
            actions.append(action)
        cases.append((side, actions))
    for side, actions in cases:
        game = pyspiel.load_game("hex", {"num_cols": side, "num_rows": side})
        depth = 3 if side * side - len(actions) <= 30 else 2
        moves = " ".join(f"{chr(97 + a % side)}{a // side + 1}" for a in actions)
        lines.append(counted_line(game, side, actions, moves, depth))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
