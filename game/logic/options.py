"""One declaration of a game's options, read by the logic, the settings file, the command line
and the options buttons, so they can never disagree.

An :class:`Option` names one value: its type, default, range or choices, a line of help and
how a button moves it. An :class:`OptionsSchema` checks a whole set of values (every value
finite, in range and of its type, then the game's own cross-checks), fills in defaults, reads a
settings table leniently (a bad value falls back to its default and is reported by key) and
moves a value up or down, or to its next choice, for a button. This is the only place an
option's type, range or default is written: the command line's flags
(:mod:`game.cli.options`), the settings file (:mod:`game.settings`), the window's buttons and a
game's typed options (MasterGrab's :class:`~game.logic.grab.options.GrabOptions`) read it.

>>> schema = OptionsSchema((Option("devils", int, 3, minimum=1, maximum=20, help="devils"),))
>>> schema.validate({"devils": 4})
{'devils': 4}
>>> schema.validate({"devils": 0})
Traceback (most recent call last):
...
game.logic.options.OptionError: devils must be at least 1, not 0
>>> schema.step({"devils": 3}, "devils", +1)
{'devils': 4}
>>> schema["devils"].title, schema["devils"].metavar
('Devils', '1..20')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.logic.numbers import parse_decimal, parse_whole
from game.logic.quoting import excerpt

__all__ = ["Option", "OptionError", "OptionsSchema"]


class OptionError(ValueError):
    """An option value that is of the wrong type, out of range or not one of the choices."""


@dataclass(frozen=True)
class Option:
    """One option: ``kind`` is int, float, bool or str; ``choices`` limits a str (or int).

    ``minimum`` and ``maximum`` bound a number (``open_minimum``: the minimum itself is
    refused, a factor that must be above 0); ``step`` is what a + or - button adds; ``label``
    is the button's word for it (default: the name, capitalised, with spaces); ``cli`` False
    gives it no flag of its own on the command line (``--set`` still reaches it).
    """

    name: str
    kind: type
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] | None = None
    help: str = ""
    step: float = 1
    cli: bool = True
    open_minimum: bool = False
    label: str = ""

    def check(self, value: Any, *, strict: bool = False) -> Any:
        """``value`` converted to the option's type; raises :class:`OptionError` naming it.

        Text is read as typed (``"4"`` for a number, ``"yes"`` for true) and a whole float
        as an int (``4.0``, as TOML may hold it) unless ``strict``: a typed object's field
        takes a value of its own type only."""
        name = self.name
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if not strict and isinstance(value, str) and value.lower() in _BOOLS:
                return _BOOLS[value.lower()]
            raise OptionError(f"{name} must be true or false, not {value!r}")
        if self.kind in (int, float):
            if strict and isinstance(value, str):
                raise OptionError(f"{name} must be a number, not {value!r}")
            if strict and self.kind is int and isinstance(value, float):
                raise OptionError(f"{name} must be a whole number, not {value!r}")
            value = self._number(value)
        elif self.kind is str and not isinstance(value, str):
            raise OptionError(f"{name} must be text, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"{name} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
            )
        return value

    @property
    def flag(self) -> str:
        """The command line's flag: ``--name`` with dashes."""
        return "--" + self.name.replace("_", "-")

    @property
    def metavar(self) -> str:
        """What the option takes, in a word: its choices (``a|b``), its range (``1..20``)
        or its kind (``INT``)."""
        if self.choices is not None:
            return "|".join(map(str, self.choices))
        if self.minimum is not None and self.maximum is not None:
            return f"{_num(self.minimum)}..{_num(self.maximum)}"
        return self.kind.__name__.upper()

    @property
    def title(self) -> str:
        """The button's word for the option: ``label``, else the name with spaces."""
        return self.label or self.name.replace("_", " ").capitalize()

    @property
    def stepped(self) -> bool:
        """Whether a button moves it by :attr:`step` (a number without choices); else it
        turns to the next choice (a choice, true or false) or is typed (free text)."""
        return self.choices is None and self.kind in (int, float)

    @property
    def cycled(self) -> bool:
        """Whether a button turns it round its values: its choices, or true and false."""
        return self.choices is not None or self.kind is bool

    def moved(self, value: Any, delta: int) -> Any:
        """``value`` moved ``delta`` steps (a number, rounded to the places it and the step
        are written with: 0.2 + 0.1 is 0.3, 2/3 + 0.05 is 0.72) or choices round (a choice;
        true and false for a bool), then checked by this option alone; raises
        :class:`OptionError` past a limit, or for free text."""
        if self.choices is not None:
            index = (self.choices.index(value) + delta) % len(self.choices)
            return self.check(self.choices[index])
        if self.kind is bool:
            return self.check(bool(value) != bool(delta % 2))
        if self.kind in (int, float):
            # Rounded to the places the step and the value are written with; a value written
            # with more (2/3, or noise as 0.30000000000000004) comes to the step's grid.
            places = _places(value)
            places = (
                _places(self.step) if places > _MOST_PLACES else max(places, _places(self.step))
            )
            return self.check(round(value + delta * self.step, places))
        raise OptionError(f"{self.name} is typed, not stepped")

    def can_move(self, value: Any, delta: int) -> bool:
        """Whether :meth:`moved` stays inside this option's own range (a + or - button's
        state; the schema's cross-check is left to the press, which says why)."""
        try:
            self.moved(value, delta)
        except OptionError:
            return False
        return True

    def _number(self, value: Any) -> int | float:
        name = self.name
        if isinstance(value, str):  # typed: read by the one number reader (ASCII digits)
            typed = value
            value = parse_whole(typed) if self.kind is int else parse_decimal(typed)
            if value is None:
                endless = typed.strip().lower().lstrip("+-") in _NOT_FINITE
                kind = (
                    "whole number" if parse_decimal(typed) is not None
                    else "finite number" if endless and self.kind is float
                    else "number"
                )  # fmt: skip
                raise OptionError(f"{name} must be a {kind}{self._range()}, not {excerpt(typed)}")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(f"{name} must be a number, not {value!r}")
        if isinstance(value, int) and value.bit_length() > 1023:  # beyond any float (and repr)
            raise OptionError(f"{name} is out of range: a number of {value.bit_length()} bits")
        if not math.isfinite(value):
            raise OptionError(f"{name} must be a finite number, not {value!r}")
        if self.kind is int:
            if value != int(value):
                raise OptionError(f"{name} must be a whole number, not {value!r}")
            value = int(value)
        else:
            value = float(value)
        if self.minimum is not None and self.open_minimum and value <= self.minimum:
            raise OptionError(f"{name} must be above {_num(self.minimum)}, not {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{name} must be at least {_num(self.minimum)}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{name} must be at most {_num(self.maximum)}, not {value!r}")
        return float(value) if self.kind is float else int(value)

    def _range(self) -> str:
        """`` from LOW to HIGH`` when both are fixed numbers, else ""."""
        low, high = self.minimum, self.maximum
        if low is None or high is None:
            return ""
        if self.open_minimum:
            return f" above {_num(low)} and at most {_num(high)}"
        return f" from {_num(low)} to {_num(high)}"


