"""Tests for Priests and Devils (game.logic.river.game) against the oracles of the spec,
section 5."""

from __future__ import annotations

import doctest
import heapq
import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.logic.contract import TERMINAL
from game.logic.river import game as river
from game.logic.river import rules as river_rules
from game.logic.river import solver as river_solver
from game.logic.river import state as river_state
from game.logic.river.game import (
    Action,
    BoardBoat,
    Cross,
    Crossing,
    IllegalRiverActionError,
    InvalidActionError,
    Kind,
    Load,
    NextCrossings,
    NoSolutionError,
    Outcome,
    RiverPuzzle,
    RiverRules,
    RiverSettingError,
    RiverState,
    Side,
    Unboard,
    parse_action,
)

L, R = Side.LEFT, Side.RIGHT
P, D = Kind.PRIEST, Kind.DEVIL
CLASSIC = RiverRules(3, 3, 2)


# --- independent oracles -------------------------------------------------------------------


def click_oracle(state: RiverState) -> tuple[int, int] | None:
    """Fewest crossings, then fewest board/unboard clicks, to the win: Dijkstra over clicks.

    Uses only the click-level rules (legal_actions, apply, verdict), not the state graph.
    """
    best = {state.key(): (0, 0)}
    tie = itertools.count()
    heap = [(0, 0, next(tie), state)]
    while heap:
        crossings, clicks, _, current = heapq.heappop(heap)
        if best[current.key()] < (crossings, clicks):
            continue
        if current.verdict().outcome is Outcome.WON:
            return crossings, clicks
        for action in current.legal_actions():
            nxt = current.apply(action)
            cost = (crossings + 1, clicks) if isinstance(action, Cross) else (crossings, clicks + 1)
            if cost < best.get(nxt.key(), (1 << 30, 0)):
                best[nxt.key()] = cost
                heapq.heappush(heap, (*cost, next(tie), nxt))
    return None


def crossings_of(actions: list[Action]) -> int:
    return sum(isinstance(action, Cross) for action in actions)


def play(state: RiverState, actions: Sequence[Action]) -> RiverState:
    for action in actions:
        state = state.apply(action)
    return state


def node(p: int, d: int, side: Side) -> Crossing:
    return Crossing(p, d, side)


# --- section 5.4: the 3/3/2 state graph ----------------------------------------------------


@pytest.mark.parametrize("module", [river, river_rules, river_state, river_solver])
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0
    assert failures == 0


def test_classic_graph_sizes() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    raw = [node(p, d, side) for side in Side for p in range(4) for d in range(4)]
    assert len(raw) == 32
    assert len(puzzle.graph) == 20  # every safe node
    assert set(puzzle.graph.nodes) <= set(raw)
    reachable = puzzle.reachable()
    assert len(reachable) == 16
    pairs = {
        frozenset((a, b))
        for a in reachable
        for _, b in puzzle.graph.edges(a)
        if b in reachable  # crossings are reversible, so b always is
    }
    assert len(pairs) == 17
    assert puzzle.graph.edge_count(undirected=True) == 17  # the other 4 nodes are isolated
    assert puzzle.optimal_crossings() == 11
    assert puzzle.graph.count_shortest_paths(puzzle.start) == 4


def test_classic_unreachable_safe_nodes() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    unreachable = set(puzzle.graph.nodes) - puzzle.reachable()
    assert unreachable == {node(0, 0, L), node(0, 3, R), node(3, 0, L), node(3, 3, R)}
    for crossing in unreachable:
        assert puzzle.distance(crossing) is None


