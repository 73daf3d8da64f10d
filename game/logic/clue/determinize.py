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
from typing import TYPE_CHECKING, Any

from game.logic.clue.deck import Deck
from game.logic.clue.events import Accusation, Course, Event, Suggestion, View
from game.logic.clue.notebook import Notebook
from game.logic.contract import CHANCE

if TYPE_CHECKING:
    from game.logic.clue.rules import ClueState

__all__ = ["determinizer", "read_view", "stand_in"]


def determinizer(state: ClueState, seat: int) -> Callable[[random.Random], ClueState]:
    """A function that draws, with the ``rng`` it is given, a state ``seat`` cannot tell
    from ``state``. Raises ValueError while the cards are being dealt."""
    # Chance moves only while the envelope is filled and the hands dealt; asking the contract
    # rather than the phase keeps this module off the rules (which import it).
    if state.current_player() == CHANCE:
        raise ValueError("the cards are being dealt: there is nothing to draw yet")
    view = state.observation(seat)
    knowledge = Notebook.of(view).knowledge

    def draw(rng: random.Random) -> ClueState:
        return _dealt(state, view, knowledge, rng)

    return draw


def stand_in(shell: ClueState, view: View, rng: random.Random) -> ClueState:
    """``shell``, a state with ``view``'s hand, events and course (the phase, the turn, the
    suggestion being answered), with what ``view``'s seat does not see drawn with ``rng`` to
    agree with all of it: the other hands, the envelope and the cards shown to others. The
    suggestion being answered counts for the draw: whoever passed holds none of its cards,
    and the seat asked now holds one."""
    asking = None if view.course is None else view.course.asking
    pending = () if asking is None else (asking,)
    knowledge = Notebook.of(replace(view, events=view.events + pending)).knowledge
    return _dealt(shell, view, knowledge, rng)


def read_view(deck: Deck, data: Any) -> View:
    """The :class:`View` that ``data`` (a view as plain JSON values) stands for; the deck is
    the game's own (``data``'s is not read). Raises ValueError for anything else."""
    try:
        course = data.get("course")
        return View(
            deck,
            tuple(int(n) for n in data["hand_sizes"]),
            None if data["seat"] is None else int(data["seat"]),
            tuple(int(c) for c in data["hand"]),
            tuple(_event(e) for e in data["events"]),
            None if course is None else Course(
                int(course["dealer"]), str(course["phase"]), int(course["turn"]),
                int(course["round"]),
                None if course["asking"] is None else _event(course["asking"]),  # type: ignore[arg-type]
                None if course["winner"] is None else int(course["winner"]),
            ),
        )  # fmt: skip
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a view of Cluedo: {exc!r}") from None


def _event(data: Any) -> Event:
    seat, cards = int(data["seat"]), tuple(int(c) for c in data["cards"])
    if "correct" in data:
        return Accusation(seat, cards, bool(data["correct"]))
    refuter, shown = data["refuter"], data["shown"]
    return Suggestion(
        seat, cards, tuple(int(p) for p in data["passed"]),
        None if refuter is None else int(refuter), None if shown is None else int(shown),
    )  # fmt: skip


def _dealt(state: ClueState, view: View, knowledge: Any, rng: random.Random) -> ClueState:
    """``state`` with a deal drawn from ``knowledge`` (``view``'s): the hands, the envelope,
    and the cards shown to others, each the first card of the suggestion its refuter holds
    in that deal."""
    seats = state.rules.seats
    n_cards = state.rules.deck.n_cards
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