@dataclass(frozen=True)
class OptionsSchema:
    """A game's options; ``cross_check`` raises :class:`OptionError` (or another
    ``ValueError``) for a combination no single range can refuse (a puzzle with no solution)."""

    options: tuple[Option, ...] = ()
    cross_check: Callable[[Mapping[str, Any]], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for option in self.options:
            option.check(option.default)  # a default outside its own range is a bug

    def __iter__(self) -> Iterator[Option]:
        return iter(self.options)

    def __contains__(self, name: object) -> bool:
        return any(option.name == name for option in self.options)

    def __getitem__(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)

    def names(self) -> list[str]:
        return [option.name for option in self.options]

    def defaults(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}

    def validate(
        self, values: Mapping[str, Any], *, partial: bool = False, strict: bool = False
    ) -> dict[str, Any]:
        """Every value checked (``strict``: of its own type, no text read as typed), missing
        ones defaulted (unless ``partial``), then the cross-check; raises
        :class:`OptionError` for the first bad value or unknown name."""
        unknown = sorted(set(values) - set(self.names()))
        if unknown:
            raise OptionError(
                f"unknown option {unknown[0]!r}; the options are {', '.join(self.names())}"
            )
        out = {} if partial else self.defaults()
        for name, value in values.items():
            out[name] = self[name].check(value, strict=strict)
        if not partial and self.cross_check is not None:
            self.cross_check(out)
        return out

    def load(self, table: Mapping[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
        """Values from a settings table: a bad or unknown value is reported in ``problems``
        (naming ``where`` and the key) and its default used; a combination the cross-check
        refuses falls back to all defaults."""
        out = self.defaults()
        for name, value in table.items():
            if name not in self:
                problems.append(f"{where}: unknown option {name!r} ignored")
                continue
            try:
                out[name] = self[name].check(value)
            except OptionError as exc:
                problems.append(f"{where}: {exc}; using {self[name].default!r}")
        if self.cross_check is not None:
            try:
                self.cross_check(out)
            except ValueError as exc:
                problems.append(f"{where}: {exc}; using the defaults")
                out = self.defaults()
        return out

    def step(self, values: Mapping[str, Any], name: str, delta: int) -> dict[str, Any]:
        """``values`` with ``name`` moved ``delta`` steps (a number) or choices (a choice, or
        true and false), as :meth:`Option.moved` does; raises :class:`OptionError` at a limit,
        or whatever the cross-check raises."""
        return self.validate({**values, name: self[name].moved(values[name], delta)})

    def can_step(self, values: Mapping[str, Any], name: str, delta: int) -> bool:
        """Whether :meth:`step` would take ``values`` (the cross-check included)."""
        try:
            self.step(values, name, delta)
        except ValueError:
            return False
        return True

    def press(self, values: Mapping[str, Any], name: str, delta: int = 1) -> dict[str, Any]:
        """``values`` after a press of ``name``'s button: a number moved ``delta`` steps; a
        choice (or true and false) turned on to the next value round that the whole schema
        takes, skipping those the cross-check refuses (a puzzle with no solution). Raises the
        first refusal as an :class:`OptionError` when nothing else is taken.

        >>> def solvable(values):
        ...     if values["side"] == "b":
        ...         raise OptionError("b cannot be solved")
        >>> side = Option("side", str, "a", choices=("a", "b", "c"))
        >>> schema = OptionsSchema((side,), cross_check=solvable)
        >>> schema.press({"side": "a"}, "side")
        {'side': 'c'}
        >>> schema.press({"side": "c"}, "side", -1)
        {'side': 'a'}
        """
        option = self[name]
        tries = len(option.choices) - 1 if option.choices is not None else 1
        first: ValueError | None = None
        for turn in range(1, tries + 1):
            try:
                return self.step(values, name, turn * delta)
            except ValueError as exc:  # OptionError, or the game's cross-check
                first = first or exc
        if isinstance(first, OptionError) or first is None:
            raise first or OptionError(f"{name} has no other value")
        raise OptionError(str(first)) from first

    def describe(self) -> list[str]:
        """One line per option for help panels: name, range or choices, default, help."""
        return [f"{o.name} ({o.metavar}, default {o.default!r}): {o.help}" for o in self]


_NOT_FINITE = frozenset({"nan", "inf", "infinity"})

_BOOLS = {"true": True, "yes": True, "on": True, "1": True,
          "false": False, "no": False, "off": False, "0": False}  # fmt: skip


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


#: The most decimal places a value a person gave is taken to have; more is float noise.
_MOST_PLACES = 12


def _places(value: float) -> int:
    """The decimal places ``value`` is written with (``0.05``: 2; ``3``: 0)."""
    if isinstance(value, int):
        return 0
    text = repr(float(value))
    if "e" in text or "E" in text:
        return _MOST_PLACES + 1
    return len(text.partition(".")[2].rstrip("0"))
