"""The detective's notebook against the rules themselves: for small decks, every deal is tried
against the events as a player would check them (did every passer lack the cards, did the
refuter hold one, ...), and the notebook's probabilities must equal the share of deals that
pass. Contradictions name their event; ``why`` names a smallest set of deciding events."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from game.logic.clue.agents import ArticleAgent, BluffAgent, GuessingAgent
from game.logic.clue.deck import Category, Deck
from game.logic.clue.deduce import Knowledge
from game.logic.clue.events import Accusation, Suggestion, View
from game.logic.clue.notebook import HAND, EventContradiction, Notebook
from game.logic.clue.rules import ClueRules, ClueState
from game.logic.contract import CHANCE, Limits, Stop, sample_chance

TINY = Deck(
    "tiny",
    "tiny",
    (
        Category("suspect", ("Ash", "Birch", "Cedar")),
        Category("weapon", ("Axe", "Bow", "Club")),
        Category("room", ("Attic", "Barn", "Cellar", "Den")),
    ),
)


def _deals(view: View) -> tuple[tuple[tuple[int, ...], list[frozenset[int]]], ...]:
    """Every (envelope, hands) of the view's deck and hand sizes (whether it gives the viewer
    its hand is for :func:`_agrees` to say)."""
    return _every_deal(view.deck, tuple(view.hand_sizes))


@functools.cache
def _every_deal(
    deck: Deck, sizes: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], list[frozenset[int]]], ...]:
    """Every (envelope, hands) of ``deck`` dealt in hands of ``sizes``: the same for every
    view of a game (7,560 deals of the tiny deck to three seats), so made once, not for each
    of its forty views (most of the file's CPU time)."""
    deals = []
    for envelope in itertools.product(*deck.ranges):
        rest = [c for c in range(deck.n_cards) if c not in envelope]
        deals.extend(_split(rest, list(sizes), envelope))
    return tuple(deals)


def _split(cards: list[int], sizes: list[int], envelope: tuple[int, ...]) -> Iterator[
    tuple[tuple[int, ...], list[frozenset[int]]]
]:  # fmt: skip
    if not sizes:
        if not cards:
            yield envelope, []
        return
    for hand in itertools.combinations(cards, sizes[0]):
        left = [c for c in cards if c not in hand]
        for env, hands in _split(left, sizes[1:], envelope):
            yield env, [frozenset(hand), *hands]


def _agrees(view: View, envelope: tuple[int, ...], hands: list[frozenset[int]]) -> bool:
    """Whether the events could have happened with this deal, checked as the rules say."""
    if view.seat is not None and hands[view.seat] != frozenset(view.hand):
        return False
    for event in view.events:
        if isinstance(event, Accusation):
            if (tuple(event.cards) == envelope) != event.correct:
                return False
            continue
        if any(hands[p] & set(event.cards) for p in event.passed):
            return False
        if event.refuter is not None:
            if not hands[event.refuter] & set(event.cards):
                return False
            if event.shown is not None and event.shown not in hands[event.refuter]:
                return False
    return True


def _oracle(view: View) -> dict[tuple[int, int], Fraction]:
    seats = view.seats
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for envelope, hands in _deals(view):
        if not _agrees(view, envelope, hands):
            continue
        total += 1
        for card in envelope:
            counts[card, seats] = counts.get((card, seats), 0) + 1
        for seat, hand in enumerate(hands):
            for card in hand:
                counts[card, seat] = counts.get((card, seat), 0) + 1
    assert total > 0, "a view from a real game has a deal"
    return {key: Fraction(n, total) for key, n in counts.items()}


def _views(deck: Deck, seats: int, seed: int) -> Iterator[View]:
    """Every seat's view (and the public one) after each event of a seeded game."""
    rng = random.Random(seed)
    agents = [ArticleAgent(), BluffAgent(), GuessingAgent()]
    state = ClueState.start(ClueRules(deck, seats), dealer=seed % seats)
    while state.current_player() == CHANCE:
        state = state.apply(sample_chance(state, rng))
    seen = 0
    while not state.is_terminal():
        if len(state.log) > seen:
            seen = len(state.log)
            for seat in range(seats):
                yield state.observation(seat)
            yield state.observation(-1)
        agent = agents[state.current_player() % 3]
        state = state.apply(agent.choose(state, Limits(time=1), rng, Stop()))


@pytest.mark.parametrize("seed", range(6))
def test_the_notebook_equals_the_share_of_deals_the_events_allow(seed: int) -> None:
    checked = 0
    for view in itertools.islice(_views(TINY, 3, seed), 40):
        book = Notebook.of(view)
        truth = _oracle(view)
        for card in range(TINY.n_cards):
            for holder in range(view.seats + 1):
                expected = truth.get((card, holder), Fraction(0))
                assert book.probability(card, holder) == pytest.approx(float(expected), abs=1e-12)
                assert book.possible(card, holder) == (expected > 0)
                if expected == 1:
                    assert book.holder(card) == holder
        checked += 1
    assert checked > 3


def test_the_public_view_knows_no_hand() -> None:
    view = View(TINY, (2, 3, 2), None, (), ())
    book = Notebook.of(view)
    assert book.probability(0, book.envelope) == pytest.approx(1 / 3)
    assert book.probability(6, 0) == pytest.approx(float(_oracle(view)[6, 0]))


def test_an_event_no_deal_allows_is_refused_by_number_and_nothing_is_lost() -> None:
    hand = (0, 3)  # Ash and Axe
    book = Notebook.of(View(TINY, (2, 3, 2), 0, hand, ()))
    book = book.extended(Suggestion(0, (1, 4, 6), (1,), 2, 4))  # seat 2 showed me the Bow
    before = book.probabilities.copy()
    with pytest.raises(EventContradiction) as caught:
        book.extended(Suggestion(1, (2, 4, 7), (2,), 0, None))  # seat 2 passes on its Bow
    assert caught.value.index == 1 and "event 2" in str(caught.value)
    assert (book.probabilities == before).all() and len(book.view.events) == 1
    with pytest.raises(EventContradiction) as caught:
        Notebook.of(View(TINY, (2, 3, 2), 0, hand, (Suggestion(1, (0, 4, 7), (2, 0)),)))
    assert caught.value.index == 0, "seat 0 cannot pass on the Ash it holds"


def _decides(book: Notebook, origins: set[int], card: int, holder: int) -> bool:
    """Whether the facts of ``origins`` alone decide the cell as the whole notebook does."""
    facts = [f for f, o in zip(book.knowledge.facts, book.origins, strict=True) if o in origins]
    alone = Knowledge(book.knowledge.layout, facts)
    if book.holder(card) == holder:
        return alone.holder(card) == holder
    return not alone.possible(card, holder)


@pytest.mark.parametrize("seed", range(2))
def test_why_names_events_that_decide_a_cell_none_of_them_unneeded(seed: int) -> None:
    views = [v for v in itertools.islice(_views(TINY, 3, seed), 30) if v.seat is not None]
    checked = 0
    for view in views[-4:]:
        book = Notebook.of(view)
        for card in range(TINY.n_cards):
            for holder in range(view.seats + 1):
                reasons = book.why(card, holder)
                if 0 < book.probability(card, holder) < 1:
                    assert reasons == []
                    continue
                assert reasons and _decides(book, set(reasons), card, holder)
                for left_out in reasons:
                    assert not _decides(book, set(reasons) - {left_out}, card, holder)
                checked += 1
    assert checked > 20


def test_why_of_a_card_in_the_hand_is_the_hand() -> None:
    book = Notebook.of(View(TINY, (2, 3, 2), 0, (0, 3), ()))
    assert book.why(0, 0) == [HAND] and book.why(8, 0) == [HAND]
    assert book.why(8, 1) == []


def test_a_right_accusation_places_the_envelope() -> None:
    view = View(TINY, (2, 3, 2), 0, (0, 3), (Accusation(1, (1, 4, 6), True),))
    book = Notebook.of(view)
    assert book.solution() == (1, 4, 6)
