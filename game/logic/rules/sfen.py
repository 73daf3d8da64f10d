"""SFEN, shogi's position text, read and written for a described game that declares
``(notation (position sfen))``: ``lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b
- 1``.

The board row by row from the top as it is drawn (shogi's rank a, files 9 to 1 left to
right), each piece by its ``(letter ..)`` (``+P`` for a promoted pawn), upper case for the
first player's (Black, sente), a digit for a run of empty squares; then ``b`` or ``w`` for
the side to move (the first or the second player); the pieces in hand (``-`` for none; a
count before a letter when there are several, the first player's upper case, each
player's by value, highest first: ``R2Pb``); and the move number, counted in plies from 1.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from game.logic.contract import NotationError
from game.logic.rules import placement
from game.logic.rules.position import DescribedPosition

if TYPE_CHECKING:
    from game.logic.rules.rulebook import Rulebook

__all__ = ["sfen_read", "sfen_text"]

_PIECE = re.compile(r"\+?[A-Za-z]|[0-9]+")
_HAND = re.compile(r"([0-9]*)(\+?[A-Za-z])")


def sfen_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    """``pos`` as SFEN."""
    player = rulebook.player(pos)
    hand = ""
    pieces = rulebook.design.pieces
    for owner, row in enumerate(pos.hands[:2]):
        for t in sorted(range(len(row)), key=lambda t: -pieces[t].value):
            if row[t]:
                hand += (str(row[t]) if row[t] > 1 else "") + placement.letter(rulebook, t, owner)
    return f"{placement.rows_text(rulebook, pos)} {'bw'[player]} {hand or '-'} {pos.plies + 1}"


def sfen_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    """The position an SFEN gives; NotationError says what is wrong."""
    fields = text.split()
    if not 2 <= len(fields) <= 4:
        raise NotationError("an SFEN is the board, the side to move, the hands and the move number")
    grid = placement.grid(rulebook)[0]
    rows = fields[0].split("/")
    if len(rows) != len(grid):
        raise NotationError(
            f"an SFEN board needs {len(grid)} rows separated by '/', not {len(rows)}"
        )
    letters = placement.letters(rulebook)
    c = rulebook.c
    board = [0] * rulebook.n
    for r, row in enumerate(rows):
        col = 0
        for token in _PIECE.findall(row):
            if token.isdigit():
                col += int(token)
                continue
            kind = letters.get(token.upper())
            if kind is None:
                raise NotationError(f"unknown piece {token!r} in row {r + 1} of the SFEN")
            if col >= len(grid[r]):
                raise NotationError(f"row {r + 1} of the SFEN is too long")
            board[grid[r][col]] = c.code(0 if token[-1].isupper() else 1, kind)
            col += 1
        if "".join(_PIECE.findall(row)) != row:
            raise NotationError(f"row {r + 1} of the SFEN holds something that is not a piece")
        if col != len(grid[r]):
            raise NotationError(f"row {r + 1} of the SFEN has {col} squares, not {len(grid[r])}")
    if fields[1] not in ("b", "w"):
        raise NotationError("the side to move is b (the first player) or w (the second)")
    player = "bw".index(fields[1])
    hands = [list(row) for row in rulebook.start().hands]
    given = fields[2] if len(fields) > 2 else "-"
    if given != "-":
        if not hands or "".join(m.group(0) for m in _HAND.finditer(given)) != given:
            raise NotationError(f"the pieces in hand {given!r} are counts and piece letters")
        for count, token in _HAND.findall(given):
            kind = letters.get(token.upper())
            if kind is None:
                raise NotationError(f"unknown piece {token!r} in hand")
            hands[0 if token[-1].isupper() else 1][kind] += int(count or 1)
    pos = DescribedPosition(board, rulebook.design.turn_order.index(player))
    pos.hands = tuple(tuple(row) for row in hands)
    if len(fields) > 3:
        if not fields[3].isdigit() or int(fields[3]) < 1:
            raise NotationError("the move number is a whole number from 1")
        pos.plies = int(fields[3]) - 1
    pos.history = (rulebook.key(pos),) if rulebook.repetition else ()
    return pos
