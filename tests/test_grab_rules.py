"""MasterGrab rules and game state (spec 1.3, 3, 4) against hand-worked numbers."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.logic.grab.map import generate_map
from game.logic.grab.options import Distribution, GrabOptions
from game.logic.grab.rules import (
    MOUNTAIN,
    attack,
    capacities,
    cluster_centres,
    defence_needed,
    gather,
    grow,
    initial_armies,
    initial_owners,
)
from game.logic.grab.state import (
    NO_MOVE,
    GrabBoard,
    GrabMoveError,
    GrabState,
    Move,
    MoveKind,
    Result,
)


def test_capacity_scales_with_size_and_fixes_the_19_bug() -> None:
    # 20 armies in the biggest (154 px): 77 px -> 10, 100 px -> floor(12.98) = 12.
    sizes = np.array([154, 77, 100, 7], dtype=np.int64)
    assert capacities(sizes, 20.0).tolist() == [20, 10, 12, 0]


def test_growth_per_move() -> None:
    # Biggest 200 px, 20 armies: per size 0.1. Defaults AGF 0.1, 4 players.
    # 100 px at 3.0 gains 100 * 0.1 * 0.1 / 4 = 0.25 -> 3.25 (capacity 10).
    # 200 px at 19.9 gains 0.5 but is clamped to 20; at 25 (over capacity) it stays 25.
    sizes = np.array([100, 200, 200], dtype=np.int64)
    capacity = capacities(sizes, 20.0)
    armies = np.array([3.0, 19.9, 25.0])
    assert grow(armies, sizes, capacity, 20.0, 0.1, 4).tolist() == [3.25, 20.0, 25.0]


# --- Spec 1.3: initial owners and armies --------------------------------------------------


def test_random_owners_smallest_total_first_then_the_human_advantage() -> None:
    # Biggest first, each to the smallest total (ties: lowest id): 50->0, 40->1, 30->1,
    # 20->0, 10->0 (70 = 70), 5->1; country 6 is a mountain. Human advantage: the human's
    # smallest (4, size 10) swaps with the biggest not the human's (1, size 40).
    sizes = [50, 40, 30, 20, 10, 5, 3]
    centres = [(0, 0)] * 7
    args = (sizes, {6}, centres, 10, 10, 2)
    robots = initial_owners(*args, False, Distribution.RANDOM)
    human = initial_owners(*args, True, Distribution.RANDOM)
    assert robots == [0, 1, 1, 0, 0, 1, MOUNTAIN]
    assert human == [0, 0, 1, 0, 1, 1, MOUNTAIN]


def test_compact_owners_nearest_cluster_centre_on_the_torus() -> None:
    # P = 2 compact: lattice (2,2),(0,2) on 4x4 -> pixels (50,50), (0,50) on 101x101.
    # (95,50) is 6 px from (0,50) across the wrap; (25,50) ties and goes to player 0.
    centres = [(40, 50), (10, 50), (95, 50), (25, 50)]
    owners = initial_owners([10] * 4, set(), centres, 101, 101, 2, True, Distribution.COMPACT)
    assert owners == [0, 1, 1, 0]


def test_cluster_centre_tables() -> None:
    assert cluster_centres(5, Distribution.VERTICAL) == [(5, 5), (7, 5), (9, 5), (1, 5), (3, 5)]
    assert cluster_centres(4, Distribution.HORIZONTAL) == [(4, 4), (4, 6), (4, 0), (4, 2)]
    assert cluster_centres(3, Distribution.DIAGONAL) == [(3, 3), (1, 1), (5, 5)]
    assert cluster_centres(4, Distribution.COMPACT) == [(4, 4), (0, 6), (4, 0), (0, 2)]
    # The original's vertical P = 10 ends in x = 9; the stripe pattern (fixed here) gives 8.
    assert cluster_centres(10, Distribution.VERTICAL)[-1] == (8, 10)
    for players in range(2, 17):
        for kind in list(Distribution)[1:]:
            points = cluster_centres(players, kind)
            assert len(set(points)) == players
            assert all(0 <= v < 2 * players for point in points for v in point)


def test_initial_armies_between_half_and_full_capacity() -> None:
    rng = random.Random(7)
    expected = [10 * (1 + rng.random()) / 2, 20 * (1 + rng.random()) / 2, 0.0]
    assert initial_armies([10, 20, 0], [0, 1, MOUNTAIN], random.Random(7)) == expected
    assert 5 <= expected[0] < 10 and 10 <= expected[1] < 20


# --- Spec 3.4-3.6: attack, split, gather -----------------------------------------------------


def test_defence_needed_takes_the_biggest_per_owner_total() -> None:
    # Country 0 (player 0) touches 1 and 2 (player 1: 3 + 4) and 3 (player 2: 6).
    owners = [0, 1, 1, 2]
    armies = [1.0, 3.0, 4.0, 6.0]
    neighbours = [{1, 2, 3}, {0}, {0}, {0}]
    assert defence_needed(0, owners, armies, neighbours, 0.5) == 3.5
    assert defence_needed(1, [1, 1, 1, 2], armies, neighbours, 0.5) == 0.0


def test_attack_help_example_and_surplus_to_the_new_frontier() -> None:
    # The help's 4 + 9 + 15 against 10, AF 0.5, one at a time: 4 commits 1.5 (D 8.5), 9 commits
    # 4 (D 4.5), 15 commits 7 >= 4.5 and wins keeping 1 + 2.5 / 0.5 = 6: 8 = 28 - 10 / 0.5.
    # Split (PF 0.5, ABF 1, capacity 10): avail = 10 + 1 + 1 + 6 = 18. Needs after the capture:
    # T 0.5 * 3 (country 4) = 1.5, attacker 1 1.5 (4), attacker 2 0, attacker 3 3 (5: 6).
    # T faces an enemy, so attackers get their needs and T gets 1.5 + 18 - 6 = 13.5.
    owners = [1, 0, 0, 0, 1, 2]
    armies = [10.0, 4.0, 9.0, 15.0, 3.0, 6.0]
    neighbours = [{1, 2, 3, 4}, {0, 4}, {0}, {0, 5}, {0, 1}, {3}]
    assert attack(owners, armies, 0, [1, 2, 3], neighbours, 10, 0.5, 0.5, 1.0)
    assert owners == [0, 0, 0, 0, 1, 2]
    assert armies == [13.5, 1.5, 0.0, 3.0, 3.0, 6.0]


def test_attack_win_with_an_inland_target_spreads_by_need() -> None:
    # 5 commits 2 >= 2 and keeps 1; 3 keeps 3. avail = 6 + 1 + 3 = 10; needs: T 0, country 1
    # 0.5 * 4 = 2, country 2 0. T has no enemy: f = 10 / 2, so 1 gets 10, 2 and T get 0.
    owners = [1, 0, 0, 1]
    armies = [2.0, 5.0, 3.0, 4.0]
    neighbours = [{1, 2}, {0, 3}, {0}, {1}]
    assert attack(owners, armies, 0, [1, 2], neighbours, 6, 0.5, 0.5, 1.0)
    assert armies == [0.0, 10.0, 0.0, 4.0]


def test_attack_win_with_no_enemy_around_splits_evenly() -> None:
    # 6 commits 2.5 >= 2, keeps 1 + 0.5 / 0.5 = 2; avail = 4 + 2 + 4 = 10, nobody needs any.
    owners = [1, 0, 0]
    armies = [2.0, 6.0, 4.0]
    assert attack(owners, armies, 0, [1, 2], [{1, 2}, {0}, {0}], 4, 0.5, 0.5, 1.0)
    assert (owners, armies) == ([0, 0, 0], [0.0, 5.0, 5.0])


def test_attack_win_short_of_the_need_scales_everything_down() -> None:
    # 3 commits 1 >= 1 (a tie wins), keeps 1. avail = 2 + 1 = 3; needs: T 0.5 * 10 = 5,
    # attacker 0.5 * 20 = 10; f = 3 / 15: T 1, attacker 2.
    owners = [1, 0, 1, 2, 0]
    armies = [1.0, 3.0, 10.0, 20.0, 7.0]
    neighbours = [{1, 2}, {0, 3}, {0, 4}, {1}, {2}]
    assert attack(owners, armies, 0, [1], neighbours, 2, 0.5, 0.5, 1.0)
    assert armies == pytest.approx([1.0, 2.0, 10.0, 20.0, 7.0])


def test_attack_loss_leaves_one_and_skips_attackers_below_one() -> None:
    # 0.5 is skipped; 5 commits 2 (D 8), 9 commits 4 (D 4): lost, both keep 1, D = 4.
    owners = [1, 0, 0, 0]
    armies = [10.0, 0.5, 5.0, 9.0]
    assert not attack(owners, armies, 0, [1, 2, 3], [{1, 2, 3}, {0}, {0}, {0}], 9, 0.5, 0.5, 1)
    assert (owners, armies) == ([1, 0, 0, 0], [4.0, 0.5, 1.0, 1.0])


def test_gather_keeps_the_defence_need_at_the_border() -> None:
    # PF 0.5: source 1 faces 6 enemy armies, keeps 3 and gives 2; inland 2 gives all 3.
    owners = [0, 0, 0, 1]
    armies = [1.0, 5.0, 3.0, 6.0]
    neighbours = [{1, 2}, {0, 3}, {0}, {1}]
    gather(owners, armies, 0, [1, 2], neighbours, 0.5)
    assert armies == [6.0, 3.0, 0.0, 6.0]
    armies = [1.0, 2.0, 3.0, 6.0]  # below its need, source 1 gives nothing
    gather(owners, armies, 0, [1, 2], neighbours, 0.5)
    assert armies == [4.0, 2.0, 0.0, 6.0]


# --- Spec 4: the game state, moves, turn order, end ----------------------------------------


def _duel(owners: tuple[int, ...], armies: tuple[float, ...], human: bool = True) -> GrabState:
    # Sizes 100 and 200: capacities 10 and 20; growth per move size * 0.1 * 0.1 / 2.
    board = GrabBoard(sizes=(100, 200), neighbours=((1,), (0,)), players=2, human_playing=human)
    return GrabState(board, owners, armies)


def test_move_text_round_trips() -> None:
    for text in ("none", "attack 3,5>12", "gather 1,2>7", "gather >7"):
        assert str(Move.parse(text)) == text
    assert Move.parse("attack 3,5>12") == Move(MoveKind.ATTACK, 12, (3, 5))
    for bad in ("", "attack", "attack 3-12", "none 1>2", "fly 1>2", "attack x>1"):
        with pytest.raises(GrabMoveError):
            Move.parse(bad)


def test_growth_after_every_move_and_turn_order() -> None:
    state = _duel((0, 1), (3.0, 5.0))
    after = state.apply(NO_MOVE)
    assert (after.armies, after.to_move, after.turn, after.finished) == ((3.5, 6.0), 1, 1, False)
    after = after.apply(NO_MOVE)
    assert (after.armies, after.to_move, after.turn, after.finished) == ((4.0, 7.0), 0, 2, False)
    assert state.key() != after.key() and state.key() == _duel((0, 1), (3.0, 5.0)).key()


def test_conquest_ends_the_game_after_the_round() -> None:
    # 10 commits 4.5 >= 2, keeps 6; nobody left to fear: 0 gets 20 + 6, 1 gets 0 then grows 1.
    state = _duel((0, 1), (10.0, 2.0)).apply(Move.parse("attack 0>1"))
    assert (state.owners, state.armies, state.finished) == ((0, 0), (26.0, 1.0), False)
    assert state.legal_moves(1) == [NO_MOVE]
    state = state.apply(NO_MOVE)
    assert (state.finished, state.winner, state.armies) == (True, 0, (26.0, 2.0))
    with pytest.raises(GrabMoveError):
        state.apply(NO_MOVE)


def test_the_human_losing_ends_with_no_winner() -> None:
    state = _duel((0, 1), (2.0, 10.0)).apply(NO_MOVE).apply(Move.parse("attack 1>0"))
    assert (state.owners, state.finished, state.winner) == ((1, 1), True, None)
    robots = _duel((0, 1), (2.0, 10.0), human=False).apply(NO_MOVE)
    assert robots.apply(Move.parse("attack 1>0")).winner == 1


def test_illegal_moves_raise_and_change_nothing() -> None:
    state = _duel((0, 1), (3.0, 5.0))
    for text in ("attack 0>0", "gather 1>0", "attack 1>0", "gather 0>1", "attack >1", "gather >5"):
        with pytest.raises(GrabMoveError):
            state.apply(Move.parse(text))
    assert state.armies == (3.0, 5.0)


def test_legal_moves_are_the_clicks_in_id_order_and_mountains_do_not_grow() -> None:
    board = GrabBoard(
        sizes=(100, 100, 100, 50),
        neighbours=((1, 2), (0, 2), (0, 1), ()),
        players=2,
        mountains=frozenset({3}),
    )
    state = GrabState(board, (0, 0, 1, MOUNTAIN), (1.0, 1.0, 1.0, 0.0))
    assert [str(m) for m in state.legal_moves(0)] == [
        "none",
        "gather 1>0",
        "gather 0>1",
        "attack 0,1>2",
    ]
    assert [str(m) for m in state.legal_moves(1)] == [
        "none",
        "attack 2>0",
        "attack 2>1",
        "gather >2",
    ]
    assert state.apply(NO_MOVE).armies[3] == 0.0


def test_new_game_is_seeded_and_starts_by_the_rules() -> None:
    options = GrabOptions()
    grab_map = generate_map(options, 320, 200, seed=1)
    state = GrabState.new(grab_map, options, random.Random(3))
    assert state.key() == GrabState.new(grab_map, options, random.Random(3)).key()
    board = state.board
    for c, (owner, armies) in enumerate(zip(state.owners, state.armies, strict=True)):
        if c in grab_map.mountains:
            assert owner == MOUNTAIN
        else:
            assert 0 <= owner < 4
            capacity = board.capacity[c]
            assert capacity / 2 <= armies < capacity or capacity == armies == 0
    for move in state.legal_moves(0):
        assert Move.parse(str(move)) == move


def test_results_record_each_players_last_move() -> None:
    # Attack as in test_attack_loss...: 5 and 9 against 10 lose; before (10, 5, 9), after (4, 1, 1).
    board = GrabBoard(
        sizes=(200, 200, 200), neighbours=((1, 2), (0,), (0,)), players=2, attack_factor=0.5
    )
    state = GrabState(board, (1, 0, 0), (10.0, 5.0, 9.0))
    assert state.results == (Result(MoveKind.NONE, 0), Result(MoveKind.NONE, 1))
    state = state.apply(Move.parse("attack 1,2>0"))
    assert state.results[0] == Result(
        MoveKind.ATTACK, 0, False, 1, 0, (1, 2), False, (10, 5, 9), (4, 1, 1), 0.5
    )
    state = state.apply(Move.parse("gather >0"))
    # Growth after the attack: 4 + 200 * 0.1 * 0.1 / 2 = 5.
    assert state.results[1] == Result(MoveKind.GATHER, 1, False, 1, 0, (), True, (5,), (5,), 1.0)


def test_a_rejected_move_records_an_error_and_skips_growth() -> None:
    state = _duel((0, 1), (3.0, 5.0))
    rejected = state.reject(Move.parse("attack 0>0"))
    assert (rejected.armies, rejected.to_move, rejected.turn) == ((3.0, 5.0), 1, 1)
    assert rejected.results[0].is_error and rejected.results[0].kind is MoveKind.ATTACK


@given(
    st.integers(0, 80),
    st.lists(st.integers(0, 60), min_size=1, max_size=5),
)
def test_attack_matches_the_closed_form(defence_quarters: int, halves: list[int]) -> None:
    # Spec 3.4's closed form, exact in binary for AF 0.5 and armies in halves: a win iff
    # sum((a - 1) * AF) over attackers with a >= 1 reaches D (a positive D); then, before the
    # split (PF 0, ABF 0, nobody to fear: an even split), the attackers hold sum(a) - D / AF.
    defence = defence_quarters / 4 + 0.25
    attackers = [h / 2 for h in halves]
    n = len(attackers)
    owners = [1] + [0] * n
    armies = [defence, *attackers]
    neighbours = [set(range(1, n + 1))] + [{0}] * n
    won = attack(owners, armies, 0, list(range(1, n + 1)), neighbours, 0, 0.5, 0.0, 0.0)
    committed = sum((a - 1) * 0.5 for a in attackers if a >= 1)
    assert won == (committed >= defence)
    if won:
        assert sum(armies[1:]) == pytest.approx(sum(attackers) - defence / 0.5)
    else:
        assert armies[0] == pytest.approx(defence - committed)
