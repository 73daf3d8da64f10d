"""The game contract, checked for every registered game on random playouts from fixed seeds.

A new game gets these checks by adding its registry entry: legal actions come in a fixed
order, ``apply`` leaves the old state alone, action text reads back (and stays one item of
``gamehall shot --do``), keys are stable and equal for equal positions, finished games have
no legal actions and returns that add up as the game says, and replaying a record gives the
same state. The hint agent must choose a legal action, and the options schema must accept
its own defaults.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

import pytest

from game import registry
from game.cli.shot import split_items
from game.logic.contract import CHANCE, TERMINAL, Game, Limits, State, Stop, sample_chance
from tests.deep import sized
from tests.waiting import HANG_S

SEEDS = (1, 2, 3)
#: The seeds of the random playouts whose every state is checked against the contract (every
#: legal action's text read back, for 250 steps: two thirds of the file's CPU time with three
#: seeds): one in CI (a few hundred states of every game, each with every legal action's text,
#: where a second seed was 7 CPU seconds more); all three under benchmarks/slow_checks.py.
PLAYOUT_SEEDS = sized(SEEDS[:1], SEEDS)
#: The seeds whose playouts are played out to the end by the hint agent (MasterGrab's ending
#: alone is several CPU seconds a seed); all three under benchmarks/slow_checks.py.
FINISH_SEEDS = sized(SEEDS[:1], SEEDS)
#: The options of the games played to the end: MasterGrab on half its countries (70: a CPU
#: second to its end, where the default 140 took five; what is checked at the end does not
#: depend on the map's size), on its default map under benchmarks/slow_checks.py.
FINISH_OPTIONS: dict[str, dict[str, Any]] = sized({"grab": {"countries": 70}}, {})
MAX_STEPS = 250  # long games (MasterGrab) are checked on their first moves
FINISH_STEPS = 20_000
#: How the hint agents think here: bounded by depth and positions, never by the clock (a busy
#: machine must not change a move, nor run a MasterGrab robot past its budget: its budget is
#: the longer of its own and ``time``, here only a guard against a hang). The agents only
#: drive each game to its end, where the contract is checked: 50 positions a move in CI, where
#: 200 (under benchmarks/slow_checks.py) made Chaturaji's and Backgammon's Monte Carlo hints (a
#: playout to the end for each) 8 of the test's 11 CPU seconds.
FINISHING = Limits(time=HANG_S, depth=1, nodes=sized(50, 200))
#: The hints asked of each game's first positions: a two-ply search of 50 positions in CI (of
#: 100 under slow_checks.py, where Chaturaji's Monte Carlo playouts were a third of the test).
PROBING = Limits(time=HANG_S, depth=2, nodes=sized(50, 100))

ENTRIES = {entry.id: entry for entry in registry.all_entries()}
#: The games played to their end: shogi's (a dozen CPU seconds, its hands keep a game of
#: random moves and one-ply replies going for hundreds of plies) under the deep checks only;
#: its random playouts, hint and contract are checked here like every game's.
FINISHED = sized(sorted(set(ENTRIES) - {"shogi"}), sorted(ENTRIES))


def _playout(game: Game[Any], seed: int) -> tuple[State[Any], list[tuple[State[Any], Any]]]:
    """A random playout: the start and every (state, action) pair along the way."""
    rng = random.Random(seed)
    state = game.initial_state(random.Random(seed))
    path: list[tuple[State[Any], Any]] = []
    start = state
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = rng.choice(list(state.legal_actions()))
        path.append((state, action))
        state = state.apply(action)
    return start, path


@pytest.fixture(scope="module", params=sorted(ENTRIES))
def entry(request: pytest.FixtureRequest) -> registry.Entry:
    return ENTRIES[request.param]


def test_conformance_every_game_is_registered() -> None:
    assert {"river", "reversi", "grab"} <= set(ENTRIES)


def test_conformance_options_schema_accepts_its_defaults(entry: registry.Entry) -> None:
    values = entry.options.validate({})
    assert values == entry.options.defaults()
    game = entry.make_game(values)
    assert game.id == entry.id and game.seats >= 1


@pytest.mark.deep
@pytest.mark.parametrize("seed", PLAYOUT_SEEDS)
def test_conformance_random_playouts_keep_the_contract(entry: registry.Entry, seed: int) -> None:
    game = entry.game()
    start, path = _playout(game, seed)
    states = [state for state, _ in path]
    final = path[-1][0].apply(path[-1][1]) if path else start
    for state, action in path:
        key_before = state.key()
        legal = list(state.legal_actions())
        assert legal == list(state.legal_actions()), "legal actions in a fixed order"
        player = state.current_player()
        assert player == CHANCE or 0 <= player < game.seats
        if player == CHANCE:
            total = sum(p for _, p in state.chance_outcomes())
            assert math.isclose(total, 1.0), "chance probabilities add up to 1"
        else:
            assert action in legal
        for each in legal:
            text = state.action_text(each)
            assert state.parse_action(text) == each, f"{text!r} reads back"
            # ``gamehall shot --do`` splits its items at commas not followed by a digit: no
            # action text is split.
            assert split_items(f"hint,move:{text},undo") == ["hint", f"move:{text}", "undo"]
        child = state.apply(action)
        assert state.key() == key_before, "apply leaves the old state unchanged"
        assert list(state.legal_actions()) == legal
        assert child.key() != key_before or child is not state
        assert isinstance(state.key(), Hashable) and hash(state.key()) == hash(key_before)
        assert isinstance(state.observation(max(player, 0)), Hashable)
        assert len(state.returns()) == game.seats
    replayed = game.initial_state(random.Random(seed))
    assert replayed.key() == start.key(), "the same seed gives the same start"
    for state, action in path:
        assert replayed.key() == state.key()
        replayed = replayed.apply(action)
    assert replayed.key() == final.key(), "replaying the record gives the same state"
    assert len(states) == len(path)


@pytest.mark.deep
@pytest.mark.parametrize("seed", FINISH_SEEDS)
@pytest.mark.parametrize("game_id", FINISHED)
def test_conformance_finished_games_have_no_actions(game_id: str, seed: int) -> None:
    """Random actions first, then the hint agent for every seat until the game ends."""
    entry = ENTRIES[game_id]
    game = entry.game(FINISH_OPTIONS.get(entry.id))
    start, path = _playout(game, seed)
    state = path[-1][0].apply(path[-1][1]) if path else start
    agent = entry.make_agent(entry.hint_agent, entry.options.defaults())
    rng = random.Random(seed)
    for _ in range(FINISH_STEPS):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = agent.choose(state, FINISHING, rng, Stop())
        state = state.apply(action)
    assert state.is_terminal(), f"{entry.id}: no end within {FINISH_STEPS} agent actions"
    assert list(state.legal_actions()) == []
    assert state.current_player() == TERMINAL
    scores = state.returns()
    assert len(scores) == game.seats
    if game.returns_sum is not None:
        assert math.isclose(sum(scores), game.returns_sum, abs_tol=1e-9)  # four: 1 - 3 * (1/3)
    assert game.result_text(state)


def test_conformance_the_hint_agent_chooses_a_legal_action(entry: registry.Entry) -> None:
    game = entry.game()
    agent = entry.make_agent(entry.hint_agent, entry.options.defaults())
    start, path = _playout(game, 7)
    probes = [start] + [s for s, _ in path[: min(6, len(path))] if s.current_player() >= 0]
    for state in probes[:3]:
        if state.current_player() < 0:
            continue
        stop = Stop()
        action = agent.choose(state, PROBING, random.Random(0), stop)
        assert action in list(state.legal_actions())


def test_conformance_agents_are_listed_with_a_description(entry: registry.Entry) -> None:
    agents = entry.agents()
    assert entry.hint_agent in agents
    assert all(isinstance(text, str) and text for text in agents.values())
