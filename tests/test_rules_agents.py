"""The described games' agents: legal choices, stopping, and the strength gates on a small
sample (benchmarks/rules_agents.py runs them on 100 games)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from game.logic.contract import Limits, Stop, ThinkingStopped
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame
from game.logic.search.mcts import MctsAgent
from tests.deep import sized

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from rules_agents import play


@pytest.mark.deep
@pytest.mark.parametrize(
    ("game", "games", "least"),
    [("chess", *sized((6, 6), (20, 16))), ("english-draughts", 20, 16), ("othello", 20, 16)],
)
def test_alphabeta_at_depth_two_beats_random(game: str, games: int, least: int) -> None:
    """Seeded games, four in five won: the benchmark's gate is nine in ten over a hundred,
    and Othello's rate there (about 92 %) puts two losses in ten of its first games. Chess
    (a CPU second or more a game; the first twenty were all won) plays six and must win all
    six (twenty under benchmarks/slow_checks.py, four in five): a player no better than
    random wins far fewer than one game in two against random within the 600 plies (most
    such games are drawn), and even at one in two, six wins in six would come one time in 64.
    """
    wins, _draws, losses = play(game, "alphabeta", Limits(depth=2), games)
    assert wins >= least, (wins, losses)


def test_uct_never_loses_tic_tac_toe_to_random() -> None:
    """Ten seeded games, five from each seat, with 400 playouts a move (2 CPU seconds where
    the benchmark's 1,000 took 5; these games are still won or drawn, eight and two), and
    benchmarks/rules_agents.py plays a hundred at 1,000. A UCT that backs up the wrong side's
    result, or picks moves at random, loses some of ten games against random."""
    _wins, _draws, losses = play("tic-tac-toe", "uct", Limits(nodes=400), 10)
    assert losses == 0


def test_rave_makes_uct_stronger_at_hex() -> None:
    """With the same 150 playouts a move, UCT that shares what each playout says about every
    move it made (RAVE) beats plain UCT at Hex on a side of 5, from either seat: all of four
    games (the first six were all won), which two agents of equal strength would do one time
    in 16."""
    e = rulebook("hex", {"side": 5})
    wins = 0
    for g in range(4):
        rng = random.Random(g)
        agents = [MctsAgent(rave=True), MctsAgent(rave=False)]
        if g % 2:
            agents.reverse()
        state = RulesGame(e).initial_state(rng)
        while not state.is_terminal():
            agent = agents[state.current_player()]
            state = state.apply(agent.choose(state, Limits(nodes=150), rng, Stop()))
        wins += state.returns()[g % 2] > 0
    assert wins == 4


def test_alphabeta_takes_a_win_in_one() -> None:
    game = RulesGame(rulebook("tic-tac-toe"))
    state = game.initial_state(random.Random(0))
    for text in ("a1", "b1", "a2", "b2"):
        state = state.apply(state.parse_action(text))
    move = make_agent("alphabeta").choose(state, Limits(depth=3), random.Random(0), Stop())
    assert state.action_text(move) == "a3"


@pytest.mark.parametrize("name", ["alphabeta", "uct"])
def test_a_set_stop_flag_stops_the_agent(name: str) -> None:
    state = RulesGame(rulebook("chess")).initial_state(random.Random(0))
    stop = Stop()
    stop.set()
    with pytest.raises(ThinkingStopped):
        make_agent(name).choose(state, Limits(time=5.0), random.Random(0), stop)


def test_agents_refuse_a_finished_game() -> None:
    game = RulesGame(rulebook("tic-tac-toe"))
    state = game.initial_state(random.Random(0))
    for text in ("a1", "b1", "a2", "b2", "a3"):
        state = state.apply(state.parse_action(text))
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    with pytest.raises(ValueError, match="over"):
        make_agent("random").choose(state, Limits(), random.Random(0), Stop())
