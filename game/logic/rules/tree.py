"""The typed intermediate form of move programs: a tree of statements, conditions and counts.

The description's reader (:mod:`game.logic.rules.programs`) checks a program's lists and
builds its tree with :func:`statements`; the compiler (:mod:`game.logic.rules.writer`,
:mod:`game.logic.rules.expressions`, :mod:`game.logic.rules.attacks`) reads only the tree.
Nodes are frozen dataclasses that name what they refer to in the description's own words
(a direction, a piece type, a zone), so a tree prints back as the text it was read from
(:func:`text`) and two nodes written at different places are equal when they say the same.
:func:`check` refuses a tree that is not one (a statement where a condition is due, a word
the design does not know) with a :class:`~game.logic.rules.sexpr.DescriptionError`, never a
traceback from the code it would have become.

>>> from game.logic.rules.sexpr import read
>>> body = statements(read("n (verify (enemy Pawn)) (one-of add capture)", "t.txt"))
>>> body[1]
Verify(cond=Pieces(who='enemy', types=('Pawn',)))
>>> text(body)
'n (verify (enemy Pawn)) (one-of add capture)'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Final, Literal, TypeAlias

from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = [
    "ACTS",
    "TESTS",
    "Act",
    "AddPartial",
    "And",
    "Anywhere",
    "Attr",
    "Cascade",
    "ChangeType",
    "Cond",
    "Count",
    "Counters",
    "Do",
    "Exists",
    "Goto",
    "If",
    "InLine",
    "InZone",
    "LinePieces",
    "MakesLine",
    "Minus",
    "Next",
    "Node",
    "Not",
    "Number",
    "OnBoard",
    "OneOf",
    "OnlyLines",
    "Or",
    "Pieces",
    "PiecesAtMost",
    "Repeat",
    "SetAttr",
    "Sow",
    "Step",
    "Stmt",
    "Sweep",
    "TakeTo",
    "Test",
    "Verify",
    "While",
    "check",
    "condition",
    "count",
    "statements",
    "text",
    "walk",
]

#: The statements without arguments (``dir``: the sweep's direction of the pass).
ACTS: Final = ("add", "capture", "flip", "mark", "back", "set-flag", "again", "dir")
#: The conditions without arguments.
TESTS: Final = (
    "empty",
    "friend",
    "enemy",
    "captured",
    "last-to",
    "last-from",
    "attacked",
    "check",
    "flipped",
    "flag",
    "at-origin",
    "true",
    "false",
)


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the tree; ``where`` is the list or word it was read from (None when built
    in code), left out of equality."""

    where: Item | None = field(default=None, compare=False, repr=False, kw_only=True)

    def error(self, message: str, program: Item | None = None) -> DescriptionError:
        """``message`` at the node's place (else the program's, else no place)."""
        at = self.where if self.where is not None else program
        return at.error(message) if at is not None else DescriptionError(message)


# -- statements ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step(Node):
    """The cursor moves one position along a direction (failing off the board)."""

    direction: str


@dataclass(frozen=True, slots=True)
class Act(Node):
    """A statement without arguments: one of :data:`ACTS`."""

    word: Literal["add", "capture", "flip", "mark", "back", "set-flag", "again", "dir"]


@dataclass(frozen=True, slots=True)
class AddPartial(Node):
    """The move so far, to be continued by a move of type ``kind``."""

    kind: str


@dataclass(frozen=True, slots=True)
class Verify(Node):
    cond: Cond


@dataclass(frozen=True, slots=True)
class If(Node):
    cond: Cond
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] = ()


