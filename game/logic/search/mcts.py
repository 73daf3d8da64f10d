"""Monte Carlo tree search (UCT) for any game of the contract, with chance nodes and hidden
information, sped up by RAVE.

Each iteration walks a :class:`~game.logic.search.cursor.Cursor` down the tree from the
position to choose in: at a seat's node it takes the child with the best UCB1 score among the
actions legal there (one not tried yet first, drawn at random), at a chance node an outcome
drawn with its probability; from the new leaf it plays random actions to the end (at most
:data:`PLAYOUT_CAP` of them, else the game counts as even) and adds the result, each seat's
share from 0 to 1, to every node on the way for the seat that chose it. The most visited
first action is chosen.

Hidden information: where the game offers a ``determinizer`` (Cluedo), each iteration
starts from a fresh state drawn from what the seat to choose has seen, never from the real
one, and the tree is indexed by actions (single-observer information-set MCTS): a child's
UCB1 counts the iterations in which it was legal (its availability) instead of its parent's
visits. Two positions that look the same to that seat give the same choice for the same
``rng``.

RAVE: a move's value is first read from every playout in which its seat made that move at
any later point (all moves as first), and more and more from its own playouts as they come in.

>>> import random
>>> from game.logic.contract import Limits, Stop
>>> from game.logic.search.toys import Nim
>>> agent = MctsAgent()
>>> agent.choose(Nim(4), Limits(nodes=300), random.Random(0), Stop())  # leave 3
1
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Final

from game.logic.contract import CHANCE, TERMINAL, Limits, State, Stop, ThinkingStopped
from game.logic.search.cursor import Cursor, SearchAgent, choices, draw_cursor, reward

__all__ = ["DEFAULT_TIME", "PLAYOUT_CAP", "MctsAgent"]

#: The time a search takes when the caller gives no limits.
DEFAULT_TIME: Final = 1.0
#: Actions of a playout before it is counted as it stands (even).
PLAYOUT_CAP: Final = 400


class MctsAgent(SearchAgent):
    """UCT with random playouts, chance nodes, determinized hidden information and RAVE;
    see the module docstring. ``rave=False`` turns the all-moves-as-first estimate off."""

    name = "mcts"
    description = "Monte Carlo tree search: plays many random games from each move"

    EXPLORATION: Final = 1.4
    #: Visits at which a move's own playouts and the all-moves-as-first estimate weigh the
    #: same (the larger, the longer RAVE leads).
    RAVE_EQUIVALENCE: Final = 300.0

    def __init__(self, rave: bool = True) -> None:
        super().__init__()
        self.rave = rave

    def search(self, state: State[Any], limits: Limits, rng: random.Random, stop: Stop) -> Any:
        seat, moves = choices(state)
        budget = int(limits.nodes) if limits.nodes else None
        seconds = limits.time if limits.time is not None else (None if budget else DEFAULT_TIME)
        deadline = time.perf_counter() + seconds if seconds else math.inf
        hidden = callable(getattr(state, "determinizer", None))
        start = draw_cursor(state, seat)
        root = _Node(None, None)
        iterations = 0
        while budget is None or iterations < budget:
            if stop.is_set():
                raise ThinkingStopped("stopped")
            if iterations & 15 == 0 and time.perf_counter() > deadline:
                break
            self._iterate(start(rng), root, rng, hidden)
            iterations += 1
        tried = [root.children[m] for m in moves if m in root.children]
        if not tried:  # no iteration ran (a deadline already past)
            self._said = "no time to think: a move at random"
            return rng.choice(moves)
        best = max(tried, key=lambda n: n.visits)
        rate = best.wins / best.visits if best.visits else 0.0
        self._said = f"{iterations} playouts, {rate:.0%} won after the chosen move"
        return best.move

    def _iterate(self, cursor: Cursor[Any], root: _Node, rng: random.Random, hidden: bool) -> None:
        node = root
        path = [node]
        k = self.RAVE_EQUIVALENCE if self.rave else 0.0
        while True:
            who = node.who
            if who is None or hidden:  # without hidden information, the same every visit
                who = node.who = cursor.to_move()
            if who == TERMINAL:
                break
            if who == CHANCE:
                outcomes = list(cursor.chance_outcomes())
                action = rng.choices(
                    [a for a, _ in outcomes], weights=[p for _, p in outcomes], k=1
                )[0]
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(action, None)
                cursor.play(action)
                node = child
                path.append(node)
                continue
            if hidden:  # what is legal depends on the state drawn
                legal = cursor.actions()
                untried = [a for a in legal if a not in node.children]
            else:  # the same every visit: kept, and drawn from until none is left
                if node.untried is None:
                    node.untried = list(cursor.actions())
                untried = node.untried
            if untried:
                action = untried.pop(rng.randrange(len(untried)))
                child = node.children[action] = _Node(action, who)
                child.available = 1
                cursor.play(action)
                path.append(child)
                break
            if hidden:
                present = [node.children[a] for a in legal]
                for each in present:
                    each.available += 1
            else:
                present = list(node.children.values())
            parent = node
            node = max(present, key=lambda n: n.score(self.EXPLORATION, k, parent, hidden))
            cursor.play(node.move)
            path.append(node)
        played: list[tuple[int, Any]] | None = [] if self.rave else None
        result = _playout(cursor, rng, played)
        share = _Shares(result)
        for each in path:
            each.visits += 1
            if each.mover is not None:
                each.wins += share[each.mover]
        if played is None:
            return
        # All moves as first: a child's move made by its seat anywhere after its parent.
        later = set(played)
        for i in range(len(path) - 1, -1, -1):
            for child in path[i].children.values():
                if child.mover is not None and (child.mover, child.move) in later:
                    child.amaf_visits += 1
                    child.amaf_wins += share[child.mover]
            by, made = path[i].mover, path[i].move
            if by is not None:
                later.add((by, made))


class _Node:
    __slots__ = (
        "amaf_visits",
        "amaf_wins",
        "available",
        "children",
        "move",
        "mover",
        "untried",
        "visits",
        "who",
        "wins",
    )

    def __init__(self, move: Any, mover: int | None) -> None:
        self.move = move
        self.mover = mover  # the seat that chose ``move``; None: chance drew it, or the root
        self.children: dict[Any, _Node] = {}
        self.untried: list[Any] | None = None  # without hidden information: not yet tried
        self.who: int | None = None  # who acts at this node (the cursor's to_move), once known
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.amaf_visits = 0
        self.amaf_wins = 0.0

    def score(self, c: float, k: float, parent: _Node, hidden: bool) -> float:
        """The UCB1 score; with ``k`` > 0 its mean is blended with the all-moves-as-first
        mean, the weight of the latter falling as the move's own visits grow. With hidden
        information the times the move was available stand for the parent's visits."""
        mean = self.wins / self.visits
        if k and self.amaf_visits:
            beta = math.sqrt(k / (3.0 * self.visits + k))
            mean = (1.0 - beta) * mean + beta * self.amaf_wins / self.amaf_visits
            c *= 0.5  # the shared estimate explores for it
        total = self.available if hidden else parent.visits
        return mean + c * math.sqrt(math.log(total) / self.visits)


class _Shares(dict[int, float]):
    """Each seat's share of a playout's result (:func:`reward`), worked out once a seat;
    0.5 each when the playout was cut off (no result)."""

    def __init__(self, result: tuple[float, ...]) -> None:
        super().__init__()
        self.result = result

    def __missing__(self, seat: int) -> float:
        value = self[seat] = reward(self.result, seat) if self.result else 0.5
        return value


def _playout(
    cursor: Cursor[Any], rng: random.Random, played: list[tuple[int, Any]] | None
) -> tuple[float, ...]:
    """Random actions (chance by its probabilities) to the end: the returns; () when the cap
    came first. ``played`` (when given) receives each (seat, action) a seat chose."""
    for _ in range(PLAYOUT_CAP):
        who = cursor.to_move()
        if who == TERMINAL:
            return cursor.returns()
        if who == CHANCE:
            outcomes = list(cursor.chance_outcomes())
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            action = rng.choice(cursor.actions())
            if played is not None:
                played.append((who, action))
        cursor.play(action)
    return ()
