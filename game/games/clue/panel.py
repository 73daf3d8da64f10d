"""Cluedo's notebook on screen: the sheet docked at the left of the table, its "why" answers,
and the same grid in the F3 overlay.

The sheet has a row per card (in category colours; click one to name it in your suggestion)
and a column per holder, you, each opponent and the envelope: a tick where the card is there
in every deal that agrees with what your seat saw, a dot where it is in none, else the chance
in percent on a shade that deepens with it. Clicking a cell says why: the events (or your
hand) that decide it, or that nothing does yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from game.engine.controller import Cell, Sheet
from game.logic.clue.deck import Deck
from game.logic.clue.events import View, narrate
from game.logic.clue.notebook import HAND, Notebook

if TYPE_CHECKING:
    from game.games.clue.controller import ClueController

__all__ = ["WORKING", "draw_notebook", "mark", "notebook_sheet", "waiting_sheet", "why_text"]

#: The notebook's first footer line while it is being worked out (in a window, on a thread).
WORKING = "Working out the notebook..."
#: The last footer line: what a click does.
CLICKS = "Click a card to name it, a cell to see why."

#: Category colours (text of the card rows; the card faces use the same hues).
CATEGORY_TEXT = ((255, 138, 128, 255), (140, 178, 255, 255), (128, 214, 140, 255))
HELD = (38, 120, 70, 255)
IN_ENVELOPE = (176, 128, 30, 255)
DIM = (112, 118, 130, 255)


def notebook_sheet(
    book: Notebook, names: list[str], chosen: tuple[int, ...], *, working: bool = False
) -> Sheet:
    """The sheet for ``book`` (``names``: the seats; ``chosen``: the cards your suggestion
    names now). ``working``: ``book`` is an earlier one, shown while the notebook of now is
    worked out (the first footer line says so)."""
    deck = book.view.deck
    env = book.envelope
    holders = [*names, "Env."]
    probs = book.probabilities
    rows: list[tuple[Cell, ...]] = []
    for card, label in _card_rows(deck, chosen, rows):
        cells = [label]
        certain = book.holder(card)
        name = deck.name(card)
        for h, holder_name in enumerate(holders):
            p = float(probs[card, h])
            where = "the envelope" if h == env else holder_name
            tip = f"{name} with {where}? Click for why."
            text = mark(book, card, h)
            if certain == h:
                fill = IN_ENVELOPE if h == env else HELD
                cells.append(Cell(text, f"why:{card}/{h}", fill, bold=True, tip=tip))
            elif p <= 0.0:
                cells.append(Cell(text, f"why:{card}/{h}", color=DIM, tip=tip))
            else:
                shade = (150, 110, 40, round(40 + 150 * p))
                cells.append(Cell(text, f"why:{card}/{h}", shade, tip=tip))
        rows.append(tuple(cells))
    solved = book.solution()
    if working:
        first = WORKING
    elif solved is not None:
        first = f"Solved: {deck.triple_text(solved)}"
    else:
        best, chance = book.best_accusation()
        first = f"Likeliest: {deck.triple_text(best)} ({chance:.0%})"
    return Sheet(TITLE, _header(holders, env), tuple(rows), (first, CLICKS))


def waiting_sheet(view: View, names: list[str], chosen: tuple[int, ...]) -> Sheet:
    """The sheet while the first notebook of a game is worked out: the same grid with what
    needs no deduction, your own cards (a tick in your column, a dot in the others) and a dot
    in your column for every other card, the other cells blank, and a first footer line that
    says it is being worked out."""
    deck = view.deck
    env = view.seats
    holders = [*names, "Env."]
    mine = set(view.hand)
    rows: list[tuple[Cell, ...]] = []
    for card, label in _card_rows(deck, chosen, rows):
        cells = [label]
        for h in range(len(holders)):
            tip = "Being worked out: click again in a moment."
            if card not in mine and h != view.seat:
                cells.append(Cell("", f"why:{card}/{h}", tip=tip))
            elif card in mine and h == view.seat:
                cells.append(Cell("✓", f"why:{card}/{h}", HELD, bold=True, tip=tip))
            else:
                cells.append(Cell("·", f"why:{card}/{h}", color=DIM, tip=tip))
        rows.append(tuple(cells))
    return Sheet(TITLE, _header(holders, env), tuple(rows), (WORKING, CLICKS))


TITLE = "Notebook  (B hides it)"


def _header(holders: list[str], env: int) -> tuple[Cell, ...]:
    return (
        Cell("Card"),
        *(
            Cell(_short(name), tip=f"the column of {name}" if h < env else "the envelope's column")
            for h, name in enumerate(holders)
        ),
    )


def _card_rows(
    deck: Deck, chosen: tuple[int, ...], rows: list[tuple[Cell, ...]]
) -> Iterator[tuple[int, Cell]]:
    """Each card with its row's first cell (its name: a click names it in your suggestion),
    a category's heading row appended to ``rows`` before its first card."""
    for k, (category, cards) in enumerate(zip(deck.categories, deck.ranges, strict=True)):
        rows.append((Cell(f"{category.name}s".upper()),))
        for card in cards:
            name = deck.name(card)
            picked = card in chosen
            yield (
                card,
                Cell(
                    ("▸ " if picked else "") + name,
                    command=f"choose:{card}",
                    color=CATEGORY_TEXT[k % len(CATEGORY_TEXT)],
                    bold=picked,
                    tip=f"Click to name {name} in your suggestion.",
                ),
            )


