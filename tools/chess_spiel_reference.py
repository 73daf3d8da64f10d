"""Write ``tests/data/chess_spiel_perft.txt``: perft counts of chess positions counted by
OpenSpiel's ``chess`` (``pyspiel.load_game("chess")``), a second opinion beside the perft
positions ``tests/test_rules_perft.py`` holds.

OpenSpiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/chess_spiel_reference.py [--positions 24] [--cap 10000] [--seed 27]

The positions are the start and the positions of seeded random games of 10 to 60 plies
(games that ended before are played again with the next seed). Each is counted from its FEN
alone, as ``new_initial_state(fen)`` reads it, so that no repetition of the game before it
ends a path (OpenSpiel's chess draws on the third repetition; ours reads no history from a
FEN either). Each line is the FEN (OpenSpiel's state prints one) followed by ``;`` and the
counts from depth 1 on, a depth deeper only while the count stays below the cap, at most 3.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from spiel_perft import reference_main

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "chess_spiel_perft.txt"
HEADER = (
    "Perft of chess positions counted by OpenSpiel (pyspiel, game chess); written by"
    " tools/chess_spiel_reference.py"
)


def play(game: Any, rng: random.Random, index: int) -> Any:
    """A random game's position, as its FEN alone reads."""
    state = game.new_initial_state()
    for _ in range(rng.randint(10, 60)):
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            return None
    return game.new_initial_state(str(state))


def main(argv: list[str] | None = None) -> int:
    game, text, deepest, cap = "chess", str, 3, 10_000
    return reference_main(__doc__, game, play, text, OUT, HEADER, deepest, cap, argv)


if __name__ == "__main__":
    sys.exit(main())
