"""A state graph explored once, with a retrograde distance table.

A :class:`StateGraph` is built once by :meth:`StateGraph.explore`: a forward breadth-first search
over every state reachable from the starts, then one backward breadth-first search from all the
goal states. After that, every question a hint asks (how far, which actions are best, one
optimal path) is answered from tables by indexing, never by a new search.

>>> graph = StateGraph.explore([0], lambda n: [(f"+{k}", n + k) for k in (1, 2) if n + k <= 4],
...                            lambda n: n == 4)
>>> graph.distance(0), graph.best_actions(0), graph.path(0)
(2, ['+2'], ['+2', '+2'])
>>> graph.count_shortest_paths(1)
2
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

__all__ = [
    "NoPathError",
    "SearchError",
    "SearchLimitError",
    "StateGraph",
    "UnknownStateError",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")


class SearchError(ValueError):
    """Base class for errors raised by the generic search."""


class SearchLimitError(SearchError):
    """The search met more states than its ``limit`` allows."""


class UnknownStateError(SearchError):
    """A state was asked about that the graph does not hold."""


class NoPathError(SearchError):
    """No goal can be reached from the state asked about."""


class StateGraph(Generic[S, A]):
    """An explored state graph with the distance to the nearest goal of every node.

    Build it with :meth:`explore`. Nodes are kept in discovery order and each node's edges
    ``(action, target)`` in the order the move generator yielded them; "first" below always
    means first in that order, so every answer is deterministic. Look-ups about a state the
    graph does not hold answer as for a state with no way to a goal (``None``, ``[]``, ``0``),
    except :meth:`edges`, :meth:`path` and :meth:`reachable_from`, which raise.
    """

    __slots__ = ("_best", "_by_distance", "_dist", "_edges", "_goal", "_index", "_nodes", "_paths")

    def __init__(
        self,
        nodes: Sequence[S],
        edges: Sequence[Sequence[tuple[A, int]]],
        goal: Sequence[bool],
    ) -> None:
        """Store already indexed tables; use :meth:`explore` instead of calling this.

        ``edges[i]`` lists ``(action, j)`` for the edges of ``nodes[i]`` to ``nodes[j]``, and
        ``goal[i]`` says whether ``nodes[i]`` is a goal.
        """
        if not len(nodes) == len(edges) == len(goal):
            raise SearchError(
                f"tables differ in length: {len(nodes)} nodes, {len(edges)} edge lists, "
                f"{len(goal)} goal flags"
            )
        self._nodes: tuple[S, ...] = tuple(nodes)
        self._index: dict[S, int] = {node: i for i, node in enumerate(self._nodes)}
        if len(self._index) != len(self._nodes):
            raise SearchError("the same node is listed twice")
        self._edges: tuple[tuple[tuple[A, int], ...], ...] = tuple(tuple(out) for out in edges)
        self._goal: tuple[bool, ...] = tuple(goal)
        self._dist, self._by_distance = _retrograde(self._edges, self._goal)
        self._best: tuple[tuple[tuple[A, int], ...], ...] = tuple(
            _best_edges(out, self._dist, d) for out, d in zip(self._edges, self._dist, strict=True)
        )
        self._paths: list[int] | None = None

    @classmethod
    def explore(
        cls,
        starts: Iterable[S],
        moves: Callable[[S], Iterable[tuple[A, S]]],
        is_goal: Callable[[S], bool],
        *,
        limit: int | None = None,
    ) -> StateGraph[S, A]:
        """Explore every state reachable from ``starts`` and solve the graph backwards.

        ``moves(state)`` yields ``(action, next_state)`` pairs; it is called once per state.
        Discovery is breadth-first: the starts in the order given (duplicates dropped), then
        their successors in move order, and so on. A goal need not be a start, but only goals
        that are reached count. ``limit`` caps the number of states; one more raises
        :class:`SearchLimitError`.
        """
        if limit is not None and limit < 0:
            raise SearchError(f"limit must be at least 0, got {limit}")
        index: dict[S, int] = {}
        nodes: list[S] = []
        for start in starts:
            if start not in index:
                _admit(start, index, nodes, limit)
        edges: list[list[tuple[A, int]]] = []
        i = 0
        while i < len(nodes):  # nodes grows while we walk it: a FIFO queue without a deque
            out: list[tuple[A, int]] = []
            for action, target in moves(nodes[i]):
                j = index.get(target)
                if j is None:
                    j = _admit(target, index, nodes, limit)
                out.append((action, j))
            edges.append(out)
            i += 1
        return cls(nodes, edges, [bool(is_goal(node)) for node in nodes])

    @property
    def nodes(self) -> Sequence[S]:
        """Every state, in discovery order (the starts first)."""
        return self._nodes

    def __len__(self) -> int:
        return len(self._nodes)

    def __contains__(self, state: object) -> bool:
        try:
            return state in self._index
        except TypeError:  # an unhashable object is certainly not a node
            return False

    def __repr__(self) -> str:
        return f"<StateGraph: {len(self._nodes)} nodes, {self.edge_count()} edges>"

    def edges(self, state: S) -> list[tuple[A, S]]:
        """The ``(action, target)`` pairs leaving ``state``, in move order.

        Raises :class:`UnknownStateError` if the graph does not hold ``state``.
        """
        nodes = self._nodes
        return [(action, nodes[j]) for action, j in self._edges[self._require(state)]]

    def edge_count(self, undirected: bool = False) -> int:
        """How many edges the graph has.

        Directed, every stored edge counts (two actions between the same pair count twice).
        Undirected, each unordered pair ``{a, b}`` joined by at least one edge counts once.
        """
        if not undirected:
            return sum(len(out) for out in self._edges)
        pairs = {(min(i, j), max(i, j)) for i, out in enumerate(self._edges) for _, j in out}
        return len(pairs)

    def is_goal(self, state: S) -> bool:
        """Whether ``state`` is one of the graph's goals (``False`` for an unknown state)."""
        i = self._index.get(state)
        return i is not None and self._goal[i]

    def distance(self, state: S) -> int | None:
        """The fewest moves from ``state`` to a goal; ``None`` when no goal can be reached."""
        i = self._index.get(state)
        if i is None or self._dist[i] < 0:
            return None
        return self._dist[i]

    def best_actions(self, state: S) -> list[A]:
        """Every action that starts a shortest path to a goal, in move order.

        Empty at a goal, when no goal can be reached, or for an unknown state. Two actions
        reaching the same neighbour are both listed.
        """
        i = self._index.get(state)
        if i is None:
            return []
        return [action for action, _ in self._best[i]]

    def path(self, state: S) -> list[A]:
        """One shortest list of actions from ``state`` to a goal: the first best action each step.

        Empty at a goal. Raises :class:`NoPathError` when no goal can be reached (or the graph
        does not hold ``state``).
        """
        i = self._index.get(state)
        if i is None or self._dist[i] < 0:
            raise NoPathError(f"no goal can be reached from {state!r}")
        actions: list[A] = []
        while self._dist[i] > 0:
            action, i = self._best[i][0]
            actions.append(action)
        return actions

    def count_shortest_paths(self, state: S) -> int:
        """How many different shortest action sequences lead from ``state`` to a goal.

        1 at a goal, 0 when no goal can be reached. The table is filled on the first call.
        """
        i = self._index.get(state)
        if i is None:
            return 0
        if self._paths is None:
            self._paths = _count_paths(self._best, self._by_distance, len(self._nodes))
        return self._paths[i]

    def reachable_from(self, state: S) -> set[S]:
        """Every state reachable from ``state`` (itself included) by following edges.

        Raises :class:`UnknownStateError` if the graph does not hold ``state``.
        """
        first = self._require(state)
        seen = {first}
        queue = [first]
        for i in queue:  # the list grows as we walk it
            for _, j in self._edges[i]:
                if j not in seen:
                    seen.add(j)
                    queue.append(j)
        return {self._nodes[i] for i in seen}

    def _require(self, state: S) -> int:
        i = self._index.get(state)
        if i is None:
            raise UnknownStateError(f"the graph has no state {state!r}")
        return i


