"""Write ``tests/data/go_perft.txt``: move counts of Go positions counted by OpenSpiel's
``go`` (its Python binding, pyspiel), from the start of three boards and from positions of
seeded random games on 9 x 9, half of them with a ko to retake that the last move closed.

open_spiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/go_reference.py [--games 24] [--seed 27]

Each line is ``SIZE ; MOVES ; COUNTS``: the board's size, the moves from the empty board in
SGF's coordinates (``dd``: column then row, ``a`` at the top left; ``-`` for a pass), and the
move paths from there at depth 1, 2, ... as OpenSpiel counts them: a pass is a move, a
finished game (two passes, a board repeated, the move limit) ends its paths, counting 0.
The game is OpenSpiel's default but for the size: komi 7.5, no handicap.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from spiel_perft import perft

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "go_perft.txt"


def counted_line(game: Any, size: int, actions: list[int], moves: str, depth: int) -> str:
    """The data line of the position ``actions`` reach in ``game``: ``SIZE ; MOVES ; COUNTS``
    (the counts at depth 1 to ``depth``, also said on stderr)."""
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    counts = [perft(state, d) for d in range(1, depth + 1)]
    print(size, len(actions), counts, file=sys.stderr)
    return f"{size} ; {moves} ; {' '.join(map(str, counts))}"


def sgf_move(action: int, size: int) -> str:
    """OpenSpiel's action (row from the bottom times size plus column; size squared: pass)
    in SGF's letters."""
    if action == size * size:
        return "-"
    row, col = divmod(action, size)
    return chr(97 + col) + chr(97 + size - 1 - row)


def random_game(pyspiel: Any, size: int, plies: int, rng: random.Random) -> tuple[Any, list[int]]:
    """A game of ``plies`` random moves (passing only once in 40 moves), stopped early where
    it ends; its state and its actions."""
    game = pyspiel.load_game("go", {"board_size": size})
    state = game.new_initial_state()
    actions: list[int] = []
    while len(actions) < plies:
        legal = state.legal_actions()
        stones = [a for a in legal if a != size * size]
        action = rng.choice(stones) if stones and rng.random() > 1 / 40 else size * size
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal():
            break
        state = child
        actions.append(action)
    return state, actions


def ko_plies(pyspiel: Any, size: int, actions: list[int]) -> list[int]:
    """The plies after which a ko is to be retaken: the move just played took one stone,
    standing where every other neighbour is the enemy's (the taken point is then closed)."""
    game = pyspiel.load_game("go", {"board_size": size})
    state = game.new_initial_state()
    out = []
    before = _grid(state, size)
    for ply, action in enumerate(actions, start=1):
        state.apply_action(action)
        after = _grid(state, size)
        if action != size * size:
            row, col = divmod(action, size)
            me = after[row][col]
            gone = [
                (r, c)
                for r in range(size)
                for c in range(size)
                if before[r][c] not in (".", me) and after[r][c] == "."
            ]
            near = [
                (row + dr, col + dc)
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= row + dr < size and 0 <= col + dc < size
            ]
            if len(gone) == 1 and all(
                q == gone[0] or after[q[0]][q[1]] not in (".", me) for q in near
            ):
                out.append(ply)
        before = after
    return out


def _grid(state: Any, size: int) -> list[str]:
    """The board by rows from the bottom (OpenSpiel's row 0): X, O or . each point."""
    rows = [line.split()[1] for line in str(state).splitlines() if line[:3].strip().isdigit()]
    return [row.replace("+", ".") for row in reversed(rows)][:size]


def start(doc: str, argv: list[str] | None) -> tuple[argparse.Namespace, Any, random.Random] | None:
    """The command line (``--games``, ``--seed``), pyspiel and the seeded random numbers of a
    script that asks OpenSpiel; None (said on stderr) when open_spiel is not installed."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24, help="random positions (default 24)")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel", file=sys.stderr)
        return None
    return args, pyspiel, random.Random(args.seed)


def main(argv: list[str] | None = None) -> int:
    started = start(__doc__ or "", argv)
    if started is None:
        return 1
    args, pyspiel, rng = started
    lines = [
        "# Move counts of Go positions by OpenSpiel's go (pyspiel); written by"
        " tools/go_reference.py",
        "# SIZE ; MOVES (SGF points, - a pass) ; COUNTS from depth 1",
    ]
    cases: list[tuple[int, list[int], int]] = [(9, [], 3), (13, [], 2), (19, [], 2)]
    while len(cases) < 3 + args.games:
        plies = rng.randrange(4, 150)
        _, actions = random_game(pyspiel, 9, plies, rng)
        if len(cases) % 2:  # half the positions with a ko to retake, closed for now
            kos = ko_plies(pyspiel, 9, actions)
            if not kos:
                continue
            actions = actions[: rng.choice(kos)]
        depth = 3 if len(cases) % 6 == 0 else 2
        cases.append((9, actions, depth))
    for size, actions, depth in cases:
        game = pyspiel.load_game("go", {"board_size": size})
        moves = " ".join(sgf_move(a, size) for a in actions)
        lines.append(counted_line(game, size, actions, moves, depth))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
