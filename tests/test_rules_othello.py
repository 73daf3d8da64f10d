"""Othello described as text agrees with the hand-written Reversi (game.logic.reversi): the
same perft, the same legal moves (by name) and resulting discs in 1,000 positions of random
games, and the same board: a1 in the top left corner as Black sees it, rank 1 at the top."""

from __future__ import annotations

import random

from game.logic.reversi.board import PASS as REVERSI_PASS
from game.logic.reversi.board import Position as ReversiPosition
from game.logic.reversi.board import parse_move, square_name
from game.logic.reversi.perft import perft as reversi_perft
from game.logic.rules.catalogue import rulebook
from game.logic.rules.notation import position_text, read_position


def _squares(e, moves: list) -> list[int]:  # type: ignore[no-untyped-def,type-arg]
    """The Reversi squares of described moves, matched by name (``d3``)."""
    names = e.design.board.names
    return sorted(REVERSI_PASS if not m[0] else parse_move(names[m[0][0]]) for m in moves)


def test_perft_agrees_with_the_hand_written_reversi() -> None:
    e = rulebook("othello")
    for depth in range(1, 7):
        assert e.perft(e.start(), depth) == reversi_perft(ReversiPosition.start(), depth)


def test_legal_moves_agree_in_a_thousand_random_positions() -> None:
    e = rulebook("othello")
    rng = random.Random(7)
    seen = 0
    while seen < 1000:
        pos = e.start()
        while True:
            theirs = ReversiPosition.from_text(position_text(e, pos))
            ours = e.legal(pos)
            assert _squares(e, ours) == sorted(theirs.legal_moves()), position_text(e, pos)
            seen += 1
            if not ours:
                break
            move = rng.choice(ours)
            e.make(pos, move)
            square = _squares(e, [move])[0]
            # The same discs afterwards, side to move included.
            assert position_text(e, pos).replace(" ", "") == theirs.apply(square).text()
            if seen >= 1000:
                break


def test_the_squares_notation_reads_back() -> None:
    e = rulebook("othello")
    text = "-" * 27 + "OX------XO" + "-" * 27 + " X"
    assert position_text(e, read_position(e, text)) == text


def test_the_board_stands_as_reversi_s_rank_1_at_the_top() -> None:
    """Once rank 1 along the near edge in Othello, the far edge in Reversi."""
    e = rulebook("othello")
    board = e.design.board
    top = max(y for _x, y in board.xy)
    left = min(x for x, _y in board.xy)
    assert board.names[board.xy.index((left, top))] == "a1"
    assert {square_name(sq) for sq in range(8)} == {
        n for n, (_x, y) in zip(board.names, board.xy, strict=True) if y == top
    }
