"""A match as plain data and back: how a game in progress is kept while the player is away
(the menu, another game, the program closed) and resumed where it was.

The record is the seed and the steps as their texts (the game's notation, which every game
reads back with ``parse_action``), so a kept game replays from its seeded start: a deal, a map
and a hidden hand come out the same from the seed, and chance outcomes (Cluedo's cards) and
lost turns (a MasterGrab robot's) are steps of the record like any other. Only data a TOML
file can hold is used: no pickles, nothing that runs when read. A game whose chance deals
hidden cards (``hidden_chance``: Cluedo's envelope) has its chance steps kept sealed
(``sealed`` instead of ``text``), so that a look at the file does not give the answer away;
it is a cover, not a lock.

>>> from game.logic.match import Match
>>> from game.logic.river.game import RiverGame
>>> match = Match(RiverGame({}), [None], seed=3)
>>> for text in ("board:devil", "board:devil", "boat"):
...     _ = match.play_text(text)
>>> data = match_record(match)
>>> data["cursor"], [s["text"] for s in data["steps"]]
(3, ['board:devil', 'board:devil', 'boat'])
>>> again = Match(RiverGame({}), [None])
>>> resume(again, data)
>>> again.state == match.state, again.seed
(True, 3)
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from game.logic.contract import CHANCE
from game.logic.match import Match, ReplayError, Step

__all__ = ["FORMAT", "in_progress", "match_record", "resume", "seal", "steps_of", "unseal"]

#: The version of the record's layout; a record of another is refused.
FORMAT: Final = 1
#: The most steps a kept record may have (a MasterGrab game of 1,000 rounds of 6 seats).
MAX_STEPS: Final = 10_000


def in_progress(match: Match[Any]) -> bool:
    """Whether leaving ``match`` leaves a game in progress: a seat has acted (a deal alone
    is not a game begun) and it is not over."""
    return not match.over and any(s.seat >= 0 and not s.forced for s in match.record)


def match_record(match: Match[Any]) -> dict[str, Any]:
    """``match``'s seed, its point in the record and every step (redo steps included) as
    TOML-ready data."""
    return {
        "format": FORMAT,
        "seed": match.seed,
        "cursor": match.cursor,
        "steps": [
            _step_data(step, sealed=match.game.hidden_chance and step.seat == CHANCE)
            for step in match.full_record
        ],
    }


def seal(text: str) -> str:
    """``text`` covered so that it cannot be read at a glance (:func:`unseal` undoes it)."""
    return base64.b64encode(bytes(b ^ 0x5A for b in text.encode("utf-8"))[::-1]).decode("ascii")


def unseal(sealed: str) -> str:
    """The text :func:`seal` covered; raises ValueError for anything it did not make."""
    try:
        raw = base64.b64decode(sealed.encode("ascii"), validate=True)
        return bytes(b ^ 0x5A for b in raw[::-1]).decode("utf-8")
    except (binascii.Error, UnicodeError) as exc:
        raise ValueError(f"not a sealed text ({exc})") from None


def steps_of(data: Mapping[str, Any]) -> tuple[int, list[Step], int]:
    """The seed, the steps and the cursor of a record from :func:`match_record`; raises
    :class:`~game.logic.match.ReplayError` (a ValueError) saying what is wrong with it."""
    if data.get("format") != FORMAT:
        raise ReplayError(f"a record of format {data.get('format')!r}, not {FORMAT}")
    seed, cursor, raw = data.get("seed"), data.get("cursor"), data.get("steps")
    if not isinstance(seed, int) or not isinstance(cursor, int) or not isinstance(raw, list):
        raise ReplayError("a record needs a whole-number seed and cursor and a list of steps")
    if isinstance(seed, bool) or isinstance(cursor, bool):
        raise ReplayError("a record needs a whole-number seed and cursor and a list of steps")
    if len(raw) > MAX_STEPS:
        raise ReplayError(f"a record of {len(raw)} steps, more than {MAX_STEPS}")
    steps = [_step_from(number, item) for number, item in enumerate(raw, 1)]
    if not 0 <= cursor <= len(steps):
        raise ReplayError(f"no point {cursor} in a record of {len(steps)} steps")
    return seed, steps, cursor


def resume(match: Match[Any], data: Mapping[str, Any], details: Sequence[str] = ()) -> None:
    """Bring ``match`` (made as the kept one was: the same game, options and start) to the
    kept record ``data``; raises :class:`~game.logic.match.ReplayError` naming what does not
    fit, the match then at a fresh start. ``details`` are the steps' :attr:`Step.detail`, in
    order, where the caller kept them beside the record (the river's ``who``)."""
    seed, steps, cursor = steps_of(data)
    steps = [replace(s, detail=details[i]) if i < len(details) else s for i, s in enumerate(steps)]
    match.restart(seed)
    match.replay(steps, cursor)


def _step_data(step: Step, sealed: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": step.seat}
    if sealed:
        out["sealed"] = seal(step.text)
    else:
        out["text"] = step.text
    if step.forced:
        out["forced"] = True
    if step.forfeit is not None:
        out["forfeit"] = step.forfeit
    if step.seconds and math.isfinite(step.seconds):
        out["seconds"] = round(step.seconds, 3)
    if step.note:
        out["note"] = step.note
    return out


def _step_from(number: int, item: object) -> Step:
    if not isinstance(item, Mapping):
        raise ReplayError(f"step {number} is not a table")
    seat, text = item.get("seat"), item.get("text")
    if text is None and isinstance(item.get("sealed"), str):
        try:
            text = unseal(item["sealed"])
        except ValueError as exc:
            raise ReplayError(f"step {number}: {exc}") from None
    forced, forfeit = item.get("forced", False), item.get("forfeit")
    seconds, note = item.get("seconds", 0.0), item.get("note", "")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < CHANCE:
        raise ReplayError(f"step {number} needs a seat number and the text of its action")
    if not isinstance(text, str):
        raise ReplayError(f"step {number} needs a seat number and the text of its action")
    if not isinstance(forced, bool) or not isinstance(note, str):
        raise ReplayError(f"step {number}: forced is true or false, and the note text")
    if forfeit is not None and not isinstance(forfeit, str):
        raise ReplayError(f"step {number}: the reason of a lost turn is text")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        raise ReplayError(f"step {number}: seconds is a number")
    return Step(seat, None, text, forced, forfeit, float(seconds), note)
