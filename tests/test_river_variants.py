"""The rule variants of Priests and Devils against a breadth-first search written here.

The search below knows nothing of the game's modules: a position is a plain tuple (who is
ashore on the left, who is in the boat, the boat's side), the judge and the moves are
written out again from the rules in words, and a 0-1 breadth-first search (a crossing costs
1, a boarding or landing 0) finds the fewest crossings. The solver must agree with it for
every combination of the variants, from the start and from random positions along the way,
on the distance and on the set of optimal loads.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import deque

import pytest

from game.logic.river.game import (
    OPTIONS,
    Cross,
    Goal,
    Load,
    Outcome,
    RiverPuzzle,
    RiverRules,
    RiverState,
    Rowers,
    Side,
)
from game.logic.river.rules import RiverSettingError
from tests.deep import sized

VARIANTS = list(itertools.product([True, False], Rowers, Goal))
SIZES = [(3, 3, 2), (2, 2, 2), (3, 2, 2), (4, 4, 3), (4, 4, 2), (5, 4, 2), (3, 1, 2), (2, 1, 1)]


def _ids(variant: tuple[bool, Rowers, Goal]) -> str:
    counts, rowers, goal = variant
    return f"{'counts' if counts else 'ashore'}-{rowers.value}-{goal.value}"


# -- the independent search --------------------------------------------------------------


def _judge(rules: RiverRules, pos: tuple[int, int, int, int, int]) -> str:
    """'lost', 'won' or 'playing' for a position (lp, ld, bp, bd, side: 0 left, 1 right)."""
    lp, ld, bp, bd, side = pos
    rp, rd = rules.priests - lp - bp, rules.devils - ld - bd
    banks = [[lp, ld], [rp, rd]]
    if rules.boat_counts:  # the passengers stand with the bank the boat is docked at
        banks[side][0] += bp
        banks[side][1] += bd
    for priests, devils in banks:
        if priests and devils > priests:
            return "lost"
    if rp == rules.priests and (rules.goal is Goal.PRIESTS or rd == rules.devils):
        return "won"
    at_boat_p = (lp if side == 0 else rp) + bp
    at_boat_d = (ld if side == 0 else rd) + bd
    if rules.rowers is Rowers.PRIESTS and not at_boat_p:
        return "lost"
    if rules.rowers is Rowers.DEVILS and not at_boat_d:
        return "lost"
    return "playing"


def _next(rules: RiverRules, pos: tuple[int, int, int, int, int]):
    """(crossings it costs, load if a crossing, next position) for every legal move."""
    lp, ld, bp, bd, side = pos
    ashore_p = lp if side == 0 else rules.priests - lp - bp
    ashore_d = ld if side == 0 else rules.devils - ld - bd
    out = []
    if bp + bd < rules.capacity:
        if ashore_p:
            out.append((0, None, (lp - (side == 0), ld, bp + 1, bd, side)))
        if ashore_d:
            out.append((0, None, (lp, ld - (side == 0), bp, bd + 1, side)))
    if bp:
        out.append((0, None, (lp + (side == 0), ld, bp - 1, bd, side)))
    if bd:
        out.append((0, None, (lp, ld + (side == 0), bp, bd - 1, side)))
    rower = {
        Rowers.ANYONE: bp + bd > 0,
        Rowers.PRIESTS: bp > 0,
        Rowers.DEVILS: bd > 0,
    }[rules.rowers]
    if rower:
        out.append((1, (bp, bd), (lp, ld, bp, bd, 1 - side)))
    return out


@functools.cache
def fewest_crossings(rules: RiverRules, start: tuple[int, int, int, int, int]) -> int | None:
    """0-1 breadth-first search from ``start`` to any won position (kept for each rules and
    position: the random games and :func:`optimal_loads` ask again for the same positions,
    and the search was 90 % of the CPU time of the hints' test)."""
    best = {start: 0}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        here = best[pos]
        if _judge(rules, pos) == "won":
            return here
        if _judge(rules, pos) == "lost":
            continue
        for cost, _, nxt in _next(rules, pos):
            if nxt not in best or best[nxt] > here + cost:
                best[nxt] = here + cost
                if cost:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
    return None


def optimal_loads(rules: RiverRules, start: tuple[int, int, int, int, int], distance: int) -> set:
    """Every load that leaves (after boardings and landings only) on a way of ``distance``."""
    loads, seen, todo = set(), {start}, [start]
    while todo:
        pos = todo.pop()
        for cost, load, nxt in _next(rules, pos):
            if cost:
                if _judge(rules, nxt) != "lost" and fewest_crossings(rules, nxt) == distance - 1:
                    loads.add(load)
            elif nxt not in seen and _judge(rules, nxt) == "playing":
                seen.add(nxt)
                todo.append(nxt)
    return loads


def _pos(state: RiverState) -> tuple[int, int, int, int, int]:
    side = 0 if state.boat_side is Side.LEFT else 1
    return (state.left.priests, state.left.devils, state.boat.priests, state.boat.devils, side)


def _rules(size: tuple[int, int, int], variant: tuple[bool, Rowers, Goal]) -> RiverRules:
    return RiverRules(*size, *variant)


# -- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=_ids)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: "/".join(map(str, s)))
def test_the_optimum_from_the_start_agrees_with_the_search(size, variant) -> None:
    rules = _rules(size, variant)
    start = RiverState.start(rules)
    expected = fewest_crossings(rules, _pos(start))
    puzzle = RiverPuzzle(rules)
    assert puzzle.optimal_crossings() == expected
    if expected is None:
        with pytest.raises(RiverSettingError, match="cannot cross"):
            RiverPuzzle.check(rules)
        return
    # Followed click by click, the solver's plan wins in exactly that many crossings.
    state = start
    for action in puzzle.solve_actions():
        state = state.apply(action)
    assert state.outcome() is Outcome.WON
    assert state.crossings == expected
    assert len(puzzle.solution()) == expected


#: Random games a size and variant (3 in CI, 6 under benchmarks/slow_checks.py).
GAMES = sized(3, 6)


@pytest.mark.deep
@pytest.mark.parametrize("variant", VARIANTS, ids=_ids)
def test_hints_from_random_positions_agree_with_the_search(variant) -> None:
    """Distances and optimal loads along random games (5 priests, 4 devils, 3 seats, and
    3/3/2), each position checked against the search."""
    rng = random.Random(7)
    for size in ((3, 3, 2), (5, 4, 3)):
        rules = _rules(size, variant)
        puzzle = RiverPuzzle(rules)
        checked = 0
        for _ in range(GAMES):
            state = RiverState.start(rules)
            for _ in range(30):
                if state.is_terminal():
                    break
                pos = _pos(state)
                expected = fewest_crossings(rules, pos)
                assert puzzle.distance(state) == expected, (rules.key(), str(state))
                hint = puzzle.hint(state)
                if expected:
                    assert set(hint.loads) == optimal_loads(rules, pos, expected), str(state)
                    plan = puzzle.plan(state)
                    after = state
                    for action in plan:
                        after = after.apply(action)
                        assert after.outcome() is not Outcome.LOST, (str(state), plan)
                    assert isinstance(plan[-1], Cross)
                    assert puzzle.distance(after) == expected - 1
                    assert puzzle.next_load(state) == Load(*after.boat)
                    assert puzzle.next_load(state) in hint.loads
                checked += 1
                moves = [state.apply(action) for action in state.legal_actions()]
                alive = [after for after in moves if after.outcome() is not Outcome.LOST]
                state = rng.choice(alive or moves)  # mostly games that go on
        assert checked > 5 * GAMES


def test_three_and_three_in_a_boat_for_two() -> None:
    """The table of the report: the optimum of each combination for 3/3/2."""
    table = {_ids(v): RiverPuzzle(_rules((3, 3, 2), v)).optimal_crossings() for v in VARIANTS}
    assert table == {
        "counts-anyone-everyone": 11,
        "counts-anyone-priests": 7,
        "counts-priests-everyone": None,
        "counts-priests-priests": None,
        "counts-devils-everyone": None,
        "counts-devils-priests": None,
        "ashore-anyone-everyone": 9,
        "ashore-anyone-priests": 7,
        "ashore-priests-everyone": None,
        "ashore-priests-priests": None,
        "ashore-devils-everyone": 9,
        "ashore-devils-priests": 7,
    }


@pytest.mark.parametrize(
    ("key", "crossings"),
    [("2/2/2", 5), ("4/4/2", 13), ("4/4/3", 7), ("5/5/3", 9), ("6/6/3", 11)],
)
def test_passengers_counting_for_no_bank_published_oracles(key: str, crossings: int) -> None:
    """The "boat separate" row of the research note: passengers that count for no bank."""
    assert (
        RiverPuzzle(RiverRules.from_key(f"{key} boat_counts=no")).optimal_crossings() == crossings
    )


@pytest.mark.parametrize(
    ("boat_counts", "rowers", "goal"),
    list(itertools.product((True, False), Rowers, Goal)),
)
def test_every_text_form_names_the_same_variants(
    boat_counts: bool, rowers: Rowers, goal: Goal
) -> None:
    """key, describe and short each add one word per variant that is not the classic one, in
    the same order, and the key reads back as the same rules."""
    rules = RiverRules(3, 3, 2, boat_counts, rowers, goal)
    assert RiverRules.from_key(rules.key()) == rules
    named = [not boat_counts, rowers is not Rowers.ANYONE, goal is not Goal.EVERYONE]
    words = {
        "key": (rules.key().split(" ")[1:], ["boat_counts=no", f"rowers={rowers.value}",
                                             f"goal={goal.value}"]),
        "describe": (rules.describe().split("; ")[1:], ["passengers count for no bank",
                                                        rowers.describe(),
                                                        f"goal: {goal.describe()}"]),
        "short": (rules.short().split(", ")[1:], ["boat counts no", f"{rowers.value} row",
                                                 f"goal {goal.value}"]),
    }  # fmt: skip
    for form, (got, every) in words.items():
        assert got == [w for w, on in zip(every, named, strict=True) if on], form


def test_options_carry_the_variants_and_refuse_bad_values() -> None:
    values = OPTIONS.validate({"boat_counts": "no", "rowers": "devils", "goal": "priests"})
    assert values["boat_counts"] is False
    assert RiverRules.from_key("3/3/2 boat_counts=no rowers=devils goal=priests").key() == (
        "3/3/2 boat_counts=no rowers=devils goal=priests"
    )
    with pytest.raises(ValueError, match="rowers must be one of anyone, priests, devils"):
        OPTIONS.validate({"rowers": "bishops"})
    with pytest.raises(ValueError, match="boat_counts must be true or false"):
        OPTIONS.validate({"boat_counts": "maybe"})
    with pytest.raises(ValueError, match="every priest across, but there are no priests"):
        OPTIONS.validate({"priests": 0, "devils": 2, "goal": "priests"})
    with pytest.raises(RiverSettingError, match="unknown rule 'rowers=pope'"):
        RiverRules.from_key("3/3/2 rowers=pope")
    # A settings file with a bad variant keeps the good values and says which key.
    problems: list[str] = []
    loaded = OPTIONS.load({"priests": 4, "devils": 2, "rowers": 7}, "[river]", problems)
    assert loaded["priests"] == 4 and loaded["rowers"] == "anyone"
    assert any("rowers" in problem for problem in problems)


def test_too_big_for_the_click_level_solver_is_refused_with_the_numbers() -> None:
    with pytest.raises(ValueError, match="positions, more than the 400,000"):
        OPTIONS.validate({"priests": 200, "devils": 150, "capacity": 12, "boat_counts": False})


def test_judge_messages_name_the_cause() -> None:
    ashore_only = RiverState.start(RiverRules(3, 3, 2, boat_counts=False))
    lost = ashore_only.apply(ashore_only.parse_action("board:priest"))
    assert lost.verdict().message == (
        "Devils outnumber priests on the left bank (ashore; the boat's passengers count for "
        "no bank): 3 devils, 2 priests."
    )
    rules = RiverRules(3, 3, 2, goal=Goal.PRIESTS)
    state = RiverState.start(rules)
    for action in RiverPuzzle(rules).solve_actions():
        state = state.apply(action)
    assert state.verdict().message == "All 3 priests reached the right bank."
    assert state.left.devils + state.boat.devils + state.right.devils == 3
    with pytest.raises(ValueError, match="only priests row: put a priest in the boat"):
        RiverState.start(RiverRules(3, 1, 2, rowers=Rowers.PRIESTS)).apply(
            RiverState.start(rules).parse_action("board:devil")
        ).apply(Cross())
