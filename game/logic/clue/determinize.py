"""Cluedo states drawn from what one seat has seen, for the generic searches
(:mod:`game.logic.search`): they must not read the cards a seat cannot see.

:func:`determinizer` reads only the seat's observation (its hand and the events as it saw
them) and what the whole table sees (the phase, whose turn, the suggestion being answered):
its notebook (:mod:`game.logic.clue.notebook`) draws a deal that agrees with all of it, each
with its chance, and the state is that deal with the same public course. A card shown to
another seat is the first card of the suggestion its refuter holds in the drawn deal.

>>> import random
>>> from game.logic.clue.game import ClueGame
>>> from game.logic.contract import CHANCE, sample_chance
>>> rng = random.Random(1)
>>> state = ClueGame({"seats": 3, "deck": "quick"}).initial_state(rng)
>>> while state.current_player() == CHANCE:  # the deal
...     state = state.apply(sample_chance(state, rng))
>>> draw = determinizer(state, 0)
>>> drawn = draw(random.Random(5))
>>> drawn.hands[0] == state.hands[0], drawn.observation(0) == state.observation(0)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from game.logic.clue.events import Event, Suggestion
from game.logic.clue.notebook import Notebook
from game.logic.contract import CHANCE

if TYPE_CHECKING:
    from game.logic.clue.rules import ClueState

__all__ = ["determinizer"]


def determinizer(state: ClueState, seat: int) -> Callable[[random.Random], ClueState]:
    """A function that draws, with the ``rng`` it is given, a state ``seat`` cannot tell
    from ``state``. Raises ValueError while the cards are being dealt."""
    # Chance moves only while the envelope is filled and the hands dealt; asking the contract
    # rather than the phase keeps this module off the rules (which import it).
    if state.current_player() == CHANCE:
        raise ValueError("the cards are being dealt: there is nothing to draw yet")
    view = state.observation(seat)
    knowledge = Notebook.of(view).knowledge
    seats = state.rules.seats
    n_cards = state.rules.deck.n_cards

    def draw(rng: random.Random) -> ClueState:
        deal = [int(h) for h in knowledge.sample(1, rng)[0]]
        hands = tuple(tuple(c for c in range(n_cards) if deal[c] == s) for s in range(seats))
        envelope = tuple(c for c in range(n_cards) if deal[c] == seats)
        log: list[Event] = []
        for event in view.events:
            if isinstance(event, Suggestion) and event.refuter is not None and not event.shown:
                held = [c for c in event.cards if deal[c] == event.refuter]
                event = replace(event, shown=held[0] if held else event.cards[0])
            log.append(event)
        return replace(state, envelope=envelope, hands=hands, log=tuple(log))

    return draw
