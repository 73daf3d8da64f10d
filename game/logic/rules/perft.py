"""Perft for described games: the number of move paths of a given depth.

Convention (every shipped game states its own): a path counts when it has exactly ``depth``
moves; a composite move (a multi-jump) is one move; a pass is a move; a position where the
game has ended (no move, a line made, a goal reached) ends its paths there and counts 0,
except in games that say ``(perft ended-leaves)`` (Othello), where it counts 1. Draws by
repetition or move counters are not looked at. Moves that the game's move identity merges
(draughts: same start, end and captured pieces) count once.

>>> from game.logic.rules.catalogue import rulebook
>>> e = rulebook("tic-tac-toe")
>>> e.perft(e.start(), 2)
72
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from game.logic.rules.notation import move_texts
from game.logic.rules.rulebook import DescribedPosition, Rulebook

__all__ = ["divide", "perft_line"]


def perft_line(rulebook: Rulebook, pos: DescribedPosition, depth: int) -> str:
    """``depth=D nodes=N seconds=S`` for ``pos`` (copied; it is not changed)."""
    work = pos.copy()
    started = time.perf_counter()
    nodes = rulebook.perft(work, depth)
    return f"depth={depth} nodes={nodes} seconds={time.perf_counter() - started:.3f}"


def divide(rulebook: Rulebook, pos: DescribedPosition, depth: int) -> Iterator[tuple[str, int]]:
    """Each legal first move's text with the paths of ``depth`` that start with it."""
    work = pos.copy()
    if depth == 0:
        return
    moves = rulebook.legal(work)
    if not moves or (
        not rulebook.design.perft_past_ends
        and rulebook.outcome(work, moves, perft=True) is not None
    ):
        return
    for move, text in zip(moves, move_texts(rulebook, work, moves), strict=True):
        saved = rulebook.make(work, move)
        count = rulebook.perft(work, depth - 1)
        rulebook.unmake(work, saved)
        yield text, count
