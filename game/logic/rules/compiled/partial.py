"""Partial moves compiled (``add-partial``: the draughts' multiple captures): a move that
can go on is grown by its move type's programs from where it stopped, depth first, with an
explicit stack of rows (numba does not cache a function that calls itself), by the Python
back end's rules (:meth:`~game.logic.rules.rulebook.Rulebook._chains`): a continuation must
capture more than the move so far; the pieces taken stay on the board until the move ends
(so ``captured`` keeps a piece from being jumped twice, and a flying king stops at one);
the moving piece has left its start; ``promote-at-end`` crowns on the square the whole move
ends on; the pieces taken leave the board when it ends.

In a design with partial moves every ``add`` and ``add-partial`` writes a *raw* row (see
:data:`RAW`): from, to, program, captures, the move type to continue with (-1: it ends
here), the piece, a spare column, the continuations so far, the path's length, then the
captured positions in order and the path. ``finish`` turns the raw rows of ``pseudo`` into
moves: a row that ends is written as the Python back end writes it; a partial one is grown
on a stack kept at the far end of the same buffer (its continuations are written just past
the moves finished so far, the ones that capture more pushed, the first on top), each row
that cannot go on written as a move. Then the finished moves go down to the buffer's start
and the selection passes (:mod:`~game.logic.rules.compiled.select`) keep what the rules
allow. Where the moves grown do not fit in the position's buffer before they are selected
(a flying king among many pieces), they grow again in a larger one made for them. A
finished move's row holds, after its changes, its captures in order, the path's length and
the path (the squares the piece visits: notation and matching read them).
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.compiled.select import select_source
from game.logic.rules.compiled.statements import HEAD, Unsupported, move_width
from game.logic.rules.design import Design

__all__ = [
    "RAW",
    "chain_source",
    "chained",
    "check",
    "move_kinds",
    "pseudo_return",
    "raw_adders",
    "row_path",
    "row_width",
]

#: The columns of a raw row before its captures: from, to, program, captures, the move type
#: it goes on with (-1: none), the piece, a spare column, the continuations so far, the
#: path's length.
RAW: Final = 9

#: The continuations one move may have, as the Python back end grows them (past it, the move
#: so far ends where it stands).
MAX_CHAIN_DEPTH: Final = 64

#: The rows a position's composite moves may take while they grow, before they are selected
#: (the Python back end's bound is 20,000 for each partial move).
CHAIN_ROWS: Final = 1 << 14

#: The signature of a raw adder and of ``cont``.
RAW_ADDER: Final = (
    "int64(int64[::1], int64[:, ::1], int64, int64, int64, int64, int64, int64[::1], int64, int64)"
)
CONT: Final = (
    "int64(int64[::1], int64, int64, int64, int64[:, ::1], int64, int64, int64, int64, "
    "int64[::1], int64[::1], int64)"
)


def chained(design: Design) -> bool:
    """Whether some program of ``design`` makes a partial move (``add-partial``)."""
    return any(
        isinstance(node, tree.AddPartial)
        for piece in design.pieces
        for program in piece.programs
        for node in tree.walk(program.tree)
    )


def move_kinds(design: Design) -> dict[str, int]:
    """Every move type the design names (its programs' and its partial moves'), numbered."""
    names = {program.kind for piece in design.pieces for program in piece.programs}
    names |= {
        node.kind
        for piece in design.pieces
        for program in piece.programs
        for node in tree.walk(program.tree)
        if isinstance(node, tree.AddPartial)
    }
    names |= set(design.compulsory)
    return {name: i for i, name in enumerate(sorted(names))}


def _bounds(design: Design) -> tuple[int, int]:
    """The most captures of one composite move (every position of the board, each taken
    once; the raw adder refuses more at run time) and the longest path (every continuation
    captures more, so at most one more than the captures and the first step)."""
    captures = len(design.board.names)
    return captures, captures + 2


def row_width(design: Design) -> int:
    """The columns of a move row: :func:`~game.logic.rules.compiled.statements.move_width`,
    or where partial moves are grown, room for a finished composite move (its changes: the
    start emptied, each capture, the landing; then its captures, the path's length, the
    path), which also holds any raw row."""
    if not chained(design):
        return move_width(design)
    captures, path = _bounds(design)
    return HEAD + 2 * (captures + 2) + captures + 1 + path


def check(design: Design) -> None:
    """Raise :class:`Unsupported` for partial moves this back end does not grow yet."""
    for piece in design.pieces:
        for program in piece.programs:
            for node in tree.walk(program.tree):
                if isinstance(node, tree.Cascade) or node == tree.Act("flip"):
                    raise Unsupported("a cascade or flip in a game with partial moves")


def raw_adders(design: Design) -> list[str]:
    """Where ``design`` grows partial moves, the raw rows' sizes and the two raw adders (a
    piece that moves, a piece put down): the move so far as a raw row, taking the piece on
    the landing square as the Python back end's ``add`` does (a friend there makes no
    move). Defined before the programs that call them."""
    if not chained(design):
        return []
    check(design)
    captures, path = _bounds(design)
    lines = [
        "",
        f"RAW = {RAW}",
        f"CAPMAX = {captures}",
        f"PATHMAX = {path}",
        f"MAX_CHAIN_DEPTH = {MAX_CHAIN_DEPTH}",
        f"CHAIN_ROWS = {CHAIN_ROWS}",
    ]
    drops = any(program.drop for piece in design.pieces for program in piece.programs)
    for name, start in (("raw_move", "f"), ("raw_drop", "-1"))[: 2 if drops else 1]:
        lines += [
            "",
            "",
            f'@njit("{RAW_ADDER}", cache=True)',
            f"def {name}(b, out, n, f, c, mc, pid, cs, ncap, kind):",
            "    x = b[c]",
            "    takes = 1 if x != 0 and c != f else 0  # the piece there is taken",
            "    if takes and OWN[x] == OWN[mc]:",
            "        return n  # a friend: no move",
            "    if n >= out.shape[0] or ncap + takes > CAPMAX:",
            "        return out.shape[0] + 1  # the caller reports the overflow",
            "    row = out[n]",
            f"    row[0] = {start}",
            "    row[1] = c",
            "    row[2] = pid",
            "    row[3] = ncap + takes",
            "    row[4] = kind",
            "    row[5] = mc",
            "    row[7] = 0",
            "    for i in range(ncap):",
            "        row[RAW + i] = cs[i]",
            "    k = RAW + ncap",
            "    if takes:",
            "        row[k] = c",
            "        k += 1",
            f"    row[8] = {'2' if start == 'f' else '1'}",
            "    row[k] = f" if start == "f" else "    row[k] = c",
            "    row[k + 1] = c" if start == "f" else "",
            "    return n + 1",
        ]
    return lines


def pseudo_return(design: Design) -> str:
    """What ``pseudo`` returns from its ``n`` rows: grown and selected, selected, or as is."""
    if chained(design):
        return "finish(b, player, lf, lt, out, n, cs, es)"
    if design.compulsory or design.most_captures or design.identity == "from-to-captured":
        return "select(b, out, n, False)"
    return "n"


def chain_source(design: Design, calls: list[list[tuple[str, int]]], codes: Any) -> list[str]:
    """The tables, ``cont`` (a type's programs of one move type, from a square) and
    ``finish`` for ``design`` (nothing but the selection where it has no partial moves);
    ``calls`` holds each piece type's (function, program id) in order, ``codes`` the
    Python back end's compiled tables (piece codes)."""
    kinds = move_kinds(design)
    every = [program for piece in design.pieces for program in piece.programs]
    kind_of_program = [kinds[program.kind] for program in every]
    tails = chained(design)
    lines = select_source(design, kinds, kind_of_program, tails)
    if not tails:
        return lines
    lines += [
        "",
        f"PAE = np.array({_promotions(design, codes)!r}, dtype=np.int64)",
        "",
        "",
        f'@njit("{CONT}", cache=True)',
        "def cont(b, at, p, kind, out, n, lf, lt, mc, cs, es, ncap0):",
        '    """The moves of type ``kind`` of the piece ``mc`` standing at ``at``."""',
        "    t = TYP[mc]",
    ]
    word = "if"
    for t, programs in enumerate(calls):
        by_kind: dict[int, list[tuple[str, int]]] = {}
        for name, pid in programs:
            by_kind.setdefault(kind_of_program[pid], []).append((name, pid))
        if not by_kind:
            continue
        lines.append(f"    {word} t == {t}:")
        word = "elif"
        inner = "if"
        for kind, chosen in sorted(by_kind.items()):
            lines.append(f"        {inner} kind == {kind}:")
            inner = "elif"
            lines += [
                f"            n = {name}(b, at, p, {pid}, out, n, lf, lt, mc, cs, es, ncap0)"
                for name, pid in chosen
            ]
    lines.append("    return n")
    lines += _FINISH.splitlines()
    return lines


def row_path(row: Any) -> tuple[int, ...]:
    """The path of a finished move's row (the squares its piece visits) in a design with
    partial moves."""
    at = HEAD + 2 * int(row[4]) + int(row[3])
    return tuple(int(x) for x in row[at + 1 : at + 1 + int(row[at])])


def _promotions(design: Design, codes: Any) -> list[list[list[int]]]:
    """``PAE[player, piece, square]``: the piece a composite move of ``player`` ending on
    ``square`` leaves there (``promote-at-end``), the piece itself where none applies."""
    n = len(design.board.names)
    table = []
    for player in range(len(design.players)):
        rows = []
        for v in range(codes.codes):
            row = [v] * n
            at_end = design.pieces[codes.kind_of[v]].promote_at_end if v else None
            if at_end is not None:
                kind, zone = at_end
                crowned = codes.code(player, design.type_index(kind))
                for square in design.board.zones[zone][player]:
                    row[square] = crowned
            rows.append(row)
        table.append(rows)
    return table


_FINISH: Final = '''

@njit(
    "void(int64[::1], int64, int64, int64, int64, int64[::1], int64, int64[::1], int64)",
    cache=True,
)
def write_move(dst, f, last, pid, ncap, caps, final, trail, length):
    """A finished move's row, its changes as the Python back end makes them (the start
    emptied; each capture but one on the landing; the piece landing; only the first where
    the piece took itself where it stands), then its captures, the path's length, the path."""
    dst[0] = f
    dst[1] = last
    dst[2] = pid
    dst[3] = ncap
    k = HEAD
    if f >= 0:
        dst[k] = f
        dst[k + 1] = 0
        k += 2
    if not (f >= 0 and last == f and incap(caps, ncap, f)):
        for i in range(ncap):
            if caps[i] != last:
                dst[k] = caps[i]
                dst[k + 1] = 0
                k += 2
        dst[k] = last
        dst[k + 1] = final
        k += 2
    dst[4] = (k - HEAD) // 2
    for i in range(ncap):
        dst[k + i] = caps[i]
    k += ncap
    dst[k] = length
    for i in range(length):
        dst[k + 1 + i] = trail[i]


@njit("void(int64[::1], int64[::1], int64[::1])", cache=True)
def unpack(row, caps, trail):
    """A raw row's captures into ``caps`` and its path into ``trail``."""
    ncap = row[3]
    for i in range(ncap):
        caps[i] = row[RAW + i]
    for i in range(row[8]):
        trail[i] = row[RAW + ncap + i]


@njit(
    "int64(int64[::1], int64, int64, int64, int64[:, ::1], int64, int64[::1], int64[::1])",
    cache=True,
)
def grow(b, player, lf, lt, out, n, cs, es):
    """The moves of ``pseudo``'s ``n`` raw rows, partial ones grown to their ends, then
    selected; their count (past ``out``'s rows: too many, the raw rows left as they were)."""
    rows = out.shape[0]
    trail = es  # the path so far (the programs of a game with partial moves leave es alone)
    composite = False
    for i in range(n):
        if out[i, 4] >= 0:
            composite = True
            break
    if not composite:  # each row ends where it is: rewritten in place
        for i in range(n):
            row = out[i]
            f = row[0]
            if row[3] == 0 and f >= 0:  # a step: the start emptied, the piece landing
                to = row[1]
                mc = row[5]
                row[4] = 2
                row[HEAD] = f
                row[HEAD + 1] = 0
                row[HEAD + 2] = to
                row[HEAD + 3] = mc
                row[HEAD + 4] = 2  # no capture, then the path: two squares
                row[HEAD + 5] = f
                row[HEAD + 6] = to
            else:
                unpack(row, cs, trail)
                write_move(row, f, row[1], row[2], row[3], cs, row[5], trail, row[8])
        return select(b, out, n, False)
    m = n  # the finished moves go from row n on, the stack down from the last row
    for i in range(n):
        row = out[i]
        if m >= rows:
            return rows + 1
        if row[4] < 0:
            unpack(row, cs, trail)
            write_move(out[m], row[0], row[1], row[2], row[3], cs, row[5], trail, row[8])
            m += 1
            continue
        f = row[0]
        pid = row[2]
        top = rows - 1
        copy_row(out[top], row, RAW + row[3] + row[8])
        origin = b[f]
        b[f] = 0  # the piece has left its start for the rest of its move
        while top < rows:
            state = out[top]
            top += 1
            at = state[1]
            ncap = state[3]
            kind = state[4]
            mc = state[5]
            depth = state[7]
            length = state[8]
            unpack(state, cs, trail)
            kept = 0
            if kind >= 0 and depth < MAX_CHAIN_DEPTH:
                saved = b[at]
                b[at] = mc
                end = cont(b, at, player, kind, out[:top], m, lf, lt, mc, cs, es, ncap)
                b[at] = saved
                if end > top:
                    b[f] = origin
                    return rows + 1
                for r in range(m, end):  # a continuation must capture more
                    if out[r, 3] > ncap:
                        if m + kept != r:
                            copy_row(out[m + kept], out[r], RAW + out[r, 3])
                        kept += 1
                if top - kept < m:
                    b[f] = origin
                    return rows + 1
                for j in range(kept - 1, -1, -1):  # pushed so that the first is on top
                    src = out[m + j]
                    dst = out[top - kept + j]
                    taken = src[3]
                    to = src[1]
                    if top - kept != m:
                        copy_row(dst, src, RAW + taken)
                    dst[0] = f
                    dst[2] = pid
                    dst[7] = depth + 1
                    dst[8] = length + 1
                    for k in range(length):
                        dst[RAW + taken + k] = trail[k]
                    dst[RAW + taken + length] = to
                top -= kept
            if kept == 0:  # it cannot go on: a move
                if m >= top:
                    b[f] = origin
                    return rows + 1
                final = PAE[player, mc, at]
                write_move(out[m], f, at, pid, ncap, cs, final, trail, length)
                m += 1
        b[f] = origin
    for j in range(m - n):
        row = out[n + j]
        used = HEAD + 2 * row[4] + row[3]
        used += 1 + row[used]
        copy_row(out[j], row, used)
    return select(b, out, m - n, True)


@njit(
    "int64(int64[::1], int64, int64, int64, int64[:, ::1], int64, int64[::1], int64[::1])",
    cache=True,
)
def finish(b, player, lf, lt, out, n, cs, es):
    """``grow`` in ``out``; where the moves grown do not fit there before they are selected
    (a flying king among many pieces), again in a buffer of CHAIN_ROWS rows made for it, the
    moves selected then copied back; their count (past ``out``'s rows: an overflow)."""
    rows = out.shape[0]
    if n > rows:
        return n
    kept = grow(b, player, lf, lt, out, n, cs, es)
    if kept <= rows:
        return kept
    room = np.empty((CHAIN_ROWS, out.shape[1]), dtype=np.int64)
    for i in range(n):
        copy_row(room[i], out[i], RAW + out[i, 3] + out[i, 8])
    kept = grow(b, player, lf, lt, room, n, cs, es)
    if kept > rows:
        return kept
    for i in range(kept):
        row = room[i]
        used = HEAD + 2 * row[4] + row[3]
        copy_row(out[i], row, used + 1 + row[used])
    return kept
'''
