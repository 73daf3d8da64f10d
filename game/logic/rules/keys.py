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

from game.logic.rules import tree

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.design import Design

__all__ = ["key_tables", "pieces_key"]

#: What was verified where the cursor stands: ("empty" | "friend" | "enemy" | "piece", the
#: piece types named or None for any).
Fact: TypeAlias = tuple[str, frozenset[int] | None]


def pieces_key(design: Design, c: Compiled) -> Callable[[list[int]], tuple[int, ...]]:
    """A function from a board to its part of the key: the board itself, with each attribute
    that no program can read any more set, so that both values read the same."""
    tables = key_tables(design, c)
    if tables is None:
        return tuple
    canon, watched = tables
    owner, kind_of, attrs, code = c.owner, c.kind_of, c.attrs, c.code
    watched_codes = frozenset(watched)
    plain = canon == list(range(c.codes))

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


def key_tables(
    design: Design, c: Compiled
) -> tuple[list[int], dict[int, list[tuple[frozenset[int], int]]]] | None:
    """What :func:`pieces_key` changes: per piece code, the code with the attributes that
    never count set (``canon``), and per code whose attribute counts only while a piece that
    reads it stands on the board, (those readers' codes, the attribute's bit) pairs
    (``watched``: the bit is set while none of them stands); None: the board as it is."""
    if (
        not design.attributes
        or design.stacks
        or design.counters
        or any(p.shared for p in design.pieces)
        or _uses(design, "flip")
    ):
        return None
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
        return None
    canon = [c.code(c.owner[v], c.kind_of[v], c.attrs[v] | dead_bits[v]) if v else 0
             for v in range(c.codes)]  # fmt: skip
    return canon, watched


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
        nodes = [n for p in design.pieces for g in p.programs for n in tree.walk(g.tree)]
        self.made |= {self.types.index(n.type) for n in nodes if isinstance(n, tree.ChangeType)}
        cleared = {n.attr for n in nodes if isinstance(n, tree.SetAttr) and not n.on}
        for t, piece in enumerate(design.pieces):
            for program in piece.programs:
                self.t = t
                self.guards = 0
                self.capturing = False
                self.found: list[tuple[str, _At]] = []
                at = _At(False)
                for node in program.tree:
                    at = self.statement(node, at, top=True)
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

    def statement(self, node: tree.Stmt, at: _At, top: bool = False) -> _At:
        match node:
            case (
                tree.Advance() | tree.Act(word="dir" | "from" | "relay") | tree.Sow() | tree.Jump()
            ):
                return at.moved()
            case tree.Act(word="mark"):
                return _At(at.away, at.seen, (at.away, at.seen))
            case tree.Act(word="back"):
                away, seen = at.mark if at.mark is not None else (None, frozenset())
                return _At(away, seen, at.mark)
            case tree.Act(word="add" | "capture" | "add-copy") | tree.AddPartial() | tree.Put():
                if ("empty", None) not in at.seen:
                    self.capturing = True
            case tree.Verify(cond=cond):
                self.condition(cond, at)
                closed = _closed(cond)
                if top and at.away is False and closed in self.design.attributes:
                    self.guards |= 1 << self.design.attributes.index(closed)
                return _At(at.away, at.seen | self.facts(cond), at.mark)
            case tree.If(cond=cond, then=then, otherwise=otherwise):
                self.condition(cond, at)
                return _merge(self.sequence(then, at), self.sequence(otherwise, at))
            case tree.While(cond=cond, body=body):  # each pass may start where one ended
                self.condition(cond, at)
                again = _merge(at, self.sequence(body, at))
                self.condition(cond, again)
                return _merge(again, self.sequence(body, again))
            case tree.OneOf(alternatives=alternatives):
                ends = [self.statement(alt, at) for alt in alternatives]
                out = ends[0]
                for end in ends[1:]:
                    out = _merge(out, end)
                return out
            case tree.Do(body=body):
                for sub in body:
                    at = self.statement(sub, at, top)
            case tree.Anywhere(body=body):
                return self.sequence(body, _At(None, frozenset(), at.mark))
            case tree.Sweep(body=body):  # its walks come back to where it started
                self.sequence(body, at)
        return at

    def sequence(self, body: Iterable[tree.Stmt], at: _At) -> _At:
        for node in body:
            at = self.statement(node, at)
        return at

    def condition(self, cond: tree.Cond, at: _At) -> None:
        match cond:
            case tree.Attr(name=name):
                self.found.append((name, at))
            case tree.Not(cond=inner):
                self.condition(inner, at)
            case tree.And(conds=conds) | tree.Or(conds=conds):
                for sub in conds:
                    self.condition(sub, at)
            case tree.Exists(cond=inner) | tree.Next(cond=inner) | tree.At(cond=inner):
                self.condition(inner, _At(None))

    def facts(self, cond: tree.Cond) -> frozenset[Fact]:
        """What a verified condition tells of the piece at the cursor."""
        match cond:
            case tree.Is(word="empty" | "friend" | "enemy" as word):
                return frozenset({(word, None)})
            case tree.And(conds=conds):
                return frozenset().union(*(self.facts(a) for a in conds))
            case tree.Pieces(who="friend" | "enemy" | "piece" as who, types=names):
                return frozenset({(who, frozenset(self.types.index(n) for n in names))})
        return frozenset()


def _closed(cond: tree.Cond) -> str:
    """A: when ``cond`` is ``(not (attr A))``; else ""."""
    match cond:
        case tree.Not(cond=tree.Attr(name=name)):
            return name
    return ""


def _uses(design: Design, word: str) -> bool:
    """Whether a program says ``word`` (a statement without arguments)."""
    said = tree.Act(word)  # type: ignore[arg-type]
    return any(n == said for p in design.pieces for g in p.programs for n in tree.walk(g.tree))
