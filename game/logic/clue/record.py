"""The case file: one seat's view of a Cluedo game as text a person can read and type.

A case file has a header (the deck, the seats, the hand sizes or the dealer, your seat and
hand) and then one event a line, in the order they happened. Seats are numbers from 0; card
names may be shortened as long as they name one card; ``#`` starts a comment. :data:`EXAMPLE`
is one.

``showed 3`` without a card is a refutation you did not see; ``passed`` lists the seats that
held none of the cards, in the order they were asked (clockwise from the suggester's left).
``hands 5 5 4 4`` may stand for ``dealer``; without ``me`` and ``hand`` the file is the public
view. :func:`loads` raises :class:`RecordError` naming the line.

>>> view = loads(EXAMPLE)
>>> view.seat, len(view.hand), len(view.events)
(0, 5, 3)
>>> loads(dumps(view)) == view
True
"""

from __future__ import annotations

from typing import Final

from game.logic.clue.deck import Deck, DeckError, hand_sizes, load_deck
from game.logic.clue.events import Accusation, Event, Suggestion, View, answers_problem
from game.logic.clue.rules import MAX_SEATS, MIN_SEATS
from game.logic.numbers import parse_whole
from game.logic.quoting import excerpt

__all__ = ["EXAMPLE", "HEADER", "RecordError", "dumps", "event_line", "loads", "parse_event"]

HEADER: Final = "# gamehall clue case file"

EXAMPLE: Final = """# gamehall clue case file
deck classic
seats 4
dealer 3
me 0
hand Miss Scarlett, Colonel Mustard, Candlestick, Kitchen, Ballroom
suggest 1: Plum, Rope, Hall; passed 2; showed 3
suggest 0: Plum, Rope, Study; passed 1, 2; showed 3: Rope
accuse 2: Plum, Dagger, Study; wrong
"""


class RecordError(ValueError):
    """A case file line that cannot be read; ``line`` is its number (from 1)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def dumps(view: View) -> str:
    """The case file of ``view``."""
    lines = [HEADER, f"deck {view.deck.id}", f"seats {view.seats}"]
    lines.append("hands " + " ".join(map(str, view.hand_sizes)))
    if view.seat is not None:
        lines.append(f"me {view.seat}")
        lines.append("hand " + ", ".join(view.deck.name(c) for c in view.hand))
    lines += [event_line(view.deck, e) for e in view.events]
    return "\n".join(lines) + "\n"


def event_line(deck: Deck, event: Event) -> str:
    """One event as a case file line."""
    cards = deck.triple_text(event.cards)
    if isinstance(event, Accusation):
        return f"accuse {event.seat}: {cards}; {'right' if event.correct else 'wrong'}"
    parts = [f"suggest {event.seat}: {cards}"]
    if event.passed:
        parts.append("passed " + ", ".join(map(str, event.passed)))
    if event.refuter is not None:
        shown = f": {deck.name(event.shown)}" if event.shown is not None else ""
        parts.append(f"showed {event.refuter}{shown}")
    return "; ".join(parts)


def loads(text: str) -> View:
    """The view a case file holds; raises :class:`RecordError` naming the line."""
    deck: Deck | None = None
    seats: int | None = None
    sizes: tuple[int, ...] | None = None
    me: int | None = None
    hand: tuple[int, ...] = ()
    events: list[Event] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        try:
            if word == "deck":
                deck = load_deck(rest)
            elif word == "seats":
                seats = _number(rest, MIN_SEATS, MAX_SEATS, "seats")
            elif word in ("suggest", "accuse"):
                if deck is None or seats is None or sizes is None:
                    raise ValueError("the deck, seats and hands (or dealer) come first")
                events.append(parse_event(deck, seats, line))
            elif deck is None or seats is None:
                raise ValueError(f"{excerpt(word)}: the deck and the seats come first")
            elif word == "dealer":
                dealer = _number(rest, 0, seats - 1, "dealer")
                sizes = hand_sizes(seats, deck.n_cards - len(deck.categories), dealer)
            elif word == "hands":
                sizes = _sizes(rest, seats, deck)
            elif word == "me":
                me = _number(rest, 0, seats - 1, "me")
            elif word == "hand":
                hand = tuple(sorted(deck.card(p) for p in rest.split(",") if p.strip()))
                if len(set(hand)) != len(hand):
                    raise ValueError("a card appears twice in the hand")
            else:
                raise ValueError(f"{excerpt(word)} is not a case file word (deck, seats, dealer, "
                                 "hands, me, hand, suggest, accuse)")  # fmt: skip
        except ValueError as exc:
            raise RecordError(number, str(exc)) from None
    if deck is None or seats is None or sizes is None:
        raise RecordError(0, "a case file needs deck, seats and hands (or dealer) lines")
    if me is not None and len(hand) != sizes[me]:
        raise RecordError(0, f"seat {me} holds {sizes[me]} cards; the hand names {len(hand)}")
    if me is None and hand:
        raise RecordError(0, "a hand needs a 'me' line saying whose it is")
    return View(deck, sizes, me, hand, tuple(events))


def parse_event(deck: Deck, seats: int, line: str) -> Event:
    """One ``suggest`` or ``accuse`` line; raises ValueError saying what is wrong."""
    word, _, rest = line.strip().partition(" ")
    head, _, tail = rest.partition(":")
    seat = _number(head, 0, seats - 1, "the seat")
    clauses = [c.strip() for c in tail.split(";")]
    try:
        cards = deck.triple(clauses[0])
    except DeckError as exc:
        raise ValueError(str(exc)) from None
    if word.lower() == "accuse":
        verdict = clauses[1].lower() if len(clauses) == 2 else ""
        if verdict not in ("right", "wrong"):
            raise ValueError("an accusation ends with '; right' or '; wrong'")
        return Accusation(seat, cards, verdict == "right")
    passed: tuple[int, ...] = ()
    refuter: int | None = None
    shown: int | None = None
    for clause in clauses[1:]:
        key, _, value = clause.partition(" ")
        if key == "passed" and not passed and refuter is None:
            passed = tuple(_number(p, 0, seats - 1, "a passer") for p in value.split(","))
        elif key == "showed" and refuter is None:
            who, _, card = value.partition(":")
            refuter = _number(who, 0, seats - 1, "the refuter")
            if card.strip():
                shown = deck.card(card)
                if shown not in cards:
                    raise ValueError(f"{deck.name(shown)} is not one of the three named")
        else:
            raise ValueError(
                f"{excerpt(clause)}: expected 'passed SEATS' then 'showed SEAT[: CARD]'"
            )
    event = Suggestion(seat, cards, passed, refuter, shown)
    problem = answers_problem(event, seats)
    if problem:
        raise ValueError(problem)
    return event


def _number(text: str, low: int, high: int, what: str) -> int:
    """A number of the case file (ASCII digits only: see :mod:`game.logic.numbers`)."""
    value = parse_whole(text)
    if value is None:
        raise ValueError(f"{what} must be a number, not {excerpt(text.strip())}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low}..{high}, not {value}")
    return value


def _sizes(text: str, seats: int, deck: Deck) -> tuple[int, ...]:
    sizes = tuple(_number(p, 0, deck.n_cards, "a hand size") for p in text.split())
    dealt = deck.n_cards - len(deck.categories)
    if len(sizes) != seats or sum(sizes) != dealt:
        raise ValueError(f"hands: {seats} sizes adding up to {dealt}, not {excerpt(text)}")
    return sizes
