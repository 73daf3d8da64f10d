"""Exact counting over every Cluedo deal that agrees with a set of facts.

A deal puts one card of every category in the envelope and ``hand_sizes[p]`` cards in each
player's hand. Holders are the players ``0..N-1`` and the envelope, holder ``N``. A fact is
about one holder: :class:`Has`, :class:`Lacks`, :class:`Some` (the player holds at least one
of these cards) and :class:`NotEnvelope` (the envelope is not exactly these cards).

:class:`Knowledge` counts the deals that satisfy its facts with one forward and one backward
sweep over the cards whose holder is open. The sweep's state is a dense numpy array indexed by
each player's remaining hand space, each category's "envelope still empty" flag and one bit
per open clause (a :class:`Some` not yet satisfied, a :class:`NotEnvelope` whose cards all
went to the envelope so far). From the two sweeps come the number of deals with each card at
each holder, so every probability comes at once, and a fact is certain exactly when its count
is zero or the total. Counts are float64: the largest (about 4.5e13 deals for six players) is
an exact integer in float64. Weights per (card, holder) make a weighted count, for evidence
that is likely but not certain; certainty is only ever read from unweighted knowledge.

>>> layout = Layout(((0, 1), (2, 3)), (1, 1))
>>> k = Knowledge(layout, [Has(0, 0)])
>>> k.total, k.holder(0), k.holder(1)
(2.0, 0, 2)
>>> k = k.add(Some(1, (2, 3)))
>>> k.total, float(k.probabilities[2, 2])
(2.0, 0.5)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from game.logic import pacing
from game.logic.clue.sweep import FreeCard, Plan

__all__ = [
    "Contradiction",
    "Fact",
    "Has",
    "Knowledge",
    "Lacks",
    "Layout",
    "LayoutError",
    "NotEnvelope",
    "Some",
]

Array: TypeAlias = npt.NDArray[np.float64]


class LayoutError(ValueError):
    """Categories and hand sizes that do not make a deal."""


class Contradiction(ValueError):
    """Facts that no deal satisfies; ``fact`` is the first one after which none does."""

    def __init__(self, message: str, fact: Fact | None = None) -> None:
        super().__init__(message)
        self.fact = fact


@dataclass(frozen=True, slots=True)
class Layout:
    """The categories (card ids, numbered from 0 category by category) and the hand sizes."""

    categories: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]

    def __post_init__(self) -> None:
        cards = [c for cat in self.categories for c in cat]
        if not self.categories or any(not cat for cat in self.categories):
            raise LayoutError("every category needs a card")
        if cards != list(range(len(cards))):
            raise LayoutError("cards must be numbered 0..n-1, category by category")
        if not self.hand_sizes or any(s < 0 for s in self.hand_sizes):
            raise LayoutError(f"bad hand sizes {self.hand_sizes}")
        if sum(self.hand_sizes) + len(self.categories) != len(cards):
            raise LayoutError(
                f"{len(cards)} cards do not make hands of {self.hand_sizes} and an envelope"
            )

    @property
    def n_cards(self) -> int:
        return sum(len(c) for c in self.categories)

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def envelope(self) -> int:
        return len(self.hand_sizes)

    @property
    def holders(self) -> int:
        return len(self.hand_sizes) + 1

    def category_of(self, card: int) -> int:
        for index, cards in enumerate(self.categories):
            if card in cards:
                return index
        raise LayoutError(f"no card {card}")


@dataclass(frozen=True, slots=True)
class Has:
    holder: int
    card: int


@dataclass(frozen=True, slots=True)
class Lacks:
    holder: int
    card: int


@dataclass(frozen=True, slots=True)
class Some:
    """The player holds at least one of ``cards``."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NotEnvelope:
    """The envelope is not exactly ``cards`` (one per category)."""

    cards: tuple[int, ...]


Fact: TypeAlias = Has | Lacks | Some | NotEnvelope


