"""Perft for Reversi: the number of move sequences of a given length, in two conventions.

A pass counts as one ply in both. **Bik** (Aart Bik's 2009 table, what most public perft tests
quote) counts a game that ended before the last ply as one leaf; **Edax** (OEIS A124004) does
not count it. They first differ at depth 10. :data:`PERFT_START` holds the reference numbers
from the start position, checked against Edax.

>>> from game.logic.reversi.board import Position
>>> perft(Position.start(), 5)
1396
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias

import numpy as np

from . import kernels
from .board import Position, ReversiError

__all__ = ["PERFT_START", "Convention", "PerftError", "perft", "perft_both", "perft_subtrees"]

Convention: TypeAlias = Literal["bik", "edax"]

# depth -> (Bik, Edax) leaves from the standard start, checked against Edax.
PERFT_START: Final[dict[int, tuple[int, int]]] = {
    1: (4, 4),
    2: (12, 12),
    3: (56, 56),
    4: (244, 244),
    5: (1_396, 1_396),
    6: (8_200, 8_200),
    7: (55_092, 55_092),
    8: (390_216, 390_216),
    9: (3_005_288, 3_005_288),
    10: (24_571_284, 24_571_056),
    11: (212_258_800, 212_258_216),
    12: (1_939_886_636, 1_939_879_668),
    13: (18_429_641_748, 18_429_618_408),
    14: (184_042_084_512, 184_041_761_768),
    15: (1_891_832_540_064, 1_891_831_332_208),
}


class PerftError(ReversiError):
    """A perft request with a bad depth or convention."""


def perft(position: Position, depth: int, convention: Convention = "bik") -> int:
    """Leaves of the game tree ``depth`` plies below ``position`` (numba, last ply in bulk)."""
    if convention not in ("bik", "edax"):
        raise PerftError(f"perft convention {convention!r} is not 'bik' or 'edax'")
    bik, edax = perft_both(position, depth)
    return bik if convention == "bik" else edax


def perft_both(position: Position, depth: int, *, bulk: bool = True) -> tuple[int, int]:
    """``(bik, edax)`` leaves at ``depth``; ``bulk=False`` visits every leaf (for testing)."""
    if not isinstance(position, Position):
        raise PerftError(f"perft needs a Position, not {type(position).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise PerftError(f"perft depth {depth!r} is not a whole number >= 0")
    bik, edax = kernels.perft(np.uint64(position.mine), np.uint64(position.theirs), depth, bulk)
    return int(bik), int(edax)


def perft_subtrees(position: Position, depth: int, split: int) -> list[tuple[Position, int]]:
    """The perft of ``position`` to ``depth`` cut into pieces: every position ``split`` plies
    down (a game that ended sooner is a piece of its own), each with the plies left. Their
    :func:`perft_both` add up to that of ``position``, so a caller can count a deep perft one
    piece at a time and stop or report progress between pieces.

    >>> pieces = perft_subtrees(Position.start(), 5, 2)
    >>> len(pieces), sum(perft(p, d) for p, d in pieces)
    (12, 1396)
    """
    if not isinstance(position, Position):
        raise PerftError(f"perft needs a Position, not {type(position).__name__}")
    for name, value in (("depth", depth), ("split", split)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PerftError(f"perft {name} {value!r} is not a whole number >= 0")
    return _pieces(position, depth, split)


def _pieces(position: Position, depth: int, split: int) -> list[tuple[Position, int]]:
    legal = position.legal_moves() if depth > 0 and split > 0 else []
    if not legal:  # a leaf of the cut, or a finished game (the kernel counts it as Bik does)
        return [(position, depth)]
    out: list[tuple[Position, int]] = []
    for move in legal:
        out += _pieces(position.apply(move), depth - 1, split - 1)
    return out
