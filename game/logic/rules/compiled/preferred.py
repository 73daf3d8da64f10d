"""``(prefer KEY...)`` compiled: a pass of ``select`` after ``most-captures`` that keeps the
rows doing best on the first key, of them on the second, and so on, as
:func:`game.logic.rules.prefer.prefer` does with the complete moves.

A key's score of a row is written for that key alone (its types as constants): ``captured``
counts the row's captures (those of the types named: the board before the move reads what
each captured position held), ``moving`` and ``capturing`` read the moving piece's type on
the start, and ``earliest`` the place in the order of capture of the first piece of the
types named. It reads the captures in their order, which the rows hold after their changes
only where partial moves are grown: a design that prefers without them stays on Python, as
does one whose keys count the dice of a whole turn.
"""

from __future__ import annotations

from typing import Final

from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.design import Design
from game.logic.rules.prefer import TURN_MEASURES, Key

__all__ = ["prefer_lines"]

#: The score ``earliest`` gives a row that takes none of the pieces it asks about.
_NEVER: Final = 1 << 30


def prefer_lines(design: Design, tails: bool) -> tuple[list[str], list[str]]:
    """The score functions of ``design``'s keys (written before ``select``) and the pass's
    lines (the body of ``select``); ``tails``: the rows hold their captures after their
    changes."""
    if not design.prefer:
        return [], []
    if not tails:
        raise Unsupported("prefer without partial moves")
    for key in design.prefer:
        if key.measure.what in TURN_MEASURES:
            raise Unsupported(f"prefer by {key.measure.what}")
    helpers: list[str] = []
    body = []
    for k, key in enumerate(design.prefer):
        helpers += _score(k, key)
        body += [
            "    if n > 1:",
            "        best = -(1 << 40)",
            "        for i in range(n):",
            f"            scores[i] = pscore{k}(b, out[i])",
            "            best = max(best, scores[i])",
            "        kept = 0",
            "        for i in range(n):",
            "            if scores[i] == best:",
            "                if kept != i:",
            "                    move_row(out, kept, i)",
            "                kept += 1",
            "        n = kept",
        ]
    return helpers, ["    scores = np.zeros(max(n, 1), dtype=np.int64)", *body]


def _score(k: int, key: Key) -> list[str]:
    """``pscore<k>(b, row)``: the row's score on ``key``, higher better."""
    measure = key.measure
    types = sorted(measure.types) if measure.types is not None else None
    test = "True" if types is None else " or ".join(f"t == {t}" for t in types)
    lines = ['@njit("int64(int64[::1], int64[::1])", cache=True)', f"def pscore{k}(b, row):"]
    at = ["    at = HEAD + 2 * row[4]"]  # where the row's captures start, in order
    if key.how == "earliest":
        lines += [
            *at,
            "    for i in range(row[3]):",
            "        x = b[row[at + i]]",
            "        if x != 0:",
            "            t = TYP[x]",
            f"            if {test}:",
            "                return -i",
            f"    return -{_NEVER}",
        ]
    elif measure.what == "captured":
        if types is None:
            lines += ["    value = row[3]"]
        else:
            lines += [
                *at,
                "    value = 0",
                "    for i in range(row[3]):",
                "        x = b[row[at + i]]",
                "        if x != 0:",
                "            t = TYP[x]",
                f"            if {test}:",
                "                value += 1",
            ]
    else:  # moving, capturing: the moving piece's type, on a move (a start and an end)
        lines += [
            "    value = 0",
            "    if row[2] >= 0 and row[0] >= 0"
            + (" and row[3] > 0" if measure.what == "capturing" else "")
            + ":",
            "        t = TYP[b[row[0]]]",
            f"        if {test}:",
            "            value = 1",
        ]
    if key.how != "earliest":
        lines.append(f"    return {'value' if key.how == 'most' else '-value'}")
    return [*lines, "", ""]