class Knowledge:
    """Facts about one deal and the counts of the deals that agree with them.

    Raises :class:`Contradiction` when no deal agrees; ``add`` returns a new object and
    leaves this one as it was.
    """

    def __init__(
        self,
        layout: Layout,
        facts: Iterable[Fact] = (),
        weights: Array | None = None,
        _masks: list[int] | None = None,
        _checked: int = 0,
    ) -> None:
        self.layout = layout
        self.facts: tuple[Fact, ...] = tuple(facts)
        self.weights = weights
        for fact in self.facts[_checked:]:  # the first _checked: checked by the one added to
            _check_fact(layout, fact)
        solved = _solve(layout, self.facts, weights, _masks)
        if solved is None:
            raise Contradiction(*_first_failure(layout, self.facts, weights))
        self.total, self.counts, self._masks, self._plan = solved
        self._joint: dict[tuple[int, ...], float] | None = None

    def add(self, *facts: Fact) -> Knowledge:
        """These facts too; raises :class:`Contradiction` (this object unchanged)."""
        if not facts:
            return self
        try:
            return Knowledge(
                self.layout, self.facts + facts, self.weights, list(self._masks), len(self.facts)
            )
        except Contradiction as exc:
            if exc.fact is None or exc.fact not in facts:
                # The tightened masks hide which new fact broke it: name it from scratch.
                for i in range(1, len(facts) + 1):
                    if _solve(self.layout, self.facts + facts[:i], self.weights, None) is None:
                        raise Contradiction(_describe(facts[i - 1]), facts[i - 1]) from None
            raise

    def with_weights(self, weights: Array | None) -> Knowledge:
        """The same facts with soft evidence: each deal counts the product of
        ``weights[card, holder]`` over its cards."""
        return Knowledge(self.layout, self.facts, weights, list(self._masks), len(self.facts))

    @property
    def probabilities(self) -> Array:
        return self.counts / self.total

    def holder(self, card: int) -> int | None:
        """The holder of ``card`` in every agreeing deal, or None."""
        row = self.counts[card]
        holders = np.flatnonzero(row)
        return int(holders[0]) if len(holders) == 1 else None

    def possible(self, card: int, holder: int) -> bool:
        return bool(self.counts[card, holder] > 0)

    def certain_envelope(self) -> tuple[int, ...] | None:
        env = self.layout.envelope
        out = []
        for cards in self.layout.categories:
            known = [c for c in cards if self.holder(c) == env]
            if not known:
                return None
            out.append(known[0])
        return tuple(out)

    def envelope_joint(self) -> dict[tuple[int, ...], float]:
        """P(envelope == T) for every T with a chance above 0, cards in category order.

        One sweep per choice of envelope cards in every category but the largest: that
        sweep's envelope counts give the largest category's card."""
        if self._joint is None:
            env = self.layout.envelope
            categories = self.layout.categories
            options = [[c for c in cards if self.counts[c, env] > 0] for cards in categories]
            last = max(range(len(categories)), key=lambda k: len(options[k]))
            others = [k for k in range(len(categories)) if k != last]
            joint: dict[tuple[int, ...], float] = {}
            for chosen in itertools.product(*(options[k] for k in others)):
                pacing.pause()  # a sweep at a time (see game.logic.pacing)
                facts = self.facts + tuple(Has(env, c) for c in chosen)
                solved = _solve(self.layout, facts, self.weights, list(self._masks))
                if solved is None:
                    continue
                counts = solved[1]
                for card in options[last]:
                    if counts[card, env] > 0:
                        triple = [0] * len(categories)
                        for k, c in zip(others, chosen, strict=True):
                            triple[k] = c
                        triple[last] = card
                        joint[tuple(triple)] = float(counts[card, env]) / self.total
            self._joint = joint
        return dict(self._joint)

    def weighed(self) -> bool:
        """Whether :meth:`envelope_joint` (and so :meth:`best_accusation`) is worked out
        already: one sweep per choice of envelope, tens of milliseconds to a second."""
        return self._joint is not None

    def best_accusation(self) -> tuple[tuple[int, ...], float]:
        """The likeliest envelope and its chance."""
        joint = self.envelope_joint()
        best = max(joint, key=lambda t: (joint[t], tuple(-c for c in t)))
        return best, joint[best]

    def entails(self, fact: Fact) -> bool:
        """Whether ``fact`` holds in every agreeing deal."""
        if isinstance(fact, Has):
            return self.holder(fact.card) == fact.holder
        if isinstance(fact, Lacks):
            return not self.possible(fact.card, fact.holder)
        if isinstance(fact, Some):
            opposite: tuple[Fact, ...] = tuple(Lacks(fact.player, c) for c in fact.cards)
        else:
            opposite = tuple(Has(self.layout.envelope, c) for c in fact.cards)
        return _solve(self.layout, self.facts + opposite, None, list(self._masks)) is None

    def sample(self, k: int, rng: np.random.Generator | random.Random) -> npt.NDArray[np.int64]:
        """``k`` deals drawn with their (weighted) chance: (k, cards), the holder of each."""
        gen = (
            rng
            if isinstance(rng, np.random.Generator)
            else np.random.default_rng(rng.getrandbits(63))
        )
        return self._plan.sample(k, gen)


