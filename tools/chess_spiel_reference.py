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

import argparse
import random
import sys
from pathlib import Path

from spiel_perft import write_counts

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "chess_spiel_perft.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=24, help="random positions (24)")
    parser.add_argument("--cap", type=int, default=10_000, help="deeper only below (10,000)")
    parser.add_argument("--seed", type=int, default=27, help="the first game's seed (27)")
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel", file=sys.stderr)
        return 1
    game = pyspiel.load_game("chess")
    states = [game.new_initial_state()]
    seed = args.seed
    while len(states) < args.positions + 1:
        rng = random.Random(seed)
        seed += 1
        state = game.new_initial_state()
        for _ in range(rng.randint(10, 60)):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        if not state.is_terminal():
            states.append(game.new_initial_state(str(state)))
    write_counts(
        OUT,
        "Perft of chess positions counted by OpenSpiel (pyspiel, game chess); written by"
        " tools/chess_spiel_reference.py",
        states,
        str,
        3,
        args.cap,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
