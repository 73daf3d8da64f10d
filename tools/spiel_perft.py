"""What the OpenSpiel reference scripts share (run with a Python that has open_spiel): perft
over a pyspiel state, and the data file of counts the tests read (``tests/perft_data.py``).
"""

from __future__ import annotations

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
