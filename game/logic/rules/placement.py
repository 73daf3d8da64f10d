"""The board part of the position texts that write a board row by row (FEN, SFEN): the
positions by row and column, each piece type's letter, and the rows with a digit for a run of
empty squares (``rnbqkbnr/pppppppp/8/...``), upper case for the first player's pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.logic.rules.position import DescribedPosition
    from game.logic.rules.rulebook import Rulebook

__all__ = ["grid", "letter", "letters", "rows_text"]


def grid(rulebook: Rulebook) -> tuple[list[list[int]], int, int]:
    """Positions by (row from the top, column from the left), -1 where there is none; and
    the numbers of columns and of rows."""
    xy = rulebook.design.board.xy
    xs = sorted({round(x) for x, _ in xy})
    ys = sorted({round(y) for _, y in xy}, reverse=True)
    out = [[-1] * len(xs) for _ in ys]
    for i, (x, y) in enumerate(xy):
        out[ys.index(round(y))][xs.index(round(x))] = i
    return out, len(xs), len(ys)


def letters(rulebook: Rulebook) -> dict[str, int]:
    """Each piece type's letter (upper case; its name's first where it has none) -> type."""
    return {(p.letter or p.name[0]).upper(): t for t, p in enumerate(rulebook.design.pieces)}


def letter(rulebook: Rulebook, kind: int, player: int) -> str:
    """The letter of a piece of type ``kind``: upper case for the first player's."""
    piece = rulebook.design.pieces[kind]
    text = (piece.letter or piece.name[0]).upper()
    return text if player == 0 else text.lower()


def rows_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    """The board's rows from the top, ``/`` between them."""
    c = rulebook.c
    rows = []
    for squares in grid(rulebook)[0]:
        out, empty = "", 0
        for p in squares:
            v = pos.board[p] if p >= 0 else 0
            if not v:
                empty += 1
                continue
            if empty:
                out, empty = out + str(empty), 0
            out += letter(rulebook, c.kind_of[v], c.owner[v])
        rows.append(out + (str(empty) if empty else ""))
    return "/".join(rows)
