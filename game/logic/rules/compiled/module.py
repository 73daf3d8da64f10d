"""The whole numba module of one design: its tables as arrays, the move generators
(:mod:`~game.logic.rules.compiled.statements`), the attack probes written by
:func:`~game.logic.rules.attacks.write_attacks` (the same backward walks the Python back end
runs, with this back end's conditions), and the kernels that every game shares in shape:
pseudo-legal generation by piece type, the royal pieces' safety, apply and undo, perft.

State: the board ``b`` (int64, a piece code per position as in
:mod:`game.logic.rules.compile`), the turn (an index into the turn order), the last move's
ends ``lf`` and ``lt``. A move is a row of ints: from, to, program, captures, changes, then the
changes as (position, piece) pairs applied in order (the start emptied, each capture, each
cascade's two, the landing), so applying and undoing a move never asks what kind it is.
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.attacks import Irreversible, write_attacks
from game.logic.rules.compile import compile_design
from game.logic.rules.compiled.counters import (
    counter_refusal,
    counter_width,
    counters_source,
    pieces_test,
)
from game.logic.rules.compiled.hands import (
    drop_lines,
    drop_rows,
    hand_width,
    hands_source,
    no_mate_source,
    to_hand_lines,
)
from game.logic.rules.compiled.lines import lines_source
from game.logic.rules.compiled.outcome import outcome_source
from game.logic.rules.compiled.partial import (
    chain_source,
    chained,
    move_kinds,
    pseudo_return,
    raw_adders,
    row_width,
)
from game.logic.rules.compiled.playout import playout_source
from game.logic.rules.compiled.scans import scans_source
from game.logic.rules.compiled.stacks import stack_return, stack_width, stacks_source
from game.logic.rules.compiled.statements import (
    HEAD,
    StatementWriter,
    Unsupported,
    adder_name,
    program_bounds,
)
from game.logic.rules.compiled.turns import turn_refusal, turns_source
from game.logic.rules.design import Design
from game.logic.rules.writer import ProgramWriter

__all__ = ["VERSION", "module_source"]

#: The generator's version: part of the cached module's key (a new generator writes anew).
VERSION: Final = 16

#: The signatures of the generated functions: given, so that numba compiles each once (called
#: with a literal argument, a function without one is compiled again for each value: the
#: shared ``add`` was compiled 46 times for chess, half of the cold compile).
PROBE: Final = "boolean(int64[::1], int64, int64, int64)"
READER: Final = "boolean(int64[::1], int64, int64, int64, int64[::1])"
#: The same for the probe and reader written once, the attacker their last argument.
PROBE_ANY: Final = "boolean(int64[::1], int64, int64, int64, int64)"
READER_ANY: Final = "boolean(int64[::1], int64, int64, int64, int64[::1], int64)"
PROGRAM: Final = (
    "int64(int64[::1], int64, int64, int64, int64[:, ::1], int64, int64, int64, int64, "
    "int64[::1], int64[::1], int64)"
)
PSEUDO: Final = "int64(int64[::1], int64, int64, int64, int64[:, ::1], int64[::1], int64[::1])"

#: The most lines of move programs that ``pseudo`` has inlined (``inline="always"``: the
#: calls' cost goes, the generator loop's code grows). English draughts (12 calls, 230 lines)
#: plays twice as many random games a second inlined; chess (40 calls, 900 lines) fewer, and
#: compiles 40% longer: its programs stay functions of their own.
INLINE_LINES: Final = 400

#: The most moves one position may have in the compiled back end.
MAX_ROWS: Final = 512

#: The Design fields the spike does not compile yet: a design with any set stays on Python.
_REFUSED: Final = (
    "face_down", "dice", "captured_home", "tallies", "groups",
    "concealed", "free_partial", "take_own", "random_players",
    "labels", "teams", "turn_seats", "turn_jumps",
)  # fmt: skip

#: The kernels every module holds, in the order they must be defined (each compiles when
#: defined, and reads the ones before it): helpers, then (after the probes) the attack
#: test, then (after the programs and ``pseudo``) ``legal`` and ``perft``.
_HELPERS: Final = """
@njit("boolean(int64[::1], int64, int64)", cache=True)
def incap(cs, ncap, c):
    for i in range(ncap):
        if cs[i] == c:
            return True
    return False


