"""What each recipient of a match's messages may see, as JSON-ready values.

:func:`to_json` turns any observation (dataclasses, named tuples, enums, sets, numpy values)
into plain JSON values. :func:`game_hides` says whether a game hides anything from a seat;
for such a game a recipient receives its own observation (``view``), the texts of its own
steps only and, on its turn, the texts of its legal actions (:func:`step_for`,
:func:`view_fields`); for a public game everyone receives every step's text and replays it.

>>> import enum
>>> class Colour(enum.Enum):
...     BLACK = 1
>>> to_json({"disc": Colour.BLACK, "seen": frozenset({3, 1}), "at": (1, 2.5)})
{'disc': 'BLACK', 'seen': [1, 3], 'at': [1, 2.5]}
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from game.logic.contract import Game, State

__all__ = [
    "SPECTATOR",
    "game_hides",
    "hides_now",
    "legal_texts",
    "step_for",
    "to_json",
    "view_fields",
    "view_of",
]

#: The seat whose observation a spectator receives: no hand, no concealed piece.
SPECTATOR = -1
#: How deep :func:`to_json` follows nested values (a cycle or a monster ends as text).
_DEPTH = 64


def to_json(value: Any, _depth: int = 0) -> Any:
    """``value`` as plain JSON values: dataclasses and named tuples as objects, enums by name,
    tuples and lists as lists, sets sorted, dicts with their keys as strings, numpy scalars
    and arrays as numbers and lists, non-finite floats as strings; anything else as
    ``str(value)``."""
    if _depth > _DEPTH:
        return str(value)
    deeper = _depth + 1
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, np.generic):
        return to_json(value.item(), deeper)
    if isinstance(value, np.ndarray):
        return to_json(value.tolist(), deeper)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name), deeper) for f in dataclasses.fields(value)}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {
            name: to_json(item, deeper) for name, item in zip(value._fields, value, strict=True)
        }
    if isinstance(value, list | tuple):
        return [to_json(item, deeper) for item in value]
    if isinstance(value, set | frozenset):
        items = [to_json(item, deeper) for item in value]
        return sorted(items, key=_order)
    if isinstance(value, Mapping):
        return {str(to_json(k, deeper)): to_json(v, deeper) for k, v in value.items()}
    return str(value)


def hides_now(state: State[Any]) -> bool:
    """Whether some seat's observation of ``state`` is not the whole position."""
    key = state.key()
    seats = len(state.returns())
    return any(state.observation(seat) != key for seat in range(seats))


def game_hides(game: Game[Any], states: Sequence[State[Any]]) -> bool:
    """Whether ``game`` hides anything from a seat: its chance deals in secret
    (``hidden_chance``) or a seat's observation of one of ``states`` (the start, the record's
    positions) is less than the whole position."""
    return game.hidden_chance or any(hides_now(state) for state in states)


def step_for(seat: int, text: str, recipient: int | None, hides: bool) -> dict[str, Any]:
    """A step of the record as ``recipient`` (a seat, or None for a spectator) receives it:
    the text in a public game, else only the acting seat's own step's text."""
    shown = text if not hides or (recipient is not None and recipient == seat) else None
    return {"seat": seat, "text": shown}


def legal_texts(state: State[Any]) -> list[str]:
    """The texts of the legal actions of ``state``, in the game's order."""
    return [state.action_text(action) for action in state.legal_actions()]


def view_of(state: State[Any], recipient: int | None) -> Any:
    """What ``recipient`` sees of ``state`` (a spectator: the public observation)."""
    seat = SPECTATOR if recipient is None else recipient
    return to_json(state.observation(seat))


def view_fields(state: State[Any], recipient: int | None, hides: bool) -> dict[str, Any]:
    """The ``view`` and ``legal`` fields of a hiding game's update for ``recipient``
    (``legal`` only to the seat to move); nothing for a public game."""
    if not hides:
        return {}
    fields: dict[str, Any] = {"view": view_of(state, recipient)}
    if recipient is not None and recipient == state.current_player():
        fields["legal"] = legal_texts(state)
    return fields


def _order(item: Any) -> tuple[int, float, str]:
    """A sort key for JSON values of mixed types (a set's members): numbers by value first,
    then strings, then the rest by their JSON text."""
    if isinstance(item, int | float) and not isinstance(item, bool):
        return (0, float(item), "")
    if isinstance(item, str):
        return (1, 0.0, item)
    return (2, 0.0, json.dumps(item, sort_keys=True))
