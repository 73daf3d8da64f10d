"""The agents every game offers (game.logic.search.agents): random, alpha-beta and MCTS.

Every registered game lists them and makes them through its registry entry, and each chooses
a legal action at its start (bounded by positions, never by the clock). Alpha-beta finds the
forced wins of Nim and of a tic-tac-toe fork; MCTS beats random at a dice game (chance nodes)
and at Nim; where information is hidden (Cluedo), both choose the same for two states that
look the same to their seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from game import registry
from game.logic.clue.game import ClueGame
from game.logic.clue.rules import ActionKind, ClueState
from game.logic.contract import CHANCE, Limits, State, Stop, sample_chance
from game.logic.search.agents import BASELINES, RandomAgent
from game.logic.search.alphabeta import AlphaBetaAgent
from game.logic.search.mcts import MctsAgent
from game.logic.search.toys import Nim, Pig
from game.logic.tournament import run_tournament

#: Each agent's budget here: positions (alpha-beta) or iterations (MCTS), a guard of an hour.
BUDGET = {
    "random": Limits(),
    "alphabeta": Limits(time=3600, depth=2, nodes=300),
    "mcts": Limits(time=3600, nodes=4),
}
#: One game of each kind stands for the described games (all have the same entry code).
DESCRIBED = ("tic-tac-toe", "chess")
ENTRIES = [e.id for e in registry.all_entries() if e.group == "" or e.id in DESCRIBED]


def _dealt(state: State[Any], rng: random.Random) -> State[Any]:
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    return state


@pytest.mark.parametrize("game_id", ENTRIES)
def test_every_game_offers_and_plays_the_generic_agents(game_id: str) -> None:
    entry = registry.get(game_id)
    assert set(BASELINES) <= set(entry.agents())
    options = entry.options.validate({})
    rng = random.Random(3)
    state = _dealt(entry.make_game(options).initial_state(rng), rng)
    for name in BASELINES:
        agent = entry.make_agent(name, options)
        assert agent.name == name
        action = agent.choose(state, BUDGET[name], random.Random(1), Stop())
        assert action in state.legal_actions(), (name, action)
        state = _dealt(state.apply(action), rng)
        if state.is_terminal():
            break


def test_the_opponent_options_offer_the_generic_agents() -> None:
    reversi = registry.get("reversi")
    assert reversi.seat_choices("black")[-3:] == ("random", "alphabeta", "mcts")
    assert reversi.options.validate({"white": "mcts"})["white"] == "mcts"
    assert registry.get("clue").options.validate({"opponent": "alphabeta"})["opponent"]
    chess = registry.get("chess")
    assert "uct" not in chess.seat_choices("second")  # the older name: accepted, not offered
    assert chess.options.validate({"second": "uct"})["second"] == "uct"
    assert chess.make_agent("uct", {}).name == "mcts"


def test_cluedos_own_random_agent_wins_over_the_generic_one() -> None:
    agent = registry.get("clue").make_agent("random", {})
    assert not isinstance(agent, RandomAgent)
    assert agent.name == "random"


def test_a_tournament_of_the_generic_agents() -> None:
    result = run_tournament(
        registry.get("tic-tac-toe"), ["alphabeta", "mcts"], 2, limits=BUDGET["mcts"]
    )
    assert len(result.games) == 2


def test_a_tournament_takes_an_agents_former_name() -> None:
    """``--agents uct,random`` (the name before MCTS was every game's) still plays."""
    result = run_tournament(
        registry.get("tic-tac-toe"), ["uct", "random"], 1, limits=BUDGET["mcts"]
    )
    assert len(result.games) == 1


@pytest.mark.parametrize("stones", [4, 5, 7, 8, 10, 11])
def test_alphabeta_takes_nims_forced_win(stones: int) -> None:
    """Leaving a multiple of 3 wins; from any other heap it is the only winning move."""
    move = AlphaBetaAgent().choose(Nim(stones), Limits(depth=12), random.Random(0), Stop())
    assert (stones - move) % 3 == 0


def test_alphabeta_plays_the_fork_at_tic_tac_toe() -> None:
    """X a1, O b2, X c3, O c1: X must block at a3, which threatens a2 and b3 at once."""
    entry = registry.get("tic-tac-toe")
    state = entry.make_game(entry.options.validate({})).initial_state(random.Random(0))
    for text in ("a1", "b2", "c3", "c1"):
        state = state.apply(state.parse_action(text))
    agent = AlphaBetaAgent()
    move = agent.choose(state, Limits(depth=5), random.Random(0), Stop())
    assert state.action_text(move) == "a3", agent.explain()
    assert "score +" in agent.explain()


def _wins_against_random(agent: Any, start: State[Any], limits: Limits, games: int) -> int:
    wins = 0
    for g in range(games):
        rng = random.Random(g)
        seats = [agent, RandomAgent()] if g % 2 == 0 else [RandomAgent(), agent]
        state = start
        for _ in range(500):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            state = state.apply(seats[state.current_player()].choose(state, limits, rng, Stop()))
        wins += state.returns()[g % 2] > 0
    return wins


def test_mcts_beats_random_at_a_dice_game() -> None:
    """Pig to 10 points: a die after each roll (chance nodes in the tree and the playouts)."""
    assert _wins_against_random(MctsAgent(), Pig(goal=10), Limits(nodes=60), 10) >= 8


def test_alphabeta_weighs_the_dice() -> None:
    """Pig to 10 with 2 banked and 8 in hand: holding wins at once; rolling risks it."""
    state = Pig(goal=10, scores=(2, 9), turn_points=8)
    agent = AlphaBetaAgent()
    assert agent.choose(state, Limits(depth=3), random.Random(0), Stop()) == "hold"
    assert _wins_against_random(agent, Pig(goal=10), Limits(depth=3), 6) >= 5


def test_mcts_beats_random_at_nim() -> None:
    assert _wins_against_random(MctsAgent(), Nim(11), Limits(nodes=100), 10) >= 9


def _cluedo_pair() -> tuple[ClueState, ClueState]:
    """Two deals of the quick deck at three seats that seat 0 cannot tell apart: the same
    hand, the others' cards and the envelope swapped about, then the same suggestion."""
    game = ClueGame({"seats": 3, "deck": "quick"})
    rules = game.rules
    n = rules.deck.n_cards
    mine = (0, 4, 8)
    others = [c for c in range(n) if c not in mine]
    envelopes = [
        tuple(next(c for c in r if c not in mine) for r in rules.deck.ranges),
        tuple([c for c in r if c not in mine][-1] for r in rules.deck.ranges),
    ]
    states = []
    for envelope in envelopes:
        rest = [c for c in others if c not in envelope]
        sizes = ClueState.start(rules).hand_sizes
        hands = [mine, tuple(rest[: sizes[1]]), tuple(rest[sizes[1] :])]
        states.append(ClueState.dealt(rules, envelope, hands))
    assert states[0].envelope != states[1].envelope
    assert states[0].observation(0) == states[1].observation(0)
    return states[0], states[1]


@pytest.mark.parametrize(
    ("agent", "limits"),
    [(MctsAgent(), Limits(nodes=40)), (AlphaBetaAgent(), Limits(depth=1, nodes=2000))],
)
def test_hidden_cards_are_not_read(agent: Any, limits: Limits) -> None:
    first, second = _cluedo_pair()
    assert first.current_player() == 0
    chosen = [agent.choose(s, limits, random.Random(11), Stop()) for s in (first, second)]
    assert chosen[0] == chosen[1]
    assert chosen[0].kind in (ActionKind.SUGGEST, ActionKind.ACCUSE)
    drawn = [s.determinizer(0)(random.Random(2)) for s in (first, second)]
    assert drawn[0].key() == drawn[1].key()