def _solve(
    layout: Layout, facts: Sequence[Fact], weights: Array | None, masks: list[int] | None
) -> tuple[float, Array, list[int], Plan] | None:
    """(total, counts, tightened masks, plan), or None when no deal agrees."""
    n, env = layout.n_cards, layout.envelope
    holders = layout.holders
    full = (1 << holders) - 1
    masks = list(masks) if masks is not None else [full] * n
    some: list[tuple[int, set[int]]] = []
    not_env: list[set[int]] = []
    for fact in facts:
        if isinstance(fact, Has):
            masks[fact.card] &= 1 << fact.holder
        elif isinstance(fact, Lacks):
            masks[fact.card] &= ~(1 << fact.holder)
        elif isinstance(fact, Some):
            some.append((fact.player, set(fact.cards)))
        else:
            not_env.append(set(fact.cards))
    category = [0] * n
    for index, members in enumerate(layout.categories):
        for c in members:
            category[c] = index
    propagated = _propagate(layout, masks, some, not_env, category)
    if propagated is None:
        return None
    some, not_env = propagated
    fixed = [m.bit_length() - 1 if m and m & (m - 1) == 0 else -1 for m in masks]
    caps = list(layout.hand_sizes)
    need = [1] * len(layout.categories)
    for card, holder in enumerate(fixed):
        if holder == env:
            need[category[card]] -= 1
        elif holder >= 0:
            caps[holder] -= 1
    free = [c for c in range(n) if fixed[c] < 0]
    order = _order(free, some, not_env)
    clauses: list[tuple[str, int, set[int]]] = [("some", p, s) for p, s in some]
    clauses += [("env", env, s) for s in not_env]
    first: dict[int, list[int]] = {}
    last: dict[int, list[int]] = {}
    position = {c: i for i, c in enumerate(order)}
    for j, (_, _, cards) in enumerate(clauses):
        spots = sorted(position[c] for c in cards if c in position)
        first.setdefault(order[spots[0]], []).append(j)
        last.setdefault(order[spots[-1]], []).append(j)
    # Bits are reused: a clause takes a free bit when it opens and gives it back when it closes.
    bit_of: dict[int, int] = {}
    free_bits: list[int] = []
    width = 0
    steps: list[FreeCard] = []
    player_axes = list(range(layout.players))
    env_axis = {k: layout.players + k for k in range(len(layout.categories))}
    bit_axis = layout.players + len(layout.categories)
    for card in order:
        opens = []
        for j in first.get(card, []):
            if free_bits:
                bit = free_bits.pop()
            else:
                bit, width = width, width + 1
            bit_of[j] = bit
            opens.append(bit)
        allowed = [h for h in range(holders) if masks[card] >> h & 1]
        axes, satisfy, ws = [], [], []
        for h in allowed:
            axes.append(env_axis[category[card]] if h == env else player_axes[h])
            satisfy.append(
                [bit_of[j] for j, (kind, p, cs) in enumerate(clauses)
                 if kind == "some" and p == h and card in cs and j in bit_of]
            )  # fmt: skip
            ws.append(1.0 if weights is None else float(weights[card, h]))
        keep_env = [
            bit_of[j] for j, (kind, _, cs) in enumerate(clauses)
            if kind == "env" and card in cs and j in bit_of
        ]  # fmt: skip
        closes = [bit_of[j] for j in last.get(card, [])]
        steps.append(
            FreeCard(card, allowed, ws, axes, satisfy, keep_env, opens, closes, bit_axis, env)
        )
        for j in last.get(card, []):
            free_bits.append(bit_of.pop(j))
    if any(c < 0 for c in caps) or any(x < 0 for x in need):
        return None
    shape = tuple(c + 1 for c in caps) + tuple(2 for _ in need) + (1 << width,)
    start = tuple(caps) + tuple(need) + (0,)
    plan = Plan(steps, shape, start, fixed, n, holders)
    counts = np.zeros((n, holders))
    total = plan.run(counts)
    if total <= 0:
        return None
    if weights is not None:
        # A fixed card's weight scales every deal alike; it goes into every count, so that
        # totals under different facts (the envelope's joint) compare.
        factor = 1.0
        for card, holder in enumerate(fixed):
            if holder >= 0:
                factor *= float(weights[card, holder])
        total *= factor
        counts *= factor
        if total <= 0:
            return None
    # Only unweighted counts tighten the masks: a weight of 0 rules out a deal's weight, not
    # the deal.
    if weights is None:
        masks = [sum(1 << h for h in range(holders) if counts[c, h] > 0) for c in range(n)]
    return total, counts, masks, plan


