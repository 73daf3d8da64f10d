"""A description's parameters: the numbers it leaves to the player (``(parameter k 5 3 9 "in a
row")``), read and checked, and the description with each ``$name`` set to its value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.words import arg, err, text_of, whole_number, word_of

__all__ = ["TAKEN", "Parameter", "bind", "parameters"]


@dataclass(frozen=True)
class Parameter:
    """A number the description leaves to the player (``(parameter k 5 3 9 "in a row")``):
    its name, default, least and greatest value and what it means; ``$k`` stands for it."""

    name: str
    default: int
    least: int
    most: int
    help: str


#: Names a parameter may not take: every described game's options already have them.
TAKEN: Final = frozenset(
    {
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth", "time_per_move", "position",
    }
)  # fmt: skip


def parameters(items: list[Item]) -> list[Parameter]:
    """The ``(parameter ...)`` forms among ``items``, checked."""
    out: list[Parameter] = []
    for item in items:
        if not (isinstance(item, Form) and item.head == "parameter"):
            continue
        name, default, least, most, *text = arg(item, 4, 5)
        word = word_of(name)
        if not word.isidentifier() or not word.islower() or word in TAKEN:
            raise err(name, "a parameter is a lower-case name other than " + ", ".join(TAKEN))
        if any(p.name == word for p in out):
            raise err(name, f"parameter {word!r} is given twice")
        low, high = whole_number(least, -10_000, 10_000), whole_number(most, -10_000, 10_000)
        if low > high:
            raise err(most, "the greatest value is below the least")
        out.append(
            Parameter(
                word, whole_number(default, low, high), low, high, text_of(text[0]) if text else ""
            )
        )
    return out


def bind(item: Item, values: Mapping[str, int]) -> Item:
    """``item`` with each ``$name`` word replaced by the parameter's value."""
    if isinstance(item, Atom):
        if not item.quoted and isinstance(item.value, str) and item.value.startswith("$"):
            name = item.value[1:]
            if name not in values:
                raise item.error(f"no parameter {name!r} (declare it with (parameter ...))")
            return Atom(values[name], item.line, item.column, item.source)
        return item
    return Form(
        tuple(bind(i, values) for i in item.items),
        item.line,
        item.column,
        item.source,
        item.closed_at,
    )
