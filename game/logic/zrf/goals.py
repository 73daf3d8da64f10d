"""A ZRF game's goals written as the engine's end conditions, and the options about passes
and captured pieces written as its rules.

A ZRF goal ``(win-condition (P...) GOAL)`` (or ``loss-``, ``draw-``, ``count-``) holds for
a player P of its list when GOAL is true of P; the engine's ends are judged from the side of
the player who just moved, so each goal becomes up to two ends: one where P is the player who
just moved (the same outcome) and one where P is the player to move now (the outcome turned
round: P winning is the mover losing), the first before the second, in the file's order.
Where the list does not hold every player, each end is kept to its players with
``(moved P)`` or ``(to-move P)``.

What each goal is for the player P it is judged for:

- ``stalemated``: P is to move and has no move (``stuck``);
- ``(checkmated TYPE...)``: P is to move, in check, with no move (``(and stuck check)``);
  the types become royal, so that no move may leave one attacked;
- ``(captured TYPE...)``: P has no piece left of one of the types (the goal comes true as
  the last one is taken: a type of one piece each, as the corpus has it);
- ``repetition``: the move of P's just made stands the position for the third time;
- ``(pieces-remaining N [TYPE])``: exactly N of P's pieces (of the type) on the board;
- ``(total-piece-count N [TYPE])``: exactly N pieces on the board, every player's;
- ``(absolute-config OCCUPANT... (POSITION-OR-ZONE...))``: one of the positions holds one of
  the occupants (a type: P's piece; ``(opponent T)``, ``(any-owner T)``, ``(not ...)``); a
  name that is no position of the board (a variant's other board) is passed over;
- ``(relative-config OCCUPANT DIR... OCCUPANT ...)``: the occupants along the directions
  from some position;
- ``and``, ``or``, ``not`` of these.

A player with no move whom no goal judges ends the game drawn, as Zillions does. With more
than two players a goal of a player who neither just moved nor moves next is left out, and
one of the player to move turns the outcome round for the mover alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.zrf.made import form as _form

if TYPE_CHECKING:
    from game.logic.zrf.translate import Translation

__all__ = ["ends", "royal_types", "turn_rules"]

_OUTCOMES: Final = {
    "win-condition": "win",
    "loss-condition": "loss",
    "draw-condition": "draw",
    "count-condition": "count",
}
_TURNED: Final = {"win": "loss", "loss": "win", "draw": "draw", "count": "count"}
#: Goals judged for the player to move only, and for the player who moved only.
_TO_MOVE: Final = ("stalemated", "checkmated", "captured")
_MOVED: Final = ("repetition",)
#: The most conditions one ``(and ...)`` of the engine takes.
_AND: Final = 4


def royal_types(tr: Translation) -> set[str]:
    """The ZRF piece types that a ``(checkmated TYPE...)`` goal names."""
    found: set[str] = set()
    for head in _OUTCOMES:
        for goal in tr.parts.get(head, []):
            for item in _walk(goal):
                if isinstance(item, Form) and item.head == "checkmated":
                    found.update(str(a.value) for a in item.args if isinstance(a, Atom))
    return found


def turn_rules(tr: Translation) -> list[Form]:
    """The rules ZRF's options about turns and captures ask for: ``"pass partial"`` (a move
    may stop after any part of a partial chain) and ``"recycle captures"`` (a piece taken goes
    back to its owner's hand)."""
    at = tr.game
    out = []
    if tr.options.get("pass partial") == "true":
        out.append(_form(at, "pass-partial"))
    if tr.options.get("recycle captures") == "true":
        out.append(_form(at, "captured-home"))
    return out


def ends(tr: Translation) -> Form:
    """The ``(end ...)`` form of the game's goals."""
    out: list[Item] = []
    everyone = set(tr.players)
    for goal in _goals(tr):
        outcome = _OUTCOMES[str(goal.head)]
        args = list(goal.args)
        if len(args) == 2 and isinstance(args[0], Form):
            whose = [_player(tr, p) for p in args[0].items]
            cond = args[1]
        elif len(args) == 1:  # no list: the player who just moved
            whose, cond = list(tr.players), args[0]
        else:
            raise goal.error(f"({goal.head} (PLAYER...) GOAL)")
        if len(tr.players) == 1:  # the one player both moved and moves next
            one = tr.players[0]
            made = _condition(tr, cond, "mover", one) or _condition(tr, cond, "next", one)
            if made is not None:
                out.append(_form(goal, outcome, made))
            continue
        for side in ("mover", "next"):
            guards = [None] if set(whose) == everyone and not _zoned(tr, cond) else whose
            for who in guards:
                made = _condition(tr, cond, side, who or tr.players[0])
                if made is None:
                    continue
                if who is not None:
                    test = "moved" if side == "mover" else "to-move"
                    made = _all(goal, [_form(goal, test, tr.name(who)), made])
                out.append(_form(goal, outcome if side == "mover" else _TURNED[outcome], made))
    if not out:
        out.append(_form(tr.game, "draw", "stuck"))
    return _form(tr.game, "end", *out)


def _goals(tr: Translation) -> list[Form]:
    """The goal forms in the order the game writes them."""
    return [item for item in tr.game.args if isinstance(item, Form) and item.head in _OUTCOMES]


def _player(tr: Translation, item: Item) -> str:
    if not isinstance(item, Atom) or str(item.value) not in tr.players:
        raise item.error(f"no player {item}: the players are {' '.join(tr.players)}")
    return str(item.value)


def _zoned(tr: Translation, cond: Item) -> bool:
    """Whether the goal names a zone, whose positions differ by player."""
    return any(
        isinstance(i, Form)
        and i.head == "absolute-config"
        and isinstance(i.args[-1], Form)
        and any(isinstance(p, Atom) and str(p.value) in tr.geometry.zones for p in i.args[-1].items)
        for i in _walk(cond)
    )


def _condition(tr: Translation, item: Item, side: str, who: str) -> Item | None:
    """The engine's condition for GOAL judged for the player who just moved (``side``
    "mover") or the player to move ("next"); None where it cannot hold for that side."""
    theirs = ["theirs"] if side == "next" else []
    if isinstance(item, Atom):
        word = str(item.value)
        if word == "stalemated":
            return _word(item, "stuck") if side == "next" else None
        if word == "repetition":
            return _form(item, "repetition", 3) if side == "mover" else None
        raise item.error(f"the goal {word!r} is not read yet")
    head = item.head
    if (head in _TO_MOVE and side != "next") or (head in _MOVED and side != "mover"):
        return None
    if head == "checkmated":
        return _form(item, "and", "stuck", "check")
    if head == "captured":
        kinds = [tr.name(_word_of(a)) for a in item.args]
        return _any(item, [_form(item, "exactly", 0, k, *theirs) for k in kinds])
    if head == "pieces-remaining":
        return _form(item, "exactly", *_count(tr, item), *theirs)
    if head == "total-piece-count":
        return _form(item, "total", *_count(tr, item))
    if head == "absolute-config":
        places = item.args[-1]
        if not isinstance(places, Form):
            raise item.error("(absolute-config OCCUPANT... (POSITION...))")
        where = _positions(tr, places, who)
        if not where:  # a variant's board without the game's positions: never true
            return None
        occupants = [_occupant(tr, o) for o in item.args[:-1]]
        return _form(item, "at", Form(tuple(where), *_at(item)), *occupants, *theirs)
    if head == "relative-config":
        seq: list[Item] = []
        for a in item.args:
            if isinstance(a, Atom) and str(a.value) in tr.geometry.links:
                seq.append(_word(a, tr.name(str(a.value))))
            else:
                seq.append(_occupant(tr, a))
        return _form(item, "pattern", *seq, *theirs)
    if head in ("and", "or", "not"):
        parts = [_condition(tr, a, side, who) for a in item.args]
        if head == "and":
            return None if None in parts else _all(item, [p for p in parts if p is not None])
        kept = [p for p in parts if p is not None]
        if head == "or":
            return _any(item, kept) if kept else None
        return _form(item, "not", kept[0]) if kept else None
    raise item.error(f"the goal ({head} ...) is not read yet")


def _count(tr: Translation, item: Form) -> list[Item | str | int]:
    if not item.args or not isinstance(item.args[0], Atom):
        raise item.error(f"({item.head} N [TYPE])")
    return [item.args[0], *(tr.name(_word_of(a)) for a in item.args[1:])]


def _positions(tr: Translation, places: Form, who: str) -> list[Item]:
    geo = tr.geometry
    out: list[Item] = []
    for p in places.items:
        name = _word_of(p)
        if name in geo.zones:
            zone = geo.zones[name]
            for q in zone.get(who, next(iter(zone.values()), [])):
                out.append(Atom(q, p.line, p.column, p.source, quoted=True))
        elif name in geo.names:
            out.append(Atom(name, p.line, p.column, p.source, quoted=True))
    return out


def _occupant(tr: Translation, item: Item) -> Item:
    if isinstance(item, Atom):
        word = str(item.value)
        return _word(item, "empty" if word == "empty" else tr.name(word))
    if item.head in ("opponent", "any-owner") and len(item) == 2:
        return _form(item, item.head, tr.name(_word_of(item[1])))
    if item.head == "not" and len(item) == 2:
        return _form(item, "not", _occupant(tr, item[1]))
    raise item.error("an occupant is TYPE, (opponent TYPE), (any-owner TYPE) or (not ...)")


def _all(at: Item, parts: Sequence[Item]) -> Item:
    """``(and ...)`` of any number of conditions (the engine's takes four: nested)."""
    if len(parts) == 1:
        return parts[0]
    while len(parts) > _AND:
        parts = [
            _form(at, "and", *parts[k : k + _AND]) if len(parts[k : k + _AND]) > 1 else parts[k]
            for k in range(0, len(parts), _AND)
        ]
    return _form(at, "and", *parts)


def _any(at: Item, parts: Sequence[Item]) -> Item:
    """``(or ...)`` as ``(not (and (not A) (not B) ...))``."""
    if len(parts) == 1:
        return parts[0]
    return _form(at, "not", _all(at, [_form(at, "not", p) for p in parts]))


def _walk(item: Item) -> list[Item]:
    out = [item]
    if isinstance(item, Form):
        for sub in item.items:
            out.extend(_walk(sub))
    return out


def _word_of(item: Item) -> str:
    if isinstance(item, Atom):
        return str(item.value)
    raise item.error("expected a name")


def _word(at: Item, word: str) -> Atom:
    return Atom(word, at.line, at.column, at.source)


def _at(item: Item) -> tuple[int, int, str]:
    return (item.line, item.column, item.source)
