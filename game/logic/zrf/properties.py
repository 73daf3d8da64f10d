"""ZRF's piece attributes, flags, and conditions that look at another position, written as
the engine's forms for a :class:`~game.logic.zrf.translate.Translation`.

- ``(attribute NAME true|false)`` in a piece: the engine's attributes start false, so the
  engine keeps for each piece whether its value differs from its type's default, and the
  ZRF forms read and write through that: ``(set-attribute NAME COND)`` becomes
  ``set-attr``/``clear-attr`` (chosen by the moving piece's type where the defaults differ),
  the condition ``NAME`` (or ``(attribute? NAME)``) ``(attr ...)`` with the types whose
  default is true read the other way round. An attribute that no move program names is
  left out (some files give attributes other values, for programs of their own).
- ``(set-flag NAME COND)``, ``(flag? NAME)``, ``(set-position-flag NAME COND)``,
  ``(position-flag? NAME)``: the engine's named flags and position flags.
- A condition's last argument may name a position (``(empty? a1)``, ``(piece? King e1)``):
  it is asked there, ``(at a1 ...)``; a direction after a condition of this module is
  ``(next DIR ...)``. ``(on-board? a1)`` is true, ``(position? a1)`` asks whether the cursor
  is at a1 (a zone of that one position), ``(adjacent-to-enemy?)`` whether an enemy piece
  stands one step away along some direction, ``(X?)`` is the bare ``X?``.
- ``(in-zone? Z)`` of a zone the board does not give (a variant's board without a zone that
  the game's pieces name) holds nowhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from game.logic.rules.board import MAX_POSITIONS
from game.logic.rules.design import MAX_TYPES
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.zrf.macros import piece_name
from game.logic.zrf.made import form as _form

if TYPE_CHECKING:
    from game.logic.zrf.translate import Translation

__all__ = ["STATEMENTS", "Properties"]

#: The move statements this module writes.
STATEMENTS: Final = frozenset({"set-attribute", "set-flag", "set-position-flag"})
#: The least arguments of a condition before an optional position or direction.
_LEAST: Final = {"piece?": 1, "in-zone?": 1, "attribute?": 1, "flag?": 1, "position-flag?": 1}
#: Conditions of this module that take an optional direction (the others' are read already).
_OWN: Final = frozenset({"attribute?", "flag?", "position-flag?", "adjacent-to-enemy?"})


class Properties:
    """The attributes of a game's pieces and the forms above, for one translation."""

    def __init__(self, tr: Translation) -> None:
        self.tr = tr
        #: Attribute name -> piece name -> its default (None: a value other than true/false).
        self.defaults: dict[str, dict[str, bool | None]] = {}
        #: Attributes some move program names.
        self.used: set[str] = set()

    def prepare(self) -> None:
        """Refuses a board or a set of pieces past the engine's bounds; reads the pieces'
        attributes, and adds a zone for each ``(position? P)``."""
        tr = self.tr
        board, pieces = tr.one("board"), tr.parts.get("piece", [])
        if board is not None and len(tr.geometry.names) > MAX_POSITIONS:
            raise board.error(
                f"the board has {len(tr.geometry.names)} positions: the engine plays on at "
                f"most {MAX_POSITIONS}"
            )
        if len(pieces) > MAX_TYPES:
            raise pieces[MAX_TYPES].error(
                f"the game has {len(pieces)} piece types: the engine takes at most {MAX_TYPES} "
                "(each type multiplies the tables kept for every piece code and position)"
            )
        said: set[str] = set()
        for piece in pieces:
            parts = [p for p in piece.args if isinstance(p, Form)]
            name = piece_name(piece)
            for part in parts:
                if part.head in ("moves", "drops"):
                    said |= _words(part)
                elif part.head == "attribute" and len(part) == 3:
                    default = {"true": True, "false": False}.get(str(part[2]))
                    self.defaults.setdefault(str(part[1]), {})[name] = default
        self.used = {a for a in self.defaults if a in said}
        for piece in tr.parts.get("piece", []):
            for form in _forms(piece):
                if form.head in ("position?", "not-position?") and len(form) == 2:
                    place = str(form[1])
                    if place in tr.geometry.names:
                        tr.geometry.zones[_zone(place)] = {p: [place] for p in tr.players}

    # -- pieces ---------------------------------------------------------------------------

    def declare(self, part: Form) -> list[Item]:
        """A piece's ``(attribute NAME DEFAULT)``: the engine's attribute, or nothing where
        no program names it."""
        if len(part) != 3 or not isinstance(part[1], Atom):
            raise part.error("(attribute NAME true|false)")
        name = str(part[1])
        if name not in self.used:
            return []
        if str(part[2]) not in ("true", "false"):
            raise part[2].error(
                f"the attribute {name!r} is read by a move: its value must be true or false"
            )
        return [_form(part, "attribute", self.tr.name(name))]

    def _split(self, at: Item, name: str) -> tuple[list[str], list[str]]:
        """The engine's names of the piece types whose default of ``name`` is true, false."""
        if name not in self.used:
            raise at.error(f"no piece has the attribute {name!r}")
        per = self.defaults[name]
        return (
            [self.tr.name(p) for p, d in per.items() if d],
            [self.tr.name(p) for p, d in per.items() if not d],
        )

    # -- statements -----------------------------------------------------------------------

    def statement(self, item: Form) -> list[Item]:
        """``set-attribute``, ``set-flag`` or ``set-position-flag``."""
        tr = self.tr
        if len(item) != 3 or not isinstance(item[1], Atom):
            raise item.error(f"({item.head} NAME CONDITION) takes a name and a condition")
        name, value = str(item[1]), item[2]
        if item.head == "set-attribute":
            yes, no = self._split(item[1], name)
            attr = tr.name(name)

            def put(on: bool) -> Item:
                sets = [_form(item, "set-attr" if on != d else "clear-attr", attr) for d in (1, 0)]
                if not yes:
                    return sets[1]
                if not no:
                    return sets[0]
                return _form(item, "if", _form(item, "moving", *yes), sets[0], _else(item, sets[1]))

        else:
            head = "position-flag" if "position" in item.head else "flag"
            flag = tr.name(f"{head} {name}")

            def put(on: bool) -> Item:
                return _form(item, f"{'set' if on else 'clear'}-{head}", flag)

        if isinstance(value, Atom) and str(value) in ("true", "false"):
            return [put(str(value) == "true")]
        return [_form(item, "if", tr.condition(value), put(True), _else(item, put(False)))]

    # -- conditions -----------------------------------------------------------------------

    def condition(self, item: Item) -> Item | None:
        """The engine's condition for ``item`` where it is one of this module's (None: not)."""
        tr = self.tr
        geo = tr.geometry
        if isinstance(item, Atom):
            word = str(item.value)
            base = word[4:] if word.startswith("not-") else word
            if base in self.defaults or base == "adjacent-to-enemy?":
                inner = self._test(item, base, ())
                return _form(item, "not", inner) if base != word else inner
            return None
        head = item.head
        if not head.endswith("?"):
            return None
        base = head[4:] if head.startswith("not-") else head
        args = list(item.args)
        if not args:
            return tr.condition(Atom(head, item.line, item.column, item.source))
        last = str(args[-1]) if isinstance(args[-1], Atom) else ""
        more = len(args) > _LEAST.get(base, 0)
        if base == "position?":
            if last not in geo.names:
                raise args[-1].error(f"no position {last!r}")
            inner = _form(item, "in-zone", tr.name(_zone(last)))
        elif more and last in geo.names and last not in geo.links:
            if base == "on-board?":
                return Atom("true", item.line, item.column, item.source)
            shorter = Form(item.items[:-1], item.line, item.column, item.source)
            return _form(item, "at", _place(args[-1]), tr.condition(shorter))
        elif more and last in geo.links and (base in _OWN or base in self.defaults):
            shorter = Form(item.items[:-1], item.line, item.column, item.source)
            return _form(item, "next", tr.name(last), tr.condition(shorter))
        elif base == "in-zone?" and len(args) == 1 and last not in geo.zones:
            inner = Atom("false", item.line, item.column, item.source)  # no such zone here
        elif base in _OWN or base in self.defaults:
            inner = self._test(item, base, args)
        else:
            return None
        return _form(item, "not", inner) if base != head else inner

    def _test(self, at: Item, base: str, args: Sequence[Item]) -> Item:
        tr = self.tr
        if base == "adjacent-to-enemy?":
            steps = [_form(at, "next", tr.name(d), "enemy") for d in tr.geometry.directions]
            return (
                _form(at, "or", *steps) if steps else Atom("false", at.line, at.column, at.source)
            )
        if base in ("flag?", "position-flag?"):
            if len(args) != 1:
                raise at.error(f"({base} NAME) takes a flag's name")
            head = base[:-1]
            return _form(at, head, tr.name(f"{head} {args[0]}"))
        if base == "attribute?":
            if len(args) != 1:
                raise at.error("(attribute? NAME) takes an attribute's name")
            base = str(args[0])
        yes, no = self._split(at, base)
        attr = _form(at, "attr", tr.name(base))
        parts = []
        if no:
            parts.append(_form(at, "and", _form(at, "piece", *no), attr) if yes else attr)
        if yes:
            parts.append(_form(at, "and", _form(at, "piece", *yes), _form(at, "not", attr)))
        return parts[0] if len(parts) == 1 else _form(at, "or", *parts)


def _zone(place: str) -> str:
    """The ZRF-side name of the zone of one position (no ZRF name has a space)."""
    return f"position {place}"


def _words(form: Form) -> set[str]:
    out: set[str] = set()
    for item in form.items:
        if isinstance(item, Form):
            out |= _words(item)
        else:
            out.add(str(item.value))
    return out


def _forms(form: Form) -> list[Form]:
    out = [form]
    for item in form.items:
        if isinstance(item, Form):
            out.extend(_forms(item))
    return out


def _place(item: Item) -> Atom:
    name = str(item.value) if isinstance(item, Atom) else str(item)
    return Atom(name, item.line, item.column, item.source, quoted=True)


def _else(at: Item, *body: Item) -> Form:
    return _form(at, "else", *body)
