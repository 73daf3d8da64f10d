"""Fuzzing the settings and statistics files: whatever bytes they hold, loading returns, keeps
every good value of a readable file, keeps the file as it was before anything rewrites it,
and sets an unreadable one aside; what it returns saves and loads back without a problem.

Each example is a file made from a dictionary of good values mixed with bad ones (wrong
types, out of range, nan, inf, huge ints, nesting, unknown keys and game tables), written as
TOML and then often spoilt as bytes (cut short, a byte order mark, random bytes, UTF-16, deep
nesting). The games' schemas are the registry's, as the program loads them.
"""

from __future__ import annotations

import math
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from game.logic.options import OptionsSchema
from game.registry import all_entries
from game.settings import GameStats, Settings, Statistics, Store
from game.tomlfile import MAX_FILE_BYTES
from tests.deep import sized

SCHEMAS: dict[str, OptionsSchema] = {entry.id: entry.options for entry in all_entries()}
BOM = b"\xef\xbb\xbf"
RECORD_KEYS = frozenset(f.name for f in fields(GameStats))
FUZZ = settings(
    max_examples=sized(80, 600),  # files a test (the deep size under slow_checks.py)
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass
class Made:
    """A generated file: its bytes, and (while they are the document as made) the good values
    it holds and the keys of the bad ones."""

    raw: bytes
    good: dict[tuple[str, ...], Any] = field(default_factory=dict)
    bad: set[tuple[str, ...]] = field(default_factory=set)
    intact: bool = True


# --- values ----------------------------------------------------------------------------------

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
_key = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8)
_huge = st.integers(2**53 + 1, 2**300) | st.integers(-(2**300), -1)
_leaf = st.one_of(
    _text,
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**70), 2**70),
    _huge,
    st.dates(),
)
#: Values of every TOML type, nested a little (tomli_w writes them; deep nesting is bytes).
_any = st.recursive(
    _leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_key, inner, max_size=3),
    max_leaves=8,
)


def _bad_for(kind: str) -> st.SearchStrategy[Any]:
    """Values a field of ``kind`` must refuse."""
    wrong = _any.filter(lambda v: not _fits(kind, v))
    if kind == "side":
        return wrong | st.integers(-(2**64), 0) | st.integers(16385, 2**64) | _huge
    if kind == "place":
        return wrong | st.integers(32768, 2**64) | st.integers(-(2**64), -32768)
    if kind == "count":
        return wrong | _huge
    return wrong


def _fits(kind: str, value: Any) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    low, high = {"side": (1, 16384), "place": (-32767, 32767), "count": (0, 2**53)}[kind]
    return low <= value <= high


_GOOD: dict[str, st.SearchStrategy[Any]] = {
    "side": st.integers(1, 16384),
    "place": st.integers(-32767, 32767),
    "count": st.integers(0, 2**53),
    "bool": st.booleans(),
    "str": _text,
}


@st.composite
def _field(draw: st.DrawFn, kind: str) -> tuple[bool, Any]:
    """(True, a good value) or (False, a bad one) for a field of ``kind``."""
    if draw(st.integers(0, 3)) == 0:
        return False, draw(_bad_for(kind))
    return True, draw(_GOOD[kind])


def _fields(
    draw: st.DrawFn,
    kinds: dict[str, str],
    table: dict[str, Any],
    made: Made,
    where: tuple[str, ...],
) -> None:
    """Some of ``kinds``' fields, good or bad, into ``table``, noted in ``made`` by path."""
    for name, kind in kinds.items():
        if not draw(st.booleans()):
            continue
        ok, value = draw(_field(kind))
        table[name] = value
        if ok:
            made.good[(*where, name)] = value
        else:
            made.bad.add((*where, name))


@st.composite
def _game_table(draw: st.DrawFn, schema: OptionsSchema) -> dict[str, Any]:
    """A table for a game: option values in range, sometimes with a value of any kind."""
    table: dict[str, Any] = {}
    for option in schema:
        if not draw(st.booleans()):
            continue
        if option.choices is not None:
            table[option.name] = draw(st.sampled_from(option.choices))
        elif option.kind is bool:
            table[option.name] = draw(st.booleans())
        elif option.kind in (int, float) and not callable(option.maximum):
            low, high = option.minimum, option.maximum
            assert low is not None and high is not None
            if option.kind is int:
                table[option.name] = draw(st.integers(int(low), int(high)))
            else:
                table[option.name] = draw(st.floats(low, high))
        else:
            table[option.name] = option.default
    if draw(st.integers(0, 2)) == 0:
        name = draw(st.sampled_from([*schema.names(), "no_such_option"]))
        table[name] = draw(_any | _huge | st.just(math.nan) | st.just(math.inf))
    return table


# --- files -----------------------------------------------------------------------------------

#: Top-level names that are no game's table: a value under one is a problem the store reports.
#: A name that becomes a registered game drops out (its table would be a good one).
_DECOYS = [
    name for name in ("games", "colour", "river2", "mahjong", "solitaire") if name not in SCHEMAS
]
assert len(_DECOYS) >= 3, _DECOYS


