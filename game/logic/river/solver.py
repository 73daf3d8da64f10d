"""Priests and Devils: the solver.

:class:`RiverPuzzle` answers every question about one set of :class:`RiverRules`: the fewest
crossings from any state, every optimal load to send next (:class:`NextCrossings`), the clicks
of the next optimal crossing (:meth:`RiverPuzzle.plan`) and whole solutions. It works on the state
graph of :class:`Crossing` nodes, where a half-loaded boat's passengers count for the bank it
is docked at, as the judge counts them, and edges are the loads the rules let row. When the
rules count passengers for no bank, boarding and landing matter too, and the work goes to the
click-level solver of :mod:`game.logic.river.ashore`; the answers have the same form. Nothing
here changes a state.

>>> state = RiverState.start(RiverRules())
>>> puzzle = RiverPuzzle(state.rules)
>>> puzzle.optimal_crossings(), [str(load) for load in puzzle.hint(state).loads]
(11, ['2 devils', '1 priest + 1 devil'])
>>> [str(action) for action in puzzle.plan(state)]
['board:devil', 'board:devil', 'boat']
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.logic.river import ashore
from game.logic.river.rules import (
    Crossing,
    Goal,
    Kind,
    Load,
    Outcome,
    RiverError,
    RiverRules,
    RiverSettingError,
    Rowers,
    Side,
    people,
)
from game.logic.river.state import (
    Action,
    BoardBoat,
    Cross,
    RiverState,
    Unboard,
)
from game.logic.search import StateGraph

__all__ = ["NextCrossings", "NoSolutionError", "RiverPuzzle"]


class NoSolutionError(RiverError):
    """A solution was asked for from a state that has none (lost, or no way across)."""


@dataclass(frozen=True, slots=True)
class NextCrossings:
    """The optimal next crossing(s) from a state.

    ``loads`` lists every load that starts a shortest way to the win, ordered by priests
    then devils, ascending (``(0, 2)`` before ``(1, 1)``). ``distance`` is the fewest
    crossings left (``None`` when the win cannot be reached). When ``loads`` is empty,
    ``reason`` says why: "the game is lost", "already won", "no way across from here", or
    "everyone is across: unload the boat" (the boat is docked right with the last passengers
    still aboard).
    """

    loads: tuple[Load, ...]
    distance: int | None
    reason: str | None = None


class RiverPuzzle:
    """The solver for one set of rules: distances, hints, plans and full solutions.

    The state graph has a node for every safe :class:`Crossing` (reachable from the start or
    not), so a hint works from any safe state. It is built on first use and cached per
    :class:`RiverRules`, so puzzles for the same rules share it and a hint is a table look-up. The
    click table behind :meth:`next_load` is built and cached the same way on its first use.
    Building both for the largest rules (200 priests, 100 devils, 12 seats) takes a couple of
    seconds; for the rules a player picks, milliseconds. Methods taking a :class:`RiverState`
    raise :class:`RiverSettingError` if it was made for other rules. Nothing here changes a
    state.
    """

    __slots__ = ("rules",)

    def __init__(self, rules: RiverRules) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"RiverPuzzle({self.rules!r})"

    @property
    def graph(self) -> StateGraph[Crossing, Load]:
        """The state graph over :class:`Crossing` nodes; edge actions are :class:`Load` s.

        Only for rules that count passengers for their bank (``boat_counts``); otherwise
        raises :class:`RiverSettingError` (the counts do not decide the game there).
        """
        if not self.rules.boat_counts:
            raise RiverSettingError(
                "with passengers counting for no bank the game has no crossing graph"
            )
        return _graph_for(self.rules)

    @property
    def start(self) -> Crossing:
        """The start node: everyone on the left, boat on the left."""
        return Crossing(self.rules.priests, self.rules.devils, Side.LEFT)

    @staticmethod
    def check(rules: RiverRules) -> None:
        """Raise :class:`RiverSettingError` if ``rules`` cannot be solved from the start.

        The message reads like "4 priests and 4 devils cannot cross in a boat for 2", with
        the variants that make it so ("... when only priests row"); rules too big for the
        click-level solver are refused with the numbers.
        """
        if not rules.boat_counts:
            ashore.check_size(rules)
        if not RiverPuzzle(rules).solvable():
            raise RiverSettingError(_unsolvable_message(rules))

    def solvable(self) -> bool:
        """Whether the start can reach the win."""
        return self.optimal_crossings() is not None

    def optimal_crossings(self) -> int | None:
        """The fewest crossings from the start to the win; ``None`` if there is no way."""
        return self.distance(RiverState.start(self.rules))

    def reachable(self) -> set[Crossing]:
        """Every node the start can reach (the start included)."""
        return self.graph.reachable_from(self.start)

    def distance(self, state: RiverState | Crossing) -> int | None:
        """The fewest crossings left to the win; ``None`` if lost or there is no way.

        A state won, or one docked right with the last passengers aboard, is at 0. (A won
        state is at 0 even with the boat left on the left bank, which no real game reaches:
        the judge decides, and its node ``0P0D|L`` has no distance.)
        """
        if isinstance(state, RiverState):
            self._require(state)
            outcome = state.outcome()
            if outcome is not Outcome.PLAYING:
                return 0 if outcome is Outcome.WON else None
            if not self.rules.boat_counts:
                cost = self._ashore_cost(state)
                return None if cost is None else cost // ashore.CLICK_SCALE
            state = state.crossing()
        return self.graph.distance(state)

    def hint(self, state: RiverState) -> NextCrossings:
        """Every optimal next load from ``state`` (:class:`NextCrossings` says the order and
        the reasons).

        Passengers of a half-loaded boat count for the bank where it is docked.
        """
        self._require(state)
        outcome = state.outcome()
        if outcome is Outcome.LOST:
            return NextCrossings((), None, "the game is lost")
        if outcome is Outcome.WON:
            return NextCrossings((), 0, "already won")
        distance = self.distance(state)
        if distance is None:
            return NextCrossings((), None, "no way across from here")
        if distance == 0:
            who = "everyone is" if self.rules.goal is Goal.EVERYONE else "every priest is"
            return NextCrossings((), 0, f"{who} across: unload the boat")
        if not self.rules.boat_counts:
            return NextCrossings(self._ashore_loads(state, distance), distance, None)
        return NextCrossings(tuple(self.graph.best_actions(state.crossing())), distance, None)

    def next_load(self, state: RiverState) -> Load | None:
        """The one optimal load to send next, or ``None`` when :meth:`hint` has none.

        Among optimal loads the one that leaves the fewest board and unboard clicks to the win
        is chosen: this step's clicks from the current passengers plus those of the best
        continuation (see :meth:`optimal_clicks`). Ties go to the load needing the fewest
        clicks now (it keeps what the player already boarded), then to the first in
        :attr:`NextCrossings.loads`. Following it from the start wins with the fewest clicks among
        the ways with the fewest crossings (3/3/2: 11 crossings and 20 clicks).
        """
        loads = self.hint(state).loads
        if not loads:
            return None
        if not self.rules.boat_counts:
            crossing = self._ashore_plan(state)[-1:]
            return crossing[0][1] if crossing else None
        return _cheapest(_clicks_table(self.rules), state.crossing(), state.boat, loads)

    def optimal_clicks(self, state: RiverState | None = None) -> int | None:
        """The fewest board and unboard clicks from ``state`` (default: the start) to the win,
        among the ways with the fewest crossings; ``None`` when lost or there is no way.

        >>> RiverPuzzle(RiverRules()).optimal_clicks()
        20
        """
        state = RiverState.start(self.rules) if state is None else state
        self._require(state)
        if state.is_terminal():
            return 0 if state.outcome() is Outcome.WON else None
        if not self.rules.boat_counts:
            cost = self._ashore_cost(state)
            return None if cost is None else cost % ashore.CLICK_SCALE
        node = state.crossing()
        if self.graph.distance(node) is None:
            return None
        return _clicks_from(self.graph, _clicks_table(self.rules), node, state.boat)

    def plan(self, state: RiverState) -> list[Action]:
        """The clicks that make the next optimal crossing from ``state``.

        Unboard the passengers not in :meth:`next_load` (priests first), board the missing
        ones (priests first), then :class:`Cross`. With the boat docked right and the last
        passengers aboard, only the unboarding (of the priests, when the goal is every
        priest across). Empty when the game is over or there is no way across. When
        passengers count for no bank, the clicks of the cheapest way, in an order that
        keeps both banks safe.
        """
        if not self.rules.boat_counts:
            self._require(state)
            if state.is_terminal():
                return []
            return [action for action, _ in self._ashore_plan(state)]
        load = self.next_load(state)
        if load is None:
            if not state.is_terminal() and self.distance(state) == 0:
                return _unboard_all(state.boat, self.rules.goal)
            return []
        actions: list[Action] = []
        for kind in Kind:
            actions.extend(Unboard(kind) for _ in range(state.boat.of(kind) - load.of(kind)))
        for kind in Kind:
            actions.extend(BoardBoat(kind) for _ in range(load.of(kind) - state.boat.of(kind)))
        actions.append(Cross())
        return actions

    def solution(self, state: RiverState | None = None) -> list[Load]:
        """The optimal loads, one per crossing, from ``state`` (default: the start) to the win.

        Each load is the one :meth:`next_load` would pick, the passengers being the previous
        load. Empty when already won or only unloading is left. Raises
        :class:`NoSolutionError` when the game is lost or there is no way across.
        """
        state = RiverState.start(self.rules) if state is None else state
        self._require(state)
        hint = self.hint(state)
        if hint.distance is None:
            raise NoSolutionError(self._no_solution(state, hint))
        if not hint.loads:  # won, or only the unloading is left
            return []
        if not self.rules.boat_counts:
            loads: list[Load] = []
            while not state.is_terminal():
                step = self._ashore_plan(state)
                for action, _ in step:
                    state = state.apply(action)
                if isinstance(step[-1][0], Cross):
                    loads.append(step[-1][1])
            return loads
        graph, table = self.graph, _clicks_table(self.rules)
        node, passengers = state.crossing(), state.boat
        loads = []
        while not graph.is_goal(node):
            load = _cheapest(table, node, passengers, graph.best_actions(node))
            loads.append(load)
            node, passengers = node.after(load), load
        return loads

    def solve_actions(self, state: RiverState | None = None) -> list[Action]:
        """Every click from ``state`` (default: the start) to the win, following :meth:`plan`.

        The win takes exactly :meth:`distance` crossings. Raises :class:`NoSolutionError`
        when the game is lost or there is no way across.
        """
        state = RiverState.start(self.rules) if state is None else state
        self._require(state)
        actions: list[Action] = []
        while state.outcome() is not Outcome.WON:
            step = self.plan(state)
            if not step:
                raise NoSolutionError(self._no_solution(state, self.hint(state)))
            for action in step:
                state = state.apply(action)
            actions.extend(step)
        return actions

    def _ashore_cost(self, state: RiverState) -> int | None:
        return ashore.costs(self.rules).get(ashore.position(state))

    def _ashore_loads(self, state: RiverState, distance: int) -> tuple[Load, ...]:
        """Every load that leaves on a way with ``distance`` crossings: the boat's load at
        each position reachable by boarding and landing alone (each safe), whose crossing
        lands ``distance - 1`` crossings from the win. Ordered as :attr:`NextCrossings.loads`."""
        rules, cost = self.rules, ashore.costs(self.rules)
        scale = ashore.CLICK_SCALE
        here = ashore.position(state)
        seen, todo, loads = {here}, [here], set()
        while todo:
            pos = todo.pop()
            for action, _, target in ashore.moves(rules, pos):
                if isinstance(action, Cross):
                    after = cost.get(target)
                    if after is not None and after // scale == distance - 1:
                        loads.add(Load(pos[2], pos[3]))
                elif target not in seen and ashore.status(rules, target) == 0:
                    seen.add(target)
                    todo.append(target)
        return tuple(sorted(loads))

    def _ashore_plan(self, state: RiverState) -> list[tuple[Action, Load]]:
        """The clicks of the cheapest way up to and including its next crossing (or to the
        win), each with the boat's load after it; empty when there is no way."""
        rules, cost = self.rules, ashore.costs(self.rules)
        pos = ashore.position(state)
        left = cost.get(pos)
        steps: list[tuple[Action, Load]] = []
        while left:
            for action, step, target in ashore.moves(rules, pos):
                if cost.get(target) == left - step:
                    steps.append((action, Load(target[2], target[3])))
                    pos, left = target, left - step
                    break
            else:  # pragma: no cover - the costs guarantee a next step
                raise NoSolutionError(f"no cheapest step from {state}")
            if isinstance(steps[-1][0], Cross):
                break
        return steps

    def _require(self, state: RiverState) -> None:
        if state.rules != self.rules:
            raise RiverSettingError(
                f"the state is for rules {state.rules.key()}, the puzzle for {self.rules.key()}"
            )

    def _no_solution(self, state: RiverState, hint: NextCrossings) -> str:
        if state.key() == RiverState.start(self.rules).key():
            return _unsolvable_message(self.rules)
        return f"{hint.reason} ({state.crossing()})"


