"""The strategic robot's look at the reply when only one opponent is left (one against one).

Against three opponents a conquest is soon answered by someone, and the strategic robot's
one-move evaluation (threats counted per enemy) is the right measure. One against one every
move is answered by the same player straight away, so :func:`duel_move` looks one reply
deeper: the strategic robot's best few moves (by its own evaluation) and ``none`` are each
played on a copy of the armies, armies grow (spec 3.3), the opponent replies with the greedy
attack of spec 5.3 (the built-in robots' rule: the neighbour with the best ratio of attacking
to defending armies, times its size; all of its neighbours of the target attack), armies grow
again, and the move that leaves the best balance (land and armies, the robot's less the
opponent's) wins; the robot's own evaluation breaks near ties. So a conquest the opponent
takes straight back, or a border left open to a free counter-attack, scores what it really
costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import GrabBoard, Move, MoveKind, grow_in_place, play_move

#: The built-in robots attack when their estimate times AF beats the defence by this margin.
_REPLY_MARGIN: Final = 1.1


def duel_score(
    board: GrabBoard,
    owners: Sequence[int],
    armies: Sequence[float],
    me: int,
    opponent: int,
    move: Move,
    land: float,
) -> float:
    """The balance (``land x capacity + armies``, the robot's less the opponent's) after
    ``move`` of ``me``, growth, the opponent's greedy reply (:func:`greedy_reply`) and growth
    again. ``move`` must be legal; ``owners`` and ``armies`` are not changed."""
    owners = list(owners)
    armies = list(armies)
    play_move(board, owners, armies, move)
    grow_in_place(board, owners, armies)
    reply = greedy_reply(board, owners, armies, opponent)
    if reply is not None:
        play_move(board, owners, armies, reply)
    grow_in_place(board, owners, armies)
    total = 0.0
    capacity = board.capacity
    for c, owner in enumerate(owners):
        if owner == me:
            total += land * capacity[c] + armies[c]
        elif owner == opponent:
            total -= land * capacity[c] + armies[c]
    return total


def greedy_reply(
    board: GrabBoard, owners: Sequence[int], armies: Sequence[float], player: int
) -> Move | None:
    """The attack spec 5.3 (step 3) has ``player`` make, or None (it would gather).

    Each foreign neighbour ``t`` of ``player``'s countries, by ascending id: ``est`` sums the
    armies of ``player``'s neighbours of ``t``, in full for one that borders nobody else and
    half for the others; ``t`` is eligible when ``est / armies(t) x AF > 1.1`` and scores
    ``est / armies(t) x size(t)``; the strictly best score is attacked by all of ``player``'s
    neighbours of it.
    """
    table = board.neighbours
    sizes = board.sizes
    factor = board.attack_factor
    targets = sorted(
        {
            n
            for c, o in enumerate(owners)
            if o == player
            for n in table[c]
            if owners[n] != player and owners[n] != MOUNTAIN
        }
    )
    best_score = 0.0
    best: int | None = None
    for t in targets:
        estimate = 0.0
        for a in table[t]:
            if owners[a] == player:
                alone = all(n == t or owners[n] == player for n in table[a])
                estimate += armies[a] if alone else armies[a] / 2
        defence = armies[t]
        # An empty target: any estimate is an infinite ratio, none is never eligible.
        ratio = estimate / defence if defence > 0.0 else (float("inf") if estimate else 0.0)
        if ratio * factor > _REPLY_MARGIN:
            score = ratio * sizes[t]
            if best_score < score:
                best_score, best = score, t
    if best is None:
        return None
    sources = tuple(a for a in table[best] if owners[a] == player)
    return Move(MoveKind.ATTACK, best, sources)


__all__ = ["duel_score", "greedy_reply"]