@st.composite
def settings_files(draw: st.DrawFn) -> Made:
    made = Made(b"")
    doc: dict[str, Any] = {}
    _fields(draw, {"last_game": "str", "shadows": "bool", "show_fps": "bool"}, doc, made, ())
    if draw(st.booleans()):
        window: dict[str, Any] = {}
        kinds = {"width": "side", "height": "side", "x": "place", "y": "place"}
        _fields(draw, kinds, window, made, ("window",))
        doc["window"] = window
    elif draw(st.integers(0, 5)) == 0:
        doc["window"] = draw(_leaf)
        made.bad.add(("window",))
    for game, schema in SCHEMAS.items():
        if draw(st.booleans()):
            doc[game] = table = draw(_game_table(schema))
            try:  # the game's own schema says which tables are good
                schema.validate(table)
            except ValueError:
                made.bad.add(("games", game))
            else:
                made.good[("games", game)] = table
    for name in draw(st.lists(st.sampled_from(_DECOYS), max_size=2)):
        doc[name] = draw(_any)
        made.bad.add((name,))
    made.raw = tomli_w.dumps(doc).encode("utf-8")
    return draw(_spoilt(made))


@st.composite
def statistics_files(draw: st.DrawFn) -> Made:
    made = Made(b"")
    games: dict[str, Any] = {}
    for game in draw(st.lists(_key, max_size=3, unique=True)):
        record: dict[str, Any] = {}
        kinds = {"played": "count", "won": "count", "lost": "count", "drawn": "count"}
        _fields(draw, kinds, record, made, ("games", game))
        if draw(st.booleans()):
            best: dict[str, Any] = {}
            names = draw(st.lists(_key, max_size=3))
            _fields(draw, dict.fromkeys(names, "count"), best, made, ("games", game, "best"))
            record["best"] = best
        if draw(st.integers(0, 5)) == 0:
            record[draw(_key.filter(lambda k: k not in RECORD_KEYS))] = draw(_any)
            made.bad.add(("games", game, "?"))
        games[game] = record
    doc: dict[str, Any] = {"games": games}
    if draw(st.integers(0, 5)) == 0:
        if draw(st.booleans()):
            doc[draw(_key.filter(lambda k: k != "games"))] = draw(_any)
        else:  # no table of games at all: no value in it is kept
            doc = {"games": draw(_leaf)}
            made.good.clear()
        made.bad.add(("?",))
    made.raw = tomli_w.dumps(doc).encode("utf-8")
    return draw(_spoilt(made))


@st.composite
def _spoilt(draw: st.DrawFn, made: Made) -> Made:
    """``made`` as it is, with a byte order mark, or spoilt as bytes (then not ``intact``)."""
    raw = made.raw
    how = draw(st.sampled_from(["as made", "as made", "bom", "cut", "bytes", "utf16", "deep"]))
    if how == "as made":
        return made
    if how == "bom":
        made.raw = BOM + raw
        return made
    made.intact = False
    if how == "cut":
        made.raw = raw[: draw(st.integers(0, max(len(raw) - 1, 0)))]
    elif how == "bytes":
        at = draw(st.integers(0, len(raw)))
        made.raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + raw[at + 1 :]
    elif how == "utf16":
        made.raw = raw.decode("utf-8").encode(draw(st.sampled_from(["utf-16", "utf-16-le"])))
    else:
        depth = draw(st.integers(1, 3000))
        made.raw = raw + b"deep = " + b"[" * depth + b"]" * depth + b"\n"
    return made


# --- the properties --------------------------------------------------------------------------


@pytest.mark.deep
@FUZZ
@given(settings_files())
def test_any_settings_file(made: Made) -> None:
    def check_good(loaded: Settings) -> None:
        for path, value in made.good.items():
            if path[0] == "games":
                assert loaded.games[path[1]] == SCHEMAS[path[1]].validate(value), path
            else:
                got: Any = loaded
                for part in path:
                    got = getattr(got, part)
                assert got == value, path

    _check_file(made, "settings.toml", lambda s: s.load_settings(), check_good)


@pytest.mark.deep
@FUZZ
@given(statistics_files())
def test_any_statistics_file(made: Made) -> None:
    def check_good(loaded: Statistics) -> None:
        for path, value in made.good.items():
            record = loaded.games[path[1]]
            if path[2] == "best":
                assert record.best[path[3]] == value, path
            else:
                assert getattr(record, path[2]) == value, path

    _check_file(made, "statistics.toml", lambda s: s.load_statistics(), check_good)


def _check_file(
    made: Made,
    name: str,
    load: Callable[[Store], tuple[Any, list[str]]],
    check_good: Callable[[Any], None],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        (home / name).write_bytes(made.raw)
        store = Store(home)
        loaded, messages = load(store)
        kept = sorted(home.glob(f"{name}.bad-*"))
        readable = _readable(made.raw)
        event("not readable" if not readable else "with problems" if messages else "clean")
        if not readable:
            assert not (home / name).exists()
            assert len(messages) == 1 and name in messages[0] and "kept as" in messages[0]
            assert [p.read_bytes() for p in kept] == [made.raw]
            assert loaded == type(loaded)()
        else:
            assert (home / name).read_bytes() == made.raw
            if messages:
                assert [p.read_bytes() for p in kept] == [made.raw]
                assert messages[-1] == f"{name}: the file as it was is kept as {kept[0].name}"
            else:
                assert kept == []
            if made.intact:
                check_good(loaded)
                # A file with a bad value says so; one with none says nothing.
                assert bool(messages) == bool(made.bad), (made.bad, messages)
        for message in messages:
            assert message.isprintable() and "\n" not in message and len(message) <= 300
        # Whatever was loaded saves, and loads back as it was without a message.
        if isinstance(loaded, Settings):
            store.save_settings(loaded)
        else:
            store.save_statistics(loaded)
        assert load(store) == (loaded, [])


def _readable(raw: bytes) -> bool:
    """Whether ``raw`` is a TOML document the store can read (the oracle: tomllib itself)."""
    if len(raw) > MAX_FILE_BYTES:
        return False
    try:
        tomllib.loads(raw.removeprefix(BOM).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError, ValueError):
        return False
    return True
