"""The typed intermediate form of move programs: a tree of statements, conditions and counts.

The description's reader (:mod:`game.logic.rules.programs`) checks a program's lists and
builds its tree (:mod:`game.logic.rules.read_tree`); the compiler (:mod:`game.logic.rules.writer`,
:mod:`game.logic.rules.expressions`, :mod:`game.logic.rules.attacks`) reads only the tree.
Nodes are frozen dataclasses that name what they refer to in the description's own words
(a direction, a piece type, a zone), so a tree prints back as the text it was read from
(:func:`text`) and two nodes written at different places are equal when they say the same.

>>> body = (Advance("n"), Verify(Pieces("enemy", ("Pawn",))), OneOf((Act("add"), Act("capture"))))
>>> text(body)
'n (verify (enemy Pawn)) (one-of add capture)'
>>> Verify(Is("empty")) == Verify(Is("empty"), where=None)
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Final, Literal, TypeAlias, get_args

from game.logic.rules.sexpr import DescriptionError, Item

__all__ = [
    "ACTS",
    "CONDITION_NODES",
    "COUNT_NODES",
    "STATEMENT_NODES",
    "TESTS",
    "Act",
    "AddPartial",
    "Advance",
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
    "Is",
    "LinePieces",
    "MakesLine",
    "Minus",
    "Next",
    "Not",
    "Number",
    "OnBoard",
    "OneOf",
    "OnlyLines",
    "Or",
    "Pieces",
    "PiecesAtMost",
    "ProgramNode",
    "Repeat",
    "SetAttr",
    "Sow",
    "Stmt",
    "Sweep",
    "TakeTo",
    "Verify",
    "While",
    "shown",
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
class ProgramNode:
    """A node of the tree; ``where`` is the list or word it was read from (None when built
    in code), left out of equality."""

    where: Item | None = field(default=None, compare=False, repr=False, kw_only=True)

    def error(self, message: str, program: Item | None = None) -> DescriptionError:
        """``message`` at the node's place (else the program's, else no place)."""
        at = self.where if self.where is not None else program
        return at.error(message) if at is not None else DescriptionError(message)


# -- statements ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advance(ProgramNode):
    """The cursor moves one position along a direction (failing off the board)."""

    direction: str


@dataclass(frozen=True, slots=True)
class Act(ProgramNode):
    """A statement without arguments: one of :data:`ACTS`."""

    word: Literal["add", "capture", "flip", "mark", "back", "set-flag", "again", "dir"]


@dataclass(frozen=True, slots=True)
class AddPartial(ProgramNode):
    """The move so far, to be continued by a move of type ``kind``."""

    kind: str


@dataclass(frozen=True, slots=True)
class Verify(ProgramNode):
    cond: Cond


@dataclass(frozen=True, slots=True)
class If(ProgramNode):
    cond: Cond
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] = ()


@dataclass(frozen=True, slots=True)
class Do(ProgramNode):
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Anywhere(ProgramNode):
    """The body run from every position (the statements after it too)."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class OneOf(ProgramNode):
    """Each alternative followed by the statements after the choice."""

    alternatives: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class While(ProgramNode):
    cond: Cond
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Repeat(ProgramNode):
    times: Count
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Sweep(ProgramNode):
    """The body run once per direction (``dir`` steps along it) from the cursor."""

    directions: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class ChangeType(ProgramNode):
    """The moving piece becomes ``type`` (``promote`` and ``change-type``)."""

    type: str
    head: Literal["change-type", "promote"] = "change-type"


@dataclass(frozen=True, slots=True)
class SetAttr(ProgramNode):
    """The moving piece gains (``on``) or loses an attribute."""

    attr: str
    on: bool


@dataclass(frozen=True, slots=True)
class Cascade(ProgramNode):
    """A second piece moves: from the walk ``source`` to the walk ``target`` (both from the
    origin)."""

    source: tuple[str, ...]
    target: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Sow(ProgramNode):
    direction: str


@dataclass(frozen=True, slots=True)
class Goto(ProgramNode):
    label: str