def _unsolvable_message(rules: RiverRules) -> str:
    parts = [people(n, kind) for n, kind in zip(rules.start_load, Kind, strict=True) if n]
    seats = "a boat for 1" if rules.capacity == 1 else f"a boat for {rules.capacity}"
    variants = []
    if not rules.boat_counts:
        variants.append("passengers count for no bank")
    if rules.rowers is not Rowers.ANYONE:
        variants.append(rules.rowers.describe())
    who = " and ".join(parts)
    if rules.goal is Goal.PRIESTS:
        who = f"the {people(rules.priests, Kind.PRIEST)} (with {people(rules.devils, Kind.DEVIL)})"
    text = f"{who} cannot cross in {seats}"
    return f"{text} when {' and '.join(variants)}" if variants else text


def _unboard_all(boat: Load, goal: Goal = Goal.EVERYONE) -> list[Action]:
    kinds = list(Kind) if goal is Goal.EVERYONE else [Kind.PRIEST]
    return [Unboard(kind) for kind in kinds for _ in range(boat.of(kind))]


def _clicks(passengers: Load, load: Load) -> int:
    return abs(passengers.priests - load.priests) + abs(passengers.devils - load.devils)


@dataclass(frozen=True, slots=True)
class _ClickTable:
    """The fewest board and unboard clicks to the win after each optimal crossing.

    ``after[offsets[node] + j]`` belongs to the crossing from ``node`` with the ``j``-th load of
    ``graph.best_actions(node)``; the passengers on landing are that load.
    """

    offsets: dict[Crossing, int]
    after: list[int]
    everyone: bool = True  # the goal is everyone across (else every priest)


