"""MasterGrab robots (spec 5): the robot's view, SimpleRobot and BasicRobot on hand-worked
boards, the ranking, the sandbox and discovery."""

from __future__ import annotations

import dataclasses
import random
import time
from pathlib import Path
from typing import ClassVar

import pytest

from game.logic.contract import Limits, Stop
from game.logic.grab.discovery import RobotRegistry
from game.logic.grab.game import GrabGame
from game.logic.grab.options import GrabOptions
from game.logic.grab.record import failures, grab_state
from game.logic.grab.robot import Robot, RobotGame, UnknownRobotError
from game.logic.grab.robots.basic import BasicRobot
from game.logic.grab.robots.simple import SimpleRobot
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.sandbox import InProcessRunner, ProcessRunner, RobotAgent
from game.logic.grab.state import (
    NO_MOVE,
    GrabBoard,
    GrabState,
    Move,
    MoveKind,
    player_statistics,
)
from game.logic.match import Match, Step


def _state(
    neighbours: tuple[tuple[int, ...], ...],
    owners: tuple[int, ...],
    armies: tuple[float, ...],
    *,
    sizes: tuple[int, ...] | None = None,
    players: int = 2,
    changed: tuple[int, ...] = (),
    **factors: float,
) -> GrabState:
    board = GrabBoard(
        sizes=sizes or (100,) * len(owners),
        neighbours=neighbours,
        players=players,
        human_playing=False,
        **factors,  # type: ignore[arg-type]
    )
    return GrabState(board, owners, armies, changed=changed)


def _plan(robot: Robot, state: GrabState, player: int = 0) -> str:
    return str(robot.plan(RobotGame(state, player)))


# --- SimpleRobot (spec 5.2) --------------------------------------------------------------------

# Player 0 owns 0 and 1; 0 touches 2 and 3, 1 touches 3 and 4 (all player 1's).
SIMPLE_NEIGHBOURS = ((2, 3), (3, 4), (0,), (0, 1), (1,))
SIMPLE_SIZES = (100, 100, 100, 200, 100)


def test_simple_robot_attacks_the_best_target_with_one_country() -> None:
    # AF 0.5. Country 0 (10 -> strength 5): 2 scores 5 / 2 * 100 = 250, 3 scores 5 / 4 * 200
    # = 250 (not higher). Country 1 (12 -> 6): 3 scores 6 / 4 * 200 = 300, the best; 4 has 6,
    # not below 6.
    state = _state(SIMPLE_NEIGHBOURS, (0, 0, 1, 1, 1), (10, 12, 2, 4, 6), sizes=SIMPLE_SIZES)
    assert _plan(SimpleRobot(), state) == "attack 1>3"


def test_simple_robot_ties_keep_the_first_in_country_ids_order() -> None:
    # Country 1 at 10: its 3 scores 250 too. In id order 0 comes first and keeps 2.
    armies = (10.0, 10.0, 2.0, 4.0, 6.0)
    owners = (0, 0, 1, 1, 1)
    state = _state(SIMPLE_NEIGHBOURS, owners, armies, sizes=SIMPLE_SIZES)
    assert _plan(SimpleRobot(), state) == "attack 0>2"
    # Country 0 won later (at turn 3): CountryIds order is (1, 0), so 1 -> 3 comes first.
    later = _state(SIMPLE_NEIGHBOURS, owners, armies, sizes=SIMPLE_SIZES, changed=(3, 0, 0, 0, 0))
    assert RobotGame(later, 0).my_countries == (1, 0)
    assert _plan(SimpleRobot(), later) == "attack 1>3"


def test_simple_robot_prefers_an_empty_target_and_otherwise_waits() -> None:
    # 4 at 0 armies: 5 / 0 is an infinite ratio in floating point.
    state = _state(SIMPLE_NEIGHBOURS, (0, 0, 1, 1, 1), (10, 10, 2, 4, 0), sizes=SIMPLE_SIZES)
    assert _plan(SimpleRobot(), state) == "attack 1>4"
    weak = _state(SIMPLE_NEIGHBOURS, (0, 0, 1, 1, 1), (4, 4, 2, 4, 6), sizes=SIMPLE_SIZES)
    assert _plan(SimpleRobot(), weak) == "none"


