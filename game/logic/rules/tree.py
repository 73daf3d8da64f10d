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
from typing import Any, Final, Literal, TypeAlias, dataclass_transform, get_args

from game.logic.rules.sexpr import DescriptionError, Item

__all__ = [
    "ACTS",
    "CONDITION_NODES",
    "COUNT_NODES",
    "HEADS",
    "NUMBERED",
    "NUM_NODES",
    "STATEMENT_NODES",
    "TESTS",
    "Act",
    "AddPartial",
    "Advance",
    "And",
    "Anywhere",
    "Arith",
    "At",
    "Attr",
    "Cascade",
    "ChangeType",
    "Compare",
    "Cond",
    "Count",
    "Counters",
    "Do",
    "Exists",
    "Flag",
    "Goto",
    "If",
    "InLine",
    "InZone",
    "Is",
    "Jump",
    "LinePieces",
    "MakesLine",
    "Minus",
    "Next",
    "Not",
    "Num",
    "Number",
    "NumberOf",
    "OnBoard",
    "OneOf",
    "OnlyLines",
    "Or",
    "Pieces",
    "PiecesAtMost",
    "ProgramNode",
    "Put",
    "Repeat",
    "Rotate",
    "SetAttr",
    "SetFlag",
    "SetNumber",
    "SetTally",
    "Sow",
    "SowSkip",
    "Stmt",
    "Sweep",
    "TakeTo",
    "TallyOf",
    "Thrown",
    "Verify",
    "While",
    "shown",
    "text",
    "walk",
]

#: The statements without arguments (``dir``: the sweep's direction of the pass).
ACTS: Final = (
    "add", "capture", "flip", "mark", "back", "set-flag", "again", "dir", "die", "repelled",
    "from", "to", "relay", "add-copy",
)  # fmt: skip
#: The conditions without arguments.
TESTS: Final = (
    "empty", "friend", "enemy", "captured", "last-to", "last-from", "attacked", "check",
    "flipped", "flag", "at-origin", "true", "false",
)  # fmt: skip


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
@dataclass(frozen=True)
class ProgramNode:
    """A node of the tree; ``where`` is the list or word it was read from (None when built
    in code), left out of equality. Every subclass is made a frozen dataclass of the fields
    it declares (after ``where``, which is given by keyword)."""

    where: Item | None = field(default=None, compare=False, repr=False, kw_only=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True)(cls)

    def error(self, message: str, program: Item | None = None) -> DescriptionError:
        """``message`` at the node's place (else the program's, else no place)."""
        at = self.where if self.where is not None else program
        return at.error(message) if at is not None else DescriptionError(message)


# -- statements ------------------------------------------------------------------------------


class Advance(ProgramNode):
    """The cursor moves one position along a direction (failing off the board)."""

    direction: str


class Act(ProgramNode):
    """A statement without arguments: one of :data:`ACTS`."""

    word: Literal[
        "add", "capture", "flip", "mark", "back", "set-flag", "again", "dir", "die", "repelled",
        "from", "to", "relay", "add-copy",
    ]  # fmt: skip


class AddPartial(ProgramNode):
    """The move so far, to be continued by a move of type ``kind``."""

    kind: str


class Verify(ProgramNode):
    cond: Cond


class If(ProgramNode):
    cond: Cond
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] = ()


class Do(ProgramNode):
    body: tuple[Stmt, ...]


class Anywhere(ProgramNode):
    """The body run from every position (the statements after it too)."""

    body: tuple[Stmt, ...]


class OneOf(ProgramNode):
    """Each alternative followed by the statements after the choice."""

    alternatives: tuple[Stmt, ...]


class While(ProgramNode):
    cond: Cond
    body: tuple[Stmt, ...]


class Repeat(ProgramNode):
    times: Count
    body: tuple[Stmt, ...]


class Sweep(ProgramNode):
    """The body run once per direction (``dir`` steps along it) from the cursor."""

    directions: tuple[str, ...]
    body: tuple[Stmt, ...]


class ChangeType(ProgramNode):
    """The moving piece becomes ``type`` (``promote`` and ``change-type``)."""

    type: str
    head: Literal["change-type", "promote"] = "change-type"


class SetAttr(ProgramNode):
    """The moving piece gains (``on``) or loses an attribute."""

    attr: str
    on: bool


class SetFlag(ProgramNode):
    """A named flag of the move (``position``: the cursor's position's) set or cleared."""

    name: str
    on: bool
    position: bool = False


class Cascade(ProgramNode):
    """A second piece moves: from the walk ``source`` to the walk ``target`` (both from the
    origin)."""

    source: tuple[str, ...]
    target: tuple[str, ...]


