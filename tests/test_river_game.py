"""Priests and Devils on the game contract: RiverGame, the options schema, the solver agent,
and a Match played by it."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import (
    TERMINAL,
    IllegalActionError,
    Limits,
    NotationError,
    State,
    Stop,
    ThinkingStopped,
)
from game.logic.match import Match
from game.logic.options import OptionError
from game.logic.river.game import (
    OPTIONS,
    BoardBoat,
    Cross,
    Kind,
    NoSolutionError,
    Outcome,
    RiverError,
    RiverGame,
    RiverPuzzle,
    RiverRules,
    RiverState,
    SolverAgent,
    Unboard,
    rules_from,
)

P, D = Kind.PRIEST, Kind.DEVIL


def choose(agent: SolverAgent, state: RiverState) -> object:
    return agent.choose(state, Limits(), random.Random(1), Stop())


# --- the contract --------------------------------------------------------------------------


def test_river_state_is_a_state_of_the_contract() -> None:
    state = RiverGame().initial_state(random.Random(0))
    assert isinstance(state, State)
    assert state.current_player() == 0
    assert state.chance_outcomes() == []
    assert state.observation(0) == state.key()
    assert state.returns() == (0.0,)
    for action in state.legal_actions():
        text = state.action_text(action)
        assert state.parse_action(text) == action
    with pytest.raises(NotationError):
        state.parse_action("fly")
    with pytest.raises(NotationError):
        state.action_text("boat")  # type: ignore[arg-type]


def test_a_finished_game_is_terminal_not_chance() -> None:
    lost = RiverState.start(RiverRules())
    for action in (BoardBoat(P), BoardBoat(P), Cross()):
        lost = lost.apply(action)
    assert lost.current_player() == TERMINAL
    assert lost.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        lost.apply(Unboard(P))


def test_game_result_text_and_seat() -> None:
    game = RiverGame({"priests": 1, "devils": 1, "capacity": 2})
    state = game.initial_state(random.Random(0))
    for action in (BoardBoat(P), BoardBoat(D), Cross(), Unboard(P), Unboard(D)):
        state = state.apply(action)
    assert state.returns() == (1.0,)
    assert game.result_text(state) == "All 1 priest and 1 devil reached the right bank."
    assert game.seat_name(0) == "you"
    assert game.id == "river" and game.seats == 1


# --- the options schema --------------------------------------------------------------------


def test_options_defaults_and_ranges() -> None:
    assert OPTIONS.defaults() == {
        "priests": 3,
        "devils": 3,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    assert rules_from(OPTIONS.defaults()) == RiverRules()
    # The true minimum of each team is 0 (spec 2.1 rule 1); someone must still cross.
    assert OPTIONS.validate({"devils": 0}) == {
        "priests": 3,
        "devils": 0,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    assert OPTIONS.validate({"priests": 0, "devils": 2, "capacity": 2})["priests"] == 0
    with pytest.raises(OptionError, match="at least one priest or devil"):
        OPTIONS.validate({"priests": 0, "devils": 0})
    with pytest.raises(OptionError, match="devils must be at least 0"):
        OPTIONS.validate({"devils": -1})
    with pytest.raises(OptionError, match="capacity must be at least 1"):
        OPTIONS.validate({"capacity": 0})
    with pytest.raises(OptionError, match="priests must be at most 200"):
        OPTIONS.validate({"priests": 201})


def test_options_cross_check_gives_the_puzzle_reason() -> None:
    with pytest.raises(OptionError, match=r"^4 priests and 4 devils cannot cross in a boat for 2$"):
        OPTIONS.validate({"priests": 4, "devils": 4})
    with pytest.raises(OptionError, match="devils=3 outnumber priests=1"):
        OPTIONS.validate({"priests": 1, "devils": 3})
    with pytest.raises(OptionError):
        RiverGame({"priests": 4, "devils": 4})


def test_options_step_stops_where_the_puzzle_does() -> None:
    values = OPTIONS.defaults()
    assert OPTIONS.step(values, "priests", +1) == {
        "priests": 4,
        "devils": 3,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    assert not OPTIONS.can_step(values, "devils", +1)  # 3/4: the start is lost
    assert not OPTIONS.can_step(values, "priests", -1)  # 2/3: the start is lost
    one_devil = {"priests": 3, "devils": 1, "capacity": 2}
    assert OPTIONS.step(one_devil, "devils", -1)["devils"] == 0


def test_saved_options_load_with_zero_devils() -> None:
    problems: list[str] = []
    loaded = OPTIONS.load({"priests": 2, "devils": 0, "capacity": 2}, "river", problems)
    assert problems == []
    assert loaded == {
        "priests": 2,
        "devils": 0,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    loaded = OPTIONS.load({"priests": 4, "devils": 4, "capacity": 2}, "river", problems)
    assert loaded == OPTIONS.defaults()
    assert problems == [
        "river: 4 priests and 4 devils cannot cross in a boat for 2; using the defaults"
    ]


# --- the solver agent ----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["3/3/2", "2/2/2", "4/4/3", "5/4/2", "0/3/2", "3/0/2", "1/0/1"])
def test_following_the_agent_click_by_click_is_the_puzzles_solution(key: str) -> None:
    rules = RiverRules.from_key(key)
    puzzle = RiverPuzzle(rules)
    agent = SolverAgent()
    state = RiverState.start(rules)
    played = []
    while not state.is_terminal():
        before = (state, state.key())
        action = choose(agent, state)
        assert (state, state.key()) == before  # choosing changes nothing
        assert action in state.legal_actions()
        played.append(action)
        state = state.apply(action)
    assert state.outcome() is Outcome.WON
    assert played == puzzle.solve_actions()
    assert state.crossings == puzzle.optimal_crossings()


def test_agent_explains_the_distance_left() -> None:
    agent = SolverAgent()
    state = RiverState.start(RiverRules())
    assert choose(agent, state) == BoardBoat(D)
    assert agent.explain() == "11 crossings to go: send 2 devils"
    for action in (BoardBoat(D), BoardBoat(D), Cross()):
        state = state.apply(action)  # landed right with two devils: one rows back
    assert choose(agent, state) == Unboard(D)
    assert agent.explain() == "10 crossings to go: send 1 devil"
    last = RiverState.start(RiverRules(1, 0, 1)).apply(BoardBoat(P)).apply(Cross())
    assert choose(agent, last) == Unboard(P)
    assert agent.explain() == "everyone is across: unload the boat"


def test_agent_refuses_what_it_cannot_play() -> None:
    agent = SolverAgent()
    lost = RiverState.start(RiverRules()).apply(BoardBoat(P)).apply(BoardBoat(P)).apply(Cross())
    with pytest.raises(NoSolutionError, match="the game is lost"):
        choose(agent, lost)
    with pytest.raises(RiverError, match="Priests and Devils"):
        agent.choose("not a state", Limits(), random.Random(), Stop())  # type: ignore[arg-type]
    stop = Stop()
    stop.set()
    with pytest.raises(ThinkingStopped):
        agent.choose(RiverState.start(RiverRules()), Limits(), random.Random(), stop)


def test_a_match_played_by_the_agent_wins_optimally() -> None:
    with Match(RiverGame({"priests": 4, "devils": 4, "capacity": 3}), [SolverAgent()]) as match:
        steps = match.run()
        assert match.over
        assert match.returns() == (1.0,)
        assert sum(step.text == "boat" for step in steps) == 9
        assert steps[0].note == "9 crossings to go: send 2 devils"
        end = match.state
        assert isinstance(end, RiverState) and end.crossings == 9


def test_the_hint_of_a_match_is_the_agent_and_changes_nothing() -> None:
    with Match(RiverGame(), [None], hint_agent=SolverAgent()) as match:
        key = match.state.key()
        match.hint()
        hint = match.current_hint()
        assert hint is not None
        assert (hint.text, hint.note) == ("board:devil", "11 crossings to go: send 2 devils")
        assert match.state.key() == key and match.cursor == 0
        match.play(hint.action)
        assert match.current_hint() is None
        match.undo()
        assert match.cursor == 0 and match.can_redo()


# --- the registry entry --------------------------------------------------------------------


def test_registry_entry() -> None:
    from game.games.river.entry import ENTRY
    from game.registry import UnknownAgentError

    assert (ENTRY.id, ENTRY.title, ENTRY.hint_agent) == ("river", "Priests and Devils", "solver")
    assert ENTRY.options is OPTIONS
    assert set(ENTRY.agents()) == {"solver", "random", "alphabeta", "mcts"}
    assert isinstance(ENTRY.make_agent("solver", {}), SolverAgent)
    assert ENTRY.make_agent("random", {}).name == "random"  # every game's, from the registry
    with pytest.raises(UnknownAgentError, match=r"solver.*random, alphabeta, mcts"):
        ENTRY.make_agent("nobody", {})
    assert ENTRY.game({"devils": 2}).rules == RiverRules(3, 2, 2)  # type: ignore[attr-defined]
    assert ENTRY.controller == "game.games.river.controller:RiverController"


def solve(*argv: str) -> int:
    """``gamehall solve river ARGV`` in this process (the flags come from the schema): the
    hook's lines as the CLI prints them."""
    from game.cli import main

    return main(["solve", "river", *argv])


