"""Check, compiled: could a piece of the attacker capture on a position?

A royal piece must never be left where an opponent's move could take it (the definition
Zillions uses). Asked literally, that is every move program of every opponent piece run
forward; most pieces allow a shortcut that walks back from the royal piece instead, and this
module decides, program by program, which one is exact:

* A program that cannot capture a royal piece is left out. A forward walk over what each of
  its capture points (``add``, ``add-partial``, ``capture``) can find there (empty, the
  mover's own piece, an enemy piece, an enemy royal piece) proves it: castling ends on an
  empty square, en passant takes a Pawn (:mod:`game.logic.rules.royal_capture`).
* A program built only of steps, conditions on the square the cursor stands on (or on the
  board as a whole), choices, and loops that step one way is a regular expression over
  squares; walking its reverse from the royal piece, the attacker's own conditions tested on
  the same squares, finds exactly the squares its capture starts from. It is compiled into
  the attacker's *probe*, every such program of every piece type in one function, a program
  that several types share (a queen's slide and a rook's) run once.
* Any other program (``mark``/``back``, counted loops, a capture in passing, a continued
  capture) is run forward from each of the attacker's pieces that has it (the fallback).

A move program's own ``attacked`` and ``check`` conditions read false while it is asked
whether it could capture (a castling that needs them never captures), so the question never
asks itself again.

Probes come in three forms per attacker: ``P`` (the answer), ``R`` (the answer, noting for
each position read a bit per program, used by :meth:`~game.logic.rules.rulebook.Rulebook.legal`
to probe again only what a move changed) and ``B<g>`` (program ``g`` alone), written from
one list of lines per program group whose slots (the piece found, the position read) each
form fills its own way. ``R`` exists only when every probe reads nothing but the squares it
walks and the attacker has no fallback program.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from game.logic.rules import tree
from game.logic.rules.compiled.probes import shared_probes
from game.logic.rules.design import Design, Program
from game.logic.rules.royal_capture import R, classes, royal_safe, targets

__all__ = ["Attacks", "Walk", "capture_paths", "royal_safe", "write_attacks"]


# The regular expressions over squares, walked forward from the piece or backwards from
# the square it could capture on.
@dataclass(frozen=True, slots=True)
class Go:
    """The cursor moves along direction ``d`` (a board direction index)."""

    d: int


@dataclass(frozen=True, slots=True)
class Ask:
    """Condition ``cond`` holds on the cursor's square (``neg``: fails)."""

    cond: tree.Cond
    neg: bool = False


@dataclass(frozen=True, slots=True)
class Seq:
    parts: tuple[Walk, ...]


@dataclass(frozen=True, slots=True)
class Alt:
    parts: tuple[Walk, ...]


@dataclass(frozen=True, slots=True)
class Star:
    body: Walk


@dataclass(frozen=True, slots=True)
class Hit:
    """A capture point: the move takes what stands on the cursor's square."""


@dataclass(frozen=True, slots=True)
class _Final:
    """The end of a reversed walk: a piece of the attacker that has the program stands
    here."""


Walk: TypeAlias = Go | Ask | Seq | Alt | Star | Hit | _Final
EPS: Final[Walk] = Seq(())
NEVER: Final[Walk] = Alt(())
HIT: Final[Walk] = Hit()

#: The most lines one program's backward walk may take (beyond: it is run forward instead).
MAX_PROBE_LINES: Final = 4_000
#: The deepest line of a backward walk (each choice or loop indents one level, a loop two):
#: Python compiles at most 20 loops inside one another; deeper, the program is run forward.
MAX_PROBE_INDENT: Final = 18

#: Conditions that read more than the square and the board (the move so far, its start,
#: the moving piece): a program using one is not walked backwards.
PATH_WORDS: Final = frozenset({"captured", "flipped", "flag", "at-origin", "check"})
#: Conditions that read squares other than the cursor's, or the last move: a probe using one
#: cannot say which positions its answer depends on.
FAR_WORDS: Final = frozenset({"last-to", "last-from"})
#: Statements that change nothing a capture depends on.
INERT: Final = frozenset({"again", "set-flag", "flip"})


class Irreversible(Exception):
    """The program cannot be walked backwards (see the module docstring)."""