@dataclass(frozen=True, slots=True)
class TakeTo(ProgramNode):
    zone: str


Stmt: TypeAlias = (
    Advance
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
class Is(ProgramNode):
    """A condition without arguments: one of :data:`TESTS`."""

    word: str


@dataclass(frozen=True, slots=True)
class Not(ProgramNode):
    cond: Cond


@dataclass(frozen=True, slots=True)
class And(ProgramNode):
    conds: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Or(ProgramNode):
    conds: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Pieces(ProgramNode):
    """The cursor's piece (``moving``: the moving piece) is one of ``types``, of anyone
    (``piece``), the player's (``friend``) or the other's (``enemy``)."""

    who: Literal["piece", "friend", "enemy", "moving"]
    types: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InZone(ProgramNode):
    zone: str


@dataclass(frozen=True, slots=True)
class OnBoard(ProgramNode):
    direction: str


@dataclass(frozen=True, slots=True)
class Attr(ProgramNode):
    name: str


@dataclass(frozen=True, slots=True)
class MakesLine(ProgramNode):
    n: int


@dataclass(frozen=True, slots=True)
class InLine(ProgramNode):
    n: int


@dataclass(frozen=True, slots=True)
class OnlyLines(ProgramNode):
    n: int


@dataclass(frozen=True, slots=True)
class PiecesAtMost(ProgramNode):
    n: int


@dataclass(frozen=True, slots=True)
class Exists(ProgramNode):
    cond: Cond


@dataclass(frozen=True, slots=True)
class Counters(ProgramNode):
    """The counters on the cursor's position: ``n`` exactly, or at least (``at_least``)."""

    n: int
    at_least: bool = False


@dataclass(frozen=True, slots=True)
class Next(ProgramNode):
    """``cond`` one step along ``direction`` (false off the board)."""

    direction: str
    cond: Cond


Cond: TypeAlias = (
    Is
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
class Number(ProgramNode):
    n: int


@dataclass(frozen=True, slots=True)
class LinePieces(ProgramNode):
    """The pieces on the line through the cursor along ``direction`` and its opposite."""

    direction: str


@dataclass(frozen=True, slots=True)
class Minus(ProgramNode):
    count: Count
    less: int


Count: TypeAlias = Number | LinePieces | Minus

#: The node classes of each kind, as the aliases above list them (what a reader checks against).
STATEMENT_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Stmt)
CONDITION_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Cond)
COUNT_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Count)


def _inner(kind: type) -> tuple[str, ...]:
    """The fields of a node class that hold nodes (a node, or a tuple of them), last first."""
    held = ("Stmt", "Cond", "Count")
    names = [f.name for f in fields(kind) if any(h in str(f.type) for h in held)]
    return tuple(reversed(names))


#: For each node class, :func:`_inner` (what :func:`walk` goes into).
_INNER: Final[dict[type, tuple[str, ...]]] = {
    kind: _inner(kind) for kind in (*STATEMENT_NODES, *CONDITION_NODES, *COUNT_NODES)
}

# -- back to text, walking -----------------------------------------------------------


def text(node: ProgramNode | Sequence[ProgramNode]) -> str:
    """The description's text of a node (or of statements, separated by spaces)."""
    if not isinstance(node, ProgramNode):
        return " ".join(text(n) for n in node)
    match node:
        case Advance(direction=d):
            return d
        case Act(word=w) | Is(word=w):
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


def walk(nodes: ProgramNode | Sequence[ProgramNode]) -> Iterator[ProgramNode]:
    """Every node under ``nodes``, each before the nodes inside it."""
    stack = [nodes] if isinstance(nodes, ProgramNode) else list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        for name in _INNER.get(type(node), ()):
            value = getattr(node, name)
            if isinstance(value, tuple):
                stack.extend(reversed(value))
            else:
                stack.append(value)


def shown(node: object) -> str:
    if isinstance(node, ProgramNode):
        try:
            return _clip(text(node))
        except (TypeError, AttributeError):
            return type(node).__name__
    return _clip(repr(node))


def _clip(shown: str) -> str:
    return shown if len(shown) <= 40 else shown[:37] + "..."
