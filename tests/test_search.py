"""Tests for the generic state graph in game.logic.search."""

from __future__ import annotations

import doctest
import math
from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.logic.search import (
    NoPathError,
    SearchError,
    SearchLimitError,
    StateGraph,
    UnknownStateError,
    graph,
)

Grid = tuple[int, int]


def grid_moves(size: int) -> Callable[[Grid], Iterable[tuple[str, Grid]]]:
    """Moves right ("R") and up ("U") on a size x size grid."""

    def moves(cell: Grid) -> Iterable[tuple[str, Grid]]:
        x, y = cell
        if x < size - 1:
            yield "R", (x + 1, y)
        if y < size - 1:
            yield "U", (x, y + 1)

    return moves


def grid(size: int) -> StateGraph[Grid, str]:
    goal = (size - 1, size - 1)
    return StateGraph.explore([(0, 0)], grid_moves(size), lambda cell: cell == goal)


def test_doctests() -> None:
    failures, tried = doctest.testmod(graph)
    assert tried > 0
    assert failures == 0


def test_discovery_order_is_breadth_first_from_the_starts() -> None:
    graph = StateGraph.explore(
        [3, 1, 3],
        lambda n: [("double", 2 * n), ("inc", n + 1)] if n < 6 else [],
        lambda n: n == 6,
    )
    assert list(graph.nodes) == [3, 1, 6, 4, 2, 8, 5, 10]
    assert len(graph) == 8
    assert 10 in graph and 7 not in graph and [1] not in graph  # unhashable is just absent


def test_edges_keep_move_order() -> None:
    graph = grid(3)
    assert graph.edges((0, 0)) == [("R", (1, 0)), ("U", (0, 1))]
    assert graph.edges((2, 2)) == []
    assert graph.edge_count() == 12
    assert graph.edge_count(undirected=True) == 12


def test_distances_best_actions_and_paths_on_a_grid() -> None:
    graph = grid(4)
    assert graph.distance((0, 0)) == 6
    assert graph.distance((3, 3)) == 0
    assert graph.is_goal((3, 3)) and not graph.is_goal((0, 0))
    assert graph.best_actions((0, 0)) == ["R", "U"]
    assert graph.best_actions((3, 0)) == ["U"]
    assert graph.best_actions((3, 3)) == []
    assert graph.path((0, 0)) == ["R", "R", "R", "U", "U", "U"]
    assert graph.path((3, 3)) == []
    for x in range(4):
        for y in range(4):
            assert graph.count_shortest_paths((x, y)) == math.comb(6 - x - y, 3 - x)


def test_unreachable_goal_and_unknown_states() -> None:
    # 0 -> 1 -> 2 (goal); 3 -> 4, and 4 leads nowhere.
    succ = {0: [1], 1: [2], 2: [], 3: [4], 4: []}
    graph = StateGraph.explore(
        [0, 3], lambda n: [(f"{n}>{m}", m) for m in succ[n]], {2}.__contains__
    )
    assert graph.distance(3) is None
    assert graph.best_actions(3) == []
    assert graph.count_shortest_paths(3) == 0
    with pytest.raises(NoPathError):
        graph.path(3)
    assert graph.distance(99) is None
    assert graph.best_actions(99) == []
    assert graph.count_shortest_paths(99) == 0
    assert not graph.is_goal(99)
    with pytest.raises(UnknownStateError):
        graph.edges(99)
    with pytest.raises(UnknownStateError):
        graph.reachable_from(99)
    with pytest.raises(NoPathError):
        graph.path(99)
    assert graph.reachable_from(0) == {0, 1, 2}
    assert graph.reachable_from(3) == {3, 4}
    assert issubclass(SearchError, ValueError)


def test_several_goals_and_cycles() -> None:
    # A ring 0..5 walked both ways; goals 0 and 3.
    graph = StateGraph.explore(
        [1],
        lambda n: [("+", (n + 1) % 6), ("-", (n - 1) % 6)],
        lambda n: n in (0, 3),
    )
    assert [graph.distance(n) for n in range(6)] == [0, 1, 1, 0, 1, 1]
    assert graph.best_actions(1) == ["-"]
    assert graph.best_actions(2) == ["+"]
    assert graph.edge_count() == 12
    assert graph.edge_count(undirected=True) == 6