# --- BasicRobot (spec 5.3) ---------------------------------------------------------------------

# Player 0 owns 0, 1, 2; player 1 owns 3 (touching 0 and 1) and 4 (touching 1 and 2).
BASIC_NEIGHBOURS = ((1, 3), (0, 3, 4), (4,), (0, 1), (1, 2))


def test_basic_robot_scores_targets_by_estimate_and_size() -> None:
    # Target 3: 0 is inland apart from 3 (full 8), 1 also touches 4 (half of 6): est 11,
    # ratio 11 / 4 = 2.75, x AF 1.375 > 1.1, score 2.75 x 140 = 385.
    # Target 4: 1 half (3) + 2 inland apart from 4 (4): est 7, ratio 3.5, score 3.5 x size.
    owners = (0, 0, 0, 1, 1)
    armies = (8.0, 6.0, 4.0, 4.0, 2.0)
    bigger = _state(BASIC_NEIGHBOURS, owners, armies, sizes=(100, 100, 100, 140, 150))
    assert _plan(BasicRobot(), bigger) == "attack 1,2>4"  # 525 > 385
    tie = _state(BASIC_NEIGHBOURS, owners, armies, sizes=(100, 100, 100, 140, 110))
    assert _plan(BasicRobot(), tie) == "attack 0,1>3"  # 385 = 385: the lower id stays
    # 4 at 3.5: ratio 2, x AF = 1.0, not above 1.1, so not eligible even though it is bigger.
    weak = _state(BASIC_NEIGHBOURS, owners, (8, 6, 4, 4, 3.5), sizes=(100, 100, 100, 140, 900))
    assert _plan(BasicRobot(), weak) == "attack 0,1>3"


def test_basic_robot_marches_gathered_armies_to_the_front() -> None:
    # A line 0-1-2-3-4; player 0 owns 0..3, player 1 owns 4 with 100 (no attack possible).
    line = ((1,), (0, 2), (1, 3), (2, 4), (3,))
    state = _state(line, (0, 0, 0, 0, 1), (5, 5, 5, 1, 100), sizes=(100, 100, 100, 100, 900))
    robot = BasicRobot()
    # No gathering country yet: inland 0 (inland neighbours hold 5), 1 (0 and 2: 10), 2 (1: 5;
    # 3 is not inland). The best is 1, gathered from 0 and 2, and remembered.
    assert _plan(robot, state) == "gather 0,2>1"
    assert robot.gathering == 1
    state = state.apply(Move.parse("gather 0,2>1")).apply(NO_MOVE)
    # From 1 the nearest front is 3, through 2: gather into 2 from its inland neighbours (1).
    assert _plan(robot, state) == "gather 1>2"
    assert robot.gathering == 2
    state = state.apply(Move.parse("gather 1>2")).apply(NO_MOVE)
    # Next is 3, at the front: gather from 2 only (4 is not inland); 3 is not remembered.
    assert _plan(robot, state) == "gather 2>3"
    assert robot.gathering is None


def test_basic_robot_forgets_a_lost_gathering_country() -> None:
    line = ((1,), (0, 2), (1, 3), (2, 4), (3,))
    state = _state(line, (1, 0, 0, 0, 1), (100, 5, 5, 1, 100), sizes=(900, 100, 100, 100, 900))
    robot = BasicRobot()
    robot.gathering = 0  # now player 1's: forgotten, then (b) finds nothing inland with armies
    # and the fallback gathers by spendable armies: 1 (needs 2/3 x 100), 2 (inland, 5), 3 (2/3
    # x 100): owned neighbours' spendable: 1 -> 5, 2 -> 0, 3 -> 5; the first best is 1.
    assert _plan(robot, state) == "gather 2>1"
    assert robot.gathering == 1