@dataclass
class Attacks:
    """The compiled attack test of a design, per attacker (see the module docstring)."""

    #: probes[attacker](b, square, lf, lt): whether a reversed program reaches a piece.
    probes: list[Callable[..., bool]]
    #: readers[attacker](b, square, lf, lt, m), or None: see the module docstring.
    readers: list[Callable[..., bool]] | None
    #: programs_probed[attacker][g]: probe program g alone (bit ``1 << g`` in ``m``).
    programs_probed: list[list[Callable[..., bool]]]
    #: fallback[attacker][type]: the generator of that type's programs that are neither
    #: left out nor walked backwards (None when it has none).
    fallback: list[list[Callable[..., None] | None]]
    #: How each program is tested, by program id: "none", "probe" or "fallback".
    modes: list[str]


# -- programs as regular expressions --------------------------------------------------------


def capture_paths(design: Design, program: Program, player: int | None) -> Walk:
    """The regular expression of ``program``'s walks from its piece to a capture point
    (each path ends in :class:`Hit`); raises Irreversible when it is not one. A step is the
    player's direction, or (``player`` None: every player at once) the direction word's
    index, which the probe turns into the mover's direction when it runs."""
    if program.drop:
        raise Irreversible("a drop starts anywhere")
    board = design.board
    turning = {d for d, _ in board.turns}

    def check_cond(c: tree.Cond) -> None:
        for n in tree.walk(c):
            if isinstance(n, tree.Is) and n.word in PATH_WORDS:
                raise Irreversible(n.word)
            if (isinstance(n, tree.Pieces) and n.who == "moving") or isinstance(
                n, tree.MakesLine | tree.Counters | tree.Compare | tree.Flag | tree.At
            ):
                raise Irreversible(type(n).__name__)

    def step(word: str) -> Walk:
        d = board.directions.index(word)
        every = range(len(design.players)) if player is None else (player,)
        if any(board.symmetry[p][d] in turning for p in every):
            raise Irreversible("a walk that turns")
        return Go(d if player is None else board.symmetry[player][d])

    def test(c: tree.Cond, neg: bool = False) -> Walk:
        check_cond(c)
        return Ask(c, neg)

    def paths(body: Sequence[tree.Stmt]) -> tuple[Walk, Walk]:
        """(every walk through ``body``, every walk to a capture point in it)."""
        if not body:
            return EPS, NEVER
        w1, p1 = one(body[0])
        w2, p2 = paths(body[1:])
        return _seq(w1, w2), _alt(p1, _seq(w1, p2))

    def one(node: tree.Stmt) -> tuple[Walk, Walk]:
        match node:
            case tree.Advance(direction=word):
                return step(word), NEVER
            case tree.Act(word="add"):
                return EPS, HIT
            case tree.Act(word=word) if word in INERT:
                return EPS, NEVER
            case tree.ChangeType() | tree.SetAttr() | tree.Goto():
                return EPS, NEVER
            case tree.Verify(cond=c):
                return test(c), NEVER
            case tree.If(cond=c, then=then, otherwise=other):
                wa, pa = paths(then)
                wb, pb = paths(other)
                yes, no = test(c), test(c, True)
                return _alt(_seq(yes, wa), _seq(no, wb)), _alt(_seq(yes, pa), _seq(no, pb))
            case tree.OneOf(alternatives=alternatives):
                both = [one(a) for a in alternatives]
                return _alt(*(w for w, _ in both)), _alt(*(p for _, p in both))
            case tree.Do(body=body):
                return paths(body)
            case tree.While(cond=c, body=body):
                wb, pb = paths(body)
                loop = Star(_seq(test(c), wb))
                return _seq(loop, test(c, True)), _seq(loop, test(c), pb)
        raise Irreversible(type(node).__name__)

    _, found = paths(program.tree)
    return found


def _seq(*walks: Walk) -> Walk:
    out: list[Walk] = []
    for n in walks:
        if n == NEVER:
            return NEVER
        out.extend(n.parts if isinstance(n, Seq) else (n,))
    return out[0] if len(out) == 1 else Seq(tuple(out))


def _alt(*walks: Walk) -> Walk:
    out: list[Walk] = []
    for n in walks:
        for m in n.parts if isinstance(n, Alt) else (n,):
            if m not in out:
                out.append(m)
    for m in list(out):  # (test C) or (test not C): no test at all
        if isinstance(m, Ask) and Ask(m.cond, not m.neg) in out and len(out) == 2:
            return EPS
    return out[0] if len(out) == 1 else Alt(tuple(out))