TABLE_5_4 = [
    ((3, 2, R), 12, [(0, 1)]),
    ((3, 3, L), 11, [(0, 2), (1, 1)]),
    ((3, 1, R), 10, [(0, 1)]),
    ((2, 2, R), 10, [(1, 0)]),
    ((3, 2, L), 9, [(0, 2)]),
    ((3, 0, R), 8, [(0, 1)]),
    ((3, 1, L), 7, [(2, 0)]),
    ((1, 1, R), 6, [(1, 1)]),
    ((2, 2, L), 5, [(2, 0)]),
    ((0, 2, R), 4, [(0, 1)]),
    ((0, 3, L), 3, [(0, 2)]),
    ((0, 1, R), 2, [(0, 1), (1, 0)]),
    ((0, 2, L), 1, [(0, 2)]),
    ((0, 1, L), 1, [(0, 1)]),
    ((1, 1, L), 1, [(1, 1)]),
    ((0, 0, R), 0, []),
]


def test_table_5_4_covers_exactly_the_reachable_nodes() -> None:
    assert {node(*row[0]) for row in TABLE_5_4} == RiverPuzzle(CLASSIC).reachable()


@pytest.mark.parametrize(("where", "distance", "loads"), TABLE_5_4, ids=lambda v: str(v))
def test_table_5_4(
    where: tuple[int, int, Side], distance: int, loads: list[tuple[int, int]]
) -> None:
    puzzle = RiverPuzzle(CLASSIC)
    crossing = node(*where)
    assert puzzle.distance(crossing) == distance
    assert puzzle.graph.best_actions(crossing) == loads  # ascending (priests, devils)
    state = RiverState.from_crossing(CLASSIC, crossing)
    hint = puzzle.hint(state)
    assert hint.distance == distance
    assert hint.loads == tuple(Load(*load) for load in loads)
    if distance == 0:
        assert state.verdict().outcome is Outcome.WON
        assert hint.reason == "already won"
    else:
        assert hint.reason is None
        assert puzzle.next_load(state) in hint.loads


# --- sections 5.2 and 5.3: many rule sets --------------------------------------------------

TABLE_5_2 = """
1 | 1 | 1 | 1 | 1 | 1
2 | 5 | 3 | 1 | 1 | 1
3 | 11 | 5 | 3 | 3 | 1
4 | — | 9 | 5 | 3 | 3
5 | — | 11 | 7 | 5 | 3
6 | — | — | 9 | 7 | 5
7 | — | — | 11 | 7 | 5
8 | — | — | 13 | 9 | 7
"""


def table_5_2() -> list[tuple[int, int, int | None]]:
    cases = []
    for line in TABLE_5_2.strip().splitlines():
        n, *cells = (cell.strip() for cell in line.split("|"))
        for capacity, cell in zip(range(2, 7), cells, strict=True):
            cases.append((int(n), capacity, None if cell == "—" else int(cell)))
    return cases


@pytest.mark.parametrize(("n", "capacity", "expected"), table_5_2())
def test_table_5_2(n: int, capacity: int, expected: int | None) -> None:
    puzzle = RiverPuzzle(RiverRules(n, n, capacity))
    assert puzzle.optimal_crossings() == expected
    assert puzzle.solvable() == (expected is not None)


@pytest.mark.parametrize("n", range(1, 9))
def test_capacity_one_only_moves_a_single_person(n: int) -> None:
    assert not RiverPuzzle(RiverRules(n, n, 1)).solvable()
    assert RiverPuzzle(RiverRules(1, 0, 1)).optimal_crossings() == 1


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("2/1/2", 3),
        ("3/1/2", 5),
        ("3/2/2", 7),
        ("4/3/2", 11),
        ("5/4/2", 15),
        ("6/5/2", 19),
        ("6/5/3", 9),
        ("7/6/3", 11),
    ],
)
def test_unequal_teams_5_3(key: str, expected: int) -> None:
    assert RiverPuzzle(RiverRules.from_key(key)).optimal_crossings() == expected


def test_fewer_devils_with_two_seats_take_the_lower_bound() -> None:
    for priests in range(2, 11):
        for devils in range(priests):
            rules = RiverRules(priests, devils, 2)
            assert RiverPuzzle(rules).optimal_crossings() == 2 * (priests + devils) - 3, rules


