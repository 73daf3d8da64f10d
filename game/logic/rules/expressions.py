"""The conditions and counts of move programs written as Python expressions: table lookups
on the board ``b`` at the cursor ``c``, for :class:`~game.logic.rules.writer.ProgramWriter`
(which holds the player, the tables and the design they read).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from game.logic.rules import tree
from game.logic.rules.flags import flag_expression
from game.logic.rules.teams import foe_test

if TYPE_CHECKING:
    from game.logic.rules.design import Design

__all__ = ["Expressions", "connective", "word_tests"]


def word_tests(p: int | str, q: int | str, quiet: bool) -> dict[str, str]:
    """The conditions without arguments that both back ends (this Python one and the
    compiled one, :mod:`game.logic.rules.compiled`) write alike, for player ``p`` against
    ``q`` (numbers, or the names of variables holding them); ``quiet``: ``attacked`` and
    ``check`` read false (the check test's own runs)."""
    return {
        "friend": f"OWN[b[c]] == {p}",
        "last-to": "c == lt",
        "last-from": "c == lf",
        "attacked": "False" if quiet else f"attacked(b, c, {q}, lf, lt, mc)",
        "check": "False" if quiet else f"attacked(b, f, {q}, lf, lt, mc)",
        "at-origin": "c == f",
        "true": "True",
        "false": "False",
    }


def connective(cond: tree.Cond, write: Callable[[tree.Cond], str]) -> str | None:
    """``not``, ``and`` and ``or`` written around their parts (each written by ``write``);
    None for any other condition."""
    match cond:
        case tree.Not(cond=inner):
            return f"not ({write(inner)})"
        case tree.And(conds=conds) | tree.Or(conds=conds):
            joint = " and " if isinstance(cond, tree.And) else " or "
            return joint.join(f"({write(a)})" for a in conds)
    return None


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
        def compare(self, cond: tree.Compare) -> str: ...

    def count(self, count: tree.Count) -> str:
        """A count's Python expression (see the design reader's ``_check_count``)."""
        match count:
            case tree.Number(n=n):
                return str(n)
            case tree.Thrown():  # the rulebook sets THROWN[0] before it generates moves
                self.ns.setdefault("THROWN", [0])
                return "THROWN[0]"
            case tree.Minus(count=inner, less=less):
                return f"({self.count(inner)} - {less})"
            case tree.LinePieces(direction=word):
                board = self.design.board
                d = board.symmetry[self.player][board.directions.index(word)]
                self.ns[f"LP{d}"] = _lines_through(board.links[d])
                return f"sum(1 for _x in LP{d}[c] if b[_x])"
        raise TypeError(f"not a count: {count!r:.60}")  # pragma: no cover - read_tree.check

    def cond(self, cond: tree.Cond) -> str:
        p, q = self.player, self.enemy
        joined = connective(cond, self.cond)
        if joined is not None:
            return joined
        match cond:
            case tree.Is(word=word):
                return {
                    **word_tests(p, q, self.quiet),
                    "empty": "not h.get(c, b[c])" if self.counting else "not b[c]",
                    "enemy": foe_test("OWN[b[c]]", p, q, len(self.design.players)),
                    "captured": "c in cap",
                    "flipped": "eff != ()",
                    "flag": "fl & 1",
                }[word]
            case tree.Pieces(who=who, types=names):
                kinds = tuple(self.types.index(name) for name in names)
                where = "mc" if who == "moving" else "b[c]"
                test = f"TYP[{where}] in {kinds!r}"
                if who == "friend":
                    test = f"OWN[b[c]] == {p} and {test}"
                elif who == "enemy":
                    test = f"{foe_test('OWN[b[c]]', p, q, len(self.design.players))} and {test}"
                return test
            case tree.InZone(zone=zone):
                return f"c in Z{self.zones.index(zone)}_{p}"
            case tree.OnBoard(direction=word):
                return f"{self.link(word)}[c] >= 0"
            case tree.Counters(n=n, at_least=at_least):
                return f"h.get(c, b[c]) {'>=' if at_least else '=='} {n}"
            case tree.Next(direction=word, cond=inner):
                return f"(lambda c: c >= 0 and ({self.cond(inner)}))({self.link(word)}[c])"
            case tree.Exists(cond=inner):
                # The comprehension's own c runs over every position.
                return f"any(({self.cond(inner)}) for c in ALL)"
            case tree.MakesLine() | tree.InLine() | tree.OnlyLines() | tree.PiecesAtMost():
                foe = foe_test("OWN[b[x]]", p, q, len(self.design.players))
                return _NUMBERED[type(cond)].format(n=cond.n, p=p, foe=foe)
            case tree.Attr(name=name):
                if name not in self.design.attributes:
                    return "False"
                return f"ATT[b[c]] & {1 << self.design.attributes.index(name)}"
            case tree.Compare():
                return self.compare(cond)
            case tree.Flag() | tree.At():
                return flag_expression(self, cond)
        raise TypeError(f"not a condition: {cond!r:.60}")  # pragma: no cover - read_tree.check


#: The expression of each condition on a number ``n`` (``p``: the player, ``foe``: the test that
#: the piece on ``x`` is an enemy's).
_NUMBERED: Final[dict[type, str]] = {
    tree.MakesLine: "line_at(b, c, f, mc) >= {n}",
    tree.InLine: "b[c] and line_at(b, c, -1, b[c]) >= {n}",
    tree.OnlyLines: "all(line_at(b, x, -1, b[x]) >= {n} for x in ALL if {foe})",
    tree.PiecesAtMost: "sum(1 for v in b if OWN[v] == {p}) <= {n}",
}


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
