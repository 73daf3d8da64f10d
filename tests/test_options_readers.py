"""Every reader of a game's options takes what its schema takes: the settings file's table, the
command line's flags (and ``--set``), the window's buttons and MasterGrab's typed options.

The values tried are derived from each registered game's schema (its limits, one past them,
its choices, text that is no number, numbers no float holds), never written here per game, so
a new game or option is covered as it is registered.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator
from typing import Any

import pytest

from game.cli.options import add_option_flags, typed_options
from game.logic.clue.deck import load_deck
from game.logic.clue.rules import ROUND_CAP, SEATS, ClueRules
from game.logic.grab.options import SCHEMA as GRAB
from game.logic.grab.options import GrabOptions, GrabOptionsError
from game.logic.options import Option, OptionError, OptionsSchema
from game.logic.river.rules import RULE_OPTIONS, RiverRules, RiverSettingError
from game.registry import Entry, all_entries
from game.session import Session
from game.settings import Settings, _game_tables

ENTRIES = {entry.id: entry for entry in all_entries()}


def probes(option: Option) -> Iterator[Any]:
    """Values to try for ``option``: good and bad, as a file or a person would give them."""
    if option.choices is not None:
        yield from option.choices
        yield "no-such-choice"
    elif option.kind is bool:
        yield from (True, False, "yes", "off", "maybe", 2)
    elif option.kind is str:
        yield from ("x", 5)
    else:
        low, high, step = option.minimum, option.maximum, option.step
        numbers: list[float] = [option.default]
        if low is not None:
            numbers += [low, low - step, low + step]
        if high is not None:
            numbers += [high, high + step, high - step]
        as_kind = [int(n) if option.kind is int and float(n).is_integer() else n for n in numbers]
        yield from as_kind
        yield from (2**1100, -(2**1100), math.nan, math.inf, "12abc", True)
        if option.kind is float:
            yield 0.5


def by_settings(entry: Entry, name: str, value: Any) -> Any:
    """The value the settings file's ``[game]`` table gives ``name`` (a problem: refused)."""
    problems: list[str] = []
    games = _game_tables({entry.id: {name: value}}, {entry.id: entry.options}, problems)
    return _REFUSED if problems else games[entry.id][name]


def by_command_line(entry: Entry, name: str, value: Any) -> Any:
    """The value ``--name VALUE`` (or ``--set name=VALUE`` when it has no flag) gives ``name``,
    as the command line checks it (a refusal: refused)."""
    text = _typed(value)
    option = entry.options[name]
    parser = argparse.ArgumentParser(prog="test")
    add_option_flags(parser, entry.options)
    flags = {a.dest for a in parser._actions}
    if option.kind is bool and name in flags and isinstance(value, bool):
        argv = [option.flag if value else "--no-" + option.flag[2:]]
    elif option.kind is not bool and name in flags:
        argv = [f"{option.flag}={text}"]
    else:
        argv = ["--set", f"{name}={text}"]
    try:
        return entry.options.validate(typed_options(entry.options, parser.parse_args(argv)))[name]
    except ValueError:
        return _REFUSED


def by_session(entry: Entry, name: str, value: Any) -> Any:
    """The value a session starts the game with when it was saved as ``value``."""
    try:
        return Session(entry.id, entry.options, Settings(games={entry.id: {name: value}})).options[
            name
        ]
    except ValueError:
        return _REFUSED


@pytest.mark.parametrize("entry", list(ENTRIES.values()), ids=list(ENTRIES))
def test_the_file_the_flags_and_the_session_take_the_same_values(entry: Entry) -> None:
    """Each probe of each option: the settings file's table, a session started from saved
    values and the command line (where the text typed means the same value) give the value
    the schema gives, or all refuse it."""
    disagree = []
    for option in entry.options:
        for value in probes(option):
            try:
                expected = entry.options.validate({option.name: option.check(value)})[option.name]
            except ValueError:
                expected = _REFUSED
            got = {
                "file": by_settings(entry, option.name, value),
                "session": by_session(entry, option.name, value),
            }
            if _typable(option, value):
                got["command line"] = by_command_line(entry, option.name, value)
            disagree += [
                f"{option.name}={value!r}: {reader} {answer!r}, schema {expected!r}"
                for reader, answer in got.items()
                if answer != expected
            ]
    assert disagree == []


#: Typed options and the schema they are made from: (schema, class, its error, the fields
#: the class holds typed otherwise: a tuple, an enum).
TYPED = {
    "grab": (GRAB, GrabOptions, GrabOptionsError, ("robots", "distribution")),
    "river": (RULE_OPTIONS, RiverRules, RiverSettingError, ("rowers", "goal")),
    "clue": (
        OptionsSchema((SEATS, ROUND_CAP)),
        lambda **kw: ClueRules(load_deck("classic"), **{"seats": 4, **kw}),
        OptionError,
        (),
    ),
}


