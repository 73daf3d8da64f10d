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
each position read a bit per program, used by :meth:`~game.logic.rules.engine.Engine.legal`
to probe again only what a move changed) and ``B<g>`` (program ``g`` alone). ``R`` exists
only when every probe reads nothing but the squares it walks and the attacker has no
fallback program.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from game.logic.rules.design import Design, Program
from game.logic.rules.royal_capture import R, classes, royal_safe, targets
from game.logic.rules.sexpr import Atom, Form, Item

__all__ = ["Attacks", "Node", "capture_paths", "royal_safe", "write_attacks"]

# The regular expressions over squares. A node is a tuple:
# ("step", d)        the cursor moves along direction d (a board direction index)
# ("test", C, neg)   condition C (an Item) holds on the cursor's square (neg: fails)
# ("seq", (n...)), ("alt", (n...)), ("star", n)
# ("hit",)           a capture point: the move takes what stands on the cursor's square
Node: TypeAlias = tuple[Any, ...]
EPS: Final[Node] = ("seq", ())
NEVER: Final[Node] = ("alt", ())
HIT: Final[Node] = ("hit",)

#: The most lines one program's backward walk may take (beyond: it is run forward instead).
MAX_PROBE_LINES: Final = 4_000
#: The deepest line of a backward walk (each choice or loop indents one level, a loop two):
#: Python compiles at most 20 loops inside one another; deeper, the program is run forward.
MAX_PROBE_INDENT: Final = 18

#: Conditions that read more than the square and the board (the move so far, its start,
#: the moving piece): a program using one is not walked backwards.
PATH_WORDS: Final = frozenset({"captured", "flipped", "flag", "at-origin", "check"})
PATH_FORMS: Final = frozenset({"moving", "makes-line", "counters", "counters-at-least"})
#: Conditions that read squares other than the cursor's, or the last move: a probe using one
#: cannot say which positions its answer depends on.
FAR_WORDS: Final = frozenset({"last-to", "last-from"})
FAR_FORMS: Final = frozenset({"next", "exists", "in-line", "only-lines", "pieces-at-most"})
#: Statements that change nothing a capture depends on.
INERT: Final = frozenset(
    {"promote", "change-type", "set-attr", "clear-attr", "goto", "again", "set-flag", "flip"}
)


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


def capture_paths(design: Design, program: Program, player: int) -> Node:
    """The regular expression of ``program``'s walks from its piece to a capture point
    (each path ends in ``("hit",)``); raises Irreversible when it is not one."""
    if program.drop:
        raise Irreversible("a drop starts anywhere")
    board = design.board
    turning = {d for d, _ in board.turns}

    def check_cond(c: Item) -> None:
        if isinstance(c, Atom):
            if str(c.value) in PATH_WORDS:
                raise Irreversible(str(c.value))
            return
        if c.head in PATH_FORMS:
            raise Irreversible(c.head)
        if c.head in ("not", "and", "or", "exists"):
            for a in c.args:
                check_cond(a)
        elif c.head == "next":
            check_cond(c[2])

    def step(word: str) -> Node:
        d = board.symmetry[player][board.directions.index(word)]
        if d in turning:
            raise Irreversible("a walk that turns")
        return ("step", d)

    def test(c: Item, neg: bool = False) -> Node:
        check_cond(c)
        return ("test", c, neg)

    def paths(items: Sequence[Item]) -> tuple[Node, Node]:
        """(every walk through ``items``, every walk to a capture point in them)."""
        if not items:
            return EPS, NEVER
        w1, p1 = one(items[0])
        w2, p2 = paths(items[1:])
        return _seq(w1, w2), _alt(p1, _seq(w1, p2))

    def one(item: Item) -> tuple[Node, Node]:
        if isinstance(item, Atom):
            word = str(item.value)
            if word in board.directions:
                return step(word), NEVER
            if word == "add":
                return EPS, HIT
            if word in INERT:
                return EPS, NEVER
            raise Irreversible(word)
        head = item.head
        if len(item) == 1 and head in ("add", *INERT):
            return one(Atom(head, item.line, item.column, item.source))
        if head in board.directions:
            return _seq(*(step(str(d.value)) for d in item.items)), NEVER  # type: ignore[union-attr]
        if head == "verify":
            return test(item[1]), NEVER
        if head == "if":
            body = list(item.items[2:])
            other: list[Item] = []
            if body and isinstance(body[-1], Form) and body[-1].head == "else":
                other, body = list(body[-1].args), body[:-1]
            wa, pa = paths(body)
            wb, pb = paths(other)
            yes, no = test(item[1]), test(item[1], True)
            return _alt(_seq(yes, wa), _seq(no, wb)), _alt(_seq(yes, pa), _seq(no, pb))
        if head == "one-of":
            both = [one(a) for a in item.args]
            return _alt(*(w for w, _ in both)), _alt(*(p for _, p in both))
        if head == "do":
            return paths(item.args)
        if head == "while":
            wb, pb = paths(item.items[2:])
            loop = ("star", _seq(test(item[1]), wb))
            return _seq(loop, test(item[1], True)), _seq(loop, test(item[1]), pb)
        if head in INERT:
            return EPS, NEVER
        raise Irreversible(head)

    _, found = paths(program.body)
    return found