def test_two_actions_to_one_neighbour_are_both_best() -> None:
    graph = StateGraph.explore(
        ["a"], lambda s: [("x", "b"), ("y", "b")] if s == "a" else [], "b".__eq__
    )
    assert graph.best_actions("a") == ["x", "y"]
    assert graph.count_shortest_paths("a") == 2
    assert graph.edge_count() == 2
    assert graph.edge_count(undirected=True) == 1


def test_limit() -> None:
    moves = grid_moves(10)
    assert len(StateGraph.explore([(0, 0)], moves, lambda c: False, limit=100)) == 100
    with pytest.raises(SearchLimitError, match="99"):
        StateGraph.explore([(0, 0)], moves, lambda c: False, limit=99)
    with pytest.raises(SearchLimitError):
        StateGraph.explore([1, 2], lambda n: [], lambda n: False, limit=1)
    with pytest.raises(SearchError):
        StateGraph.explore([1], lambda n: [], lambda n: False, limit=-1)


def test_the_move_generator_runs_once_per_state() -> None:
    calls: list[int] = []

    def moves(n: int) -> list[tuple[int, int]]:
        calls.append(n)
        return [(1, (n + 1) % 5), (2, (n + 2) % 5)]

    graph = StateGraph.explore([0], moves, lambda n: n == 4)
    assert sorted(calls) == [0, 1, 2, 3, 4]
    for _ in range(3):
        graph.best_actions(0)
        graph.path(0)
    assert len(calls) == 5


@st.composite
def random_graphs(draw: st.DrawFn) -> tuple[int, list[list[int]], set[int]]:
    size = draw(st.integers(1, 12))
    succ = [draw(st.lists(st.integers(0, size - 1), max_size=4)) for _ in range(size)]
    goals = draw(st.sets(st.integers(0, size - 1), max_size=3))
    return size, succ, goals


def brute_distance(succ: list[list[int]], goals: set[int], start: int) -> int | None:
    frontier, seen, depth = {start}, {start}, 0
    while frontier:
        if frontier & goals:
            return depth
        frontier = {m for n in frontier for m in succ[n]} - seen
        seen |= frontier
        depth += 1
    return None


def brute_count(succ: list[list[int]], goals: set[int], start: int, depth: int) -> int:
    """Walks of exactly ``depth`` steps from ``start`` that end on a goal.

    With ``depth`` the distance to the nearest goal these are exactly the shortest paths.
    """
    walks = [1 if n in goals else 0 for n in range(len(succ))]
    for _ in range(depth):
        walks = [sum(walks[m] for m in succ[n]) for n in range(len(succ))]
    return walks[start]


@settings(max_examples=200, deadline=None)
@given(random_graphs())
def test_tables_match_brute_force(case: tuple[int, list[list[int]], set[int]]) -> None:
    size, succ, goals = case
    graph = StateGraph.explore(
        range(size), lambda n: [(k, m) for k, m in enumerate(succ[n])], goals.__contains__
    )
    assert list(graph.nodes) == list(range(size))
    assert graph.edge_count() == sum(len(out) for out in succ)
    pairs = {frozenset((n, m)) for n in range(size) for m in succ[n]}
    assert graph.edge_count(undirected=True) == len(pairs)
    for n in range(size):
        expected = brute_distance(succ, goals, n)
        assert graph.distance(n) == expected
        assert graph.is_goal(n) == (n in goals)
        best = graph.best_actions(n)
        if expected is None or expected == 0:
            assert best == []
            assert graph.count_shortest_paths(n) == (1 if expected == 0 else 0)
            continue
        assert best == [
            k for k, m in enumerate(succ[n]) if brute_distance(succ, goals, m) == expected - 1
        ]
        assert graph.count_shortest_paths(n) == brute_count(succ, goals, n, expected)
        path = graph.path(n)
        assert len(path) == expected
        node = n
        for k in path:
            node = succ[node][k]
        assert node in goals
