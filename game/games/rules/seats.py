"""Who can sit at a described game's side: a person, or an agent of
:mod:`game.logic.rules.agents`; read by the entry's options, the scene's buttons and
``gamehall solve``'s ``--agent``."""

from __future__ import annotations

from typing import Final

HUMAN: Final = "human"
#: Who can play a side: a person, the levels weakest first (the registry adds every game's
#: agents, :mod:`game.logic.search.agents`), and ``uct``, the older name of ``mcts``, which
#: saved settings may hold (accepted, not offered: :meth:`game.registry.Entry.seat_choices`).
SIDES: Final = (
    HUMAN,
    "beginner",
    "intermediate",
    "advanced",
    "master",
    "uct",
)
#: The agent the hint and a computer side use unless the description names another.
HINT: Final = "master"
