"""Backgammon described as text (``game/logic/rules/games/backgammon.txt``): its move counts
against OpenSpiel's backgammon (``tests/data/backgammon_perft.txt``, made by
``tools/backgammon_reference.py``: a checker move a ply, a throw a ply), and the rules the
counts pass through only now and then: entering from the bar first, a hit sending a checker
to the bar, bearing off with the exact die or a larger one from the farthest point."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame, RulesState
from tests.deep import sized
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data" / "backgammon_perft.txt"
#: The largest count checked: in CI the first depths (a turn of two parts and the throw
#: before it), under the deep checks every count of the file.
CAP = sized(1_500, 10**9)


def _state(text: str) -> RulesState:
    return RulesGame(rulebook("backgammon"), {"position": text}).initial_state(random.Random(0))


def _moves(state: RulesState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


@pytest.mark.deep
@pytest.mark.parametrize(("text", "counts"), perft_cases(DATA))
def test_backgammon_perft_agrees_with_openspiel(text: str, counts: list[int]) -> None:
    check_perft(rulebook("backgammon"), text, counts, CAP)


def test_the_reference_positions_cover_the_rules() -> None:
    texts = [text for text, _ in perft_cases(DATA)]
    assert len(texts) >= 21
    assert any("w1" in t or "b1 " in t for t in texts)  # checkers borne off
    assert any("White 0, Black 0" not in t for t in texts)  # checkers on the bar
    assert any("roll 5-5-5-5" in t or "-6-6-6" in t or "1-1-1-1" in t for t in texts)
    assert any("roll" not in t for t in texts[1:])  # before the throw


def test_the_opening_throw_has_no_double_and_a_double_moves_four_times() -> None:
    state = RulesGame(rulebook("backgammon")).initial_state(random.Random(0))
    throws = [state.action_text(a) for a, _ in state.chance_outcomes()]
    assert len(throws) == 30 and "roll 6-6" not in throws and "roll 6-5" in throws
    six_five = state.apply(state.parse_action("roll 6-5"))
    assert sorted(_moves(six_five)) == sorted(
        ["p8.3-p2", "p13.5-p7", "p24.2-p18", "p8.3-p3", "p13.5-p8.4"]
    )  # the 5 from 24 lands on Black's 19-point, which five Black checkers hold
    run = six_five.apply(six_five.parse_action("p24.2-p18"))  # "24/18 18/13", lovers' leap
    later = run.apply(run.parse_action("p18-p13.6"))
    assert len(later.chance_outcomes()) == 36 and "Black to move" in later.text()
    double = later.apply(later.parse_action("roll 4-4"))
    assert double.text().endswith("roll 4-4-4-4")


def test_a_checker_on_the_bar_enters_first_and_a_blot_hit_goes_to_the_bar() -> None:
    text = (
        "White: Checker p24 p13 p13.2 p8 p6 p6.2 p5 / Black: Checker p1 p23 p21 p21.2"
        " / White to move / in hand: White 1, Black 0 / roll 4-2"
    )
    state = _state(text)
    # no checker moves before the bar's: the 4 would enter on 21, which Black holds; the 2
    # enters on 23, where a single Black checker stands
    assert _moves(state) == ["p23"]
    hit = state.apply(state.parse_action("p23"))
    assert "in hand: White 0, Black 1" in hit.text() and hit.text().endswith("roll 4")
    assert "p23" in hit.text().split("/")[0]
    assert "p23" not in hit.text().split("/")[1]
    assert sorted(_moves(hit)) == ["p13.2-p9", "p23-p19", "p24-p20", "p5xp1", "p6.2-p2", "p8-p4"]


def test_bearing_off_with_the_exact_die_or_a_larger_one_from_the_farthest_point() -> None:
    state = _state("White: Checker p2 p1 / Black: Checker p24 / White to move / roll 6-5")
    # the 2-point is the farthest: either die bears it off, then the other the 1-point's
    assert sorted(_moves(state)) == ["p2-w1 (5)", "p2-w1 (6)"]
    off = state.apply(state.parse_action("p2-w1 (5)"))
    assert _moves(off) == ["p1-w2"] and off.text().endswith("roll 6")
    behind = _state("White: Checker p7 p1 / Black: Checker p24 / White to move / roll 6-1")
    # not every checker is home: the 1-point's checker may not bear off yet
    assert sorted(_moves(behind)) == ["p7-p1.2", "p7-p6"]