class Sow(ProgramNode):
    direction: str


class SowSkip(Sow):
    """A sowing that passes over the position it took the counters from."""


class Rotate(ProgramNode):
    """A square zone's pieces turn a quarter (``clockwise`` or ``anticlockwise``)."""

    zone: str
    turn: str


class Goto(ProgramNode):
    label: str


class Jump(ProgramNode):
    """The cursor jumps to a position: a named one, ``from``, ``to``, ``last-from``, ``last-to``."""

    place: str


class Put(ProgramNode):
    """``piece`` (a type, ``same``, ``moving`` or ``none``) of ``owner`` (``mover``, ``same``,
    ``other`` or a player) put at ``place`` (``here``, a direction or a position)."""

    piece: str
    owner: str = "mover"
    place: str = "here"


class TakeTo(ProgramNode):
    zone: str


class SetNumber(ProgramNode):
    """The moving piece's number ``name`` set to ``value`` (with ``add``: increased by it),
    kept within the number's range (:mod:`game.logic.rules.piece_numbers`)."""

    name: str
    value: Num
    add: bool = False


class SetTally(ProgramNode):
    """A tally set to ``value`` (with ``add``: increased by it) by the move: the mover's own,
    the game's, or the cursor's position's (:mod:`game.logic.rules.program_tallies`)."""

    name: str
    value: Num
    add: bool = False


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
    | SowSkip
    | Rotate
    | Goto
    | Jump
    | Put
    | TakeTo
    | SetNumber
    | SetTally
    | SetFlag
)

# -- conditions ------------------------------------------------------------------------------


class Is(ProgramNode):
    """A condition without arguments: one of :data:`TESTS`."""

    word: str


class Not(ProgramNode):
    cond: Cond


class And(ProgramNode):
    conds: tuple[Cond, ...]


class Or(ProgramNode):
    conds: tuple[Cond, ...]


class Pieces(ProgramNode):
    """The cursor's piece (``moving``: the moving piece) is one of ``types``, of anyone
    (``piece``), the player's (``friend``) or the other's (``enemy``)."""

    who: Literal["piece", "friend", "enemy", "moving"]
    types: tuple[str, ...]


class InZone(ProgramNode):
    zone: str


class OnBoard(ProgramNode):
    direction: str


class Attr(ProgramNode):
    name: str


class MakesLine(ProgramNode):
    n: int


class InLine(ProgramNode):
    n: int


class OnlyLines(ProgramNode):
    n: int


class PiecesAtMost(ProgramNode):
    n: int


class Exists(ProgramNode):
    cond: Cond


class Counters(ProgramNode):
    """The counters on the cursor's position: ``n`` exactly, or at least (``at_least``)."""

    n: int
    at_least: bool = False


class Next(ProgramNode):
    """``cond`` one step along ``direction`` (false off the board)."""

    direction: str
    cond: Cond


class Flag(ProgramNode):
    """A named flag of the move (``position``: the cursor's position's) is set."""

    name: str
    position: bool = False


class At(ProgramNode):
    """``cond`` at the position named ``place``."""

    place: str
    cond: Cond


class Compare(ProgramNode):
    """Two numbers compared: ``op`` is ``=``, ``<``, ``<=``, ``>`` or ``>=``."""

    op: str
    left: Num
    right: Num


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
    | Compare
    | Flag
    | At
)

# -- counts ----------------------------------------------------------------------------------


class Number(ProgramNode):
    n: int


class LinePieces(ProgramNode):
    """The pieces on the line through the cursor along ``direction`` and its opposite."""

    direction: str


class Minus(ProgramNode):
    count: Count
    less: int


class Thrown(ProgramNode):
    """The throw of the dice this turn: the sum of its values (``thrown``)."""


Count: TypeAlias = Number | LinePieces | Minus | Thrown

# -- numbers (of pieces, tallies, and arithmetic on them) ------------------------------------


class NumberOf(ProgramNode):
    """The number ``name`` of the cursor's piece (``moving``: of the moving piece); 0 where
    there is no piece or it has no such number."""

    name: str
    moving: bool = False


class TallyOf(ProgramNode):
    """A tally's value before the move: the mover's (``theirs``: the next player's), the
    game's, or the cursor's position's."""

    name: str
    theirs: bool = False


class Arith(ProgramNode):
    """``op`` (``+``, ``-``, ``*``, ``min``, ``max``) of numbers."""

    op: str
    args: tuple[Num, ...]


Num: TypeAlias = Number | NumberOf | TallyOf | Thrown | Arith

#: The node classes of each kind, as the aliases above list them (what a reader checks against).
STATEMENT_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Stmt)
CONDITION_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Cond)
COUNT_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Count)
NUM_NODES: Final[tuple[type[ProgramNode], ...]] = get_args(Num)

