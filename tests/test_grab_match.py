"""A MasterGrab match (spec 4.1, 6.1-6.3): seeding, replay, Next, country states, the end."""

from __future__ import annotations

import pytest

from game.logic.grab.match import CountryState, GrabMatch
from game.logic.grab.options import GrabOptions
from game.logic.grab.robot import RobotGame
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import NO_MOVE, GrabMoveError, Move, MoveKind

ROBOTS = GrabOptions(countries=30, robots=("basic", "basic", "simple"), human_playing=False)
HUMAN = GrabOptions(countries=45, robots=("basic", "basic", "basic"))


def _match(options: GrabOptions = ROBOTS, seed: int = 3) -> GrabMatch:
    return GrabMatch(options, seed, width=320, height=200)


def test_the_same_seed_gives_the_same_game() -> None:
    one, two, other = _match(), _match(), _match(seed=4)
    assert one.initial.key() == two.initial.key() != other.initial.key()
    for _ in range(20):
        one.next()
        two.next()
    assert one.state.key() == two.state.key() and one.history == two.history
    assert len(one.history) == 60 and one.state.turn == 60
    # Replaying the recorded moves on the initial state gives the same state.
    state = one.initial
    for move in one.history:
        state = state.apply(move)
    assert state.key() == one.state.key()


def test_names_and_robot_types_follow_the_original() -> None:
    robots, human = _match(), _match(HUMAN)
    assert robots.names == ["Robot1", "Robot2", "Robot3"]
    assert robots.robot_types == ["basic", "basic", "simple"]
    assert human.names == ["You", "Robot1", "Robot2", "Robot3"]
    assert human.robot_types == [None, "basic", "basic", "basic"]
    assert set(human.thinking) == {1, 2, 3}


def test_replay_restores_the_start_with_fresh_robots() -> None:
    match = _match()
    for _ in range(15):
        match.next()
    first = (match.state.key(), list(match.history))
    match.replay()
    assert match.state is match.initial
    assert match.history == [] and match.reports == [] and match.thinking == {0: [], 1: [], 2: []}
    assert set(match.country_states) == {CountryState.NORMAL}
    for _ in range(15):
        match.next()
    # Fresh BasicRobots (no remembered gathering country) replay exactly the same game.
    assert (match.state.key(), match.history) == first


def test_next_with_a_human_plays_none_then_every_robot() -> None:
    match = _match(HUMAN)
    assert match.human_to_move
    with pytest.raises(GrabMoveError):
        match.play_robot()
    reports = match.next()
    assert [r.player for r in reports] == [1, 2, 3] and match.reports == reports
    assert all(r.robot == "basic" and r.error is None for r in reports)
    assert match.history[0] == NO_MOVE and [r.move for r in reports] == match.history[1:]
    assert match.human_to_move and match.state.turn == 4
    assert all(len(times) == 1 for times in match.thinking.values())
    # The human's move clears the robots' reports; it is then not the human's turn.
    match.play_human(NO_MOVE)
    assert match.reports == [] and not match.human_to_move
    with pytest.raises(GrabMoveError):
        match.play_human(NO_MOVE)
    assert match.state.turn == 5
    assert len(match.play_robots()) == 3 and match.human_to_move


def test_an_illegal_human_move_changes_nothing() -> None:
    match = _match(HUMAN)
    theirs = match.state.owners.index(1)
    mine = match.state.owners.index(0)
    before = match.state
    for text in (f"gather >{theirs}", f"attack {mine}>{mine}", f"attack {theirs}>{mine}"):
        with pytest.raises(GrabMoveError):
            match.play_human(Move.parse(text))
    assert match.state is before and match.history == []


def test_country_states_and_cheap_markers() -> None:
    match = _match(HUMAN)
    # Find a winning attack for the human, play it: the target is TAKEN from its owner.
    game = RobotGame(match.state, 0)
    attack = next(
        m
        for m in game.legal_moves()
        if m.kind is MoveKind.ATTACK and game.can_be_attacked(m.target, m.sources)
    )
    loser = match.state.owners[attack.target]
    match.play_human(attack)
    assert match.country_states[attack.target] is CountryState.TAKEN
    assert match.previous_owners[attack.target] == loser
    assert sum(s is not CountryState.NORMAL for s in match.country_states) == 1
    match.play_robots()
    # After the last robot: 45 // 15 = 3 cheap candidates, the least armies of the non-inland.
    owners, armies = match.state.owners, match.state.armies
    table = match.state.board.neighbours
    border = [
        c
        for c in range(len(owners))
        if owners[c] != MOUNTAIN and any(owners[n] != owners[c] for n in table[c])
    ]
    first = sorted(border, key=lambda c: (armies[c], c))[:3]
    cheap = {c for c, s in enumerate(match.country_states) if s is CountryState.CHEAP}
    assert cheap <= set(first) and cheap
    assert all(match.country_states[c] is not CountryState.NORMAL for c in first)
    # Robots' moves left their marks, each as its result says.
    for report in match.reports:
        result = match.state.results[report.player]
        if report.move.kind is MoveKind.GATHER:
            assert match.country_states[report.move.target] in (
                CountryState.MOVED,
                CountryState.TAKEN,
                CountryState.ATTACKED,
            )
        elif report.move.kind is MoveKind.ATTACK and result.success:
            assert match.previous_owners[report.move.target] == result.defender
    # The human's next move resets them all.
    match.play_human(NO_MOVE)
    assert set(match.country_states) == {CountryState.NORMAL}


def test_robots_only_have_no_cheap_markers_and_reports_per_round() -> None:
    match = _match()
    for _ in range(5):
        reports = match.next()
        assert [r.player for r in reports] == [0, 1, 2] and match.reports == reports
        assert CountryState.CHEAP not in match.country_states


def test_a_game_ends_with_a_winner() -> None:
    options = GrabOptions(countries=12, robots=("basic", "basic"), human_playing=False)
    match = GrabMatch(options, 2, width=120, height=80)
    for _ in range(2000):
        if match.finished:
            break
        match.next()
    assert match.finished and match.winner is not None
    land = [o for o in match.state.owners if o != MOUNTAIN]
    assert set(land) == {match.winner}
    top = match.statistics()[0]
    assert (top.player, top.rank, top.countries_percent) == (match.winner, 1, 100.0)
    assert match.next() == [] and match.play_robots() == []
    with pytest.raises(GrabMoveError):
        match.play_robot()
    match.close()
