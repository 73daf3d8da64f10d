"""Reversi in a Match: the forced pass, the levels as agents, undo and redo against the
computer, and the controller's match without a window (no GL)."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from game.games.reversi.controller import ReversiController
from game.logic.contract import TERMINAL, Limits, Stop, ThinkingStopped
from game.logic.match import Match
from game.logic.reversi.board import PASS, Color, Position, parse_move
from game.logic.reversi.classic import CLASSIC_LEVELS, classic_move
from game.logic.reversi.game import ReversiGame
from game.logic.reversi.players import ReversiLevelAgent, make_agent
from game.logic.reversi.solver import SearchCancelled
from game.registry import MemorySession
from tests.test_reversi_search import must_pass_position
from tests.waiting import HANG_S

LIMITS = Limits(time=0.05)


def _before_a_pass(seed: int = 5) -> Position:
    """A position where the side to move has a move after which the other side must pass."""
    for s in range(seed, seed + 500):
        rng = random.Random(s)
        position = Position.start()
        while not position.is_terminal():
            for move in position.legal_moves():
                if move == PASS:
                    continue
                child = position.apply(move)
                if child.legal_moves() == [PASS]:
                    return position
            position = position.apply(rng.choice(position.legal_moves()))
    raise AssertionError("no position before a pass")


def test_the_game_names_its_seats_and_results() -> None:
    game = ReversiGame()
    assert (game.id, game.seats, game.returns_sum) == ("reversi", 2, 0.0)
    assert [game.seat_name(s) for s in (0, 1)] == ["Black", "White"]
    draw = Position.from_text("X" * 32 + "O" * 32 + " X")
    assert draw.current_player() == TERMINAL and draw.legal_actions() == []
    assert game.result_text(draw) == "Draw, 32–32."
    assert game.forced_action(must_pass_position(random.Random(5))) == PASS
    assert game.forced_action(Position.start()) is None


def test_a_pass_is_played_by_the_match_itself() -> None:
    start = _before_a_pass()
    move = next(m for m in start.legal_moves() if start.apply(m).legal_moves() == [PASS])
    match = Match(ReversiGame(), [None, None], start=start)
    step = match.play(move)
    assert step.action == move and not step.forced
    last = match.record[-1]
    assert (last.action, last.text, last.forced) == (PASS, "pass", True)
    assert match.to_move() == start.to_move.player  # the same side moves again
    match.undo()  # back over the pass and the move: the person's turn before them
    assert match.state == start


def test_a_level_agent_chooses_legal_moves_and_explains_them() -> None:
    # Each level stops at its own depth (and solves this endgame in a fraction of a second);
    # the time is only a guard. With 0.05 s a busy machine, or the first search of a process
    # (the kernels loaded from numba's cache), left the endgame at depth 1.
    enough = Limits(time=HANG_S)
    agent = make_agent("advanced")
    assert isinstance(agent, ReversiLevelAgent) and agent.explain() == ""
    move = agent.choose(Position.start(), enough, random.Random(0), Stop())
    assert move in Position.start().legal_moves()
    assert agent.explain().startswith("evaluation ") and "for black" in agent.explain()
    classic = make_agent("classic-expert")
    classic.choose(Position.start().apply(19), enough, random.Random(0), Stop())
    assert classic.explain().startswith("rank ") and "for white, depth 6" in classic.explain()
    # An endgame the level solves: the explanation says so.
    endgame = Position.from_text("X" * 40 + "O" * 16 + "-OX-O--X X")
    master = make_agent("master")
    master.choose(endgame, enough, random.Random(0), Stop())
    assert master.explain() == "exact: black wins by 56"


def test_every_level_is_an_agent_that_stops_when_asked() -> None:
    from game.logic.reversi import LEVELS

    for name in LEVELS:
        stop = Stop()
        stop.set()
        with pytest.raises(ThinkingStopped):
            make_agent(name).choose(Position.start(), Limits(time=5.0), random.Random(0), stop)


def test_the_classic_kernel_reads_the_stop_flag() -> None:
    with pytest.raises(SearchCancelled):
        classic_move(
            Position.start(), CLASSIC_LEVELS["classic-expert"], stop=np.ones(1, dtype=np.uint8)
        )


def test_a_stop_from_another_thread_ends_a_long_think() -> None:
    stop = Stop()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        with pytest.raises(ThinkingStopped):
            make_agent("master").choose(
                Position.start().apply(37), Limits(time=3600.0), random.Random(0), stop
            )
    finally:
        timer.cancel()


def test_against_the_computer_undo_and_redo_go_to_the_persons_turns() -> None:
    match = Match(ReversiGame(), [None, make_agent("beginner")], seed=3, limits=LIMITS)
    match.play(parse_move("d3"))
    assert len(match.run()) == 1  # the computer answers
    match.play(match.state.legal_actions()[0])
    match.run()
    assert match.cursor == 4
    match.undo()
    assert match.cursor == 2 and match.person_to_move()
    match.redo()
    assert match.cursor == 4 and match.person_to_move()


def test_a_jump_to_the_computers_turn_starts_its_thinking() -> None:
    match = Match(ReversiGame(), [None, make_agent("beginner")], seed=3, limits=LIMITS)
    match.play(parse_move("d3"))
    match.run()
    match.jump(1)  # White (the computer) to move, its old reply ready to redo
    assert match.agent_to_move() is not None
    played = match.run()
    assert [s.seat for s in played] == [1] and match.cursor == 2 and match.person_to_move()


# -- the controller's match, without a window --------------------------------------------------


def settle(c: ReversiController) -> None:
    """Let the controller's background thinking finish (no scene: moves apply at once)."""
    for _ in range(1000):
        c.update(1 / 60)
        if c.idle():
            return
        assert c.match.wait(HANG_S)
    raise AssertionError("the computer never moved")


