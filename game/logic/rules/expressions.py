"""The conditions and counts of move programs written as Python expressions: table lookups
on the board ``b`` at the cursor ``c``, for :class:`~game.logic.rules.writer.ProgramWriter`
(which holds the player, the tables and the design they read).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from game.logic.rules.sexpr import Atom, Item

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = ["Expressions"]


class Expressions:
    """Writes a condition or a count as one Python expression (the cursor is ``c``)."""

    design: Design
    zones: list[str]
    types: list[str]
    player: int
    enemy: int
    quiet: bool
    counting: bool
    ns: dict[str, Any]

    if TYPE_CHECKING:

        def link(self, word: str) -> str: ...

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
