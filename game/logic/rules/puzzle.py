"""The hint in a puzzle: a game of one player (a sliding puzzle, peg solitaire, Sokoban),
where no opponent answers and a move is good when it leads to the goal.

:func:`solve` searches breadth first from the position, each position once (by the
rulebook's key), until a move wins (its end condition makes the player the winner), and gives
the shortest line of moves it found; a line ending in a loss or a draw is not followed. The
search stops at a node bound (positions made) or a deadline; the line found is kept
(:data:`SOLVED`), so the hints that follow it cost nothing. :func:`puzzle_choice` is the
levels' way into it: the first move of the line and the words that say so, or None where no
line was found within the bound (the levels then search as in any game).

>>> from game.logic.rules.design import parse
>>> from game.logic.rules.rulebook import Rulebook
>>> rb = Rulebook(parse('''(game walk) (players You)
...   (board (grid (columns a b c) (rows 1)) (directions (e 1 0) (w -1 0)) (zone goal (You c1)))
...   (piece Man (letter "M") (moves (move e e (verify empty) add) (move w w (verify empty) add)))
...   (setup (You (Man a1))) (end (win (reached goal Man)))'''))
>>> found = solve(rb, rb.start(), 100)
>>> len(found.moves), found.complete
(2, False)
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from game.logic.rules.position import DescribedPosition, Move
    from game.logic.rules.rulebook import Rulebook

__all__ = ["PUZZLE_NODES", "SOLVED", "PuzzleLine", "puzzle_choice", "solve"]

#: The positions a hint may make when the caller gives no bound of its own.
PUZZLE_NODES: Final = 50_000
#: Per rulebook: position key -> the next move of a line found to the goal from there.
SOLVED: Final[weakref.WeakKeyDictionary[Rulebook, dict[tuple[Any, ...], Move]]] = (
    weakref.WeakKeyDictionary()
)
#: The most positions :data:`SOLVED` keeps per rulebook (the oldest lines go first).
_KEPT: Final = 10_000


@dataclass(frozen=True)
class PuzzleLine:
    """What :func:`solve` found: the moves of a shortest line to the goal (empty when none was
    found), the positions made, and whether every position reachable was seen (so that no
    line exists)."""

    moves: tuple[Move, ...]
    nodes: int
    complete: bool


def solve(
    rulebook: Rulebook,
    pos: DescribedPosition,
    nodes: int,
    deadline: float | None = None,
    stopped: Callable[[], bool] | None = None,
) -> PuzzleLine:
    """A shortest line from ``pos`` to a win for the player alone, breadth first, making at
    most ``nodes`` positions and stopping at ``deadline`` (``time.perf_counter()``) or when
    ``stopped()`` says so."""
    start = rulebook.key(pos)
    came: dict[tuple[Any, ...], tuple[tuple[Any, ...], Move] | None] = {start: None}
    level = [(pos.copy(), start, rulebook.legal(pos))]
    made = 0
    while level:
        after: list[tuple[DescribedPosition, tuple[Any, ...], list[Move]]] = []
        for here, here_key, here_moves in level:
            for move in here_moves:
                if made >= nodes or (made & 255 == 0 and _late(deadline, stopped)):
                    return PuzzleLine((), made, False)
                saved = rulebook.make(here, move)  # made in place and taken back; only a
                made += 1  # position not seen before is copied
                key = rulebook.key(here)
                seen = key in came
                child = None if seen else here.copy()
                rulebook.unmake(here, saved)
                if child is None:
                    continue
                came[key] = (here_key, move)
                moves = rulebook.legal(child)
                outcome = rulebook.outcome(child, moves)
                if outcome is None:
                    after.append((child, key, moves))
                elif rulebook.returns(child, outcome)[0] > 0:
                    return PuzzleLine(_line(came, key), made, False)
        level = after
    return PuzzleLine((), made, True)


def _late(deadline: float | None, stopped: Callable[[], bool] | None) -> bool:
    return (deadline is not None and time.perf_counter() > deadline) or bool(stopped and stopped())


def _line(
    came: dict[tuple[Any, ...], tuple[tuple[Any, ...], Move] | None], key: tuple[Any, ...]
) -> tuple[Move, ...]:
    out: list[Move] = []
    step = came[key]
    while step is not None:
        key, move = step
        out.append(move)
        step = came[key]
    return tuple(reversed(out))


def puzzle_choice(
    rulebook: Rulebook,
    pos: DescribedPosition,
    nodes: int | None,
    deadline: float | None,
    stopped: Callable[[], bool] | None = None,
) -> tuple[Move, str, dict[str, Any]] | None:
    """The first move of a shortest line to the goal, the words for it and the search's
    details; None when no line was found within the bound."""
    kept = SOLVED.setdefault(rulebook, {})
    key = rulebook.key(pos)
    if key in kept:
        line = _follow(rulebook, pos, kept)
        return line[0], _said(len(line)), {"nodes": 0, "pv": ""}
    found = solve(rulebook, pos, max(nodes or 0, PUZZLE_NODES), deadline, stopped)
    if not found.moves:
        return None
    if len(kept) > _KEPT:
        kept.clear()
    walk = pos.copy()
    for move in found.moves:
        kept[rulebook.key(walk)] = move
        rulebook.make(walk, move)
    return found.moves[0], _said(len(found.moves)), {"nodes": found.nodes, "pv": ""}


def _follow(
    rulebook: Rulebook, pos: DescribedPosition, kept: dict[tuple[Any, ...], Move]
) -> list[Move]:
    """The kept line from ``pos`` to its end."""
    walk = pos.copy()
    line: list[Move] = []
    seen: set[tuple[Any, ...]] = set()
    key = rulebook.key(walk)
    while key in kept and key not in seen:
        seen.add(key)
        line.append(kept[key])
        rulebook.make(walk, kept[key])
        key = rulebook.key(walk)
    return line


def _said(length: int) -> str:
    return f"solves the puzzle in {length} move{'s' if length != 1 else ''}"