def reverse(walk: Walk) -> Walk:
    """The walks of ``walk`` backwards (a capture point becomes nothing: the walk starts
    on the captured piece)."""
    match walk:
        case Seq(parts=parts):
            return _seq(*(reverse(n) for n in reversed(parts)))
        case Alt(parts=parts):
            return _alt(*(reverse(n) for n in parts))
        case Star(body=body):
            return Star(reverse(body))
        case Hit():
            return EPS
    return walk  # a step is reversed when written (its table runs backwards); a test stays


# -- writing the probes -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Slot:
    """A line of a probe that each of its three functions writes its own way: ``hit`` the
    test of the piece found (against the program group's table), else the note of a
    position read (``R`` only)."""

    indent: int
    hit: bool


#: A probe's code: lines, and the slots its functions fill.
Code: TypeAlias = tuple["str | _Slot", ...]


class _Probe:
    """Writes one reversed walk as Python lines (see :func:`write_attacks`)."""

    def __init__(self, cond: Callable[[tree.Cond], str], back: dict[int, str], cap: int) -> None:
        self.cond = cond
        self.back = back  # direction -> the position before c along it
        self.cap = cap
        self.lines: list[str | _Slot] = []
        self.counter = 0

    def emit(self, indent: int, text: str | None = None, hit: bool = False) -> None:
        """A line (or, without ``text``, a slot) at ``indent``."""
        if len(self.lines) > MAX_PROBE_LINES:  # choices copy what follows them
            raise Irreversible("too intricate to walk backwards")
        if indent > MAX_PROBE_INDENT:  # a line at indent i stands in i - 1 loops
            raise Irreversible("nested too deep to walk backwards")
        self.lines.append("    " * indent + text if text is not None else _Slot(indent, hit))

    def seq(self, walks: list[Walk], indent: int, fail: str) -> None:
        for i, walk in enumerate(walks):
            rest = walks[i + 1 :]
            match walk:
                case Go(d=d):
                    self.emit(indent, f"c = {self.back[d]}")
                    self.emit(indent, "if c < 0:")
                    self.emit(indent + 1, fail)
                    self.emit(indent)  # the position read
                case Ask(cond=cond, neg=neg):
                    text = self.cond(cond)
                    self.emit(indent, f"if {text}:" if neg else f"if not ({text}):")
                    self.emit(indent + 1, fail)
                case Seq(parts=parts):
                    self.seq([*parts, *rest], indent, fail)
                    return
                case Alt(parts=parts):
                    self.counter += 1
                    k = self.counter
                    self.emit(indent, f"_c{k} = c")
                    for branch in parts:
                        self.emit(indent, "for _ in ONE:")
                        self.emit(indent + 1, f"c = _c{k}")
                        self.seq([branch, *rest], indent + 1, "continue")
                    self.emit(indent, fail)
                    return
                case Star(body=body):
                    self.counter += 1
                    k = self.counter
                    self.emit(indent, f"_n{k} = 0")
                    self.emit(indent, "while True:")
                    self.emit(indent + 1, f"_c{k} = c")
                    self.emit(indent + 1, "for _ in ONE:")  # leave the loop here
                    self.seq(rest, indent + 2, "continue")
                    self.emit(indent + 1, f"c = _c{k}")
                    self.seq(
                        list(body.parts) if isinstance(body, Seq) else [body], indent + 1, "break"
                    )
                    self.emit(indent + 1, f"_n{k} += 1")
                    self.emit(indent + 1, f"if _n{k} > {self.cap}:")
                    self.emit(indent + 2, "break")
                    self.emit(indent, fail)
                    return
                case _Final():
                    self.emit(indent, hit=True)  # if the group's table holds b[c]:
                    self.emit(indent + 1, "return True")
                    self.emit(indent, fail)
                    return


def _deterministic(walk: Walk, acyclic: set[int], back: dict[int, str]) -> bool:
    """Whether a reversed loop body is a fixed walk: steps one way, along which no walk
    comes back, each with one square before it, and tests."""
    parts = list(walk.parts) if isinstance(walk, Seq) else [walk]
    steps = {n.d for n in parts if isinstance(n, Go)}
    if any(not isinstance(n, Go | Ask) for n in parts):
        return False
    return len(steps) == 1 and steps <= acyclic and all(d in back for d in steps)


