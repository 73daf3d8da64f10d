"""Pieces in hand in the compiled back end: drops from a counted hand, captures to the
captor's hand, drops first, moves that may not mate (:mod:`game.logic.rules.hands` is the
Python back end's reading of the same rules).

A hand is a run of cells after the board in the state array: ``NPOS + player * TYPES +
type`` holds how many pieces of ``type`` ``player`` has in hand (in a game whose hands are
counted: a setup ``(in-hand ...)`` or ``(captures-to-hand)``; other games have no such
cells). A move changes them as it changes the board, with (cell, count) pairs in its row, so
applying and undoing a move still never asks what kind it is: a drop takes one from the hand
(pairs added by ``pseudo`` after the drop program), a capture to hand adds the captured
piece's base type (the type it was promoted from) to the mover's hand (pairs added by the
adders, which know what the move captures).
"""

from __future__ import annotations

from typing import Final

from game.logic.rules import tree
from game.logic.rules.compile import Compiled
from game.logic.rules.compiled.statements import HEAD, Unsupported
from game.logic.rules.demotion import base_types
from game.logic.rules.design import Design

__all__ = [
    "drop_lines",
    "drop_rows",
    "hand_cells",
    "hand_width",
    "hands_source",
    "no_mate_source",
    "to_hand_lines",
]


def counted(design: Design) -> bool:
    """Whether ``design``'s hands are counted (and so kept in cells after the board)."""
    return bool(design.hands) or design.captures_to_hand


def hand_cells(design: Design) -> int:
    """The cells the hands take after the board: one per player and piece type, or none."""
    return len(design.players) * len(design.pieces) if counted(design) else 0


def hand_width(design: Design, captures: int) -> int:
    """The columns the hands add to a move row: a drop's one pair, or a pair per capture."""
    if not counted(design):
        return 0
    return 2 * max(1, captures if design.captures_to_hand else 0)


def drop_rows(design: Design) -> int:
    """The rows a position's drops may add to the moves of its pieces: one per position and
    type with a drop program in a game whose hands are counted (a shogi position with every
    type in hand has more than 512 moves), else none (drops of one kind fill a board once)."""
    if not counted(design):
        return 0
    types = sum(1 for piece in design.pieces if any(p.drop for p in piece.programs))
    return len(design.board.names) * types


def hands_source(design: Design, compiled: Compiled) -> list[str]:
    """The hands' tables and helpers, written before the adders that call them."""
    if design.captures_to_hand and any(
        isinstance(n, tree.Cascade)
        for piece in design.pieces
        for program in piece.programs
        for n in tree.walk(program.tree)
    ):
        raise Unsupported("captures to hand with a cascade")
    types = len(design.pieces)
    players = len(design.players)
    endless = [
        [1 if design.hands.get(p, {}).get(t, 0) >= 0 else 0 for t in range(types)]
        for p in range(players)
    ]
    no_mate = [1 if program[2] in design.no_mate else 0 for program in compiled.programs]
    lines = [
        f"TYPES = {types}",
        f"HAND_CELLS = {hand_cells(design)}",
        f"DROPS_FIRST = {design.drops_first}",
        f"NO_MATE_ANY = {any(no_mate)}",
        f"COUNTED = np.array({endless!r}, dtype=np.int64)",
        f"BASE = np.array({base_types(design) if design.captures_to_hand else [0]!r}, "
        "dtype=np.int64)",
        f"NO_MATE = np.array({no_mate or [0]!r}, dtype=np.int64)",
    ]
    if counted(design):
        lines += _IN_HAND.splitlines()
    if design.captures_to_hand:
        lines += _TO_HAND.replace("HEAD_", str(HEAD)).splitlines()
    return lines


#: ``in_hand``: the pieces ``p`` holds in hand, of every type (an end's ``none-left``
#: counts them as the Python back end does).
_IN_HAND: Final = """

@njit("int64(int64[::1], int64)", cache=True)
def in_hand(b, p):
    total = 0
    for t in range(TYPES):
        total += b[NPOS + p * TYPES + t]
    return total

"""


#: ``to_hand``: the captured piece ``v`` joins player ``p``'s hand as its base type; a row
#: that already changes that hand cell counts on from it (two captures of one type).
_TO_HAND: Final = """

@njit("int64(int64[::1], int64[::1], int64, int64, int64)", cache=True)
def to_hand(b, row, k, p, v):
    cell = NPOS + p * TYPES + BASE[TYP[v]]
    for j in range(HEAD_, k, 2):
        if row[j] == cell:
            row[j + 1] += 1
            return k
    row[k] = cell
    row[k + 1] = b[cell] + 1
    return k + 2

"""


