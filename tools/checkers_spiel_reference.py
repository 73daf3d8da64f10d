"""Write ``tests/data/checkers_spiel_perft.txt``: perft counts of English draughts positions
counted by OpenSpiel's ``checkers`` (``pyspiel.load_game("checkers")``), a second opinion
beside pydraughts' (``tests/data/english_perft.txt``).

OpenSpiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/checkers_spiel_reference.py [--positions 24] [--cap 20000] [--seed 27]

OpenSpiel's checkers is English draughts on 8x8 (men move and capture forward only, kings
one square, a capture is compulsory, a crowned man's move ends), but it splits a multi-jump
into one action a jump, the same player moving again. Here a move is the whole run of one
player's actions, so its counts are counted in whole moves, as ours are; two runs of jumps
by different paths count twice, as ``(identity path)`` does. OpenSpiel also ends a game
drawn after 40 moves without a capture, which ours does not: the random positions are taken
at most 30 actions after the last capture, so that no path counted here meets that draw.

OpenSpiel's first player (``o``, kings ``8``) starts on rows 1 to 3 and moves up; ours,
Black, starts on squares 1 to 12 and moves down, so the board is turned half round: its
column c, row r is our column 7 - c, row 9 - r, in PDN's numbering from the top left. Each
line is the position in PDN's FEN (``B:B1,K5:W30``) followed by ``;`` and the counts from
depth 1 on, a depth deeper only while the count stays below the cap, at most 3.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from spiel_perft import reference_main

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "checkers_spiel_perft.txt"
#: OpenSpiel's letters: (ours, king) for each of its pieces.
PIECES = {"o": ("B", False), "8": ("B", True), "+": ("W", False), "*": ("W", True)}
#: Random positions are taken at most this many actions after the last capture.
QUIET = 30
HEADER = (
    "Perft of English draughts positions counted by OpenSpiel (pyspiel, game checkers,"
    " a multi-jump's actions joined into one move); written by"
    " tools/checkers_spiel_reference.py"
)


def whole_moves(state: Any) -> list[Any]:
    """The states after each whole move of the player to move: a run of its actions."""
    out = []
    player = state.current_player()
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:
            out.extend(whole_moves(child))
        else:
            out.append(child)
    return out


def perft(state: Any, depth: int) -> int:
    """Paths of ``depth`` whole moves from ``state`` (a finished game ends its paths: 0)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    children = whole_moves(state)
    if depth == 1:
        return len(children)
    return sum(perft(child, depth - 1) for child in children)


def pieces_left(state: Any) -> int:
    """The pieces on the state's board."""
    return sum(str(state).count(letter) for letter in PIECES)


def position_text(state: Any) -> str:
    """The state's board in PDN's FEN, read from OpenSpiel's drawing, turned half round."""
    rows = str(state).splitlines()[:8]  # "8.+.+.+.+": row 8 first, a cell a character
    squares: dict[str, list[tuple[int, str]]] = {"B": [], "W": []}
    for line in rows:
        r = int(line[0])
        for c, cell in enumerate(line[1:9]):
            if cell in PIECES:
                colour, king = PIECES[cell]
                x, y = 7 - c, 8 - r  # ours, 0-based from a1
                number = (7 - y) * 4 + x // 2 + 1
                squares[colour].append((number, f"{'K' if king else ''}{number}"))
    side = "B" if state.current_player() == 0 else "W"
    black, white = (",".join(name for _, name in sorted(squares[c])) for c in "BW")
    return f"{side}:B{black}:W{white}"


def play(game: Any, rng: random.Random, index: int) -> Any:
    """A random game's position after 10 to 60 whole moves, or None where its last capture
    is more than ``QUIET`` actions back."""
    state = game.new_initial_state()
    quiet_since = 0  # the number of actions played at the last capture
    for _ in range(rng.randint(10, 60)):
        pieces = pieces_left(state)
        state = rng.choice(whole_moves(state))
        if pieces_left(state) < pieces:
            quiet_since = len(state.history())
        if state.is_terminal():
            break
    return state if len(state.history()) - quiet_since <= QUIET else None


def main(argv: list[str] | None = None) -> int:
    game, text, deepest, cap = "checkers", position_text, 3, 20_000
    return reference_main(__doc__, game, play, text, OUT, HEADER, deepest, cap, argv, perft)


if __name__ == "__main__":
    sys.exit(main())
