"""ZRF's statements that move another piece than the one the move began with, jump the
cursor, and create or change pieces, written as the engine's statements
(:mod:`game.logic.rules.relays`):

- ``from`` and ``to`` are the engine's ``from`` and ``to``; ``cascade`` is ``relay`` (the
  piece so far lands at ``to``, or at the cursor, and the piece at the cursor moves on);
  ``add-copy`` is ``add-copy``;
- a position's name as a statement, and ``(go from|to|last-from|last-to)``, are ``(go ...)``;
  ``(go mark)`` is ``back``;
- ``(add T1 T2 ...)`` is a choice of promotions, one move each (``add-copy`` alike);
- ``(capture P)``, ``(flip P)``, ``(create [OWNER] [TYPE] [P])``, ``(change-owner [P])`` and
  ``(change-type TYPE [P])`` are ``(put PIECE OWNER PLACE)``, ``P`` a position or a direction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.zrf.made import form as _form
from game.logic.zrf.made import text as _text

if TYPE_CHECKING:
    from game.logic.zrf.translate import Translation

__all__ = ["FORMS", "WORDS", "form", "word"]

#: ZRF's statement words this module writes, and the engine's word for each.
WORDS: Final = {
    "from": "from", "to": "to", "cascade": "relay", "add-copy": "add-copy", "change-owner": "",
}  # fmt: skip
#: ZRF's statement forms this module writes.
FORMS: Final = frozenset(
    {"go", "capture", "flip", "create", "change-owner", "change-type", "add-copy"}
)


def word(t: Translation, item: Atom) -> list[Item]:
    """A statement word: one of :data:`WORDS`, or a position's name (the cursor jumps)."""
    name = str(item.value)
    if name == "change-owner":
        return [_put(item, "same", "mover", None)]
    if name in WORDS:
        return [Atom(WORDS[name], item.line, item.column, item.source)]
    return [_form(item, "go", _text(item, name))]


def form(t: Translation, item: Form) -> list[Item]:
    """A statement form whose head is in :data:`FORMS` (or ``add`` with several types)."""
    head, args = item.head, list(item.args)
    if head in ("add", "add-copy"):
        if not args:
            return [Atom(head, item.line, item.column, item.source)]
        choices = [_form(a, "do", _form(a, "promote", t.name(_word(a))), head) for a in args]
        return (
            [choices[0].items[1], choices[0].items[2]]
            if len(args) == 1
            else [_form(item, "one-of", *choices)]
        )
    if head == "go":
        if len(args) != 1:
            raise item.error("(go from|to|last-from|last-to|mark) takes one argument")
        where = _word(args[0])
        if where == "mark":
            return [Atom("back", item.line, item.column, item.source)]
        if where not in ("from", "to", "last-from", "last-to"):
            raise args[0].error(f"(go {where}): from, to, last-from, last-to or mark is needed")
        return [_form(item, "go", where)]
    place = _place(t, args[-1]) if args and _is_place(t, args[-1]) else None
    if place is not None:
        args = args[:-1]
    if head == "capture" and not args:
        return [_put(item, "none", "mover", place)]
    if head == "flip" and not args:
        return [_put(item, "same", "other", place)]
    if head == "change-owner" and not args:
        return [_put(item, "same", "mover", place)]
    if head == "change-type" and len(args) == 1:
        return [_put(item, t.name(_word(args[0])), "same", place)]
    if head == "create" and len(args) <= 2:
        owner = t.name(_word(args[0])) if len(args) == 2 else "mover"
        piece = t.name(_word(args[-1])) if args else "moving"
        return [_put(item, piece, owner, place)]
    raise item.error(f"the move form ({head} ...) with these arguments is not read yet")


def _is_place(t: Translation, item: Item) -> bool:
    return isinstance(item, Atom) and (
        str(item.value) in t.geometry.names or str(item.value) in t.geometry.links
    )


def _place(t: Translation, item: Item) -> Item:
    name = _word(item)
    return _text(item, name) if name in t.geometry.names else Atom(t.name(name), *_at(item))


def _put(at: Item, piece: str, owner: str, place: Item | None) -> Form:
    return _form(at, "put", piece, owner, place if place is not None else "here")


def _word(item: Item) -> str:
    if isinstance(item, Atom):
        return str(item.value)
    raise item.error("expected a name")


def _at(item: Item) -> tuple[int, int, str]:
    return item.line, item.column, item.source