def why_text(book: Notebook, card: int, holder: int, names: list[str]) -> str:
    """Why ``card`` is (or is not) with ``holder``, in words: the events that decide it, or
    its chance when nothing does."""
    deck = book.view.deck
    name = deck.name(card)
    who = "the envelope" if holder == book.envelope else names[holder]
    reasons = book.why(card, holder)
    if not reasons:
        chance = book.probability(card, holder)
        where = f"{name} is in the envelope" if holder == book.envelope else f"{who} holds {name}"
        return (
            f"{where} in {chance:.0%} of the deals that agree with what you saw; "
            "nothing decides it yet."
        )
    held = book.holder(card) == holder
    if holder == book.envelope:
        verdict = f"{name} is {'' if held else 'not '}in the envelope"
    elif holder == book.view.seat:
        verdict = f"You {'hold' if held else 'do not hold'} {name}"
    else:
        verdict = f"{who} {'holds' if held else 'cannot hold'} {name}"
    parts = []
    for index in reasons:
        if index == HAND:
            parts.append("your hand")
        else:
            event = book.view.events[index]
            parts.append(f"event {index + 1} ({narrate(event, book.view, names).rstrip('.')})")
    return f"{verdict}: it follows from {_and(parts)}."


def draw_notebook(controller: ClueController) -> None:
    """The F3 overlay's game panel: the same grid as the sheet (only while it is shown)."""
    from imgui_bundle import imgui

    from game.engine.overlay_widgets import room

    book = controller.shown_notebook()
    if book is None:
        imgui.text(WORKING)
        return
    deck = book.view.deck
    names = [*controller.names(), "Envelope"]
    imgui.text("The notebook: the chance of each card being with each holder")
    # Columns as wide as their marks, headed by the holders' first letters (named in full
    # above), so the grid fits the overlay's column without clipping.
    heads = [name[:3] for name in names]
    if heads != names:
        imgui.text_disabled(", ".join(f"{h}: {n}" for h, n in zip(heads, names, strict=True)))
    flags = (
        imgui.TableFlags_.borders.value
        | imgui.TableFlags_.row_bg.value
        | imgui.TableFlags_.sizing_fixed_fit.value
    )
    cards = [deck.name(card) for card in range(deck.n_cards)]
    # The cards' names in full where the column has room for them, else shortened.
    pad = 2.0 * imgui.get_style().cell_padding.x + 1.0
    marks = max(imgui.calc_text_size(t).x for t in (*heads, ">99")) + pad
    needed = max(imgui.calc_text_size(c).x for c in cards) + pad + len(heads) * marks
    if needed > room():  # the overlay's column grows to fit the rest
        cards = [_short(c) for c in cards]
    if imgui.begin_table("notebook", len(names) + 1, flags):
        imgui.table_setup_column("card")
        for head in heads:
            imgui.table_setup_column(head)
        imgui.table_headers_row()
        for card in range(deck.n_cards):
            imgui.table_next_row()
            imgui.table_next_column()
            imgui.text(cards[card])
            for holder in range(len(names)):
                imgui.table_next_column()
                imgui.text(mark(book, card, holder))
        imgui.end_table()
    best, chance = book.best_accusation()
    imgui.text(f"likeliest envelope: {deck.triple_text(best)} ({chance:.0%})")


def _short(name: str) -> str:
    return name if len(name) <= 7 else name[:6] + "."


def mark(book: Notebook, card: int, holder: int) -> str:
    """A notebook cell: ✓ (there in every agreeing deal), · (in none), else the chance in
    percent."""
    if book.holder(card) == holder:
        return "✓"
    p = book.probability(card, holder)
    return "·" if p <= 0.0 else _percent(p)


def _percent(p: float) -> str:
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return f"{100 * p:.0f}"


def _and(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
