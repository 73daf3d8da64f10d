"""Move programs written as numba source: the same typed tree the Python back end compiles
(:mod:`game.logic.rules.tree`), turned into functions over a flat integer state.

A generator ``gen_T_P(b, f, out, n, lf, lt, mc0, cs, es)`` runs every move program of piece
type ``T`` for player ``P`` from position ``f`` on the board array ``b`` and writes each move
it makes as a row of ``out`` from row ``n`` on, returning the new count. The move so far is
held in scalars and two scratch arrays: the cursor ``c``, the moving piece ``mc``, the mark
``mk``, the captured positions ``cs[:ncap]`` and the extra changes ``es[:2 * neff]`` (position,
piece pairs). A choice keeps the counts, not copies: its branches only append, so putting
``ncap`` and ``neff`` back undoes what a branch added.

What this writer cannot express raises :class:`Unsupported`, naming the form; the caller then
keeps the game on the Python back end (decided once, when the game is compiled).
"""

from __future__ import annotations

from typing import Final

from game.logic.rules import tree
from game.logic.rules.compiled.counters import counter_cond, counter_statement, move_state
from game.logic.rules.compiled.rotate import rotate_statement, rotation_changes
from game.logic.rules.compiled.scans import anywhere, scan_cond
from game.logic.rules.compiled.turns import turning, turning_step
from game.logic.rules.design import Design
from game.logic.rules.expressions import connective, word_tests

__all__ = ["StatementWriter", "Unsupported", "adder_name", "move_width", "program_bounds"]

#: The columns of a move row before its changes: from, to, program, captures, changes.
HEAD: Final = 5


class Unsupported(Exception):
    """A form the compiled back end does not express yet (the game stays on Python)."""


def program_bounds(design: Design) -> tuple[int, int]:
    """The most captures and extra changes one move of any program can make: ``capture``
    statements on its way plus the capture of ``add``; two changes per ``cascade``, one per
    ``flip`` (as many as the board has positions where one stands in a loop or a sweep). A
    capture or cascade inside a loop has no such bound: :class:`Unsupported`."""
    caps, extra = 1, 0
    for piece in design.pieces:
        for program in piece.programs:
            k = sum(1 for n in tree.walk(program.tree) if n == tree.Act("capture"))
            e = sum(2 for n in tree.walk(program.tree) if isinstance(n, tree.Cascade))
            flips = sum(1 for n in tree.walk(program.tree) if n == tree.Act("flip"))
            looped = any(
                isinstance(loop, tree.While | tree.Repeat | tree.Sweep)
                and any(n == tree.Act("flip") for n in tree.walk(loop.body))
                for loop in tree.walk(program.tree)
            )
            e += len(design.board.names) if looped else flips
            turns = rotation_changes(design, program.tree)
            if turns < 0:
                raise Unsupported("a rotate inside a loop")
            e += turns
            for loop in tree.walk(program.tree):
                if isinstance(loop, tree.While | tree.Repeat | tree.Sweep) and any(
                    n == tree.Act("capture") or isinstance(n, tree.Cascade)
                    for n in tree.walk(loop.body)
                ):
                    raise Unsupported("a capture or cascade inside a loop")
            caps, extra = max(caps, k + 1), max(extra, e)
    return caps, extra


def move_width(design: Design) -> int:
    """The columns of a move row: :data:`HEAD`, then (position, piece) pairs: the start
    emptied, each capture, each cascade's two, the landing."""
    caps, extra = program_bounds(design)
    return HEAD + 2 * (2 + caps + extra)


def adder_name(drop: bool, captures: bool, extra: int) -> str:
    """The adder of a shape of ``add``: a drop or a move, after a ``capture`` or not, with
    how many extra changes (cascades' and flips'; -1: known only when it runs)."""
    count = "n" if extra < 0 else str(extra)
    return f"add_{'drop' if drop else 'move'}_{'c' if captures else 'p'}{count}"


