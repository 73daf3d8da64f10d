"""Named flags of a move and conditions read at a named position.

A move program may keep any number of named flags, each false when the program starts and
kept for that run only (a choice's branches each keep their own), and position flags: one
flag of a name for each position of the board. ``(set-flag NAME)`` and ``(clear-flag NAME)``
set and clear one, ``(flag NAME)`` asks it; ``(set-position-flag NAME)``,
``(clear-position-flag NAME)`` and ``(position-flag NAME)`` do the same for the cursor's
position. ``(at POSITION COND)`` asks a condition at a named position (the cursor stays).
The unnamed flag (``set-flag``, ``flag``) is one more of them.

The compiled programs keep every flag of a run in one whole number, ``fl``: bit 0 the
unnamed flag, then one bit per named flag and a run of bits per position flag (one for each
position), numbered as the writer meets the names.

>>> from game.logic.rules.sexpr import read
>>> from game.logic.rules.tree import text
>>> text(flag_statement(read("(set-position-flag seen)", "t.txt")[0]))
'(set-position-flag seen)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules import tree
from game.logic.rules.sexpr import Atom, Form, Item

if TYPE_CHECKING:
    from game.logic.rules.board import Board

__all__ = [
    "FLAG_CONDITIONS",
    "FLAG_STATEMENTS",
    "check_flag_condition",
    "check_flag_statement",
    "flag_condition",
    "flag_expression",
    "flag_line",
    "flag_statement",
]

#: The statements on named flags, each with one argument: the flag's name.
FLAG_STATEMENTS: Final = ("set-flag", "clear-flag", "set-position-flag", "clear-position-flag")
#: The conditions of this module and their (least, most) arguments.
FLAG_CONDITIONS: Final = {"flag": (1, 1), "position-flag": (1, 1), "at": (2, 2)}


def flag_statement(item: Form) -> tree.SetFlag:
    """The tree of ``(set-flag NAME)`` and the other statements of :data:`FLAG_STATEMENTS`."""
    return tree.SetFlag(
        _name(item), item.head.startswith("set-"), "position" in item.head, where=item
    )


def flag_condition(item: Form, condition: Callable[[Item], tree.Cond]) -> tree.Cond:
    """The tree of ``(flag NAME)``, ``(position-flag NAME)`` or ``(at POSITION COND)``
    (``condition`` reads the inner condition)."""
    if item.head == "at" and len(item) == 3:
        return tree.At(place_of(item[1]), condition(item[2]), where=item)
    return tree.Flag(_name(item), item.head == "position-flag", where=item)


def check_flag_statement(item: Form) -> None:
    """Refuses a flag statement without exactly one name."""
    _name(item)


def check_flag_condition(board: Board, item: Form, condition: Callable[[Item], None]) -> None:
    """Refuses a flag condition without one name, or ``at`` with a position the board does
    not have (``condition`` checks the inner condition)."""
    if item.head != "at":
        _name(item)
        return
    if len(item) != 3:
        raise item.error("(at POSITION CONDITION) takes a position and a condition")
    place = place_of(item[1])
    if place not in board.names:
        raise item[1].error(f"no position {place!r} on the board")
    condition(item[2])


def place_of(item: Item) -> str:
    """A position's name: a word, a number or a quoted text."""
    if isinstance(item, Atom) and isinstance(item.value, str | int):
        return str(item.value)
    raise item.error(f"a position's name is needed here, not {str(item)[:30]}")


def _name(item: Form) -> str:
    if len(item) != 2 or not isinstance(item[1], Atom) or not isinstance(item[1].value, str):
        raise item.error(f"({item.head} NAME) takes the flag's name")
    return item[1].value


# -- compiled ---------------------------------------------------------------------------------


def _bit(writer: Any, name: str, position: bool) -> int:
    """The first bit of flag ``name`` in ``fl``, given in the order the writer meets names."""
    table: dict[tuple[str, bool], int] = vars(writer).setdefault("flag_bits", {})
    if (name, position) not in table:
        table[(name, position)] = vars(writer).get("flag_next", 1)
        size = len(writer.design.board.names) if position else 1
        vars(writer)["flag_next"] = table[(name, position)] + size
    return table[(name, position)]


def flag_line(writer: Any, node: tree.SetFlag) -> str:
    """The line of Python that sets or clears a flag."""
    k = _bit(writer, node.name, node.position)
    mask = f"(1 << ({k} + c))" if node.position else str(1 << k)
    return f"fl = fl | {mask}" if node.on else f"fl = fl & ~{mask}"


def flag_expression(writer: Any, cond: tree.Flag | tree.At) -> str:
    """The Python expression of a flag condition or of ``at``."""
    if isinstance(cond, tree.At):
        where = writer.design.board.names.index(cond.place)
        return f"(lambda c: ({writer.cond(cond.cond)}))({where})"
    k = _bit(writer, cond.name, cond.position)
    return f"(fl >> ({k} + c)) & 1" if cond.position else f"fl & {1 << k}"
