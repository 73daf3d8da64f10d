"""How close the other detectives are to solving, seen from one seat.

A seat cannot see what the others know, but it can draw deals that agree with what it saw
(:meth:`~game.logic.clue.deduce.Knowledge.sample`) and, in each, rebuild every opponent's
view: its hand from the deal, the cards shown to it (as this seat saw them when it showed
them; otherwise the first named card the refuter holds in the deal), the rest of the events as
everyone saw them. Each opponent is modelled as a detective with the classic notebook
(:class:`~game.logic.clue.article.ArticleNotes`): it is about to solve when that notebook is
already certain, or becomes certain after its next suggestion (the classic pick, answered as
the deal says). :func:`threat` is the share of the deals in which some opponent still in the
game solves before this seat's next turn; the ``full`` detective bets on an uncertain
accusation when the bet is likelier to win than waiting.

>>> import random
>>> from game.logic.clue.deck import load_deck
>>> from game.logic.clue.events import Suggestion, View
>>> deck = load_deck("quick")
>>> deal = [0, 3, 1, 2, 0, 1, 3, 2, 0, 1, 2, 2, 3]  # each card's holder; 3: the envelope
>>> view = View(deck, (3, 3, 4), 0, (0, 4, 8), (Suggestion(1, (1, 6, 12), (2, 0)),))
>>> rival_view(view, deal, 1).hand
(2, 5, 9)
>>> solves_soon(view, deal, 1, random.Random(0))  # nobody refuted its suggestion
True
>>> threat(view, [deal], random.Random(0))
1.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.logic.clue.agents import article_pick
from game.logic.clue.article import ArticleNotes
from game.logic.clue.events import Event, Suggestion, View

__all__ = ["rival_view", "solves_soon", "threat"]


def rival_view(view: View, deal: Sequence[int], seat: int) -> View:
    """What ``seat`` would have seen of ``view``'s game if the cards lay as in ``deal``
    (the holder of each card)."""
    hand = tuple(c for c in range(view.deck.n_cards) if deal[c] == seat)
    events: list[Event] = []
    for event in view.events:
        if isinstance(event, Suggestion) and event.refuter is not None:
            shown = None
            if seat in (event.seat, event.refuter):
                shown = event.shown
                if shown is None:
                    held = [c for c in event.cards if deal[c] == event.refuter]
                    shown = held[0] if held else event.cards[0]
            event = Suggestion(event.seat, event.cards, event.passed, event.refuter, shown)
        events.append(event)
    return View(view.deck, view.hand_sizes, seat, hand, tuple(events))


def solves_soon(view: View, deal: Sequence[int], seat: int, rng: random.Random) -> bool:
    """Whether a classic-notebook detective in ``seat`` is certain of the envelope at its
    next turn, or after that turn's suggestion, if the cards lay as in ``deal``."""
    seen = rival_view(view, deal, seat)
    notes = ArticleNotes.of(seen)
    if notes.solution() is not None:
        return True
    triple = article_pick(notes, rng)
    passed: list[int] = []
    for k in range(1, view.seats):
        refuter = (seat + k) % view.seats
        held = [c for c in triple if deal[c] == refuter]
        if held:
            answer = Suggestion(seat, triple, tuple(passed), refuter, held[0])
            break
        passed.append(refuter)
    else:
        answer = Suggestion(seat, triple, tuple(passed))
    after = View(seen.deck, seen.hand_sizes, seat, seen.hand, (*seen.events, answer))
    return ArticleNotes.of(after).solution() is not None


def threat(view: View, deals: Sequence[Sequence[int]], rng: random.Random) -> float:
    """The share of ``deals`` in which an opponent still in the game solves before the
    viewer's next turn (0 for the public view or no deals)."""
    if view.seat is None or not len(deals):
        return 0.0
    out = view.out()
    rivals = [(view.seat + k) % view.seats for k in range(1, view.seats)]
    rivals = [p for p in rivals if p not in out]
    hits = sum(1 for deal in deals if any(solves_soon(view, deal, p, rng) for p in rivals))
    return hits / len(deals)