@pytest.mark.parametrize("n", range(4, 13))
def test_equal_teams_of_four_or_more_cannot_cross_in_two_seats(n: int) -> None:
    assert not RiverPuzzle(RiverRules(n, n, 2)).solvable()


def test_four_seats_take_2n_minus_3() -> None:
    for n in range(3, 31):
        assert RiverPuzzle(RiverRules(n, n, 4)).optimal_crossings() == 2 * n - 3, n


def test_check_message() -> None:
    with pytest.raises(RiverSettingError) as caught:
        RiverPuzzle.check(RiverRules(4, 4, 2))
    assert str(caught.value) == "4 priests and 4 devils cannot cross in a boat for 2"
    with pytest.raises(
        RiverSettingError, match=r"^1 priest and 1 devil cannot cross in a boat for 1$"
    ):
        RiverPuzzle.check(RiverRules(1, 1, 1))
    with pytest.raises(RiverSettingError, match=r"^2 devils cannot cross in a boat for 1$"):
        RiverPuzzle.check(RiverRules(0, 2, 1))
    RiverPuzzle.check(CLASSIC)
    RiverPuzzle.check(RiverRules(5, 4, 2))


def test_graph_is_built_once_per_rules() -> None:
    assert RiverPuzzle(RiverRules(5, 4, 2)).graph is RiverPuzzle(RiverRules(5, 4, 2)).graph


# --- section 5.5: click level --------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("3/3/2", (11, 20)),
        ("2/2/2", (5, 8)),
        ("4/4/2", None),
        ("4/4/3", (9, 20)),
        ("5/5/3", (11, 28)),
        ("6/6/3", None),
    ],
)
def test_click_oracle_5_5(key: str, expected: tuple[int, int] | None) -> None:
    rules = RiverRules.from_key(key)
    start = RiverState.start(rules)
    assert click_oracle(start) == expected
    puzzle = RiverPuzzle(rules)
    if expected is None:
        with pytest.raises(NoSolutionError):
            puzzle.solve_actions()
        assert puzzle.optimal_clicks() is None
        return
    actions = puzzle.solve_actions()
    end = play(start, actions)
    assert end.verdict().outcome is Outcome.WON
    assert end.crossings == crossings_of(actions) == expected[0]
    assert len(actions) - crossings_of(actions) == expected[1]
    assert puzzle.optimal_clicks() == expected[1]


def test_classic_auto_solve() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    actions = puzzle.solve_actions(RiverState.start(CLASSIC))
    assert crossings_of(actions) == 11
    end = play(RiverState.start(CLASSIC), actions)
    verdict = end.verdict()
    assert verdict.outcome is Outcome.WON
    assert verdict.side is R
    assert (verdict.priests, verdict.devils) == (3, 3)
    assert verdict.message == "All 3 priests and 3 devils reached the right bank."
    loads = puzzle.solution()
    assert len(loads) == 11
    sent = []
    state = RiverState.start(CLASSIC)
    for action in actions:
        if isinstance(action, Cross):
            sent.append(state.boat)
        state = state.apply(action)
    assert sent == loads


@pytest.mark.parametrize("key", ["3/3/2", "2/1/2", "4/4/3", "3/2/3", "2/0/1", "0/3/2"])
def test_every_solvable_node_against_the_click_oracle(key: str) -> None:
    rules = RiverRules.from_key(key)
    puzzle = RiverPuzzle(rules)
    for crossing in puzzle.graph.nodes:
        state = RiverState.from_crossing(rules, crossing)
        distance = puzzle.distance(state)
        oracle = click_oracle(state)
        if distance is None:
            assert oracle is None
            with pytest.raises(NoSolutionError):
                puzzle.solve_actions(state)
            continue
        assert oracle == (distance, puzzle.optimal_clicks(state))
        actions = puzzle.solve_actions(state)
        assert (crossings_of(actions), len(actions) - crossings_of(actions)) == oracle
        assert play(state, actions).verdict().outcome is Outcome.WON