def _uses(walk: Walk) -> list[Walk]:
    out = [walk]
    if isinstance(walk, Seq | Alt):
        for n in walk.parts:
            out.extend(_uses(n))
    elif isinstance(walk, Star):
        out.extend(_uses(walk.body))
    return out


def write_attacks(
    design: Design,
    lines: list[str],
    ns: dict[str, Any],
    cond_for: Callable[[int], Callable[[tree.Cond], str]],
    acyclic: set[int],
    loop_cap: int,
    owner: Sequence[int],
    kind_of: Sequence[int],
    cond_any: Callable[[tree.Cond], str] | None = None,
) -> tuple[list[str], list[int], list[bool], list[list[int]]]:
    """Append to ``lines`` the probes of each attacker (``P{a}``, ``R{a}``, ``B{g}_{a}``) and
    set their tables in ``ns``. ``cond_for(attacker)`` compiles a condition as that player's
    (with ``attacked`` and ``check`` false). Returns each program's mode (by program id,
    the worst over the players), the number of probe programs per attacker, whether each
    attacker's probes read only the squares they walk, and each attacker's fallback
    program ids.

    With ``cond_any`` (a condition writer for the player ``p``, its directions the locals
    ``_d<d>``), the probes are written once for every attacker, who is their last argument
    (``P`` and ``R`` only, by :func:`~game.logic.rules.compiled.probes.shared_probes`; tables
    ``RB[d, c]`` and ``AH<g>[p, code]``); raises Irreversible where a program's probe is not
    the same walk for every attacker (then write them per attacker)."""
    board = design.board
    players = len(design.players)
    shared = {t for t, p in enumerate(design.pieces) if p.shared}
    one = cond_any is not None
    if one and players != 2:
        raise Irreversible("one probe for more than two players")
    back: dict[int, str] = {}
    befores = []
    words = range(len(board.directions))
    for d, row in enumerate(board.links):
        before = [-1] * len(row)
        unique = True
        for p, q in enumerate(row):
            if q >= 0:
                if before[q] >= 0:
                    unique = False
                before[q] = p
        befores.append(tuple(before))
        if unique:
            back[d] = f"RV{d}[c]"
            if not one:
                ns[f"RV{d}"] = tuple(before)
    if one:  # a step names the direction word; the probe reads its direction from SYM
        sym = board.symmetry
        back = {d: f"RB[_d{d}, c]" for d in words if all(s[d] in back for s in sym)}
        acyclic = {d for d in words if all(s[d] in acyclic for s in sym)}
        ns["RB"] = tuple(befores)
    rank = {"none": 0, "probe": 1, "fallback": 2}
    royal = targets(design)

    def write(walk: Walk, player: int | None) -> tuple[Code, bool]:
        cond = cond_for(player) if player is not None else cond_any
        assert cond is not None
        return _reversed_code(walk, cond, back, acyclic, loop_cap)

    modes: list[str] = []
    counts: list[int] = []
    readable: list[bool] = []
    fallback: list[list[int]] = []
    for a in [None] if one else range(players):
        groups: dict[Code, set[int]] = {}
        order: list[Code] = []
        far: dict[Code, bool] = {}
        slow: list[int] = []
        pid = 0
        for t, piece in enumerate(design.pieces):
            partial = any(_mentions_partial(p.tree) for p in piece.programs)
            for program in piece.programs:
                mode = "none"
                whose = range(players) if a is None else (a,)
                safe = {royal_safe(design, program, p, royal) for p in whose}
                if len(safe) > 1:
                    raise Irreversible("a capture of a royal piece only some players make")
                if not safe.pop():
                    written = None if partial else _reversed(design, program, a, write, royal)
                    if written is None:
                        if a is None:
                            raise Irreversible("a program run forward")
                        mode = "fallback"
                        slow.append(pid)
                    elif written[0]:
                        mode = "probe"
                        code = written[0]
                        if code not in groups:
                            groups[code] = set()
                            order.append(code)
                            far[code] = written[1]
                        groups[code].add(t)
                if pid == len(modes):
                    modes.append(mode)
                elif rank[mode] > rank[modes[pid]]:
                    modes[pid] = mode
                pid += 1
        hits = []
        for g, code in enumerate(order):

            def holds(v: int, p: int, found: set[int] = groups[code]) -> bool:
                return bool(v) and kind_of[v] in found and (owner[v] == p or kind_of[v] in shared)

            if a is None:
                ns[f"AH{g}"] = tuple(
                    tuple(holds(v, p) for v in range(len(owner))) for p in range(players)
                )
            else:
                ns[f"AH{a}_{g}"] = tuple(holds(v, a) for v in range(len(owner)))
                hits.append(f"AH{a}_{g}[b[c]]")
        every = (1 << len(order)) - 1
        if a is None:  # P and R (the compiled back end's: it asks no program alone)
            shared_probes(order, every, len(words), lines, ns)
        for name in ("P", "R", *(f"B{g}_" for g in range(len(order)))) if a is not None else ():
            lines.append(f"def {name}{a}(b, f, lf, lt{', m' if name == 'R' else ''}):")
            if name == "R":
                lines.append(f"    m[f] = {every}")
            for g, code in enumerate(order):
                if name.startswith("B") and name != f"B{g}_":
                    continue
                for line in code:
                    if isinstance(line, str):
                        lines.append(line)
                    elif line.hit:
                        lines.append("    " * line.indent + f"if {hits[g]}:")
                    elif name == "R":
                        lines.append("    " * line.indent + f"m[c] |= {1 << g}")
            lines.append("    return False")
        for _ in range(1 if a is not None else players):
            counts.append(len(order))
            readable.append(not any(far.values()) and not slow)
            fallback.append(slow)
    return modes, counts, readable, fallback


