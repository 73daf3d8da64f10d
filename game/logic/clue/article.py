"""The classic detective's notebook: positives, negatives and possibilities, kept by rules.

This is the bookkeeping of the console Cluedo the game started from, and of its computer
player (the ``article`` agent): a *positive* is a card whose holder is known, a *negative* a
player known not to hold a card, a *possibility* a set of cards of which a player is known to
hold at least one (a refutation the viewer did not see). The rules run to a fixed point: a
player whose whole hand is known holds nothing else; a possibility shrunk to one card is a
positive; a card with a known holder is negative for everyone else. A category is *forced*
(its envelope card known) when every player is known not to hold one of its cards, or when
every card but one has a known holder.

These rules miss consequences that exact counting finds (:mod:`game.logic.clue.deduce`);
they are kept as they are because the ``article`` agent is defined by them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.logic.clue.deck import Card, Triple
from game.logic.clue.events import Accusation, Suggestion, View

__all__ = ["ArticleNotes"]


@dataclass
class ArticleNotes:
    """What the rules deduce from one seat's view; build it with :meth:`of`."""

    view: View
    positives: dict[Card, int] = field(default_factory=dict)
    negatives: dict[Card, set[int]] = field(default_factory=dict)
    possibilities: list[tuple[int, frozenset[Card]]] = field(default_factory=list)

    @classmethod
    def of(cls, view: View) -> ArticleNotes:
        notes = cls(view)
        notes._read()
        return notes

    def negatives_of(self, card: Card) -> int:
        return len(self.negatives.get(card, ()))

    def forced(self) -> dict[int, Card]:
        """Category index -> its envelope card, for the categories the rules have settled."""
        deck = self.view.deck
        players = range(self.view.seats)
        out: dict[int, Card] = {}
        for index, cards in enumerate(deck.ranges):
            for card in cards:
                if all(p in self.negatives.get(card, ()) for p in players):
                    out[index] = card
                    break
            else:
                unknown = [c for c in cards if c not in self.positives]
                if len(unknown) == 1:
                    out[index] = unknown[0]
        return out

    def solution(self) -> Triple | None:
        """The envelope, when every category is forced."""
        forced = self.forced()
        if len(forced) < len(self.view.deck.categories):
            return None
        return tuple(forced[i] for i in range(len(self.view.deck.categories)))

    # -- the rules ------------------------------------------------------------------------

    def _read(self) -> None:
        view = self.view
        if view.seat is not None:
            for card in view.hand:
                self.positives[card] = view.seat
            for card in range(view.deck.n_cards):
                if card not in view.hand:
                    self.negatives.setdefault(card, set()).add(view.seat)
        for event in view.events:
            if isinstance(event, Accusation):
                continue
            assert isinstance(event, Suggestion)
            for seat in event.passed:
                for card in event.cards:
                    self.negatives.setdefault(card, set()).add(seat)
            if event.refuter is None:
                continue
            if event.shown is not None:
                self.positives[event.shown] = event.refuter
            elif event.refuter != view.seat:
                self.possibilities.append((event.refuter, frozenset(event.cards)))
        self._settle()

    def _settle(self) -> None:
        """Apply the rules until nothing changes."""
        sizes = self.view.hand_sizes
        players = range(len(sizes))
        changed = True
        while changed:
            changed = False
            for card, holder in self.positives.items():
                for p in players:
                    if p != holder and p not in self.negatives.setdefault(card, set()):
                        self.negatives[card].add(p)
                        changed = True
            for p in players:
                known = [c for c, h in self.positives.items() if h == p]
                if len(known) == sizes[p]:
                    for card in range(self.view.deck.n_cards):
                        if card not in known and p not in self.negatives.setdefault(card, set()):
                            self.negatives[card].add(p)
                            changed = True
            kept: list[tuple[int, frozenset[Card]]] = []
            for p, cards in self.possibilities:
                if any(self.positives.get(c) == p for c in cards):
                    changed = True  # satisfied: it says nothing more
                    continue
                left = frozenset(c for c in cards if p not in self.negatives.get(c, ()))
                if len(left) == 1:
                    (card,) = left
                    if card not in self.positives:
                        self.positives[card] = p
                    changed = True
                    continue
                if left != cards:
                    changed = True
                kept.append((p, left))
            self.possibilities = kept
