"""The check test of a described game: whether a move of one player could capture on a square
(the compiled probes of :mod:`game.logic.rules.attacks` first, then the programs they cannot
walk backwards run forward from each piece, and the drops from each square), where a player's
royal pieces stand, and whether the player to move is in check.
:class:`CheckTest` is a part of :class:`~game.logic.rules.rulebook.Rulebook`; it uses the rulebook's
compiled tables and its continuation of partial moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from game.logic.rules.position import DescribedPosition, Move
from game.logic.rules.teams import enemy_code

if TYPE_CHECKING:
    from game.logic.rules.compile import Compiled
    from game.logic.rules.hands import HandRules

__all__ = ["CheckTest"]


class CheckTest:
    """The check test, for the rulebook that inherits it."""

    c: Compiled
    #: Each player's foes, by index (:func:`game.logic.rules.teams.foes`).
    foes: list[tuple[int, ...]]
    n: int
    players: int
    royal: frozenset[int]
    shared: frozenset[int]
    slow: list[bool]
    limited_hands: bool
    hands: HandRules
    hands_now: tuple[tuple[int, ...], ...]
    #: The rulebook's continuation of a partial move into the composite moves it grows into.
    _chains: Callable[..., Iterator[Move]]

    if TYPE_CHECKING:

        def player(self, pos: DescribedPosition) -> int: ...

    def attacked(
        self, b: list[int], square: int, by: int, lf: int, lt: int, piece: int = 0
    ) -> bool:
        """Whether a move of player ``by`` could capture on ``square`` (the move programs of
        ``by``'s pieces, their own ``attacked`` and ``check`` read as false), with ``piece``
        standing there for the question if given (a move program's ``attacked`` asks it of
        the moving piece): the programs that can be walked backwards from the square as one
        probe, the others run forward from each piece of ``by`` that has them (see
        :mod:`~game.logic.rules.attacks`)."""
        if by < 0:  # every foe of player -1 - by (more than two players)
            return any(self.attacked(b, square, e, lf, lt, piece) for e in self.foes[-1 - by])
        if piece and b[square] != piece:
            saved = b[square]
            b[square] = piece
            try:
                return self.attacked(b, square, by, lf, lt)
            finally:
                b[square] = saved
        c = self.c
        if c.probes[by](b, square, lf, lt):
            return True
        if not self.slow[by]:
            return False
        owner, kind_of, shared = c.owner, c.kind_of, self.shared
        out: list[Any] = []
        for f, v in enumerate(b):
            if not v or (owner[v] != by and kind_of[v] not in shared):
                continue
            gen = c.fallback[kind_of[v]][by]
            if gen is None:
                continue
            gen(b, f, out, lf, lt, (), v)
            for to, cap, eff, mc, pid, partial in out:
                if square in cap:
                    return True
                if partial is not None:
                    for move in self._chains(b, by, f, to, cap, eff, mc, pid, partial, lf, lt):
                        if square in move[1]:
                            return True
            out.clear()
        hands = self.hands_now
        for t, row in enumerate(c.fallback_drops):
            drop = row[by]
            if drop is None or (
                self.limited_hands and not (hands and hands[by][t]) and self.hands.counted(by, t)
            ):
                continue
            mc = c.code(by, t)
            for f in range(self.n):
                drop(b, f, out, lf, lt, (), mc)
                if any(square in r[1] for r in out):
                    return True
                out.clear()
        return False

    def royal_squares(self, b: list[int], player: int) -> list[int]:
        kind_of, owner = self.c.kind_of, self.c.owner
        return [i for i, v in enumerate(b) if v and owner[v] == player and kind_of[v] in self.royal]

    def placed_safe(self, pos: DescribedPosition, moves: list[Move], player: int) -> list[Move]:
        """Of ``moves`` by ``player``, who has no royal piece on the board, the ones that
        leave no royal piece of theirs attacked: only a move that puts one down (a drop, a
        piece made royal) can leave one, and it is played out and probed there."""
        c, royal = self.c, self.royal
        owner, kind_of = c.owner, c.kind_of
        b = pos.board
        enemy = enemy_code(player, self.players)
        self.hands_now = pos.hands
        safe = []
        for move in moves:
            path, _caps, effects, _pid = move
            placed = [p for p, v, *_ in effects if v and owner[v] == player and kind_of[v] in royal]
            if placed:
                undo = [(p, b[p]) for p, *_ in effects]
                for p, v, *_ in effects:
                    b[p] = v
                lf, lt = (path[0], path[-1]) if path else (pos.last_from, pos.last_to)
                attacked = any(self.attacked(b, k, enemy, lf, lt) for k in placed)
                for p, v in reversed(undo):
                    b[p] = v
                if attacked:
                    continue
            safe.append(move)
        return safe

    def in_check(self, pos: DescribedPosition) -> bool:
        self.hands_now = pos.hands
        player = self.player(pos)
        enemy = enemy_code(player, self.players)
        return any(
            self.attacked(pos.board, k, enemy, pos.last_from, pos.last_to)
            for k in self.royal_squares(pos.board, player)
        )
