"""Othello described as text agrees with the hand-written Reversi (game.logic.reversi): the
same perft, and the same legal moves and resulting discs in 1,000 positions of random games."""

from __future__ import annotations

import random

from game.logic.reversi.board import PASS as REVERSI_PASS
from game.logic.reversi.board import Position as ReversiPosition
from game.logic.reversi.perft import perft as reversi_perft
from game.logic.rules.catalogue import engine
from game.logic.rules.notation import position_text, read_position


def _squares(moves: list) -> list[int]:  # type: ignore[type-arg]
    return sorted(REVERSI_PASS if not m[0] else m[0][0] for m in moves)


def test_perft_agrees_with_the_hand_written_reversi() -> None:
    e = engine("othello")
    for depth in range(1, 7):
        assert e.perft(e.start(), depth) == reversi_perft(ReversiPosition.start(), depth)


def test_legal_moves_agree_in_a_thousand_random_positions() -> None:
    e = engine("othello")
    rng = random.Random(7)
    seen = 0
    while seen < 1000:
        pos = e.start()
        while True:
            theirs = ReversiPosition.from_text(position_text(e, pos))
            ours = e.legal(pos)
            assert _squares(ours) == sorted(theirs.legal_moves()), position_text(e, pos)
            seen += 1
            if not ours:
                break
            move = rng.choice(ours)
            e.make(pos, move)
            square = REVERSI_PASS if not move[0] else move[0][0]
            # The same discs afterwards, side to move included.
            assert position_text(e, pos).replace(" ", "") == theirs.apply(square).text()
            if seen >= 1000:
                break


def test_the_squares_notation_reads_back() -> None:
    e = engine("othello")
    text = "-" * 27 + "OX------XO" + "-" * 27 + " X"
    assert position_text(e, read_position(e, text)) == text
