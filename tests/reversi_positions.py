"""Reversi positions made by random play, shared by the search and solver tests."""

from __future__ import annotations

import random

from game.logic.reversi.board import PASS, Position


def random_position(rng: random.Random, plies: int) -> Position:
    """A position after ``plies`` random moves that is not over and not a forced pass."""
    while True:
        position = Position.start()
        for _ in range(plies):
            if position.is_terminal():
                break
            position = position.apply(rng.choice(position.legal_moves()))
        if not position.is_terminal() and position.legal_moves() != [PASS]:
            return position


def played(seed: int, empties: int) -> Position:
    """A position from random play with ``empties`` empty squares (or the game's end)."""
    rng = random.Random(seed)
    position = Position.start()
    while position.empties > empties and position.legal_moves():
        position = position.apply(rng.choice(position.legal_moves()))
    return position