def _seq(*nodes: Node) -> Node:
    out: list[Node] = []
    for n in nodes:
        if n == NEVER:
            return NEVER
        out.extend(n[1] if n[0] == "seq" else (n,))
    return out[0] if len(out) == 1 else ("seq", tuple(out))


def _alt(*nodes: Node) -> Node:
    out: list[Node] = []
    for n in nodes:
        for m in n[1] if n[0] == "alt" else (n,):
            if m not in out:
                out.append(m)
    for m in list(out):  # (test C) or (test not C): no test at all
        if m[0] == "test" and ("test", m[1], not m[2]) in out and len(out) == 2:
            return EPS
    return out[0] if len(out) == 1 else ("alt", tuple(out))


def reverse(node: Node) -> Node:
    """The walks of ``node`` backwards (a capture point becomes nothing: the walk starts
    on the captured piece)."""
    kind = node[0]
    if kind == "seq":
        return _seq(*(reverse(n) for n in reversed(node[1])))
    if kind == "alt":
        return _alt(*(reverse(n) for n in node[1]))
    if kind == "star":
        return ("star", reverse(node[1]))
    if kind == "hit":
        return EPS
    return node  # a step is reversed when written (its table runs backwards); a test stays


# -- writing the probes -------------------------------------------------------------------


class _Probe:
    """Writes one reversed program as Python lines (see :func:`write_attacks`)."""

    def __init__(self, cond: Callable[[Item], str], back: dict[int, str], cap: int) -> None:
        self.cond = cond
        self.back = back  # direction -> the name of its backwards table
        self.cap = cap
        self.lines: list[str] = []
        self.counter = 0
        self.far = False  # a condition reads more than the cursor's square

    def emit(self, indent: int, text: str) -> None:
        if len(self.lines) > MAX_PROBE_LINES:  # choices copy what follows them
            raise Irreversible("too intricate to walk backwards")
        if indent > MAX_PROBE_INDENT:  # a line at indent i stands in i - 1 loops
            raise Irreversible("nested too deep to walk backwards")
        self.lines.append("    " * indent + text)

    def seq(self, items: list[Node], indent: int, fail: str) -> None:
        for i, node in enumerate(items):
            rest = items[i + 1 :]
            kind = node[0]
            if kind == "step":
                self.emit(indent, f"c = {self.back[node[1]]}[c]")
                self.emit(indent, "if c < 0:")
                self.emit(indent + 1, fail)
                self.emit(indent, "READ")
            elif kind == "test":
                text = self.cond(node[1])
                self.emit(indent, f"if {text}:" if node[2] else f"if not ({text}):")
                self.emit(indent + 1, fail)
            elif kind == "seq":
                self.seq(list(node[1]) + rest, indent, fail)
                return
            elif kind == "alt":
                self.counter += 1
                k = self.counter
                self.emit(indent, f"_c{k} = c")
                for branch in node[1]:
                    self.emit(indent, "for _ in ONE:")
                    self.emit(indent + 1, f"c = _c{k}")
                    self.seq([branch, *rest], indent + 1, "continue")
                self.emit(indent, fail)
                return
            elif kind == "star":
                self.counter += 1
                k = self.counter
                self.emit(indent, f"_n{k} = 0")
                self.emit(indent, "while True:")
                self.emit(indent + 1, f"_c{k} = c")
                self.emit(indent + 1, "for _ in ONE:")  # leave the loop here
                self.seq(rest, indent + 2, "continue")
                self.emit(indent + 1, f"c = _c{k}")
                body = node[1]
                self.seq(list(body[1]) if body[0] == "seq" else [body], indent + 1, "break")
                self.emit(indent + 1, f"_n{k} += 1")
                self.emit(indent + 1, f"if _n{k} > {self.cap}:")
                self.emit(indent + 2, "break")
                self.emit(indent, fail)
                return
            elif kind == "final":
                self.emit(indent, "if HIT[b[c]]:")
                self.emit(indent + 1, "return True")
                self.emit(indent, fail)
                return


