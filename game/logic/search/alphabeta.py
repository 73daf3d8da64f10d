"""Alpha-beta for any game of the contract: negamax with iterative deepening and a
transposition table, bounded by :class:`~game.logic.contract.Limits` and stopped by
:class:`~game.logic.contract.Stop`.

It walks a :class:`~game.logic.search.cursor.Cursor` (the game's own where its states offer
one, so a described game searches on its make/unmake position with its captures first and its
piece values). Values are for the seat to move: a child where another seat moves is negated
(a game of more than two seats is searched as if every other seat played against this one).
A chance node is worth the mean of its outcomes, weighed by their probabilities. A finished
game is worth :data:`WIN` less the plies to it for a winner (sooner wins rank higher), the
negative for a loser, 0 for a draw; an unfinished leaf is worth the cursor's ``evaluate``
(0 when the game offers none: the search then only sees the ends). A game with hidden
information is searched on one state drawn from what the seat to move has seen (its
``determinizer``), never on the real one.

>>> import random
>>> from game.logic.contract import Limits, Stop
>>> from game.logic.search.toys import Nim
>>> agent = AlphaBetaAgent()
>>> agent.choose(Nim(5), Limits(depth=6), random.Random(0), Stop())  # leave a multiple of 3
2
>>> agent.explain().startswith("depth ")
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from game.logic.contract import CHANCE, TERMINAL, Limits, State, Stop, ThinkingStopped
from game.logic.search.budget import Budget
from game.logic.search.cursor import Cursor, SearchAgent, choices, draw_cursor, winning

__all__ = ["DEFAULT_DEPTH", "DEFAULT_TIME", "WIN", "AlphaBetaAgent"]

#: A won game's worth (less the plies to it); every evaluation stays far below it.
WIN: Final = 1_000_000
#: Values at least this far from 0 are decided games.
DECIDED: Final = WIN - 10_000
#: Defaults when a caller gives no limits: a second, and at most this many plies.
DEFAULT_TIME: Final = 1.0
DEFAULT_DEPTH: Final = 64

_EXACT, _LOWER, _UPPER = 0, 1, 2


class AlphaBetaAgent(SearchAgent):
    """Iterative-deepening negamax alpha-beta; see the module docstring."""

    name = "alphabeta"
    description = "searches ahead with alpha-beta, judging positions as the game does"
    #: The last search's depth reached, score for the seat that moved, and positions.
    found: tuple[int, float, int] = (0, 0.0, 0)

    def search(self, state: State[Any], limits: Limits, rng: random.Random, stop: Stop) -> Any:
        seat, moves = choices(state)
        if limits.time is not None:
            seconds = limits.time
        elif limits.depth or limits.nodes:
            seconds = 3600.0
        else:
            seconds = DEFAULT_TIME
        search = _Search(
            draw_cursor(state, seat)(rng),
            time.perf_counter() + seconds,
            int(limits.nodes) if limits.nodes else None,
            stop,
        )
        order = list(moves)
        rng.shuffle(order)  # ties are broken differently from game to game
        best, score, depth = order[0], 0.0, 0
        for depth in range(1, int(limits.depth or DEFAULT_DEPTH) + 1):
            try:
                score, best = search.root(seat, order, depth)
            except _OutOfTime:
                depth -= 1
                break
            order.remove(best)
            order.insert(0, best)
            if abs(score) >= DECIDED:
                break
        if stop.is_set():
            raise ThinkingStopped("stopped")
        self._said = f"depth {depth}, score {round(score):+d}, {search.nodes} positions"
        self.found = (depth, score, search.nodes)
        return best


class _OutOfTime(Exception):
    pass


class _Search(Budget):
    SPENT = STOPPED = _OutOfTime
    CHECK_MASK = 255

    def __init__(
        self, cursor: Cursor[Any], deadline: float, node_cap: int | None, stop: Stop
    ) -> None:
        super().__init__(node_cap, deadline, stop)
        self.cursor = cursor
        #: key -> (depth, value for the seat to move, bound, best action)
        self.table: dict[Any, tuple[int, float, int, Any]] = {}

    def root(self, seat: int, moves: list[Any], depth: int) -> tuple[float, Any]:
        """The best of ``moves`` for ``seat`` (to move) at ``depth`` plies, with its value."""
        cursor = self.cursor
        alpha, best = -math.inf, moves[0]
        for move in moves:
            token = cursor.play(move)
            try:
                value = self.child(seat, depth - 1, alpha, math.inf, 1)
            finally:
                cursor.undo(token)
            if value > alpha:
                alpha, best = value, move
        return alpha, best

    def child(self, me: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value for ``me`` of the position just played into: negated from the seat to
        move there when that is another seat."""
        who = self.cursor.to_move()
        if who == me or who in (CHANCE, TERMINAL):
            return self.node(me, depth, alpha, beta, ply)
        return -self.node(who, depth, -beta, -alpha, ply)

    def node(self, me: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value for ``me`` of the cursor's position, where ``me`` moves, chance acts
        (``me`` moved into it) or the game is over."""
        self.tick()
        cursor = self.cursor
        who = cursor.to_move()
        if who == TERMINAL:
            return winning(cursor.returns(), me) * (WIN - ply)
        if depth <= 0:
            return cursor.evaluate(me)
        if who == CHANCE:
            total = 0.0
            for outcome, chance in cursor.chance_outcomes():
                token = cursor.play(outcome)
                try:
                    total += chance * self.child(me, depth - 1, -math.inf, math.inf, ply + 1)
                finally:
                    cursor.undo(token)
            return total
        key = cursor.key()
        moves = cursor.ordered()
        kept = self.table.get(key)
        if kept is not None:
            kept_depth, value, bound, first = kept
            if kept_depth >= depth:
                value = _from_table(value, ply)
                if (
                    bound == _EXACT
                    or (bound == _LOWER and value >= beta)
                    or (bound == _UPPER and value <= alpha)
                ):
                    return value
            if first in moves and moves[0] != first:
                moves.remove(first)
                moves.insert(0, first)
        start = alpha
        best, best_move = -math.inf, moves[0]
        for move in moves:
            token = cursor.play(move)
            try:
                value = self.child(me, depth - 1, max(alpha, best), beta, ply + 1)
            finally:
                cursor.undo(token)
            if value > best:
                best, best_move = value, move
                if best >= beta:
                    break
        bound = _LOWER if best >= beta else _UPPER if best <= start else _EXACT
        self.table[key] = (depth, _to_table(best, ply), bound, best_move)
        return best


def _to_table(value: float, ply: int) -> float:
    """A decided value counted from this node instead of from the root."""
    if value >= DECIDED:
        return value + ply
    if value <= -DECIDED:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= DECIDED:
        return value - ply
    if value <= -DECIDED:
        return value + ply
    return value
