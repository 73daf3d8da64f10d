"""Which move programs can capture a royal piece: the first shortcut of the compiled check
test (:mod:`game.logic.rules.attacks`), which leaves out a program that cannot.

A forward walk over a program tracks what each of its capture points (``add``,
``add-partial``, ``capture``, and in a program that moves several pieces ``relay`` and
``add-copy``; a landing at ``to``'s mark finds what ``to`` found there) can find there, as a
set of what may stand on a square (:data:`E` nothing, :data:`F` the attacker's piece,
:data:`N` a defender's piece that is not royal, :data:`R` a defender's royal piece), narrowed
by the conditions tested since the cursor last moved (:func:`classes`). The royal types are
those :func:`targets` names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from game.logic.rules import tree
from game.logic.rules.design import Design, Program

__all__ = ["EVERY", "E", "F", "N", "R", "classes", "royal_safe", "targets"]

#: What may stand on a square, as bits: nothing, the attacker's piece, a defender's piece
#: that is not royal, a defender's royal piece.
E, F, N, R = 1, 2, 4, 8
EVERY: Final = E | F | N | R


def royal_safe(
    design: Design, program: Program, player: int, royal: frozenset[int] | None = None
) -> bool:
    """Whether ``program``, played by ``player``, can never capture a royal piece of the
    other player: at each capture point the conditions tested since the cursor last moved
    rule the royal piece out (``royal``: :func:`targets`, when the caller has it)."""
    royal = targets(design) if royal is None else royal
    if not royal:
        return True
    marked = [F if not program.drop else EVERY]
    found = [False]
    landing: list[int | None] = [None]  # what `to` found where it marked the landing

    def cond(c: tree.Cond) -> tuple[int, int]:
        return classes(design, c, royal)

    def walk(body: Sequence[tree.Stmt], s: int) -> int:
        for node in body:
            s = one(node, s)
        return s

    def capture_point(s: int) -> None:
        if s & R:
            found[0] = True

    def one(node: tree.Stmt, s: int) -> int:
        match node:
            case tree.Act(word="add" | "relay") | tree.AddPartial():  # lands at `to`'s mark
                capture_point(s if landing[0] is None else landing[0])
                landing[0] = None
            case tree.Act(word="capture" | "add-copy"):
                capture_point(s)
            case tree.Act(word="to"):
                landing[0] = s
            case tree.Act(word="mark"):
                marked[0] = s
            case tree.Act(word="back"):
                return marked[0]
            case tree.Advance() | tree.Act(word="dir") | tree.Sow() | tree.TakeTo() | tree.Jump():
                return EVERY
            case tree.Put():  # it may take what stands there
                capture_point(EVERY)
            case tree.Verify(cond=c):
                return s & cond(c)[0]
            case tree.If(cond=c, then=then, otherwise=other):
                t, f = cond(c)
                return walk(then, s & t) | walk(other, s & f)
            case tree.OneOf(alternatives=alternatives):
                out = 0
                for alt in alternatives:
                    out |= one(alt, s)
                return out
            case tree.Do(body=body):
                return walk(body, s)
            case tree.While() | tree.Repeat():
                t, f = cond(node.cond) if isinstance(node, tree.While) else (EVERY, EVERY)
                at = s
                while True:
                    after = walk(node.body, at & t) | at
                    if after == at:
                        break
                    at = after
                return at & f
            case tree.Sweep(body=body):
                walk(body, s)
            case tree.Anywhere(body=body):
                return walk(body, EVERY)
        return s  # promote, set-attr, cascade, goto: the cursor and the board stay

    walk(program.tree, marked[0])
    return not found[0]


def targets(design: Design) -> frozenset[int]:
    """The piece types the check test may be asked about: the royal ones, and those whose
    programs ask ``attacked`` or ``check`` (the test stands the moving piece on the square)."""
    asking = {
        t
        for t, piece in enumerate(design.pieces)
        if any(
            isinstance(n, tree.Is) and n.word in ("attacked", "check")
            for program in piece.programs
            for n in tree.walk(program.tree)
        )
    }
    return frozenset(design.royal) | frozenset(asking)


def classes(design: Design, c: tree.Cond, royal: frozenset[int]) -> tuple[int, int]:
    """Where condition ``c`` (as the attacker's) may hold and where it may fail, as sets of
    what stands on the square (:data:`E`, :data:`F`, :data:`N`, :data:`R`; ``royal``: the
    types that R stands for)."""
    types = frozenset(range(len(design.pieces)))
    match c:
        case tree.Is(word=word):
            table = {
                "empty": (E, F | N | R),
                "friend": (F, E | N | R),
                "enemy": (N | R, E | F),
                "true": (EVERY, 0),
                "false": (0, EVERY),
            }
            return table.get(word, (EVERY, EVERY))
        case tree.Not(cond=inner):
            t, f = classes(design, inner, royal)
            return f, t
        case tree.And(conds=conds):
            t, f = EVERY, 0
            for pt, pf in (classes(design, a, royal) for a in conds):
                t, f = t & pt, f | pf
            return t, f
        case tree.Or(conds=conds):
            t, f = 0, EVERY
            for pt, pf in (classes(design, a, royal) for a in conds):
                t, f = t | pt, f & pf
            return t, f
        case tree.Pieces(who=who, types=names) if who != "moving":
            named = frozenset(design.type_index(name) for name in names)
            t = (N if named - royal else 0) | (R if named & royal else 0)
            f = (N if (types - royal) - named else 0) | (R if royal - named else 0)
            own_t, own_f = F, (F if types - named else 0)
            if who == "piece":
                return t | own_t, E | f | own_f
            if who == "friend":
                return own_t, E | N | R | own_f
            return t, E | F | f
    return EVERY, EVERY
