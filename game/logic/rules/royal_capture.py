"""Which move programs can capture a royal piece: the first shortcut of the compiled check
test (:mod:`game.logic.rules.attacks`), which leaves out a program that cannot.

A forward walk over a program tracks what each of its capture points (``add``,
``add-partial``, ``capture``) can find there, as a set of what may stand on a square (:data:`E`
nothing, :data:`F` the attacker's piece, :data:`N` a defender's piece that is not royal,
:data:`R` a defender's royal piece), narrowed by the conditions tested since the cursor last
moved (:func:`classes`). The royal types are those :func:`targets` names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from game.logic.rules.design import Design, Program
from game.logic.rules.sexpr import Atom, Form, Item

__all__ = ["EVERY", "E", "F", "N", "R", "classes", "royal_safe", "targets"]

#: What may stand on a square, as bits: nothing, the attacker's piece, a defender's piece
#: that is not royal, a defender's royal piece.
E, F, N, R = 1, 2, 4, 8
EVERY: Final = E | F | N | R


def royal_safe(design: Design, program: Program, player: int) -> bool:
    """Whether ``program``, played by ``player``, can never capture a royal piece of the
    other player: at each capture point the conditions tested since the cursor last moved
    rule the royal piece out."""
    royal = targets(design)
    if not royal:
        return True
    marked = [F if not program.drop else EVERY]
    found = [False]

    def cond(c: Item) -> tuple[int, int]:
        return classes(design, c, royal)

    def walk(items: Sequence[Item], s: int) -> int:
        for item in items:
            s = one(item, s)
        return s

    def capture_point(s: int) -> None:
        if s & R:
            found[0] = True

    def one(item: Item, s: int) -> int:
        if isinstance(item, Atom):
            word = str(item.value)
            if word in ("add", "capture"):
                capture_point(s)
            elif word == "mark":
                marked[0] = s
            elif word == "back":
                return marked[0]
            elif word in design.board.directions or word == "dir":
                return EVERY
            return s
        head = item.head
        if head in ("add", "capture") and len(item) == 1:
            capture_point(s)
            return s
        if head in ("mark", "back") and len(item) == 1:
            return one(Atom(head, item.line, item.column, item.source), s)
        if head in design.board.directions:
            return EVERY
        if head == "verify":
            return s & cond(item[1])[0]
        if head == "add-partial":
            capture_point(s)
            return s
        if head == "if":
            body = list(item.items[2:])
            other: list[Item] = []
            if body and isinstance(body[-1], Form) and body[-1].head == "else":
                other, body = list(body[-1].args), body[:-1]
            t, f = cond(item[1])
            return walk(body, s & t) | walk(other, s & f)
        if head == "one-of":
            out = 0
            for alt in item.args:
                out |= one(alt, s)
            return out
        if head == "do":
            return walk(item.args, s)
        if head in ("while", "repeat"):
            t, f = cond(item[1]) if head == "while" else (EVERY, EVERY)
            at = s
            while True:
                after = walk(item.items[2:], at & t) | at
                if after == at:
                    break
                at = after
            return at & f
        if head == "sweep":
            walk(item.items[2:], s)
            return s
        if head == "anywhere":
            return walk(item.args, EVERY)
        if head in ("sow", "take-to"):
            return EVERY
        return s  # promote, set-attr, cascade, goto: the cursor and the board stay

    walk(program.body, marked[0])
    return not found[0]


def targets(design: Design) -> frozenset[int]:
    """The piece types the check test may be asked about: the royal ones, and those whose
    programs ask ``attacked`` or ``check`` (the test stands the moving piece on the square)."""
    asking = {
        t
        for t, piece in enumerate(design.pieces)
        if any(_asks(program.body) for program in piece.programs)
    }
    return frozenset(design.royal) | frozenset(asking)


def _asks(items: Sequence[Item]) -> bool:
    for item in items:
        if isinstance(item, Atom) and item.value in ("attacked", "check") and not item.quoted:
            return True
        if isinstance(item, Form) and _asks(item.items):
            return True
    return False


def classes(design: Design, c: Item, royal: frozenset[int]) -> tuple[int, int]:
    """Where condition ``c`` (as the attacker's) may hold and where it may fail, as sets of
    what stands on the square (:data:`E`, :data:`F`, :data:`N`, :data:`R`; ``royal``: the
    types that R stands for)."""
    types = frozenset(range(len(design.pieces)))
    if isinstance(c, Atom):
        word = str(c.value)
        table = {
            "empty": (E, F | N | R),
            "friend": (F, E | N | R),
            "enemy": (N | R, E | F),
            "true": (EVERY, 0),
            "false": (0, EVERY),
        }
        return table.get(word, (EVERY, EVERY))
    head, args = c.head, c.args
    if head == "not":
        t, f = classes(design, args[0], royal)
        return f, t
    if head in ("and", "or"):
        parts = [classes(design, a, royal) for a in args]
        if head == "and":
            t, f = EVERY, 0
            for pt, pf in parts:
                t, f = t & pt, f | pf
        else:
            t, f = 0, EVERY
            for pt, pf in parts:
                t, f = t | pt, f & pf
        return t, f
    if head in ("piece", "friend", "enemy"):
        named = frozenset(design.type_index(str(a.value)) for a in args)  # type: ignore[union-attr]
        t = (N if named - royal else 0) | (R if named & royal else 0)
        f = (N if (types - royal) - named else 0) | (R if royal - named else 0)
        own_t, own_f = F, (F if types - named else 0)
        if head == "piece":
            return t | own_t, E | f | own_f
        if head == "friend":
            return own_t, E | N | R | own_f
        return t, E | F | f
    return EVERY, EVERY
