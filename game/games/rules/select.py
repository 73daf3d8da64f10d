"""A person's move on a described game's board, click by click (no GL: plain moves in,
decisions out).

A move's path is the positions its piece visits (one for a drop, none for a pass). Clicks
build a prefix of a path: the first click picks a piece (or drops on an empty position), each
next click a step. The legal moves whose path starts with the prefix are the candidates; when
they come down to one, it is played; when several share the whole path (a pawn promoted to
one of four pieces, two jumps that take different pieces), the person chooses among them.

>>> moves = [((1, 5), (), (), 0), ((1, 6), (), (), 0), ((1, 6, 9), (6,), (), 1), ((3,), (), (), 2)]
>>> click(moves, (), 1)
Decision(kind='select', prefix=(1,), moves=())
>>> click(moves, (1,), 5).kind, click(moves, (1,), 5).moves[0][0]
('play', (1, 5))
>>> d = click(moves, (1,), 6); d.kind, d.prefix, [m[0] for m in d.moves]
('select', (1, 6), [(1, 6)])
>>> click(moves, (), 3).kind
'play'
>>> click(moves, (), 7)
Decision(kind='refuse', prefix=(), moves=())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Click",
    "Decision",
    "candidates",
    "click",
    "movable",
    "next_steps",
    "taking",
    "targets",
]

#: Positions a piece can be placed on are all marked only up to this many (Gomoku's 225
#: would hide the board); beyond it, and where every empty position is one, the mark
#: follows the mouse.
MAX_SPOTS = 40

Move = Any  # the rulebook's (path, captures, effects, program) tuple


@dataclass(frozen=True)
class Click:
    """A click on the board's position ``position`` (what ``on_pick`` hands to ``play``)."""

    position: int


@dataclass(frozen=True)
class Decision:
    """What a click means: ``play`` (``moves[0]``), ``choose`` (among ``moves``, all the
    same path), ``select`` (the prefix grows to ``prefix``; ``moves``: those that end there,
    offered as choices while longer ones go on), ``clear`` (the selection is dropped) or
    ``refuse`` (nothing there to do)."""

    kind: str
    prefix: tuple[int, ...] = ()
    moves: tuple[Move, ...] = ()


def click(moves: Sequence[Move], prefix: tuple[int, ...], position: int) -> Decision:
    """The decision for a click on ``position`` with ``prefix`` clicked so far."""
    if prefix and position == prefix[-1]:
        return Decision("clear")
    if prefix:
        extended = (*prefix, position)
        found = candidates(moves, extended)
        if found:
            return _settle(found, extended)
    found = [m for m in moves if m[0] and m[0][0] == position]
    if not found:
        return Decision("refuse")
    moving = [m for m in found if len(m[0]) > 1]
    drops = tuple(m for m in found if len(m[0]) == 1)
    if moving:
        return Decision("select", (position,), drops)
    if len(drops) == 1:
        return Decision("play", (position,), drops)
    return Decision("choose", (position,), drops)


def candidates(moves: Sequence[Move], prefix: tuple[int, ...]) -> list[Move]:
    """The moves whose path starts with ``prefix``."""
    n = len(prefix)
    return [m for m in moves if tuple(m[0][:n]) == prefix and len(m[0]) >= n]


def next_steps(moves: Sequence[Move], prefix: tuple[int, ...]) -> list[int]:
    """The positions a next click can go to after ``prefix`` (in path order, no repeats)."""
    n = len(prefix)
    steps: dict[int, None] = {}
    for m in candidates(moves, prefix):
        if len(m[0]) > n:
            steps[m[0][n]] = None
    return list(steps)


def movable(moves: Sequence[Move]) -> list[int]:
    """Where a first click can go: the pieces that can move, and the drop positions."""
    found: dict[int, None] = {}
    for m in moves:
        if m[0]:
            found[m[0][0]] = None
    return list(found)


def targets(
    moves: Sequence[Move], prefix: tuple[int, ...], hover: int | None, empty: int
) -> tuple[list[int], list[int], list[int]]:
    """Where the next click can go, as the board marks it: the next steps after ``prefix``;
    else the pieces that can move, and the positions a piece can be placed on (of ``empty``
    empty positions).

    >>> targets([((1, 5), (), (), 0), ((3,), (), (), 1)], (), None, 8)
    ([], [1], [3])
    >>> targets([((p,), (), (), 0) for p in range(8)], (), 2, 8)  # everywhere: the mouse's
    ([], [], [2])
    """
    if prefix:
        return next_steps(moves, prefix), [], []
    firsts = movable(moves)
    drops = {m[0][0] for m in moves if len(m[0]) == 1}
    spots = [p for p in firsts if p in drops]
    if dots_follow_mouse(len(spots), empty):
        spots = [p for p in spots if p == hover]
    return [], [p for p in firsts if p not in drops], spots


def dots_follow_mouse(spots: int, empty: int) -> bool:
    """Whether the board marks only the legal place under the mouse, not every legal place:
    when a piece may go on every empty place (Gomoku, Hex), or on more than
    :data:`MAX_SPOTS`, a dot on each would cover the board."""
    return spots >= empty or spots > MAX_SPOTS


def taking(moves: Iterable[Move]) -> dict[int, Move]:
    """The positions whose capture tells one of ``moves`` from the others (a mill in Nine
    Men's Morris takes any one enemy piece), each with its move.

    >>> taking([((2,), (18,), (), 0), ((2,), (21,), (), 0), ((2,), (21, 5), (), 0)])
    {18: ((2,), (18,), (), 0), 5: ((2,), (21, 5), (), 0)}
    """
    found: dict[int, list[Move]] = {}
    for move in moves:
        for p in move[1]:
            found.setdefault(p, []).append(move)
    return {p: ms[0] for p, ms in found.items() if len(ms) == 1}


def _settle(found: list[Move], extended: tuple[int, ...]) -> Decision:
    if len(found) == 1:
        return Decision("play", extended, (found[0],))
    complete = tuple(m for m in found if len(m[0]) == len(extended))
    if len(complete) == len(found):
        return Decision("choose", extended, complete)
    return Decision("select", extended, complete)
