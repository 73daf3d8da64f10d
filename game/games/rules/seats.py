"""Who can sit at a described game's side: a person, or an agent of
:mod:`game.logic.rules.agents`; read by the entry's options, the scene's buttons and
``gamehall solve``'s ``--agent``. And the computer's time (:data:`TIME_PER_MOVE`)."""

from __future__ import annotations

from typing import Final

from game.logic.options import Option

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
#: The options naming who plays each seat, in seat order (a game has as many as players).
SEAT_OPTIONS: Final = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth", "eleventh", "twelfth",
)  # fmt: skip
#: The agent the hint and a computer side use unless the description names another.
HINT: Final = "master"
#: The computer's time: ``--time`` on ``play`` and ``shot`` (no flag of the schema's own).
TIME_PER_MOVE: Final = Option(
    "time_per_move", float, 1.0, minimum=0.05, maximum=600.0, step=0.5,
    help="the computer's seconds for a move", cli=False,
)  # fmt: skip
