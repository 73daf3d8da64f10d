"""The rulebook of a game of groups (Go): a :class:`~game.logic.rules.rulebook.Rulebook` whose
drops capture the enemy groups they leave without a liberty, refuse (or remove) suicide and
ko as the description's ``(groups ...)`` rule says, with a pass at every turn, two passes in a
row ending the game, and area scoring with komi. Only a design with that rule gets one
(:func:`~game.logic.rules.catalogue.rulebook`), so no other game pays for it.

A position's ``history`` holds, in a game of groups, ``(ko, passes, board hash, boards seen,
repeated, captured by each player)``: the point the next drop may not take (-1: none), the
passes in a row just played, a Zobrist hash of the stones, the hashes of every board of the
game so far, whether the last drop made a board seen before, and the stones each player has
taken. Make and unmake save and restore it with the other fields. A position read from a
text starts it afresh (no ko, no pass, its own board the only one seen).
"""

from __future__ import annotations

import random
from typing import Any

from game.logic.rules.design import Design
from game.logic.rules.groups import GroupRules, area, label_groups
from game.logic.rules.position import PASS, DescribedPosition, Move
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import Form, Item

__all__ = ["GroupRulebook"]


class GroupRulebook(Rulebook):
    """A rulebook for a design with ``(groups ...)`` (see the module docstring)."""

    def __init__(self, design: Design) -> None:
        super().__init__(design)
        assert design.groups is not None
        self.rule: GroupRules = design.groups
        links = design.board.links
        self.neighbours = [tuple(row[p] for row in links if row[p] >= 0) for p in range(self.n)]
        rng = random.Random(20_271)
        self.zobrist = [
            [0, *(rng.getrandbits(63) for _ in range(self.players))] for _ in range(self.n)
        ]

    # -- the group fields of a position ---------------------------------------------------

    def colours(self, b: list[int]) -> list[int]:
        """Each position's stone: 0 empty, else its owner + 1."""
        owner = self.c.owner
        return [owner[v] + 1 if v else 0 for v in b]

    def board_hash(self, colour: list[int]) -> int:
        h = 0
        z = self.zobrist
        for p, c in enumerate(colour):
            if c:
                h ^= z[p][c]
        return h

    def begin(self, pos: DescribedPosition) -> None:
        """Give ``pos`` the group fields of a game starting from it (see the module docstring)."""
        h = self.board_hash(self.colours(pos.board))
        pos.history = (-1, 0, h, frozenset((h,)), False, (0,) * self.players)

    def start(self) -> DescribedPosition:
        pos = super().start()
        self.begin(pos)
        return pos

    def key(self, pos: DescribedPosition) -> tuple[Any, ...]:
        """The pieces and turn, with the ko point and the passes in a row (they decide
        the moves and the end); the boards seen before are not part of it."""
        if not pos.history:
            self.begin(pos)
        return ((self.pieces_key(pos.board), pos.turn, pos.hands, ()), pos.history[:2])

    # -- moves --------------------------------------------------------------------------------

    def legal(self, pos: DescribedPosition) -> list[Move]:
        """The description's drops with what each captures, less suicide and ko; then a
        pass where the game allows one."""
        if not pos.history:
            self.begin(pos)
        moves = self.pseudo(pos)
        if moves:
            moves = self._grouped(pos, moves)
        if self.rule.passing or not moves:
            moves.append(PASS)
        return moves

    def _has_moves(self, pos: DescribedPosition) -> bool:
        return bool(self.legal(pos))

    def _grouped(self, pos: DescribedPosition, moves: list[Move]) -> list[Move]:
        b = pos.board
        colour = self.colours(b)
        label, stones, liberties = label_groups(colour, self.neighbours)
        me = self.player(pos) + 1
        ko, _passes, h, seen, _rep, _caps = pos.history
        rule = self.rule
        superko = rule.ko == "superko"
        z = self.zobrist
        out: list[Move] = []
        for move in moves:
            path, _caps, effects, pid = move
            if len(path) != 1 or b[path[0]]:
                out.append(move)  # not a drop on an empty point: as the programs made it
                continue
            p = path[0]
            if p == ko and rule.ko == "simple":
                continue
            taken: list[int] = []
            free = False
            mine: set[int] = set()
            for q in self.neighbours[p]:
                cq = colour[q]
                if not cq:
                    free = True
                    continue
                g = label[q]
                if cq == me:
                    mine.add(g)
                    if len(liberties[g]) > 1:
                        free = True
                elif len(liberties[g]) == 1 and stones[g][0] not in taken:
                    taken.extend(stones[g])
            own: list[int] = []
            if not free and not taken:
                if rule.suicide == "forbidden":
                    continue
                own = [p, *(s for g in mine for s in stones[g])]
            if superko:
                after = h ^ z[p][me]
                for s in taken:
                    after ^= z[s][colour[s]]
                for s in own:
                    after ^= z[s][me]
                if after in seen:
                    continue
            if not taken and not own:
                out.append(move)
                continue
            cleared = tuple((s, 0) for s in taken)
            if own:
                cleared = (*cleared, *effects, *((s, 0) for s in own))
                out.append((path, tuple(taken), cleared, pid))
            else:
                out.append((path, tuple(taken), (*cleared, *effects), pid))
        return out

    def make(self, pos: DescribedPosition, move: Move) -> tuple[Any, ...]:
        if not pos.history:
            self.begin(pos)
        ko, passes, h, seen, _rep, caps = pos.history
        me = self.player(pos)
        path, taken, _effects, _pid = move
        b = pos.board
        in_eye = False
        if len(path) == 1:
            p = path[0]
            owner = self.c.owner
            in_eye = all(b[q] and owner[b[q]] != me for q in self.neighbours[p])
        saved = super().make(pos, move)
        if not path:  # a pass: the same board, ko opened
            pos.history = (-1, passes + 1, h, seen, False, caps)
            return saved
        z = self.zobrist
        for p, before in saved[0]:
            after = pos.board[p]
            if before != after:
                if before:
                    h ^= z[p][self.c.owner[before] + 1]
                if after:
                    h ^= z[p][self.c.owner[after] + 1]
        repeated = h in seen
        ko = taken[0] if in_eye and len(taken) == 1 else -1
        if taken:
            row = list(caps)
            row[me] += len(taken)
            caps = tuple(row)
        pos.history = (ko, 0, h, seen | {h}, repeated, caps)
        return saved

    # -- the end ------------------------------------------------------------------------------

    def _holds(
        self, pos: DescribedPosition, cond: Item, moves: list[Move] | None, perft: bool
    ) -> bool:
        head = cond.head if isinstance(cond, Form) else str(cond.value)
        if head in ("two-passes", "board-repeated", "plies-per-point"):
            if not pos.history:
                self.begin(pos)
            if head == "two-passes":
                return bool(pos.history[1] >= 2)
            if head == "board-repeated":
                return bool(pos.history[4])
            per = int(cond[1].value)  # type: ignore[union-attr, index]
            return pos.plies >= per * (self.n - len(self.design.board.off_board))
        return super()._holds(pos, cond, moves, perft)

    def counts(self, pos: DescribedPosition, final: bool = True) -> list[int]:
        """Each player's area: stones, and the empty points only their stones reach."""
        return area(self.colours(pos.board), self.neighbours, self.players)

    def score(self, pos: DescribedPosition) -> float:
        """The first player's area less the second's, less komi."""
        counts = self.counts(pos)
        return counts[0] - counts[1] - self.rule.komi

    def captured(self, pos: DescribedPosition) -> tuple[int, ...]:
        """The stones each player has taken so far."""
        if not pos.history:
            self.begin(pos)
        return tuple(pos.history[5])

    def returns(self, pos: DescribedPosition, outcome: str | None) -> tuple[float, ...]:
        if outcome != "count":
            return super().returns(pos, outcome)
        score = self.score(pos)
        if score == 0:
            return (0.0,) * self.players
        winner = 0 if score > 0 else 1
        return tuple(1.0 if p == winner else -1.0 for p in range(self.players))
