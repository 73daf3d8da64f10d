"""Standard algebraic notation (SAN) for the described games that declare ``(notation (moves
san))``: chess's short move text, ``e4``, ``Nf3``, ``exd5``, ``Rad1``, ``e8=Q``, ``O-O``, with
``+`` after a move that gives check and ``#`` after one that mates.

It is worked out from the description alone: a piece's letter is its ``(letter ..)`` (a
pawn's is empty), a capture is a move that takes a piece, a promotion is a move whose piece
ends as another type, castling is a move that also carries another piece of the mover's (the
rook; ``O-O`` when that piece started in the nearer half of the row, else ``O-O-O``), and a
move is told apart from another of the same piece type to the same square by its starting
column, else its row, else both. A position's column and row are the parts of its name it
shares with the positions in the same column and row (``e`` and ``4`` of ``e4``).

Drops and passes keep their path text (:mod:`game.logic.rules.notation`).
"""

from __future__ import annotations

from collections.abc import Sequence

from game.logic.rules.board import Board
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook

__all__ = ["san_suffix", "san_texts", "strip_suffix"]


def san_texts(
    rulebook: Rulebook, pos: DescribedPosition, moves: Sequence[Move], paths: Sequence[str]
) -> list[str]:
    """The SAN of each of ``moves`` (the legal moves of ``pos``), without the check mark;
    ``paths`` are their path texts, kept for drops and passes."""
    board = rulebook.design.board
    columns, rows = _columns_and_rows(board)
    c = rulebook.c
    b = pos.board
    kinds = [c.kind_of[b[m[0][0]]] if len(m[0]) > 1 else -1 for m in moves]
    texts = []
    for i, move in enumerate(moves):
        path, caps, effects, _pid = move
        if len(path) < 2:
            texts.append(paths[i])
            continue
        origin, target = path[0], path[-1]
        castle = _castle(rulebook, pos, move)
        if castle:
            texts.append(castle)
            continue
        piece = rulebook.design.pieces[kinds[i]]
        letter = piece.letter
        rivals = [
            m[0][0]
            for j, m in enumerate(moves)
            if j != i
            and kinds[j] == kinds[i]
            and len(m[0]) > 1
            and m[0][-1] == target
            and m[0][0] != origin
            and not _castle(rulebook, pos, m)
        ]
        where = ""
        if letter and rivals:
            if all(columns[r] != columns[origin] for r in rivals):
                where = columns[origin]
            elif all(rows[r] != rows[origin] for r in rivals):
                where = rows[origin]
            else:
                where = board.names[origin]
        elif not letter and (caps or any(columns[r] != columns[origin] for r in rivals)):
            # A pawn's capture names the column it leaves, and so does a move that a pawn of
            # another column could make too (a described game whose pawns move so).
            where = columns[origin]
        text = f"{letter}{where}{'x' if caps else ''}{board.names[target]}"
        final = [v for p, v, *_ in effects if p == target]
        if final and final[-1] and c.kind_of[final[-1]] != kinds[i]:
            text += "=" + (rulebook.design.pieces[c.kind_of[final[-1]]].letter or "?")
        texts.append(text)
    return texts


def san_suffix(rulebook: Rulebook, pos: DescribedPosition, move: Move) -> str:
    """``+`` when ``move`` leaves the next player in check, ``#`` when also without a legal
    move, else ""."""
    if not rulebook.design.royal or not move[0]:
        return ""
    after = pos.copy()
    rulebook.make(after, move)
    if not rulebook.in_check(after):
        return ""
    return "+" if rulebook.legal(after) else "#"


def strip_suffix(text: str) -> str:
    """``text`` without the marks SAN may end with (``+``, ``#``, ``!``, ``?``), castling's
    zeros read as letters (``0-0``)."""
    text = text.strip().rstrip("+#!?")
    if text.replace("0", "O") in ("O-O", "O-O-O"):
        return text.replace("0", "O")
    return text


def _castle(rulebook: Rulebook, pos: DescribedPosition, move: Move) -> str:
    """``O-O`` or ``O-O-O`` when ``move`` also carries another piece of the mover's, else
    ""."""
    path, _caps, effects, _pid = move
    if len(path) < 2:
        return ""
    owner = rulebook.c.owner
    mover = owner[pos.board[path[0]]]
    placed = [p for p, v, *_ in effects if v and p not in path and owner[v] == mover]
    if not placed:
        return ""
    emptied = [p for p, v, *_ in effects if not v and p not in path and pos.board[p]]
    if not emptied:
        return ""
    xy = rulebook.design.board.xy
    width = max(x for x, _y in xy) - min(x for x, _y in xy) + 1
    near = abs(xy[emptied[0]][0] - xy[path[0]][0]) < width / 2
    return "O-O" if near else "O-O-O"


def _columns_and_rows(board: Board) -> tuple[list[str], list[str]]:
    """Each position's column and row as written in its name (see the module docstring);
    the whole name where the names share nothing."""
    by_x: dict[float, list[str]] = {}
    by_y: dict[float, list[str]] = {}
    for name, (x, y) in zip(board.names, board.xy, strict=True):
        by_x.setdefault(x, []).append(name)
        by_y.setdefault(y, []).append(name)
    column = {x: _common(names, prefix=True) for x, names in by_x.items()}
    row = {y: _common(names, prefix=False) for y, names in by_y.items()}
    columns = [column[x] or n for n, (x, _y) in zip(board.names, board.xy, strict=True)]
    rows = [row[y] or n for n, (_x, y) in zip(board.names, board.xy, strict=True)]
    return columns, rows


def _common(names: list[str], *, prefix: bool) -> str:
    """The longest start (or end) all of ``names`` share; "" for a single name, which shares
    it all and so tells nothing."""
    if len(names) < 2:
        return ""
    words = names if prefix else [n[::-1] for n in names]
    shared = ""
    for chars in zip(*words, strict=False):
        if len(set(chars)) != 1:
            break
        shared += chars[0]
    return shared if prefix else shared[::-1]
