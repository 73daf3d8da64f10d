"""Typed settings as TOML documents and back, and what changed between two documents: the
generic part of :mod:`game.settings`.

:func:`from_table` reads a table into a dataclass whose fields all have defaults and are typed
as ``bool``, ``int``, ``float``, ``str``, ``X | None``, ``list[X]``, ``dict[str, X]`` or another
such dataclass (defined at module level, so the annotations resolve). A field may carry
``metadata={"min": n, "max": m}`` to refuse numbers outside that range (for a list or a dict,
each item's), or ``metadata={"choices": (...)}`` to refuse other strings; a float must be
finite. A value a field cannot take keeps the field's default and is reported in
``problems``; nothing raises for what a file holds. :func:`to_toml` writes the dataclass back.

:func:`differences` lists the values that differ between two documents, each by its keys
from the top (a table's values one by one), and :func:`apply_changes` applies such a list to
another document: how a window saves only the settings it changed over what another window
saved meanwhile.

>>> old = {"window": {"width": 800, "height": 600}, "volume": 80}
>>> new = {"window": {"width": 1024, "height": 600}}
>>> changes = differences(old, new)
>>> changes
[(('volume',), GONE), (('window', 'width'), 1024)]
>>> apply_changes({"window": {"width": 640, "height": 480}, "volume": 20, "muted": True}, changes)
{'window': {'width': 1024, 'height': 480}, 'muted': True}
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeAlias, TypeVar

__all__ = [
    "GONE",
    "Changes",
    "apply_changes",
    "differences",
    "from_table",
    "show",
    "to_toml",
]

T = TypeVar("T")


class _Gone(enum.Enum):
    GONE = "GONE"

    def __repr__(self) -> str:
        return "GONE"


#: The value of a change that removes its key.
GONE: typing.Final = _Gone.GONE
#: Changes of a document: the keys of a value from the top, and its new value (or GONE).
Changes: TypeAlias = list[tuple[tuple[str, ...], Any]]


def from_table(cls: type[T], table: Mapping[str, Any], where: str, problems: list[str]) -> T:
    """A ``cls`` read from ``table`` (``where`` names it in messages): each value the field
    cannot take, and each unknown key, is reported in ``problems`` and left at its default."""
    obj = cls()
    fields = _fields_of(cls)
    for key, value in table.items():
        name = f"{where}.{key}" if where else key
        if key not in fields:
            problems.append(f"unknown key {name!r} ignored")
            continue
        tp, limits = fields[key]
        try:
            converted = _convert(tp, value, name, problems, limits)
        except _Rejected as exc:
            default = getattr(obj, key)
            problems.append(f"{name} = {show(value)} {exc.why}; kept the default {default!r}")
            continue
        setattr(obj, key, converted)
    return obj


def to_toml(value: Any) -> Any:
    """``value`` (a dataclass, a mapping, a list, a plain value) as TOML-ready data; TOML has
    no null, so None fields and entries are left out (and come back as defaults)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is not None:
                out[f.name] = to_toml(item)
        return out
    if isinstance(value, Mapping):
        return {str(k): to_toml(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [to_toml(v) for v in value]
    return value


def show(value: Any) -> str:
    """A short repr of a value from a file, for a message."""
    try:
        text = repr(value)
    except ValueError:  # an int with more digits than Python will write (a long hex literal)
        return f"a {value.bit_length()}-bit number"
    return text if len(text) <= 60 else text[:57] + "..."


def differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> Changes:
    """What turns ``old`` into ``new``, value by value (a table is not a value; its values
    are): removed keys first, as GONE, then the values that are new or differ (a value of
    another type differs: ``1`` is not ``1.0`` nor ``True``)."""
    before, after = _values(old), _values(new)
    changes: Changes = [(keys, GONE) for keys in before if keys not in after]
    for keys, value in after.items():
        if keys not in before or not _same(before[keys], value):
            changes.append((keys, value))
    return changes


def apply_changes(document: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """``document`` with ``changes`` applied (in place, and returned): a GONE removes its key
    where it is there; a value is set, making its tables where missing (a value in the way
    of one is replaced)."""
    for keys, value in changes:
        table = document
        for key in keys[:-1]:
            inner = table.get(key)
            if not isinstance(inner, dict):
                if value is GONE:
                    break
                inner = table[key] = {}
            table = inner
        else:
            if value is GONE:
                table.pop(keys[-1], None)
            else:
                table[keys[-1]] = copy.deepcopy(value)
    return document


# --- private helpers: they trust their input -------------------------------------------------


class _Rejected(Exception):
    """A value a field cannot take: ``why`` completes "name = value ..."; ``expected`` is
    what the field's type wants when the value is of the wrong type ("" when out of range)."""

    def __init__(self, why: str, expected: str = "") -> None:
        super().__init__(why)
        self.why = why
        self.expected = expected


def _wrong_type(expected: str) -> _Rejected:
    return _Rejected(f"is not {expected}", expected)


def _fields_of(cls: Any) -> dict[str, tuple[Any, Mapping[str, Any]]]:
    hints = typing.get_type_hints(cls)
    return {f.name: (hints[f.name], f.metadata) for f in dataclasses.fields(cls)}


def _convert(tp: Any, value: Any, name: str, problems: list[str], limits: Mapping[str, Any]) -> Any:
    """``value`` as the type ``tp`` within ``limits`` (``min``/``max``, for each item of a
    list or dict); raises :class:`_Rejected`. A dict's bad items are left out, each reported
    in ``problems``."""
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _wrong_type("true or false")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return _in_range(value, limits)
        raise _wrong_type("a whole number")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:  # an int beyond any float
                number = math.inf
            if not math.isfinite(number):
                raise _Rejected("is not a finite number")
            return _in_range(number, limits)
        raise _wrong_type("a number")
    if tp is str:
        if not isinstance(value, str):
            raise _wrong_type("a string")
        choices = limits.get("choices")
        if choices is not None and value not in choices:
            raise _Rejected(f"is not one of {', '.join(map(repr, choices))}")
        return value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if isinstance(value, Mapping):
            return from_table(tp, value, name, problems)
        raise _wrong_type("a table")
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        # None never comes from TOML, so only the other members can match.
        expected = []
        for option in (a for a in args if a is not type(None)):
            try:
                return _convert(option, value, name, problems, limits)
            except _Rejected as exc:
                if not exc.expected:  # the right type, out of range
                    raise
                expected.append(exc.expected)
        raise _wrong_type(" or ".join(expected))
    if origin is dict:
        if not isinstance(value, Mapping):
            raise _wrong_type("a table")
        out = {}
        for key, item in value.items():
            item_name = f"{name}.{key}"
            try:
                out[key] = _convert(args[1], item, item_name, problems, limits)
            except _Rejected as exc:
                problems.append(f"{item_name} = {show(item)} {exc.why}; left out")
        return out
    if origin is list:
        if not isinstance(value, list):
            raise _wrong_type("a list")
        try:
            return [_convert(args[0], item, name, problems, limits) for item in value]
        except _Rejected as exc:
            if exc.expected:
                raise _wrong_type(f"a list whose items are each {exc.expected}") from None
            raise _Rejected(f"holds an item that {exc.why}") from None
    raise TypeError(f"settings field {name!r} has a type the TOML store cannot hold: {tp!r}")


def _in_range(number: T, limits: Mapping[str, Any]) -> T:
    low, high = limits.get("min"), limits.get("max")
    if low is not None and number < low:
        raise _Rejected(f"is below {low}")
    if high is not None and number > high:
        raise _Rejected(f"is above {high}")
    return number


def _values(document: Mapping[str, Any], keys: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    out: dict[tuple[str, ...], Any] = {}
    for key, value in document.items():
        if isinstance(value, Mapping):
            out.update(_values(value, (*keys, key)))
        else:
            out[(*keys, key)] = value
    return out


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)
