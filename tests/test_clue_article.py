"""The article agent, pinned on hand-made situations: the classic notebook's rules, the
most-negatives suggestion, the most-shown response and the certainty-only accusation."""

from __future__ import annotations

import random

from game.logic.clue.agents import ArticleAgent, BluffAgent, GuessingAgent
from game.logic.clue.article import ArticleNotes
from game.logic.clue.deck import hand_sizes, load_deck
from game.logic.clue.events import Accusation, Event, Suggestion, View
from game.logic.clue.rules import END, Action, ActionKind, ClueRules, ClueState, Phase
from game.logic.contract import Limits, Stop

DECK = load_deck("classic")
SIZES = hand_sizes(4, 18, dealer=3)  # 5, 5, 4, 4
HAND = ("Scarlett", "Mustard", "Candlestick", "Kitchen", "Ballroom")


def c(name: str) -> int:
    return DECK.card(name)


def t(text: str) -> tuple[int, ...]:
    return DECK.triple(text)


def view(*events: Event, hand: tuple[str, ...] = HAND, seat: int = 0) -> View:
    return View(DECK, SIZES, seat, tuple(sorted(c(n) for n in hand)), events)


def test_own_cards_are_positives_and_passes_are_negatives() -> None:
    notes = ArticleNotes.of(view(Suggestion(2, t("Plum, Rope, Study"), (3, 0, 1))))
    assert notes.positives[c("Scarlett")] == 0
    assert notes.negatives[c("Plum")] == {0, 1, 3}, "the suggester's own hand is not known"
    assert notes.negatives_of(c("Green")) == 1  # only the viewer lacks it


def test_a_possibility_shrunk_to_one_card_is_a_positive() -> None:
    notes = ArticleNotes.of(
        view(
            Suggestion(0, t("Plum, Dagger, Hall"), (), 1, c("Dagger")),  # shown to me
            Suggestion(3, t("Green, Rope, Study"), (), 0 + 1, None),  # seat 1 showed someone
            Suggestion(2, t("Green, Spanner, Study"), (3, 0, 1)),  # seat 1 lacks Green, Study
        )
    )
    assert notes.positives[c("Dagger")] == 1
    assert notes.positives[c("Rope")] == 1, "of Green, Rope, Study only Rope is left"
    assert notes.possibilities == []


def test_a_fully_known_hand_holds_nothing_else() -> None:
    # Seat 3 holds 4 cards, all shown to me: it lacks every other card.
    shown = ["Peacock", "Revolver", "Hall", "Study"]
    events = [Suggestion(0, t(f"White, Rope, {room}"), (1, 2), 3, c(name)) for name, room in
              zip(shown, ["Lounge", "Library", "Lounge", "Library"], strict=True)]  # fmt: skip
    notes = ArticleNotes.of(view(*events))
    assert [notes.positives[c(n)] for n in shown] == [3] * 4
    assert 3 in notes.negatives[c("Plum")] and 3 in notes.negatives[c("Rope")]


def test_the_suggestion_names_the_unplaced_card_with_most_negatives() -> None:
    seen = view(Suggestion(2, t("Plum, Rope, Study"), (3, 0, 1)))
    for seed in range(20):
        pick = ArticleAgent().suggest(seen, random.Random(seed), Stop())
        assert pick == t("Plum, Rope, Study"), seed


def test_ties_are_broken_at_random_among_the_unplaced_cards() -> None:
    picks = {ArticleAgent().suggest(view(), random.Random(s), Stop())[0] for s in range(200)}
    assert picks == {c(n) for n in ("White", "Green", "Peacock", "Plum")}, "never its own"


def test_a_category_with_every_card_placed_names_its_first_card() -> None:
    # Seat 0 holds all the weapons but one, and that one was shown to it.
    hand = ("Candlestick", "Dagger", "Lead Pipe", "Revolver", "Rope")
    seen = view(Suggestion(0, t("Plum, Spanner, Hall"), (), 1, c("Spanner")), hand=hand)
    # (Impossible in a real game, where the envelope holds a weapon; the rule still answers.)
    pick = ArticleAgent().suggest(seen, random.Random(0), Stop())
    assert pick[1] == c("Candlestick")