def _reversed_code(
    walk: Walk,
    cond: Callable[[tree.Cond], str],
    back: dict[int, str],
    acyclic: set[int],
    cap: int,
) -> tuple[Code, bool]:
    """The code of one reversed walk, starting on ``f`` (the square attacked), and whether
    it reads more than the squares it stands on."""
    for node in _uses(walk):
        if isinstance(node, Go) and node.d not in back:
            raise Irreversible("a step that more than one square leads to")
        if isinstance(node, Star) and not _deterministic(node.body, acyclic, back):
            raise Irreversible("a loop that does not step one way")
    far = any(_reads_far(node.cond) for node in _uses(walk) if isinstance(node, Ask))
    writer = _Probe(cond, back, cap)
    writer.emit(1, "for _ in ONE:")
    writer.emit(2, "c = f")
    writer.seq([walk, _Final()], 2, "continue")
    return tuple(writer.lines), far


def _reversed(
    design: Design,
    program: Program,
    player: int | None,
    write: Callable[[Walk, int | None], tuple[Code, bool]],
    royal: frozenset[int],
) -> tuple[Code, bool] | None:
    """The probe code of ``program`` walked backwards (empty when no walk of it can end on
    a royal piece) and whether it reads far; None when it cannot be walked backwards."""
    try:
        walk = _at_royal(design, reverse(capture_paths(design, program, player)), royal)
        if walk == NEVER:
            return (), False
        return write(walk, player)
    except Irreversible:
        return None


def _at_royal(design: Design, walk: Walk, royal: frozenset[int]) -> Walk:
    """``walk`` without the walks whose first tests fail on a royal piece (the square a
    reversed walk starts on holds one)."""
    match walk:
        case Alt(parts=parts):
            return _alt(*(_at_royal(design, n, royal) for n in parts))
        case Ask(cond=cond, neg=neg):
            may_true, may_false = classes(design, cond, royal)
            return NEVER if not (may_false if neg else may_true) & R else walk
        case Seq(parts=parts) if parts:
            return _seq(_at_royal(design, parts[0], royal), *parts[1:])
    return walk


def _reads_far(c: tree.Cond) -> bool:
    """Whether a condition reads positions other than the cursor's, or the last move."""
    return any(
        isinstance(n, tree.Next | tree.Exists | tree.InLine | tree.OnlyLines | tree.PiecesAtMost)
        or (isinstance(n, tree.Is) and n.word in FAR_WORDS)
        for n in tree.walk(c)
    )


def _mentions_partial(body: Sequence[tree.Stmt]) -> bool:
    return any(isinstance(n, tree.AddPartial) for n in tree.walk(body))