def test_basic_robot_fallback_gathers_at_the_border() -> None:
    # 0 - 1 - 2 all player 0's and each touching an enemy with 100; PF 0.5 keeps 50 at home.
    # Spendable: 10, 30, 10. Owned neighbours' total: 0 -> 30, 1 -> 20, 2 -> 30: 0 (first).
    neighbours = ((1, 3), (0, 2, 4), (1, 5), (0,), (1,), (2,))
    owners = (0, 0, 0, 1, 1, 1)
    state = _state(neighbours, owners, (60, 80, 60, 100, 100, 100), protection_factor=0.5)
    robot = BasicRobot()
    assert _plan(robot, state) == "gather 1>0"
    assert robot.gathering == 0  # remembered although it is at the border
    # Next time 0 touches an enemy, so it is forgotten and the fallback runs again.
    assert _plan(robot, state) == "gather 1>0"
    poor = _state(neighbours, owners, (40, 50, 40, 100, 100, 100), protection_factor=0.5)
    assert _plan(BasicRobot(), poor) == "none"
    nothing = _state(neighbours, (1,) * 6, (1.0,) * 6)
    assert _plan(BasicRobot(), nothing) == "none"


# --- The robot's view (spec 5.1) ---------------------------------------------------------------


def test_neighbour_to_nearest_enemy_prefers_near_then_truncated_armies() -> None:
    # 0 -> 1 -> 3 and 0 -> 2 -> 4, both 3 and 4 touch enemy 5. Truncated sums decide:
    # via 1: int(2.9) + int(2.9) = 4; via 2: int(1.0) + int(4.0) = 5 (by real sums 1 wins).
    neighbours = ((1, 2), (0, 3), (0, 4), (1, 5), (2, 5), (3, 4))
    owners = (0, 0, 0, 0, 0, 1)
    game = RobotGame(_state(neighbours, owners, (0, 2.9, 1.0, 2.9, 4.0, 9.0)), 0)
    assert game.neighbour_to_nearest_enemy(0) == 2
    tie = RobotGame(_state(neighbours, owners, (0, 2.9, 1.0, 2.9, 3.5, 9.0)), 0)
    assert tie.neighbour_to_nearest_enemy(0) == 1  # 4 = 4: the first found
    assert tie.neighbour_to_nearest_enemy(3) is None  # 3 touches the enemy itself
    # A nearer front beats more armies: 2 touches 5 directly.
    near = ((1, 2), (0, 3), (0, 5), (1, 4), (3,), (2,))
    game = RobotGame(_state(near, owners, (0, 9, 1, 9, 9, 9)), 0)
    assert game.neighbour_to_nearest_enemy(0) == 2
    alone = RobotGame(_state(near, (0,) * 6, (1.0,) * 6), 0)
    assert alone.neighbour_to_nearest_enemy(0) is None  # no enemy anywhere


def test_country_helpers() -> None:
    state = _state(BASIC_NEIGHBOURS, (0, 0, 0, 1, 1), (8, 6, 4, 4, 2))
    game = RobotGame(state, 0)
    assert (game.player, game.players, game.countries) == (0, 2, 5)
    assert [game.is_inland(c) for c in range(5)] == [False, False, False, False, False]
    assert game.is_inland(0, ignoring=3) and not game.is_inland(1, ignoring=3)
    assert game.has_enemies(1) and game.is_neighbour(1, 4) and not game.is_neighbour(0, 4)
    # 1 faces 3 and 4 (one owner: 4 + 2): need 2/3 x 6 = 4, spendable 2.
    assert game.defence_needed(1) == pytest.approx(4.0)
    assert game.spendable(1) == pytest.approx(2.0) and game.spendable(2) == pytest.approx(
        2.67, 0.01
    )
    # 3 has 4: 0 and 1 commit 3.5 + 2.5 = 6 >= 4, 0 alone 3.5; 2 is not a neighbour of 3.
    assert game.can_be_attacked(3, [0, 1]) and not game.can_be_attacked(3, [0])
    assert not game.can_be_attacked(3, [1]) and not game.can_be_attacked(3, [2])
    assert not game.can_be_attacked(0, [1]) and not game.can_be_attacked(3, [])
    assert [str(m) for m in game.legal_moves()][:2] == ["none", "gather 1>0"]
    after = game.apply(Move.parse("attack 0,1>3"))
    assert after.owner(3) == 0 and after.my_countries == (0, 1, 2, 3) and game.owner(3) == 1