def _cheapest(table: _ClickTable, node: Crossing, passengers: Load, loads: Sequence[Load]) -> Load:
    """The optimal load from ``node`` that leaves the fewest clicks to the win.

    Ties go to the load needing the fewest clicks now, then to the first.
    """
    base = table.offsets[node]
    costs = []
    for j, load in enumerate(loads):
        now = _clicks(passengers, load)
        costs.append((now + table.after[base + j], now))
    return loads[costs.index(min(costs))]


def _clicks_from(
    graph: StateGraph[Crossing, Load], table: _ClickTable, node: Crossing, passengers: Load
) -> int:
    """Fewest clicks to the win from solvable ``node`` with ``passengers`` aboard."""
    loads = graph.best_actions(node)
    if not loads:  # at the goal: only the unloading is left
        return passengers.size if table.everyone else passengers.priests
    base = table.offsets[node]
    return min(_clicks(passengers, load) + table.after[base + j] for j, load in enumerate(loads))


@functools.lru_cache(maxsize=16)
def _clicks_table(rules: RiverRules) -> _ClickTable:
    """Fill the click table layer by layer, from the goal outwards.

    With the load ``L`` just landed at node ``t``, the fewest clicks left are the minimum over
    the optimal loads ``L'`` from ``t`` of ``|L - L'|`` (priests and devils apart) plus the
    entry of ``(t, L')``; at the goal they are ``|L|``, the unloading. Big rule sets have tens
    of optimal loads per node, so that minimum is an L1 distance transform over the grid of
    loads, done with numpy for all nodes of a distance layer at once.
    """
    graph = _graph_for(rules)
    nodes = graph.nodes
    offsets: dict[Crossing, int] = {}
    per_node: list[int] = []
    flat: list[Load] = []
    distances: list[int] = []
    for node in nodes:
        offsets[node] = len(flat)
        loads = graph.best_actions(node)
        per_node.append(len(loads))
        flat.extend(loads)
        distance = graph.distance(node)
        distances.append(-1 if distance is None else distance)
    everyone = rules.goal is Goal.EVERYONE
    if not flat:
        return _ClickTable(offsets, [], everyone)

    dist = np.array(distances, dtype=np.int64)
    src = np.repeat(np.arange(len(nodes)), per_node)
    load_p, load_d = np.array(flat, dtype=np.int64).reshape(-1, 2).T
    node_p = np.array([node.left_priests for node in nodes], dtype=np.int64)
    node_d = np.array([node.left_devils for node in nodes], dtype=np.int64)
    node_left = np.array([node.boat is Side.LEFT for node in nodes], dtype=np.int64)
    grid = np.full((2, rules.priests + 1, rules.devils + 1), -1, dtype=np.int64)
    grid[node_left, node_p, node_d] = np.arange(len(nodes))
    sign = 1 - 2 * node_left[src]  # a crossing from the left takes people off the left
    target = grid[1 - node_left[src], node_p[src] + sign * load_p, node_d[src] + sign * load_d]

    # nodes and edges grouped by distance; local[i]: the place of node i in its layer
    top = int(dist.max())
    node_order = np.argsort(dist, kind="stable")
    node_bounds = np.searchsorted(dist[node_order], np.arange(top + 2))
    local = np.empty(len(nodes), dtype=np.int64)
    local[node_order] = np.arange(len(nodes)) - node_bounds[np.maximum(dist[node_order], 0)]
    edge_dist = dist[src]
    edge_order = np.argsort(edge_dist, kind="stable")
    edge_bounds = np.searchsorted(edge_dist[edge_order], np.arange(top + 2))

    after = np.zeros(len(flat), dtype=np.float64)
    seats = rules.capacity + 1
    for k in range(1, top + 1):
        below = np.full((node_bounds[k] - node_bounds[k - 1], seats, seats), np.inf)
        if k == 1:  # the goal: every passenger (or every priest) still has to get off
            if rules.goal is Goal.EVERYONE:
                below[:, 0, 0] = 0.0
            else:
                below[:, 0, :] = 0.0
        else:
            edges = edge_order[edge_bounds[k - 1] : edge_bounds[k]]
            below[local[src[edges]], load_p[edges], load_d[edges]] = after[edges]
        left = _l1_transform(_l1_transform(below, 1), 2)
        edges = edge_order[edge_bounds[k] : edge_bounds[k + 1]]
        after[edges] = left[local[target[edges]], load_p[edges], load_d[edges]]
    return _ClickTable(offsets, [int(value) for value in after.tolist()], everyone)


