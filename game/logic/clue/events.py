"""What happens at a Cluedo table, as events, and what one seat sees of them.

The event log is the truth of a game: knowledge is computed from it, undo is replaying a
shorter log, and the assistant saves it as text. A :class:`Suggestion` holds the whole answer
round: who passed, who refuted and the card shown; an :class:`Accusation` says whether it was
right. A :class:`View` is one seat's picture of the game: its own hand, every hand's size, and
the events with the cards it was not shown left out (``shown`` is None while ``refuter`` is
set).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeAlias

from game.logic.clue.deck import Card, Deck, Triple

__all__ = [
    "Accusation",
    "Course",
    "Event",
    "Suggestion",
    "View",
    "answer_order",
    "answers_problem",
    "narrate",
    "seen_by",
]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """``seat`` named ``cards``; the seats in ``passed`` held none of them (in the order they
    were asked); ``refuter`` showed ``shown`` to the suggester (``shown`` None when hidden
    from the viewer, ``refuter`` None when everyone passed)."""

    seat: int
    cards: Triple
    passed: tuple[int, ...] = ()
    refuter: int | None = None
    shown: Card | None = None


@dataclass(frozen=True, slots=True)
class Accusation:
    """``seat`` accused ``cards``; a wrong accuser is out of the game but still refutes."""

    seat: int
    cards: Triple
    correct: bool = False


Event: TypeAlias = Suggestion | Accusation


def answer_order(seat: int, seats: int) -> list[int]:
    """The seats asked about ``seat``'s suggestion at a table of ``seats``, in turn from its
    left."""
    return [(seat + k) % seats for k in range(1, seats)]


def answers_problem(event: Suggestion, seats: int) -> str:
    """What the rules forbid in the answers to ``event`` ("" when nothing): seats answering
    out of turn, nobody showing yet somebody not passing, a card shown by nobody or not one
    of the three."""
    order = answer_order(event.seat, seats)
    asked = [*event.passed, *(() if event.refuter is None else (event.refuter,))]
    if asked != order[: len(asked)]:
        return f"seats answer in turn from the suggester's left: {', '.join(map(str, order))}"
    if event.refuter is None and len(event.passed) != seats - 1:
        return "nobody showed a card, so every other seat must have passed"
    if event.shown is not None and event.refuter is None:
        return "a card was shown, yet nobody showed it"
    if event.shown is not None and event.shown not in event.cards:
        return "the card shown is not one of the three named"
    return ""


def seen_by(event: Event, seat: int | None) -> Event:
    """``event`` as ``seat`` sees it: the shown card only for the suggester and the refuter
    (None: the public view, which sees no shown card)."""
    if (
        isinstance(event, Suggestion)
        and event.shown is not None
        and seat not in (event.seat, event.refuter)
    ):
        return replace(event, shown=None)
    return event


@dataclass(frozen=True, slots=True)
class Course:
    """Where a game stands, as the whole table sees it: the dealer, the phase (its name),
    whose turn it is, the round, the suggestion being answered (``shown`` None, ``refuter``
    the seat asked now) and the winner."""

    dealer: int
    phase: str
    turn: int
    round: int
    asking: Suggestion | None = None
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What one seat knows of a game: the deck, every hand's size, its own hand and the
    events as it saw them, and where the game stands (``course``: None in a view made from
    events alone, a case file's). ``seat`` None is the public view (no hand, no shown
    card)."""

    deck: Deck
    hand_sizes: tuple[int, ...]
    seat: int | None
    hand: tuple[Card, ...]
    events: tuple[Event, ...]
    course: Course | None = None

    @property
    def seats(self) -> int:
        return len(self.hand_sizes)

    def out(self) -> frozenset[int]:
        """The seats that accused wrongly."""
        return frozenset(e.seat for e in self.events if isinstance(e, Accusation) and not e.correct)


def narrate(event: Event, view: View, names: list[str]) -> str:
    """The event in words, as ``view``'s seat saw it (the shown card only when it was
    shown to that seat or by it)."""
    deck = view.deck
    who = names[event.seat]
    s = "" if event.seat == view.seat else "s"
    cards = deck.triple_text(event.cards)
    if isinstance(event, Accusation):
        verdict = "right!" if event.correct else "wrong: out of the game (still shows cards)"
        return f"{who} accuse{s} {cards}: {verdict}"
    parts = [f"{who} suggest{s} {cards}."]
    if event.passed:
        parts.append(", ".join(names[p] for p in event.passed) + " passed.")
    if event.refuter is None:
        parts.append("Nobody showed a card.")
    elif event.shown is not None and event.refuter == view.seat:
        parts.append(f"You showed {deck.name(event.shown)}.")
    elif event.shown is not None:
        parts.append(f"{names[event.refuter]} showed you {deck.name(event.shown)}.")
    else:
        parts.append(f"{names[event.refuter]} showed a card.")
    return " ".join(parts)