def test_the_card_shown_is_the_one_shown_most_before_and_the_first_named_on_a_tie() -> None:
    me = view(
        Suggestion(1, t("Scarlett, Revolver, Lounge"), (2, 3), 0, c("Scarlett")),
        Suggestion(2, t("Mustard, Rope, Kitchen"), (3,), 0, c("Kitchen")),
        Suggestion(3, t("Scarlett, Rope, Kitchen"), (), 0, c("Kitchen")),
    )  # fmt: skip
    agent = ArticleAgent()
    rng = random.Random(0)
    options = [c("Scarlett"), c("Candlestick"), c("Kitchen")]
    assert agent.show(me, options, 1, rng) == c("Kitchen")  # shown twice
    assert agent.show(me, [c("Candlestick"), c("Scarlett")], 1, rng) == c("Scarlett")
    assert agent.show(view(), [c("Mustard"), c("Ballroom")], 1, rng) == c("Mustard")


def _solved_but_rooms() -> list[Event]:
    """Suspects forced by placing all but Plum; weapons forced by everyone lacking Rope."""
    return [
        Suggestion(0, t("White, Rope, Hall"), (), 1, c("White")),
        Suggestion(0, t("Green, Rope, Hall"), (1,), 2, c("Green")),
        Suggestion(0, t("Peacock, Rope, Kitchen"), (1, 2), 3, c("Peacock")),
        Suggestion(2, t("Scarlett, Rope, Conservatory"), (3,), 0, c("Scarlett")),
    ]


def test_the_rules_force_a_category_two_ways() -> None:
    notes = ArticleNotes.of(view(*_solved_but_rooms()))
    forced = notes.forced()
    assert forced[0] == c("Plum"), "every other suspect has a known holder"
    assert forced[1] == c("Rope"), "every player lacks the Rope"
    assert 2 not in forced and notes.solution() is None


def _table() -> ClueState:
    hands = [
        list(HAND),
        ["White", "Dagger", "Conservatory", "Dining", "Billiard"],
        ["Green", "Lead Pipe", "Library", "Lounge"],
        ["Peacock", "Revolver", "Spanner", "Hall"],
    ]
    return ClueState.dealt(
        ClueRules(DECK, 4), t("Plum, Rope, Study"), [[c(n) for n in h] for h in hands], dealer=3
    )


def test_the_article_agent_accuses_only_when_every_category_is_forced() -> None:
    agent = ArticleAgent()
    state = _table()
    assert agent.choose(state, Limits(time=1), random.Random(0), Stop()).kind is ActionKind.SUGGEST
    refuted = state.apply(Action(ActionKind.SUGGEST, t("Plum, Rope, Hall")))
    refuted = refuted.apply(refuted.legal_actions()[0])  # seat 3 shows the Hall
    assert agent.choose(refuted, Limits(time=1), random.Random(0), Stop()) == END
    # Nobody holds any of the envelope's cards: after everyone passes, all three are forced.
    unrefuted = state.apply(Action(ActionKind.SUGGEST, t("Plum, Rope, Study")))
    assert unrefuted.phase is Phase.AFTER
    accusation = agent.choose(unrefuted, Limits(time=1), random.Random(0), Stop())
    assert accusation == Action(ActionKind.ACCUSE, t("Plum, Rope, Study"))
    assert "forced" in agent.explain()


def test_wrong_accusations_are_public_but_the_article_notebook_ignores_them() -> None:
    notes = ArticleNotes.of(view(Accusation(1, t("Plum, Rope, Study"), False)))
    assert notes.solution() is None and notes.possibilities == []


def test_the_bluffer_names_its_own_cards_about_a_quarter_of_the_time() -> None:
    own = {c(n) for n in HAND}
    picks = [BluffAgent().suggest(view(), random.Random(s), Stop()) for s in range(400)]
    bluffs = sum(any(card in own for card in p) for p in picks)
    assert 60 <= bluffs <= 140
    assert all(sum(card in own for card in p) <= 1 for p in picks)


def test_the_random_detective_names_cards_it_has_not_seen() -> None:
    own = {c(n) for n in HAND}
    for seed in range(50):
        pick = GuessingAgent().suggest(view(), random.Random(seed), Stop())
        assert not own & set(pick)
