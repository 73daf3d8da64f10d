"""Computer players for every described game, by name: the levels beginner to master
(:mod:`~game.logic.rules.levels`, the computer the window plays and hints with) and the plain
searches random, alpha-beta and UCT (Monte Carlo tree search), kept for comparison.

Alpha-beta searches with iterative deepening on the engine's make/unmake position and scores
leaves with the description's piece values (material, from the side to move), or, for a game
won by the most pieces, the piece count; a finished game scores as won or lost at once,
sooner wins better. UCT runs random playouts from each new leaf. Both stop at their limits
(time, depth or nodes) and when their :class:`~game.logic.contract.Stop` is set.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from game.logic.contract import Limits, Stop, ThinkingStopped
from game.logic.rules.engine import Engine, Move, Position
from game.logic.rules.levels import LEVELS, LevelAgent, level_agent
from game.logic.rules.state import RulesState

__all__ = ["AGENTS", "AlphaBetaAgent", "RandomAgent", "UctAgent", "make_agent"]

WIN: Final = 1_000_000
#: Defaults when a caller gives no limits.
DEFAULT_TIME: Final = 1.0
DEFAULT_DEPTH: Final = 64
#: Plies of a UCT playout before it is scored as it stands.
PLAYOUT_CAP: Final = 400


def _check(state: object) -> RulesState:
    if not isinstance(state, RulesState):
        raise ValueError("this agent plays described games only")
    if state.is_terminal():
        raise ValueError("the game is over: there is no move to choose")
    return state


class RandomAgent:
    name = "random"
    description = "plays a legal move at random"

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Stop) -> Move:
        moves: list[Move] = list(_check(state).legal_actions())
        return rng.choice(moves)


class _Thinker:
    """What the searching agents share: what they say about their last choice, and the
    state's moves, with "the only move" said when there is no choice to think about."""

    def __init__(self) -> None:
        self._said = ""

    def explain(self) -> str:
        return self._said

    def _choices(self, state: object) -> tuple[RulesState, list[Move]]:
        checked = _check(state)
        moves: list[Move] = list(checked.legal_actions())
        if len(moves) == 1:
            self._said = "the only move"
        return checked, moves


class AlphaBetaAgent(_Thinker):
    """Iterative-deepening alpha-beta with material evaluation and a small hash table of
    best moves for ordering."""

    name = "alphabeta"
    description = "searches ahead with alpha-beta, counting material (deeper with more time)"

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Stop) -> Move:
        state, moves = self._choices(state)
        if len(moves) == 1:
            return moves[0]
        engine = state.engine
        if limits.time is not None:
            seconds = limits.time
        elif limits.depth or limits.nodes:
            seconds = 3600.0
        else:
            seconds = DEFAULT_TIME
        deadline = time.perf_counter() + seconds
        max_depth = int(limits.depth or DEFAULT_DEPTH)
        node_cap = int(limits.nodes) if limits.nodes else None
        search = _Search(engine, deadline, node_cap, stop)
        pos = state.pos.copy()
        best = moves[0]
        order = list(moves)
        rng.shuffle(order)  # ties are broken differently from game to game
        score = 0
        depth = 0
        for depth in range(1, max_depth + 1):
            try:
                value, move = search.root(pos, order, depth)
            except _OutOfTime:
                depth -= 1
                break
            best, score = move, value
            order.remove(move)
            order.insert(0, move)
            if abs(value) >= WIN - 1000:
                break
        if stop.is_set():
            raise ThinkingStopped("stopped")
        self._said = f"depth {depth}, score {score:+d}, {search.nodes} positions"
        return best


class _OutOfTime(Exception):
    pass


