"""Write ``tests/data/backgammon_perft.txt``: perft counts of backgammon positions counted by
OpenSpiel (``pyspiel.load_game("backgammon")``), one checker move a ply.

OpenSpiel is not a dependency of the project: install it beside it to run this script
(``pip install open_spiel``); the tests read only the file it writes.

    python tools/backgammon_reference.py [--positions 24] [--cap 30000] [--seed 27]

OpenSpiel's action is a pair of checker moves (a double's turn two such actions); the
described game's move is one checker move (one die), so this perft takes each action apart
into its checker moves and counts the paths of checker moves, a throw a ply, a pass (no
checker can move) a ply: the paths of the tree of checker-move sequences that OpenSpiel's
legal actions make at each decision. Its first throw is one of the 30 unequal ones and says
who starts; the described game's first player is always White, with the same 30 throws,
which counts the same (the board is the same seen from either side).

The positions are the start, and the positions of seeded random games after 6 to 120
actions (half of them after 200 to 900, most of those in the bearing off), some before the
throw, most after it. A position is the generic notation of the described game: OpenSpiel's
X is White, O Black, a point numbered as White counts (X's position p is point 24 - p, and
so is O's), a point's checkers on its positions pN, pN.2, ..., the bar the hand, the checkers
borne off on the tray, and the dice left (``roll 6-5``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "backgammon_perft.txt"
PLAYERS = ("White", "Black")
#: The deepest perft written (a depth deeper only while the count stays below the cap).
DEEPEST = 4


def _dice(state: Any) -> list[int]:
    """The dice not used yet, from OpenSpiel's drawing ("Dice: 6u5": the 6 used)."""
    line = next(x for x in str(state).splitlines() if x.startswith("Dice:"))
    text = line[5:].strip()
    out = []
    for i, ch in enumerate(text):
        if ch.isdigit() and text[i + 1 : i + 2] != "u":
            out.append(int(ch))
    return out


def position_text(state: Any) -> str:
    """The state in the described game's generic notation."""
    lines = str(state).splitlines()
    bar = next(x for x in lines if x.startswith("Bar:"))[4:]
    scores = next(x for x in lines if x.startswith("Scores"))  # "Scores, X: 0, O: 0"
    off = [int(scores.split("X:")[1].split(",")[0]), int(scores.split("O:")[1])]
    parts = []
    for player, tray in ((0, "w"), (1, "b")):
        places = []
        for p in range(24):
            n = state.board(player, p)
            point = 24 - p
            places += [f"p{point}{f'.{k + 1}' if k else ''}" for k in range(n)]
        places += [f"{tray}{k + 1}" for k in range(off[player])]
        parts.append(f"{PLAYERS[player]}: Checker {' '.join(places)}")
    hands = [bar.count("x"), bar.count("o")]
    mover = state.current_player()
    if state.is_chance_node():
        before = int(next(x for x in lines if x.startswith("Previous player:"))[16:])
        mover = 1 - before if before >= 0 else 0  # the start: White throws first
    parts.append(f"{PLAYERS[mover]} to move")
    parts.append(f"in hand: White {hands[0]}, Black {hands[1]}")
    if not state.is_chance_node():
        dice = _dice(state)
        if len(set(dice)) == 1 and "Extra turn: 0" in lines and len(dice) == 2:
            dice = dice * 2  # a double before its first action: four moves to come
        parts.append("roll " + "-".join(map(str, dice)))
    return " / ".join(parts)


def perft(state: Any, depth: int) -> int:
    """Paths of ``depth`` plies, a checker move a ply (see the module's docstring)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if state.is_chance_node():
        return sum(perft(state.child(a), depth - 1) for a, _ in state.chance_outcomes())
    player = state.current_player()
    tree: dict[Any, Any] = {}
    for action in state.legal_actions():
        moves = [
            (m.pos, m.num) for m in state.spiel_move_to_checker_moves(player, action) if m.num > 0
        ]
        node = tree
        for move in moves or ["pass"]:
            node = node.setdefault(move, {})
        node[None] = action  # the action ends here
    return _paths(state, tree, depth)


def _paths(state: Any, node: dict[Any, Any], depth: int) -> int:
    """The paths of ``depth`` plies through ``node`` of the tree of checker moves (``None``:
    the action that ends there) and on after its action."""
    total = 0
    for move, child in node.items():
        if move is None:
            total += perft(state.child(child), depth)
        else:
            total += 1 if depth == 1 else _paths(state, child, depth - 1)
    return total


def _played(game: Any, rng: random.Random, late: bool, throw: bool) -> Any:
    """The state a seeded random game reaches after 6 to 120 actions (``late``: 200 to 900),
    the dice thrown after it where ``throw`` asks; None where that game ended, or stopped
    between the two actions of a double."""
    state = game.new_initial_state()
    for _ in range(rng.randrange(200, 900) if late else rng.randrange(6, 120)):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, chances)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal() or "Extra turn: 1" in str(state):
        return None
    if throw and state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def main() -> None:
    import pyspiel

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--cap", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    game = pyspiel.load_game("backgammon")
    states = [game.new_initial_state()]
    for seed in itertools.count(args.seed):
        if len(states) > args.positions:
            break
        # half the games are played on to the bearing off (random games are long)
        late = not len(states) % 2
        state = _played(game, random.Random(seed), late, throw=bool(len(states) % 4))
        if state is not None:
            states.append(state)
    lines = [
        "# Perft of backgammon positions counted by OpenSpiel (pyspiel, game backgammon), a "
        "checker move a ply, a throw a ply; written by tools/backgammon_reference.py"
    ]
    for state in states:
        counts = [perft(state, 1)]
        while len(counts) < DEEPEST and counts[-1] < args.cap:
            counts.append(perft(state, len(counts) + 1))
        print(position_text(state), counts, file=sys.stderr)
        lines.append(f"{position_text(state)} ; {' '.join(map(str, counts))}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
