"""Write ``tests/data/oware_perft.txt``: perft counts of Oware positions counted by OpenSpiel
(``pyspiel.load_game("oware")``: Oware Abapa, six pits a side, four seeds each).

OpenSpiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/oware_reference.py [--positions 24] [--cap 20000] [--seed 27]

The positions are the start and the positions of seeded random games after 5 to 80 moves
(every other one after 60 to 200), at the first capture from there (a game that ended
before is played again with the next seed): OpenSpiel ends a game when a board comes back
since the last capture, which this engine's perft does not look at (as for every described
game), and just after a capture no earlier board can come back. Each line is the position
in the generic notation of a game of counters (``Seed: s1 4, ... n6 4, S 2, N 0 / South to
move``: OpenSpiel's houses A-F are s1-s6, a-f are n1-n6, its scores the stores S and N)
followed by ``;`` and the counts from depth 1 on, a depth deeper only while the count stays
below the cap, at most 6. A finished game ends its paths, as OpenSpiel's are.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from spiel_perft import reference_main

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oware_perft.txt"
HEADER = (
    "Perft of Oware positions counted by OpenSpiel (pyspiel, game oware);"
    " written by tools/oware_reference.py"
)


def position_text(state: Any) -> str:
    """The state's pits and scores in the generic notation, read from OpenSpiel's drawing."""
    lines = [line for line in str(state).splitlines() if line != "[FINISHED]"]
    north = [int(n) for n in lines[2].split()]  # houses 11 .. 6, drawn right to left
    south = [int(n) for n in lines[3].split()]  # houses 0 .. 5
    scores = {int(line.split()[1]): int(line.split()[4]) for line in (lines[0], lines[5])}
    counts = {f"s{i + 1}": n for i, n in enumerate(south)}
    counts |= {f"n{i + 1}": n for i, n in enumerate(reversed(north))}
    counts |= {"S": scores[0], "N": scores[1]}
    seeds = ", ".join(f"{name} {n}" for name, n in counts.items() if n)
    side = "South" if state.current_player() == 0 else "North"
    return f"Seed: {seeds} / {side} to move"


def _taken(state: Any) -> int:
    """The seeds both players have taken so far."""
    lines = [line for line in str(state).splitlines() if line != "[FINISHED]"]
    return int(lines[0].split()[4]) + int(lines[5].split()[4])


def play(game: Any, rng: random.Random, index: int) -> Any:
    """A random game's position: every other one played long, into the ending (feeding,
    grand slams); then on to the next capture."""
    state = game.new_initial_state()
    plies = rng.randint(5, 80) if index % 2 else rng.randint(60, 200)
    while not state.is_terminal():
        taken = _taken(state)
        state.apply_action(rng.choice(state.legal_actions()))
        plies -= 1
        if plies <= 0 and _taken(state) > taken:
            break
    return state


def main(argv: list[str] | None = None) -> int:
    game, text, deepest, cap = "oware", position_text, 6, 20_000
    return reference_main(__doc__, game, play, text, OUT, HEADER, deepest, cap, argv)


if __name__ == "__main__":
    sys.exit(main())
