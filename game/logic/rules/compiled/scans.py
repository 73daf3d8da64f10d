"""Statements and conditions that look past the cursor, in the compiled back end:
``(anywhere ...)`` (the rest of the program from every position), ``(exists ...)``,
``(next DIR ...)``, and the counts of lines and pieces (``makes-line``, ``in-line``,
``only-lines``, ``pieces-at-most``), read as the Python back end reads them
(:mod:`game.logic.rules.expressions`, ``Ends.line_at``).

The helpers they call are written into a module only where a program uses one (each costs
compile time), before the attack probes and the programs that call them.
"""

from __future__ import annotations

from typing import Any, Final

from game.logic.rules import tree
from game.logic.rules.design import Design

__all__ = ["anywhere", "scan_cond", "scans_source"]

#: The conditions this module writes.
SCANS: Final = (tree.MakesLine, tree.InLine, tree.OnlyLines, tree.PiecesAtMost, tree.Exists)

_HELPERS: Final = '''

@njit("int64(int64[::1], int64, int64, int64, int64)", cache=True)
def run_from(b, at, vacated, me, way):
    """The pieces of ``me`` one after another from ``at`` (not counted) along ``way``."""
    count = 0
    q = L[way, at] if way >= 0 else -1
    while q >= 0 and q != at and q != vacated and b[q] != 0 and OWN[b[q]] == me:
        count += 1
        q = L[way, q]
    return count


@njit("int64(int64[::1], int64, int64, int64)", cache=True)
def line_at(b, at, vacated, v):
    """The longest run of pieces of ``v``'s owner through ``at`` along a direction and its
    opposite, ``v`` standing on ``at`` and ``vacated`` (when not -1) empty."""
    best = 1
    for d in range(L.shape[0]):
        if d > OPP[d] >= 0:  # (counted with its opposite)
            continue
        run = run_from(b, at, vacated, OWN[v], d) + run_from(b, at, vacated, OWN[v], OPP[d])
        best = max(best, 1 + run)
    return best


@njit("boolean(int64[::1], int64, int64)", cache=True)
def only_lines(b, who, n):
    """Whether every piece of ``who`` stands in a line of ``n``."""
    for x in range(NPOS):
        if b[x] != 0 and OWN[b[x]] == who and line_at(b, x, -1, b[x]) < n:
            return False
    return True


@njit("int64(int64[::1], int64)", cache=True)
def owned(b, who):
    """The pieces of ``who`` on the board (``who`` -1: the empty positions)."""
    total = 0
    for x in range(NPOS):
        if (b[x] == 0 and who < 0) or (b[x] != 0 and OWN[b[x]] == who):
            total += 1
    return total

'''


def scans_source(design: Design) -> list[str]:
    """The opposite directions and the helpers, where some program reads a line or a count
    (nothing otherwise)."""
    used = any(
        isinstance(node, SCANS)
        for piece in design.pieces
        for program in piece.programs
        for node in tree.walk(program.tree)
    )
    if not used:
        return []
    links = design.board.links
    opposite = [
        next(
            (
                e
                for e in range(len(links))
                if e != d
                and any(q >= 0 for q in links[d])
                and all(q < 0 or links[e][q] == p for p, q in enumerate(links[d]))
            ),
            -1,
        )
        for d in range(len(links))
    ]
    return [f"OPP = np.array({opposite!r}, dtype=np.int64)", *_HELPERS.splitlines()]


def scan_cond(writer: Any, cond: tree.Cond, p: Any, q: Any) -> str | None:
    """``cond`` as a numba expression at the cursor ``c`` for player ``p`` (enemy ``q``); None
    for a condition this module does not write. ``writer``: the program's
    :class:`~game.logic.rules.compiled.statements.StatementWriter`, which writes the parts."""
    match cond:
        case tree.MakesLine(n=n):
            return f"line_at(b, c, f, mc) >= {n}"
        case tree.InLine(n=n):
            return f"(b[c] != 0 and line_at(b, c, -1, b[c]) >= {n})"
        case tree.OnlyLines(n=n):
            return f"only_lines(b, {q}, {n})"
        case tree.PiecesAtMost(n=n):
            return f"owned(b, {p}) <= {n}"
        case tree.Exists(cond=tree.Is(word=word)) if word in ("empty", "friend", "enemy") and (
            not writer.design.counters
        ):
            who = {"empty": -1, "friend": p, "enemy": q}[word]
            return f"owned(b, {who}) > 0"
        case tree.Exists(cond=inner) if not writer.quiet:
            return _exists(writer, inner)
        case tree.Next(direction=d, cond=inner):
            # The condition at the next position along d (inlined by numba).
            return f"(lambda c: c >= 0 and ({writer.cond(inner)}))(L[{writer.step(d)}, c])"
    return None


#: The signature of an ``exists`` helper (see :func:`_exists`).
_EXISTS: Final = "boolean(int64[::1], int64, int64, int64, int64, int64, int64, int64[::1], int64)"


def _exists(writer: Any, inner: tree.Cond) -> str:
    """A helper function that asks ``inner`` at every position (written among the program
    functions' helpers, before them), and its call."""
    name = f"ex_{len(writer.helpers)}"
    test = writer.cond(inner)
    directions = len(writer.design.board.directions)
    writer.helpers += [
        f'@njit("{_EXISTS}", cache=True)',
        f"def {name}(b, p, q, f, mc, lf, lt, es, neff):",
        *(f"    _d{d} = SYM[p, {d}]" for d in range(directions)),
        "    for c in range(NPOS):",
        f"        if {test}:",
        "            return True",
        "    return False",
        "",
        "",
    ]
    return f"{name}(b, p, q, f, mc, lf, lt, es, neff)"


def anywhere(writer: Any, items: list[tree.Stmt], indent: int) -> None:
    """``(anywhere ...)`` followed by the rest of the program (``items``): run from every
    position of the board, each from the state the program had reached (as a choice
    does: the counts put back undo what a position's run added)."""
    k = writer.fresh()
    kept = f"_ac{k}, _am{k}, _ak{k}, _an{k}, _ae{k}"
    writer.emit(indent, f"{kept} = c, mc, mk, ncap, neff")
    writer.emit(indent, f"for _ap{k} in range(NPOS):")
    writer.emit(indent + 1, f"c, mc, mk, ncap, neff = {kept}")
    writer.emit(indent + 1, f"c = _ap{k}")
    path = writer.captures, writer.extra
    writer.seq(items, indent + 1, ["continue"])
    writer.captures, writer.extra = path
