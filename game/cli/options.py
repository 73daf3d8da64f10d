"""A game's options as command-line flags, derived from its options schema
(:mod:`game.logic.options`): the schema is the one place an option's type, range and default
are written; this module only spells them as ``argparse`` flags and reads back what was typed.

Each option gets ``--name VALUE`` (``--name/--no-name`` for a true-or-false one), with the
range or the choices as its metavar and the default in its help; ``--set NAME=VALUE`` sets any
option by its name, those without a flag of their own included. What was typed is handed back
as typed (text): the schema checks it, as it checks the settings file and the window's
buttons, so the three accept and refuse the same values with the same words.

>>> import argparse
>>> from game.logic.options import Option, OptionsSchema
>>> schema = OptionsSchema((Option("devils", int, 3, minimum=1, maximum=20, help="devils"),))
>>> parser = argparse.ArgumentParser(prog="solve")
>>> add_option_flags(parser, schema)
>>> typed_options(schema, parser.parse_args(["--devils", "4"]))
{'devils': '4'}
>>> typed_options(schema, parser.parse_args(["--set", "devils=5"]))
{'devils': '5'}
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from game.logic.options import Option, OptionError, OptionsSchema

__all__ = ["add_option_flags", "typed_options"]

#: Where the parsed arguments keep ``--set``'s items and the options that got a flag.
_SET: Final = "options_set"
_FLAGGED: Final = "options_flagged"
#: Names the command line keeps for itself, whatever an option is called.
_KEPT: Final = frozenset({"verbose", "command", "entry", "options", _SET, _FLAGGED})


def add_option_flags(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                     schema: OptionsSchema) -> None:  # fmt: skip
    """One flag per option of ``schema`` (``--name VALUE``; ``--name/--no-name`` for a bool),
    all defaulting to None so that only what the person typed overrides the settings; an
    option whose flag the command already has (a described game's parameter called ``size``
    beside ``shot --size``), or whose name it keeps for itself, gets none.
    ``--set NAME=VALUE`` sets any option, those included. Add the command's own flags first."""
    taken = set(parser._option_string_actions)
    # Names the command line keeps for itself: its positionals and what it sets.
    kept = {a.dest for a in parser._actions if not a.option_strings} | _KEPT
    flagged = []
    for option in schema:
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
                option.flag, dest=option.name, default=None, metavar=option.metavar,
                help=_help(option),
            )  # fmt: skip
    unflagged = [o.name for o in schema if o.cli and o.name not in flagged]
    if "--set" not in taken:
        parser.add_argument(
            "--set", dest=_SET, action="append", default=None, metavar="NAME=VALUE",
            help="set an option by its name; again for more"
            + (f" (for {', '.join(unflagged)}: no flag of its own)" if unflagged else ""),
        )  # fmt: skip
    earlier = parser.get_default(_FLAGGED) or ()  # the same options added before
    parser.set_defaults(**{_FLAGGED: (*earlier, *flagged)})


def typed_options(schema: OptionsSchema, args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (as typed, not yet checked): their flags, then
    each ``--set NAME=VALUE``; raises :class:`~game.logic.options.OptionError` for a ``--set``
    that names no option or gives no value. :meth:`OptionsSchema.validate` checks the rest."""
    flagged = getattr(args, _FLAGGED, None)
    out = {
        option.name: getattr(args, option.name)
        for option in schema
        if option.cli
        and (flagged is None or option.name in flagged)
        and getattr(args, option.name, None) is not None
    }
    for item in getattr(args, _SET, None) or ():
        name, equals, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not value.strip():
            raise OptionError(f"--set takes NAME=VALUE, not {item!r}")
        if name not in schema or not schema[name].cli:
            known = ", ".join(o.name for o in schema if o.cli)
            raise OptionError(f"--set: no option {name!r}; the options: {known}")
        out[name] = value.strip()
    return out


def _help(option: Option) -> str:
    """The flag's help with its default; an empty default (no text given: the game's own
    start, say) is left unsaid rather than shown as ``(default )``."""
    if option.default is None or option.default == "":
        return option.help
    return f"{option.help} (default {option.default})"