@njit("void(int64[::1], int64[::1], int64[::1])", cache=True)
def apply(b, row, undo):
    for i in range(row[4]):
        p = row[HEAD + 2 * i]
        undo[i] = b[p]
        b[p] = row[HEAD + 2 * i + 1]


@njit("void(int64[::1], int64[::1], int64[::1])", cache=True)
def unapply(b, row, undo):
    for i in range(row[4] - 1, -1, -1):
        b[row[HEAD + 2 * i]] = undo[i]
"""

_ATTACKED: Final = '''
@njit("boolean(int64[::1], int64, int64, int64, int64, int64)", cache=True)
def attacked(b, square, by, lf, lt, piece):
    """Whether a move of ``by`` could capture on ``square`` (``piece`` standing there for
    the question when not 0)."""
    saved = b[square]
    if piece != 0:
        b[square] = piece
    hit = PROBE_CALL
    b[square] = saved
    return hit
'''

_DRIVERS: Final = '''
#: The signature of ``moves`` and ``legal``.
MOVES = (
    "int64(int64[::1], int64, int64, int64, int64[:, ::1], int64[::1], int64[::1], "
    "int64[::1])"
)


@njit("boolean(int64[::1], int64[::1], int64, int64[::1])", cache=True)
def safe(b, row, player, undo):
    """Whether the move ``row`` leaves none of ``player``'s royal pieces attacked."""
    apply(b, row, undo)
    ok = True
    for k in range(NPOS):
        v = b[k]
        if v != 0 and ROYAL[v] and OWN[v] == player:
            if attacked(b, k, 1 - player, row[0], row[1], 0):
                ok = False
                break
    unapply(b, row, undo)
    return ok


@njit(MOVES, cache=True)
def moves(b, turn, lf, lt, out, cs, es, undo):
    """The moves into ``out`` that leave the mover's royal pieces safe; their count (past
    ``out``'s rows: the count alone). With one royal piece not in check, the probes note the
    positions their answer reads (``reader``): a move that changes none of them and does not
    move the royal piece cannot expose it, and is kept without playing it out."""
    player = PLAYER[turn]
    n = by_kind(out, pseudo(b, player, lf, lt, out, cs, es), turn)
    if n > out.shape[0] or not ROYAL_ANY:
        return n
    king = -1
    kings = 0
    if READERS:
        for k in range(NPOS):
            v = b[k]
            if v != 0 and ROYAL[v] and OWN[v] == player:
                king = k
                kings += 1
    read = np.zeros(b.shape[0], dtype=np.int64)  # (hand cells: never read)
    quiet = kings == 1 and not reader(b, king, 1 - player, lf, lt, read)
    kept = 0
    for i in range(n):
        row = out[i]
        touched = 1
        if quiet and row[0] != king:
            touched = 0
            for j in range(row[4]):
                touched |= read[row[HEAD + 2 * j]]
        if touched == 0 or safe(b, row, player, undo):
            if kept != i:
                out[kept, :] = row
            kept += 1
    return kept

'''

#: ``legal``, perft, playouts: after the hands' ``no_mate`` (which calls ``moves``).
_PLAY: Final = '''
@njit(MOVES, cache=True)
def legal(b, turn, lf, lt, out, cs, es, undo):
    """The legal moves into ``out``, and their count: a pass alone (a row of no change that
    keeps the last move's ends, program -1) for a player who has none where the game lets
    them pass and the next player has one."""
    n = no_mate(b, turn, out, moves(b, turn, lf, lt, out, cs, es, undo), cs, es)
    if n == 0 and PASS_WHEN_STUCK and moves(b, NEXT[turn], lf, lt, out, cs, es, undo) > 0:
        out[0, :] = 0
        out[0, 0] = lf
        out[0, 1] = lt
        out[0, 2] = -1
        return 1
    return n


