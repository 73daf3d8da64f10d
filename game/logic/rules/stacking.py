"""Moves in a game of stacks (column draughts): what a move does to the pieces under the
top of each stack it touches."""

from __future__ import annotations

from typing import Any

from game.logic.rules.position import DescribedPosition, Move

__all__ = ["stacked"]


def stacked(pos: DescribedPosition, move: Move) -> Move:
    """``move`` with its effects on the stacks: a piece that moves carries the pieces
    under it, and each captured stack's top piece goes under the mover's stack, the
    rest of that stack staying where it stood (column draughts)."""
    path, caps, effects, pid = move
    if len(path) < 2:
        return move
    b, under = pos.board, pos.under
    assert under is not None
    f, to = path[0], path[-1]
    carried = under[f]
    out: list[Any] = [(f, 0, ())]
    for x in caps:
        if x == to:
            continue
        carried = (b[x], *carried)
        rest = under[x]
        out.append((x, rest[-1] if rest else 0, rest[:-1]))
    out.extend((p, v, under[p]) for p, v in effects[1:-1] if p not in caps and p != f)
    out.append((to, effects[-1][1], carried))
    return (path, caps, tuple(out), pid)
