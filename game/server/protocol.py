"""The server's protocol: JSON text frames, each an object with a ``"type"``.

:func:`parse` reads one frame a client sent and checks every field it knows (type, range,
length) before anything acts on it; what it refuses raises :class:`ProtocolError` with the
``reason`` the ``error`` message carries. :func:`encode` writes one frame the server sends.
Fields a message does not know are left out of what :func:`parse` returns (a newer client may
send more). ``docs/server.md`` lists every message.

>>> parse('{"type": "ping", "t": 1.5, "id": 7}')
{'type': 'ping', 'id': 7, 't': 1.5}
>>> parse('{"type": "join", "code": "abcdef"}')
{'type': 'join', 'code': 'ABCDEF'}
>>> parse('{"type": "act"}')
Traceback (most recent call last):
...
game.server.protocol.ProtocolError: act: the field 'code' is missing
>>> encode("pong", t=1.5, re=None)
'{"type":"pong","t":1.5}'
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "MAX_FRAME",
    "MAX_THINK",
    "REASONS",
    "VERSION",
    "ProtocolError",
    "encode",
    "parse",
]

#: The protocol's version; ``hello`` with another is refused (``version``).
VERSION: Final = 1
#: The longest frame either side sends, in bytes.
MAX_FRAME: Final = 65536
#: A match's code: this many characters of an alphabet without look-alikes (0/O, 1/I/L).
CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH: Final = 6
#: The longest a computer seat may think for one choice, in seconds (``rules.think``).
MAX_THINK: Final = 60.0
#: Every ``reason`` an ``error`` message can carry.
REASONS: Final = (
    "bad-json",
    "too-big",
    "bad-message",
    "version",
    "no-match",
    "bad-token",
    "not-your-seat",
    "not-your-turn",
    "stale",
    "illegal",
    "over",
    "seat-taken",
    "not-allowed",
    "busy",
    "server",
)
#: Integers a client sends stay within what every JSON reader holds exactly.
_INT_LIMIT: Final = 2**53
_MAX_TEXT: Final = 1000  # an action's text, a game's id, an agent's name
_MAX_NAME: Final = 40  # a player's name
_MAX_TOKEN: Final = 100
_MAX_SEATS: Final = 64
_MAX_OPTIONS: Final = 64
_SEAT_KINDS: Final = ("person", "open")
_SPECTATORS: Final = ("public", "none")


class ProtocolError(ValueError):
    """A frame the server refuses before acting on it: ``reason`` is one of :data:`REASONS`,
    the message says what was wrong in a line."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def parse(text: str | bytes) -> dict[str, Any]:
    """The message in one frame, checked; raises :class:`ProtocolError`.

    Returns a new dict with ``type``, ``id`` when given, and the message's known fields
    (optional ones only where sent), each of its checked type (codes upper-cased).
    """
    if len(text) > MAX_FRAME:
        raise ProtocolError("too-big", f"a frame holds at most {MAX_FRAME} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad-json", "a frame is UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad-json", f"not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", "a message is a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        shown = repr(kind)[:40]
        raise ProtocolError(
            "bad-message", f"unknown message type {shown}; the types: {', '.join(MESSAGES)}"
        )
    out: dict[str, Any] = {"type": kind}
    if "id" in data:
        out["id"] = _field(kind, "id", data["id"], _int)
    for name, (check, required) in MESSAGES[kind].items():
        if name in data:
            out[name] = _field(kind, name, data[name], check)
        elif required:
            raise ProtocolError("bad-message", f"{kind}: the field {name!r} is missing")
    return out


def encode(kind: str, **fields: Any) -> str:
    """One frame the server sends: ``{"type": kind, **fields}`` with None fields ``re`` and
    ``id`` left out (an answer to a message that carried no ``id``)."""
    message: dict[str, Any] = {"type": kind}
    for name, value in fields.items():
        if value is None and name in ("re", "id"):
            continue
        message[name] = value
    return json.dumps(message, separators=(",", ":"), allow_nan=False, ensure_ascii=False)


# -- the fields' checks --------------------------------------------------------------------
# Each takes the value and returns it checked (maybe normalised), or raises ValueError with
# what the value should be; _field turns that into a ProtocolError naming the field.


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= _INT_LIMIT:
        raise ValueError(f"an integer below 2**53 in size, not {_shown(value)}")
    return value


def _count(value: Any) -> int:
    number = _int(value)
    if number < 0:
        raise ValueError(f"an integer from 0, not {number}")
    return number


def _seat(value: Any) -> int:
    number = _int(value)
    if not 0 <= number < _MAX_SEATS:
        raise ValueError(f"a seat number from 0 to {_MAX_SEATS - 1}, not {number}")
    return number


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"a number, not {_shown(value)}")
    # The size first: an integer too big for a float cannot even be asked if it is finite.
    if abs(value) >= _INT_LIMIT or not math.isfinite(value):
        raise ValueError(f"a finite number below 2**53 in size, not {_shown(value)}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"true or false, not {_shown(value)}")
    return value


def _text(value: Any, limit: int = _MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise ValueError(f"a string, not {_shown(value)}")
    if not value or len(value) > limit:
        raise ValueError(f"a string of 1 to {limit} characters")
    if not value.isprintable():
        raise ValueError("printable characters only")
    return value


def _name(value: Any) -> str:
    return _text(value, _MAX_NAME)


def _token(value: Any) -> str:
    return _text(value, _MAX_TOKEN)


def _code(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"a match's code, not {_shown(value)}")
    code = value.upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise ValueError(f"a match's code: {CODE_LENGTH} of {CODE_ALPHABET}, not {_shown(value)}")
    return code


def _options(value: Any) -> dict[str, Any]:
    """A game's options: names to plain values (the game's own schema checks them)."""
    if not isinstance(value, dict) or len(value) > _MAX_OPTIONS:
        raise ValueError(f"an object of at most {_MAX_OPTIONS} options")
    for name, option in value.items():
        _text(name, _MAX_NAME)
        if option is not None and not isinstance(option, bool | int | float | str):
            raise ValueError(f"option {name!r}: a number, a string, true or false")
        if isinstance(option, float | int) and not isinstance(option, bool):
            _number(option)
        if isinstance(option, str):
            _text(option)
    return dict(value)


def _seats(value: Any) -> list[str | dict[str, str]]:
    """Who sits where: ``"person"`` (the creator or a friend), ``"open"`` or an agent."""
    if not isinstance(value, list) or not 1 <= len(value) <= _MAX_SEATS:
        raise ValueError(f"a list of 1 to {_MAX_SEATS} seats")
    seats: list[str | dict[str, str]] = []
    for seat in value:
        if isinstance(seat, str) and seat in _SEAT_KINDS:
            seats.append(seat)
        elif isinstance(seat, dict) and set(seat) == {"agent"}:
            seats.append({"agent": _text(seat["agent"], _MAX_NAME)})
        else:
            raise ValueError(f'each seat "person", "open" or {{"agent": NAME}}, not {_shown(seat)}')
    return seats


def _rules(value: Any) -> dict[str, Any]:
    """The match's rules: ``hints``, ``undo``, ``spectators``, ``think`` (each optional)."""
    if not isinstance(value, dict):
        raise ValueError("an object")
    rules: dict[str, Any] = {}
    for name, item in value.items():
        if name in ("hints", "undo"):
            rules[name] = _bool(item)
        elif name == "spectators":
            if item not in _SPECTATORS:
                raise ValueError(f"spectators: one of {', '.join(_SPECTATORS)}")
            rules[name] = item
        elif name == "think":
            think = _number(item)
            if not 0 < think <= MAX_THINK:
                raise ValueError(f"think: seconds above 0 and at most {MAX_THINK:g}")
            rules[name] = float(think)
        else:
            raise ValueError(f"no rule {_shown(name)}; the rules: hints, undo, spectators, think")
    return rules


#: Each client message's fields: name -> (check, required).
MESSAGES: Final[Mapping[str, Mapping[str, tuple[Callable[[Any], Any], bool]]]] = {
    "hello": {"version": (_int, True), "name": (_name, False)},
    "create": {
        "game": (_name, True),
        "options": (_options, False),
        "seats": (_seats, False),
        "you": (_seat, False),
        "rules": (_rules, False),
    },
    "join": {"code": (_code, True), "seat": (_seat, False)},
    "watch": {"code": (_code, True)},
    "resume": {"code": (_code, True), "token": (_token, True)},
    "act": {
        "code": (_code, True),
        "token": (_token, True),
        "ply": (_count, True),
        "action": (_text, True),
    },
    "hint": {"code": (_code, True), "token": (_token, True)},
    "undo": {"code": (_code, True), "token": (_token, True)},
    "undo-answer": {"code": (_code, True), "token": (_token, True), "accept": (_bool, True)},
    "resign": {"code": (_code, True), "token": (_token, True)},
    "leave": {"code": (_code, True), "token": (_token, True)},
    "ping": {"t": (_number, True)},
    "status": {},
}


def _field(kind: str, name: str, value: Any, check: Callable[[Any], Any]) -> Any:
    try:
        return check(value)
    except ValueError as exc:
        raise ProtocolError("bad-message", f"{kind}: {name} must be {exc}") from None


def _shown(value: Any) -> str:
    if isinstance(value, int) and abs(value) >= _INT_LIMIT:
        return "a bigger number"  # its digits may be more than str() will write
    text = (
        json.dumps(value) if isinstance(value, str | int | float | bool) else type(value).__name__
    )
    return text if len(text) <= 40 else text[:37] + "..."


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
