"""A described game's cursor for the generic searches (:mod:`game.logic.search`): make and
unmake on the rulebook's mutable position instead of a new state a move, captures first, and
the description's piece values as the evaluation.

The evaluation counts, from the side to move, each piece's value (for a game won by the most
pieces, each piece as one) plus the description's zone bonuses, and its mobility term where
it has one; a game of counters (sowing) counts its score so far.

>>> import random
>>> from game.logic.rules.catalogue import rulebook
>>> from game.logic.rules.state import RulesGame
>>> cursor = RulesGame(rulebook("tic-tac-toe")).initial_state(random.Random(0)).search_cursor()
>>> cursor.to_move(), len(cursor.actions())
(0, 9)
>>> token = cursor.play(cursor.actions()[4])
>>> cursor.to_move(), cursor.evaluate(0)
(1, 1)
>>> cursor.undo(token)
>>> cursor.to_move()
0
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from game.logic.contract import CHANCE, TERMINAL
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook

__all__ = ["RulesCursor"]


class RulesCursor:
    """The cursor on ``pos`` (which it changes and restores as it walks)."""

    __slots__ = ("_moves", "_outcome", "_table", "pos", "rulebook")

    def __init__(
        self, rulebook: Rulebook, pos: DescribedPosition, table: _Table | None = None
    ) -> None:
        self.rulebook = rulebook
        self.pos = pos
        self._moves: list[Move] | None = None
        self._outcome: str | None = None
        self._table = table

    def _legal(self) -> list[Move]:
        if self._moves is None:
            self._moves = self.rulebook.legal(self.pos)
            self._outcome = self.rulebook.outcome(self.pos, self._moves)
        return self._moves

    def to_move(self) -> int:
        self._legal()
        if self._outcome is not None:
            return TERMINAL
        return CHANCE if self.rulebook.chance(self.pos) else self.rulebook.seat(self.pos)

    def actions(self) -> Sequence[Move]:
        moves = self._legal()
        return [] if self._outcome is not None else moves

    def ordered(self) -> list[Move]:
        # Captures first: they change the material the evaluation counts.
        return sorted(self.actions(), key=lambda m: -len(m[1]))

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        return self.rulebook.chance(self.pos)

    def play(self, action: Move) -> object:
        saved = self.rulebook.make(self.pos, action)
        self._moves = None
        return saved

    def undo(self, token: object) -> None:
        self.rulebook.unmake(self.pos, token)  # type: ignore[arg-type]
        self._moves = None

    def key(self) -> Hashable:
        return self.rulebook.key(self.pos)

    def returns(self) -> tuple[float, ...]:
        self._legal()
        return self.rulebook.returns(self.pos, self._outcome)

    def evaluate(self, seat: int) -> float:
        rulebook, pos = self.rulebook, self.pos
        if self._table is None:
            self._table = _Table(rulebook)
        mine = self._table.judge(rulebook, pos, self._legal())
        return mine if rulebook.player(pos) == seat else -mine

    def fork(self) -> RulesCursor:
        return RulesCursor(self.rulebook, self.pos.copy(), self._table)


class _Table:
    """What each piece on each square is worth to the first player, read once a rulebook."""

    __slots__ = ("mobility", "rows")

    def __init__(self, rulebook: Rulebook) -> None:
        design = rulebook.design
        rules = design.evaluation
        values = [p.value for p in design.pieces]
        count_game = any(end.outcome == "count" for end in design.ends)
        self.mobility = rules.mobility
        c = rulebook.c
        # rows[p][v]: what piece v on position p is worth to the first player.
        self.rows: list[list[int]] = []
        for p in range(0 if design.counters else rulebook.n):
            row = [0] * c.codes
            for v in range(1, c.codes):
                kind = c.kind_of[v]
                worth = rules.material * (1 if count_game else values[kind])
                for zone, weight, name in rules.zones:
                    if p in design.board.zones[zone][c.owner[v]] and (
                        name is None or design.pieces[kind].name == name
                    ):
                        worth += weight
                row[v] = worth if c.owner[v] == 0 else -worth
            self.rows.append(row)

    def judge(self, rulebook: Rulebook, pos: DescribedPosition, moves: list[Move]) -> int:
        """The position's worth to the side to move (``moves``: its legal moves)."""
        if rulebook.design.counters:  # the score so far
            counts = rulebook.counts(pos)
            me = rulebook.player(pos)
            return counts[me] - counts[1 - me]
        total = 0
        for row, v in zip(self.rows, pos.board, strict=True):
            if v:
                total += row[v]
        mine = total if rulebook.player(pos) == 0 else -total
        if self.mobility:
            other = pos.copy()
            other.turn = rulebook.next_turn(pos.turn)
            theirs = rulebook.legal(other)
            mine += self.mobility * (len(moves) - len(theirs))
        return mine