@dataclass(frozen=True, slots=True)
class Do(Node):
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Anywhere(Node):
    """The body run from every position (the statements after it too)."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class OneOf(Node):
    """Each alternative followed by the statements after the choice."""

    alternatives: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class While(Node):
    cond: Cond
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Repeat(Node):
    times: Count
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Sweep(Node):
    """The body run once per direction (``dir`` steps along it) from the cursor."""

    directions: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class ChangeType(Node):
    """The moving piece becomes ``type`` (``promote`` and ``change-type``)."""

    type: str
    head: Literal["change-type", "promote"] = "change-type"


@dataclass(frozen=True, slots=True)
class SetAttr(Node):
    """The moving piece gains (``on``) or loses an attribute."""

    attr: str
    on: bool


@dataclass(frozen=True, slots=True)
class Cascade(Node):
    """A second piece moves: from the walk ``source`` to the walk ``target`` (both from the
    origin)."""

    source: tuple[str, ...]
    target: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sow(Node):
    direction: str


@dataclass(frozen=True, slots=True)
class Goto(Node):
    label: str


@dataclass(frozen=True, slots=True)
class TakeTo(Node):
    zone: str


Stmt: TypeAlias = (
    Step
    | Act
    | AddPartial
    | Verify
    | If
    | Do
    | Anywhere
    | OneOf
    | While
    | Repeat
    | Sweep
    | ChangeType
    | SetAttr
    | Cascade
    | Sow
    | Goto
    | TakeTo
)

# -- conditions ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Test(Node):
    """A condition without arguments: one of :data:`TESTS`."""

    word: str


@dataclass(frozen=True, slots=True)
class Not(Node):
    cond: Cond


@dataclass(frozen=True, slots=True)
class And(Node):
    conds: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Or(Node):
    conds: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Pieces(Node):
    """The cursor's piece (``moving``: the moving piece) is one of ``types``, of anyone
    (``piece``), the player's (``friend``) or the other's (``enemy``)."""

    who: Literal["piece", "friend", "enemy", "moving"]
    types: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InZone(Node):
    zone: str


@dataclass(frozen=True, slots=True)
class OnBoard(Node):
    direction: str


@dataclass(frozen=True, slots=True)
class Attr(Node):
    name: str


@dataclass(frozen=True, slots=True)
class MakesLine(Node):
    n: int


@dataclass(frozen=True, slots=True)
class InLine(Node):
    n: int


@dataclass(frozen=True, slots=True)
class OnlyLines(Node):
    n: int


@dataclass(frozen=True, slots=True)
class PiecesAtMost(Node):
    n: int


@dataclass(frozen=True, slots=True)
class Exists(Node):
    cond: Cond


@dataclass(frozen=True, slots=True)
class Counters(Node):
    """The counters on the cursor's position: ``n`` exactly, or at least (``at_least``)."""

    n: int
    at_least: bool = False


@dataclass(frozen=True, slots=True)
class Next(Node):
    """``cond`` one step along ``direction`` (false off the board)."""

    direction: str
    cond: Cond


Cond: TypeAlias = (
    Test
    | Not
    | And
    | Or
    | Pieces
    | InZone
    | OnBoard
    | Attr
    | MakesLine
    | InLine
    | OnlyLines
    | PiecesAtMost
    | Exists
    | Counters
    | Next
)

# -- counts ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Number(Node):
    n: int


@dataclass(frozen=True, slots=True)
class LinePieces(Node):
    """The pieces on the line through the cursor along ``direction`` and its opposite."""

    direction: str


@dataclass(frozen=True, slots=True)
class Minus(Node):
    count: Count
    less: int


Count: TypeAlias = Number | LinePieces | Minus

STATEMENTS: Final = (
    Step,
    Act,
    AddPartial,
    Verify,
    If,
    Do,
    Anywhere,
    OneOf,
    While,
    Repeat,
    Sweep,
    ChangeType,
    SetAttr,
    Cascade,
    Sow,
    Goto,
    TakeTo,
)
CONDITIONS: Final = (
    Test,
    Not,
    And,
    Or,
    Pieces,
    InZone,
    OnBoard,
    Attr,
    MakesLine,
    InLine,
    OnlyLines,
    PiecesAtMost,
    Exists,
    Counters,
    Next,
)
COUNTS: Final = (Number, LinePieces, Minus)

# -- from the checked lists ------------------------------------------------------------------


def statements(items: Sequence[Item]) -> tuple[Stmt, ...]:
    """The tree of a program's statements as the reader checked them (macros expanded).
    A word that is not one of :data:`ACTS` is a step, and so is each word of a list that
    is not a statement (``(n e)``: two steps); :func:`check` refuses an unknown direction."""
    out: list[Stmt] = []
    for item in items:
        out.extend(_statement(item))
    return tuple(out)


