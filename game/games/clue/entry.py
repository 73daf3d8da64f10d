"""Cluedo in the registry: its options and its computer detectives; its table scene, its
command line (:mod:`game.games.clue.hooks`: ``gamehall bench clue`` and the terminal game)
and its card's picture are where every game has them (:class:`game.registry.Entry`).

``play`` and ``shot`` take the options as flags (``--seats 6``, ``--deck quick``,
``--opponent article``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.logic.clue.game import OPTIONS, ClueGame
from game.registry import Entry


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    """A table of computer players, one per name (tournaments)."""
    return {"seats": len(agents), "human_playing": False}


ENTRY = Entry(
    make_game=ClueGame,
    summary="Deduce the envelope's three cards before the other detectives do.",
    options=OPTIONS,
    roster="game.logic.clue.roster",
    hint_agent="full",
    opponents=("opponent",),
    controller="open_table",
    seat_options=_seat_options,
    # The table's plain card faces, made while the menu shows (not in its first frame).
    ahead="game.games.clue.faces:paint_ahead",
)