@pytest.mark.parametrize("game", list(TYPED))
def test_typed_options_take_what_their_schema_takes(game: str) -> None:
    """A value of the field's own type: the typed object refuses what the schema refuses, in
    the schema's words, and holds what it takes as the schema gives it; a value of another
    type (text: the schema's to read from a file or a flag) it refuses. (River's rules may
    refuse more: a start already lost, which the puzzle's cross-check refuses as well.)"""
    schema, typed, error, other = TYPED[game]
    disagree = []
    for option in schema:
        if option.name in other:
            continue
        for value in probes(option):
            said = f"{option.name}={value!r}"
            try:
                expected: Any = schema.validate({option.name: value}, strict=True)[option.name]
            except OptionError as exc:
                expected = _REFUSED, str(exc)
            try:
                got: Any = getattr(typed(**{option.name: value}), option.name)
            except error as exc:
                got = _REFUSED, str(exc)
            if game == "river" and isinstance(got, tuple) and not isinstance(expected, tuple):
                continue  # the rules' own invariants (more devils than priests)
            if got != expected:
                disagree.append(f"{said}: typed {got!r}, schema {expected!r}")
            elif not isinstance(got, tuple) and not _native(option, value):
                disagree.append(f"{said}: typed takes a value not of its type")
    assert disagree == []


def test_a_grab_value_out_of_range_loses_only_itself_in_the_file() -> None:
    """attack_factor must be above 0: the schema's own range says so, so a file with 0 keeps
    its other values (it once passed the range, failed the typed check, and took the whole
    table back to the defaults)."""
    problems: list[str] = []
    games = _game_tables({"grab": {"attack_factor": 0, "countries": 200}}, {"grab": GRAB}, problems)
    assert games["grab"]["countries"] == 200
    assert games["grab"]["attack_factor"] == GRAB["attack_factor"].default
    assert problems == ["[grab]: attack_factor must be above 0, not 0.0; using 0.5"]


@pytest.mark.parametrize("entry", list(ENTRIES.values()), ids=list(ENTRIES))
def test_a_button_moves_an_option_within_the_schema(entry: Entry) -> None:
    """From the defaults, every option a button moves goes to a value the schema takes, or
    is refused at its limit with the schema's reason; a choice turns round to where it
    started."""
    schema: OptionsSchema = entry.options
    values = schema.defaults()
    for option in schema:
        if option.cycled:
            count = len(option.choices) if option.choices is not None else 2
            seen = [values[option.name]]
            for _ in range(count):
                seen.append(option.moved(seen[-1], +1))
            assert seen[-1] == seen[0] and len(set(seen[:-1])) == count
            assert option.moved(option.moved(seen[0], +1), -1) == seen[0]
        elif option.stepped:
            for delta in (-1, +1):
                if option.can_move(values[option.name], delta):
                    moved = option.moved(values[option.name], delta)
                    assert option.check(moved) == moved
                    # One step, give or take the rounding onto the step's grid.
                    assert abs(moved - values[option.name] - delta * option.step) < option.step / 2
                else:
                    with pytest.raises(OptionError, match=option.name):
                        option.moved(values[option.name], delta)
        else:
            assert not option.can_move(values[option.name], +1)
            continue
        try:  # a press: the next value the whole schema takes (the cross-check included)
            pressed = schema.press(values, option.name, +1)
        except OptionError:
            assert not schema.can_step(values, option.name, +1)
        else:
            assert schema.validate(pressed) == pressed
            assert pressed[option.name] != values[option.name]


def test_a_step_leaves_no_float_noise() -> None:
    factor = Option("f", float, 0.1, 0.0, 1.0, step=0.1)
    assert factor.moved(0.2, +1) == 0.3  # 0.2 + 0.1 is 0.30000000000000004 in floats
    assert factor.moved(0.3, -3) == 0.0
    assert factor.moved(0.25, +1) == 0.35  # a value written finer than the step keeps it
    assert GRAB["protection_factor"].moved(2 / 3, +1) == 0.72  # onto the step's grid
    with pytest.raises(OptionError, match="at most 1"):
        factor.moved(1.0, +1)


_REFUSED = "refused"


def _typable(option: Option, value: Any) -> bool:
    """Whether ``value`` typed as text means what it means in a file (``5`` typed is the
    text "5", which a text option takes and a file's 5 is not; "yes" in a file is text)."""
    if not option.cli:  # no flag, and --set refuses it: a command's own flag sets it
        return False
    if option.kind is str or option.choices is not None:
        return isinstance(value, str) and value != ""
    if option.kind is bool:
        return isinstance(value, bool)
    return isinstance(value, int | float) and not isinstance(value, bool)


def _native(option: Option, value: Any) -> bool:
    """Whether ``value`` is of the type of ``option``'s field (an int is a float's too)."""
    if option.kind is bool or isinstance(value, bool):
        return option.kind is bool and isinstance(value, bool)
    if option.kind is float:
        return isinstance(value, int | float)
    return isinstance(value, option.kind)


def _typed(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def test_a_session_checks_its_options_once() -> None:
    """The saved values and the typed ones are checked together, once (on main: the saved
    ones alone first, then all of them again)."""
    asked: list[dict[str, Any]] = []

    class Watched(OptionsSchema):
        def validate(self, values: Any, **how: Any) -> dict[str, Any]:
            asked.append(dict(values))
            return super().validate(values, **how)

    schema = Watched((Option("devils", int, 3, minimum=0, maximum=9),))
    session = Session(
        "river", schema, Settings(games={"river": {"devils": 5}}), None, {"devils": "4"}
    )
    assert session.options == {"devils": 4}
    assert asked == [{"devils": "4"}]
    with pytest.raises(OptionError, match="at most 9"):
        Session("river", schema, Settings(games={"river": {"devils": 5}}), None, {"devils": "10"})
