"""Cluedo's panel in the F3 overlay: the detective's notebook, a row per card and a column
per holder with the chance that the card is there (``yes``: certain, ``-``: impossible).
Imports imgui only when drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.logic.clue.notebook import Notebook

if TYPE_CHECKING:
    from game.controllers.clue import ClueController


def draw_notebook(controller: ClueController) -> None:
    """Fill the overlay's game panel (called only while the overlay is shown)."""
    from imgui_bundle import imgui

    state = controller.state
    seat = 0 if controller.human else -1
    book = Notebook.of(state.observation(seat))
    deck = state.rules.deck
    names = [controller.game.seat_name(s) for s in range(state.rules.seats)] + ["Envelope"]
    imgui.text("The notebook: the chance of each card being with each holder")
    flags = imgui.TableFlags_.borders.value | imgui.TableFlags_.row_bg.value
    if imgui.begin_table("notebook", len(names) + 1, flags):
        imgui.table_setup_column("card")
        for name in names:
            imgui.table_setup_column(name[:8])
        imgui.table_headers_row()
        for card in range(deck.n_cards):
            imgui.table_next_row()
            imgui.table_next_column()
            imgui.text(deck.name(card))
            for holder in range(len(names)):
                imgui.table_next_column()
                p = book.probability(card, holder)
                imgui.text("yes" if book.holder(card) == holder else "-" if p == 0 else f"{p:.0%}")
        imgui.end_table()
    best, chance = book.best_accusation()
    imgui.text(f"likeliest envelope: {deck.triple_text(best)} ({chance:.0%})")
