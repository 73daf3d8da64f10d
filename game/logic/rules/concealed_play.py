"""How a level thinks in a game of concealed pieces (:mod:`game.logic.rules.concealed`): each
move judged on several positions drawn from what the seat to move has seen, and the move worth
the most on average played.

Each draw deals the other players' unseen pieces again at random (the state's
``determinizer``). On each, every move is followed by every reply of the next player (two
plies) and scored by the game's evaluation (:mod:`game.logic.rules.cursor`, the description's
piece values), a finished game as a win or a loss; a move's worth is its mean over the draws,
so an attack on an unseen piece counts what it wins where that piece is weaker and what it
loses where it is stronger, and a step towards the pieces that may be the enemy's flag counts
on each draw where it is. The draws are seeded by the seat's observation, so two states that
look the same to it give the same move, and nothing it cannot see is read.
"""

from __future__ import annotations

import random
import zlib
from typing import Any, Final

from game.logic.contract import TERMINAL, Stop, ThinkingStopped
from game.logic.rules.position import Move
from game.logic.search.cursor import cursor_of, winning

__all__ = ["DRAWS", "sampled_choice"]

#: Positions drawn for one choice where the caller gives no positions to search.
DRAWS: Final = 8
#: A won game's worth, far above any evaluation.
WIN: Final = 1_000_000.0


def sampled_choice(
    state: Any, depth: int, nodes: int | None, seconds: float | None, stop: Stop
) -> tuple[Move, str]:
    """The move worth the most over the drawn positions, and why in words. ``nodes`` (the
    positions to judge in all) sets how many positions are drawn, at least two."""
    seat = state.current_player()
    rng = random.Random(zlib.crc32(repr(state.observation(seat)).encode()))
    moves: list[Move] = list(state.legal_actions())
    draws = DRAWS
    if nodes:
        per_draw = max(1, len(moves)) * max(1, len(moves))  # about a move times its replies
        draws = max(2, min(32, nodes // per_draw))
    deal = state.determinizer(seat)
    worth = dict.fromkeys(moves, 0.0)
    for _ in range(draws):
        cursor = cursor_of(deal(rng))
        for move in moves:
            if stop.is_set():
                raise ThinkingStopped("stopped")
            token = cursor.play(move)
            worth[move] += _replies(cursor, seat)
            cursor.undo(token)
    best = max(moves, key=lambda m: worth[m])  # the first of the best in the legal order
    mean = worth[best] / draws
    said = f"the most on average over {draws} guesses at the pieces not seen yet"
    if abs(mean) < WIN / 2:
        said += f": {mean:+.1f}"
    return best, said


def _replies(cursor: Any, seat: int) -> float:
    """The worth for ``seat`` of the cursor's position after its move: the next player's
    best reply by the evaluation (or the end of the game)."""
    who = cursor.to_move()
    if who == TERMINAL:
        return winning(cursor.returns(), seat) * WIN
    if who == seat:
        return float(cursor.evaluate(seat))
    worst = WIN * 2
    for reply in cursor.actions():
        token = cursor.play(reply)
        if cursor.to_move() == TERMINAL:
            value = winning(cursor.returns(), seat) * (WIN - 1)
        else:
            value = float(cursor.evaluate(seat))
        cursor.undo(token)
        worst = min(worst, value)
    return worst if worst <= WIN else float(cursor.evaluate(seat))
