"""The writer of a design's generator functions: each move program's statements turned into
Python text (direction steps as link-table lookups, conditions as table lookups, choices as
nested blocks, ``while`` as a guarded loop), with the tables the text names.
:func:`~game.logic.rules.compile.compile_design` runs what it writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from game.logic.pacing import pause
from game.logic.rules.design import Design
from game.logic.rules.expressions import Expressions
from game.logic.rules.limits import MAX_MOVES, MAX_NESTING, MAX_PASSES
from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

__all__ = ["AGAIN", "GOTO", "MAX_LINES", "PROGRAM", "ProgramWriter"]

#: The bit of a move's program number that gives the player another turn (a sowing that
#: ends in the player's store); PROGRAM masks it off, and the bits from GOTO up hold the
#: turn-order label a move sends the turn to (its index + 1).
AGAIN: Final = 1 << 20
PROGRAM: Final = AGAIN - 1
GOTO: Final = 21

#: The most lines of Python a design may compile to (choices copy what follows them).
MAX_LINES: Final = 60_000
#: The deepest indentation of a generated line (Python's tokenizer stops at 100 levels).
MAX_INDENT: Final = 90


class ProgramWriter(Expressions):
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
        self.state = (
            "("
            + ", ".join(
                ["c", "cap", "eff", "mc", "mk", "fl", *extra] + [f"_v{d}" for d in self.turning]
            )
            + ")"
        )

    def fresh(self) -> int:
        self.counter += 1
        return self.counter

    def function(
        self, name: str, programs: Sequence[tuple[int, Any]], player: int, quiet: bool = False
    ) -> str:
        """``def name(b, f, out, lf, lt, cap0, mc0)``; ``quiet``: the programs' own
        ``attacked`` and ``check`` read false (the check test's forward runs)."""
        self.player = player
        self.enemy = (player + 1) % self.players
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
            self.seq(list(program.body), 2, ["continue"])
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

    def open_block(self, item: Form) -> None:
        """One more loop or choice around what follows (``item`` opens it); refused past
        :data:`~game.logic.rules.limits.MAX_NESTING`."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise item.error(
                f"({item.head} ...) stands inside {self.nesting - 1} other loops and choices "
                f"(while, repeat, anywhere, sweep, one-of), and {MAX_NESTING} is the most: "
                "a one-of or anywhere holds the statements after it too; nest fewer, or "
                "write another move program"
            )

    def limits(self, indent: int, item: Form, moves: bool) -> None:
        """The bounds a pass of a loop checks: the moves of the position when it adds some
        (``moves``), and the passes of inner loops when it stands inside another loop."""
        inner = self.loops > 1
        if not moves and not inner:
            return
        k = len(self.limit_forms)
        self.limit_forms.append((item.line, item.column, item.head))
        if inner:
            self.emit(indent, "_z += 1")
            self.emit(indent, f"if _z > {MAX_PASSES}: OVER({k}, 1)")
        if moves:
            self.emit(indent, f"if len(out) > {MAX_MOVES}: OVER({k}, 0)")

    def scans(self, indent: int, cond: Item) -> None:
        """Inside a loop, a condition that reads the whole board (``exists``, ``only-lines``,
        ``pieces-at-most``) counts a pass per position it may read towards MAX_PASSES."""
        weight = _scan_weight(cond, len(self.design.board.names))
        if not self.loops or weight <= 1:
            return
        form = _first_scan(cond)
        k = len(self.limit_forms)
        self.limit_forms.append((form.line, form.column, form.head))
        self.emit(indent, f"_z += {weight}")
        self.emit(indent, f"if _z > {MAX_PASSES}: OVER({k}, 2)")

    def fail(self, indent: int, fail: list[str]) -> None:
        for line in fail:
            self.emit(indent, line)

    def link(self, word: str) -> str:
        d = self.design.board.directions.index(word)
        return f"L{self.design.board.symmetry[self.player][d]}"

    def seq(self, items: list[Item], indent: int, fail: list[str]) -> None:
        """Compile ``items`` (the rest of a program); choices take the rest with them."""
        for i, item in enumerate(items):
            rest = items[i + 1 :]
            self.at = item
            self.origins.append((len(self.lines), item))
            if isinstance(item, Atom):
                self.word(str(item.value), indent, fail)
                continue
            head = item.head
            if len(item) == 1 and head in (
                "add",
                "capture",
                "flip",
                "mark",
                "back",
                "set-flag",
                "again",
            ):
                self.word(head, indent, fail)
            elif head in self.design.board.directions:
                for d in item.items:
                    self.word(str(d.value), indent, fail)  # type: ignore[union-attr]
            elif head == "verify":
                self.scans(indent, item[1])
                self.emit(indent, f"if not ({self.cond(item[1])}):")
                self.fail(indent + 1, fail)
                if isinstance(item[1], Atom) and item[1].value == "empty":
                    self.known_empty = True
            elif head == "if":
                body = list(item.items[2:])
                other: list[Item] = []
                if body and isinstance(body[-1], Form) and body[-1].head == "else":
                    other = list(body[-1].args)
                    body = body[:-1]
                before = self.known_empty
                mark_before = self.mark_empty
                self.scans(indent, item[1])
                if self.in_loop or not _has_fork(item):
                    self.emit(indent, f"if {self.cond(item[1])}:")
                    self.seq(body, indent + 1, fail) if body else self.emit(indent + 1, "pass")
                    if other:
                        self.emit(indent, "else:")
                        self.known_empty = before
                        self.mark_empty = mark_before
                        self.seq(other, indent + 1, fail)
                    self.known_empty = False  # the branches may have left c anywhere
                    self.mark_empty = False
                    continue
                self.emit(indent, f"if {self.cond(item[1])}:")
                self.seq(body + rest, indent + 1, fail) if body + rest else self.emit(
                    indent + 1, "pass"
                )
                self.emit(indent, "else:")
                self.known_empty = before
                self.mark_empty = mark_before
                if other + rest:
                    self.seq(other + rest, indent + 1, fail)
                else:
                    self.emit(indent + 1, "pass")
                return
            elif head == "do":
                self.seq(list(item.args) + rest, indent, fail)
                return
            elif head == "anywhere":
                k = self.fresh()
                self.known_empty = False
                self.mark_empty = False
                self.open_block(item)
                self.loops += 1
                self.emit(indent, f"_s{k} = {self.state}")
                self.emit(indent, f"for _p{k} in ALL:")
                self.limits(indent + 1, item, _makes_moves([*item.args, *rest]))
                self.emit(indent + 1, f"{self.state} = _s{k}")
                if self.counting:
                    self.emit(indent + 1, "h = dict(h)")
                self.emit(indent + 1, f"c = _p{k}")
                self.seq([*item.args, *rest], indent + 1, ["continue"])
                self.loops -= 1
                self.nesting -= 1
                self.emit(indent, f"c = _s{k}[0]")
                return
            elif head == "one-of":
                k = self.fresh()
                self.emit(indent, f"_c{k}, _cap{k}, _e{k}, _m{k}, _k{k} = c, cap, eff, mc, mk")
                self.open_block(item)
                for alt in item.args:
                    self.emit(indent, "for _ in ONE:")
                    self.emit(
                        indent + 1, f"c, cap, eff, mc, mk = _c{k}, _cap{k}, _e{k}, _m{k}, _k{k}"
                    )
                    self.seq([alt, *rest], indent + 1, ["continue"])
                self.nesting -= 1
                return
            elif head == "while":
                k = self.fresh()
                body = list(item.items[2:])
                guarded = not self._straight(body)
                # A guarded loop that adds moves remembers where each pass began.
                keyed = guarded and _adds(body)
                self.emit(
                    indent,
                    f"_w{k} = False"
                    + (f"; _n{k} = 0" if guarded else "")
                    + (f"; _o{k} = set()" if keyed else ""),
                )
                self.open_block(item)
                self.loops += 1
                self.emit(indent, f"while {self.cond(item[1])}:")
                self.limits(indent + 1, item, _makes_moves(body))
                self.scans(indent + 1, item[1])  # the condition is asked before each pass
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
                saved = self.in_loop
                self.in_loop = True
                self.known_empty = isinstance(item[1], Atom) and item[1].value == "empty"
                self.mark_empty = False
                self.seq(body, indent + 1, [f"_w{k} = True", "break"])
                self.loops -= 1
                self.nesting -= 1
                self.in_loop = saved
                self.known_empty = False
                self.mark_empty = False
                self.emit(indent, f"if _w{k}:")
                self.fail(indent + 1, fail)
            elif head == "repeat":
                k = self.fresh()
                self.known_empty = False
                self.mark_empty = False
                self.emit(indent, f"_w{k} = False; _r{k} = {self.count(item[1])}")
                self.emit(indent, f"if _r{k} < 0:")
                self.fail(indent + 1, fail)
                self.open_block(item)
                self.loops += 1
                self.emit(indent, f"for _ in range(_r{k}):")
                self.limits(indent + 1, item, _makes_moves(item.items[2:]))
                saved = self.in_loop
                self.in_loop = True
                self.seq(list(item.items[2:]), indent + 1, [f"_w{k} = True", "break"])
                self.loops -= 1
                self.nesting -= 1
                self.in_loop = saved
                self.known_empty = False
                self.mark_empty = False
                self.emit(indent, f"if _w{k}:")
                self.fail(indent + 1, fail)
            elif head == "sweep":
                k = self.fresh()
                tables = ", ".join(self.link(str(d.value)) for d in item[1].items)  # type: ignore[union-attr]
                self.known_empty = False
                self.mark_empty = False
                self.emit(indent, f"_s{k} = c")
                self.open_block(item)
                self.loops += 1
                # One pass per direction; a failing statement goes on with the next one.
                self.emit(indent, f"for _T in ({tables},):")
                self.limits(indent + 1, item, False)  # a sweep adds no move itself
                self.emit(indent + 1, f"c = _s{k}; _se{k} = eff")
                was_loop, was_sweep = self.in_loop, self.in_sweep
                self.in_loop, self.in_sweep = True, True
                self.seq(list(item.items[2:]), indent + 1, [f"eff = _se{k}", "continue"])
                self.in_loop, self.in_sweep = was_loop, was_sweep
                self.loops -= 1
                self.nesting -= 1
                self.emit(indent, f"c = _s{k}")
            elif head in ("change-type", "promote"):
                t = self.types.index(str(item[1].value))  # type: ignore[union-attr]
                base = 1 + self.player + self.players * t
                self.emit(indent, f"mc = {base}")
            elif head in ("set-attr", "clear-attr"):
                a = self.design.attributes.index(str(item[1].value))  # type: ignore[union-attr]
                table = "SET" if head == "set-attr" else "CLR"
                self.emit(indent, f"mc = {table}{a}[mc]")
            elif head == "cascade":
                src, dst = item[1], item[2]
                self.emit(indent, "_a = f")
                for d in src.items:  # type: ignore[union-attr]
                    self.emit(indent, f"_a = {self.link(str(d.value))}[_a]")  # type: ignore[union-attr]
                    self.emit(indent, "if _a < 0:")
                    self.fail(indent + 1, fail)
                self.emit(indent, "_t = f")
                for d in dst.items:  # type: ignore[union-attr]
                    self.emit(indent, f"_t = {self.link(str(d.value))}[_t]")  # type: ignore[union-attr]
                    self.emit(indent, "if _t < 0:")
                    self.fail(indent + 1, fail)
                self.emit(indent, "if not b[_a]:")
                self.fail(indent + 1, fail)
                self.emit(indent, "eff = eff + ((_a, 0), (_t, b[_a]))")
            elif head == "sow":
                # Every counter on the cursor's position, one a position along the direction.
                k = self.fresh()
                link = self.link(str(item[1].value))  # type: ignore[union-attr]
                self.emit(indent, f"_n{k} = h.get(c, b[c]); h[c] = 0; _bad{k} = False")
                self.emit(indent, f"for _ in range(_n{k}):")
                self.emit(indent + 1, f"c = {link}[c]")
                self.emit(indent + 1, "if c < 0:")
                self.emit(indent + 2, f"_bad{k} = True; break")
                self.emit(indent + 1, "h[c] = h.get(c, b[c]) + 1")
                self.emit(indent, f"if _bad{k}:")
                self.fail(indent + 1, fail)
                self.known_empty = False
                self.mark_empty = False
            elif head == "goto":
                label = self.design.labels.index(str(item[1].value))  # type: ignore[union-attr]
                self.emit(indent, f"gt = {label + 1}")
            elif head == "take-to":
                zone = self.zones.index(str(item[1].value))  # type: ignore[union-attr]
                self.emit(indent, f"_t = min(Z{zone}_{self.player}, default=-1)")
                self.emit(indent, "if _t < 0:")
                self.fail(indent + 1, fail)
                self.emit(indent, "h[_t] = h.get(_t, b[_t]) + h.get(c, b[c]); h[c] = 0")
                self.known_empty = False
                self.mark_empty = False
            elif head == "add-partial":
                kind = str(item[1].value)  # type: ignore[union-attr]
                self.add(indent, repr(kind))
            else:  # pragma: no cover - the design reader refuses everything else
                raise item.error(f"cannot compile ({head} ...)")

    in_loop = False

    def pass_key(self) -> str:
        """The expression of everything a loop's pass starts from (the state a choice saves;
        the counts, a dict, as their sorted items)."""
        names = self.state.strip("()").split(", ")
        return "(" + ", ".join("tuple(sorted(h.items()))" if n == "h" else n for n in names) + ")"

    def _straight(self, body: list[Item]) -> bool:
        """Whether each pass of a loop with this body steps in one direction that cannot
        cycle (so the loop ends by itself)."""
        directions = self.design.board.directions
        steps = set()
        for item in body:
            if isinstance(item, Atom) and item.value in directions:
                steps.add(
                    self.design.board.symmetry[self.player][directions.index(str(item.value))]
                )
            elif (
                isinstance(item, Form)
                and item.head not in ("verify",)
                and not (len(item) == 1 and item.head in ("add", "capture", "flip", "set-flag"))
            ) or (isinstance(item, Atom) and item.value in ("back", "mark")):
                return False
        return len(steps) == 1 and steps <= self.acyclic

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
        elif word == "set-flag":
            self.emit(indent, "fl = True")
        elif word == "again":
            self.emit(indent, "ag = True")
        elif word == "add":
            self.add(indent, "None")
        elif word == "capture":
            self.emit(indent, "if b[c] and c not in cap: cap = cap + (c,)")
        elif word == "flip":
            self.emit(indent, "if b[c]: eff = eff + ((c, FLIP[b[c]]),)")
        elif word == "mark":
            self.emit(indent, "mk = c")
        elif word == "back":
            self.emit(indent, "c = mk")
        else:  # pragma: no cover
            raise DescriptionError(f"cannot compile {word!r}")

    def pid_text(self) -> str:
        """The move's program number, with the label it sends the turn to, if any."""
        return f"{self.pid} | (gt << {GOTO})" if self.jumping else str(self.pid)

    def add(self, indent: int, partial: str) -> None:
        p = self.player
        if self.counting:  # the changed counts are the move; -1 says so
            self.emit(
                indent,
                f"out.append((c, cap, tuple(h.items()), -1,"
                f" {self.pid_text()} | ({AGAIN} if ag else 0), None))",
            )
            return
        if self.known_empty:
            self.emit(indent, f"out.append((c, cap, eff, mc, {self.pid_text()}, {partial}))")
            return
        self.emit(indent, "_x = b[c]")
        self.emit(indent, "if not _x or c == f:")
        self.emit(indent + 1, f"out.append((c, cap, eff, mc, {self.pid_text()}, {partial}))")
        self.emit(indent, f"elif OWN[_x] != {p}:")
        self.emit(indent + 1, f"out.append((c, cap + (c,), eff, mc, {self.pid_text()}, {partial}))")


