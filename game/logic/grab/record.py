"""What a MasterGrab record shows besides owners and armies (spec 4.1, 6.2, 6.3).

Functions over a :class:`~game.logic.match.Match` of a :class:`~game.logic.grab.game.GrabGame`
(its record of steps and the states between them), so they stay right after an undo, a redo or
a jump:

* :func:`country_marks`: the state circles (moved, attacked, taken, cheap) of the countries
  since player 0's last move began, and who owned each taken country before;
* :func:`round_steps`: the steps of the current round, from player 0's last move on;
* :func:`failures`: the lost turns of the record with their reasons.

The ranking is :func:`~game.logic.grab.state.player_statistics` of the current state; each
robot's thinking times are the match's ``seconds``.

>>> from game.logic.grab.game import GrabGame
>>> from game.logic.grab.options import GrabOptions
>>> from game.logic.grab.state import NO_MOVE
>>> from game.logic.match import Match
>>> match = Match(GrabGame(GrabOptions(countries=20, robots=("basic",))), [None, None], seed=1)
>>> _ = match.play(NO_MOVE)
>>> [step.seat for step in round_steps(match)], set(country_marks(match).states)
([0], {<CountryState.NORMAL: 'normal'>})
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, cast

from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import GrabState, MoveKind
from game.logic.match import Match, Step

#: One cheap marker per this many countries, mountains included (spec 6.3).
COUNTRIES_PER_CHEAP: Final = 15


class CountryState(enum.Enum):
    """What happened to a country since player 0's last move began (spec 4.1, 6.2)."""

    NORMAL = "normal"
    MOVED = "moved"
    ATTACKED = "attacked"
    TAKEN = "taken"
    CHEAP = "cheap"


@dataclass(frozen=True, slots=True)
class CountryMarks:
    """``states[c]`` is country c's circle; ``previous_owners[c]`` the owner a TAKEN country
    was taken from."""

    states: tuple[CountryState, ...]
    previous_owners: dict[int, int] = field(default_factory=dict)


def grab_state(match: Match[Any], index: int | None = None) -> GrabState:
    """The match's state as a GrabState: the current one, or the one after ``index`` steps."""
    return cast(GrabState, match.state if index is None else match.state_at(index))


def round_start(match: Match[Any], upto: int | None = None) -> int:
    """The index in the record of player 0's last move (spec 4.1 step 1 resets the circles
    there), or 0 when player 0 has not moved yet; ``upto``: as if the record ended there."""
    record = match.record if upto is None else match.record[:upto]
    for index in range(len(record) - 1, -1, -1):
        if record[index].seat == 0:
            return index
    return 0


def round_steps(match: Match[Any]) -> list[Step]:
    """The steps from player 0's last move on (that move included): with a human, the human's
    move and the robots' answers; robots only, the current round."""
    return match.record[round_start(match) :]


def country_marks(match: Match[Any], upto: int | None = None) -> CountryMarks:
    """The circles at the current point of the record, or after its first ``upto`` steps
    (spec 6.2, 6.3).

    Since player 0's last move: a gather's destination is MOVED, an attack's target TAKEN (it
    changed owner) or ATTACKED; lost turns mark nothing. After the last player's move, when a
    human plays, the ``countries // 15`` non-mountain countries with a foreign neighbour and
    the fewest armies (stable by id) are CHEAP unless marked already (they still count).
    """
    state = grab_state(match, upto)
    marks = [CountryState.NORMAL] * state.board.countries
    previous: dict[int, int] = {}
    last = state.board.players - 1
    human = state.board.human_playing
    start = round_start(match, upto)
    record = match.record if upto is None else match.record[:upto]
    for index in range(start, len(record)):
        step = record[index]
        after = grab_state(match, index + 1)
        if step.forfeit is None and not step.forced:
            move = step.action
            if move.kind is MoveKind.GATHER:
                marks[move.target] = CountryState.MOVED
            elif move.kind is MoveKind.ATTACK:
                before = grab_state(match, index)
                target = move.target
                if after.owners[target] != before.owners[target]:
                    marks[target] = CountryState.TAKEN
                    previous[target] = before.owners[target]
                else:
                    marks[target] = CountryState.ATTACKED
        if human and step.seat == last:
            _mark_cheap(after, marks)
    return CountryMarks(tuple(marks), previous)


def failures(match: Match[Any], steps: Sequence[Step] | None = None) -> list[str]:
    """Every lost turn of ``steps`` (default: the whole record), oldest first, in words:
    ``Robot1: basic: TimeoutError: ...``, with the agent's explanation when it gave one."""
    out = []
    for step in match.record if steps is None else steps:
        if step.forfeit is not None:
            note = f" ({step.note})" if step.note else ""
            out.append(f"{match.game.seat_name(step.seat)}: {step.forfeit}{note}")
    return out


def _mark_cheap(state: GrabState, marks: list[CountryState]) -> None:
    owners, armies = state.owners, state.armies
    table = state.board.neighbours
    count = len(owners) // COUNTRIES_PER_CHEAP
    border = [
        c
        for c, owner in enumerate(owners)
        if owner != MOUNTAIN and any(owners[n] != owner for n in table[c])
    ]
    border.sort(key=lambda c: armies[c])
    for c in border[:count]:
        if marks[c] is CountryState.NORMAL:
            marks[c] = CountryState.CHEAP


__all__ = [
    "COUNTRIES_PER_CHEAP",
    "CountryMarks",
    "CountryState",
    "country_marks",
    "failures",
    "grab_state",
    "round_start",
    "round_steps",
]
