"""Cluedo's detectives that deduce exactly (:mod:`game.logic.clue.notebook`).

``exact-article`` keeps the article agent's choices and only replaces its notebook with exact
counting: it names, per category, the card with no certain holder that most seats are certain
not to hold, and accuses when the envelope is certain.

``full`` adds what exact deduction alone does not give:

* **Opponent model.** The cards an opponent names are weighed as probably not in its hand:
  each time seat ``p`` names card ``c``, the deals with ``c`` in ``p``'s hand count ``eps_p``
  times as much. ``eps_p`` is learned during the game from the cards ``p`` named whose holder
  became certain (a Beta prior that expects detectives to name their own cards rarely), so a
  bluffer is soon trusted less. This *behavioural* posterior only steers suggestions and risky
  accusations; certainty always comes from the logical notebook, which knows no weights.
* **Envelope-focused suggestions.** Per category, the card most likely to be in the envelope
  under the behavioural posterior (the category's envelope card once it is certain, which no
  one can refute, so the answer speaks about the other cards).
* **Response.** A card this suggester has already seen, then a card already shown to anyone
  (the most often shown), then a card of the biggest category (ruling out one of many tells
  least).
* **Risky accusation.** After its answer, with no certainty, it accuses the likeliest triple
  when that triple's behavioural chance is at least 0.9, or at least 0.3 and at least the
  chance that it is still in the game at its next turn: in deals drawn from its behavioural
  posterior it replays each opponent's classic notebook (:mod:`game.logic.clue.rivals`) and
  counts the deals in which one of them solves first.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

import numpy as np
import numpy.typing as npt

from game.logic.clue.agents import NotebookAgent, shown_counts
from game.logic.clue.deck import Card, Triple
from game.logic.clue.events import Suggestion, View
from game.logic.clue.notebook import Notebook
from game.logic.clue.rivals import threat
from game.logic.contract import Stop

__all__ = ["ExactArticleAgent", "FullAgent", "NotebookCache"]

#: The Beta prior on how often a detective names a card it holds: mean 0.05, worth 10 cards.
PRIOR_OWN: Final = 0.5
PRIOR_OTHER: Final = 9.5
#: No opponent is ever trusted completely: a weight of 0 would make a bluff a certainty.
MIN_EPS: Final = 0.01
#: Risky accusations: always at this chance; from RISK_FLOOR up when the chance that another
#: detective solves first (:func:`~game.logic.clue.rivals.threat`, over RIVAL_DEALS deals)
#: is larger than the chance of being wrong.
RISK_ALWAYS: Final = 0.9
RISK_FLOOR: Final = 0.3
RIVAL_DEALS: Final = 40


class NotebookCache:
    """One seat's notebook, kept between decisions and extended with the new events."""

    def __init__(self) -> None:
        self.book: Notebook | None = None

    def of(self, view: View) -> Notebook:
        book = self.book
        if (
            book is None
            or book.view.seat != view.seat
            or book.view.hand != view.hand
            or book.view.deck != view.deck
            or book.view.hand_sizes != view.hand_sizes
            or view.events[: len(book.view.events)] != book.view.events
        ):
            book = Notebook.of(View(view.deck, view.hand_sizes, view.seat, view.hand, ()))
        book = book.extended_by(view.events[len(book.view.events) :])
        self.book = book
        return book


class ExactArticleAgent(NotebookAgent):
    name = "exact-article"
    description = "exact deduction with the classic choices: names the cards most seats lack"
    suggestion_words = "per category, the card most seats are certain not to hold"
    certainty_words = (
        "every deal that agrees with what you have seen has these three in the envelope"
    )

    def __init__(self) -> None:
        super().__init__()
        self.cache = NotebookCache()

    def solution(self, view: View) -> Triple | None:
        return self.cache.of(view).solution()

    def suggest(self, view: View, rng: random.Random, stop: Stop) -> Triple:
        book = self.cache.of(view)
        seats = range(view.seats)
        picks = []
        for cards in view.deck.ranges:
            free = [c for c in cards if book.holder(c) not in seats]
            if not free:
                picks.append(cards[0])
                continue
            lacking = {c: sum(not book.possible(c, p) for p in seats) for c in free}
            best = max(lacking.values())
            picks.append(rng.choice([c for c in free if lacking[c] == best]))
        return tuple(picks)


