"""A suggestion at a real table, entered one answer at a time (the assistant's draft).

The seats to the suggester's left answer in turn: each passes, or shows a card. The draft
knows whose answer comes next and becomes an event when somebody shows a card or every
other seat has passed. When the viewer suggested, a seat that showed a card waits in
``refuter`` until the viewer names the card.

>>> draft = Draft(4, 1, (0, 6, 12))
>>> draft.asked(), draft.passing().asked()
(2, 3)
>>> draft.passing().passing().passing().complete()
Suggestion(seat=1, cards=(0, 6, 12), passed=(2, 3, 0), refuter=None, shown=None)
>>> draft.passing().showing().complete()
Suggestion(seat=1, cards=(0, 6, 12), passed=(2,), refuter=3, shown=None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from game.logic.clue.deck import Card
from game.logic.clue.events import Suggestion, answer_order

__all__ = ["Draft"]


@dataclass(frozen=True, slots=True)
class Draft:
    """``seat`` suggests ``cards`` at a table of ``seats``; ``passed`` so far, and the
    ``refuter`` whose card the viewer has still to name."""

    seats: int
    seat: int
    cards: tuple[Card, ...]
    passed: tuple[int, ...] = ()
    refuter: int | None = None

    @property
    def answering(self) -> bool:
        """Whether answers are being entered."""
        return bool(self.passed) or self.refuter is not None

    def order(self) -> list[int]:
        """The seats asked, in turn from the suggester's left."""
        return answer_order(self.seat, self.seats)

    def asked(self) -> int | None:
        """The seat whose answer comes next (None: the viewer is to name a card shown)."""
        if self.refuter is not None:
            return None
        order = self.order()
        return order[len(self.passed)] if len(self.passed) < len(order) else None

    def passing(self) -> Draft:
        """The seat asked passed."""
        seat = self.asked()
        if seat is None:
            raise ValueError("nobody is to answer now")
        return replace(self, passed=(*self.passed, seat))

    def showing(self) -> Draft:
        """The seat asked showed a card (:meth:`complete` names it when the viewer saw it)."""
        seat = self.asked()
        if seat is None:
            raise ValueError("nobody is to answer now")
        return replace(self, refuter=seat)

    def complete(self, shown: Card | None = None) -> Suggestion | None:
        """The event, when the answers are all in: a card shown (``shown``: which, when the
        viewer saw it), or every other seat passed; else None."""
        if self.refuter is not None:
            return Suggestion(self.seat, self.cards, self.passed, self.refuter, shown)
        if len(self.passed) == self.seats - 1:
            return Suggestion(self.seat, self.cards, self.passed)
        return None

    def back(self) -> Draft:
        """Without the last answer."""
        if self.refuter is not None:
            return replace(self, refuter=None)
        return replace(self, passed=self.passed[:-1])
