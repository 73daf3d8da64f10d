"""The Match: record, undo/redo/jump, forced actions, forfeits, thinking and the hint, on a
small game defined here so each rule can be pinned down by hand."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import pytest

from game.logic.contract import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    Limits,
    LimitsError,
    Stop,
    ThinkingStopped,
)
from game.logic.match import Match, MatchError
from tests.waiting import HANG_S


@dataclass(frozen=True)
class Race:
    """Two seats add 1 or 2 to a total; reaching 6 wins. Seat 1 must pass (0) when the total
    is 3 (a forced action); a die roll (chance) opens the game when ``roll`` is set."""

    total: int = 0
    seat: int = 0
    rolled: bool = True

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return self.seat if self.rolled else CHANCE

    def legal_actions(self) -> list[int]:
        if self.is_terminal() or not self.rolled:
            return []
        if self.seat == 1 and self.total == 3:
            return [0]
        return [1, 2]

    def apply(self, action: int) -> Race:
        if not self.rolled:
            return Race(action, 0, True)
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal")
        return Race(self.total + action, 1 - self.seat)

    def is_terminal(self) -> bool:
        return self.total >= 6

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        winner = 1 - self.seat
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def key(self) -> tuple[int, int, bool]:
        return (self.total, self.seat, self.rolled)

    def action_text(self, action: int) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        return int(text)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [] if self.rolled else [(0, 0.5), (1, 0.5)]

    def observation(self, seat: int) -> tuple[int, int, bool]:
        return self.key()


class RaceGame(Game[int]):
    id, title, seats, returns_sum = "race", "Race", 2, 0.0

    def __init__(self, roll: bool = False, forfeits: bool = True) -> None:
        super().__init__({"roll": roll})
        self.roll = roll
        self.forfeits = forfeits

    def initial_state(self, rng: random.Random) -> Race:
        return Race(rolled=not self.roll)

    def forced_action(self, state):  # type: ignore[no-untyped-def]
        actions = state.legal_actions()
        return 0 if actions == [0] else None

    def forfeit(self, state, action, reason):  # type: ignore[no-untyped-def]
        return Race(state.total, 1 - state.seat) if self.forfeits else None


class Greedy:
    name, description = "greedy", "adds 2"

    def choose(self, state, limits, rng, stop):  # type: ignore[no-untyped-def]
        return max(state.legal_actions())

    def explain(self) -> str:
        return "two is more than one"


class Broken:
    name, description = "broken", "raises"

    def choose(self, state, limits, rng, stop):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")


class Cheat:
    name, description = "cheat", "adds 5"

    def choose(self, state, limits, rng, stop):  # type: ignore[no-untyped-def]
        return 5


class Blocking:
    """Thinks until released or stopped; counts its starts."""

    name, description = "blocking", "waits"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.starts = 0

    def choose(self, state, limits, rng, stop):  # type: ignore[no-untyped-def]
        self.starts += 1
        while not self.release.wait(0.005):
            stop.check()
        stop.check()
        return 1


def test_a_person_plays_and_the_record_grows() -> None:
    match = Match(RaceGame(), [None, None])
    match.play(2)
    match.play(1)
    assert match.state.total == 3
    assert [s.text for s in match.record] == ["2", "1"]
    assert match.transcript() == "2 1"


def test_an_illegal_action_changes_nothing() -> None:
    match = Match(RaceGame(), [None, None])
    with pytest.raises(IllegalActionError):
        match.play(7)
    assert match.state.total == 0 and match.record == []


def test_a_refusal_carries_the_rules_own_reason_and_the_action_is_applied_once() -> None:
    """Match.play applies the action once and hands on the rules' words for a refusal
    (the river's "the boat is empty", Reversi's "flips no disc"), not a generic one."""
    from game.logic.reversi.board import parse_move
    from game.logic.reversi.game import ReversiGame
    from game.logic.river.game import Cross, RiverGame

    river = Match(RiverGame({}), [None])
    with pytest.raises(IllegalActionError) as refused:
        river.play(Cross())
    assert refused.value.reason == "the boat is empty" and refused.value.action == "boat"
    assert str(refused.value) == "the boat is empty" and river.record == []
    reversi = Match(ReversiGame(), [None, None])
    with pytest.raises(IllegalActionError, match="flips no disc") as refused:
        reversi.play(parse_move("a1"))
    assert refused.value.action == "a1" and reversi.record == []
    applied: list[int] = []

    class Counted(Race):
        def apply(self, action: int) -> Race:
            applied.append(action)
            after = super().apply(action)
            return Counted(after.total, after.seat, after.rolled)

    match = Match(RaceGame(), [None, None], start=Counted())
    match.play(2)
    assert applied == [2]


def test_forced_actions_are_played_and_skipped_by_undo() -> None:
    match = Match(RaceGame(), [None, None])
    match.play(1)
    match.play(1)  # total 2, seat 0
    match.play(1)  # total 3, seat 1 must pass: the match plays it
    assert match.record[-1].forced and match.record[-1].text == "0"
    assert match.state.key() == (3, 0, True)
    match.undo(to_person=False)
    assert match.state.key() == (2, 0, True), "undo skips the forced pass"


def test_undo_redo_and_jump_walk_the_record() -> None:
    match = Match(RaceGame(), [None, None])
    for action in (1, 2, 1):
        match.play(action)
    match.undo()
    match.undo()
    assert match.state.total == 1 and match.can_redo()
    match.redo()
    assert match.state.total == 3
    match.jump(0)
    assert match.state.total == 0 and len(match.full_record) == 3
    match.jump(3)
    assert match.state.total == 4
    with pytest.raises(MatchError):
        match.jump(9)
    match.jump(1)
    match.play(2)  # a new action drops the redo steps
    assert not match.can_redo() and match.transcript() == "1 2"


def test_undo_against_an_agent_goes_back_to_the_persons_turn() -> None:
    match = Match(RaceGame(), [None, Greedy()])
    match.play(1)
    match.poll()  # greedy answers 2
    assert match.state.total == 3 and match.person_to_move()
    match.undo()
    assert match.state.total == 0 and match.person_to_move()
    match.redo()
    assert match.state.total == 3 and match.person_to_move()


def test_after_redo_onto_an_agents_turn_the_agent_moves() -> None:
    match = Match(RaceGame(), [None, Greedy()])
    match.play(1)
    match.poll()
    match.undo()
    match.redo(to_person=False)  # lands on the agent's turn
    assert match.state.total == 1 and not match.person_to_move()
    assert [s.text for s in match.poll()] == ["2"]


def test_a_person_may_not_act_on_an_agents_turn() -> None:
    match = Match(RaceGame(), [Greedy(), None])
    with pytest.raises(MatchError, match="turn"):
        match.play(1)


def test_agents_play_to_the_end_and_returns_sum_to_zero() -> None:
    match = Match(RaceGame(), [Greedy(), Greedy()])
    steps = match.run()
    assert match.over and sum(match.returns()) == 0
    assert steps[0].note == "two is more than one"
    assert len(match.seconds[0].moves) >= 1


def test_chance_nodes_are_sampled_from_the_seed() -> None:
    first = Match(RaceGame(roll=True), [Greedy(), Greedy()], seed=3)
    second = Match(RaceGame(roll=True), [Greedy(), Greedy()], seed=3)
    first.run()
    second.run()
    assert first.transcript() == second.transcript()
    assert first.record[0].forced and first.record[0].seat == CHANCE


def test_an_agent_that_raises_loses_its_turn_with_the_reason() -> None:
    match = Match(RaceGame(), [Broken(), None])
    step = match.poll()[0]
    assert step.forfeit is not None and "boom" in step.forfeit
    assert match.state.key() == (0, 1, True)


def test_an_illegal_agent_action_is_a_forfeit_too() -> None:
    match = Match(RaceGame(), [Cheat(), None])
    step = match.poll()[0]
    assert step.forfeit is not None and "not legal" in step.forfeit
    assert match.state.total == 0


def test_without_a_forfeit_rule_the_match_pauses_and_says_why() -> None:
    match = Match(RaceGame(forfeits=False), [Broken(), None])
    with pytest.raises(MatchError, match="boom"):
        match.poll()
    assert match.paused and match.state.total == 0


def test_hint_is_the_agents_choice_and_changes_nothing() -> None:
    match = Match(RaceGame(), [None, None], hint_agent=Greedy())
    match.hint()
    hint = match.current_hint()
    assert hint is not None and hint.action == 2 and hint.note == "two is more than one"
    assert match.state.total == 0 and match.record == []
    match.play(1)
    assert match.current_hint() is None


def test_background_thinking_is_cancelled_by_undo_and_its_result_dropped() -> None:
    agent = Blocking()
    match = Match(RaceGame(), [None, agent], background=True)
    try:
        match.play(1)
        assert match.poll() == [] and match.thinking()
        match.undo()
        assert not match.thinking() and match.state.total == 0
        agent.release.set()
        assert match.poll() == []
        assert match.state.total == 0 and match.person_to_move()
    finally:
        match.close()


def test_background_thinking_result_waits_for_apply() -> None:
    agent = Blocking()
    agent.release.set()
    match = Match(RaceGame(), [None, agent], background=True)
    try:
        match.play(1)
        match.poll(apply=False)
        assert match.wait(timeout=HANG_S)
        assert match.poll(apply=False) == []
        assert [s.text for s in match.poll()] == ["1"]
    finally:
        match.close()


def test_limits_refuse_what_is_not_finite_and_positive() -> None:
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(LimitsError):
            Limits(time=bad)
    assert Limits(depth=3).depth == 3


def test_stop_raises_once_set() -> None:
    stop = Stop()
    stop.check()
    stop.set()
    with pytest.raises(ThinkingStopped):
        stop.check()


def test_seats_must_match_the_game() -> None:
    with pytest.raises(MatchError, match="2 seats"):
        Match(RaceGame(), [None])