def _statement(item: Item) -> list[Stmt]:
    if isinstance(item, Atom):
        word = _word(item)
        return [Act(word, where=item) if word in ACTS else Step(word, where=item)]  # type: ignore[arg-type]
    head, args = item.head, item.args
    if head in ACTS and len(item) == 1:
        return [Act(head, where=item)]  # type: ignore[arg-type]
    if head == "verify":
        return [Verify(condition(_one(item)), where=item)]
    if head == "if":
        body = list(item.items[2:])
        other: tuple[Stmt, ...] = ()
        if body and isinstance(body[-1], Form) and body[-1].head == "else":
            other = statements(body[-1].args)
            body = body[:-1]
        return [If(condition(_first(item)), statements(body), other, where=item)]
    if head == "do":
        return [Do(statements(args), where=item)]
    if head == "anywhere":
        return [Anywhere(statements(args), where=item)]
    if head == "one-of":
        alternatives: list[Stmt] = []
        for alt in args:
            one = _statement(alt)
            alternatives.append(one[0] if len(one) == 1 else Do(tuple(one), where=alt))
        return [OneOf(tuple(alternatives), where=item)]
    if head == "while":
        return [While(condition(_first(item)), statements(item.items[2:]), where=item)]
    if head == "repeat":
        return [Repeat(count(_first(item)), statements(item.items[2:]), where=item)]
    if head == "sweep":
        return [Sweep(_words(_first(item)), statements(item.items[2:]), where=item)]
    if head in ("change-type", "promote"):
        return [ChangeType(_word(_one(item)), head, where=item)]  # type: ignore[arg-type]
    if head in ("set-attr", "clear-attr"):
        return [SetAttr(_word(_one(item)), head == "set-attr", where=item)]
    if head == "cascade" and len(args) == 2:
        return [Cascade(_words(args[0]), _words(args[1]), where=item)]
    if head == "sow":
        return [Sow(_word(_one(item)), where=item)]
    if head == "goto":
        return [Goto(_word(_one(item)), where=item)]
    if head == "take-to":
        return [TakeTo(_word(_one(item)), where=item)]
    if head == "add-partial":
        return [AddPartial(_word(_one(item)), where=item)]
    if head and head not in TESTS and all(isinstance(a, Atom) for a in item.items):
        return [Step(_word(d), where=d) for d in item.items]  # (n e): its steps
    raise item.error(f"unknown statement {_quote(item)}")


def condition(item: Item) -> Cond:
    """The tree of a condition."""
    if isinstance(item, Atom):
        word = _word(item)
        if word not in TESTS:
            raise item.error(f"unknown condition {word!r}")
        return Test(word, where=item)
    head, args = item.head, item.args
    if head == "not":
        return Not(condition(_one(item)), where=item)
    if head in ("and", "or") and args:
        conds = tuple(condition(a) for a in args)
        return And(conds, where=item) if head == "and" else Or(conds, where=item)
    if head in ("piece", "friend", "enemy", "moving") and args:
        return Pieces(head, tuple(_word(a) for a in args), where=item)  # type: ignore[arg-type]
    if head == "in-zone":
        return InZone(_word(_one(item)), where=item)
    if head == "on-board":
        return OnBoard(_word(_one(item)), where=item)
    if head == "attr":
        return Attr(_word(_one(item)), where=item)
    numbered: dict[str, type[MakesLine | InLine | OnlyLines | PiecesAtMost]] = {
        "makes-line": MakesLine,
        "in-line": InLine,
        "only-lines": OnlyLines,
        "pieces-at-most": PiecesAtMost,
    }
    if head in numbered:
        return numbered[head](_int(_one(item)), where=item)
    if head in ("counters", "counters-at-least"):
        return Counters(_int(_one(item)), head == "counters-at-least", where=item)
    if head == "exists":
        return Exists(condition(_one(item)), where=item)
    if head == "next" and len(args) == 2:
        return Next(_word(args[0]), condition(args[1]), where=item)
    raise item.error(f"unknown condition {_quote(item)}")


