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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from rules_agents import play


@pytest.mark.parametrize(
    ("game", "games"), [("chess", 10), ("english-draughts", 20), ("othello", 20)]
)
def test_alphabeta_at_depth_two_beats_random(game: str, games: int) -> None:
    """Seeded games, four in five won: the benchmark's gate is nine in ten over a hundred,
    and Othello's rate there (about 92 %) puts two losses in ten of its first games. Chess
    plays ten (a CPU second a game; the first twenty were all won): a player no better than
    random wins far fewer than one game in two against random within the 600 plies (most
    such games are drawn), and even at one in two, eight wins in ten would come about one
    time in eighteen."""
    wins, _draws, losses = play(game, "alphabeta", Limits(depth=2), games)
    assert wins >= games * 4 // 5, (wins, losses)


def test_uct_never_loses_tic_tac_toe_to_random() -> None:
    """Ten seeded games, five from each seat (benchmarks/rules_agents.py plays a hundred)."""
    _wins, _draws, losses = play("tic-tac-toe", "uct", Limits(nodes=1000), 10)
    assert losses == 0


def test_rave_makes_uct_stronger_at_hex() -> None:
    """With the same 150 playouts a move, UCT that shares what each playout says about every
    move it made (RAVE) beats plain UCT at Hex on a side of 5, from either seat."""
    e = rulebook("hex", {"side": 5})
    wins = 0
    for g in range(6):
        rng = random.Random(g)
        agents = [MctsAgent(rave=True), MctsAgent(rave=False)]
        if g % 2:
            agents.reverse()
        state = RulesGame(e).initial_state(rng)
        while not state.is_terminal():
            agent = agents[state.current_player()]
            state = state.apply(agent.choose(state, Limits(nodes=150), rng, Stop()))
        wins += state.returns()[g % 2] > 0
    assert wins >= 5


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
