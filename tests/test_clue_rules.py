"""Cluedo's rules: the deal, the answer round, accusations, the round cap, what each seat sees,
and the notation."""

from __future__ import annotations

import random

import pytest

from game.logic.clue.deck import DeckError, hand_sizes, load_deck
from game.logic.clue.events import Accusation, Suggestion
from game.logic.clue.game import ClueGame
from game.logic.clue.rules import END, Action, ActionKind, ClueRules, ClueState, Phase
from game.logic.contract import CHANCE, TERMINAL, IllegalActionError, NotationError, sample_chance

CLASSIC = load_deck("classic")


def _dealt(seats: int = 4, dealer: int = 0, seed: int = 1) -> ClueState:
    state = ClueState.start(ClueRules(CLASSIC, seats), dealer)
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    return state


def _card(name: str) -> int:
    return CLASSIC.card(name)


def _triple(text: str) -> tuple[int, ...]:
    return CLASSIC.triple(text)


@pytest.mark.parametrize(
    ("seats", "sizes"),
    [(3, [6, 6, 6]), (4, [5, 5, 4, 4]), (5, [4, 4, 4, 3, 3]), (6, [3] * 6)],
)
def test_hand_sizes_follow_the_rule_sheet(seats: int, sizes: list[int]) -> None:
    assert sorted(hand_sizes(seats, 18, dealer=0), reverse=True) == sizes
    # The seats right after the dealer get the extra cards.
    assert hand_sizes(4, 18, dealer=3)[:2] == (5, 5)
    assert hand_sizes(4, 18, dealer=1) == (4, 4, 5, 5)


def test_the_deal_fills_the_envelope_then_deals_clockwise_from_the_dealers_left() -> None:
    state = ClueState.start(ClueRules(CLASSIC, 4), dealer=2)
    assert state.current_player() == CHANCE and state.phase is Phase.ENVELOPE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 and sum(p for _, p in outcomes) == pytest.approx(1)
    rng = random.Random(3)
    for _ in range(3):
        state = state.apply(sample_chance(state, rng))
    assert [CLASSIC.category_of(c) for c in state.envelope] == [0, 1, 2]
    assert state.phase is Phase.DEAL and state.next_recipient() == 3
    state = state.apply(sample_chance(state, rng))
    assert len(state.hands[3]) == 1 and state.next_recipient() == 0
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    assert [len(h) for h in state.hands] == list(state.hand_sizes) == [5, 4, 4, 5]
    everything = sorted(state.envelope + sum(state.hands, ()))
    assert everything == list(range(21)), "every card once"
    assert state.phase is Phase.TURN and state.current_player() == 0


def test_a_dealt_card_cannot_be_dealt_again() -> None:
    state = ClueState.start(ClueRules(CLASSIC, 3))
    state = state.apply(Action(ActionKind.ENVELOPE, (0,)))
    with pytest.raises(IllegalActionError):
        state.apply(Action(ActionKind.ENVELOPE, (0,)))  # the second card must be a weapon


def _table() -> ClueState:
    """Four seats with known hands; the envelope is Plum, Rope, Study."""
    hands = [
        ["Scarlett", "Mustard", "Candlestick", "Kitchen", "Ballroom"],
        ["White", "Dagger", "Conservatory", "Dining", "Billiard"],
        ["Green", "Lead Pipe", "Library", "Lounge"],
        ["Peacock", "Revolver", "Spanner", "Hall"],
    ]
    return ClueState.dealt(
        ClueRules(CLASSIC, 4),
        _triple("Plum, Rope, Study"),
        [[_card(n) for n in hand] for hand in hands],
        dealer=3,
    )


def test_answers_go_clockwise_from_the_suggesters_left_and_non_holders_pass() -> None:
    state = _table()
    # Seat 0 names cards only seat 3 holds: seats 1 and 2 pass by themselves.
    state = state.apply(state.parse_action("suggest Peacock, Rope, Study"))
    assert state.phase is Phase.REFUTE and state.current_player() == 3
    # Seat 3 holds only Peacock of the three: the match shows it by itself.
    forced = ClueGame({"seats": 4}).forced_action(state)
    assert forced == Action(ActionKind.SHOW, (_card("Peacock"),)) and state.legal_actions() == [
        forced
    ]
    state = state.apply(forced)
    assert state.phase is Phase.AFTER
    (event,) = state.log
    assert isinstance(event, Suggestion)
    assert event.passed == (1, 2) and event.refuter == 3 and event.shown == _card("Peacock")


def _quiet_turn(state: ClueState) -> ClueState:
    """The seat to play names the envelope (everyone passes) and ends its turn."""
    return state.apply(state.parse_action("suggest Plum, Rope, Study")).apply(END)


def test_a_refuter_with_several_cards_chooses() -> None:
    state = _quiet_turn(_table())
    assert state.phase is Phase.TURN and state.current_player() == 1
    state = state.apply(state.parse_action("suggest Peacock, Revolver, Hall"))
    assert state.phase is Phase.REFUTE and state.current_player() == 3
    assert state.matching(3) == [_card("Peacock"), _card("Revolver"), _card("Hall")]
    assert ClueGame({"seats": 4}).forced_action(state) is None
    state = state.apply(state.parse_action("show revolver"))
    event = state.log[-1]
    assert event == Suggestion(1, _triple("Peacock, Revolver, Hall"), (2,), 3, _card("Revolver"))
    assert state.phase is Phase.AFTER and state.current_player() == 1


