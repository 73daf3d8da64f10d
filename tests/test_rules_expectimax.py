"""One expectimax for both kinds of chance (rules/expectimax.py): the levels of a game of dice
(Ur) and of a game of face-down pieces (Banqi) search through the chance nodes alike, say
why in the same words and fill the F3 overlay's figures; the dice's entry point for a game's
own levels (rules/throws.py) gives the same choice."""

from __future__ import annotations

import random
import re

import pytest

from game.logic.contract import CHANCE, Limits, Stop, sample_chance
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.expectimax import chance_over, level_plies
from game.logic.rules.state import RulesGame, RulesState
from game.logic.rules.throws import choose_by_expectation

SAID = re.compile(
    r"expects the most over (the throws to come|the pieces still face down): best of a "
    r"(\d+)-ply search of ([\d,]+) positions: [+-]\d+\.\d\d \w+ for \w+"
)


def _middle(game_id: str, seed: int) -> RulesState:
    """A position a few random moves in, a player to move (the dice thrown)."""
    state = RulesGame(rulebook(game_id)).initial_state(random.Random(seed))
    rng = random.Random(seed)
    for _ in range(12):
        chance = state.current_player() == CHANCE
        state = state.apply(
            sample_chance(state, rng) if chance else rng.choice(list(state.legal_actions()))
        )
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    return state


@pytest.mark.parametrize(("game_id", "over"), [("ur", "throws"), ("banqi", "face down")])
def test_both_kinds_of_chance_are_searched_and_explained_alike(game_id: str, over: str) -> None:
    state = _middle(game_id, 3)
    assert over in (chance_over(state.rulebook) or "")
    agent = make_agent("advanced")
    limits = Limits(nodes=300)
    move = agent.choose(state, limits, random.Random(0), Stop())
    said = agent.explain()
    found = SAID.fullmatch(said)
    assert found and over in found[1], said
    details = agent.details()
    assert details["nodes"] == int(found[3].replace(",", "")) > 0
    assert details["depth"] == int(found[2]) >= 1
    # Nothing drawn from the caller's generator: the same move and words again.
    again = make_agent("advanced")
    assert again.choose(state, limits, random.Random(99), Stop()) == move
    assert again.explain() == said


def test_a_level_counts_a_throw_before_each_move_as_a_ply() -> None:
    assert level_plies(rulebook("ur"), 2) == 4
    assert level_plies(rulebook("banqi"), 2) == 2
    assert level_plies(rulebook("ur"), None) is None
    assert chance_over(rulebook("chess")) is None


def test_the_dice_entry_point_chooses_as_the_level_does() -> None:
    state = _middle("ur", 5)
    agent = make_agent("intermediate")  # two moves: four plies with the throws
    move = agent.choose(state, Limits(depth=2), random.Random(0), Stop())
    assert choose_by_expectation(state, 4, None, None, Stop()) == (move, agent.explain())
    assert agent.details()["depth"] == 4