def test_my_countries_follow_the_order_won_and_lost() -> None:
    # A line 0-1-2-3-4; player 0 owns 1 and 3, player 1 owns 0, 2 and 4 (4 with 1000).
    line = ((1,), (0, 2), (1, 3), (2, 4), (3,))
    state = _state(line, (1, 0, 1, 0, 1), (1, 50, 1, 50, 1000))
    assert RobotGame(state, 0).my_countries == (1, 3)
    state = state.apply(Move.parse("attack 1>0")).apply(NO_MOVE)
    state = state.apply(Move.parse("attack 3>2")).apply(Move.parse("attack 4>3"))
    assert state.owners == (0, 0, 0, 1, 1)
    assert RobotGame(state, 0).my_countries == (1, 0, 2)  # 1 from the start, then 0, then 2
    assert RobotGame(state, 1).my_countries == (4, 3)
    assert RobotGame(state, 1).countries_of(0) == (1, 0, 2)


def test_statistics_rank_ties_and_eliminated_players_last() -> None:
    # Sizes 60, 60, 30 (and a mountain): players 0 and 1 share rank 1, 2 is 3rd, 3 (nothing) 4th.
    state = _state(
        ((1,), (0, 2), (1,), ()),
        (1, 0, 2, MOUNTAIN),
        (7.9, 3.2, 1.0, 0.0),
        sizes=(60, 60, 30, 10),
        players=4,
    )
    stats = player_statistics(state)
    assert [(s.player, s.rank, s.size, s.countries, s.armies) for s in stats] == [
        (0, 1, 60, 1, 3),
        (1, 1, 60, 1, 7),
        (2, 3, 30, 1, 1),
        (3, 4, 0, 0, 0),
    ]
    assert stats[0].size_percent == pytest.approx(40.0)
    assert stats[2].countries_percent == pytest.approx(100 / 3)
    assert RobotGame(state, 2).statistics() == stats


# --- The sandbox -------------------------------------------------------------------------------


