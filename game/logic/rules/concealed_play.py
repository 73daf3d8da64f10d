"""How a level thinks in a game of concealed pieces (:mod:`game.logic.rules.concealed`):
alpha-beta on several positions drawn from what the seat to move has seen, each move chosen
by the most of them.

Each draw deals the other players' unseen pieces again at random (the state's
``determinizer``); alpha-beta (:class:`~game.logic.search.alphabeta.AlphaBetaAgent`, with the
description's piece values) chooses a move on it as if everything were known, and the move
chosen on the most draws is played (the first of them in the order of the legal moves where
several tie). The draws are seeded by the seat's observation, so two states that look the same
to it give the same move, and nothing it cannot see is read.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from typing import Any, Final

from game.logic.contract import Limits, Stop
from game.logic.rules.position import Move
from game.logic.search.alphabeta import AlphaBetaAgent

__all__ = ["DRAWS", "sampled_choice"]

#: Positions drawn for one choice.
DRAWS: Final = 6
#: The deepest search on each draw (the enemy pieces it sees are guesses: deeper adds little).
DEPTH: Final = 3


def sampled_choice(
    state: Any, depth: int, nodes: int | None, seconds: float | None, stop: Stop
) -> tuple[Move, str]:
    """The move chosen on the most drawn positions, and why in words."""
    seat = state.current_player()
    rng = random.Random(zlib.crc32(repr(state.observation(seat)).encode()))
    limits = Limits(
        depth=min(depth, DEPTH),
        nodes=max(1, nodes // DRAWS) if nodes else None,
        time=seconds / DRAWS if seconds and not nodes else None,
    )
    votes: Counter[Move] = Counter()
    for _ in range(DRAWS):
        votes[AlphaBetaAgent().choose(state, limits, rng, stop)] += 1
    moves: list[Move] = list(state.legal_actions())
    best = max(moves, key=lambda m: votes[m])
    said = f"best on {votes[best]} of {DRAWS} guesses at the pieces not seen yet"
    return best, said