def count(item: Item) -> Count:
    """The tree of a count (a whole number, ``(line-pieces D)``, ``(minus COUNT N)``)."""
    if isinstance(item, Atom):
        return Number(_int(item), where=item)
    if item.head == "line-pieces":
        return LinePieces(_word(_one(item)), where=item)
    if item.head == "minus" and len(item) == 3:
        return Minus(count(item[1]), _int(item[2]), where=item)
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


def _words(item: Item) -> tuple[str, ...]:
    if not isinstance(item, Form):
        raise item.error(f"a list of directions is needed here, not {_quote(item)}")
    return tuple(_word(d) for d in item.items)


def _int(item: Item) -> int:
    if not isinstance(item, Atom) or item.quoted or not isinstance(item.value, int):
        raise item.error(f"a whole number is needed here, not {_quote(item)}")
    return item.value


def _quote(item: Item) -> str:
    shown = str(item)
    return shown if len(shown) <= 40 else shown[:37] + "..."


# -- back to text, walking, checking -----------------------------------------------------------


def text(node: Node | Sequence[Node]) -> str:
    """The description's text of a node (or of statements, separated by spaces)."""
    if not isinstance(node, Node):
        return " ".join(text(n) for n in node)
    match node:
        case Step(direction=d):
            return d
        case Act(word=w) | Test(word=w):
            return w
        case AddPartial(kind=k):
            return f"(add-partial {k})"
        case Verify(cond=c):
            return f"(verify {text(c)})"
        case If(cond=c, then=then, otherwise=other):
            inner = " ".join([text(c), *(text(s) for s in then)])
            return f"(if {inner}" + (f" (else {text(other)}))" if other else ")")
        case Do(body=body) | Anywhere(body=body):
            return f"({'do' if isinstance(node, Do) else 'anywhere'} {text(body)})"
        case OneOf(alternatives=alts):
            return f"(one-of {text(alts)})"
        case While(cond=c, body=body):
            return f"(while {text(c)} {text(body)})"
        case Repeat(times=n, body=body):
            return f"(repeat {text(n)} {text(body)})"
        case Sweep(directions=ds, body=body):
            return f"(sweep ({' '.join(ds)}) {text(body)})"
        case ChangeType(type=t, head=head):
            return f"({head} {t})"
        case SetAttr(attr=a, on=on):
            return f"({'set-attr' if on else 'clear-attr'} {a})"
        case Cascade(source=s, target=t):
            return f"(cascade ({' '.join(s)}) ({' '.join(t)}))"
        case Sow(direction=d):
            return f"(sow {d})"
        case Goto(label=label):
            return f"(goto {label})"
        case TakeTo(zone=z):
            return f"(take-to {z})"
        case Not(cond=c) | Exists(cond=c):
            return f"({'not' if isinstance(node, Not) else 'exists'} {text(c)})"
        case And(conds=cs) | Or(conds=cs):
            return f"({'and' if isinstance(node, And) else 'or'} {text(cs)})"
        case Pieces(who=who, types=types):
            return f"({who} {' '.join(types)})"
        case InZone(zone=z):
            return f"(in-zone {z})"
        case OnBoard(direction=d):
            return f"(on-board {d})"
        case Attr(name=a):
            return f"(attr {a})"
        case MakesLine(n=n) | InLine(n=n) | OnlyLines(n=n) | PiecesAtMost(n=n):
            return f"({_NUMBERED[type(node)]} {n})"
        case Counters(n=n, at_least=at_least):
            return f"({'counters-at-least' if at_least else 'counters'} {n})"
        case Next(direction=d, cond=c):
            return f"(next {d} {text(c)})"
        case Number(n=n):
            return str(n)
        case LinePieces(direction=d):
            return f"(line-pieces {d})"
        case Minus(count=c, less=less):
            return f"(minus {text(c)} {less})"
    raise TypeError(f"not a node of the tree: {node!r}")


_NUMBERED: Final[dict[type, str]] = {
    MakesLine: "makes-line",
    InLine: "in-line",
    OnlyLines: "only-lines",
    PiecesAtMost: "pieces-at-most",
}