def _l1_transform(values: npt.NDArray[np.float64], axis: int) -> npt.NDArray[np.float64]:
    """``out[x] = min over y of values[y] + |x - y|`` along ``axis``."""
    shape = [1] * values.ndim
    shape[axis] = values.shape[axis]
    x = np.arange(values.shape[axis], dtype=np.float64).reshape(shape)
    rising = np.minimum.accumulate(values - x, axis=axis) + x
    falling = np.flip(np.minimum.accumulate(np.flip(values + x, axis), axis=axis), axis) - x
    result: npt.NDArray[np.float64] = np.minimum(rising, falling)
    return result


@functools.lru_cache(maxsize=16)
def _graph_for(rules: RiverRules) -> StateGraph[Crossing, Load]:
    """Build the graph over every node the judge does not call lost (outnumbered, or a boat
    stranded where nobody may row it); edges are the loads the rules let row whose landing
    is not lost. Goals: no one on the left (everyone across), or no priest on the left
    (every priest across, whatever the boat's side)."""
    total_p, total_d = rules.priests, rules.devils
    loads = [
        Load(p, d)
        for p in range(rules.capacity + 1)
        for d in range(rules.capacity + 1 - p)
        if p + d and rules.rowers.can_row(Load(p, d))
    ]  # ascending (priests, devils): the documented order of NextCrossings.loads
    everyone = rules.goal is Goal.EVERYONE

    def goal(p: int, d: int, side: Side) -> bool:
        return p == 0 and (side is Side.RIGHT and d == 0 if everyone else True)

    def safe(p: int, d: int, side: Side) -> bool:
        if not ((p == 0 or p >= d) and (total_p == p or total_p - p >= total_d - d)):
            return False
        if rules.rowers is Rowers.ANYONE or goal(p, d, side):
            return True
        here = Load(p, d) if side is Side.LEFT else Load(total_p - p, total_d - d)
        return rules.rowers.can_row(here)  # else the boat is stranded: lost

    # nodes[side][p][d] is the one Crossing instance for that node, or None if lost
    nodes: dict[Side, list[list[Crossing | None]]] = {
        side: [
            [Crossing(p, d, side) if safe(p, d, side) else None for d in range(total_d + 1)]
            for p in range(total_p + 1)
        ]
        for side in Side
    }
    start = nodes[Side.LEFT][total_p][total_d]
    starts = [start] if start is not None else []
    starts += [node for side in Side for row in nodes[side] for node in row if node is not None]

    def moves(node: Crossing) -> Iterator[tuple[Load, Crossing]]:
        p, d = node.left_priests, node.left_devils
        if node.boat is Side.LEFT:
            avail_p, avail_d, sign = p, d, -1
        else:
            avail_p, avail_d, sign = total_p - p, total_d - d, 1
        landing = nodes[node.boat.other]
        for load in loads:
            if load.priests > avail_p:
                break  # loads are sorted by priests: the rest need even more
            if load.devils <= avail_d:
                target = landing[p + sign * load.priests][d + sign * load.devils]
                if target is not None:
                    yield load, target

    return StateGraph.explore(
        starts, moves, lambda node: goal(node.left_priests, node.left_devils, node.boat)
    )
