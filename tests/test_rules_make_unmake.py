"""make then unmake leaves a described game's position as it was, in every field.

The rulebook saves the position's fields in make and restores them in unmake (the board and the
stacks square by square): a field it forgot would show here as a position that differs.
"""

from __future__ import annotations

import random

import pytest

from game.logic.rules.catalogue import rulebook

# chess: castling and en passant fields, repetition keys; bashni: stacks; kalah: sowing
# (another turn), counters; nine men's morris: phases (turn jumps), pieces in hand.
GAMES = ("chess", "bashni", "kalah", "nine-mens-morris")


@pytest.mark.parametrize("game", GAMES)
def test_unmake_restores_every_field(game: str) -> None:
    e = rulebook(game)
    rng = random.Random(7)
    pos = e.start()
    for _ in range(24):
        moves = e.legal(pos)
        if not moves or e.outcome(pos, moves) is not None:
            break
        before = pos.copy()
        for move in moves:
            saved = e.make(pos, move)
            assert pos != before, f"{game}: {move} changed nothing (not even the plies)"
            e.unmake(pos, saved)
            assert pos == before, f"{game}: make/unmake of {move} left {pos} instead of {before}"
        e.make(pos, rng.choice(moves))