class _Search:
    def __init__(self, engine: Engine, deadline: float, node_cap: int | None, stop: Stop) -> None:
        self.engine = engine
        self.deadline = deadline
        self.node_cap = node_cap
        self.stop = stop
        self.nodes = 0
        self.best: dict[Any, Move] = {}
        design = engine.design
        rules = design.evaluation
        self.values = [p.value for p in design.pieces]
        self.count_game = any(end.outcome == "count" for end in design.ends)
        self.mobility = rules.mobility
        c = engine.c
        # table[p][v]: what piece v on position p is worth to the first player.
        self.table: list[list[int]] = []
        for p in range(0 if design.counters else engine.n):
            row = [0] * c.codes
            for v in range(1, c.codes):
                kind = c.kind_of[v]
                worth = rules.material * (1 if self.count_game else self.values[kind])
                for zone, weight, name in rules.zones:
                    if p in design.board.zones[zone][c.owner[v]] and (
                        name is None or design.pieces[kind].name == name
                    ):
                        worth += weight
                row[v] = worth if c.owner[v] == 0 else -worth
            self.table.append(row)

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes & 255 == 0 and (self.stop.is_set() or time.perf_counter() > self.deadline):
            raise _OutOfTime
        if self.node_cap is not None and self.nodes > self.node_cap:
            raise _OutOfTime

    def evaluate(self, pos: Position, moves: list[Move]) -> int:
        if self.engine.design.counters:  # the score so far
            counts = self.engine.counts(pos)
            me = self.engine.player(pos)
            return counts[me] - counts[1 - me]
        total = 0
        for row, v in zip(self.table, pos.board, strict=True):
            if v:
                total += row[v]
        mine = total if self.engine.player(pos) == 0 else -total
        if self.mobility:
            other = pos.copy()
            other.turn = self.engine.next_turn(pos.turn)
            theirs = self.engine.legal(other)
            mine += self.mobility * (len(moves) - len(theirs))
        return mine

    def root(self, pos: Position, moves: list[Move], depth: int) -> tuple[int, Move]:
        alpha, best = -WIN - 1, moves[0]
        me = self.engine.player(pos)
        for move in moves:
            saved = self.engine.make(pos, move)
            try:
                if self.engine.player(pos) == me:
                    value = self.negamax(pos, depth - 1, alpha, WIN + 1, 1)
                else:
                    value = -self.negamax(pos, depth - 1, -WIN - 1, -alpha, 1)
            finally:
                self.engine.unmake(pos, saved)
            if value > alpha:
                alpha, best = value, move
        return alpha, best

    def negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        engine = self.engine
        moves = engine.legal(pos)
        outcome = engine.outcome(pos, moves)
        if outcome is not None:
            if outcome == "draw":
                return 0
            if outcome == "count":
                counts = engine.counts(pos)
                me = engine.player(pos)
                diff = counts[me] - counts[1 - me]
                return 0 if diff == 0 else (WIN - ply if diff > 0 else -WIN + ply)
            # "win": the player who just moved won; "loss": lost.
            lost = (outcome == "win") == (engine.last_mover(pos) != engine.player(pos))
            return -WIN + ply if lost else WIN - ply
        if depth <= 0:
            return self.evaluate(pos, moves)
        key = engine.key(pos)
        first = self.best.get(key)
        if first is not None and first in moves:
            moves = [first, *(m for m in moves if m != first)]
        else:
            # Captures first: they change the material the evaluation counts.
            moves = sorted(moves, key=lambda m: -len(m[1]))
        best_move = moves[0]
        me = engine.player(pos)
        for move in moves:
            saved = engine.make(pos, move)
            try:
                if engine.player(pos) == me:  # the same player again (a sowing's extra turn)
                    value = self.negamax(pos, depth - 1, alpha, beta, ply + 1)
                else:
                    value = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            finally:
                engine.unmake(pos, saved)
            if value > alpha:
                alpha, best_move = value, move
                if alpha >= beta:
                    break
        self.best[key] = best_move
        return alpha


class UctAgent(_Thinker):
    """Monte Carlo tree search (UCT) with random playouts, sped up by RAVE: a move's value is
    first read from every playout in which its player made that move at any later point
    (all moves as first), and more and more from its own playouts as they come in."""

    name = "uct"
    description = "Monte Carlo tree search: plays many random games from each move"

    EXPLORATION: Final = 1.4
    #: Visits at which a move's own playouts and the all-moves-as-first estimate weigh the
    #: same (the larger, the longer RAVE leads).
    RAVE_EQUIVALENCE: Final = 300.0

    def __init__(self, rave: bool = True) -> None:
        super().__init__()
        self.rave = rave

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Stop) -> Move:
        state, moves = self._choices(state)
        if len(moves) == 1:
            return moves[0]
        engine = state.engine
        budget = int(limits.nodes) if limits.nodes else None
        seconds = limits.time if limits.time is not None else (None if budget else DEFAULT_TIME)
        deadline = time.perf_counter() + seconds if seconds else math.inf
        root = _Node(None, None, engine.player(state.pos))
        root.untried = list(moves)
        iterations = 0
        while budget is None or iterations < budget:
            if stop.is_set():
                raise ThinkingStopped("stopped")
            if iterations & 15 == 0 and time.perf_counter() > deadline:
                break
            self._iterate(engine, state.pos.copy(), root, rng)
            iterations += 1
        best = max(root.children, key=lambda n: n.visits)
        rate = best.wins / best.visits if best.visits else 0.0
        self._said = f"{iterations} playouts, {rate:.0%} won after the chosen move"
        assert best.move is not None
        return best.move

    def _iterate(self, engine: Engine, pos: Position, root: _Node, rng: random.Random) -> None:
        node = root
        path = [node]
        k = self.RAVE_EQUIVALENCE if self.rave else 0.0
        while not node.untried and node.children:
            node = max(node.children, key=lambda n: n.score(self.EXPLORATION, k))
            assert node.move is not None
            engine.make(pos, node.move)
            path.append(node)
        if node.untried:
            move = node.untried.pop(rng.randrange(len(node.untried)))
            mover = engine.player(pos)
            engine.make(pos, move)
            child = _Node(move, node, mover)
            moves = engine.legal(pos)
            child.untried = [] if engine.outcome(pos, moves) is not None else list(moves)
            node.children.append(child)
            node = child
            path.append(child)
        played: list[tuple[int, Move]] = []
        result = _playout(engine, pos, rng, played if self.rave else None)
        for each in path:
            each.visits += 1
            each.wins += result[each.mover] if each.mover is not None else 0.0
        if not self.rave:
            return
        # All moves as first: a child's move made by its player anywhere after its parent.
        later = set(played)
        for i in range(len(path) - 1, -1, -1):
            for child in path[i].children:
                if child.mover is not None and (child.mover, child.move) in later:
                    child.amaf_visits += 1
                    child.amaf_wins += result[child.mover]
            by, made = path[i].mover, path[i].move
            if made is not None and by is not None:
                later.add((by, made))


