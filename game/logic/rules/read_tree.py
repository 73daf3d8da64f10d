"""A move program's typed tree (:mod:`game.logic.rules.tree`) read from the lists the
description's reader checked, and the check of a tree before the compiler writes it.

:func:`statements` builds the tree of a program's statements; :func:`check` refuses a tree
that is not one (a statement where a condition is due, a field of the wrong type, a word the
design does not know) with a :class:`~game.logic.rules.sexpr.DescriptionError` at the node's
place, never a traceback from the code it would have become.

>>> from game.logic.rules.sexpr import read
>>> from game.logic.rules.tree import text
>>> body = statements(read("n (verify (enemy Pawn)) (one-of add capture)", "t.txt"))
>>> body[1]
Verify(cond=Pieces(who='enemy', types=('Pawn',)))
>>> text(body)
'n (verify (enemy Pawn)) (one-of add capture)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Final

from game.logic.rules import tree
from game.logic.rules.flags import FLAG_CONDITIONS, FLAG_STATEMENTS, flag_condition, flag_statement
from game.logic.rules.piece_numbers import COMPARE, NUMBER_STATEMENTS, comparison, number_statement
from game.logic.rules.relays import allowed as relay_words
from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = ["check", "condition", "count", "statements"]


def statements(items: Sequence[Item]) -> tuple[tree.Stmt, ...]:
    """The tree of a program's statements as the reader checked them (macros expanded).
    A word that is not one of :data:`tree.ACTS` is a step, and so is each word of a list that
    is not a statement (``(n e)``: two steps); :func:`check` refuses an unknown direction."""
    out: list[tree.Stmt] = []
    for item in items:
        out.extend(_statement(item))
    return tuple(out)


def _statement(item: Item) -> list[tree.Stmt]:
    if isinstance(item, Atom):
        word = _word(item)
        return [tree.Act(word, where=item) if word in tree.ACTS else tree.Advance(word, where=item)]  # type: ignore[arg-type]
    head, args = item.head, item.args
    if head in tree.ACTS and len(item) == 1:
        return [tree.Act(head, where=item)]  # type: ignore[arg-type]
    if head == "verify":
        return [tree.Verify(condition(_one(item)), where=item)]
    if head == "if":
        body = list(item.items[2:])
        other: tuple[tree.Stmt, ...] = ()
        if body and isinstance(body[-1], Form) and body[-1].head == "else":
            other = statements(body[-1].args)
            body = body[:-1]
        return [tree.If(condition(_first(item)), statements(body), other, where=item)]
    if head == "do":
        return [tree.Do(statements(args), where=item)]
    if head == "anywhere":
        return [tree.Anywhere(statements(args), where=item)]
    if head == "one-of":
        alternatives: list[tree.Stmt] = []
        for alt in args:
            one = _statement(alt)
            alternatives.append(one[0] if len(one) == 1 else tree.Do(tuple(one), where=alt))
        return [tree.OneOf(tuple(alternatives), where=item)]
    if head == "while":
        return [tree.While(condition(_first(item)), statements(item.items[2:]), where=item)]
    if head == "repeat":
        return [tree.Repeat(count(_first(item)), statements(item.items[2:]), where=item)]
    if head == "sweep":
        return [tree.Sweep(_words(_first(item)), statements(item.items[2:]), where=item)]
    if head in ("change-type", "promote"):
        return [tree.ChangeType(_word(_one(item)), head, where=item)]  # type: ignore[arg-type]
    if head in ("set-attr", "clear-attr"):
        return [tree.SetAttr(_word(_one(item)), head == "set-attr", where=item)]
    if head == "cascade" and len(args) == 2:
        return [tree.Cascade(_words(args[0]), _words(args[1]), where=item)]
    if head in ("sow", "sow-skip"):
        return [(tree.Sow if head == "sow" else tree.SowSkip)(_word(_one(item)), where=item)]
    if head == "rotate" and len(args) == 2:
        return [tree.Rotate(_word(args[0]), _word(args[1]), where=item)]
    if head == "goto":
        return [tree.Goto(_word(_one(item)), where=item)]
    if head == "go":
        return [tree.Jump(_name(_one(item)), where=item)]
    if head == "put" and 1 <= len(args) <= 3:
        return [tree.Put(*(_name(a) for a in args), where=item)]
    if head == "take-to":
        return [tree.TakeTo(_word(_one(item)), where=item)]
    if head == "add-partial":
        return [tree.AddPartial(_word(_one(item)), where=item)]
    if head in NUMBER_STATEMENTS:
        return [number_statement(item)]
    if head in FLAG_STATEMENTS:
        return [flag_statement(item)]
    if head and head not in tree.TESTS and all(isinstance(a, Atom) for a in item.items):
        return [tree.Advance(_word(d), where=d) for d in item.items]  # (n e): its steps
    raise item.error(f"unknown statement {_quote(item)}")


def condition(item: Item) -> tree.Cond:
    """The tree of a condition."""
    if isinstance(item, Atom):
        word = _word(item)
        if word not in tree.TESTS:
            raise item.error(f"unknown condition {word!r}")
        return tree.Is(word, where=item)
    head, args = item.head, item.args
    if head == "not":
        return tree.Not(condition(_one(item)), where=item)
    if head in ("and", "or") and args:
        conds = tuple(condition(a) for a in args)
        return tree.And(conds, where=item) if head == "and" else tree.Or(conds, where=item)
    if head in ("piece", "friend", "enemy", "moving") and args:
        return tree.Pieces(head, tuple(_word(a) for a in args), where=item)  # type: ignore[arg-type]
    if head == "in-zone":
        return tree.InZone(_word(_one(item)), where=item)
    if head == "on-board":
        return tree.OnBoard(_word(_one(item)), where=item)
    if head == "attr":
        return tree.Attr(_word(_one(item)), where=item)
    numbered = {tree.HEADS[kind]: kind for kind in tree.NUMBERED}
    if head in numbered:
        return numbered[head](_int(_one(item)), where=item)
    if head in ("counters", "counters-at-least"):
        return tree.Counters(_int(_one(item)), head == "counters-at-least", where=item)
    if head == "exists":
        return tree.Exists(condition(_one(item)), where=item)
    if head == "next" and len(args) == 2:
        return tree.Next(_word(args[0]), condition(args[1]), where=item)
    if head in COMPARE:
        return comparison(item)
    if head in FLAG_CONDITIONS:
        return flag_condition(item, condition)
    raise item.error(f"unknown condition {_quote(item)}")


def count(item: Item) -> tree.Count:
    """The tree of a count (a whole number, ``(line-pieces D)``, ``(minus COUNT N)``)."""
    if isinstance(item, Atom):
        if item.value == "thrown" and not item.quoted:
            return tree.Thrown(where=item)
        return tree.Number(_int(item), where=item)
    if item.head == "line-pieces":
        return tree.LinePieces(_word(_one(item)), where=item)
    if item.head == "minus" and len(item) == 3:
        return tree.Minus(count(item[1]), _int(item[2]), where=item)
    raise item.error(f"unknown count {_quote(item)}")


def _one(form: Form) -> Item:
    if len(form) != 2:
        raise form.error(f"({form.head} ...) takes one argument, not {len(form) - 1}")
    return form[1]


def _first(form: Form) -> Item:
    if len(form) < 2:
        raise form.error(f"({form.head} ...) needs an argument")
    return form[1]


def _word(item: Item) -> str:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, str):
        raise item.error(f"a word is needed here, not {_quote(item)}")
    return item.value


def _name(item: Item) -> str:
    """A word, or a position's name in quotes."""
    if not isinstance(item, Atom) or not isinstance(item.value, str):
        raise item.error(f"a word is needed here, not {_quote(item)}")
    return item.value


