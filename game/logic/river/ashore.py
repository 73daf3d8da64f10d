"""Priests and Devils when the boat's passengers count for no bank: the click-level solver.

With ``RiverRules.boat_counts`` off, the boat is a place of its own: only the people ashore count
for a bank, so a boarding or a landing can lose the game as well as a crossing, and devils can
be "parked" in the boat. The counts of :class:`~game.logic.river.rules.Crossing` no longer
decide anything, so this solver works on whole positions: who is ashore on the left, who is
in the boat, and the boat's side (those ashore on the right are the rest).

:func:`costs` gives every position from which the goal can be reached its cost to the win:
``crossings * CLICK_SCALE + clicks`` (the fewest crossings, then the fewest board and unboard
clicks among those ways). It runs Dijkstra's algorithm backwards from every won position:
every move can be taken back (a boarding by a landing, a crossing by crossing back with the
same load), so the predecessors of a position are found with the same move generator. Lost
positions (outnumbered ashore, or a boat stranded where nobody may row it) take no part; won
positions end a game, so no way leads through one.

>>> from game.logic.river.rules import RiverRules
>>> from game.logic.river.state import RiverState
>>> rules = RiverRules(3, 3, 2, boat_counts=False)
>>> divmod(costs(rules)[position(RiverState.start(rules))], CLICK_SCALE)
(9, 12)
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterator
from typing import TypeAlias

from game.logic.river.rules import (
    Goal,
    Kind,
    Load,
    RiverRules,
    RiverSettingError,
    Rowers,
    Side,
)
from game.logic.river.state import (
    Action,
    BoardBoat,
    Cross,
    RiverState,
    Unboard,
)

__all__ = ["CLICK_SCALE", "MAX_POSITIONS", "Position", "check_size", "costs", "position"]

CLICK_SCALE = 1 << 20
"""A crossing costs this many clicks: more than any game's board and unboard clicks."""

MAX_POSITIONS = 400_000
"""The most positions this solver takes on (a few seconds in pure Python)."""

#: (left ashore priests, left ashore devils, boat priests, boat devils, boat side: 0 left)
Position: TypeAlias = tuple[int, int, int, int, int]

# The moves, as (action, change of left ashore priests and devils, change of the boat's
# priests and devils) at the left bank; at the right bank the left counts do not change.
_BOARD_OR_LAND: tuple[tuple[Action, int, int, int, int], ...] = (
    (BoardBoat(Kind.PRIEST), -1, 0, 1, 0),
    (BoardBoat(Kind.DEVIL), 0, -1, 0, 1),
    (Unboard(Kind.PRIEST), 1, 0, -1, 0),
    (Unboard(Kind.DEVIL), 0, 1, 0, -1),
)


def position(state: RiverState) -> Position:
    """The position of ``state`` as this module writes it."""
    side = 0 if state.boat_side is Side.LEFT else 1
    return (state.left.priests, state.left.devils, state.boat.priests, state.boat.devils, side)


def check_size(rules: RiverRules) -> None:
    """Raise :class:`RiverSettingError` when ``rules`` have more positions than
    :data:`MAX_POSITIONS`, with the numbers and what to change."""
    seats = rules.capacity
    loads = sum(
        1
        for p in range(min(seats, rules.priests) + 1)
        for d in range(min(seats - p, rules.devils) + 1)
    )
    count = (rules.priests + 1) * (rules.devils + 1) * loads * 2
    if count > MAX_POSITIONS:
        raise RiverSettingError(
            f"with passengers counting for no bank, {rules.priests} priests, {rules.devils} "
            f"devils and a boat for {rules.capacity} make {count:,} positions, more than the "
            f"{MAX_POSITIONS:,} the solver takes on: choose fewer people or seats"
        )


@functools.lru_cache(maxsize=8)
def costs(rules: RiverRules) -> dict[Position, int]:
    """The cost to the win of every position that can still win (see the module docstring);
    won positions cost 0. Raises :class:`RiverSettingError` for rules that are too big."""
    check_size(rules)
    status = functools.partial(_status, rules)
    cost: dict[Position, int] = {}
    heap: list[tuple[int, Position]] = [(0, won) for won in _won_positions(rules)]
    heapq.heapify(heap)
    while heap:
        here, pos = heapq.heappop(heap)
        if pos in cost:
            continue
        cost[pos] = here
        for step, before in _neighbours(rules, pos):
            # ``before`` moves to ``pos`` by the reverse of the move found here: same cost.
            if before not in cost and status(before) == 0:
                heapq.heappush(heap, (here + step, before))
    return cost


def moves(rules: RiverRules, pos: Position) -> Iterator[tuple[Action, int, Position]]:
    """The moves from ``pos`` as ``(action, cost, next position)``, in the order of
    :meth:`RiverState.legal_actions` (no check that the game is still on)."""
    lp, ld, bp, bd, side = pos
    total_p, total_d = rules.priests, rules.devils
    for action, dlp, dld, dbp, dbd in _BOARD_OR_LAND:
        nbp, nbd = bp + dbp, bd + dbd
        if nbp < 0 or nbd < 0 or nbp + nbd > rules.capacity:
            continue
        if side == 0:
            nlp, nld = lp + dlp, ld + dld
            if nlp < 0 or nld < 0:
                continue
        else:  # the right bank's ashore counts change, the left's do not
            if total_p - lp - nbp < 0 or total_d - ld - nbd < 0:
                continue
            nlp, nld = lp, ld
        yield action, 1, (nlp, nld, nbp, nbd, side)
    if rules.rowers.can_row(Load(bp, bd)):
        yield Cross(), CLICK_SCALE, (lp, ld, bp, bd, 1 - side)


def status(rules: RiverRules, pos: Position) -> int:
    """0 playing, 1 won, -1 lost (as :meth:`RiverState.outcome` judges it)."""
    return _status(rules, pos)


def _neighbours(rules: RiverRules, pos: Position) -> Iterator[tuple[int, Position]]:
    for _, step, target in moves(rules, pos):
        yield step, target


def _status(rules: RiverRules, pos: Position) -> int:
    lp, ld, bp, bd, side = pos
    rp, rd = rules.priests - lp - bp, rules.devils - ld - bd
    if 0 < lp < ld or 0 < rp < rd:
        return -1
    if rules.goal is Goal.EVERYONE:
        if rp == rules.priests and rd == rules.devils:
            return 1
    elif rp == rules.priests:
        return 1
    if rules.rowers is not Rowers.ANYONE:
        here_p, here_d = (lp, ld) if side == 0 else (rp, rd)
        if not rules.rowers.can_row(Load(here_p + bp, here_d + bd)):
            return -1
    return 0


def _won_positions(rules: RiverRules) -> Iterator[Position]:
    """Every position the judge calls won (the right bank's ashore people meet the goal)."""
    seats = rules.capacity
    devils_left = range(rules.devils + 1) if rules.goal is Goal.PRIESTS else range(1)
    for ld in devils_left:
        for bd in range(min(seats, rules.devils - ld) + 1):
            if rules.goal is Goal.EVERYONE and bd:
                continue
            for side in (0, 1):
                pos = (0, ld, 0, bd, side)
                if _status(rules, pos) == 1:
                    yield pos
