"""Numbers in move programs: a piece's whole-number attributes, tallies read and changed by a
move, arithmetic and comparisons.

A piece type declares a number with a start value, and a range where a move may change it::

    (piece Soldier ... (number rank 1))                 ; a constant: the Soldier's rank
    (piece Pawn ... (number moves 0 (range 0 99)))      ; changed by moves, kept in 0..99

A program reads ``(number NAME)`` (the cursor's piece's; 0 where there is no piece, or it
has no such number) and ``(number NAME moving)`` (the moving piece's), ``(tally NAME)`` and
``(tally NAME theirs)`` (:mod:`game.logic.rules.numbers`; a tally ``per-square`` is the
cursor's position's), whole numbers and ``(+ ...)``, ``(- A [B])``, ``(* ...)``,
``(min ...)``, ``(max ...)`` of them; the conditions ``(= A B)``, ``(< A B)``, ``(<= A B)``,
``(> A B)`` and ``(>= A B)`` compare two. ``(set-number NAME N)`` and ``(add-number NAME N)``
change the moving piece's number (within its range: a value past an end stops there), and
``(set-tally NAME N)`` and ``(add-tally NAME N)`` a tally, when the move is made.

A piece's numbers are part of its code, as its flags are (``1 + player + players * (type +
types * (flags + 2 ** attributes * numbers))``: :mod:`game.logic.rules.compile`), each
number a digit counted from the type's start value, so ``code(player, type)`` is a piece
with its start values, and making, unmaking, the position's key, stacks and flips carry the
numbers with the piece at no cost; a design without numbers has the codes it had. A piece
that changes type takes the new type's start values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules import tree
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.words import arg, err, whole_number, word_of

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = [
    "CODES",
    "COMPARE",
    "NUMBER_STATEMENTS",
    "NumberChecks",
    "NumberWriter",
    "comparison",
    "layout",
    "number_statement",
    "number_tables",
    "read_number",
]

#: The comparisons of two numbers, and Python's operator for each.
COMPARE: Final = {"=": "==", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
#: The arithmetic: name -> (least, most) arguments.
ARITH: Final = {"+": (1, 8), "-": (1, 2), "*": (1, 8), "min": (1, 8), "max": (1, 8)}
#: The statements that change a number.
NUMBER_STATEMENTS: Final = ("set-number", "add-number", "set-tally", "add-tally")
#: The most piece codes a design's numbers may make (every player, type, flag and value).
CODES: Final = 1 << 15
#: The largest number a description writes.
_LARGEST: Final = 1_000_000

#: One piece type's number: (name, start, least, most).
Declared = tuple[str, int, int, int]


def read_number(item: Form) -> Declared:
    """``(number NAME START [(range LEAST MOST)])`` in a piece's form."""
    args = arg(item, 2, 3)
    name, start = word_of(args[0]), whole_number(args[1], -_LARGEST, _LARGEST)
    least = most = start
    if len(args) == 3:
        bounds = args[2]
        if not isinstance(bounds, Form) or bounds.head != "range":
            raise err(bounds, "(range LEAST MOST): the values a move may give the number")
        low, high = arg(bounds, 2, 2)
        least = whole_number(low, -_LARGEST, _LARGEST)
        most = whole_number(high, least, _LARGEST)
        if not least <= start <= most:
            raise err(args[1], f"the start value {start} is outside the range {least}..{most}")
    return (name, start, least, most)


def layout(design: Design) -> list[tuple[str, int, int]]:
    """Each number's name, least value over every type that has it, and span (its values'
    count), in the order first declared."""
    bounds: dict[str, tuple[int, int]] = {}
    for piece in design.pieces:
        for name, _start, least, most in piece.numbers:
            low, high = bounds.get(name, (least, most))
            bounds[name] = (min(low, least), max(high, most))
    return [(name, low, high - low + 1) for name, (low, high) in bounds.items()]


def span_of(design: Design, form: Item | None = None) -> int:
    """How many values the numbers of a piece make together (1 without numbers); refuses a
    design whose pieces would have more than :data:`CODES` codes (at ``form``)."""
    span = 1
    for _name, _least, size in layout(design):
        span *= size
    codes = len(design.players) * len(design.pieces) * (1 << len(design.attributes)) * span
    if codes > CODES and form is not None:
        raise err(
            form,
            f"the pieces' numbers make {codes} kinds of piece, more than {CODES}: "
            "narrow their ranges",
        )
    return span