def _admit(state: S, index: dict[S, int], nodes: list[S], limit: int | None) -> int:
    j = len(nodes)
    if limit is not None and j >= limit:
        raise SearchLimitError(f"more than {limit} states; raise the limit or narrow the search")
    index[state] = j
    nodes.append(state)
    return j


def _retrograde(
    edges: Sequence[Sequence[tuple[object, int]]], goal: Sequence[bool]
) -> tuple[list[int], list[int]]:
    """Distances to the nearest goal (-1: none) and the nodes in order of distance."""
    reverse: list[list[int]] = [[] for _ in edges]
    for i, out in enumerate(edges):
        for _, j in out:
            reverse[j].append(i)
    dist = [-1] * len(edges)
    order = [i for i, is_goal in enumerate(goal) if is_goal]
    for i in order:
        dist[i] = 0
    for j in order:  # the list grows as we walk it: breadth-first, so distances only rise
        step = dist[j] + 1
        for i in reverse[j]:
            if dist[i] < 0:
                dist[i] = step
                order.append(i)
    return dist, order


def _best_edges(
    out: Sequence[tuple[A, int]], dist: Sequence[int], d: int
) -> tuple[tuple[A, int], ...]:
    if d <= 0:
        return ()
    return tuple(edge for edge in out if dist[edge[1]] == d - 1)


def _count_paths(
    best: Sequence[Sequence[tuple[object, int]]], by_distance: Sequence[int], size: int
) -> list[int]:
    counts = [0] * size
    for i in by_distance:  # every best edge leads to a node counted earlier
        counts[i] = sum(counts[j] for _, j in best[i]) if best[i] else 1
    return counts