def test_the_controller_lets_the_computer_move_after_undo_redo_and_a_jump() -> None:
    """``shot reversi --white advanced --do d3,wait,wait,undo,redo,...`` used to end at
    ``moves=1 to_move=O``: the computer never moved again."""
    session = MemorySession({"black": "human", "white": "advanced", "time_per_move": 0.05})
    c = ReversiController(session, seed=2)
    try:
        for command, moves in (("d3", 2), ("undo", 0), ("redo", 2), ("goto:1", 2)):
            c.commands().run(command)
            settle(c)
            assert c.status_line().endswith(f"moves={moves} to_move=X"), command
        assert c.match.full_record[1].seat == 1  # the computer's reply, played again
    finally:
        c.exit()


def test_the_controller_plays_a_whole_game_of_two_computers() -> None:
    session = MemorySession({"black": "beginner", "white": "classic-beginner"})
    c = ReversiController(session, seed=4, time_per_move=0.02)
    try:
        settle(c)
        assert c.match.over
        assert c.message == c.game.result_text(c.position)  # nobody's statistics
        assert session.records == []
        black, white = c.position.disc_count()
        assert c.status_line() == (
            f"status=over black={black} white={white} moves={c.match.cursor} "
            f"to_move={c.position.to_move.value}"
        )
    finally:
        c.exit()


def test_the_controller_refuses_what_is_not_the_persons() -> None:
    session = MemorySession({"black": "master", "white": "human", "time_per_move": 5.0})
    c = ReversiController(session)
    try:
        c.update(1 / 60)
        assert c.match.thinking()
        with pytest.raises(ValueError, match="computer"):
            c.play(parse_move("d3"))
        with pytest.raises(ValueError, match="thinking"):
            c.hint()
        assert c.sides[Color.BLACK] == "master"
    finally:
        c.exit()


def test_a_tournament_start_is_a_few_random_plies_from_its_seed() -> None:
    game = ReversiGame()
    starts = [game.tournament_start(random.Random(seed)) for seed in range(12)]
    assert starts[3] == game.tournament_start(random.Random(3))
    assert all(6 <= sum(s.disc_count()) <= 10 and not s.is_terminal() for s in starts)
    assert len({s.key() for s in starts}) > 1