class _Node:
    __slots__ = (
        "amaf_visits",
        "amaf_wins",
        "children",
        "move",
        "mover",
        "parent",
        "untried",
        "visits",
        "wins",
    )

    def __init__(self, move: Move | None, parent: _Node | None, mover: int | None) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover  # the player who made ``move``
        self.children: list[_Node] = []
        self.untried: list[Move] = []
        self.visits = 0
        self.wins = 0.0
        self.amaf_visits = 0
        self.amaf_wins = 0.0

    def score(self, c: float, k: float = 0.0) -> float:
        """The UCB1 score; with ``k`` > 0 its mean is blended with the all-moves-as-first
        mean, the weight of the latter falling as the move's own visits grow."""
        assert self.parent is not None
        mean = self.wins / self.visits
        if k and self.amaf_visits:
            beta = math.sqrt(k / (3.0 * self.visits + k))
            mean = (1.0 - beta) * mean + beta * self.amaf_wins / self.amaf_visits
            c *= 0.5  # the shared estimate explores for it
        return mean + c * math.sqrt(math.log(self.parent.visits) / self.visits)


def _playout(
    engine: Engine, pos: Position, rng: random.Random, played: list[tuple[int, Move]] | None
) -> tuple[float, float]:
    """Random moves to the end (or the cap): 1 for a win, 0.5 a draw, 0 a loss, per player.
    ``played`` (when given) receives each (player, move)."""
    for _ in range(PLAYOUT_CAP):
        moves = engine.legal(pos)
        outcome = engine.outcome(pos, moves)
        if outcome is not None:
            return _scores(engine, pos, outcome)
        move = rng.choice(moves)
        if played is not None:
            played.append((engine.player(pos), move))
        engine.make(pos, move)
    return (0.5, 0.5)


def _scores(engine: Engine, pos: Position, outcome: str) -> tuple[float, float]:
    if outcome == "draw":
        return (0.5, 0.5)
    if outcome == "count":
        a, b = engine.counts(pos)[:2]
        return (0.5, 0.5) if a == b else ((1.0, 0.0) if a > b else (0.0, 1.0))
    mover = engine.last_mover(pos)
    winner = mover if outcome == "win" else 1 - mover
    return (1.0, 0.0) if winner == 0 else (0.0, 1.0)


AGENTS: Final = {
    **{level.name: level.description for level in LEVELS.values()},
    RandomAgent.name: RandomAgent.description,
    AlphaBetaAgent.name: AlphaBetaAgent.description,
    UctAgent.name: UctAgent.description,
}


def make_agent(name: str) -> RandomAgent | AlphaBetaAgent | UctAgent | LevelAgent:
    """A fresh agent by name: a level (:mod:`~game.logic.rules.levels`) or one of the plain
    searches kept for comparison; a level's :func:`~game.logic.rules.levels.steady_name` makes
    its steady form (the window's hint). Raises ValueError naming the choices."""
    level = level_agent(name)
    if level is not None:
        return level
    if name == RandomAgent.name:
        return RandomAgent()
    if name == AlphaBetaAgent.name:
        return AlphaBetaAgent()
    if name == UctAgent.name:
        return UctAgent()
    raise ValueError(f"no agent {name!r}; the agents are: {', '.join(AGENTS)}")
