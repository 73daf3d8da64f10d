"""Who can sit at a described game's side: a person, or an agent of
:mod:`game.logic.rules.agents`; read by the entry's options, the scene's buttons and
``gamehall solve``'s ``--agent``. And the computer's time (:data:`TIME_PER_MOVE`), and which
way the board turns to face the person (:func:`quarter_turns`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from game.logic.options import Option

if TYPE_CHECKING:
    from game.logic.rules.design import Design

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


def quarter_turns(design: Design, sides: Sequence[str]) -> int:
    """How many quarter turns show the board with the person's side nearest: one person
    plays (``sides``: who plays each seat), and their pieces start in the far half (2: Black
    in English draughts) or, with more than two players, at the right (1) or the left (3)."""
    people = [seat for seat, side in enumerate(sides) if side == HUMAN]
    placed = design.setup.get(people[0], []) if len(people) == 1 else []
    if not placed:
        return 0
    xy = design.board.xy
    every_x, every_y = [x for x, _ in xy], [y for _, y in xy]
    dx = sum(xy[p][0] for p, _ in placed) / len(placed) - (min(every_x) + max(every_x)) / 2
    dy = sum(xy[p][1] for p, _ in placed) / len(placed) - (min(every_y) + max(every_y)) / 2
    if len(design.players) > 2 and abs(dx) > abs(dy):
        return 1 if dx > 0 else 3
    return 2 if dy > 0 else 0