def _deterministic(node: Node, acyclic: set[int], back: dict[int, str]) -> bool:
    """Whether a reversed loop body is a fixed walk: steps one way, along which no walk
    comes back, each with one square before it, and tests."""
    items = list(node[1]) if node[0] == "seq" else [node]
    steps = {n[1] for n in items if n[0] == "step"}
    if any(n[0] not in ("step", "test") for n in items):
        return False
    return len(steps) == 1 and steps <= acyclic and all(d in back for d in steps)


def _uses(node: Node) -> list[Node]:
    out = [node]
    if node[0] in ("seq", "alt"):
        for n in node[1]:
            out.extend(_uses(n))
    elif node[0] == "star":
        out.extend(_uses(node[1]))
    return out


def write_attacks(
    design: Design,
    lines: list[str],
    ns: dict[str, Any],
    cond_for: Callable[[int], Callable[[Item], str]],
    acyclic: set[int],
    loop_cap: int,
    owner: Sequence[int],
    kind_of: Sequence[int],
) -> tuple[list[str], list[int], list[bool], list[list[int]]]:
    """Append to ``lines`` the probes of each attacker (``P{a}``, ``R{a}``, ``B{g}_{a}``) and
    set their tables in ``ns``. ``cond_for(attacker)`` compiles a condition as that player's
    (with ``attacked`` and ``check`` false). Returns each program's mode (by program id,
    the worst over the players), the number of probe programs per attacker, whether each
    attacker's probes read only the squares they walk, and each attacker's fallback
    program ids."""
    board = design.board
    players = len(design.players)
    shared = {t for t, p in enumerate(design.pieces) if p.shared}
    back: dict[int, str] = {}
    for d, row in enumerate(board.links):
        before = [-1] * len(row)
        unique = True
        for p, q in enumerate(row):
            if q >= 0:
                if before[q] >= 0:
                    unique = False
                before[q] = p
        if unique:
            back[d] = f"RV{d}"
            ns[f"RV{d}"] = tuple(before)
    rank = {"none": 0, "probe": 1, "fallback": 2}

    def write(walk: Node, player: int) -> tuple[str, bool]:
        return _reversed_text(walk, cond_for(player), back, acyclic, loop_cap)

    modes: list[str] = []
    counts: list[int] = []
    readable: list[bool] = []
    fallback: list[list[int]] = []
    for a in range(players):
        groups: dict[str, set[int]] = {}
        order: list[str] = []
        far: dict[str, bool] = {}
        slow: list[int] = []
        pid = 0
        for t, piece in enumerate(design.pieces):
            partial = any(_mentions_partial(p.body) for p in piece.programs)
            for program in piece.programs:
                mode = "none"
                if not royal_safe(design, program, a):
                    written = None if partial else _reversed(design, program, a, write)
                    if written is None:
                        mode = "fallback"
                        slow.append(pid)
                    elif written[0]:
                        mode = "probe"
                        text = written[0]
                        if text not in groups:
                            groups[text] = set()
                            order.append(text)
                            far[text] = written[1]
                        groups[text].add(t)
                if pid == len(modes):
                    modes.append(mode)
                elif rank[mode] > rank[modes[pid]]:
                    modes[pid] = mode
                pid += 1
        tables = []
        for g, text in enumerate(order):
            table = f"AH{a}_{g}"
            tables.append(table)
            ns[table] = tuple(
                bool(v) and kind_of[v] in groups[text] and (owner[v] == a or kind_of[v] in shared)
                for v in range(len(owner))
            )
        every = (1 << len(order)) - 1
        for name in ("P", "R", *(f"B{g}_" for g in range(len(order)))):
            lines.append(f"def {name}{a}(b, f, lf, lt{', m' if name == 'R' else ''}):")
            if name == "R":
                lines.append(f"    m[f] = {every}")
            for g, text in enumerate(order):
                if name.startswith("B") and name != f"B{g}_":
                    continue
                read = f"m[c] |= {1 << g}" if name == "R" else ""
                for line in text.replace("HIT[", f"{tables[g]}[").split("\n"):
                    if line.strip() == "READ":
                        if read:
                            lines.append(line.replace("READ", read))
                        continue
                    lines.append(line)
            lines.append("    return False")
        counts.append(len(order))
        readable.append(not any(far.values()) and not slow)
        fallback.append(slow)
    return modes, counts, readable, fallback