@njit(
    "int64(int64[::1], int64, int64, int64, int64, int64[:, :, ::1], int64[::1], "
    "int64[::1], int64[:, ::1])",
    cache=True,
)
def perft(b, turn, lf, lt, depth, rows, cs, es, undo):
    """Move paths of length ``depth``, walked with a stack of plies (numba does not cache a
    function that calls itself): a position where the game has ended counts 0, and the last
    ply is counted in bulk; -1 when a position has more moves than a row buffer holds."""
    n = legal(b, turn, lf, lt, rows[depth], cs, es, undo[depth])
    if n > rows.shape[1]:
        return -1
    if ended(b, turn, lf, lt, n):
        return ENDED_LEAF
    if depth == 1:
        return n
    counts = np.zeros(depth + 1, dtype=np.int64)
    index = np.zeros(depth + 1, dtype=np.int64)
    turns = np.zeros(depth + 1, dtype=np.int64)
    counts[depth] = n
    turns[depth] = turn
    total = 0
    d = depth
    while True:
        if index[d] >= counts[d]:
            if d == depth:
                return total
            d += 1
            unapply(b, rows[d, index[d]], undo[d])
            index[d] += 1
            continue
        row = rows[d, index[d]]
        apply(b, row, undo[d])
        after = turn_after(turns[d], row[2])
        m = legal(b, after, row[0], row[1], rows[d - 1], cs, es, undo[d - 1])
        if m > rows.shape[1]:
            return -1
        stop = ended(b, after, row[0], row[1], m)  # its paths end there, counting 0
        if stop or d == 2:
            total += ENDED_LEAF if stop else m
            unapply(b, row, undo[d])
            index[d] += 1
        else:
            d -= 1
            counts[d] = m
            index[d] = 0
            turns[d] = after