# --- the judge ------------------------------------------------------------------------------


def test_two_priests_first_lose_on_the_left_bank() -> None:
    state = play(RiverState.start(CLASSIC), [BoardBoat(P), BoardBoat(P)])
    assert state.verdict().outcome is Outcome.PLAYING  # still docked: they count for the left
    state = state.apply(Cross())
    verdict = state.verdict()
    assert verdict.outcome is Outcome.LOST
    assert verdict.side is L
    assert (verdict.priests, verdict.devils) == (1, 3)
    assert verdict.message == "Devils outnumber priests on the left bank: 3 devils, 1 priest."
    assert state.is_terminal()
    assert state.returns() == (-1.0,)
    assert state.current_player() == TERMINAL


def test_lost_message_for_the_right_bank() -> None:
    # Right bank: 1 priest and 2 devils ashore, the boat empty on the left.
    state = RiverState(CLASSIC, Load(2, 1), Load(1, 2), Load(0, 0), L)
    verdict = state.verdict()
    assert verdict.outcome is Outcome.LOST
    assert verdict.side is R
    assert verdict.message == "Devils outnumber priests on the right bank: 2 devils, 1 priest."


def test_a_half_loaded_boat_counts_for_its_bank() -> None:
    # Left: 1 priest and 2 devils ashore, 1 priest in the boat.
    docked_left = RiverState(CLASSIC, Load(1, 2), Load(1, 1), Load(1, 0), L)
    assert docked_left.counts(L) == Load(2, 2)
    assert docked_left.counts(R) == Load(1, 1)
    assert docked_left.crossing() == node(2, 2, L)
    assert docked_left.verdict().outcome is Outcome.PLAYING
    docked_right = RiverState(CLASSIC, Load(1, 2), Load(1, 1), Load(1, 0), R)
    assert docked_right.counts(L) == Load(1, 2)
    assert docked_right.counts(R) == Load(2, 1)
    assert docked_right.verdict().outcome is Outcome.LOST
    assert docked_right.verdict().side is L


def test_win_only_when_everyone_is_ashore_on_the_right() -> None:
    state = RiverState(CLASSIC, Load(0, 0), Load(2, 3), Load(1, 0), R)
    assert state.crossing() == node(0, 0, R)
    assert state.verdict().outcome is Outcome.PLAYING
    assert not state.is_terminal()
    hint = RiverPuzzle(CLASSIC).hint(state)
    assert hint == NextCrossings((), 0, "everyone is across: unload the boat")
    assert RiverPuzzle(CLASSIC).plan(state) == [Unboard(P)]
    assert RiverPuzzle(CLASSIC).solution(state) == []
    won = state.apply(Unboard(P))
    assert won.verdict().outcome is Outcome.WON
    assert won.returns() == (1.0,)
    assert won.legal_actions() == []
    assert RiverPuzzle(CLASSIC).hint(won) == NextCrossings((), 0, "already won")
    assert RiverPuzzle(CLASSIC).plan(won) == []
    assert RiverPuzzle(CLASSIC).solve_actions(won) == []


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (RiverRules(1, 0, 1), "The priest reached the right bank."),
        (RiverRules(0, 1, 1), "The devil reached the right bank."),
        (RiverRules(2, 1, 2), "All 2 priests and 1 devil reached the right bank."),
        (RiverRules(0, 3, 2), "All 3 devils reached the right bank."),
    ],
)
def test_win_messages(rules: RiverRules, message: str) -> None:
    end = play(RiverState.start(rules), RiverPuzzle(rules).solve_actions())
    assert end.verdict().message == message


@st.composite
def small_rules(draw: st.DrawFn) -> RiverRules:
    priests = draw(st.integers(0, 5))
    devils = draw(st.integers(0, priests if priests else 5))
    if priests + devils == 0:
        priests = 1
    return RiverRules(priests, devils, draw(st.integers(1, 4)))


