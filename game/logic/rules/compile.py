"""Move programs compiled to Python functions, once per design.

Each program of a :class:`~game.logic.rules.design.Design`, read as its typed tree
(:mod:`game.logic.rules.tree`), becomes straight-line Python with
its direction steps turned into lookups in precomputed link tables (one table per direction as
each player sees it), its conditions into table lookups, its choices (``one-of``, ``if``) into
nested blocks and its ``while`` into a loop. The generated text holds only integers and the
names of tables this module builds; no word of the description reaches it, so the description
stays data. A generator function exists per piece type, player and move type; the text is
written by :class:`~game.logic.rules.writer.ProgramWriter`. For check,
:mod:`game.logic.rules.attacks` writes each player's attack test beside them.

Pieces are small integers: ``1 + player + players * (type + types * attributes)``, 0 for an
empty position; a piece's numbers are digits above its attributes' bits
(:mod:`game.logic.rules.piece_numbers`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from game.logic.pacing import pause
from game.logic.rules.attacks import write_attacks
from game.logic.rules.design import Design
from game.logic.rules.limits import Overflow
from game.logic.rules.piece_numbers import number_tables, span_of
from game.logic.rules.read_tree import check
from game.logic.rules.sexpr import DescriptionError, Item
from game.logic.rules.teams import enemy_code, foes
from game.logic.rules.tree import Cond
from game.logic.rules.writer import AGAIN, GOTO, LABELS, MAX_LINES, PROGRAM, ProgramWriter

__all__ = ["AGAIN", "GOTO", "LABELS", "PROGRAM", "Compiled", "compile_design"]

Generator = Callable[..., None]
Probe = Callable[..., bool]


@dataclass
class Compiled:
    """The tables and functions of a design; see :mod:`game.logic.rules.rulebook`."""

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
    codes = 1 + players * types * (1 << n_attr) * span_of(design)

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
        **number_tables(design, codes, kind_of, attrs_of, owner, code),
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
    for p in range(players):
        ns[f"FOE{p}"] = frozenset(foes(p, players, design.teams))
    zone_names = list(board.zones)
    for z, name in enumerate(zone_names):
        for p in range(players):
            ns[f"Z{z}_{p}"] = board.zones[name][p]
    program_table: list[tuple[int, str, str, bool]] = []
    writer = ProgramWriter(design, zone_names, players)
    writer.ns = ns
    ns["OVER"] = Overflow(design.source, writer.limit_forms)
    for t, piece in enumerate(design.pieces):
        for program in piece.programs:
            check(program.tree, design, program.where)  # a tree built in code, too
            program_table.append((t, program.name, program.kind, program.drop))
    ns["attacked"] = None  # set by the rulebook (it needs the probes)
    ns["line_at"] = None  # set by the rulebook: the line through a position
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

    def cond_for(player: int) -> Callable[[Cond], str]:
        writer.player, writer.enemy, writer.quiet = player, enemy_code(player, players), True
        return writer.cond

    writer.origins.append((len(writer.lines), None))  # the attack tests: no form of their own
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
    try:
        _run_in_pieces(writer.lines, f"<rules {design.id}>", ns)
    except (SyntaxError, RecursionError, MemoryError) as exc:
        # A limit of Python's compiler the writer's own bounds did not foresee: the form
        # that wrote the line is named, never a traceback.
        raise _too_intricate(design, writer.origins, exc) from None
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


def _too_intricate(
    design: Design, origins: Sequence[tuple[int, Item | None]], exc: BaseException
) -> DescriptionError:
    """The error for generated text that Python could not compile, at the form that wrote
    the line it names (``origins``: where each form's text begins)."""
    why = exc.msg if isinstance(exc, SyntaxError) else type(exc).__name__
    message = f"this move program is too intricate for Python to compile ({why}); nest less"
    line = getattr(exc, "lineno", None)
    if line:
        at = bisect.bisect_right([start for start, _ in origins], line - 1) - 1
        form = origins[at][1] if at >= 0 else None
        if form is not None:
            return form.error(message)
    return DescriptionError(message, design.source)


def _ident(word: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in word)


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