def _words(item: Item) -> tuple[str, ...]:
    if not isinstance(item, Form):
        raise item.error(f"a list of directions is needed here, not {_quote(item)}")
    return tuple(_word(d) for d in item.items)


def _int(item: Item) -> int:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, int):
        raise item.error(f"a whole number is needed here, not {_quote(item)}")
    return item.value


def _quote(item: Item) -> str:
    quoted = str(item)
    return quoted if len(quoted) <= 40 else quoted[:37] + "..."


def check(body: Sequence[tree.Stmt], design: Design, program: Item | None = None) -> None:
    """Refuse a tree the compiler cannot write: a node of the wrong kind where a statement,
    condition or count is due, a field of the wrong type, or a word the design does not know
    (a direction, piece type, zone, attribute, label or move type). The error names the node
    (its place when it has one, else ``program``'s)."""
    _Checker(design, program).body(body, "a statement")


class _Checker:
    def __init__(self, design: Design, program: Item | None) -> None:
        board = design.board
        self.program = program
        self.design = design
        #: The nodes around the one being checked, outermost first.
        self.around: list[tree.ProgramNode] = []
        self.known: dict[str, tuple[str, ...]] = {
            "direction": tuple(board.directions),
            "piece type": tuple(p.name for p in design.pieces),
            "zone": tuple(board.zones),
            "attribute": tuple(design.attributes),
            "label": tuple(design.labels),
            "move type": tuple(sorted({g.kind for p in design.pieces for g in p.programs})),
            "number": tuple({n[0]: 0 for p in design.pieces for n in p.numbers}),
            "tally": tuple(t.name for t in design.tallies),
            "position": tuple(board.names),
        }

    def fail(self, node: object, message: str) -> DescriptionError:
        """``message`` at ``node``'s place, else the nearest node's around it that has one,
        else the program's."""
        places = [
            n.where for n in (node, *reversed(self.around)) if isinstance(n, tree.ProgramNode)
        ]
        at = next((w for w in places if w is not None), self.program)
        return at.error(message) if at is not None else DescriptionError(message)

    def body(self, body: object, what: str) -> None:
        if not isinstance(body, tuple | list):
            raise self.fail(body, f"a tuple of statements is needed, not {body!r:.60}")
        for node in body:
            self.node(node, tree.STATEMENT_NODES, what)

    def node(self, node: object, kinds: tuple[type, ...], what: str) -> None:
        if not isinstance(node, kinds):
            raise self.fail(node, f"{what} is needed here, not {tree.shown(node)}")
        assert isinstance(node, tree.ProgramNode)
        self.around.append(node)
        for f in fields(node):
            if f.name != "where":
                self.field(node, f.name, getattr(node, f.name))
        self.around.pop()

    def field(self, node: tree.ProgramNode, name: str, value: object) -> None:
        if name in ("cond",):
            self.node(value, tree.CONDITION_NODES, "a condition")
        elif name in ("conds", "args"):  # (and ...), (or ...); arithmetic's numbers
            kinds, what = _LISTS[name]
            if not isinstance(value, tuple) or not value:
                raise self.fail(node, f"{tree.shown(node)} needs {what}s")
            for c in value:
                self.node(c, kinds, f"a {what}")
        elif name in ("then", "otherwise", "body", "alternatives"):
            self.body(value, "a statement")
        elif name in ("times", "count"):
            self.node(value, tree.COUNT_NODES, "a count")
        elif name in ("left", "right", "value"):
            self.node(value, tree.NUM_NODES, "a number")
        elif name == "op":
            ops = COMPARE if isinstance(node, tree.Compare) else ("+", "-", "*", "min", "max")
            self.word(node, value, "operator", tuple(ops))
        elif name in ("n", "less"):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise self.fail(node, f"a whole number is needed, not {value!r:.40}")
        elif name in ("on", "at_least", "moving", "theirs", "add", "position"):
            if not isinstance(value, bool):
                raise self.fail(node, f"true or false is needed, not {value!r:.40}")
        elif name == "word":
            allowed = tree.ACTS if isinstance(node, tree.Act) else tree.TESTS
            self.word(node, value, "word", allowed)
        elif name == "who":
            self.word(node, value, "word", ("piece", "friend", "enemy", "moving"))
        elif name == "head":
            self.word(node, value, "word", ("change-type", "promote"))
        elif name == "turn":
            self.word(node, value, "word", ("clockwise", "anticlockwise"))
        elif name == "name" and not isinstance(node, tree.Attr | tree.Flag | tree.SetFlag):
            what = "tally" if isinstance(node, tree.TallyOf | tree.SetTally) else "number"
            self.word(node, value, what, self.known[what])
        elif name in ("place", "piece", "owner"):  # go and put (rules/relays.py)
            self.word(node, value, name, relay_words(self.design, node, name))
        elif name == "name":  # (attr A): false where no piece has A; a flag's name
            if not isinstance(value, str):
                raise self.fail(node, f"a word is needed, not {value!r:.40}")
        else:
            what = _REFERS[name]
            for word in value if isinstance(value, tuple) else (value,):
                self.word(node, word, what, self.known[what])

    def word(self, node: tree.ProgramNode, word: object, what: str, allowed: Sequence[str]) -> None:
        if not isinstance(word, str) or word not in allowed:
            raise self.fail(
                node,
                f"unknown {what} {word!r:.40} in {tree.shown(node)}; known: {', '.join(allowed)}",
            )


#: The fields that hold a list of nodes: the nodes' kinds and what each is called.
_LISTS: Final = {"conds": (tree.CONDITION_NODES, "condition"), "args": (tree.NUM_NODES, "number")}
#: The fields that name something of the design, and what.
_REFERS: Final = {
    "direction": "direction",
    "directions": "direction",
    "source": "direction",
    "target": "direction",
    "types": "piece type",
    "type": "piece type",
    "kind": "move type",
    "zone": "zone",
    "attr": "attribute",
    "label": "label",
    "place": "position",
}