@settings(max_examples=150, deadline=None)
@given(small_rules(), st.lists(st.integers(0, 100), max_size=60))
def test_only_a_crossing_changes_the_counts_or_loses(rules: RiverRules, choices: list[int]) -> None:
    state = RiverState.start(rules)
    for choice in choices:
        actions = state.legal_actions()
        if not actions:
            assert state.is_terminal()
            with pytest.raises(IllegalRiverActionError, match="the game is over"):
                state.apply(Cross())
            break
        action = actions[choice % len(actions)]
        after = state.apply(action)
        if isinstance(action, Cross):
            assert after.crossings == state.crossings + 1
            assert after.boat_side is state.boat_side.other
            assert after.boat == state.boat
        elif after.verdict().outcome is Outcome.WON:
            # The one exception: the last passenger stepping ashore on the right bank wins.
            assert action == Unboard(action.kind) and after.boat == Load(0, 0)
            assert state.crossing() == after.crossing() == Crossing(0, 0, R)
            assert state.verdict().outcome is Outcome.PLAYING
        else:
            assert after.verdict() == state.verdict()
            assert after.crossing() == state.crossing()
            assert after.counts(L) == state.counts(L) and after.counts(R) == state.counts(R)
            assert after.crossings == state.crossings
        # the judge and the graph agree on what is lost
        lost = after.verdict().outcome is Outcome.LOST
        assert lost == (after.crossing() not in RiverPuzzle(rules).graph)
        state = after


def test_judge_and_graph_agree_on_every_raw_node() -> None:
    for rules in (
        CLASSIC,
        RiverRules(5, 4, 2),
        RiverRules(4, 4, 3),
        RiverRules(0, 3, 1),
        RiverRules(3, 0, 2),
    ):
        graph = RiverPuzzle(rules).graph
        for side in Side:
            for p in range(rules.priests + 1):
                for d in range(rules.devils + 1):
                    crossing = node(p, d, side)
                    state = RiverState.from_crossing(rules, crossing)
                    lost = state.verdict().outcome is Outcome.LOST
                    assert lost == (crossing not in graph), (rules, crossing)


def test_graph_edges_are_the_click_level_crossings() -> None:
    for rules in (CLASSIC, RiverRules(5, 4, 2), RiverRules(4, 4, 3), RiverRules(3, 1, 4)):
        graph = RiverPuzzle(rules).graph
        for crossing in graph.nodes:
            state = RiverState.from_crossing(rules, crossing)
            if state.is_terminal():  # everyone right: the graph may move on, a won game may not
                assert crossing.left_priests == crossing.left_devils == 0
                continue
            expected = []
            for priests in range(rules.capacity + 1):
                for devils in range(rules.capacity + 1 - priests):
                    try:
                        boarded = play(state, [BoardBoat(P)] * priests + [BoardBoat(D)] * devils)
                        landed = boarded.apply(Cross())
                    except IllegalRiverActionError:
                        continue
                    if landed.verdict().outcome is not Outcome.LOST:
                        expected.append((Load(priests, devils), landed.crossing()))
            assert graph.edges(crossing) == expected, (rules, crossing)


# --- actions and their errors ---------------------------------------------------------------


def test_legal_actions_order() -> None:
    state = RiverState(RiverRules(3, 3, 3), Load(1, 1), Load(1, 1), Load(1, 1), L)
    assert [str(a) for a in state.legal_actions()] == [
        "board:priest",
        "board:devil",
        "unboard:priest",
        "unboard:devil",
        "boat",
    ]
    assert [str(a) for a in RiverState.start(CLASSIC).legal_actions()] == [
        "board:priest",
        "board:devil",
    ]