def _makes_moves(items: Sequence[Item]) -> bool:
    """Whether these statements (nested ones too) make a move (``add``, ``add-partial``)."""
    for item in items:
        if isinstance(item, Atom) and item.value in ("add", "add-partial"):
            return True
        if isinstance(item, Form) and (
            item.head in ("add", "add-partial") or _makes_moves(item.items)
        ):
            return True
    return False


#: The conditions that read every position of the board.
SCANS: Final = frozenset({"exists", "only-lines", "pieces-at-most"})


def _scan_weight(cond: Item, n: int) -> int:
    """The most positions ``cond`` may read beyond the cursor's on a board of ``n``: ``n``
    for each condition that reads the whole board (``exists``: times what it asks at each)."""
    if isinstance(cond, Atom):
        return 0
    if cond.head == "exists":
        return n * max(1, _scan_weight(cond[1], n))
    if cond.head in SCANS:
        return n
    if cond.head in ("not", "and", "or", "next"):
        return sum(_scan_weight(a, n) for a in cond.args)
    return 0


def _first_scan(cond: Item) -> Form:
    """The outermost condition in ``cond`` that reads the whole board (one must exist)."""
    assert isinstance(cond, Form)
    if cond.head in SCANS:
        return cond
    return next(_first_scan(a) for a in cond.args if _scan_weight(a, 2) > 0)


def _has_fork(item: Item) -> bool:
    """Whether a choice (``one-of``, ``anywhere``) sits anywhere inside ``item``."""
    if isinstance(item, Atom):
        return False
    if item.head in ("one-of", "anywhere"):
        return True
    return any(_has_fork(i) for i in item.items)


def _adds(body: Sequence[Item]) -> bool:
    """Whether these statements (nested ones too) add a move."""
    for item in body:
        if isinstance(item, Atom) and item.value == "add":
            return True
        if isinstance(item, Form) and (item.head == "add" or _adds(item.args)):
            return True
    return False


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