class FullAgent(NotebookAgent):
    name = "full"
    description = (
        "exact deduction, a model of what the others' suggestions reveal, envelope-focused "
        "suggestions, careful answers and risky accusations when an opponent is close"
    )
    suggestion_words = (
        "per category, the card likeliest to be in the envelope, counting every deal "
        "that agrees with what you have seen and weighing what the others' suggestions reveal"
    )

    def __init__(self, *, risky: bool = True, hide_solved: bool = True) -> None:
        super().__init__()
        self.cache = NotebookCache()
        self.risky = risky
        self.hide_solved = hide_solved
        self._reason = ""

    # -- the opponent model ---------------------------------------------------------------

    def eps(self, book: Notebook) -> list[float]:
        """Per seat: how likely it is to name a card it holds, from the cards it named whose
        holder is now certain."""
        view = book.view
        own = Counter[int]()
        settled = Counter[int]()
        for event in view.events:
            if not isinstance(event, Suggestion) or event.seat == view.seat:
                continue
            for card in event.cards:
                holder = book.holder(card)
                if holder is not None:
                    settled[event.seat] += 1
                    own[event.seat] += holder == event.seat
        return [
            max(MIN_EPS, (PRIOR_OWN + own[p]) / (PRIOR_OWN + PRIOR_OTHER + settled[p]))
            for p in range(view.seats)
        ]

    def weights(self, book: Notebook) -> npt.NDArray[np.float64]:
        view = book.view
        eps = self.eps(book)
        w = np.ones((view.deck.n_cards, view.seats + 1))
        for event in view.events:
            if isinstance(event, Suggestion) and event.seat != view.seat:
                for card in event.cards:
                    w[card, event.seat] *= eps[event.seat]
        return w

    def behaviour(self, book: Notebook) -> npt.NDArray[np.float64]:
        """The behavioural posterior's probabilities (cards x holders)."""
        return book.knowledge.with_weights(self.weights(book)).probabilities

    # -- decisions ------------------------------------------------------------------------

    def solution(self, view: View) -> Triple | None:
        book = self.cache.of(view)
        certain = book.solution()
        if certain is not None or not self.risky or not view.events:
            self._reason = (
                "every deal that agrees with what you have seen has these three in the envelope"
            )
            return certain
        return self._risky(book)

    def _risky(self, book: Notebook) -> Triple | None:
        """The likeliest triple when betting on it beats waiting; only right after this
        seat's own suggestion was answered (its last chance before the others play)."""
        view = book.view
        last = view.events[-1]
        if not isinstance(last, Suggestion) or last.seat != view.seat:
            return None
        probs = self.behaviour(book)
        env = book.envelope
        # No triple is likelier than its least certain category's likeliest card.
        bound = min(max(probs[c, env] for c in cards) for cards in view.deck.ranges)
        if bound < RISK_FLOOR:
            return None
        weighted = book.knowledge.with_weights(self.weights(book))
        triple, chance = weighted.best_accusation()
        if chance >= RISK_ALWAYS:
            self._reason = f"a risk: {chance:.0%} likely"
            return triple
        if chance < RISK_FLOOR:
            return None
        # The same view always draws the same deals: a decision depends on the view alone.
        rng = random.Random(len(view.events) * 7919 + (view.seat or 0))
        danger = threat(view, weighted.sample(RIVAL_DEALS, rng).tolist(), rng)
        if chance >= 1.0 - danger:
            self._reason = (
                f"a risk: {chance:.0%} likely, and in {danger:.0%} of the deals that agree "
                "with what you have seen another detective solves it before your next turn"
            )
            return triple
        return None

    def suggest(self, view: View, rng: random.Random, stop: Stop) -> Triple:
        book = self.cache.of(view)
        probs = self.behaviour(book)
        env = book.envelope
        seats = range(view.seats)
        picks = []
        for cards in view.deck.ranges:
            known = [c for c in cards if book.holder(c) == env]
            if known:
                # A card of its own says as little as the known envelope card, and unlike
                # it does not tell the others which card nobody holds.
                own = [c for c in cards if c in view.hand]
                picks.append(own[0] if own and self.hide_solved else known[0])
                continue
            free = [c for c in cards if book.holder(c) not in seats] or list(cards)
            best = max(probs[c, env] for c in free)
            picks.append(rng.choice([c for c in free if probs[c, env] >= best - 1e-12]))
        return tuple(picks)

    def show(self, view: View, options: list[Card], suggester: int, rng: random.Random) -> Card:
        seen = {
            e.shown
            for e in view.events
            if isinstance(e, Suggestion) and e.refuter == view.seat and e.seat == suggester
        }
        repeat = [c for c in options if c in seen]
        if repeat:
            return repeat[0]
        counts = shown_counts(view)
        shown = [c for c in options if counts[c]]
        if shown:
            return max(shown, key=lambda c: counts[c])
        sizes = [len(view.deck.ranges[view.deck.category_of(c)]) for c in options]
        return options[sizes.index(max(sizes))]

    def certainty_reason(self) -> str:
        return self._reason


class SafeFullAgent(FullAgent):
    name = "full-safe"
    description = "full, accusing only when certain"

    def __init__(self) -> None:
        super().__init__(risky=False)
