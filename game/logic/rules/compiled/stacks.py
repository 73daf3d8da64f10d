"""Stacks (column draughts, ``(stacks)``) in the compiled back end: the pieces under each
position's top piece are one cell after the board, ``STACK0 + position``,
a number whose digits in base ``STACK_BASE`` (the piece codes' count) are the pieces under
the top, bottom first, the lowest digit the bottom (0: none; no code is 0, so the number
tells the height).

A move is first made as in a game without stacks (the moves grown and selected:
:mod:`~game.logic.rules.compiled.partial`), then ``stack_rows`` rewrites each row's changes
as :func:`game.logic.rules.stacking.stacked` makes them: the start and its cell emptied; for
each capture, in order, the captured top piece going to the bottom of the moving column and
the jumped column's next piece becoming its top; the piece landing with the column it
carries. Only where partial moves are grown (their rows hold the captures in order) and no
hand is counted; other designs with stacks stay on Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from game.logic.rules.compiled.hands import hand_cells
from game.logic.rules.compiled.partial import chained, row_width
from game.logic.rules.compiled.statements import HEAD, Unsupported
from game.logic.rules.design import Design

__all__ = ["stack_cells", "stack_refusal", "stack_return", "stack_width", "stacks_source"]

#: The largest number a column's cell may hold.
_LIMIT: Final = 1 << 62


def stack_refusal(design: Design, codes: int) -> str:
    """Why ``design``'s stacks are not compiled ("" when they are, or it has none)."""
    if not design.stacks:
        return ""
    if hand_cells(design):
        return "stacks with hands"
    if not chained(design):
        return "stacks without partial moves"
    pieces = sum(len(placed) for placed in design.setup.values())
    if codes ** max(0, pieces - 1) >= _LIMIT:
        return f"stacks of {pieces} pieces of {codes} codes (a column's number overflows)"
    return ""


def stack_width(design: Design) -> int:
    """The columns the stacks add to a move row: a cell per change (the start, each
    capture, the landing): at most the row's own width past its head."""
    return row_width(design) - HEAD if design.stacks else 0


def stack_return(design: Design, returned: str) -> str:
    """What ``pseudo`` returns: ``returned`` (its rows' count), the rows restacked first."""
    return f"stack_rows(b, out, {returned})" if design.stacks else returned


def stack_cells(under: Sequence[Sequence[int]], base: int) -> list[int]:
    """Each position's cell: the pieces under its top (bottom first) as a number."""
    cells = []
    for column in under:
        value = 0
        for v in reversed(column):
            value = value * base + v
        if value >= _LIMIT:
            raise ValueError(f"a column of {len(column) + 1} pieces is too tall to compile")
        cells.append(value)
    return cells


_STACK_ROWS: Final = '''
@njit("int64(int64[::1], int64[:, ::1], int64)", cache=True)
def stack_rows(b, out, n):
    """Each move row of ``out[:n]`` with its changes on the stacks (see the module)."""
    if n > out.shape[0]:
        return n
    tail = np.empty(out.shape[1], dtype=np.int64)
    for i in range(n):
        row = out[i]
        if row[2] < 0 or row[0] < 0:
            continue
        f = row[0]
        to = row[1]
        ncap = row[3]
        k = HEAD + 2 * row[4]
        final = row[k - 1]
        used = ncap + 1 + row[k + ncap]
        for j in range(used):
            tail[j] = row[k + j]
        carried = b[STACK0 + f]
        k = HEAD
        row[k] = f
        row[k + 1] = 0
        row[k + 2] = STACK0 + f
        row[k + 3] = 0
        k += 4
        for c in range(ncap):
            x = tail[c]
            if x == to:
                continue
            carried = carried * STACK_BASE + b[x]
            rest = b[STACK0 + x]
            top = 0
            if rest != 0:
                power = 1
                while power * STACK_BASE <= rest:
                    power *= STACK_BASE
                top = rest // power
                rest -= top * power
            row[k] = x
            row[k + 1] = top
            row[k + 2] = STACK0 + x
            row[k + 3] = rest
            k += 4
        row[k] = to
        row[k + 1] = final
        row[k + 2] = STACK0 + to
        row[k + 3] = carried
        k += 4
        row[4] = (k - HEAD) // 2
        for j in range(used):
            row[k + j] = tail[j]
    return n
'''


def stacks_source(design: Design, codes: int) -> list[str]:
    """The stacks' constants (``STACK_CELLS`` 0 in a design without them) and, where it has
    them, ``stack_rows``."""
    if not design.stacks:
        return ["STACK_CELLS = 0", ""]
    refused = stack_refusal(design, codes)
    if refused:
        raise Unsupported(refused)
    return [
        f"STACK_BASE = {codes}",
        "STACK0 = NPOS",
        "STACK_CELLS = NPOS",
        *_STACK_ROWS.splitlines(),
        "",
    ]