def _propagate(
    layout: Layout,
    masks: list[int],
    some: list[tuple[int, set[int]]],
    not_env: list[set[int]],
    category: list[int],
) -> tuple[list[tuple[int, set[int]]], list[set[int]]] | None:
    """Cheap sure consequences, to a fixed point; None when they contradict."""
    env = layout.envelope
    changed = True
    while changed:
        changed = False
        if any(m == 0 for m in masks):
            return None
        fixed = [m.bit_length() - 1 if m & (m - 1) == 0 else -1 for m in masks]
        held = [0] * layout.holders
        env_in = [0] * len(layout.categories)
        for card, holder in enumerate(fixed):
            if holder == env:
                env_in[category[card]] += 1
            elif holder >= 0:
                held[holder] += 1
        for p, size in enumerate(layout.hand_sizes):
            if held[p] > size:
                return None
            if held[p] == size:
                for card in range(layout.n_cards):
                    if fixed[card] != p and masks[card] >> p & 1:
                        masks[card] &= ~(1 << p)
                        changed = True
        for k, members in enumerate(layout.categories):
            if env_in[k] > 1:
                return None
            if env_in[k] == 1:
                for card in members:
                    if fixed[card] != env and masks[card] >> env & 1:
                        masks[card] &= ~(1 << env)
                        changed = True
            elif not any(masks[c] >> env & 1 for c in members):
                return None
        kept_some = []
        for p, clause in some:
            if any(fixed[c] == p for c in clause):
                continue
            left = {c for c in clause if masks[c] >> p & 1}
            if not left:
                return None
            if len(left) == 1:
                (card,) = left
                masks[card] = 1 << p
                changed = True
                continue
            kept_some.append((p, left))
        some = _without_subsumed(kept_some)
        kept_env = []
        for triple in not_env:
            if any(not masks[c] >> env & 1 for c in triple):
                continue
            if all(fixed[c] == env for c in triple):
                return None
            kept_env.append(triple)
        not_env = kept_env
    return some, not_env


def _without_subsumed(some: list[tuple[int, set[int]]]) -> list[tuple[int, set[int]]]:
    out: list[tuple[int, set[int]]] = []
    for p, cards in sorted(some, key=lambda pc: len(pc[1])):
        if not any(q == p and other <= cards for q, other in out):
            out.append((p, cards))
    return out


def _order(free: list[int], some: list[tuple[int, set[int]]], not_env: list[set[int]]) -> list[int]:
    """The free cards in an order that keeps few clauses open at once (the sweep's state
    doubles with each open clause): each time, the card that opens the fewest new clauses
    and closes the most, cards in no clause last."""
    clauses = [set(cards) & set(free) for _, cards in some] + [set(c) & set(free) for c in not_env]
    clauses = [c for c in clauses if c]
    order: list[int] = []
    left = set().union(*clauses) if clauses else set()
    opened = [False] * len(clauses)
    remaining = [set(c) for c in clauses]
    while left:

        def cost(card: int) -> tuple[int, int, int]:
            opens = sum(1 for j, c in enumerate(clauses) if card in c and not opened[j])
            closes = sum(1 for r in remaining if r == {card})
            return (opens - closes, -closes, card)

        card = min(left, key=cost)
        order.append(card)
        left.discard(card)
        for j, c in enumerate(clauses):
            if card in c:
                opened[j] = True
                remaining[j].discard(card)
    placed = set(order)
    return order + [c for c in free if c not in placed]


def _check_fact(layout: Layout, fact: Fact) -> None:
    n = layout.n_cards
    if isinstance(fact, Has | Lacks):
        if not 0 <= fact.holder < layout.holders or not 0 <= fact.card < n:
            raise LayoutError(f"{fact} names no holder or card of this layout")
    elif isinstance(fact, Some):
        if not 0 <= fact.player < layout.players or not fact.cards:
            raise LayoutError(f"{fact} names no player or no cards")
        if any(not 0 <= c < n for c in fact.cards):
            raise LayoutError(f"{fact} names a card this layout lacks")
    elif isinstance(fact, NotEnvelope):
        if sorted(layout.category_of(c) for c in fact.cards) != list(range(len(layout.categories))):
            raise LayoutError(f"{fact} must name one card of every category")
    else:
        raise LayoutError(f"not a fact: {fact!r}")


def _first_failure(
    layout: Layout, facts: tuple[Fact, ...], weights: Array | None
) -> tuple[str, Fact | None]:
    """The message and the first fact after which no deal agrees."""
    if _solve(layout, (), weights, None) is None:
        return "no deal has these hand sizes and weights", None
    lo, hi = 0, len(facts)  # facts[:lo] agree, facts[:hi] do not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _solve(layout, facts[:mid], weights, None) is None:
            hi = mid
        else:
            lo = mid
    fact = facts[hi - 1]
    return _describe(fact), fact


def _describe(fact: Fact) -> str:
    return f"no deal agrees with {fact} and the facts before it"
