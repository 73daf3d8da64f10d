"""Exact counting (game.logic.clue.deduce) against plain enumeration of every deal, on 1,000
random small states (150 in CI; ``benchmarks/slow_checks.py`` runs the 1,000): totals, every
card-by-holder count, the envelope's joint, weights, certainty, contradictions and sampling."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest

from game.logic.clue.deduce import (
    Contradiction,
    Fact,
    Has,
    Knowledge,
    Lacks,
    Layout,
    NotEnvelope,
    Some,
)
from tests.deep import sized

#: Random states compared with the enumeration.
STATES = sized(150, 1000)

Deal = tuple[int, ...]  # the holder of each card


@functools.cache
def _all_deals(layout: Layout) -> list[Deal]:
    return list(_deals(layout))


def _deals(layout: Layout) -> Iterator[Deal]:
    env = layout.envelope
    for envelope in itertools.product(*layout.categories):
        rest = [c for c in range(layout.n_cards) if c not in envelope]
        for hands in _split(rest, list(layout.hand_sizes)):
            holder = [env] * layout.n_cards
            for p, hand in enumerate(hands):
                for c in hand:
                    holder[c] = p
            yield tuple(holder)


def _split(cards: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    if not sizes:
        yield []
        return
    for hand in itertools.combinations(cards, sizes[0]):
        left = [c for c in cards if c not in hand]
        for rest in _split(left, sizes[1:]):
            yield [hand, *rest]


def _holds(deal: Deal, fact: Fact, env: int) -> bool:
    if isinstance(fact, Has):
        return deal[fact.card] == fact.holder
    if isinstance(fact, Lacks):
        return deal[fact.card] != fact.holder
    if isinstance(fact, Some):
        return any(deal[c] == fact.player for c in fact.cards)
    return not all(deal[c] == env for c in fact.cards)


def _oracle(
    layout: Layout, facts: list[Fact], weights: np.ndarray | None
) -> tuple[float, np.ndarray, dict[tuple[int, ...], float]]:
    counts = np.zeros((layout.n_cards, layout.holders))
    joint: dict[tuple[int, ...], float] = {}
    total = 0.0
    env = layout.envelope
    for deal in _all_deals(layout):
        if not all(_holds(deal, f, env) for f in facts):
            continue
        w = 1.0
        if weights is not None:
            for c, h in enumerate(deal):
                w *= weights[c, h]
        total += w
        for c, h in enumerate(deal):
            counts[c, h] += w
        triple = tuple(c for cards in layout.categories for c in cards if deal[c] == env)
        joint[triple] = joint.get(triple, 0.0) + w
    return total, counts, joint


LAYOUTS = [
    Layout(((0, 1), (2, 3), (4, 5, 6)), (2, 2)),
    Layout(((0, 1, 2), (3, 4), (5, 6, 7)), (2, 2, 1)),
    Layout(((0, 1), (2, 3, 4), (5, 6, 7, 8)), (2, 2, 2)),
    Layout(((0, 1, 2), (3, 4, 5), (6, 7, 8, 9)), (3, 2, 2)),
]


def _random_state(rng: random.Random) -> tuple[Layout, list[Fact], Deal]:
    """A layout, a hidden deal and true facts about it, as a game would give them."""
    layout = rng.choice(LAYOUTS)
    deal = rng.choice(_all_deals(layout))
    env = layout.envelope
    facts: list[Fact] = []
    for _ in range(rng.randint(0, 7)):
        kind = rng.random()
        card = rng.randrange(layout.n_cards)
        if kind < 0.2:
            facts.append(Has(deal[card], card))
        elif kind < 0.45:
            others = [h for h in range(layout.holders) if h != deal[card]]
            facts.append(Lacks(rng.choice(others), card))
        elif kind < 0.85:
            triple = tuple(rng.choice(cards) for cards in layout.categories)
            holders = {deal[c] for c in triple} - {env}
            if holders:
                facts.append(Some(rng.choice(sorted(holders)), triple))
        else:
            triple = tuple(rng.choice(cards) for cards in layout.categories)
            if not all(deal[c] == env for c in triple):
                facts.append(NotEnvelope(triple))
    return layout, facts, deal


@pytest.mark.deep
def test_counts_equal_enumeration_on_random_states() -> None:
    rng = random.Random(11)
    for case in range(STATES):
        layout, facts, deal = _random_state(rng)
        weights = None
        if case % 4 == 3:
            weights = np.array(
                [[rng.choice([0.25, 0.5, 1.0, 2.0]) for _ in range(layout.holders)]
                 for _ in range(layout.n_cards)]
            )  # fmt: skip
        k = Knowledge(layout, facts, weights)
        total, counts, joint = _oracle(layout, facts, weights)
        assert k.total == pytest.approx(total, rel=1e-12), case
        assert np.allclose(k.counts, counts, rtol=1e-12, atol=0), case
        if weights is None:
            assert k.total == total and (k.counts == counts).all(), "exact integers"
            for c in range(layout.n_cards):
                assert k.holder(c) == (deal[c] if counts[c, deal[c]] == total else None)
                assert k.possible(c, deal[c]), "the true holder is never ruled out"
        if case % 5 == 0:
            got = k.envelope_joint()
            assert set(got) == set(joint), case
            for triple, w in joint.items():
                assert got[triple] == pytest.approx(w / total, rel=1e-12)


def test_adding_facts_one_by_one_gives_the_same_counts_as_all_at_once() -> None:
    rng = random.Random(5)
    for _ in range(100):
        layout, facts, _ = _random_state(rng)
        step = Knowledge(layout)
        for fact in facts:
            step = step.add(fact)
        whole = Knowledge(layout, facts)
        assert (step.counts == whole.counts).all()


def test_a_contradiction_names_its_fact_and_changes_nothing() -> None:
    layout = LAYOUTS[0]  # two players with 2 cards each
    k = Knowledge(layout, [Has(0, 0), Has(0, 2)])
    with pytest.raises(Contradiction) as caught:
        k.add(Lacks(1, 5), Has(0, 4))  # a third card for a full hand
    assert caught.value.fact == Has(0, 4)
    assert k.facts == (Has(0, 0), Has(0, 2))
    # Only counting sees this one: player 1 (2 cards) must hold one of {1, 3} and one of
    # {1, 3} ... and neither 4, 5, 6: so both of 1 and 3, but then no suspect is left for
    # the envelope besides 0, which player 0 holds.
    with pytest.raises(Contradiction) as caught:
        Knowledge(layout, [Has(0, 0), Some(1, (1, 3, 4)), Lacks(1, 4), Lacks(1, 5),
                           Lacks(1, 6), Lacks(1, 3)])  # fmt: skip
    assert caught.value.fact is not None


def test_the_cards_a_two_card_hand_must_hold() -> None:
    """A player with 2 cards who showed one of {P,K,H}, {P,K,C}, {P,K,D} holds P or K."""
    layout = Layout(((0, 1, 2), (3, 4, 5), (6, 7, 8, 9)), (3, 2, 2))
    p, k_, h, c, d = 0, 3, 6, 7, 8
    facts: list[Fact] = [Some(1, (p, k_, h)), Some(1, (p, k_, c)), Some(1, (p, k_, d))]
    know = Knowledge(layout, facts)
    assert know.entails(Some(1, (p, k_)))
    _, counts, _ = _oracle(layout, facts, None)
    assert (know.counts == counts).all()


def test_a_wrong_accusation_with_a_known_pair_rules_out_the_third_card() -> None:
    layout = LAYOUTS[1]
    env = layout.envelope
    know = Knowledge(layout, [Has(env, 0), Has(env, 3), NotEnvelope((0, 3, 5))])
    assert not know.possible(5, env)
    assert know.entails(NotEnvelope((0, 3, 5)))


def test_samples_are_agreeing_deals_drawn_with_their_chance() -> None:
    layout = LAYOUTS[3]
    facts: list[Fact] = [Some(0, (0, 3, 6)), Lacks(1, 1), NotEnvelope((2, 5, 9))]
    weights = np.ones((layout.n_cards, layout.holders))
    weights[0, 0] = 3.0
    for w in (None, weights):
        know = Knowledge(layout, facts, w)
        deals = know.sample(4000, random.Random(3))
        env = layout.envelope
        for deal in deals[:200]:
            assert all(_holds(tuple(int(x) for x in deal), f, env) for f in facts)
            assert [int((deal == p).sum()) for p in range(layout.players)] == [3, 2, 2]
        freq = np.zeros((layout.n_cards, layout.holders))
        for h in range(layout.holders):
            freq[:, h] = (deals == h).mean(axis=0)
        assert np.abs(freq - know.probabilities).max() < 0.04