def number_tables(
    design: Design,
    codes: int,
    kind_of: Sequence[int],
    attrs_of: Sequence[int],
    owner: Sequence[int],
    code: Callable[..., int],
) -> dict[str, Any]:
    """The tables the compiled programs read: ``NUM{k}``, each code's value of number k (0
    for an empty position or a type without it), and ``NSET{k}(mc, v)``, the piece ``mc``
    with number k set to ``v`` (kept within its type's range)."""
    flags = len(design.attributes)
    out: dict[str, Any] = {}
    stride = 1
    for k, (name, low, size) in enumerate(layout(design)):
        own = [{n: (s, lo, hi) for n, s, lo, hi in p.numbers}.get(name) for p in design.pieces]
        values = [0] * codes
        for c in range(1, codes):
            declared = own[kind_of[c]]
            if declared is not None:
                digit = (attrs_of[c] >> flags) // stride % size
                values[c] = low + (digit + declared[0] - low) % size
        out[f"NUM{k}"] = tuple(values)
        out[f"NSET{k}"] = _setter(own, kind_of, attrs_of, owner, code, flags, stride, size)
        stride *= size
    return out


def _setter(
    own: list[tuple[int, int, int] | None],
    kind_of: Sequence[int],
    attrs_of: Sequence[int],
    owner: Sequence[int],
    code: Callable[..., int],
    flags: int,
    stride: int,
    size: int,
) -> Callable[[int, int], int]:
    mask = (1 << flags) - 1

    def set_number(mc: int, v: int) -> int:
        declared = own[kind_of[mc]] if mc > 0 else None
        if declared is None:
            return mc
        start, least, most = declared
        digit = (min(max(v, least), most) - start) % size
        rest = attrs_of[mc] >> flags
        rest += (digit - rest // stride % size) * stride
        return code(owner[mc], kind_of[mc], (attrs_of[mc] & mask) | (rest << flags))

    return set_number


# -- reading ---------------------------------------------------------------------------------


def comparison(item: Form) -> tree.Compare:
    """The tree of ``(OP A B)``, OP one of :data:`COMPARE`."""
    a, b = arg(item, 2, 2)
    return tree.Compare(str(item.head), number(a), number(b), where=item)


def number(item: Item) -> tree.Num:
    """The tree of a number: a whole number, ``(number NAME [moving])``, ``(tally NAME
    [theirs])`` or arithmetic."""
    if isinstance(item, Atom) and item.value == "thrown" and not item.quoted:
        return tree.Thrown(where=item)
    if isinstance(item, Atom):
        return tree.Number(whole_number(item, -_LARGEST, _LARGEST), where=item)
    head = item.head
    if head in ("number", "tally"):
        args = arg(item, 1, 2)
        flag = "moving" if head == "number" else "theirs"
        if len(args) == 2 and (not isinstance(args[1], Atom) or args[1].value != flag):
            raise err(args[1], f"({head} NAME {flag}) or ({head} NAME)")
        if head == "number":
            return tree.NumberOf(word_of(args[0]), len(args) == 2, where=item)
        return tree.TallyOf(word_of(args[0]), len(args) == 2, where=item)
    if head in ARITH:
        return tree.Arith(str(head), tuple(number(a) for a in arg(item, *ARITH[head])), where=item)
    raise err(
        item,
        "a number is a whole number, thrown, (number NAME [moving]), (tally NAME [theirs]) "
        "or (+ - * min max ...) of numbers",
    )


def number_statement(item: Form) -> tree.Stmt:
    """The tree of ``(set-number NAME N)``, ``(add-number ...)``, ``(set-tally ...)`` or
    ``(add-tally ...)``."""
    name, value = arg(item, 2, 2)
    kind = tree.SetNumber if str(item.head).endswith("number") else tree.SetTally
    return kind(word_of(name), number(value), str(item.head).startswith("add"), where=item)


class NumberChecks:
    """The part of the move programs' reader (:mod:`game.logic.rules.programs`) that checks
    numbers: every name declared, a piece number changed only where it has a range, a tally
    changed only by the mover's own or the game's."""

    forms: dict[str, list[Form]]
    counting: bool

    def _check_number_statement(self, item: Form) -> None:
        node = number_statement(item)
        self._check_names(node, item)
        if isinstance(node, tree.SetNumber) and not self._ranges().get(node.name):
            raise err(
                item[1],
                f"the number {node.name!r} has no (range ...) in any piece: it cannot change",
            )

    def _check_comparison(self, cond: Form) -> None:
        self._check_names(comparison(cond), cond)

    def _check_names(self, node: tree.ProgramNode, form: Form) -> None:
        tallies = self._tally_scopes()
        for n in tree.walk(node):
            if isinstance(n, tree.Thrown) and "dice" not in self.forms:
                raise n.error("thrown is the throw of the dice: the game has no (dice ...)")
            if isinstance(n, tree.NumberOf | tree.SetNumber):
                if self.counting:
                    raise err(form, "a game of counters has no pieces with numbers")
                if n.name not in self._ranges():
                    known = ", ".join(self._ranges()) or "none"
                    raise n.error(f"no piece has the number {n.name!r}; the numbers: {known}")
            elif isinstance(n, tree.TallyOf | tree.SetTally):
                if n.name not in tallies:
                    known = ", ".join(tallies) or "none"
                    raise n.error(f"no tally {n.name!r}; the tallies: {known}")
                if isinstance(n, tree.TallyOf) and n.theirs and tallies[n.name] != "per-player":
                    raise n.error(f"the tally {n.name!r} is not per-player: it has no theirs")

    def _ranges(self) -> dict[str, bool]:
        """Each number a piece declares, and whether some piece gives it a range."""
        out: dict[str, bool] = {}
        for form in self.forms.get("piece", []):
            for item in form.items[2:]:
                if isinstance(item, Form) and item.head == "number":
                    name, _start, least, most = read_number(item)
                    out[name] = out.get(name, False) or least < most
        return out

    def _tally_scopes(self) -> dict[str, str]:
        """Each declared tally's name and scope: per-player, per-square or game."""
        out = {}
        for form in self.forms.get("tally", []):
            if len(form) > 1 and isinstance(form[1], Atom):
                words = {a.value for a in form.items[2:] if isinstance(a, Atom)}
                scope = next((w for w in ("per-player", "per-square") if w in words), "game")
                out[str(form[1].value)] = scope
        return out


# -- writing ---------------------------------------------------------------------------------


class NumberWriter:
    """Writes numbers, comparisons and the statements that change numbers as Python, for
    :class:`~game.logic.rules.writer.ProgramWriter`: a piece's number is a table lookup on
    its code, a tally a lookup in ``TL`` (the position's tallies, set before the moves are
    generated), and a tally's change an entry ``(slot, value, add)`` in the move's effects,
    which the rulebook takes out into the move's program number
    (:mod:`game.logic.rules.numbers`)."""

    design: Design
    player: int
    players: int
    ns: dict[str, Any]

    @cached_property
    def changes_tallies(self) -> bool:
        """Whether a program changes a tally (only then does ``add`` take the changes out)."""
        programs = [g.tree for piece in self.design.pieces for g in piece.programs]
        return any(
            isinstance(n, tree.SetTally) for n in tree.walk([s for t in programs for s in t])
        )

    def num(self, node: tree.Num) -> str:
        match node:
            case tree.Number(n=n):
                return str(n)
            case tree.NumberOf(name=name, moving=moving):
                k = [n for n, _, _ in layout(self.design)].index(name)
                return f"NUM{k}[{'mc' if moving else 'b[c]'}]"
            case tree.TallyOf(name=name, theirs=theirs):
                return f"TL[{self.tally_slot(name, theirs)}]"
            case tree.Thrown():  # set by the rulebook before it generates moves
                self.ns.setdefault("THROWN", [0])
                return "THROWN[0]"
            case tree.Arith(op=op, args=args):
                parts = [self.num(a) for a in args]
                if op in ("min", "max"):
                    return f"{op}({', '.join(parts)}{', ' + parts[0] if len(parts) == 1 else ''})"
                if op == "-" and len(parts) == 1:
                    return f"(-{parts[0]})"
                return "(" + f" {op} ".join(parts) + ")"
        raise TypeError(f"not a number: {node!r:.60}")  # pragma: no cover - read_tree.check

    def compare(self, cond: tree.Compare) -> str:
        return f"{self.num(cond.left)} {COMPARE[cond.op]} {self.num(cond.right)}"

    def tally_slot(self, name: str, theirs: bool = False) -> str:
        """The slot of tally ``name`` in ``TL`` as this player's programs read it."""
        from game.logic.rules.numbers import tally_layout

        base, scope, start = tally_layout(self.design)[name]
        self.ns.setdefault("TL", start)
        if scope == "per-player":
            return str(base + (self.player + (1 if theirs else 0)) % self.players)
        return f"{base} + c" if scope == "per-square" else str(base)

    def change(self, node: tree.SetNumber | tree.SetTally) -> str:
        value = self.num(node.value)
        if isinstance(node, tree.SetNumber):
            k = [n for n, _, _ in layout(self.design)].index(node.name)
            new = f"NUM{k}[mc] + {value}" if node.add else value
            return f"mc = NSET{k}(mc, {new})"
        return f"eff = eff + (({self.tally_slot(node.name)}, {value}, {node.add}),)"


# -- positions as text -----------------------------------------------------------------------


def numbers_text(design: Design, ns: dict[str, Any], kind_of: Sequence[int], v: int) -> str:
    """``{moves=3}``: the numbers of piece ``v`` that differ from its type's start values
    (the generic position text writes it after the position; empty when none does)."""
    own = {name: start for name, start, _, _ in design.pieces[kind_of[v]].numbers}
    parts = [
        f"{name}={ns[f'NUM{k}'][v]}"
        for k, (name, _, _) in enumerate(layout(design))
        if name in own and ns[f"NUM{k}"][v] != own[name]
    ]
    return "{" + ";".join(parts) + "}" if parts else ""


def with_numbers(design: Design, ns: dict[str, Any], v: int, text: str) -> int:
    """Piece ``v`` with the numbers ``text`` gives (``moves=3;rank=2``, what
    :func:`numbers_text` writes inside the braces); ValueError says what is wrong."""
    names = [name for name, _, _ in layout(design)]
    for part in filter(None, text.split(";")):
        name, _, value = part.partition("=")
        if name not in names:
            raise ValueError(f"no number {name!r}; the numbers: {', '.join(names) or 'none'}")
        if not value.lstrip("-").isdigit() or len(value) > 8:
            raise ValueError(f"{part!r}: a number is NAME=WHOLE-NUMBER")
        k = names.index(name)
        v = ns[f"NSET{k}"](v, int(value))
        if ns[f"NUM{k}"][v] != int(value):
            raise ValueError(f"{part!r}: outside the range of {name}")
    return v


def tallies_text(design: Design, tallies: tuple[int, ...]) -> str:
    """``tallies: steps 3 1, moves 9, visits a2=1 b3=2``: the tallies that differ from their
    start (each player's in turn, the game's, the positions' that differ); empty when none
    does (the generic position text adds it before the side to move)."""
    from game.logic.rules.numbers import tally_layout

    parts = []
    names = design.board.names
    for name, (base, scope, start) in tally_layout(design).items():
        width = {"per-player": len(design.players), "per-square": len(names)}.get(scope, 1)
        own = tallies[base : base + width]
        if own == start[base : base + width]:
            continue
        if scope == "per-square":
            changed = [f"{names[i]}={v}" for i, v in enumerate(own) if v != start[base + i]]
            parts.append(f"{name} {' '.join(changed)}")
        else:
            parts.append(f"{name} {' '.join(str(v) for v in own)}")
    return "tallies: " + ", ".join(parts) if parts else ""


def read_tallies(design: Design, text: str) -> tuple[int, ...]:
    """The tallies :func:`tallies_text` wrote as ``text`` (after ``tallies:``), the others at
    their start; ValueError says what is wrong."""
    from game.logic.rules.numbers import tally_layout

    layout = tally_layout(design)
    names = design.board.names
    out = list(next(iter(layout.values()))[2]) if layout else []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, *values = part.split()
        if name not in layout:
            raise ValueError(f"no tally {name!r}; the tallies: {', '.join(layout) or 'none'}")
        base, scope, _ = layout[name]
        try:
            if scope == "per-square":
                for item in values:
                    where, _, v = item.partition("=")
                    out[base + names.index(where)] = int(v)
            else:
                width = len(design.players) if scope == "per-player" else 1
                if len(values) != width:
                    raise ValueError
                out[base : base + width] = [int(v) for v in values]
        except ValueError:
            raise ValueError(f"{part!r}: a tally's values, as tallies_text writes them") from None
    return tuple(out)
