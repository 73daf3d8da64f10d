"""The pieces part of a position's key: what of the pieces decides the game from here.

A piece's attribute (chess's ``moved``) is part of the piece, so two positions whose pieces
differ only in an attribute are different positions, as long as some program can still read
it. An attribute that only other pieces' programs read (a rook's ``moved``, read by its
king's castling) stops counting once no piece that reads it can still run the program that
does: a program that first verifies ``(not (attr A))`` on its own piece is closed for good to
a piece that carries A, when no program clears A. So once a king has moved, its rooks' moves
no longer tell two positions apart, as the castling rights of FIDE's laws and of FEN.

The reads are found in the programs: a condition ``(attr A)`` where the cursor has left the
piece's start reads another piece's attribute, one of the types and owner the statements
before it verified at that position (``(verify (friend Rook))``). Where a program may read
it anywhere else, or a piece that reads it can appear later (a promotion, a drop), or pieces
change owner or stand in stacks, the attribute always counts: the key then holds more than it
needs, never less.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from game.logic.rules.sexpr import Atom, Form, Item

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = ["pieces_key"]

#: What was verified where the cursor stands: ("empty" | "friend" | "enemy" | "piece", the
#: piece types named or None for any).
Fact: TypeAlias = tuple[str, frozenset[int] | None]


def pieces_key(design: Design, c: Compiled) -> Callable[[list[int]], tuple[int, ...]]:
    """A function from a board to its part of the key: the board itself, with each attribute
    that no program can read any more set, so that both values read the same."""
    if (
        not design.attributes
        or design.stacks
        or design.counters
        or any(p.shared for p in design.pieces)
        or _uses(design, "flip")
    ):
        return tuple
    reads = _Reads(design)
    dead_bits = [0] * c.codes  # per code: the attribute bits that never count for it
    watched: dict[int, list[tuple[frozenset[int], int]]] = {}  # code: (readers, bit)
    for t, piece in enumerate(design.pieces):
        for name in piece.attributes:
            a = design.attributes.index(name)
            if name in reads.anywhere or (t, name) in reads.own:
                continue
            readers = [r for r in reads.others if r.attr == name and t in r.kinds]
            if any(r.reader in reads.made for r in readers):
                continue
            for v in range(1, c.codes):
                if c.kind_of[v] != t or c.attrs[v] & (1 << a):
                    continue
                live = frozenset(
                    y
                    for r in readers
                    for y in range(1, c.codes)
                    if c.kind_of[y] == r.reader
                    and not c.attrs[y] & r.guards
                    and (r.owner is None or (c.owner[y] == c.owner[v]) == (r.owner == "friend"))
                )
                if live:
                    watched.setdefault(v, []).append((live, 1 << a))
                else:
                    dead_bits[v] |= 1 << a
    if not watched and not any(dead_bits):
        return tuple
    canon = [c.code(c.owner[v], c.kind_of[v], c.attrs[v] | dead_bits[v]) if v else 0
             for v in range(c.codes)]  # fmt: skip
    owner, kind_of, attrs, code = c.owner, c.kind_of, c.attrs, c.code
    watched_codes = frozenset(watched)
    plain = not any(dead_bits)

    def key(board: list[int]) -> tuple[int, ...]:
        out = tuple(board) if plain else tuple([canon[v] for v in board])
        if watched_codes.isdisjoint(board):
            return out
        present = set(board)
        changed: dict[int, int] = {}
        for v in watched_codes & present:
            bits = sum(bit for live, bit in watched[v] if live.isdisjoint(present))
            if bits:
                changed[canon[v]] = code(owner[v], kind_of[v], attrs[canon[v]] | bits)
        return tuple([changed.get(v, v) for v in out]) if changed else out

    return key


@dataclass(frozen=True)
class _Reader:
    """A program of type ``reader`` reads ``attr`` of pieces of ``kinds`` owned as ``owner``
    says ("friend", "enemy" or None: anyone's); closed to a piece carrying ``guards``."""

    reader: int
    attr: str
    kinds: frozenset[int]
    owner: str | None
    guards: int


@dataclass(frozen=True)
class _At:
    """Where a program's cursor is: ``away`` from the piece's start (None: it may be), what
    was verified there, and the same for the marked position."""

    away: bool | None
    seen: frozenset[Fact] = frozenset()
    mark: tuple[bool | None, frozenset[Fact]] | None = (False, frozenset())

    def moved(self) -> _At:
        return _At(True, frozenset(), self.mark)


def _merge(a: _At, b: _At) -> _At:
    return _At(
        a.away if a.away == b.away else None, a.seen & b.seen, a.mark if a.mark == b.mark else None
    )


class _Reads:
    """Every ``(attr A)`` of a design's programs: ``own`` (type, A) read on the piece's own
    start, ``others`` read elsewhere, ``anywhere``: attributes read where the walk cannot tell;
    ``made``: the types a move or a drop can bring onto the board."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self.types = [p.name for p in design.pieces]
        self.own: set[tuple[int, str]] = set()
        self.anywhere: set[str] = set()
        self.others: list[_Reader] = []
        self.made = {t for t, p in enumerate(design.pieces) if any(pr.drop for pr in p.programs)}
        self.made |= {self.types.index(str(f[1].value)) for f in _forms(design, "promote")}  # type: ignore[union-attr]
        self.made |= {self.types.index(str(f[1].value)) for f in _forms(design, "change-type")}  # type: ignore[union-attr]
        cleared = {str(f[1].value) for f in _forms(design, "clear-attr")}  # type: ignore[union-attr]
        for t, piece in enumerate(design.pieces):
            for program in piece.programs:
                self.t = t
                self.guards = 0
                self.capturing = False
                self.found: list[tuple[str, _At]] = []
                at = _At(False)
                for item in program.body:
                    at = self.statement(item, at, top=True)
                self.guards &= ~sum(
                    1 << design.attributes.index(a) for a in cleared if a in design.attributes
                )
                for attr, where in self.found:
                    self.note(attr, where)

    def note(self, attr: str, at: _At) -> None:
        if at.away is False:
            self.own.add((self.t, attr))
        elif at.away is None or self.capturing:  # a capture's reads also run in the probes
            self.anywhere.add(attr)
        else:
            kinds: frozenset[int] = frozenset(range(len(self.types)))
            owner = None
            for what, named in at.seen:
                if what in ("friend", "enemy"):
                    owner = what
                if what in ("friend", "enemy", "piece") and named is not None:
                    kinds &= named
            self.others.append(_Reader(self.t, attr, kinds, owner, self.guards))

    def statement(self, item: Item, at: _At, top: bool = False) -> _At:
        directions = self.design.board.directions
        if isinstance(item, Atom) or len(item) == 1:
            word = str(item.value) if isinstance(item, Atom) else item.head
            if word in directions or word == "dir":
                return at.moved()
            if word == "mark":
                return _At(at.away, at.seen, (at.away, at.seen))
            if word == "back":
                away, seen = at.mark if at.mark is not None else (None, frozenset())
                return _At(away, seen, at.mark)
            if word in ("add", "capture") and ("empty", None) not in at.seen:
                self.capturing = True
            return at
        head, args = item.head, item.args
        if head in directions or head == "sow":
            return at.moved()
        if head == "verify":
            self.condition(args[0], at)
            closed = _closed(args[0])
            if top and at.away is False and closed in self.design.attributes:
                self.guards |= 1 << self.design.attributes.index(closed)
            return _At(at.away, at.seen | self.facts(args[0]), at.mark)
        if head == "if":
            self.condition(args[0], at)
            body = [i for i in args[1:] if not (isinstance(i, Form) and i.head == "else")]
            other = [i for i in args[1:] if isinstance(i, Form) and i.head == "else"]
            done = self.sequence(body, at)
            return _merge(done, self.sequence(other[0].args, at) if other else at)
        if head == "while":  # each pass may start where the one before ended
            self.condition(args[0], at)
            again = _merge(at, self.sequence(args[1:], at))
            self.condition(args[0], again)
            return _merge(again, self.sequence(args[1:], again))
        if head == "one-of":
            ends = [self.statement(alt, at) for alt in args]
            out = ends[0]
            for end in ends[1:]:
                out = _merge(out, end)
            return out
        if head == "do":
            for sub in args:
                at = self.statement(sub, at, top)
            return at
        if head == "anywhere":
            return self.sequence(list(args), _At(None, frozenset(), at.mark))
        if head == "sweep":  # its walks come back to where it started
            self.sequence(list(args[1:]), at)
            return at
        if head == "add-partial" and ("empty", None) not in at.seen:
            self.capturing = True
        return at

    def sequence(self, items: Iterable[Item], at: _At) -> _At:
        for item in items:
            at = self.statement(item, at)
        return at

    def condition(self, cond: Item, at: _At) -> None:
        if isinstance(cond, Atom):
            return
        if cond.head == "attr":
            self.found.append((str(cond[1].value), at))  # type: ignore[union-attr]
            return
        elsewhere = cond.head not in ("not", "and", "or")  # next, exists: other positions
        for sub in cond.args:
            self.condition(sub, _At(None) if elsewhere else at)

    def facts(self, cond: Item) -> frozenset[Fact]:
        """What a verified condition tells of the piece at the cursor."""
        if isinstance(cond, Atom):
            word = str(cond.value)
            return (
                frozenset({(word, None)}) if word in ("empty", "friend", "enemy") else frozenset()
            )
        if cond.head == "and":
            return frozenset().union(*(self.facts(a) for a in cond.args))
        if cond.head in ("friend", "enemy", "piece"):
            kinds = frozenset(self.types.index(str(a.value)) for a in cond.args)  # type: ignore[union-attr]
            return frozenset({(cond.head, kinds)})
        return frozenset()


def _closed(cond: Item) -> str:
    """A: when ``cond`` is ``(not (attr A))``; else ""."""
    if isinstance(cond, Form) and cond.head == "not" and isinstance(cond[1], Form):
        inner = cond[1]
        if inner.head == "attr" and isinstance(inner[1], Atom):
            return str(inner[1].value)
    return ""


def _forms(design: Design, head: str) -> list[Form]:
    """Every statement ``(head ...)`` in the design's programs."""
    out: list[Form] = []

    def walk(item: Item) -> None:
        if isinstance(item, Form):
            if item.head == head:
                out.append(item)
            for sub in item.items:
                walk(sub)

    for piece in design.pieces:
        for program in piece.programs:
            for item in program.body:
                walk(item)
    return out


def _uses(design: Design, word: str) -> bool:
    """Whether a program says ``word`` (as a statement)."""

    def walk(item: Item) -> bool:
        if isinstance(item, Atom):
            return item.value == word
        return (len(item) == 1 and item.head == word) or any(walk(i) for i in item.items)

    return any(walk(i) for p in design.pieces for pr in p.programs for i in pr.body)
