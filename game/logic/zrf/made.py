"""The engine's forms that the ZRF translation makes, each placed at the line and column of
the ZRF item it comes from (so that a message about it names the ``.zrf`` file's place)."""

from __future__ import annotations

from game.logic.rules.sexpr import Atom, Form, Item

__all__ = ["form", "text"]


def form(at: Item, head: str | Item, *items: Item | str | int) -> Form:
    """``(head item...)``, words and numbers made atoms, placed where ``at`` is."""
    where = (at.line, at.column, at.source)
    made = [x if isinstance(x, Atom | Form) else Atom(x, *where) for x in (head, *items)]
    return Form(tuple(made), *where)


def text(at: Item, value: str) -> Atom:
    """Quoted text (a position's or a zone's name that may not be a word), placed at ``at``."""
    return Atom(value, at.line, at.column, at.source, quoted=True)
