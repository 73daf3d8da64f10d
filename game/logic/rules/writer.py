"""The writer of a design's generator functions: each move program's typed tree
(:mod:`game.logic.rules.tree`) turned into Python text (direction steps as link-table
lookups, conditions as table lookups, choices as nested blocks, ``while`` as a guarded loop),
with the tables the text names; a line once written is never edited.
:func:`~game.logic.rules.compile.compile_design` runs what it writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from game.logic.pacing import pause
from game.logic.rules import tree
from game.logic.rules.design import Design
from game.logic.rules.expressions import Expressions
from game.logic.rules.flags import flag_line
from game.logic.rules.limits import MAX_MOVES, MAX_NESTING, MAX_PASSES
from game.logic.rules.numbers import CHANGE
from game.logic.rules.piece_numbers import NumberWriter
from game.logic.rules.relays import RELAY_STATE, RELAY_WORDS, RelayWriter, relays
from game.logic.rules.rotations import RotationWriter
from game.logic.rules.sexpr import DescriptionError, Item
from game.logic.rules.teams import enemy_code

__all__ = ["AGAIN", "GOTO", "LABELS", "MAX_LINES", "PROGRAM", "ProgramWriter"]

#: The bit of a move's program number that gives the player another turn (a sowing that
#: ends in the player's store); PROGRAM masks it off, and the bits from GOTO up hold the
#: turn-order label a move sends the turn to (its index + 1).
AGAIN: Final = 1 << 20
PROGRAM: Final = AGAIN - 1
GOTO: Final = 21
#: The label bits: from GOTO up to the number of the move's tally changes.
LABELS: Final = (1 << CHANGE) - (1 << GOTO)

#: The most lines of Python a design may compile to (choices copy what follows them).
MAX_LINES: Final = 60_000
#: The deepest indentation of a generated line (Python's tokenizer stops at 100 levels).
MAX_INDENT: Final = 90


class ProgramWriter(RelayWriter, RotationWriter, NumberWriter, Expressions):
    """Writes the Python text of the generator functions (the conditions' and counts'
    expressions by :class:`~game.logic.rules.expressions.Expressions`)."""

    def __init__(self, design: Design, zones: list[str], players: int) -> None:
        self.design = design
        self.zones = zones
        self.players = players
        self.lines: list[str] = []
        self.counter = 0
        #: The forms whose bounds the generated code checks, as (line, column, head): the
        #: ``k`` of ``OVER(k, what)`` (see :class:`~game.logic.rules.limits.Overflow`).
        self.limit_forms: list[tuple[int, int, str]] = []
        #: Where each form's text begins: (index in ``lines``, the form), in order, so that
        #: an error of Python's compiler at a line can name the form it came from.
        self.origins: list[tuple[int, Item | None]] = []
        #: The form being written, for an error about its size.
        self.at: Item | None = None
        #: Loops and choices open around the statement being written (see MAX_NESTING), and
        #: the loops alone (a pass of a loop inside another counts towards MAX_PASSES).
        self.nesting = 0
        self.loops = 0
        self.types = [p.name for p in design.pieces]
        self.loop_cap = 4 * len(design.board.names) + 4
        self.turning = sorted({d for d, _ in design.board.turns})
        self.known_empty = False
        self.mark_empty = False
        self.quiet = False
        self.ns: dict[str, Any] = {}
        # Directions along which no walk can come back to where it was: a loop stepping in
        # one of them needs no guard against going round for ever.
        self.acyclic = set()
        for d, row in enumerate(design.board.links):
            if d in self.turning:
                continue
            if all(_walk_ends(row, p) for p in range(len(row))):
                self.acyclic.add(d)
        #: What a choice saves and gives back to each of its branches.
        self.counting = design.counters
        self.jumping = bool(design.labels)
        extra = (["h", "ag"] if self.counting else []) + (["gt"] if self.jumping else [])
        self.relays = any(relays(pr.tree) for piece in design.pieces for pr in piece.programs)
        self.relaying = False  # the program being written relays (rules/relays.py)
        extra += list(RELAY_STATE) if self.relays else []
        #: The names of that state, and the tuple of them.
        self.saved = ["c", "cap", "eff", "mc", "mk", "fl", *extra] + [
            f"_v{d}" for d in self.turning
        ]
        self.state = "(" + ", ".join(self.saved) + ")"

    def fresh(self) -> int:
        self.counter += 1
        return self.counter

    def function(
        self, name: str, programs: Sequence[tuple[int, Any]], player: int, quiet: bool = False
    ) -> str:
        """``def name(b, f, out, lf, lt, cap0, mc0)``; ``quiet``: the programs' own
        ``attacked`` and ``check`` read false (the check test's forward runs)."""
        self.player = player
        self.enemy = enemy_code(player, self.players)
        self.quiet = quiet
        self.in_sweep = False
        pause()  # a function's text at a time (see game.logic.pacing)
        self.lines.append(f"def {name}(b, f, out, lf, lt, cap0, mc0):")
        self.lines.append("    _z = 0")  # the passes of inner loops in this call
        for pid, program in programs:
            self.pid = pid
            self.program_form, self.at = program.where, None
            self.nesting = self.loops = 0
            self.known_empty = False
            self.mark_empty = False
            self.lines.append("    for _ in ONE:")
            self.lines.append("        c = f; cap = cap0; eff = (); mc = mc0; mk = f; fl = False")
            if self.counting:  # the counts this move has changed, and its extra turn
                self.lines.append("        h = {}; ag = False")
            if self.jumping:  # the label this move sends the turn to (0: none)
                self.lines.append("        gt = 0")
            for d in self.turning:
                self.lines.append(f"        _v{d} = {d}")
            if self.relays:
                self.relay_start(2, program.drop, program.tree)
            self.seq(list(program.tree), 2, ["continue"])
            if len(self.lines) > MAX_LINES:
                raise program.where.error("this move program is too intricate once compiled")
        self.lines.append("    return None")
        return name

    def emit(self, indent: int, text: str) -> None:
        if len(self.lines) > MAX_LINES or indent > MAX_INDENT:
            raise self._where().error(
                f"the move programs are too intricate (more than {MAX_LINES} lines once "
                "compiled, or nested too deep): choices copy the statements after them; "
                "nest fewer choices"
            )
        self.lines.append("    " * indent + text)

    def _where(self) -> Item:
        return self.at if self.at is not None else self.program_form

    program_form: Item

    def open_block(self, node: tree.ProgramNode) -> None:
        """One more loop or choice around what follows (``node`` opens it); refused past
        :data:`~game.logic.rules.limits.MAX_NESTING`."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise node.error(
                f"({tree.HEADS[type(node)]} ...) stands inside {self.nesting - 1} other loops and "
                f"choices (while, repeat, anywhere, sweep, one-of), and {MAX_NESTING} is the most: "
                "a one-of or anywhere holds the statements after it too; nest fewer, or "
                "write another move program",
                self.program_form,
            )

    def limits(self, indent: int, node: tree.ProgramNode, moves: bool) -> None:
        """The bounds a pass of a loop checks: the moves of the position when it adds some
        (``moves``), and the passes of inner loops when it stands inside another loop."""
        inner = self.loops > 1
        if not moves and not inner:
            return
        k = len(self.limit_forms)
        self.limit_forms.append(self._place(node))
        if inner:
            self.emit(indent, "_z += 1")
            self.emit(indent, f"if _z > {MAX_PASSES}: OVER({k}, 1)")
        if moves:
            self.emit(indent, f"if len(out) > {MAX_MOVES}: OVER({k}, 0)")

    def scans(self, indent: int, cond: tree.Cond) -> None:
        """Inside a loop, a condition that reads the whole board (``exists``, ``only-lines``,
        ``pieces-at-most``) counts a pass per position it may read towards MAX_PASSES."""
        weight = _scan_weight(cond, len(self.design.board.names))
        if not self.loops or weight <= 1:
            return
        k = len(self.limit_forms)
        self.limit_forms.append(self._place(_first_scan(cond)))
        self.emit(indent, f"_z += {weight}")
        self.emit(indent, f"if _z > {MAX_PASSES}: OVER({k}, 2)")

    def fail(self, indent: int, fail: list[str]) -> None:
        for line in fail:
            self.emit(indent, line)

    def link(self, word: str) -> str:
        d = self.design.board.directions.index(word)
        return f"L{self.design.board.symmetry[self.player][d]}"

    def seq(self, items: list[tree.Stmt], indent: int, fail: list[str]) -> None:
        """Compile ``items`` (the rest of a program); choices take the rest with them."""
        for i, node in enumerate(items):
            rest = items[i + 1 :]
            self.at = node.where
            self.origins.append((len(self.lines), node.where))
            match node:
                case tree.Advance(direction=d):
                    self.word(d, indent, fail)
                case tree.Act(word=w):
                    self.word(w, indent, fail)
                case tree.Verify(cond=cond):
                    self.scans(indent, cond)
                    self.emit(indent, f"if not ({self.cond(cond)}):")
                    self.fail(indent + 1, fail)
                    if cond == EMPTY:
                        self.known_empty = True
                case tree.If(cond=cond, then=then, otherwise=otherwise):
                    self.choose(node, cond, list(then), list(otherwise), rest, indent, fail)
                    if not self.in_loop and _has_fork(node):
                        return
                case tree.Do(body=body):
                    self.seq([*body, *rest], indent, fail)
                    return
                case tree.Anywhere(body=body):
                    self.anywhere(node, [*body, *rest], indent)
                    return
                case tree.OneOf(alternatives=alternatives):
                    k = self.fresh()
                    more = "".join(f", {n}" for n in RELAY_STATE) if self.relays else ""
                    kept = f"_c{k}, _cap{k}, _e{k}, _m{k}, _k{k}" + more.replace(", ", f"_{k}, ")
                    self.emit(indent, f"{kept} = c, cap, eff, mc, mk{more}")
                    self.open_block(node)
                    for alt in alternatives:
                        self.emit(indent, "for _ in ONE:")
                        self.emit(indent + 1, f"c, cap, eff, mc, mk{more} = {kept}")
                        self.seq([alt, *rest], indent + 1, ["continue"])
                    self.nesting -= 1
                    return
                case tree.While(cond=cond, body=body):
                    self.loop_while(node, cond, list(body), indent, fail)
                case tree.Repeat(times=times, body=body):
                    self.repeat(node, times, list(body), indent, fail)
                case tree.Sweep(directions=directions, body=body):
                    self.sweep(node, directions, list(body), indent)
                case tree.ChangeType(type=name):
                    base = 1 + self.player + self.players * self.types.index(name)
                    self.emit(indent, f"mc = {base}")
                case tree.SetFlag():
                    self.emit(indent, flag_line(self, node))
                case tree.SetAttr(attr=attr, on=on):
                    a = self.design.attributes.index(attr)
                    self.emit(indent, f"mc = {'SET' if on else 'CLR'}{a}[mc]")
                case tree.Cascade(source=source, target=target):
                    for name, steps in (("_a", source), ("_t", target)):
                        self.emit(indent, f"{name} = f")
                        for d in steps:
                            self.emit(indent, f"{name} = {self.link(d)}[{name}]")
                            self.emit(indent, f"if {name} < 0:")
                            self.fail(indent + 1, fail)
                    self.emit(indent, "if not b[_a]:")
                    self.fail(indent + 1, fail)
                    self.emit(indent, "eff = eff + ((_a, 0), (_t, b[_a]))")
                case tree.Sow(direction=d):
                    # Every counter on the cursor's position, one a position along d.
                    k = self.fresh()
                    self.emit(indent, f"_n{k} = h.get(c, b[c]); h[c] = 0; _bad{k} = False")
                    skip = isinstance(node, tree.SowSkip)  # passing over where they were
                    if skip:
                        self.emit(indent, f"_o{k} = c")
                    self.emit(indent, f"for _ in range(_n{k}):")
                    self.emit(indent + 1, f"c = {self.link(d)}[c]")
                    if skip:
                        self.emit(indent + 1, f"c = {self.link(d)}[c] if c == _o{k} else c")
                    self.emit(indent + 1, "if c < 0:")
                    self.emit(indent + 2, f"_bad{k} = True; break")
                    self.emit(indent + 1, "h[c] = h.get(c, b[c]) + 1")
                    self.emit(indent, f"if _bad{k}:")
                    self.fail(indent + 1, fail)
                    self.known_empty = self.mark_empty = False
                case tree.Rotate():
                    self.rotate(node, indent)
                case tree.Jump(place=place):
                    self.go(place, indent, fail)
                case tree.Put():
                    self.put(node, indent, fail)
                case tree.Goto(label=label):
                    self.emit(indent, f"gt = {self.design.labels.index(label) + 1}")
                case tree.TakeTo(zone=zone):
                    z = self.zones.index(zone)
                    self.emit(indent, f"_t = min(Z{z}_{self.player}, default=-1)")
                    self.emit(indent, "if _t < 0:")
                    self.fail(indent + 1, fail)
                    self.emit(indent, "h[_t] = h.get(_t, b[_t]) + h.get(c, b[c]); h[c] = 0")
                    self.known_empty = self.mark_empty = False
                case tree.AddPartial(kind=kind):
                    self.add(indent, repr(kind))
                case tree.SetNumber() | tree.SetTally():
                    self.emit(indent, self.change(node))
                case _:  # pragma: no cover - read_tree.check refuses everything else
                    raise self._where().error(f"cannot compile {node!r:.60}")

    def choose(
        self,
        node: tree.If,
        cond: tree.Cond,
        then: list[tree.Stmt],
        otherwise: list[tree.Stmt],
        rest: list[tree.Stmt],
        indent: int,
        fail: list[str],
    ) -> None:
        """``(if ...)``: inside a loop or without a choice in it, its branches alone (the
        statements after it follow the block); else each branch takes the rest with it."""
        before, mark_before = self.known_empty, self.mark_empty
        self.scans(indent, cond)
        self.emit(indent, f"if {self.cond(cond)}:")
        if self.in_loop or not _has_fork(node):
            self.seq(then, indent + 1, fail) if then else self.emit(indent + 1, "pass")
            if otherwise:
                self.emit(indent, "else:")
                self.known_empty, self.mark_empty = before, mark_before
                self.seq(otherwise, indent + 1, fail)
            self.known_empty = self.mark_empty = False  # the branches may have left c anywhere
            return
        self.seq(then + rest, indent + 1, fail) if then + rest else self.emit(indent + 1, "pass")
        self.emit(indent, "else:")
        self.known_empty, self.mark_empty = before, mark_before
        if otherwise + rest:
            self.seq(otherwise + rest, indent + 1, fail)
        else:
            self.emit(indent + 1, "pass")

    def anywhere(self, node: tree.Anywhere, body: list[tree.Stmt], indent: int) -> None:
        """``(anywhere ...)``: the body and the statements after it from every position."""
        k = self.fresh()
        self.known_empty = self.mark_empty = False
        self.open_block(node)
        self.loops += 1
        self.emit(indent, f"_s{k} = {self.state}")
        self.emit(indent, f"for _p{k} in ALL:")
        self.limits(indent + 1, node, _makes_moves(body))
        self.emit(indent + 1, f"{self.state} = _s{k}")
        if self.counting:
            self.emit(indent + 1, "h = dict(h)")
        self.emit(indent + 1, f"c = _p{k}")
        self.seq(body, indent + 1, ["continue"])
        self.loops -= 1
        self.nesting -= 1
        self.emit(indent, f"c = _s{k}[0]")

    def loop_while(
        self, node: tree.While, cond: tree.Cond, body: list[tree.Stmt], indent: int, fail: list[str]
    ) -> None:
        k = self.fresh()
        guarded = not self._straight(body)
        # A guarded loop that adds moves remembers where each pass began.
        keyed = guarded and _adds(body)
        self.emit(
            indent,
            f"_w{k} = False"
            + (f"; _n{k} = 0" if guarded else "")
            + (f"; _o{k} = set()" if keyed else ""),
        )
        self.open_block(node)
        self.loops += 1
        self.emit(indent, f"while {self.cond(cond)}:")
        self.limits(indent + 1, node, _makes_moves(body))
        self.scans(indent + 1, cond)  # the condition is asked before each pass
        if guarded:
            # A loop that has gone round more often than the board could hold steps
            # is going round a cycle (or not moving): it fails instead of hanging.
            self.emit(indent + 1, f"_n{k} += 1")
            self.emit(indent + 1, f"if _n{k} > {self.loop_cap}:")
            self.emit(indent + 2, f"_w{k} = True; break")
        if keyed:
            # A pass that begins where an earlier one began, with the same captures,
            # effects, flags and counts, would add again the moves that one added: the
            # loop has come round and fails there.
            self.emit(indent + 1, f"_q{k} = {self.pass_key()}")
            self.emit(indent + 1, f"if _q{k} in _o{k}:")
            self.emit(indent + 2, f"_w{k} = True; break")
            self.emit(indent + 1, f"_o{k}.add(_q{k})")
        self.passes(body, k, indent, fail, known_empty=cond == EMPTY)

    def repeat(
        self,
        node: tree.Repeat,
        times: tree.Count,
        body: list[tree.Stmt],
        indent: int,
        fail: list[str],
    ) -> None:
        k = self.fresh()
        self.known_empty = self.mark_empty = False
        self.emit(indent, f"_w{k} = False; _r{k} = {self.count(times)}")
        self.emit(indent, f"if _r{k} < 0:")
        self.fail(indent + 1, fail)
        self.open_block(node)
        self.loops += 1
        self.emit(indent, f"for _ in range(_r{k}):")
        self.limits(indent + 1, node, _makes_moves(body))
        self.passes(body, k, indent, fail, known_empty=False)

    def passes(
        self, body: list[tree.Stmt], k: int, indent: int, fail: list[str], known_empty: bool
    ) -> None:
        """The body of loop ``k`` (a failing statement ends the loop, which then fails), the
        loop closed, and its failure passed on."""
        saved = self.in_loop
        self.in_loop = True
        self.known_empty, self.mark_empty = known_empty, False
        self.seq(body, indent + 1, [f"_w{k} = True", "break"])
        self.loops -= 1
        self.nesting -= 1
        self.in_loop = saved
        self.known_empty = self.mark_empty = False
        self.emit(indent, f"if _w{k}:")
        self.fail(indent + 1, fail)

    def sweep(
        self, node: tree.Sweep, directions: Sequence[str], body: list[tree.Stmt], indent: int
    ) -> None:
        k = self.fresh()
        tables = ", ".join(self.link(d) for d in directions)
        self.known_empty = self.mark_empty = False
        self.emit(indent, f"_s{k} = c")
        self.open_block(node)
        self.loops += 1
        # One pass per direction; a failing statement goes on with the next one.
        self.emit(indent, f"for _T in ({tables},):")
        self.limits(indent + 1, node, False)  # a sweep adds no move itself
        self.emit(indent + 1, f"c = _s{k}; _se{k} = eff")
        was_loop, was_sweep = self.in_loop, self.in_sweep
        self.in_loop, self.in_sweep = True, True
        self.seq(body, indent + 1, [f"eff = _se{k}", "continue"])
        self.in_loop, self.in_sweep = was_loop, was_sweep
        self.loops -= 1
        self.nesting -= 1
        self.emit(indent, f"c = _s{k}")

    in_loop = False

    def pass_key(self) -> str:
        """The expression of everything a loop's pass starts from (the state a choice saves;
        the counts, a dict, as their sorted items)."""
        names = ("tuple(sorted(h.items()))" if n == "h" else n for n in self.saved)
        return "(" + ", ".join(names) + ")"

    def _straight(self, body: list[tree.Stmt]) -> bool:
        """Whether each pass of a loop with this body steps in one direction that cannot
        cycle (so the loop ends by itself)."""
        directions = self.design.board.directions
        steps = set()
        for node in body:
            if isinstance(node, tree.Advance):
                steps.add(self.design.board.symmetry[self.player][directions.index(node.direction)])
            elif isinstance(node, tree.Act):
                if node.word in ("back", "mark"):
                    return False
            elif not isinstance(node, tree.Verify):
                return False
        return len(steps) == 1 and steps <= self.acyclic

    def _place(self, node: tree.ProgramNode) -> tuple[int, int, str]:
        """Where a bounded form was written, and its head (for the Overflow's message)."""
        at = node.where if node.where is not None else self.program_form
        return at.line, at.column, tree.HEADS.get(type(node), type(node).__name__)

    def word(self, word: str, indent: int, fail: list[str]) -> None:
        if word == "back":  # back where the mark was: empty if it was known empty there
            self.known_empty = self.mark_empty
        elif word == "mark":
            self.mark_empty = self.known_empty
        elif word == "dir" or word in self.design.board.directions:
            self.known_empty = False
        if word == "dir":
            self.emit(indent, "c = _T[c]")
            self.emit(indent, "if c < 0:")
            self.fail(indent + 1, fail)
        elif word in self.design.board.directions:
            d = self.design.board.symmetry[self.player][self.design.board.directions.index(word)]
            if d in self.turning:  # the walk may turn: its direction is a variable
                self.emit(indent, f"c = LINKS[_v{d}][c]")
                self.emit(indent, "if c < 0:")
                self.fail(indent + 1, fail)
                self.emit(indent, f"_v{d} = TURNS.get((_v{d}, c), _v{d})")
            else:
                self.emit(indent, f"c = L{d}[c]")
                self.emit(indent, "if c < 0:")
                self.fail(indent + 1, fail)
        elif word == "add":
            self.add(indent, "None")
        elif word in RELAY_WORDS:  # (rules/relays.py)
            self.relay_add(indent, "None", True) if word == "add-copy" else self.relay_word(
                word, indent, fail
            )
        elif word in _LINES:
            self.emit(indent, _LINES[word])
        else:  # pragma: no cover
            raise DescriptionError(f"cannot compile {word!r}")

    def pid_text(self) -> str:
        """The move's program number, with the label it sends the turn to, if any."""
        return f"{self.pid} | (gt << {GOTO})" if self.jumping else str(self.pid)

    def add(self, indent: int, partial: str) -> None:
        if self.relaying:  # (rules/relays.py)
            return self.relay_add(indent, partial, False)
        p, eff, pid = self.player, "eff", self.pid_text()
        if self.changes_tallies:  # the tally changes in eff go to the pid (rules/numbers.py)
            self.emit(indent, "_ef, _ch = SPLIT(eff)")
            eff, pid = "_ef", f"{pid} | _ch"
        if self.counting:  # the changed counts are the move; -1 says so
            self.emit(
                indent,
                f"out.append((c, cap, tuple(h.items()), -1, {pid} | ({AGAIN} if ag else 0), None))",
            )
            return
        if self.known_empty:
            self.emit(indent, f"out.append((c, cap, {eff}, mc, {pid}, {partial}))")
            return
        self.emit(indent, "_x = b[c]")
        self.emit(indent, "if not _x or c == f:")
        self.emit(indent + 1, f"out.append((c, cap, {eff}, mc, {pid}, {partial}))")
        self.emit(indent, "else:" if self.design.take_own else f"elif OWN[_x] != {p}:")
        self.emit(indent + 1, f"out.append((c, cap + (c,), {eff}, mc, {pid}, {partial}))")


def _makes_moves(body: Sequence[tree.Stmt]) -> bool:
    """Whether these statements (nested ones too) make a move (``add``, ``add-partial``)."""
    return any(n in ADDS or isinstance(n, tree.AddPartial) for n in tree.walk(body))


EMPTY: Final = tree.Is("empty")
#: The line each statement without arguments (but ``add`` and the steps) writes.
_LINES: Final = {
    "set-flag": "fl = fl | 1",  # bit 0 of the flags (rules/flags.py)
    "again": "ag = True",
    "capture": "if b[c] and c not in cap: cap = cap + (c,)",
    "flip": "if b[c]: eff = eff + ((c, FLIP[b[c]]),)",
    "mark": "mk = c",
    "back": "c = mk",
    "die": "mc = 0",  # the moving piece leaves the board when the move ends
    "repelled": "mc = b[c]",  # the piece at the cursor stays; the moving piece is gone
}
ADD: Final = tree.Act("add")
ADDS: Final = (ADD, tree.Act("add-copy"))


def _scan_weight(cond: tree.Cond, n: int) -> int:
    """The most positions ``cond`` may read beyond the cursor's on a board of ``n``: ``n``
    for each condition that reads the whole board (``exists``: times what it asks at each)."""
    match cond:
        case tree.Exists(cond=inner):
            return n * max(1, _scan_weight(inner, n))
        case tree.OnlyLines() | tree.PiecesAtMost():
            return n
        case tree.Not(cond=inner) | tree.Next(cond=inner):
            return _scan_weight(inner, n)
        case tree.And(conds=conds) | tree.Or(conds=conds):
            return sum(_scan_weight(a, n) for a in conds)
    return 0


def _first_scan(cond: tree.Cond) -> tree.Cond:
    """The outermost condition in ``cond`` that reads the whole board (one must exist)."""
    return next(
        c
        for c in tree.walk(cond)
        if isinstance(c, tree.Exists | tree.OnlyLines | tree.PiecesAtMost)
    )


def _has_fork(node: tree.Stmt) -> bool:
    """Whether a choice (``one-of``, ``anywhere``) sits anywhere inside ``node``."""
    return any(isinstance(n, tree.OneOf | tree.Anywhere) for n in tree.walk(node))


def _adds(body: Sequence[tree.Stmt]) -> bool:
    """Whether these statements (nested ones too) add a move."""
    return any(n in ADDS for n in tree.walk(body))


def _walk_ends(row: Sequence[int], start: int) -> bool:
    """Whether stepping along ``row``'s links from ``start`` leaves the board."""
    seen = set()
    p = start
    while p >= 0:
        if p in seen:
            return False
        seen.add(p)
        p = row[p]
    return True