def test_illegal_moves_say_why() -> None:
    start = RiverState.start(CLASSIC)
    with pytest.raises(IllegalRiverActionError, match=r"^the boat is empty$"):
        start.apply(Cross())
    with pytest.raises(IllegalRiverActionError, match=r"^the boat is empty$"):
        start.apply(Unboard(P))
    full = play(start, [BoardBoat(P), BoardBoat(D)])
    with pytest.raises(IllegalRiverActionError, match=r"^the boat is full$"):
        full.apply(BoardBoat(D))
    with pytest.raises(IllegalRiverActionError, match=r"^no devil in the boat$"):
        start.apply(BoardBoat(P)).apply(Unboard(D))
    three_seats = RiverRules(3, 3, 4)
    priests_aboard = play(RiverState.start(three_seats), [BoardBoat(P)] * 3)
    with pytest.raises(IllegalRiverActionError, match=r"^no priest ashore on the left bank$"):
        priests_aboard.apply(BoardBoat(P))
    lost = play(start, [BoardBoat(P), BoardBoat(P), Cross()])
    with pytest.raises(IllegalRiverActionError, match=r"^the game is over$"):
        lost.apply(Unboard(P))
    assert lost.legal_actions() == []
    assert issubclass(IllegalRiverActionError, ValueError)


def test_on_the_right_bank_no_one_to_board() -> None:
    state = play(RiverState.start(CLASSIC), [BoardBoat(D), Cross(), Unboard(D)])
    assert state.boat_side is R
    with pytest.raises(IllegalRiverActionError, match=r"^no priest ashore on the right bank$"):
        state.apply(BoardBoat(P))


def test_action_text_round_trip() -> None:
    actions: list[Action] = [BoardBoat(P), BoardBoat(D), Unboard(P), Unboard(D), Cross()]
    assert [str(a) for a in actions] == [
        "board:priest",
        "board:devil",
        "unboard:priest",
        "unboard:devil",
        "boat",
    ]
    for action in actions:
        assert parse_action(str(action)) == action
        assert parse_action(f"  {str(action).upper()}\n") == action
    for text in ["", "cross", "board", "board:bishop", "board priest", "boat!"]:
        with pytest.raises(InvalidActionError, match="unknown action"):
            parse_action(text)
    assert issubclass(InvalidActionError, IllegalRiverActionError)


def test_apply_refuses_what_is_not_an_action() -> None:
    with pytest.raises(InvalidActionError):
        RiverState.start(CLASSIC).apply("boat")  # type: ignore[arg-type]


# --- values ---------------------------------------------------------------------------------


def test_small_values() -> None:
    assert L.other is R and R.other is L
    assert str(Load(1, 1)) == "1 priest + 1 devil"
    assert str(Load(0, 2)) == "2 devils"
    assert str(Load(0, 0)) == "nobody"
    assert Load(2, 1).size == 3
    assert str(node(3, 3, L)) == "3P3D|L"
    assert str(node(0, 1, R)) == "0P1D|R"
    assert node(0, 1, R).key() == (0, 1, "right")
    assert CLASSIC.key() == "3/3/2"
    assert RiverRules() == CLASSIC
    assert RiverRules.from_key(" 5/4/2 ") == RiverRules(5, 4, 2)
    with pytest.raises(RiverSettingError):
        node(-1, 0, L)


def test_state_key_ignores_the_crossing_counter() -> None:
    start = RiverState.start(CLASSIC)
    there_and_back = play(start, [BoardBoat(D), Cross(), Cross(), Unboard(D)])
    assert there_and_back.crossings == 2
    assert there_and_back != start
    assert there_and_back.key() == start.key()
    assert hash(start.key()) == hash(there_and_back.key())
    assert play(start, [BoardBoat(D)]).key() != start.key()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        ((201, 3, 2), "priests"),
        ((-1, 0, 2), "priests"),
        ((3, 201, 2), "devils"),
        ((3, 3, 0), "capacity"),
        ((3, 3, 13), "capacity"),
        ((3.0, 3, 2), "priests"),
        ((True, 0, 2), "priests"),
        ((0, 0, 2), "at least one"),
        ((2, 3, 2), "devils=3 outnumber priests=2"),
    ],
)
def test_rules_validation(args: tuple[object, object, object], named: str) -> None:
    with pytest.raises(RiverSettingError, match=named):
        RiverRules(*args)  # type: ignore[arg-type]


