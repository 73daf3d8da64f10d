"""Move programs compiled to Python functions, once per design.

Each program of a :class:`~game.logic.rules.design.Design` becomes straight-line Python with
its direction steps turned into lookups in precomputed link tables (one table per direction as
each player sees it), its conditions into table lookups, its choices (``one-of``, ``if``) into
nested blocks and its ``while`` into a loop. The generated text holds only integers and the
names of tables this module builds; no word of the description reaches it, so the description
stays data. A generator function exists per piece type, player and move type. For check,
:mod:`game.logic.rules.attacks` writes each player's attack test beside them.

Pieces are small integers: ``1 + player + players * (type + types * attributes)``, 0 for an
empty position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from game.logic.pacing import pause
from game.logic.rules.attacks import write_attacks
from game.logic.rules.design import Design
from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

__all__ = ["AGAIN", "GOTO", "PROGRAM", "Compiled", "compile_design"]

#: The bit of a move's program number that gives the player another turn (a sowing that
#: ends in the player's store); PROGRAM masks it off, and the bits from GOTO up hold the
#: turn-order label a move sends the turn to (its index + 1).
AGAIN: Final = 1 << 20
PROGRAM: Final = AGAIN - 1
GOTO: Final = 21

#: The most lines of Python a design may compile to (choices copy what follows them).
MAX_LINES: Final = 60_000

Generator = Callable[..., None]
Probe = Callable[..., bool]


@dataclass
class Compiled:
    """The tables and functions of a design; see :mod:`game.logic.rules.engine`."""

    codes: int
    owner: tuple[int, ...]
    kind_of: tuple[int, ...]  # piece type by code, -1 for empty
    attrs: tuple[int, ...]
    code: Callable[..., int]
    flip: tuple[int, ...]
    #: gen[type][player]: every program; gen_kind[type][player][kind]: one move type.
    gen: list[list[Generator | None]]
    gen_kind: list[list[dict[str, Generator]]]
    drops: list[list[Generator | None]]
    #: probes[attacker](b, square, lf, lt): whether one of the attacker's programs, walked
    #: backwards from the square, reaches a piece of the attacker that has it.
    probes: list[Probe]
    #: readers[attacker](b, square, lf, lt, m): the same, setting in ``m[position]`` a bit
    #: for each probe program whose answer depends on that position's content; None when an
    #: answer may depend on more (positions a program does not stand on, the last move, or a
    #: program run forward).
    readers: list[Probe] | None
    #: programs_probed[attacker][g]: probe program g alone (bit ``1 << g`` in ``m``).
    programs_probed: list[list[Probe]]
    #: fallback[type][attacker]: the generator of the type's programs that could capture a
    #: royal piece but cannot be walked backwards (run forward from each such piece, with
    #: their own ``attacked`` and ``check`` false); None when there are none.
    fallback: list[list[Generator | None]]
    #: fallback_drops[type][attacker]: the same for drops (run at every position).
    fallback_drops: list[list[Generator | None]]
    #: How the check test asks each program (by program id): "none" (it cannot capture a
    #: royal piece), "probe" (walked backwards) or "fallback" (run forward).
    check_modes: list[str]
    #: programs[id] = (type, name, kind, is_drop)
    programs: list[tuple[int, str, str, bool]]
    source: str


def compile_design(design: Design) -> Compiled:
    """Compile every program of ``design``; raises DescriptionError when it is too big."""
    players = len(design.players)
    types = len(design.pieces)
    n_attr = len(design.attributes)
    codes = 1 + players * types * (1 << n_attr)

    def code(player: int, kind: int, attrs: int = 0) -> int:
        return 1 + player + players * (kind + types * attrs)

    owner = [-1] * codes
    kind_of = [-1] * codes
    attrs_of = [0] * codes
    flip = [0] * codes
    for c in range(1, codes):
        v = c - 1
        owner[c] = v % players
        kind_of[c] = (v // players) % types
        attrs_of[c] = v // (players * types)
    for c in range(1, codes):
        flip[c] = code((owner[c] + 1) % players, kind_of[c], attrs_of[c])
    ns: dict[str, Any] = {
        "ONE": (0,),
        "OWN": tuple(owner),
        "TYP": tuple(kind_of),
        "ATT": tuple(attrs_of),
        "FLIP": tuple(flip),
    }
    board = design.board
    for d in range(len(board.directions)):
        ns[f"L{d}"] = board.links[d]
    ns["LINKS"] = board.links
    ns["TURNS"] = dict(board.turns)
    for a, name in enumerate(design.attributes):
        table = list(range(codes))
        clear = list(range(codes))
        for c in range(1, codes):
            if name in design.pieces[kind_of[c]].attributes:
                table[c] = code(owner[c], kind_of[c], attrs_of[c] | (1 << a))
                clear[c] = code(owner[c], kind_of[c], attrs_of[c] & ~(1 << a))
        ns[f"SET{a}"] = tuple(table)
        ns[f"CLR{a}"] = tuple(clear)
    zone_names = list(board.zones)
    for z, name in enumerate(zone_names):
        for p in range(players):
            ns[f"Z{z}_{p}"] = board.zones[name][p]
    program_table: list[tuple[int, str, str, bool]] = []
    writer = _Writer(design, zone_names, players)
    writer.ns = ns
    for t, piece in enumerate(design.pieces):
        for program in piece.programs:
            program_table.append((t, program.name, program.kind, program.drop))
    ns["attacked"] = None  # set by the engine (it needs the probes)
    ns["line_at"] = None  # set by the engine: the line through a position
    ns["ALL"] = tuple(range(len(board.names)))
    # gen, kind gens, drops, then the attack tests
    pid = 0
    names: dict[tuple[str, int, int, str], str] = {}
    for t, piece in enumerate(design.pieces):
        ids = list(range(pid, pid + len(piece.programs)))
        pid += len(piece.programs)
        for p in range(players):
            moves = [(i, pr) for i, pr in zip(ids, piece.programs, strict=True) if not pr.drop]
            drops = [(i, pr) for i, pr in zip(ids, piece.programs, strict=True) if pr.drop]
            if moves:
                names[("gen", t, p, "")] = writer.function(f"g{t}_{p}", moves, p)
                for kind in sorted({pr.kind for _, pr in moves}):
                    chosen = [(i, pr) for i, pr in moves if pr.kind == kind]
                    names[("kind", t, p, kind)] = writer.function(
                        f"k{t}_{p}_{_ident(kind)}", chosen, p
                    )
            if drops:
                names[("drop", t, p, "")] = writer.function(f"d{t}_{p}", drops, p)

    def cond_for(player: int) -> Callable[[Item], str]:
        writer.player, writer.enemy, writer.quiet = player, (player + 1) % players, True
        return writer.cond

    modes, counts, readable, slow = write_attacks(
        design, writer.lines, ns, cond_for, writer.acyclic, writer.loop_cap, owner, kind_of
    )
    by_id = [(t, pr) for t, piece in enumerate(design.pieces) for pr in piece.programs]
    for p in range(players):
        for t in range(types):
            # Run forward, their own attacked and check false: moves from the piece, drops
            # at each position.
            for drop, key in ((False, "slow"), (True, "slowdrop")):
                chosen = [(i, by_id[i][1]) for i in slow[p] if by_id[i][0] == t]
                chosen = [(i, pr) for i, pr in chosen if pr.drop == drop]
                if chosen:
                    names[(key, t, p, "")] = writer.function(f"{key}{t}_{p}", chosen, p, quiet=True)
    source = "\n".join(writer.lines) + "\n"
    if len(writer.lines) > MAX_LINES:
        raise DescriptionError(
            f"the move programs are too intricate (more than {MAX_LINES} lines once compiled); "
            "nest fewer choices",
            design.source,
        )
    _run_in_pieces(writer.lines, f"<rules {design.id}>", ns)
    gen: list[list[Generator | None]] = []
    gen_kind: list[list[dict[str, Generator]]] = []
    drops_fn: list[list[Generator | None]] = []
    for t, piece in enumerate(design.pieces):
        gen.append(
            [
                ns[names[("gen", t, p, "")]] if ("gen", t, p, "") in names else None
                for p in range(players)
            ]
        )
        drops_fn.append(
            [
                ns[names[("drop", t, p, "")]] if ("drop", t, p, "") in names else None
                for p in range(players)
            ]
        )
        per_player = []
        for p in range(players):
            kinds = {}
            for kind in {pr.kind for pr in piece.programs if not pr.drop}:
                kinds[kind] = ns[names[("kind", t, p, kind)]]
            per_player.append(kinds)
        gen_kind.append(per_player)
    compiled = Compiled(
        codes=codes,
        owner=tuple(owner),
        kind_of=tuple(kind_of),
        attrs=tuple(attrs_of),
        code=code,
        flip=tuple(flip),
        gen=gen,
        gen_kind=gen_kind,
        drops=drops_fn,
        probes=[ns[f"P{p}"] for p in range(players)],
        readers=[ns[f"R{p}"] for p in range(players)] if all(readable) else None,
        programs_probed=[[ns[f"B{g}_{p}"] for g in range(counts[p])] for p in range(players)],
        fallback=[
            [ns[names[(k, t, p, "")]] if (k, t, p, "") in names else None for p in range(players)]
            for t in range(types)
            for k in ("slow",)
        ],
        fallback_drops=[
            [ns[names[(k, t, p, "")]] if (k, t, p, "") in names else None for p in range(players)]
            for t in range(types)
            for k in ("slowdrop",)
        ],
        check_modes=modes,
        programs=program_table,
        source=source,
    )
    compiled.namespace = ns  # type: ignore[attr-defined]
    return compiled


def _ident(word: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in word)


class _Writer:
    """Writes the Python text of the generator functions."""

    def __init__(self, design: Design, zones: list[str], players: int) -> None:
        self.design = design
        self.zones = zones
        self.players = players
        self.lines: list[str] = []
        self.counter = 0
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
        for pid, program in programs:
            self.pid = pid
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
        self.lines.append("    " * indent + text)

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
                self.emit(indent, f"_s{k} = {self.state}")
                self.emit(indent, f"for _p{k} in ALL:")
                self.emit(indent + 1, f"{self.state} = _s{k}")
                if self.counting:
                    self.emit(indent + 1, "h = dict(h)")
                self.emit(indent + 1, f"c = _p{k}")
                self.seq([*item.args, *rest], indent + 1, ["continue"])
                self.emit(indent, f"c = _s{k}[0]")
                return
            elif head == "one-of":
                k = self.fresh()
                self.emit(indent, f"_c{k}, _cap{k}, _e{k}, _m{k}, _k{k} = c, cap, eff, mc, mk")
                for alt in item.args:
                    self.emit(indent, "for _ in ONE:")
                    self.emit(
                        indent + 1, f"c, cap, eff, mc, mk = _c{k}, _cap{k}, _e{k}, _m{k}, _k{k}"
                    )
                    self.seq([alt, *rest], indent + 1, ["continue"])
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
                self.emit(indent, f"while {self.cond(item[1])}:")
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
                self.emit(indent, f"for _ in range(_r{k}):")
                saved = self.in_loop
                self.in_loop = True
                self.seq(list(item.items[2:]), indent + 1, [f"_w{k} = True", "break"])
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
                self.emit(indent, f"for _T in ({tables},):")
                self.emit(indent + 1, f"c = _s{k}; _se{k} = eff")
                self.emit(indent + 1, "for _ in ONE:")
                was_loop, was_sweep = self.in_loop, self.in_sweep
                self.in_loop, self.in_sweep = True, True
                self.seq(list(item.items[2:]), indent + 2, [f"eff = _se{k}", "continue"])
                self.in_loop, self.in_sweep = was_loop, was_sweep
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

    def count(self, count: Item) -> str:
        """A count's Python expression (see the design reader's ``_check_count``)."""
        if isinstance(count, Atom):
            return str(int(count.value))
        if count.head == "minus":
            return f"({self.count(count[1])} - {int(count[2].value)})"  # type: ignore[union-attr]
        d = self.design.board.symmetry[self.player][
            self.design.board.directions.index(str(count[1].value))  # type: ignore[union-attr]
        ]
        self.ns[f"LP{d}"] = _lines_through(self.design.board.links[d])
        return f"sum(1 for _x in LP{d}[c] if b[_x])"

    def cond(self, cond: Item) -> str:
        p, q = self.player, self.enemy
        if isinstance(cond, Atom):
            word = str(cond.value)
            return {
                "empty": "not h.get(c, b[c])" if self.counting else "not b[c]",
                "friend": f"OWN[b[c]] == {p}",
                "enemy": f"OWN[b[c]] == {q}",
                "captured": "c in cap",
                "last-to": "c == lt",
                "last-from": "c == lf",
                "attacked": "False" if self.quiet else f"attacked(b, c, {q}, lf, lt, mc)",
                "check": "False" if self.quiet else f"attacked(b, f, {q}, lf, lt, mc)",
                "flipped": "eff != ()",
                "flag": "fl",
                "at-origin": "c == f",
                "true": "True",
                "false": "False",
            }[word]
        head = cond.head
        args = cond.args
        if head == "not":
            return f"not ({self.cond(args[0])})"
        if head in ("and", "or"):
            return f" {head} ".join(f"({self.cond(a)})" for a in args)
        if head in ("piece", "friend", "enemy", "moving"):
            kinds = tuple(self.types.index(str(a.value)) for a in args)  # type: ignore[union-attr]
            where = "mc" if head == "moving" else "b[c]"
            test = f"TYP[{where}] in {kinds!r}"
            if head == "friend":
                test = f"OWN[b[c]] == {p} and {test}"
            elif head == "enemy":
                test = f"OWN[b[c]] == {q} and {test}"
            return test
        if head == "in-zone":
            z = self.zones.index(str(args[0].value))  # type: ignore[union-attr]
            return f"c in Z{z}_{p}"
        if head == "on-board":
            return f"{self.link(str(args[0].value))}[c] >= 0"  # type: ignore[union-attr]
        if head in ("counters", "counters-at-least"):
            op = "==" if head == "counters" else ">="
            return f"h.get(c, b[c]) {op} {args[0].value}"  # type: ignore[union-attr]
        if head == "next":
            link = self.link(str(args[0].value))  # type: ignore[union-attr]
            inner = self.cond(args[1])
            return f"(lambda c: c >= 0 and ({inner}))({link}[c])"
        if head == "exists":
            # The comprehension's own c runs over every position.
            return f"any(({self.cond(args[0])}) for c in ALL)"
        if head == "makes-line":
            return f"line_at(b, c, f, mc) >= {args[0].value}"  # type: ignore[union-attr]
        if head == "in-line":
            return f"b[c] and line_at(b, c, -1, b[c]) >= {args[0].value}"  # type: ignore[union-attr]
        if head == "only-lines":
            n = args[0].value  # type: ignore[union-attr]
            return f"all(line_at(b, x, -1, b[x]) >= {n} for x in ALL if OWN[b[x]] == {q})"
        if head == "pieces-at-most":
            n = args[0].value  # type: ignore[union-attr]
            return f"sum(1 for v in b if OWN[v] == {p}) <= {n}"
        if head == "attr":
            name = str(args[0].value)  # type: ignore[union-attr]
            if name not in self.design.attributes:
                return "False"
            return f"ATT[b[c]] & {1 << self.design.attributes.index(name)}"
        raise cond.error(f"cannot compile ({head} ...)")  # pragma: no cover


def _has_fork(item: Item) -> bool:
    """Whether a choice (``one-of``, ``anywhere``) sits anywhere inside ``item``."""
    if isinstance(item, Atom):
        return False
    if item.head in ("one-of", "anywhere"):
        return True
    return any(_has_fork(i) for i in item.items)


def _lines_through(row: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """For each position, the positions on its line along a direction (``row``: its links)
    both ways, itself included."""
    before = [-1] * len(row)
    for p, q in enumerate(row):
        if q >= 0 and before[q] < 0:
            before[q] = p
    out = []
    for p in range(len(row)):
        line = [p]
        for table in (row, before):
            q = table[p]
            while q >= 0 and q not in line:
                line.append(q)
                q = table[q]
        out.append(tuple(line))
    return tuple(out)


def _run_in_pieces(lines: list[str], filename: str, ns: dict[str, Any]) -> None:
    """Compile and run the generated module one top-level statement (a function) at a time,
    each keeping its line numbers. One ``compile`` of a whole description (chess: 6,000
    lines, a tenth of a second; more on a busy machine) holds the interpreter's lock all
    along, and the window compiles the descriptions on a thread while the menu shows: its
    frames waited that long. A function compiles in a few milliseconds."""
    start = 0
    for end in range(1, len(lines) + 1):
        if end == len(lines) or (lines[end][:1] not in ("", " ")):
            piece = "\n" * start + "\n".join(lines[start:end]) + "\n"
            pause()
            exec(compile(piece, filename, "exec"), ns)
            start = end


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
