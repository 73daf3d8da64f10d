"""Priests and Devils in the registry: its options and its solver agent; its scene controller,
its command line (``gamehall solve river``, :mod:`game.games.river.hooks`) and its card's
picture are where every game has them (:class:`game.registry.Entry`)."""

from __future__ import annotations

from game.logic.river.game import OPTIONS, RiverGame, SolverAgent
from game.registry import Entry

ENTRY = Entry(
    make_game=RiverGame,
    summary="Ferry everyone across; devils must never outnumber priests.",
    options=OPTIONS,
    roster="game.logic.river.roster",
    hint_agent=SolverAgent.name,
    controller="RiverController",
)
