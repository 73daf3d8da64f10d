"""Cluedo's move list: the suggestions and accusations of the game, a row each, in the column
at the right of the table (the HUD's "list" group).

A row is short (``3. Boris: Plum, Rope, Hall; Chandra showed``): each card by the word of its
name that tells it from the others of the deck (:func:`short_names`). A click on a row says
the event in full in the banner (who passed, and the card shown when you saw it): the list is
read, not travelled. The game goes back only to your own decisions (Undo, Redo); a point
after another detective's suggestion is theirs to play, and jumping there would have the
computer play on at once and drop the rest of the record. In a window narrower than
:data:`LIST_ROOM` the list shows while the notebook is hidden (B).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from game.engine.commands import Command
from game.hall.match_controls import LIST_LENGTH
from game.logic.clue.deck import Deck
from game.logic.clue.events import Accusation, View, narrate

__all__ = ["LIST_ROOM", "event_list_commands", "event_rows", "short_names"]

#: The narrowest scene area (window units) that shows the docked notebook, the table and the
#: move list side by side (at 800 the table between them shrank to a sliver).
LIST_ROOM: Final = 1000


def short_names(deck: Deck) -> list[str]:
    """Each card's short name: the last word of its name ("Plum", "Pipe"), or the first when
    another card's name ends with the same word ("Dining", "Billiard"), or the whole name when
    that is not alone either.

    >>> from game.logic.clue.deck import load_deck
    >>> short = short_names(load_deck("classic"))
    >>> [short[c] for c in (0, 5, 8, 15, 16)]
    ['Scarlett', 'Plum', 'Pipe', 'Dining', 'Billiard']
    """
    names = [deck.name(card) for card in range(deck.n_cards)]
    last = [name.split()[-1] for name in names]
    short = [
        words[-1] if last.count(words[-1]) == 1 else words[0]
        for words in (name.split() for name in names)
    ]
    return [s if short.count(s) == 1 else name for s, name in zip(short, names, strict=True)]


def event_rows(view: View, names: Sequence[str]) -> list[tuple[str, str]]:
    """The rows of ``view``'s events: each ``(label, the event in full)``."""
    short = short_names(view.deck)
    rows = []
    for number, event in enumerate(view.events, 1):
        who = names[event.seat]
        cards = ", ".join(short[card] for card in event.cards)
        if isinstance(event, Accusation):
            label = f"{number}. {who} accused {cards}: {'right' if event.correct else 'wrong'}"
        elif event.refuter is None:
            label = f"{number}. {who}: {cards}; nobody showed"
        else:
            label = f"{number}. {who}: {cards}; {names[event.refuter]} showed"
        rows.append((label, narrate(event, view, list(names))))
    return rows


def event_list_commands(
    view: View, names: Sequence[str], say: Callable[[str], None]
) -> list[Command]:
    """A ``move-N`` command for each of the last :data:`LIST_LENGTH` events of ``view``,
    labelled by :func:`event_rows`, that calls ``say`` with the event in full."""
    rows = event_rows(view, names)
    first = len(rows) - min(len(rows), LIST_LENGTH)
    return [
        Command(
            f"move-{number}",
            lambda full=full: say(full),
            label,
            group="list",
            help="this suggestion or accusation in full",
        )
        for number, (label, full) in enumerate(rows[first:], first + 1)
    ]
