"""Write ``tests/data/breakthrough_spiel_perft.txt``: perft counts of Breakthrough positions
counted by OpenSpiel's ``breakthrough`` (``pyspiel.load_game("breakthrough")``, 8x8).

OpenSpiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/breakthrough_spiel_reference.py [--positions 24] [--cap 10000] [--seed 27]

OpenSpiel's rules are ours: a piece moves one square straight forward onto an empty square
or diagonally forward onto a square no friend holds, taking what is there; reaching the far
row or taking every enemy piece wins. Its first player is Black (``b``, rows 7 and 8, moving
down), ours White: the positions are written as they stand, Black on its rows and to move,
which our notation reads. The positions are the start and the positions of seeded random
games: of 10 to 60 plies (games that ended before are played again with the next seed),
and every other one 1 to 4 plies before its end, where paths end in wins. Each line is the
position in the generic notation (``White: Pawn a1 ... / Black: Pawn ... / Black to move``)
followed by ``;`` and the counts from depth 1 on, a depth deeper only while the count stays
below the cap, at most 3.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from spiel_perft import reference_main

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "breakthrough_spiel_perft.txt"
HEADER = (
    "Perft of Breakthrough positions counted by OpenSpiel (pyspiel, game breakthrough);"
    " written by tools/breakthrough_spiel_reference.py"
)


def position_text(state: Any) -> str:
    """The state's board in the generic notation, read from OpenSpiel's drawing."""
    white, black = [], []
    for line in str(state).splitlines()[:8]:  # "8bbbbbbbb": row 8 first, a cell a character
        for c, cell in enumerate(line[1:9]):
            square = f"{'abcdefgh'[c]}{line[0]}"
            if cell == "w":
                white.append(square)
            elif cell == "b":
                black.append(square)
    side = "Black" if state.current_player() == 0 else "White"
    return f"White: Pawn {' '.join(white)} / Black: Pawn {' '.join(black)} / {side} to move"


def play(game: Any, rng: random.Random, index: int) -> Any:
    """A random game's position: of 10 to 60 plies, or, every other one, 1 to 4 plies
    before its end, where a piece is a move or two from the far row and paths end in wins."""
    state = game.new_initial_state()
    if index % 2:
        for _ in range(rng.randint(10, 60)):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        return state
    actions = []
    while not state.is_terminal():
        actions.append(rng.choice(state.legal_actions()))
        state.apply_action(actions[-1])
    state = game.new_initial_state()
    for action in actions[: -rng.randint(1, 4)]:
        state.apply_action(action)
    return state


def main(argv: list[str] | None = None) -> int:
    game, text, deepest, cap = "breakthrough", position_text, 3, 10_000
    return reference_main(__doc__, game, play, text, OUT, HEADER, deepest, cap, argv)


if __name__ == "__main__":
    sys.exit(main())