'''


def module_source(design: Design) -> str:
    """The numba module's text for ``design``; raises :class:`Unsupported` when the design
    uses a form or a rule this back end does not compile yet."""
    for name in _REFUSED:
        if (
            any(getattr(design, name, None) or ())
            if name == "turn_kinds"
            else getattr(design, name, None)
        ):
            raise Unsupported(f"the rule {name}")
    refused = counter_refusal(design)
    if refused:
        raise Unsupported(refused)
    if design.perft_past_ends:
        raise Unsupported("perft conventions other than the default")
    if any(p.numbers for p in design.pieces):
        raise Unsupported("piece numbers")
    refused = turn_refusal(design)
    if refused:
        raise Unsupported(refused)
    compiled = compile_design(design)  # the tables, the same codes as the Python back end
    players = len(design.players)
    zones = list(design.board.zones)
    python = ProgramWriter(design, zones, players)  # only for its loop facts
    writer = StatementWriter(design, zones, python.acyclic, python.loop_cap)
    ns: dict[str, Any] = {}

    def cond_for(player: int) -> Any:
        writer.player, writer.quiet = player, True
        return writer.cond

    def attacks(out: list[str], tables: dict[str, Any], one: bool) -> Any:
        if one:  # a probe's conditions for its argument p
            writer.player, writer.quiet = None, True
        return write_attacks(
            design,
            out,
            tables,
            cond_for,
            python.acyclic,
            python.loop_cap,
            compiled.owner,
            compiled.kind_of,
            writer.cond if one else None,
        )

    # The probes written once, the attacker their argument (half the functions to compile),
    # else (a program whose probe differs between the players) once per attacker.
    one = True
    probe_lines: list[str] = []
    try:
        found = attacks(probe_lines, ns, True)
    except Irreversible:
        one, probe_lines, ns = False, [], {}
        found = attacks(probe_lines, ns, False)
    _modes, _counts, readable, slow = found
    if any(slow):
        raise Unsupported("a capture the check test runs forward (no backward walk)")
    lines = _tables(design, compiled, zones, ns)
    lines += hands_source(design, compiled)
    lines += scans_source(design)
    lines += [f"HEAD = {HEAD}", *_HELPERS.splitlines()]
    lines += stacks_source(design, compiled.codes)
    lines += counters_source(design)
    lines += turns_source(design, compiled)
    lines += probe_lines
    if one:
        lines += [f'P = njit("{PROBE_ANY}", cache=True)(P)', ""]
    else:
        lines += [f'P{a} = njit("{PROBE}", cache=True)(P{a})' for a in range(players)] + [""]
    # The readers (R<a>: the probe, noting each position read) where every probe reads only
    # the squares it walks; else reader() answers "in check" and every move is played out.
    readers = all(readable)
    lines.append(f"READERS = {readers}")
    if readers and one:
        lines.append(f'R = njit("{READER_ANY}", cache=True)(R)')
    elif readers:
        lines += [f'R{a} = njit("{READER}", cache=True)(R{a})' for a in range(players)]
    lines += _reader(readers, one)
    lines += _attacked(one)
    lines += outcome_source(design, zones, compiled)
    if chained(design):  # every add writes a raw row (game.logic.rules.compiled.partial)
        writer.raw_kinds = move_kinds(design)
    programs = _generators(design, writer, compiled)  # (first: it finds the adders' shapes)
    lines += lines_source(design) if writer.line_counts else []
    for shape in sorted(writer.adders):
        lines += adder_source(*shape, to_hand_lines(design, shape[0], shape[1]))
    lines += raw_adders(design)
    lines += programs
    lines += _DRIVERS.splitlines()
    lines += no_mate_source(design)
    lines += _PLAY.splitlines()
    lines += playout_source(design, zones)
    return "\n".join(lines) + "\n"


#: The signature of every adder.
ADDER: Final = (
    "int64(int64[::1], int64[:, ::1], int64, int64, int64, int64, int64, int64[::1], int64, "
    "int64[::1], int64)"
)


def adder_source(drop: bool, captures: bool, extra: int, more: list[str]) -> list[str]:
    """The adder of one shape of ``add`` (see :func:`adder_name`): the move so far as a row of
    ``out``, its changes in the order the Python back end makes them (the start emptied, not
    for a drop, whose row starts from -1; each capture; the cascades' changes; the piece
    landing). A friend on the landing makes no move. Written per shape so that what the shape
    rules out is not in its code (one adder for every call, its counts unknown, made chess's
    perft twice as slow). ``more``: lines that add changes after the landing (captures to
    hand)."""
    name = adder_name(drop, captures, extra)
    body = [
        "",
        "",
        f'@njit("{ADDER}", cache=True)',
        f"def {name}(b, out, n, f, c, mc, pid, cs, ncap, es, neff):",
        "    x = b[c]",
        "    takes = 0",
        "    if x != 0 and c != f:",
        "        if OWN[x] == OWN[mc]:",
        "            return n",
        "        takes = 1",
        "    if n >= out.shape[0]:",
        "        return n + 1  # counted, not written: the caller reports the overflow",
        "    row = out[n]",
        f"    row[0] = {'-1' if drop else 'f'}",
        "    row[1] = c",
        "    row[2] = pid",
        f"    row[3] = {'ncap + takes' if captures else 'takes'}",
        f"    k = {HEAD}",
    ]
    if not drop:
        body += ["    row[k] = f", "    row[k + 1] = 0", "    k += 2"]
    landing = ["row[k] = c", "row[k + 1] = mc", "k += 2"]
    if captures:  # a piece that took itself where it stands is gone, and lands nowhere
        body.append(f"    gone = {'False' if drop else 'c == f and incap(cs, ncap, f)'}")
        body += ["    if not gone:", "        for i in range(ncap):", "            if cs[i] != c:"]
        body += ["                row[k] = cs[i]", "                row[k + 1] = 0"]
        body.append("                k += 2")
    if extra:  # the cascades' and flips' changes, as many as known here (or neff)
        count = "2 * neff" if extra < 0 else str(2 * extra)
        body += [f"    for i in range({count}):", "        row[k + i] = es[i]"]
        body.append(f"    k += {count}")
    if captures:
        body += ["    if not gone:", *(f"        {line}" for line in landing)]
    else:
        body += [f"    {line}" for line in landing]
    body += [*more, f"    row[4] = (k - {HEAD}) // 2", "    return n + 1", "", ""]
    return body


def _reader(readers: bool, one: bool) -> list[str]:
    """``reader(b, square, by, lf, lt, read)``: whether ``by`` attacks ``square``, setting in
    ``read`` a bit per probe program at each position its answer depends on (``one``: the
    reader written once, ``by`` its argument)."""
    call = "R0(b, square, lf, lt, read) if by == 0 else R1(b, square, lf, lt, read)"
    if one:
        call = "R(b, square, lf, lt, read, by)"
    return [
        "",
        "",
        '@njit("boolean(int64[::1], int64, int64, int64, int64, int64[::1])", cache=True)',
        "def reader(b, square, by, lf, lt, read):",
        f"    return {call if readers else 'True'}",
        "",
        "",
    ]


def _attacked(one: bool) -> list[str]:
    """``attacked``, calling the probe written once or each attacker's."""
    call = (
        "P(b, square, lf, lt, by)"
        if one
        else "P0(b, square, lf, lt) if by == 0 else P1(b, square, lf, lt)"
    )
    return _ATTACKED.replace("PROBE_CALL", call).splitlines()


def _array(name: str, values: Any, dtype: str = "np.int64") -> str:
    return f"{name} = np.array({values!r}, dtype={dtype})"


def _tables(design: Design, compiled: Any, zones: list[str], ns: dict[str, Any]) -> list[str]:
    board = design.board
    n = len(board.names)
    royal = [bool(v) and compiled.kind_of[v] in design.royal for v in range(compiled.codes)]
    set_rows, clear_rows = [], []
    for a, name in enumerate(design.attributes):
        on, off = list(range(compiled.codes)), list(range(compiled.codes))
        for v in range(1, compiled.codes):
            if name in design.pieces[compiled.kind_of[v]].attributes:
                on[v] = compiled.code(
                    compiled.owner[v], compiled.kind_of[v], compiled.attrs[v] | 1 << a
                )
                off[v] = compiled.code(
                    compiled.owner[v], compiled.kind_of[v], compiled.attrs[v] & ~(1 << a)
                )
        set_rows.append(on)
        clear_rows.append(off)
    zone_rows = [
        [[1 if x in board.zones[z][p] else 0 for x in range(n)] for p in range(len(design.players))]
        for z in zones
    ] or [[[0] * n] * len(design.players)]
    steps = len(design.turn_order)
    nexts = [s + 1 if s + 1 < steps else design.repeat_from for s in range(steps)]
    lines = [
        f"# The compiled back end's module of {design.id} (generator version {VERSION}).",
        "import numpy as np",
        "from numba import njit",
        "",
        "ONE = (0,)",
        f"NPOS = {n}  # the board's positions: the first cells of the state",
        _array("OWN", list(compiled.owner)),
        _array("TYP", list(compiled.kind_of)),
        _array("ATT", list(compiled.attrs)),
        _array("SET", set_rows or [list(range(compiled.codes))]),
        _array("CLR", clear_rows or [list(range(compiled.codes))]),
        _array("L", [list(row) for row in board.links]),
        _array("SYM", [list(row) for row in board.symmetry]),
        _array("ZONE", zone_rows, "np.bool_"),
        _array("ROYAL", royal, "np.bool_"),
        _array("DARK", [1 if x in board.dark else 0 for x in range(n)]),
        _array("OFF", [1 if x in board.off_board else 0 for x in range(n)]),
        f"ROYAL_ANY = {bool(design.royal)}",
        _array("FLIP", list(compiled.flip)),
        f"PASS_WHEN_STUCK = {design.pass_when_stuck}",
        f"ENDED_LEAF = {1 if design.perft_ended_leaves else 0}",
        _array("PLAYER", list(design.turn_order)),
        _array("NEXT", nexts),
    ]
    for name, value in sorted(ns.items()):  # the probes' tables (RV<d>, AH<a>_<g>; RB, AH<g>)
        first = value
        while isinstance(first, tuple) and first:  # (a table of rows: its first cell)
            first = first[0]
        dtype = "np.bool_" if isinstance(first, bool) else "np.int64"
        lines.append(_array(name, list(value), dtype))
    return lines


def _inlined(sizes: dict[str, int], calls: list[list[tuple[str, int]]]) -> str:
    """The program functions' njit option: inlined into their callers (``pseudo``, the
    partial moves' ``cont``) where the bodies at ``pseudo``'s call sites come to at most
    :data:`INLINE_LINES` lines together, else called."""
    total = sum(sizes[name] for programs in calls for name, _ in programs)
    return ', inline="always"' if total <= INLINE_LINES else ""


def _generators(design: Design, writer: StatementWriter, compiled: Any) -> list[str]:
    """A function per distinct move program (the queen's slides are the rook's and the
    bishop's: one function each, numbered by the caller), for every player at once, and
    ``pseudo`` that runs each piece's programs in the order the description gives them."""
    functions: dict[tuple[bool, tuple[tree.Stmt, ...]], str] = {}
    sizes: dict[str, int] = {}  # each function's lines
    calls: list[list[tuple[str, int]]] = []  # per piece type: (function, program id)
    drops: list[list[tuple[str, int]]] = []  # the same for its drops
    pid = 0
    for piece in design.pieces:
        calls.append([])
        drops.append([])
        for program in piece.programs:
            key = (program.drop, tuple(program.tree))
            if key not in functions:
                functions[key] = f"prog_{len(functions)}"
                before = len(writer.lines)
                writer.function(functions[key], key[1], program.drop)
                sizes[functions[key]] = len(writer.lines) - before
            (drops if program.drop else calls)[-1].append((functions[key], pid))
            pid += 1
    lines = [*writer.helpers, *writer.lines]
    inline = _inlined(sizes, [*calls, *drops])
    for name in functions.values():
        lines.append(f'{name} = njit("{PROGRAM}", cache=True{inline})({name})')
    lines += chain_source(design, calls, compiled)  # partial moves grown, moves selected
    lines += [
        "",
        "",
        f'@njit("{PSEUDO}", cache=True)',
        "def pseudo(b, player, lf, lt, out, cs, es):",
        "    n = 0",
        "    for f in range(NPOS):",
        "        v = b[f]",
        *pieces_test(design),
    ]
    word = "if"
    for t, programs in enumerate(calls):
        if not programs:
            continue
        lines.append(f"        {word} t == {t}:")
        word = "elif"
        for name, number in programs:
            lines.append(
                f"            n = {name}(b, f, player, {number}, out, n, lf, lt, v, cs, es, 0)"
            )
    lines += drop_lines(design, drops)
    lines.append(f"    return {stack_return(design, pseudo_return(design))}")
    width = row_width(design) + hand_width(design, program_bounds(design)[0])
    width += stack_width(design)
    width = max(width, counter_width(design))
    lines += ["", f"WIDTH = {width}", f"ROWS = {MAX_ROWS + drop_rows(design)}"]
    return lines
