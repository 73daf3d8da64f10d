"""The detective's notebook: what one seat's view of a game entails, exactly.

Each event of a :class:`~game.logic.clue.events.View` becomes facts about single holders
(:mod:`game.logic.clue.deduce`): a pass says the passer lacks the three cards, a card shown to
the viewer says who holds it, a refutation the viewer did not see says the refuter holds at
least one of the three, a wrong accusation says the envelope is not that triple. The counts
over every deal consistent with those facts give each card-by-holder probability; a cell is
certain when it holds in every consistent deal. Events that contradict what came before are
refused, naming the event (:class:`EventContradiction`); :meth:`Notebook.why` names the events
that decide a certain cell.

>>> from game.logic.clue.deck import load_deck
>>> from game.logic.clue.events import Suggestion, View
>>> deck = load_deck("quick")
>>> view = View(deck, (3, 3, 4), 0, (0, 4, 8), ())
>>> book = Notebook.of(view)
>>> round(book.probability(1, book.envelope), 3)  # a suspect the viewer lacks
0.333
>>> book = book.extended(Suggestion(0, (1, 5, 9), (1, 2)))  # everyone passed
>>> book.solution(), book.holder(1) == book.envelope
((1, 5, 9), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.logic.clue.deck import Card, Triple
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
from game.logic.clue.events import Accusation, Event, View, answers_problem
from game.logic.pacing import pause

__all__ = ["HAND", "EventContradiction", "Notebook", "event_facts", "hand_facts"]

#: The origin of the facts that come from the viewer's own hand (events count from 0).
HAND = -1


class EventContradiction(ValueError):
    """An event that no deal agrees with, given the events before it."""

    def __init__(self, index: int, event: Event | None, reason: str) -> None:
        where = "your hand" if index == HAND else f"event {index + 1}"
        super().__init__(f"{where} contradicts what came before: {reason}")
        self.index = index
        self.event = event


def layout_of(view: View) -> Layout:
    return Layout(view.deck.ranges, view.hand_sizes)


def hand_facts(view: View) -> list[Fact]:
    """The viewer holds its hand and nothing else."""
    if view.seat is None:
        return []
    hand = set(view.hand)
    return [
        Has(view.seat, card) if card in hand else Lacks(view.seat, card)
        for card in range(view.deck.n_cards)
    ]


def event_facts(event: Event, viewer: int | None, envelope: int) -> list[Fact]:
    """The facts one event gives the viewer (``envelope`` is the envelope's holder index)."""
    if isinstance(event, Accusation):
        if event.correct:
            return [Has(envelope, card) for card in event.cards]
        return [NotEnvelope(tuple(event.cards))]
    facts: list[Fact] = [Lacks(seat, card) for seat in event.passed for card in event.cards]
    if event.refuter is not None:
        if event.shown is not None:
            facts.append(Has(event.refuter, event.shown))
        elif event.refuter != viewer:
            facts.append(Some(event.refuter, tuple(event.cards)))
    return facts


@dataclass(frozen=True, eq=False)
class Notebook:
    """Exact knowledge of one view; make it with :meth:`of`, grow it with :meth:`extended`."""

    view: View
    knowledge: Knowledge
    #: For each fact of ``knowledge`` (in order), the event it came from (HAND: the hand).
    origins: tuple[int, ...]

    @classmethod
    def of(cls, view: View) -> Notebook:
        """The notebook of ``view``; raises :class:`EventContradiction` naming the first
        event (or the hand) that no deal agrees with."""
        empty = View(view.deck, view.hand_sizes, view.seat, view.hand, ())
        facts = hand_facts(view)
        try:
            knowledge = Knowledge(layout_of(view), facts)
        except Contradiction:
            raise EventContradiction(
                HAND, None, "no way of dealing the cards gives this hand to this seat"
            ) from None
        return cls(empty, knowledge, (HAND,) * len(facts)).extended_by(view.events)

    def extended(self, event: Event) -> Notebook:
        """This notebook after one more event; self is unchanged. Raises
        :class:`EventContradiction` when no deal agrees with it."""
        return self.extended_by((event,))

    def extended_by(self, events: Sequence[Event]) -> Notebook:
        """This notebook after ``events``, in order; self is unchanged. Raises
        :class:`EventContradiction` naming the first event no deal agrees with (with the
        events before it).

        All the events' facts are counted in one sweep of the deals (a case file of 2,000
        events opens in tens of milliseconds, where one sweep per event took most of a
        minute); only when they contradict is the first event to blame searched for, by
        halving (a sweep per halving)."""
        first = len(self.view.events)
        facts: list[Fact] = []
        origins: list[int] = []
        for index, event in enumerate(events, first):
            problem = _malformed(event, self.view)
            if problem:
                raise EventContradiction(index, event, problem)
            new = event_facts(event, self.view.seat, self.envelope)
            facts += new
            origins += [index] * len(new)
        try:
            knowledge = self.knowledge.add(*facts) if facts else self.knowledge
        except Contradiction:
            index = first + self._first_contradicting(events)
            raise EventContradiction(
                index, events[index - first],
                "no way of dealing the cards agrees with it and the events before",
            ) from None  # fmt: skip
        view = View(
            self.view.deck, self.view.hand_sizes, self.view.seat, self.view.hand,
            (*self.view.events, *events),
        )  # fmt: skip
        return Notebook(view, knowledge, self.origins + tuple(origins))

    def _first_contradicting(self, events: Sequence[Event]) -> int:
        """The index in ``events`` of the first one that, with those before it, no deal
        agrees with (they must contradict as a whole)."""
        seat, envelope = self.view.seat, self.envelope

        def agree(count: int) -> bool:
            facts = [f for e in events[:count] for f in event_facts(e, seat, envelope)]
            try:
                self.knowledge.add(*facts)
            except Contradiction:
                return False
            return True

        lo, hi = 0, len(events)  # events[:lo] agree, events[:hi] do not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if agree(mid):
                lo = mid
            else:
                hi = mid
        return hi - 1

    # -- queries --------------------------------------------------------------------------

    @property
    def envelope(self) -> int:
        """The envelope's holder index (after the seats)."""
        return self.view.seats

    @property
    def probabilities(self) -> npt.NDArray[np.float64]:
        """(cards, seats + 1): the chance of each card being with each holder."""
        return self.knowledge.probabilities

    def probability(self, card: Card, holder: int) -> float:
        return float(self.knowledge.probabilities[card, holder])

    def holder(self, card: Card) -> int | None:
        return self.knowledge.holder(card)

    def possible(self, card: Card, holder: int) -> bool:
        return self.knowledge.possible(card, holder)

    def solution(self) -> Triple | None:
        return self.knowledge.certain_envelope()

    def weighed(self) -> bool:
        """Whether :meth:`best_accusation` is worked out already (it costs one sweep of the
        deals per choice of envelope)."""
        return self.knowledge.weighed()

    def best_accusation(self) -> tuple[Triple, float]:
        return self.knowledge.best_accusation()

    def envelope_joint(self) -> dict[Triple, float]:
        return self.knowledge.envelope_joint()

    def why(self, card: Card, holder: int) -> list[int]:
        """The events (indices into ``view.events``; :data:`HAND` for the hand) that together
        decide a certain cell, none of them unneeded; [] for a cell that is not certain."""
        held = self.holder(card) == holder
        if not held and self.possible(card, holder):
            return []
        layout = self.knowledge.layout
        facts = self.knowledge.facts
        needed = sorted(set(self.origins))

        def decides(origins: Sequence[int]) -> bool:
            keep = set(origins)
            chosen = [f for f, o in zip(facts, self.origins, strict=True) if o in keep]
            try:
                k = Knowledge(layout, chosen)
            except Contradiction:  # cannot happen for a subset of consistent facts
                return True
            return k.holder(card) == holder if held else not k.possible(card, holder)

        # Leave out runs of origins while the rest still decides: halves first, then
        # quarters, ... then one at a time, each pass from the latest event back. The last
        # pass tries each origin alone, so none left is unneeded (more facts never undecide
        # a cell); a long case needs tens of deductions, not one per event (a minute at
        # 2,000 events).
        size = max(1, len(needed) // 2)
        while True:
            end = len(needed)
            while end > 0:
                start = max(0, end - size)
                pause()  # one deduction a step: a thread of a window's lets a frame go first
                trial = needed[:start] + needed[end:]
                if trial and decides(trial):
                    needed = trial
                end = start
            if size == 1:
                return needed
            size = max(1, size // 2)


def _malformed(event: Event, view: View) -> str:
    """What makes ``event`` impossible at any table of this view's size and deck ("" when
    nothing does): a seat that is not at the table, a card not one per category, answers
    out of the order the rules ask them in."""
    seats = view.seats
    deck = view.deck
    if not 0 <= event.seat < seats:
        return f"there is no seat {event.seat} at a table of {seats}"
    cards = tuple(event.cards)
    if len(cards) != len(deck.ranges) or any(
        not isinstance(c, int) or c not in r for c, r in zip(cards, deck.ranges, strict=False)
    ):
        return "it does not name one card of each category"
    if isinstance(event, Accusation):
        return ""
    return answers_problem(event, seats)
