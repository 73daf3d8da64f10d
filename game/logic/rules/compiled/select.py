"""The selection rules compiled: passes over a position's move rows that keep the ones a
design's ``(rules ...)`` allow, in the Python back end's order
(:meth:`~game.logic.rules.rulebook.Rulebook._select`), each written only where the design
states it:

- ``(compulsory T...)``: the moves of the first type listed that has any (under
  ``(priorities ...)``, none when no listed type has one);
- a capture that can go on must (where partial moves were grown): a move whose start and
  captures, in order, begin a longer move's is dropped;
- ``(most-captures)``: the moves taking the most;
- ``(prefer KEY...)``: the moves doing best on each key in turn (preferred.py);
- ``(identity from-to-captured)``: of the moves with the same start, end and set of changes,
  the first.

Each pass keeps the rows' order, moving the kept rows down.
"""

from __future__ import annotations

from typing import Final

from game.logic.rules.compiled.preferred import prefer_lines
from game.logic.rules.design import Design

__all__ = ["select_source"]

#: The signature of ``select(b, out, n, composite)``.
SELECT: Final = "int64(int64[::1], int64[:, ::1], int64, boolean)"


def select_source(
    design: Design, kinds: dict[str, int], kind_of_program: list[int], tails: bool
) -> list[str]:
    """``select`` for ``design`` (none where it states no selection rule and grows no
    partial move); ``tails``: the rows hold their captures and path after their changes."""
    compulsory = [kinds[name] for name in design.compulsory]
    merge = design.identity == "from-to-captured"
    scores, preferring = prefer_lines(design, tails)  # (prefer: preferred.py)
    if not (compulsory or design.most_captures or merge or tails):
        return []
    used = "HEAD + 2 * row[4]"
    if tails:
        used = "HEAD + 2 * row[4] + row[3] + 1 + row[HEAD + 2 * row[4] + row[3]]"
    lines = [
        "",
        '@njit("void(int64[::1], int64[::1], int64)", cache=True)',
        "def copy_row(dst, src, used):",
        "    for i in range(used):",
        "        dst[i] = src[i]",
        "",
        "",
        f"KIND = np.array({kind_of_program or [0]!r}, dtype=np.int64)",
        "",
        "",
        '@njit("void(int64[:, ::1], int64, int64)", cache=True)',
        "def move_row(out, to, at):",
        "    row = out[at]",
        f"    used = {used}",
        "    copy_row(out[to], row, used)",
        "",
        "",
    ]
    if merge:
        lines += _SAME.splitlines()
    if tails:
        lines += _LONGER.splitlines()
    lines += scores
    lines += [
        f'@njit("{SELECT}", cache=True)',
        "def select(b, out, n, composite):",
        "    if n > out.shape[0]:",
        "        return n",
    ]
    if compulsory:
        lines += [
            "    chosen = -1",
            f"    for want in ({', '.join(map(str, compulsory))},):",
            "        for i in range(n):",
            "            if out[i, 2] >= 0 and KIND[out[i, 2]] == want:",
            "                chosen = want",
            "                break",
            "        if chosen >= 0:",
            "            break",
            "    if chosen >= 0:",
            "        kept = 0",
            "        for i in range(n):",
            "            if out[i, 2] >= 0 and KIND[out[i, 2]] == chosen:",
            "                if kept != i:",
            "                    move_row(out, kept, i)",
            "                kept += 1",
            "        n = kept",
        ]
        if design.priorities:
            lines += ["    else:", "        n = 0"]
    if tails and not design.free_partial:
        lines += [
            "    if composite and n > 1:",
            "        drop = np.zeros(n, dtype=np.bool_)",
            "        for i in range(n):",
            "            for j in range(n):",
            "                if j != i and out[j, 3] > out[i, 3] > 0 and begins(out[i], out[j]):",
            "                    drop[i] = True",
            "                    break",
            "        kept = 0",
            "        for i in range(n):",
            "            if not drop[i]:",
            "                if kept != i:",
            "                    move_row(out, kept, i)",
            "                kept += 1",
            "        n = kept",
        ]
    if design.most_captures:
        lines += [
            "    most = 0",
            "    for i in range(n):",
            "        most = max(most, out[i, 3])",
            "    kept = 0",
            "    for i in range(n):",
            "        if out[i, 3] == most:",
            "            if kept != i:",
            "                move_row(out, kept, i)",
            "            kept += 1",
            "    n = kept",
        ]
    lines += preferring
    if merge:
        lines += [
            "    if n > 1:",
            "        kept = 0",
            "        for i in range(n):",
            "            seen = False",
            "            x = out[i, 0] if out[i, 0] >= 0 else out[i, 1]",
            "            for j in range(kept):",
            "                y = out[j, 0] if out[j, 0] >= 0 else out[j, 1]",
            "                if x == y and out[i, 1] == out[j, 1] and same_move(out[i], out[j]):",
            "                    seen = True",
            "                    break",
            "            if not seen:",
            "                if kept != i:",
            "                    move_row(out, kept, i)",
            "                kept += 1",
            "        n = kept",
        ]
    lines += ["    return n", ""]
    return lines


_SAME: Final = '''
@njit("boolean(int64[::1], int64[::1])", cache=True)
def changes_within(u, v):
    """Whether every change of the move ``u`` is one of ``v``'s."""
    for i in range(u[4]):
        cell = u[HEAD + 2 * i]
        value = u[HEAD + 2 * i + 1]
        found = False
        for j in range(v[4]):
            if v[HEAD + 2 * j] == cell and v[HEAD + 2 * j + 1] == value:
                found = True
                break
        if not found:
            return False
    return True


@njit("boolean(int64[::1], int64[::1])", cache=True)
def same_move(x, y):
    """Whether two moves have the same start, end and set of changes (a drop's start is
    where it lands)."""
    if x[1] != y[1] or (x[0] if x[0] >= 0 else x[1]) != (y[0] if y[0] >= 0 else y[1]):
        return False
    return changes_within(x, y) and changes_within(y, x)


'''

_LONGER: Final = '''
@njit("boolean(int64[::1], int64[::1])", cache=True)
def begins(x, y):
    """Whether the move ``x`` (one capture or more) is the start of the longer ``y``: the
    same first square, and ``x``'s captures the first of ``y``'s, in order."""
    k = x[3]
    if k == 0 or y[3] <= k or (x[0] if x[0] >= 0 else x[1]) != (y[0] if y[0] >= 0 else y[1]):
        return False
    at_x = HEAD + 2 * x[4]
    at_y = HEAD + 2 * y[4]
    for i in range(k):
        if x[at_x + i] != y[at_y + i]:
            return False
    return True


'''
