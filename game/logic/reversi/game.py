"""Reversi as a :class:`~game.logic.contract.Game`: two seats, Black (0) and White (1).

The states are :class:`~game.logic.reversi.board.Position` values. A side with no legal move
must pass: :meth:`ReversiGame.forced_action` names that pass, so a
:class:`~game.logic.match.Match` plays it by itself. ``returns()`` is +1 for the side with
more discs at the end, -1 for the other, 0 each for a draw.

>>> import random
>>> game = ReversiGame()
>>> start = game.initial_state(random.Random(0))
>>> game.seat_name(start.current_player()), game.forced_action(start)
('Black', None)
>>> over = Position.from_text("X" * 40 + "O" * 24 + " O")
>>> game.result_text(over)
'Black wins 40–24.'
>>> len(game.tournament_start(random.Random(1)).legal_moves()) > 0
True
"""

from __future__ import annotations

import random
from typing import Any, Final

from game.logic.contract import Game, State
from game.logic.options import Option, OptionsSchema

from . import LEVELS
from .board import PASS, Color, Move, Position

__all__ = [
    "DEFAULT_HINT",
    "HUMAN",
    "OPENING_PLIES",
    "OPTIONS",
    "SEAT_COLORS",
    "SIDES",
    "ReversiGame",
]

#: The side value that seats a person.
HUMAN: Final = "human"
#: The level that answers the hint when no computer plays (the strongest).
DEFAULT_HINT: Final = "master"
#: What each colour can be, in the order the side buttons cycle through.
SIDES: Final = (HUMAN, *LEVELS)
#: Who plays each colour and how long the computer thinks.
OPTIONS: Final = OptionsSchema(
    (
        Option("black", str, HUMAN, choices=SIDES, help="who plays black: human or a level"),
        Option("white", str, "intermediate", choices=SIDES, help="who plays white"),
        Option(
            "time_per_move",
            float,
            1.0,
            minimum=0.01,
            maximum=3600.0,
            step=0.5,
            help="the computer's seconds for a move",
        ),
    )
)

#: The colour of each seat: seat 0 is Black, who moves first.
SEAT_COLORS: Final = (Color.BLACK, Color.WHITE)
#: The fewest and the most random plies of a tournament game's opening.
OPENING_PLIES: Final = (2, 6)


class ReversiGame(Game[Move]):
    """The standard game from the standard start (d4 and e5 white, e4 and d5 black)."""

    id = "reversi"
    title = "Reversi"
    seats = 2
    returns_sum = 0.0

    def initial_state(self, rng: random.Random) -> Position:
        return Position.start()

    def tournament_start(self, rng: random.Random) -> Position:
        """The start after 2 to 6 random legal plies drawn from ``rng``, so agents that choose
        deterministically still meet varied positions."""
        position = Position.start()
        for _ in range(rng.randint(*OPENING_PLIES)):
            position = position.apply(rng.choice(position.legal_moves()))
        return position

    def forced_action(self, state: State[Move]) -> Move | None:
        """:data:`PASS` when it is the only legal move, else None."""
        return PASS if list(state.legal_actions()) == [PASS] else None

    def result_text(self, state: State[Any]) -> str:
        """``"Black wins 40–24."`` or ``"Draw, 32–32."`` (the discs on the board)."""
        position = _position(state)
        black, white = position.disc_count()
        if black == white:
            return f"Draw, {black}–{white}."
        winner = "Black" if black > white else "White"
        return f"{winner} wins {max(black, white)}–{min(black, white)}."

    def seat_name(self, seat: int) -> str:
        return SEAT_COLORS[seat].name.title() if 0 <= seat < 2 else f"seat {seat}"


def _position(state: State[Any]) -> Position:
    if not isinstance(state, Position):
        raise TypeError(f"a Reversi state is a Position, not {type(state).__name__}")
    return state
