"""Write ``tests/data/pentago_perft.txt``: perft counts of Pentago positions counted by
OpenSpiel (``pyspiel.load_game("pentago")``).

OpenSpiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/pentago_reference.py [--positions 24] [--cap 20000] [--seed 27]

One move is a marble placed and a quadrant turned, as OpenSpiel's 288 actions are: turning
an empty quadrant either way counts twice. The positions are the start and the positions
of seeded random games after 4 to 34 moves (games that ended before are played again with
the next seed). Each line is the position in the generic notation (``White: marble a1 ... /
Black: marble ... / White to move``; OpenSpiel's row 1, printed at the top, is row 1 here,
so the board is its mirror image, which plays the same) followed by ``;`` and the counts
from depth 1 on, a depth deeper only while the count stays below the cap, at most 3.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from spiel_perft import reference_main

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "pentago_perft.txt"
COLUMNS = "abcdef"
HEADER = (
    "Perft of Pentago positions counted by OpenSpiel (pyspiel, game pentago: a move is"
    " a placing and a turn); written by tools/pentago_reference.py"
)


def position_text(state: Any) -> str:
    """The state's board in the generic notation, read from OpenSpiel's own drawing."""
    rows = str(state).splitlines()[2:8]
    white, black = [], []
    for y, row in enumerate(rows):
        for x, cell in enumerate(row[4:16:2]):  # "v 1 . . O @ . O v": a cell every 2
            if cell == "O":
                white.append(f"{COLUMNS[x]}{y + 1}")
            elif cell == "@":
                black.append(f"{COLUMNS[x]}{y + 1}")
    side = "White" if state.current_player() == 0 else "Black"
    return f"White: marble {' '.join(white)} / Black: marble {' '.join(black)} / {side} to move"


def play(game: Any, rng: random.Random, index: int) -> Any:
    """A random game's position: every other one played late, where depth 3 is small enough
    to check."""
    state = game.new_initial_state()
    for _ in range(rng.randint(4, 34) if index % 2 else rng.randint(26, 34)):
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            break
    return state


def main(argv: list[str] | None = None) -> int:
    game, text, deepest, cap = "pentago", position_text, 3, 20_000
    return reference_main(__doc__, game, play, text, OUT, HEADER, deepest, cap, argv)


if __name__ == "__main__":
    sys.exit(main())