def walk(nodes: Node | Sequence[Node]) -> Iterator[Node]:
    """Every node under ``nodes``, each before the nodes inside it."""
    stack = [nodes] if isinstance(nodes, Node) else list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        for f in reversed(fields(node)):
            value = getattr(node, f.name)
            if isinstance(value, Node):
                stack.append(value)
            elif isinstance(value, tuple):
                stack.extend(v for v in reversed(value) if isinstance(v, Node))


def check(body: Sequence[Stmt], design: Design, program: Item | None = None) -> None:
    """Refuse a tree the compiler cannot write: a node of the wrong kind where a statement,
    condition or count is due, a field of the wrong type, or a word the design does not know
    (a direction, piece type, zone, attribute, label or move type). The error names the node
    (its place when it has one, else ``program``'s)."""
    _Checker(design, program).body(body, "a statement")


class _Checker:
    def __init__(self, design: Design, program: Item | None) -> None:
        board = design.board
        self.program = program
        self.known: dict[str, tuple[str, ...]] = {
            "direction": tuple(board.directions),
            "piece type": tuple(p.name for p in design.pieces),
            "zone": tuple(board.zones),
            "attribute": tuple(design.attributes),
            "label": tuple(design.labels),
            "move type": tuple(sorted({g.kind for p in design.pieces for g in p.programs})),
        }

    def fail(self, node: object, message: str) -> DescriptionError:
        if isinstance(node, Node):
            return node.error(message, self.program)
        at = self.program
        return at.error(message) if at is not None else DescriptionError(message)

    def body(self, body: object, what: str) -> None:
        if not isinstance(body, tuple | list):
            raise self.fail(body, f"a tuple of statements is needed, not {body!r:.60}")
        for node in body:
            self.node(node, STATEMENTS, what)

    def node(self, node: object, kinds: tuple[type, ...], what: str) -> None:
        if not isinstance(node, kinds):
            raise self.fail(node, f"{what} is needed here, not {_shown(node)}")
        assert isinstance(node, Node)
        for f in fields(node):
            if f.name == "where":
                continue
            value = getattr(node, f.name)
            self.field(node, f.name, value)

    def field(self, node: Node, name: str, value: object) -> None:
        if name in ("cond",):
            self.node(value, CONDITIONS, "a condition")
        elif name == "conds":
            if not isinstance(value, tuple) or not value:
                raise self.fail(node, f"{_shown(node)} needs conditions")
            for c in value:
                self.node(c, CONDITIONS, "a condition")
        elif name in ("then", "otherwise", "body", "alternatives"):
            self.body(value, "a statement")
        elif name in ("times", "count"):
            self.node(value, COUNTS, "a count")
        elif name in ("n", "less"):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise self.fail(node, f"a whole number is needed, not {value!r:.40}")
        elif name in ("on", "at_least"):
            if not isinstance(value, bool):
                raise self.fail(node, f"true or false is needed, not {value!r:.40}")
        elif name == "word":
            allowed = ACTS if isinstance(node, Act) else TESTS
            self.word(node, value, "word", allowed)
        elif name == "who":
            self.word(node, value, "word", ("piece", "friend", "enemy", "moving"))
        elif name == "head":
            self.word(node, value, "word", ("change-type", "promote"))
        elif name == "name":  # (attr A): false where no piece has A
            if not isinstance(value, str):
                raise self.fail(node, f"a word is needed, not {value!r:.40}")
        else:
            what = _REFERS[name]
            for word in value if isinstance(value, tuple) else (value,):
                self.word(node, word, what, self.known[what])

    def word(self, node: Node, word: object, what: str, allowed: Sequence[str]) -> None:
        if not isinstance(word, str) or word not in allowed:
            raise self.fail(
                node, f"unknown {what} {word!r:.40} in {_shown(node)}; known: {', '.join(allowed)}"
            )


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
}


def _shown(node: object) -> str:
    if isinstance(node, Node):
        try:
            return _clip(text(node))
        except (TypeError, AttributeError):
            return type(node).__name__
    return _clip(repr(node))


def _clip(shown: str) -> str:
    return shown if len(shown) <= 40 else shown[:37] + "..."
