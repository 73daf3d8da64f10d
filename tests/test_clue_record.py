"""The case file: every view of real games reads back equal, and a mistake names its line."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from game.logic.clue.deck import load_deck
from game.logic.clue.record import EXAMPLE, RecordError, dumps, loads
from game.logic.clue.roster import make_agent
from game.logic.clue.rules import ClueRules, ClueState
from game.logic.contract import CHANCE, Limits, Stop, sample_chance


@pytest.mark.parametrize("seed", range(8))
def test_every_views_case_file_reads_back_equal(seed: int) -> None:
    rng = random.Random(seed)
    seats = 3 + seed % 4
    names = ["article", "article-bluff", "random", "full"]
    agents = [make_agent(names[s % 4]) for s in range(seats)]
    state = ClueState.start(
        ClueRules(load_deck("classic" if seed % 2 else "quick"), seats), seed % seats
    )
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            seat = state.current_player()
            state = state.apply(agents[seat].choose(state, Limits(time=1), rng, Stop()))
    for seat in [*range(seats), -1]:
        view = state.observation(seat)
        assert loads(dumps(view)) == replace(view, course=None)  # a case file: events only


S1 = "suggest 1: Plum, Rope, Hall; passed 2; showed 3"
S0 = "suggest 0: Plum, Rope, Study; passed 1, 2; showed 3: Rope"
A2 = "accuse 2: Plum, Dagger, Study; wrong"


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (S1, "suggest 1: Plum, Ropx, Hall; passed 2; showed 3", "Ropx"),
        (S1, "suggest 7: Plum, Rope, Hall; showed 2", "0..3"),
        (S1, "suggest 1: Plum, Rope, Hall; passed 3; showed 2", "in turn"),
        (S0, "suggest 0: Plum, Rope, Study; passed 1, 2; showed 3: Dagger", "not one of"),
        (A2, "accuse 2: Plum, Dagger, Study", "right"),
        (A2, "guess 2: Plum", "not a case file word"),
        (S1, "suggest 1: Plum, Green, Hall; passed 2; showed 3", "name one of each"),
        (S1, "suggest 1: Plum, Rope, Hall; passed 2, 3", "every other seat"),
    ],
)
def test_a_mistake_names_its_line(change: str, line: str, words: str) -> None:
    text = EXAMPLE.replace(change, line)
    number = text.splitlines().index(line) + 1
    with pytest.raises(RecordError) as caught:
        loads(text)
    assert caught.value.line == number and f"line {number}" in str(caught.value)
    assert words in str(caught.value)


def test_a_header_out_of_order_or_a_wrong_hand_is_refused() -> None:
    with pytest.raises(RecordError, match="come first"):
        loads("deck classic\nhand Plum\n")
    with pytest.raises(RecordError, match="holds 5 cards"):
        loads(EXAMPLE.replace("Kitchen, Ballroom", "Kitchen"))
    with pytest.raises(RecordError, match="needs deck"):
        loads("# nothing\n")
    assert loads(EXAMPLE.replace("dealer 3", "hands 5 5 4 4")) == loads(EXAMPLE)
