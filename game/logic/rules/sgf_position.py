"""Positions of a square board of stones in SGF's setup properties (Go's record format):
``SZ[9]AB[dd][de]AW[ee]PL[W]``. ``AB`` and ``AW`` list the first and second player's stones,
``PL`` the player to move (B or W), ``SZ`` the board's size; a point is two letters, its
column then its row, ``a`` at the top left as SGF counts (``aa`` is the top-left corner,
``ai`` the bottom-left one of a 9 x 9 board). Enclosing ``(;`` ``)`` and other properties of
an SGF root node are allowed and ignored when read.

>>> split_properties("(;SZ[9]AB[dd][de]AW[ee]PL[W])")
[('SZ', ['9']), ('AB', ['dd', 'de']), ('AW', ['ee']), ('PL', ['W'])]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from game.logic.contract import NotationError
from game.logic.rules.position import DescribedPosition

if TYPE_CHECKING:
    from game.logic.rules.rulebook import Rulebook

__all__ = ["point_name", "sgf_point", "sgf_read", "sgf_text", "split_properties"]

_PROPERTY: Final = re.compile(r"\s*([A-Z]{1,2})((?:\s*\[[^\]]*\])+)")
_VALUE: Final = re.compile(r"\[([^\]]*)\]")


def split_properties(text: str) -> list[tuple[str, list[str]]]:
    """The properties of one SGF node, in order, with their values; raises NotationError for
    text that is not ``NAME[value]...``."""
    body = text.strip()
    if body.startswith("("):
        body = body[1:].rstrip()
        if not body.endswith(")"):
            raise NotationError("an SGF position that opens with ( closes with )")
        body = body[:-1]
    body = body.strip().removeprefix(";")
    out = []
    at = 0
    while at < len(body.rstrip()):
        found = _PROPERTY.match(body, at)
        if not found:
            raise NotationError(f"SGF expects NAME[value] at {body[at : at + 12].strip()!r}")
        out.append((found.group(1), _VALUE.findall(found.group(2))))
        at = found.end()
    return out


def _size(rulebook: Rulebook) -> tuple[int, dict[tuple[int, int], int]]:
    """The board's side and its positions by (column, row from the top)."""
    xy = rulebook.design.board.xy
    xs = sorted({round(x) for x, _ in xy})
    ys = sorted({round(y) for _, y in xy}, reverse=True)
    if len(xs) != len(ys) or len(xs) > 26:
        raise NotationError("SGF positions need a square board of at most 26 lines")
    at = {(xs.index(round(x)), ys.index(round(y))): p for p, (x, y) in enumerate(xy)}
    return len(xs), at


def sgf_point(rulebook: Rulebook, p: int) -> str:
    """Position ``p`` as SGF's two letters."""
    _, at = _size(rulebook)
    for (x, y), q in at.items():
        if q == p:
            return chr(97 + x) + chr(97 + y)
    raise NotationError(f"position {p} is not on the board")  # pragma: no cover


def point_name(rulebook: Rulebook, point: str) -> int:
    """The position SGF's two letters name; raises NotationError off the board."""
    size, at = _size(rulebook)
    if len(point) != 2 or not point.isalpha() or not point.islower():
        raise NotationError(f"an SGF point is two lower-case letters, not {point!r}")
    found = at.get((ord(point[0]) - 97, ord(point[1]) - 97))
    if found is None:
        raise NotationError(f"the point {point!r} is off the {size} x {size} board")
    return found


def sgf_text(rulebook: Rulebook, pos: DescribedPosition) -> str:
    """``pos`` as ``SZ[N]AB[..]..AW[..]..PL[B|W]`` (each player's stones in board order)."""
    size, at = _size(rulebook)
    names = {p: chr(97 + x) + chr(97 + y) for (x, y), p in at.items()}
    stones: list[list[str]] = [[], []]
    owner = rulebook.c.owner
    for p in sorted(names, key=lambda q: names[q][::-1]):
        v = pos.board[p]
        if v:
            stones[owner[v]].append(names[p])
    text = f"SZ[{size}]"
    for tag, points in zip(("AB", "AW"), stones, strict=True):
        if points:
            text += tag + "".join(f"[{q}]" for q in points)
    return text + f"PL[{'BW'[rulebook.player(pos)]}]"


def sgf_read(rulebook: Rulebook, text: str) -> DescribedPosition:
    """The position of SGF setup properties (see the module docstring); Black to move when
    ``PL`` is not given."""
    size, _ = _size(rulebook)
    board = [0] * rulebook.n
    player = 0
    for name, values in split_properties(text):
        if name == "SZ":
            if values != [str(size)]:
                raise NotationError(f"SZ{values} does not match this {size} x {size} board")
        elif name in ("AB", "AW", "AE"):
            for value in values:
                for point in _points(rulebook, value):
                    board[point] = 0 if name == "AE" else rulebook.c.code("BW".index(name[1]), 0)
        elif name == "PL":
            if len(values) != 1 or values[0].upper() not in ("B", "W"):
                raise NotationError("PL is [B] or [W]")
            player = "BW".index(values[0].upper())
    turn = rulebook.design.turn_order.index(player)
    return DescribedPosition(board, turn, hands=rulebook.start().hands)


def _points(rulebook: Rulebook, value: str) -> list[int]:
    """One point, or SGF's compressed rectangle ``aa:cc``."""
    if ":" not in value:
        return [point_name(rulebook, value)]
    a, b = value.split(":", 1)
    point_name(rulebook, a)
    point_name(rulebook, b)
    cols = range(min(ord(a[0]), ord(b[0])), max(ord(a[0]), ord(b[0])) + 1)
    rows = range(min(ord(a[1]), ord(b[1])), max(ord(a[1]), ord(b[1])) + 1)
    return [point_name(rulebook, chr(x) + chr(y)) for x in cols for y in rows]