def _reversed_text(
    walk: Node,
    cond: Callable[[Item], str],
    back: dict[int, str],
    acyclic: set[int],
    cap: int,
) -> tuple[str, bool]:
    """The Python lines of one reversed walk, starting on ``f`` (the square attacked), and
    whether it reads more than the squares it stands on."""
    for node in _uses(walk):
        if node[0] == "step" and node[1] not in back:
            raise Irreversible("a step that more than one square leads to")
        if node[0] == "star" and not _deterministic(node[1], acyclic, back):
            raise Irreversible("a loop that does not step one way")
    far = False
    for node in _uses(walk):
        if node[0] == "test":
            far |= _reads_far(node[1])
    writer = _Probe(cond, back, cap)
    writer.emit(1, "for _ in ONE:")
    writer.emit(2, "c = f")
    writer.seq([walk, ("final",)], 2, "continue")
    return "\n".join(writer.lines), far


def _reversed(
    design: Design,
    program: Program,
    player: int,
    write: Callable[[Node, int], tuple[str, bool]],
) -> tuple[str, bool] | None:
    """The probe text of ``program`` walked backwards ("" when no walk of it can end on a
    royal piece) and whether it reads far; None when it cannot be walked backwards."""
    try:
        walk = _at_royal(design, reverse(capture_paths(design, program, player)))
        if walk == NEVER:
            return "", False
        return write(walk, player)
    except Irreversible:
        return None


def _at_royal(design: Design, node: Node) -> Node:
    """``node`` without the walks whose first tests fail on a royal piece (the square a
    reversed walk starts on holds one)."""
    kind = node[0]
    if kind == "alt":
        return _alt(*(_at_royal(design, n) for n in node[1]))
    if kind == "test":
        may_true, may_false = classes(design, node[1], targets(design))
        return NEVER if not (may_false if node[2] else may_true) & R else node
    if kind == "seq" and node[1]:
        first = _at_royal(design, node[1][0])
        return _seq(first, *node[1][1:])
    return node


def _reads_far(c: Item) -> bool:
    if isinstance(c, Atom):
        return str(c.value) in FAR_WORDS
    if c.head in FAR_FORMS:
        return True
    return any(_reads_far(a) for a in c.args if isinstance(a, Form | Atom) and c.head != "in-zone")


def _mentions_partial(items: Sequence[Item]) -> bool:
    return any(
        isinstance(item, Form) and (item.head == "add-partial" or _mentions_partial(item.items))
        for item in items
    )
