"""Cluedo's computer players that keep the classic notebook (:mod:`game.logic.clue.article`).

Every agent decides from what its seat sees (``state.observation(seat)``, plus the public
fact of which suggestion is being answered), never from the hidden deal. The three decisions:

* on its turn: accuse when it knows the envelope, else suggest;
* as a refuter holding several of the named cards: which one to show;
* after the answer: accuse when it now knows the envelope, else end the turn.

``article`` is the console game's player: per category it names the card with no known holder
that most players are known not to hold (ties at random), shows the card it has shown most
often before (ties: the first named), and accuses only when the rules have forced every
category. ``random`` (:class:`GuessingAgent`) names random cards it has not seen; it is
Cluedo's own agent of that name, so it stands in Cluedo's list for the random agent every
other game offers (:mod:`game.logic.search.agents`, which would accuse at random).
``article-bluff`` is ``article`` that names one of its own cards a quarter of the time.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

from game.logic.clue.article import ArticleNotes
from game.logic.clue.deck import Card, Triple
from game.logic.clue.events import Suggestion, View
from game.logic.clue.rules import END, Action, ActionKind, ClueState, Phase
from game.logic.contract import Limits, State, Stop

__all__ = ["ArticleAgent", "BluffAgent", "GuessingAgent", "NotebookAgent", "shown_counts"]

#: How often ``article-bluff`` names one of its own cards.
BLUFF_RATE: Final = 0.25


def shown_counts(view: View) -> Counter[Card]:
    """How often the viewer has shown each of its cards."""
    return Counter(
        e.shown
        for e in view.events
        if isinstance(e, Suggestion) and e.refuter == view.seat and e.shown is not None
    )


class NotebookAgent:
    """The decision flow shared by the notebook agents; subclasses choose the suggestion
    (:meth:`suggest`), the card to show (:meth:`show`) and what they are sure of
    (:meth:`solution`)."""

    name = "notebook"
    description = ""
    #: Why it suggests, accuses and shows what it does (the hint's words; see :meth:`explain`).
    suggestion_words = "per category, the unplaced card most players are known not to hold"
    certainty_words = "the notebook has forced every category"
    show_words = "the card shown most often before tells the others the least"

    def __init__(self) -> None:
        self._said = ""

    def explain(self) -> str:
        """Why the last choice, as advice to the seat that plays it (``you``): the hint
        puts the action before it (:func:`~game.logic.clue.rules.advice`)."""
        return self._said

    def choose(
        self, state: State[Action], limits: Limits, rng: random.Random, stop: Stop
    ) -> Action:
        if not isinstance(state, ClueState):
            raise ValueError(f"{self.name} plays Cluedo, not {type(state).__name__}")
        seat = state.current_player()
        if seat < 0:
            raise ValueError("no seat is to play: the game is over or cards are being dealt")
        view = state.observation(seat)
        if state.phase is Phase.REFUTE:
            assert state.asking is not None
            options = state.matching(seat)
            card = (
                options[0]
                if len(options) == 1
                else self.show(view, options, state.asking.seat, rng)
            )
            self._said = (
                "the only one of the three you hold" if len(options) == 1 else (self.show_reason())
            )
            return Action(ActionKind.SHOW, (card,))
        solution = self.solution(view)
        if solution is not None:
            self._said = self.certainty_reason()
            return Action(ActionKind.ACCUSE, solution)
        if state.phase is Phase.AFTER:
            self._said = "the envelope is not certain yet"
            return END
        triple = self.suggest(view, rng, stop)
        self._said = self.suggestion_reason()
        return Action(ActionKind.SUGGEST, triple)

    # -- what subclasses decide -----------------------------------------------------------

    def suggest(self, view: View, rng: random.Random, stop: Stop) -> Triple:
        raise NotImplementedError

    def show(self, view: View, options: list[Card], suggester: int, rng: random.Random) -> Card:
        """The card to show of ``options`` (two or more): the one shown most often before,
        the first named on a tie."""
        counts = shown_counts(view)
        return max(options, key=lambda c: counts[c])  # max keeps the first of equals

    def solution(self, view: View) -> Triple | None:
        return ArticleNotes.of(view).solution()

    def suggestion_reason(self) -> str:
        return self.suggestion_words

    def certainty_reason(self) -> str:
        return self.certainty_words

    def show_reason(self) -> str:
        return self.show_words


class ArticleAgent(NotebookAgent):
    name = "article"
    description = "the classic notebook: names the cards most players lack; accuses when sure"

    def suggest(self, view: View, rng: random.Random, stop: Stop) -> Triple:
        return article_pick(ArticleNotes.of(view), rng)


def article_pick(notes: ArticleNotes, rng: random.Random) -> Triple:
    """Per category: of the cards with no known holder, one with the most negatives (at
    random among ties); the category's first card when every card has a known holder."""
    picks = []
    for cards in notes.view.deck.ranges:
        free = [c for c in cards if c not in notes.positives]
        if not free:
            picks.append(cards[0])
            continue
        best = max(notes.negatives_of(c) for c in free)
        picks.append(rng.choice([c for c in free if notes.negatives_of(c) == best]))
    return tuple(picks)


class BluffAgent(ArticleAgent):
    name = "article-bluff"
    description = "the classic notebook, naming one of its own cards a quarter of the time"
    suggestion_words = "the classic pick, sometimes with one of your own cards to mislead"

    def suggest(self, view: View, rng: random.Random, stop: Stop) -> Triple:
        triple = list(super().suggest(view, rng, stop))
        if view.hand and rng.random() < BLUFF_RATE:
            card = rng.choice(view.hand)
            triple[view.deck.category_of(card)] = card
        return tuple(triple)


class GuessingAgent(NotebookAgent):
    name = "random"
    description = "names random cards it has not seen; accuses when the notebook is sure"
    suggestion_words = "random cards you have not seen"
    show_words = "one of them at random"

    def suggest(self, view: View, rng: random.Random, stop: Stop) -> Triple:
        notes = ArticleNotes.of(view)
        picks = []
        for cards in view.deck.ranges:
            unseen = [c for c in cards if c not in notes.positives]
            picks.append(rng.choice(unseen or list(cards)))
        return tuple(picks)

    def show(self, view: View, options: list[Card], suggester: int, rng: random.Random) -> Card:
        return rng.choice(options)