def test_an_unrefuted_suggestion_is_passed_by_everyone() -> None:
    state = _table().apply(_table().parse_action("suggest Plum, Rope, Study"))
    (event,) = state.log
    assert isinstance(event, Suggestion)
    assert event.passed == (1, 2, 3) and event.refuter is None and event.shown is None


def test_each_seat_sees_only_its_hand_and_the_cards_shown_to_it() -> None:
    state = _quiet_turn(_table())
    state = state.apply(state.parse_action("suggest Peacock, Revolver, Hall"))
    state = state.apply(state.parse_action("show hall"))
    for seat in range(4):
        view = state.observation(seat)
        assert view.hand == state.hands[seat]
        event = view.events[-1]
        assert isinstance(event, Suggestion)
        assert event.refuter == 3
        assert event.shown == (_card("Hall") if seat in (1, 3) else None)
    assert state.observation(0) != state.observation(1)


def test_a_wrong_accuser_is_out_but_still_refutes_and_a_right_one_wins() -> None:
    state = _table()
    state = state.apply(state.parse_action("accuse Plum, Rope, Hall"))
    assert state.log[-1] == Accusation(0, _triple("Plum, Rope, Hall"), False)
    assert state.out() == {0} and state.current_player() == 1 and state.round == 1
    state = state.apply(state.parse_action("suggest Scarlett, Rope, Study"))
    assert state.phase is Phase.REFUTE and state.current_player() == 0, "out, but refutes"
    state = state.apply(state.legal_actions()[0])
    event = state.log[-1]
    assert isinstance(event, Suggestion) and event.passed == (2, 3) and event.refuter == 0
    state = state.apply(END)
    assert state.current_player() == 2
    state = _quiet_turn(_quiet_turn(state))
    assert state.current_player() == 1 and state.round == 2, "seat 0 is skipped"
    state = state.apply(state.parse_action("accuse Plum, Rope, Study"))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == (0.0, 1.0, 0.0, 0.0) and state.legal_actions() == []
    assert ClueGame({"seats": 4}).result_text(state).startswith("Boris solved it")


def test_the_game_ends_with_no_winner_when_everyone_is_out() -> None:
    state = _table()
    for _ in range(4):
        state = state.apply(state.parse_action("accuse Scarlett, Rope, Study"))
    assert state.is_terminal() and state.winner is None and state.returns() == (0.0,) * 4


def test_the_round_cap_ends_the_game() -> None:
    state = ClueState.dealt(ClueRules(CLASSIC, 3, round_cap=2), *_three_hands(), dealer=0)
    turns = 0
    while not state.is_terminal():
        state = state.apply(END if state.phase is Phase.AFTER else _first_suggestion(state))
        turns += 1
    assert state.winner is None and turns == 2 * 3 * 2  # 2 rounds of 3 turns, 2 actions each


def _three_hands() -> tuple[tuple[int, ...], list[list[int]]]:
    envelope = (0, 6, 12)
    rest = [c for c in range(21) if c not in envelope]
    return envelope, [rest[0:6], rest[6:12], rest[12:18]]


def _first_suggestion(state: ClueState) -> Action:
    if state.phase is Phase.REFUTE:
        return state.legal_actions()[0]
    return state.legal_actions()[0]


def test_turn_actions_and_after_actions() -> None:
    state = _table()
    actions = state.legal_actions()
    assert len(actions) == 2 * 6 * 6 * 9
    assert actions[0] == Action(ActionKind.SUGGEST, (0, 6, 12))
    assert sum(a.kind is ActionKind.ACCUSE for a in actions) == 324
    state = state.apply(actions[0])
    assert state.legal_actions()[0] == END and len(state.legal_actions()) == 325
    with pytest.raises(IllegalActionError):
        state.apply(actions[0])  # no second suggestion in a turn


@pytest.mark.parametrize(
    "text",
    ["", "jump", "suggest Plum, Knife", "suggest Plum, Green, Hall", "show Knifee", "end now",
     "suggest Plum, Dagger, Nowhere"],
)  # fmt: skip
def test_text_that_names_no_action_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        _table().parse_action(text)
    assert str(caught.value)


def test_card_names_may_be_abbreviated_when_unambiguous() -> None:
    assert CLASSIC.card("scar") == CLASSIC.card("Miss Scarlett")
    assert CLASSIC.card("pipe") == CLASSIC.card("Lead Pipe")
    with pytest.raises(DeckError, match="could be any of"):
        CLASSIC.card("mrs")
    state = _table()
    action = state.parse_action("  SUGGEST  study, plum,rope ")
    assert action == Action(ActionKind.SUGGEST, _triple("Plum, Rope, Study"))
    assert state.action_text(action) == "suggest Professor Plum / Rope / Study"


def test_every_deck_and_seat_count_deals() -> None:
    for deck in ("classic", "quick", "master"):
        for seats in range(3, 7):
            game = ClueGame({"deck": deck, "seats": seats})
            state = game.initial_state(random.Random(seats))
            rng = random.Random(0)
            while state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
            assert isinstance(state, ClueState)
            assert sum(map(len, state.hands)) + len(state.envelope) == state.rules.deck.n_cards