def test_rules_limits_are_allowed() -> None:
    for priests, devils, capacity in ((200, 200, 12), (0, 200, 1), (1, 0, 1)):
        rules = RiverRules(priests, devils, capacity)
        assert (rules.priests, rules.devils, rules.capacity) == (priests, devils, capacity)


@pytest.mark.parametrize("text", ["", "3/3", "3/3/2/1", "a/b/c", "3/-3/2", "3/4/2"])
def test_rules_from_bad_key(text: str) -> None:
    with pytest.raises(RiverSettingError):
        RiverRules.from_key(text)


def test_state_validation() -> None:
    with pytest.raises(RiverSettingError, match="need"):
        RiverState(CLASSIC, Load(3, 3), Load(1, 0), Load(0, 0), L)
    with pytest.raises(RiverSettingError, match="seats"):
        RiverState(RiverRules(3, 3, 2), Load(0, 3), Load(0, 0), Load(3, 0), L)
    with pytest.raises(RiverSettingError, match="negative"):
        RiverState(CLASSIC, Load(4, 3), Load(-1, 0), Load(0, 0), L)
    with pytest.raises(RiverSettingError, match="fit"):
        RiverState.from_crossing(CLASSIC, node(4, 0, L))
    plain = RiverState(CLASSIC, (3, 3), (0, 0), (0, 0), L)  # type: ignore[arg-type]
    assert isinstance(plain.left, Load) and plain == RiverState.start(CLASSIC)


# --- hints ----------------------------------------------------------------------------------


def test_hint_from_the_start_and_from_a_half_loaded_boat() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    start = RiverState.start(CLASSIC)
    assert puzzle.hint(start) == NextCrossings((Load(0, 2), Load(1, 1)), 11, None)
    assert puzzle.plan(start) == [BoardBoat(D), BoardBoat(D), Cross()]
    one_priest = start.apply(BoardBoat(P))
    hint = puzzle.hint(one_priest)
    assert hint.loads == (Load(0, 2), Load(1, 1)) and hint.distance == 11
    # Both loads leave 21 clicks to the win; (1, 1) keeps the priest aboard.
    assert puzzle.optimal_clicks(one_priest) == 21
    assert puzzle.next_load(one_priest) == Load(1, 1)
    assert puzzle.plan(one_priest) == [BoardBoat(D), Cross()]
    two_priests = one_priest.apply(BoardBoat(P))  # still docked, still safe, but a wrong load
    assert puzzle.plan(two_priests) == [Unboard(P), BoardBoat(D), Cross()]


def test_hint_after_landing_with_passengers_aboard() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    landed = play(RiverState.start(CLASSIC), [BoardBoat(D), BoardBoat(D), Cross()])
    assert landed.boat == Load(0, 2) and landed.crossing() == node(3, 1, R)
    assert puzzle.hint(landed) == NextCrossings((Load(0, 1),), 10, None)
    assert puzzle.plan(landed) == [Unboard(D), Cross()]


def test_hint_off_the_shortest_paths() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    # 3P2D|R is reachable but on no shortest path (distance 12 > 11).
    detour = RiverState.from_crossing(CLASSIC, node(3, 2, R))
    assert puzzle.hint(detour) == NextCrossings((Load(0, 1),), 12, None)
    # 0P1D|L is one crossing from the goal but no shortest path from the start passes it.
    side_node = RiverState.from_crossing(CLASSIC, node(0, 1, L))
    assert puzzle.hint(side_node) == NextCrossings((Load(0, 1),), 1, None)
    # A safe node that is cut off.
    cut_off = RiverState.from_crossing(CLASSIC, node(0, 3, R))
    assert puzzle.hint(cut_off) == NextCrossings((), None, "no way across from here")
    assert puzzle.next_load(cut_off) is None
    assert puzzle.plan(cut_off) == []
    with pytest.raises(NoSolutionError, match="no way across from here"):
        puzzle.solution(cut_off)
    with pytest.raises(NoSolutionError):
        puzzle.solve_actions(cut_off)