class StatementWriter:
    """Writes one player's move programs as numba source lines (see the module docstring)."""

    def __init__(self, design: Design, zones: list[str], acyclic: set[int], loop_cap: int) -> None:
        self.design = design
        self.zones = zones
        self.acyclic = acyclic
        self.loop_cap = loop_cap
        self.types = [p.name for p in design.pieces]
        self.players = len(design.players)
        if self.players != 2:
            raise Unsupported(f"{self.players} players (the spike plays two)")
        self.lines: list[str] = []
        #: The directions whose walks may turn, and those the program being written steps
        #: along (turns.py).
        self.turning_words = turning(design)
        self.turned: set[int] = set()
        #: Functions the programs call, written before them (scans.py's ``exists``).
        self.helpers: list[str] = []
        self.counter = 0
        #: The player a probe's conditions are written for (:attr:`quiet`), None: the
        #: probe's argument ``p`` (one probe for every player).
        self.player: int | None = 0
        self.quiet = False
        #: The directions the program being written steps along (read from SYM at its start).
        self.used: set[int] = set()
        self.drop = False  # the program being written is a drop
        #: On the path being written: whether a ``capture`` came before, and how many extra
        #: changes (two per cascade, one per flip; -1 once a flip in a loop or sweep makes
        #: it known only when it runs). Each ``add`` calls the adder of its shape
        #: (:func:`~game.logic.rules.compiled.module.adder_source`): the shapes used, as
        #: (drop, captures, extra).
        self.captures = False
        self.extra = 0
        self.adders: set[tuple[bool, bool, int]] = set()
        #: The variable holding the direction of the sweep being written ("" outside one),
        #: and whether a loop or sweep is open around the statement being written.
        self.sweeping = ""
        self.looping = False
        #: Whether a program counts the pieces on a line (the module then writes LINES).
        self.line_counts = False
        #: In a design with partial moves: each move type's number, and every ``add`` and
        #: ``add-partial`` writes a raw row that :mod:`~game.logic.rules.compiled.partial`
        #: grows and finishes (None: ``add`` calls the adder of its shape).
        self.raw_kinds: dict[str, int] | None = None

    # -- conditions ------------------------------------------------------------------------

    def cond(self, cond: tree.Cond) -> str:
        """``cond`` as a numba expression at the cursor ``c`` for :attr:`player`."""
        p, q = (
            ("p", "q") if not self.quiet or self.player is None else (self.player, 1 - self.player)
        )
        joined = connective(cond, self.cond)
        if joined is not None:
            return joined
        counted = counter_cond(cond, self.design.counters and not self.quiet)
        if counted is not None:  # counters and what they leave empty (counters.py)
            return counted
        match cond:
            case tree.Is(word=word):
                words = {
                    **word_tests(p, q, self.quiet),
                    "empty": "b[c] == 0",
                    "enemy": f"OWN[b[c]] == {q}",
                    "captured": "incap(cs, ncap, c)",
                    "flipped": "neff != 0",
                }
                if word not in words:
                    raise Unsupported(f"the condition {word}")
                return words[word]
            case tree.Pieces(who=who, types=names):
                where = "mc" if who == "moving" else "b[c]"
                kinds = " or ".join(f"TYP[{where}] == {self.types.index(n)}" for n in names)
                owner = {"friend": p, "enemy": q}.get(who)
                return f"({kinds})" if owner is None else f"OWN[b[c]] == {owner} and ({kinds})"
            case tree.InZone(zone=zone):
                return f"ZONE[{self.zones.index(zone)}, {p}, c]"
            case tree.OnBoard(direction=word):
                return f"L[{self.step(word)}, c] >= 0"
            case tree.Attr(name=name):
                if name not in self.design.attributes:
                    return "False"
                return f"(ATT[b[c]] & {1 << self.design.attributes.index(name)}) != 0"
        scanned = scan_cond(self, cond, p, q)  # lines, counts, exists, next (scans.py)
        if scanned is not None:
            return scanned
        raise Unsupported(f"the condition {tree.shown(cond)}")

    def count(self, count: tree.Count) -> str:
        """A count's expression: a number, or the pieces on the line through the cursor
        (``line_pieces``: the table LINES, written by the module for every direction)."""
        match count:
            case tree.Number(n=n):
                return str(n)
            case tree.Minus(count=inner, less=less):
                return f"({self.count(inner)} - {less})"
            case tree.LinePieces(direction=word):
                self.line_counts = True
                return f"line_pieces(b, c, {self.step(word)})"
        raise Unsupported(f"the count {tree.shown(count)}")

    def step(self, word: str) -> str:
        """The link table row of direction ``word``: the player's own direction, a constant
        in a probe written per player, a local of the program function or of a probe (written
        once for both players, which reads its directions from ``SYM`` when it starts)."""
        board = self.design.board
        d = board.directions.index(word)
        if self.quiet and self.player is not None:
            return str(board.symmetry[self.player][d])
        if not self.quiet:
            self.used.add(d)
        return f"_d{d}"

    # -- functions -----------------------------------------------------------------------

    def function(self, name: str, body: tuple[tree.Stmt, ...], drop: bool = False) -> None:
        """``def name(b, f, p, pid, out, n, lf, lt, mc0, cs, es, ncap0)``: one move program
        for player ``p`` (a runtime argument: one function serves every player), its moves
        numbered ``pid``; a ``drop`` program starts at ``f`` with a piece from the hand; a
        move continued from a partial one starts with the captures ``cs[:ncap0]``."""
        self.quiet = False
        self.drop = drop
        self.captures, self.extra, self.sweeping = False, 0, ""
        self.used = set()
        self.turned = set()
        self.emit(0, f"def {name}(b, f, p, pid, out, n, lf, lt, mc0, cs, es, ncap0):")
        head = len(self.lines)
        self.emit(1, "q = 1 - p")
        self.emit(1, "for _ in ONE:")
        self.emit(2, "c = f; mc = mc0; mk = f; ncap = ncap0; neff = 0" + move_state(self.design))
        self.seq(list(body), 2, ["continue"])
        self.emit(1, "return n")
        self.emit(0, "")
        self.lines[head:head] = [f"    _d{d} = SYM[p, {d}]" for d in sorted(self.used)] + [
            f"    _v{d} = _d{d}" for d in sorted(self.turned)
        ]

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def fresh(self) -> int:
        self.counter += 1
        return self.counter

    def fail(self, indent: int, fail: list[str]) -> None:
        for line in fail:
            self.emit(indent, line)

    def seq(self, items: list[tree.Stmt], indent: int, fail: list[str]) -> None:
        """``items`` (the rest of a program); a choice takes the rest with each branch."""
        for i, node in enumerate(items):
            rest = items[i + 1 :]
            if counter_statement(self, node, indent, fail):  # sowing (counters.py)
                continue
            match node:
                case tree.Advance(direction=d) if self.turning_words and (
                    self.design.board.directions.index(d) in self.turning_words
                ):
                    self.step(d)  # (the direction the walk starts along)
                    index = self.design.board.directions.index(d)
                    turning_step(self, index, indent, fail)  # (turns.py)
                case tree.Advance(direction=d):
                    self.emit(indent, f"c = L[{self.step(d)}, c]")
                    self.emit(indent, "if c < 0:")
                    self.fail(indent + 1, fail)
                case tree.AddPartial(kind=kind) if self.raw_kinds is not None:
                    self.emit(indent, self.raw_add(self.raw_kinds[kind]))
                case tree.Act(word="add") if self.raw_kinds is not None:
                    self.emit(indent, self.raw_add(-1))
                case tree.Act(word="add"):
                    shape = (self.drop, self.captures, self.extra)
                    self.adders.add(shape)
                    self.emit(
                        indent,
                        f"n = {adder_name(*shape)}(b, out, n, f, c, mc, pid, cs, ncap, es, neff)",
                    )
                case tree.Act(word="capture"):
                    self.captures = True
                    self.emit(indent, "if b[c] != 0 and not incap(cs, ncap, c):")
                    self.emit(indent + 1, "cs[ncap] = c; ncap += 1")
                case tree.Act(word="mark"):
                    self.emit(indent, "mk = c")
                case tree.Act(word="back"):
                    self.emit(indent, "c = mk")
                case tree.Act(word="flip"):  # the piece at the cursor changes owner
                    self.emit(indent, "if b[c] != 0:")
                    self.emit(indent + 1, "es[2 * neff] = c; es[2 * neff + 1] = FLIP[b[c]]")
                    self.emit(indent + 1, "neff += 1")
                    self.extra = -1 if self.extra < 0 or self.looping else self.extra + 1
                case tree.Act(word="dir") if self.sweeping:
                    self.emit(indent, f"c = L[{self.sweeping}, c]")
                    self.emit(indent, "if c < 0:")
                    self.fail(indent + 1, fail)
                case tree.Sweep(directions=directions, body=body) if not self.sweeping:
                    self.sweep(directions, list(body), indent)
                case tree.Verify(cond=cond):
                    self.emit(indent, f"if not ({self.cond(cond)}):")
                    self.fail(indent + 1, fail)
                case tree.If(cond=cond, then=then, otherwise=otherwise):
                    # Each branch takes the rest with it (as a choice does).
                    self.emit(indent, f"if {self.cond(cond)}:")
                    path = self.captures, self.extra
                    self.body([*then, *rest], indent + 1, fail)
                    self.captures, self.extra = path
                    self.emit(indent, "else:")
                    self.body([*otherwise, *rest], indent + 1, fail)
                    return
                case tree.Do(body=body):
                    self.seq([*body, *rest], indent, fail)
                    return
                case tree.Anywhere(body=body):
                    anywhere(self, [*body, *rest], indent)
                    return
                case tree.OneOf(alternatives=alternatives):
                    k = self.fresh()
                    kept = f"_c{k}, _m{k}, _k{k}, _n{k}, _e{k}"
                    self.emit(indent, f"{kept} = c, mc, mk, ncap, neff")
                    path = self.captures, self.extra
                    for alt in alternatives:
                        self.captures, self.extra = path
                        self.emit(indent, "for _ in ONE:")
                        self.emit(indent + 1, f"c, mc, mk, ncap, neff = {kept}")
                        self.seq([alt, *rest], indent + 1, ["continue"])
                    return
                case tree.While(cond=cond, body=body):
                    self.loop(cond, list(body), indent, fail)
                case tree.Repeat(times=times, body=body):
                    k = self.fresh()
                    self.emit(indent, f"_w{k} = False; _r{k} = {self.count(times)}")
                    self.emit(indent, f"if _r{k} < 0:")
                    self.fail(indent + 1, fail)
                    self.emit(indent, f"for _ in range(_r{k}):")
                    looping, self.looping = self.looping, True
                    self.seq(list(body), indent + 1, [f"_w{k} = True", "break"])
                    self.looping = looping
                    self.emit(indent, f"if _w{k}:")
                    self.fail(indent + 1, fail)
                case tree.ChangeType(type=name):
                    self.emit(indent, f"mc = {1 + 2 * self.types.index(name)} + p")
                case tree.SetAttr(attr=attr, on=on):
                    a = self.design.attributes.index(attr)
                    self.emit(indent, f"mc = {'SET' if on else 'CLR'}[{a}, mc]")
                case tree.Rotate():
                    rotate_statement(self, node, indent)
                case tree.Cascade(source=source, target=target):
                    # The piece at the walk ``source`` from the start goes to ``target``.
                    self.walk_from_start("_a", source, indent, fail)
                    self.walk_from_start("_t", target, indent, fail)
                    self.emit(indent, "if b[_a] == 0:")
                    self.fail(indent + 1, fail)
                    self.emit(indent, "es[2 * neff] = _a; es[2 * neff + 1] = 0")
                    self.emit(indent, "es[2 * neff + 2] = _t; es[2 * neff + 3] = b[_a]")
                    self.emit(indent, "neff += 2")
                    self.extra = -1 if self.extra < 0 else self.extra + 2
                case _:
                    raise Unsupported(f"the statement {tree.shown(node)}")

    def raw_add(self, kind: int) -> str:
        """The call writing the move so far as a raw row (see :attr:`raw_kinds`), to be
        continued by a move of type number ``kind`` (-1: it ends here)."""
        adder = "raw_drop" if self.drop else "raw_move"
        return f"n = {adder}(b, out, n, f, c, mc, pid, cs, ncap, {kind})"

    def walk_from_start(
        self, name: str, steps: tuple[str, ...], indent: int, fail: list[str]
    ) -> None:
        """``name`` = the position ``steps`` lead to from the start (failing off the board)."""
        self.emit(indent, f"{name} = f")
        for d in steps:
            self.emit(indent, f"{name} = L[{self.step(d)}, {name}]")
            self.emit(indent, f"if {name} < 0:")
            self.fail(indent + 1, fail)

    def body(self, items: list[tree.Stmt], indent: int, fail: list[str]) -> None:
        if items:
            self.seq(items, indent, fail)
        else:
            self.emit(indent, "pass")

    def loop(self, cond: tree.Cond, body: list[tree.Stmt], indent: int, fail: list[str]) -> None:
        """``(while ...)``: a loop that steps one way along which no walk comes back needs no
        guard; another one counts its passes (a loop past the board's size fails)."""
        k = self.fresh()
        straight = self._straight(body)
        if not straight and any(
            n == tree.Act("add") or isinstance(n, tree.AddPartial) for n in tree.walk(body)
        ):
            raise Unsupported("a loop that adds moves and may come round")
        self.emit(indent, f"_w{k} = False" + ("" if straight else f"; _n{k} = 0"))
        self.emit(indent, f"while {self.cond(cond)}:")
        if not straight:
            self.emit(indent + 1, f"_n{k} += 1")
            self.emit(indent + 1, f"if _n{k} > {self.loop_cap}:")
            self.emit(indent + 2, f"_w{k} = True; break")
        looping, self.looping = self.looping, True
        self.seq(body, indent + 1, [f"_w{k} = True", "break"])
        self.looping = looping
        self.emit(indent, f"if _w{k}:")
        self.fail(indent + 1, fail)

    def sweep(self, directions: tuple[str, ...], body: list[tree.Stmt], indent: int) -> None:
        """``(sweep (DIR...) ...)``: the body from the cursor once per direction (``dir``
        steps along it); a direction whose body fails drops the changes it made."""
        k = self.fresh()
        steps = ", ".join(self.step(d) for d in directions)
        self.emit(indent, f"_s{k} = c")
        self.emit(indent, f"for _T{k} in ({steps},):")
        self.emit(indent + 1, f"c = _s{k}; _se{k} = neff")
        self.sweeping = f"_T{k}"
        looping, self.looping = self.looping, True
        self.seq(body, indent + 1, [f"neff = _se{k}", "continue"])
        self.looping, self.sweeping = looping, ""
        self.emit(indent, f"c = _s{k}")

    def _straight(self, body: list[tree.Stmt]) -> bool:
        """Whether each pass steps once along one direction no walk comes back on, the rest
        of the body never moving the cursor (tests, moves added, a promotion, an ``if`` of
        those): no pass can start where another did, so the loop needs no guard."""
        board = self.design.board
        for player in range(self.players):  # straight for every player
            steps = set()
            for node in body:
                if isinstance(node, tree.Advance):
                    steps.add(board.symmetry[player][board.directions.index(node.direction)])
                elif not all(_stays(n) for n in tree.walk(node)):
                    return False
            if len(steps) != 1 or not steps <= self.acyclic:
                return False
        return True


def _stays(node: tree.ProgramNode) -> bool:
    """Whether ``node`` leaves the cursor where it is and holds no loop or choice."""
    kept = tree.Cond | tree.If | tree.Do | tree.Verify | tree.ChangeType | tree.SetAttr
    return isinstance(node, kept | tree.AddPartial) or node == tree.Act("add")
