"""The cards of a Cluedo game: categories of named cards, and who gets how many in a deal.

Cards are ints ``0..n-1``, numbered category by category (the classic deck: suspects 0-5,
weapons 6-11, rooms 12-20). The decks and the detectives' names live in ``decks.toml`` beside
this module. A triple (in general, one card per category) is a tuple of card ids in category
order.

>>> deck = load_deck("classic")
>>> deck.n_cards, [len(c.cards) for c in deck.categories]
(21, [6, 6, 9])
>>> deck.card("lead pipe"), deck.name(8)
(8, 'Lead Pipe')
>>> deck.triple_text((0, 8, 12))
'Miss Scarlett, Lead Pipe, Kitchen'
>>> hand_sizes(4, 21 - 3, dealer=0)
(4, 5, 5, 4)
"""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeAlias

from game.logic.quoting import excerpt

__all__ = [
    "Card",
    "Category",
    "Deck",
    "DeckError",
    "Triple",
    "deck_names",
    "detectives",
    "hand_sizes",
    "load_deck",
]

Card: TypeAlias = int
#: One card per category, in category order.
Triple: TypeAlias = tuple[int, ...]

DECKS_FILE: Final = Path(__file__).with_name("decks.toml")


class DeckError(ValueError):
    """A deck that cannot be played, or a card name the deck does not have."""


@dataclass(frozen=True, slots=True)
class Category:
    """A named category (suspect, weapon, room) and its cards' names, in order."""

    name: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Deck:
    """The categories and their cards; ``title`` is a line for menus."""

    id: str
    title: str
    categories: tuple[Category, ...]

    def __post_init__(self) -> None:
        if not self.categories:
            raise DeckError(f"deck {self.id!r} has no categories")
        names: set[str] = set()
        for category in self.categories:
            if not category.cards:
                raise DeckError(f"deck {self.id!r}: category {category.name!r} has no cards")
            for card in category.cards:
                if not card.strip() or "," in card or "/" in card:
                    raise DeckError(f"deck {self.id!r}: bad card name {card!r}")
                if _fold(card) in names:
                    raise DeckError(f"deck {self.id!r}: card {card!r} appears twice")
                names.add(_fold(card))

    @property
    def n_cards(self) -> int:
        return sum(len(c.cards) for c in self.categories)

    @functools.cached_property
    def ranges(self) -> tuple[tuple[Card, ...], ...]:
        """The card ids of each category."""
        out = []
        start = 0
        for category in self.categories:
            out.append(tuple(range(start, start + len(category.cards))))
            start += len(category.cards)
        return tuple(out)

    @functools.cached_property
    def _names(self) -> tuple[str, ...]:
        return tuple(name for c in self.categories for name in c.cards)

    @functools.cached_property
    def _category_of(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.categories) for _ in c.cards)

    @functools.cached_property
    def _by_name(self) -> dict[str, Card]:
        return {_fold(name): card for card, name in enumerate(self._names)}

    def name(self, card: Card) -> str:
        return self._names[card]

    def category_of(self, card: Card) -> int:
        return self._category_of[card]

    def card(self, text: str) -> Card:
        """The card ``text`` names: its name in any case, or the start of exactly one name
        ("scar" is Miss Scarlett); raises :class:`DeckError` listing close names."""
        key = _fold(text)
        if key in self._by_name:
            return self._by_name[key]
        starts = [card for name, card in self._by_name.items() if key and name.startswith(key)]
        words = [
            card
            for name, card in self._by_name.items()
            if key and any(w.startswith(key) for w in name.split())
        ]
        for found in (starts, words):
            if len(found) == 1:
                return found[0]
        if starts or words:
            choices = ", ".join(self.name(c) for c in sorted(set(starts) | set(words)))
            raise DeckError(f"{excerpt(text.strip())} could be any of: {choices}")
        raise DeckError(f"no card named {excerpt(text.strip())} in the {self.id} deck")

    def triple(self, text: str) -> Triple:
        """One card per category from names separated by commas or slashes, in any order."""
        parts = [p for p in text.replace("/", ",").split(",") if p.strip()]
        if len(parts) != len(self.categories):
            raise DeckError(
                f"name {len(self.categories)} cards, one "
                f"{'/'.join(c.name for c in self.categories)}, separated by commas or "
                f"slashes: {excerpt(text)}"
            )
        cards = [self.card(p) for p in parts]
        by_category: dict[int, Card] = {}
        for card in cards:
            category = self.category_of(card)
            if category in by_category:
                raise DeckError(
                    f"{self.name(by_category[category])} and {self.name(card)} are both "
                    f"{self.categories[category].name}s; name one of each"
                )
            by_category[category] = card
        return tuple(by_category[i] for i in range(len(self.categories)))

    def triple_text(self, triple: Sequence[Card]) -> str:
        return ", ".join(self.name(c) for c in triple)

    def triples(self) -> Iterator[Triple]:
        """Every triple, in a fixed order (the first category varies slowest)."""
        return itertools.product(*self.ranges)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def hand_sizes(seats: int, cards: int, dealer: int) -> tuple[int, ...]:
    """How many of ``cards`` each seat gets when they are dealt one at a time clockwise,
    starting at the dealer's left: the first seats after the dealer get the extra ones."""
    if seats < 1:
        raise DeckError(f"a deal needs at least one seat, not {seats}")
    if not 0 <= dealer < seats:
        raise DeckError(f"dealer must be a seat 0..{seats - 1}, not {dealer}")
    sizes = [cards // seats] * seats
    for k in range(cards % seats):
        sizes[(dealer + 1 + k) % seats] += 1
    return tuple(sizes)


@functools.cache
def _data() -> dict[str, Any]:
    with DECKS_FILE.open("rb") as f:
        return tomllib.load(f)


def deck_names() -> tuple[str, ...]:
    """The decks ``decks.toml`` offers, in file order."""
    return tuple(_data()["decks"])


@functools.cache
def load_deck(name: str) -> Deck:
    """The deck called ``name`` in ``decks.toml``; raises :class:`DeckError` for another."""
    decks = _data()["decks"]
    if name not in decks:
        raise DeckError(f"no deck named {excerpt(name)}; the decks are: {', '.join(decks)}")
    table = decks[name]
    categories = tuple(
        Category(str(c["name"]), tuple(str(card) for card in c["cards"]))
        for c in table["categories"]
    )
    return Deck(name, str(table.get("title", name)), categories)


def detectives() -> tuple[str, ...]:
    """The names of the seats at the table, seat 0 first."""
    return tuple(str(n) for n in _data()["detectives"])