def to_hand_lines(design: Design, drop: bool, captures: bool) -> list[str]:
    """The adder's lines (of one shape) that send what the move captures to the mover's
    hand: the landing's enemy, and each ``capture`` on the way (not a piece that took itself:
    it is gone and lands nowhere, as the Python back end has it only for its own hand)."""
    if not design.captures_to_hand:
        return []
    lines = ["    if takes:", "        k = to_hand(b, row, k, OWN[mc], x)"]
    if captures:
        lines += ["    for i in range(ncap):", "        if cs[i] != c or gone:"]
        lines += ["            k = to_hand(b, row, k, OWN[mc], b[cs[i]])"]
    return lines


def drop_lines(design: Design, drops: list[list[tuple[str, int]]]) -> list[str]:
    """``pseudo``'s drops (each type's drop programs at every position off no hand), after
    the moves of the pieces on the board: from a counted hand only while it holds one of the
    type, taking one from it; none of the board's moves where the hands must be emptied
    first."""
    lines: list[str] = []
    hands = counted(design)
    if design.drops_first and hands:
        lines += ["    for t in range(TYPES):", "        if b[NPOS + player * TYPES + t] > 0:"]
        lines += ["            n = 0  # pieces in hand must be put down before any moves"]
        lines += ["            break"]
    for t, programs in enumerate(drops):
        if not programs:
            continue
        indent = "    "
        if hands:
            lines.append(f"    h = NPOS + player * TYPES + {t}")
            lines.append(f"    if b[h] > 0 or not COUNTED[player, {t}]:")
            lines.append("        n0 = n")
            indent = "        "
        lines.append(f"{indent}for f in range(NPOS):")
        lines.append(f"{indent}    if OFF[f]:")
        lines.append(f"{indent}        continue")
        for name, number in programs:
            code = f"{1 + 2 * t} + player"  # the piece put down: type t, the player's
            lines.append(
                f"{indent}    n = {name}(b, f, player, {number}, out, n, lf, lt, {code}, cs, es, 0)"
            )
        if hands:  # each drop takes its piece from the hand
            lines.append(f"{indent}if COUNTED[player, {t}]:")
            lines.append(f"{indent}    for i in range(n0, min(n, out.shape[0])):")
            lines.append(f"{indent}        k = HEAD + 2 * out[i, 4]")
            lines.append(f"{indent}        out[i, k] = h")
            lines.append(f"{indent}        out[i, k + 1] = b[h] - 1")
            lines.append(f"{indent}        out[i, 4] += 1")
    return lines


#: ``mates(b, turn, row, cs, es)``: whether ``row`` (legal for the player at ``turn``) is a
#: move of a ``no-mate`` type that leaves the next player in check with no legal move.
#: Defined after ``moves`` (which it calls), before ``legal`` and ``playout`` (which call it).
_NO_MATE: Final = '''

@njit("boolean(int64[::1], int64, int64[::1], int64[::1], int64[::1])", cache=True)
def mates(b, turn, row, cs, es):
    if row[2] < 0 or not NO_MATE[row[2]]:
        return False
    undo = np.empty(row.shape[0], dtype=np.int64)
    apply(b, row, undo)
    after = NEXT[turn]
    out = False
    if in_check(b, PLAYER[after], row[0], row[1]):
        scratch = np.empty((ROWS, row.shape[0]), dtype=np.int64)
        undo2 = np.empty(row.shape[0], dtype=np.int64)
        out = moves(b, after, row[0], row[1], scratch, cs, es, undo2) == 0
    unapply(b, row, undo)
    return out


@njit("int64(int64[::1], int64, int64[:, ::1], int64, int64[::1], int64[::1])", cache=True)
def no_mate(b, turn, out, n, cs, es):
    """Of the ``n`` legal moves in ``out``, those :func:`mates` does not forbid; their count."""
    if not NO_MATE_ANY or n > out.shape[0]:
        return n
    kept = 0
    for i in range(n):
        if not mates(b, turn, out[i], cs, es):
            if kept != i:
                out[kept, :] = out[i]
            kept += 1
    return kept

'''


def no_mate_source(design: Design) -> list[str]:
    """``mates`` and ``no_mate`` (see :data:`_NO_MATE`); in a game without the rule, each
    answers at once (nothing to compile)."""
    if design.no_mate:
        return _NO_MATE.splitlines()
    return _NO_MATE_NONE.splitlines()


_NO_MATE_NONE: Final = """

@njit("boolean(int64[::1], int64, int64[::1], int64[::1], int64[::1])", cache=True)
def mates(b, turn, row, cs, es):
    return False


@njit("int64(int64[::1], int64, int64[:, ::1], int64, int64[::1], int64[::1])", cache=True)
def no_mate(b, turn, out, n, cs, es):
    return n

"""
