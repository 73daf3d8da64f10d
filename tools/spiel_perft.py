"""What the OpenSpiel reference scripts share (run with a Python that has open_spiel): perft
over a pyspiel state, and the data file of counts the tests read (``tests/perft_data.py``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def perft(state: Any, depth: int) -> int:
    """Action paths of ``depth`` plies from ``state`` (a finished game ends its paths: 0)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.child(a), depth - 1) for a in actions)


def write_counts(
    out: Path,
    header: str,
    states: Sequence[Any],
    text: Callable[[Any], str],
    deepest: int,
    cap: int,
    count: Callable[[Any, int], int] = perft,
) -> None:
    """``out``: ``header`` as a comment, then a line a state, its ``text`` and its counts from
    depth 1 on, a depth deeper only while the count stays below ``cap``, at most ``deepest``;
    ``count`` counts them (a game whose move is several actions passes its own)."""
    lines = [f"# {header}"]
    for state in states:
        counts = [count(state, 1)]
        while len(counts) < deepest and counts[-1] < cap:
            counts.append(count(state, len(counts) + 1))
        print(text(state), counts, file=sys.stderr)
        lines.append(f"{text(state)} ; {' '.join(map(str, counts))}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def reference_main(
    doc: str | None,
    game_name: str,
    play: Callable[[Any, random.Random, int], Any],
    text: Callable[[Any], str],
    out: Path,
    header: str,
    deepest: int,
    cap: int,
    argv: list[str] | None,
    count: Callable[[Any, int], int] = perft,
) -> int:
    """The command line of a script that asks OpenSpiel (``--positions``, ``--cap`` with
    ``cap`` its default, ``--seed``): OpenSpiel's game ``game_name``'s start and the position
    ``play(game, rng, index)`` reaches in each seeded random game, ``index`` the number of
    positions so far (one that has ended, or None, is played again with the next seed),
    counted and written to ``out`` by ``write_counts``. 1 (said on stderr) when open_spiel is
    not installed, else 0."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=24, help="random positions (24)")
    parser.add_argument("--cap", type=int, default=cap, help=f"deeper only below ({cap:,})")
    parser.add_argument("--seed", type=int, default=27, help="the first game's seed (27)")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("pyspiel") is None:
        print("open_spiel is not installed: pip install open_spiel", file=sys.stderr)
        return 1
    game = importlib.import_module("pyspiel").load_game(game_name)
    states = [game.new_initial_state()]
    seed = args.seed
    while len(states) < args.positions + 1:
        state = play(game, random.Random(seed), len(states))
        seed += 1
        if state is not None and not state.is_terminal():
            states.append(state)
    write_counts(out, header, states, text, deepest, args.cap, count)
    return 0
