"""The lines through each position, for the count ``(line-pieces DIR)``: ``LINES[d, p]``, the
positions on the line through ``p`` along direction ``d`` both ways (``p`` first, then -1s),
as the Python back end's table has them, and ``line_pieces(b, c, d)``, the pieces on it.
"""

from __future__ import annotations

from game.logic.rules.design import Design
from game.logic.rules.expressions import _lines_through

__all__ = ["lines_source"]

_KERNEL = '''
@njit("int64(int64[::1], int64, int64)", cache=True)
def line_pieces(b, c, d):
    """The pieces on the line through ``c`` along direction ``d`` and its opposite."""
    total = 0
    for k in range(LINES.shape[2]):
        x = LINES[d, c, k]
        if x < 0:
            break
        if b[x] != 0:
            total += 1
    return total
'''


def lines_source(design: Design) -> list[str]:
    """The table and the kernel (written before the move programs that call it)."""
    tables = [_lines_through(row) for row in design.board.links]
    width = max(len(line) for table in tables for line in table)
    rows = [[[*line, *[-1] * (width - len(line))] for line in table] for table in tables]
    return [f"LINES = np.array({rows!r}, dtype=np.int64)", *_KERNEL.splitlines(), ""]
