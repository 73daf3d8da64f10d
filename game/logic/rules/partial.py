"""Partial moves played as ZRF plays them (``(free-partial)`` in ``(rules ...)``): each part
of a move continued by ``add-partial`` is played out before the next, so a piece an earlier
part took is gone for the next part; a part need not capture; and it never lands where the
move has been, except back on the move's start square (empty since the piece left it) when
the board is not the one the move started from: the move has taken something, in this part
or an earlier one (a fox that jumps round a square of geese, a lion that takes next to it and
steps back), or changes the piece (an amazon's arrow on the square the amazon left).
The rulebook's growth of a composite move asks these two helpers only in such a game."""

from __future__ import annotations

from typing import Any

__all__ = ["onward", "without"]


def without(b: list[int], cap: tuple[int, ...], at: int) -> list[int]:
    """The board ``b`` as the next part sees it: the positions taken so far emptied (but
    ``at``, where the moving piece now stands)."""
    return [0 if i in cap and i != at else v for i, v in enumerate(b)]


def onward(out: list[Any], trail: list[int], eff: tuple[Any, ...], first: int) -> list[Any]:
    """The continuations of ``out`` (target, captures so far, effects, piece, ...) that a move
    along ``trail``, its parts so far having made ``eff``, by the piece that was ``first``
    where it started, may make: none lands where a part of the move landed, and none lands
    back on its start square unless the move has taken something (in any part), changes
    something else or lands there as another piece than ``first`` (else the board would be
    the one the move started from: a die rolled over and back shows its first face again)."""
    start = trail[0]
    return [
        r
        for r in out
        if r[0] not in trail[1:] and (r[0] != start or r[1] or eff or r[2] or r[3] != first)
    ]