#: The word of each node written ``(word argument ...)``: its fields in order, a node or nodes
#: as their text, a tuple of words in parentheses, a word or a number as it is.
HEADS: Final[dict[type[ProgramNode], str]] = {
    AddPartial: "add-partial", Verify: "verify", Do: "do", Anywhere: "anywhere",
    OneOf: "one-of", While: "while", Repeat: "repeat", Sweep: "sweep", Cascade: "cascade",
    Sow: "sow", SowSkip: "sow-skip", Rotate: "rotate", Goto: "goto", Jump: "go", Put: "put",
    TakeTo: "take-to", Not: "not", And: "and", Or: "or", InZone: "in-zone", OnBoard: "on-board",
    Attr: "attr", MakesLine: "makes-line", InLine: "in-line", OnlyLines: "only-lines",
    PiecesAtMost: "pieces-at-most", Exists: "exists", Next: "next", At: "at",
    LinePieces: "line-pieces", Minus: "minus",
}  # fmt: skip
#: The conditions on a number ``n`` (of stones in a line, of pieces).
NUMBERED: Final = (MakesLine, InLine, OnlyLines, PiecesAtMost)


def _arguments(kind: type) -> tuple[tuple[str, bool], ...]:
    """The fields of a node class but ``where``, in order, each with whether it holds nodes
    (a node, or a tuple of them)."""
    held = ("Stmt", "Cond", "Count", "Num")
    return tuple(
        (f.name, any(h in str(f.type) for h in held)) for f in fields(kind) if f.name != "where"
    )


#: For each node class, :func:`_arguments`.
_ARGUMENTS: Final[dict[type, tuple[tuple[str, bool], ...]]] = {
    kind: _arguments(kind)
    for kind in (*STATEMENT_NODES, *CONDITION_NODES, *COUNT_NODES, *NUM_NODES)
}
#: For each node class, the fields that hold nodes, last first (what :func:`walk` goes into).
_INNER: Final[dict[type, tuple[str, ...]]] = {
    kind: tuple(name for name, nodes in reversed(arguments) if nodes)
    for kind, arguments in _ARGUMENTS.items()
}

# -- back to text, walking -----------------------------------------------------------


def text(node: ProgramNode | Sequence[ProgramNode]) -> str:
    """The description's text of a node (or of statements, separated by spaces)."""
    if not isinstance(node, ProgramNode):
        return " ".join(text(n) for n in node)
    match node:
        case Advance(direction=w) | Act(word=w) | Is(word=w):
            return w
        case Number(n=n):
            return str(n)
        case Thrown():
            return "thrown"
        case If(cond=c, then=then, otherwise=other):
            inner = " ".join([text(c), *(text(s) for s in then)])
            return f"(if {inner}" + (f" (else {text(other)}))" if other else ")")
        case ChangeType(type=t, head=head):
            return f"({head} {t})"
        case SetAttr(attr=a, on=on):
            return f"({'set-attr' if on else 'clear-attr'} {a})"
        case SetFlag(name=a, on=on, position=at):
            return f"({'set' if on else 'clear'}-{'position-' if at else ''}flag {a})"
        case Flag(name=a, position=at):
            return f"({'position-' if at else ''}flag {a})"
        case Pieces(who=who, types=types):
            return f"({who} {' '.join(types)})"
        case Counters(n=n, at_least=at_least):
            return f"({'counters-at-least' if at_least else 'counters'} {n})"
        case Compare(op=op) | Arith(op=op):
            numbers = (node.left, node.right) if isinstance(node, Compare) else node.args
            return f"({op} {text(numbers)})"
        case NumberOf(name=name, moving=flag) | TallyOf(name=name, theirs=flag):
            said = ("number", "moving") if isinstance(node, NumberOf) else ("tally", "theirs")
            return f"({said[0]} {name}{' ' + said[1] if flag else ''})"
        case SetNumber(name=name, value=value, add=add) | SetTally(name=name, value=value, add=add):
            what = "number" if isinstance(node, SetNumber) else "tally"
            return f"({'add' if add else 'set'}-{what} {name} {text(value)})"
    word = HEADS.get(type(node))
    if word is None:
        raise TypeError(f"not a node of the tree: {node!r}")
    parts = [word]
    for name, nodes in _ARGUMENTS[type(node)]:
        value = getattr(node, name)
        if nodes:
            parts.append(text(value))
        elif isinstance(value, tuple):
            parts.append(f"({' '.join(value)})")
        else:
            parts.append(str(value))
    return f"({' '.join(parts)})"


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