def test_the_solve_hook_returns_its_lines_and_prints_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    from game.games.river.entry import ENTRY

    args = argparse.Namespace(options=ENTRY.options.validate({}))
    said = list(ENTRY.hooks["solve"].run(args, ENTRY))
    assert said[-1] == "crossings=11" and len(said) == 12
    assert capsys.readouterr() == ("", "")


def test_solve_hook_prints_the_plan(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve() == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "  1.  left -> right  2 devils   left bank then 3P 1D"
    assert lines[-1] == "crossings=11" and len(lines) == 12
    assert solve("--devils", "0") == 0
    assert capsys.readouterr().out.splitlines()[-1] == "crossings=3"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ("--priests", "4", "--devils", "4"),
            "4 priests and 4 devils cannot cross in a boat for 2",
        ),
        (("--priests", "1", "--devils", "3"), "devils=3 outnumber priests=1"),
        (("--capacity", "0"), "capacity must be at least 1"),
        (("--devils", "two"), "devils must be a number"),
    ],
)
def test_solve_hook_refuses_with_the_reason(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert solve(*argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("gamehall solve: ") and message in captured.err


def test_a_typed_option_cannot_be_stepped() -> None:
    from game.registry import get

    options = get("chess").options
    values = options.defaults()
    assert not options.can_step(values, "position", +1)
    with pytest.raises(OptionError, match="typed"):
        options.step(values, "position", +1)