class RaisingRobot(Robot):
    name = "Raiser"

    def plan(self, game: RobotGame) -> Move:
        return Move(MoveKind.ATTACK, 1 // (game.turn * 0), ())


class ThiefRobot(Robot):
    """Attacks with a country it does not own."""

    def plan(self, game: RobotGame) -> Move:
        theirs = [c for c in range(game.countries) if game.owner(c) not in (game.player, -1)]
        return Move(MoveKind.ATTACK, theirs[1], (theirs[0],))


class TamperingRobot(Robot):
    """Changes its copy every way it can, then plays none."""

    attempts: ClassVar[list[str]] = []

    def plan(self, game: RobotGame) -> Move:
        state = game.state
        object.__setattr__(state, "owners", (game.player,) * game.countries)
        object.__setattr__(state, "armies", (999.0,) * game.countries)
        object.__setattr__(game.board, "sizes", (1,) * game.countries)
        object.__setattr__(game.board, "attack_factor", 1.0)
        object.__setattr__(state.results[0], "is_error", True)
        try:
            state.owners = ()  # type: ignore[misc]
        except dataclasses.FrozenInstanceError:
            self.attempts.append("state frozen")
        try:
            game.state = state  # type: ignore[misc]
        except AttributeError:
            self.attempts.append("game read-only")
        return NO_MOVE


class SleepyRobot(Robot):
    def plan(self, game: RobotGame) -> Move:
        time.sleep(0.12)
        return NO_MOVE


def _robots_match(
    robots: tuple[str, ...], registry: RobotRegistry, budget_s: float = 1.0
) -> Match[Move]:
    """Robots only, 30 countries; each agent thinks ``budget_s`` a move (its own budget)."""
    game = GrabGame(GrabOptions(countries=30, robots=robots, human_playing=False), size=(320, 200))
    agents = [registry.agent(key, budget_s) for key in robots]
    return Match(game, agents, seed=5, limits=Limits())


def _step(match: Match[Move]) -> Step:
    """Let the agent to move play one move, and return its step."""
    index = match.cursor
    match.on_step, match.paused = (lambda step: setattr(match, "paused", True)), False
    try:
        match.poll()
    finally:
        match.on_step = None
    return match.record[index]


@pytest.mark.parametrize(
    ("robot", "reason"),
    [
        (RaisingRobot, "raisingrobot: ZeroDivisionError: integer division or modulo by zero"),
        (ThiefRobot, "thiefrobot: attack "),
        (SleepyRobot, "sleepyrobot: TimeoutError: took 0."),
    ],
)
def test_a_failing_robot_loses_its_move_and_the_game_goes_on(
    robot: type[Robot], reason: str
) -> None:
    registry = RobotRegistry.builtins()
    key = registry.register(robot)
    match = _robots_match((key, "basic"), registry, budget_s=0.05 if robot is SleepyRobot else 1)
    before = grab_state(match)
    step = _step(match)
    assert step.forfeit is not None and step.forfeit.startswith(reason)
    assert failures(match)[-1].startswith(f"Robot1: {reason}")
    assert step.seat == 0 and (step.action is None) is (robot is not ThiefRobot)
    if robot is ThiefRobot:
        assert step.action.kind is MoveKind.ATTACK and step.forfeit.endswith("is not legal now")
        assert "does not own" in step.note and "does not own" in failures(match)[-1]
    if robot is SleepyRobot:
        assert step.forfeit.endswith("over its 0.05 s budget") and step.action is None
    # Lost: nothing moved or grew, the error is recorded, and the next robot plays.
    after = grab_state(match)
    assert (after.owners, after.armies) == (before.owners, before.armies)
    assert after.results[0].is_error and after.to_move == 1
    assert _step(match).forfeit is None
    assert grab_state(match).turn == 2
    match.close()


def test_a_robot_cannot_change_the_real_game() -> None:
    TamperingRobot.attempts.clear()
    registry = RobotRegistry.builtins()
    match = _robots_match((registry.register(TamperingRobot), "basic"), registry)
    before = grab_state(match)
    sizes, factor = before.board.sizes, before.board.attack_factor
    step = _step(match)
    assert step.forfeit is None and TamperingRobot.attempts == ["state frozen", "game read-only"]
    assert before.owners == grab_state(match, 0).owners and before.board.sizes == sizes
    assert before.board.attack_factor == factor and not before.results[0].is_error
    assert grab_state(match).owners == before.owners and max(grab_state(match).armies) < 999


def test_in_process_runner_discards_a_late_move() -> None:
    state = _state(BASIC_NEIGHBOURS, (0, 0, 0, 1, 1), (8, 6, 4, 4, 2))
    with pytest.raises(TimeoutError, match=r"took 0\.1"):
        InProcessRunner(SleepyRobot).ask(state, 0, 0.05, Stop())
    fine = InProcessRunner(BasicRobot).ask(state, 0, 1.0, Stop())
    assert str(fine) == "attack 1,2>4"


def test_an_agent_makes_a_fresh_robot_for_an_earlier_move_or_another_map() -> None:
    line = ((1,), (0, 2), (1, 3), (2, 4), (3,))
    state = _state(line, (0, 0, 0, 0, 1), (5, 5, 5, 1, 100), sizes=(100, 100, 100, 100, 900))
    agent = RobotAgent("basic", InProcessRunner(BasicRobot))
    choose = lambda s: str(agent.choose(s, Limits(), random.Random(0), Stop()))  # noqa: E731
    assert choose(state) == "gather 0,2>1"
    later = state.apply(Move.parse("gather 0,2>1")).apply(NO_MOVE)
    assert choose(later) == "gather 1>2"  # the gathering country it remembered
    assert choose(state) == "gather 0,2>1"  # an earlier move: a fresh robot, the same answer
    with pytest.raises(ValueError, match="over"):
        agent.choose(dataclasses.replace(state, finished=True), Limits(), random.Random(0), Stop())


# --- Discovery and robots in processes -------------------------------------------------------

GOOD_ROBOT = """
from game.logic.grab.robot import Robot
from game.logic.grab.state import NO_MOVE


class Quiet(Robot):
    name = "Quiet One"
    description = "Never moves."
    default = False

    def plan(self, game):
        return NO_MOVE
"""

SLEEPER_ROBOT = """
import time

from game.logic.grab.robot import Robot
from game.logic.grab.robots.basic import BasicRobot


class Sleeper(Robot):
    def __init__(self):
        self.inner = BasicRobot()

    def plan(self, game):
        if game.turn == 0:
            time.sleep(30)
        return self.inner.plan(game)
"""


def _robot_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "robots"
    folder.mkdir()
    (folder / "quiet.py").write_text(GOOD_ROBOT)
    (folder / "sleeper.py").write_text(SLEEPER_ROBOT)
    (folder / "broken.py").write_text("def plan(:\n")
    (folder / "raising.py").write_text("raise RuntimeError('no robots today')\n")
    (folder / "basic.py").write_text(GOOD_ROBOT.replace("Quiet", "Other"))
    (folder / "notes.txt").write_text("not python")
    return folder


def test_registry_finds_robots_in_a_folder_and_reports_problems(tmp_path: Path) -> None:
    registry = RobotRegistry(_robot_folder(tmp_path), entry_points=False)
    assert {"simple", "basic", "quiet", "sleeper"} <= set(registry.names())
    info = registry.info("quiet")
    assert (info.name, info.description, info.default, info.builtin) == (
        "Quiet One",
        "Never moves.",
        False,
        False,
    )
    assert registry.is_builtin("basic") and not registry.is_builtin("sleeper")
    assert "basic" in registry.defaults() and "quiet" not in registry.defaults()
    assert registry.describe()["quiet"].startswith("Quiet One: Never moves. (from ")
    problems = "\n".join(registry.problems)
    assert "broken.py: importing it raised SyntaxError" in problems
    assert "raising.py: importing it raised RuntimeError: no robots today" in problems
    assert "basic.py:Other: robot key 'basic' is taken by the built-in robot" in problems
    assert registry.robot_class("basic") is BasicRobot
    with pytest.raises(UnknownRobotError, match="no robot 'nobody'"):
        registry.runner("nobody")
    with pytest.raises(UnknownRobotError):
        registry.agent("nobody")
    assert isinstance(registry.agent("quiet").runner, ProcessRunner)
    assert isinstance(registry.agent("basic").runner, InProcessRunner)


def test_a_robot_process_over_budget_is_killed_and_the_game_goes_on(tmp_path: Path) -> None:
    registry = RobotRegistry(_robot_folder(tmp_path), entry_points=False)
    with _robots_match(("sleeper", "basic"), registry, budget_s=0.5) as match:
        before = grab_state(match)
        step = _step(match)
        assert step.forfeit is not None and "memory is lost" in step.forfeit
        assert step.forfeit.startswith("sleeper: TimeoutError: did not answer within its 0.50 s")
        assert grab_state(match).owners == before.owners
        assert grab_state(match).results[0].is_error
        _step(match)
        # A new process with a new robot: turn 2, so it answers like BasicRobot.
        state = grab_state(match)
        step = _step(match)
        assert step.forfeit is None
        assert step.action == BasicRobot().plan(RobotGame(state, 0))
        runner = match.seats[0].runner  # type: ignore[union-attr]
        assert isinstance(runner, ProcessRunner) and runner.running
    assert not runner.running


GRUMPY_ROBOT = """
from game.logic.grab.robot import Robot
from game.logic.grab.state import NO_MOVE


class Grumpy(Robot):
    def __init__(self):
        self.moves = 0

    def plan(self, game):
        self.moves += 1
        if self.moves == 1:
            raise ValueError("grr")
        if self.moves == 2:
            return "none"
        if self.moves == 3:
            raise LookupError
        return NO_MOVE


class Odd(Exception):
    pass
"""


def test_a_robot_process_that_fails_keeps_running_and_its_memory(tmp_path: Path) -> None:
    (tmp_path / "grumpy.py").write_text(GRUMPY_ROBOT)
    registry = RobotRegistry(tmp_path, entry_points=False)
    with _robots_match(("grumpy", "basic"), registry) as match:
        steps = [_step(match) for _ in range(8)]
        assert [s.forfeit for s in steps[1::2]] == [None] * 4
        # The fourth answer (none) shows the robot kept its move count through the errors.
        assert [s.forfeit for s in steps[0::2]] == [
            "grumpy: ValueError: grr",
            "grumpy: TypeError: returned 'none', not a Move",
            "grumpy: LookupError",
            None,
        ]
        assert failures(match)[0] == "Robot1: grumpy: ValueError: grr"
        assert [i for i, s in enumerate(match.record) if s.forfeit] == [0, 2, 4]