def test_hint_when_lost_or_unsolvable() -> None:
    puzzle = RiverPuzzle(CLASSIC)
    lost = play(RiverState.start(CLASSIC), [BoardBoat(P), BoardBoat(P), Cross()])
    assert puzzle.hint(lost) == NextCrossings((), None, "the game is lost")
    assert puzzle.distance(lost) is None
    assert puzzle.plan(lost) == []
    with pytest.raises(NoSolutionError, match="the game is lost"):
        puzzle.solution(lost)
    hopeless = RiverPuzzle(RiverRules(4, 4, 2))
    start = RiverState.start(RiverRules(4, 4, 2))
    assert hopeless.hint(start) == NextCrossings((), None, "no way across from here")
    with pytest.raises(NoSolutionError, match=r"^4 priests and 4 devils cannot cross in a boat"):
        hopeless.solve_actions()
    with pytest.raises(NoSolutionError):
        hopeless.solution()
    assert hopeless.optimal_crossings() is None


def test_a_state_for_other_rules_is_refused() -> None:
    with pytest.raises(RiverSettingError, match="3/3/2"):
        RiverPuzzle(RiverRules(5, 4, 2)).hint(RiverState.start(CLASSIC))


def test_big_rules_answer() -> None:
    rules = RiverRules(100, 100, 4)
    puzzle = RiverPuzzle(rules)
    start = RiverState.start(rules)
    assert puzzle.optimal_crossings() == 197
    plan = puzzle.plan(start)
    assert isinstance(plan[-1], Cross)
    actions = puzzle.solve_actions()
    assert crossings_of(actions) == 197
    assert play(start, actions).verdict().outcome is Outcome.WON


@st.composite
def playable_states(draw: st.DrawFn) -> RiverState:
    """A safe node of small rules with a random part of its docked bank already aboard."""
    rules = draw(small_rules())
    nodes = RiverPuzzle(rules).graph.nodes
    state = RiverState.from_crossing(rules, draw(st.sampled_from(list(nodes))))
    for _ in range(draw(st.integers(0, rules.capacity))):
        boards = [a for a in state.legal_actions() if isinstance(a, BoardBoat)]
        if not boards:
            break
        state = state.apply(draw(st.sampled_from(boards)))
    return state


@settings(max_examples=300, deadline=None)
@given(playable_states())
def test_solve_actions_win_in_exactly_distance_crossings(state: RiverState) -> None:
    puzzle = RiverPuzzle(state.rules)
    snapshot = (state, state.key(), hash(state))
    hint = puzzle.hint(state)
    assert (state, state.key(), hash(state)) == snapshot  # the hint changes nothing
    distance = puzzle.distance(state)
    assert hint.distance == distance
    if distance is None:
        assert hint.loads == () and hint.reason == "no way across from here"
        with pytest.raises(NoSolutionError):
            puzzle.solve_actions(state)
        return
    actions = puzzle.solve_actions(state)
    end = play(state, actions)
    assert end.verdict().outcome is Outcome.WON
    assert crossings_of(actions) == distance == len(puzzle.solution(state))
    assert end.crossings - state.crossings == distance
    if hint.loads:
        assert puzzle.next_load(state) in hint.loads
        step = puzzle.plan(state)
        assert step == actions[: len(step)]
        after = play(state, step)
        assert puzzle.distance(after) == distance - 1
        assert after.boat == puzzle.next_load(state)
