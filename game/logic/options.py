"""One declaration of a game's options, read by the logic, the settings file, the command line
and the options buttons, so they can never disagree.

An :class:`Option` names one value: its type, default, range or choices and a line of help.
An :class:`OptionsSchema` checks a whole set of values (every value finite, in range and of its
type, then the game's own cross-checks), fills in defaults, reads a settings table leniently
(a bad value falls back to its default and is reported by key) and steps a value up or down
for a button.

>>> schema = OptionsSchema((Option("devils", int, 3, minimum=1, maximum=20, help="devils"),))
>>> schema.validate({"devils": 4})
{'devils': 4}
>>> schema.validate({"devils": 0})
Traceback (most recent call last):
...
game.logic.options.OptionError: devils must be at least 1, not 0
>>> schema.step({"devils": 3}, "devils", +1)
{'devils': 4}
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping, Sequence
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

    ``cli`` is the flag's name (default ``--name`` with dashes); ``step`` is what a + or -
    button adds; ``maximum`` may be a callable of the other values (a seat count that depends
    on the map).
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

    def check(self, value: Any) -> Any:
        """``value`` converted to the option's type; raises :class:`OptionError` naming it."""
        name = self.name
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in _BOOLS:
                return _BOOLS[value.lower()]
            raise OptionError(f"{name} must be true or false, not {value!r}")
        if self.kind in (int, float):
            value = self._number(value)
        elif self.kind is str and not isinstance(value, str):
            raise OptionError(f"{name} must be text, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(
                f"{name} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
            )
        return value

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
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{name} must be at least {_num(self.minimum)}, not {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{name} must be at most {_num(self.maximum)}, not {value!r}")
        return float(value) if self.kind is float else int(value)

    def _range(self) -> str:
        """`` from LOW to HIGH`` when both are fixed numbers, else ""."""
        low, high = self.minimum, self.maximum
        if low is None or high is None or callable(high):
            return ""
        return f" from {_num(low)} to {_num(high)}"

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class OptionsSchema:
    """A game's options; ``cross_check`` raises :class:`OptionError` (or another
    ``ValueError``) for a combination no single range can refuse (a puzzle with no solution)."""

    options: tuple[Option, ...] = ()
    cross_check: Callable[[Mapping[str, Any]], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for option in self.options:
            option.check(option.default)  # a default outside its own range is a bug

    def __iter__(self) -> Any:
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

    def validate(self, values: Mapping[str, Any], *, partial: bool = False) -> dict[str, Any]:
        """Every value checked, missing ones defaulted (unless ``partial``), then the
        cross-check; raises :class:`OptionError` for the first bad value or unknown name."""
        unknown = sorted(set(values) - set(self.names()))
        if unknown:
            raise OptionError(
                f"unknown option {unknown[0]!r}; the options are {', '.join(self.names())}"
            )
        out = {} if partial else self.defaults()
        for name, value in values.items():
            out[name] = self[name].check(value)
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
        """``values`` with ``name`` moved ``delta`` steps (a number) or choices (a choice);
        raises :class:`OptionError` at a limit, or whatever the cross-check raises."""
        option = self[name]
        current = values[name]
        if option.choices is not None:
            index = (option.choices.index(current) + delta) % len(option.choices)
            new: Any = option.choices[index]
        elif option.kind is bool:
            new = not current
        elif option.kind in (int, float):
            new = current + delta * option.step
        else:
            raise OptionError(f"{name} is typed, not stepped")
        return self.validate({**values, name: new})

    def can_step(self, values: Mapping[str, Any], name: str, delta: int) -> bool:
        try:
            self.step(values, name, delta)
        except ValueError:
            return False
        return True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """One flag per option (``--name VALUE``; ``--name/--no-name`` for a bool), all
        defaulting to None so that only what the user typed overrides the settings; an option
        whose flag the command already has (a described game's parameter called ``size``
        beside ``shot --size``), or whose name it keeps for itself, gets none.
        ``--set NAME=VALUE`` sets any option, those included. Add the command's own flags
        first."""
        taken = set(parser._option_string_actions)
        # Names the command line keeps for itself: its positionals and what it sets.
        kept = {a.dest for a in parser._actions if not a.option_strings} | _KEPT
        flagged = []
        for option in self.options:
            if not option.cli or option.flag in taken or option.name in kept:
                continue
            flagged.append(option.name)
            if option.kind is bool:
                parser.add_argument(
                    option.flag, action=argparse.BooleanOptionalAction, default=None,
                    help=option.help,
                )  # fmt: skip
            else:
                parser.add_argument(
                    option.flag, dest=option.name, default=None, metavar=_metavar(option),
                    help=_help(option),
                )  # fmt: skip
        unflagged = [o.name for o in self.options if o.cli and o.name not in flagged]
        if "--set" not in taken:
            parser.add_argument(
                "--set", dest=_SET, action="append", default=None, metavar="NAME=VALUE",
                help="set an option by its name; again for more"
                + (f" (for {', '.join(unflagged)}: no flag of its own)" if unflagged else ""),
            )  # fmt: skip
        earlier = parser.get_default(_FLAGGED) or ()  # the same options added before
        parser.set_defaults(**{_FLAGGED: (*earlier, *flagged)})

    def from_arguments(self, args: argparse.Namespace) -> dict[str, Any]:
        """The options given on the command line (as typed, not yet validated): their flags,
        then each ``--set NAME=VALUE``; raises :class:`OptionError` for a ``--set`` that
        names no option or gives no value."""
        flagged = getattr(args, _FLAGGED, None)
        out = {
            option.name: getattr(args, option.name)
            for option in self.options
            if option.cli
            and (flagged is None or option.name in flagged)
            and getattr(args, option.name, None) is not None
        }
        for item in getattr(args, _SET, None) or ():
            name, equals, value = item.partition("=")
            name = name.strip().replace("-", "_")
            if not equals or not value.strip():
                raise OptionError(f"--set takes NAME=VALUE, not {item!r}")
            if name not in self or not self[name].cli:
                known = ", ".join(o.name for o in self.options if o.cli)
                raise OptionError(f"--set: no option {name!r}; the options: {known}")
            out[name] = value.strip()
        return out

    def describe(self) -> list[str]:
        """One line per option for help panels: name, range or choices, default, help."""
        return [f"{o.name} ({_metavar(o)}, default {o.default!r}): {o.help}" for o in self]


#: Where the parsed arguments keep ``--set``'s items and the options that got a flag.
_SET = "options_set"
_FLAGGED = "options_flagged"
_KEPT = frozenset({"verbose", "command", "entry", "options", _SET, _FLAGGED})

_NOT_FINITE = frozenset({"nan", "inf", "infinity"})

_BOOLS = {"true": True, "yes": True, "on": True, "1": True,
          "false": False, "no": False, "off": False, "0": False}  # fmt: skip


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _metavar(option: Option) -> str:
    if option.choices is not None:
        return "|".join(map(str, option.choices))
    if option.minimum is not None and option.maximum is not None:
        return f"{_num(option.minimum)}..{_num(option.maximum)}"
    return option.kind.__name__.upper()


def _help(option: Option) -> str:
    """The flag's help with its default; an empty default (no text given: the game's own
    start, say) is left unsaid rather than shown as ``(default )``."""
    if option.default is None or option.default == "":
        return option.help
    return f"{option.help} (default {option.default})"


def check_names(names: Sequence[str], allowed: Sequence[str], what: str) -> None:
    """Raise :class:`OptionError` unless every name is one of ``allowed``."""
    for name in names:
        if name not in allowed:
            raise OptionError(f"unknown {what} {name!r}; choose one of {', '.join(allowed)}")
