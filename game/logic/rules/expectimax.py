"""The levels' choice in a described game where chance acts, whichever kind: dice thrown
before each turn (``(dice ...)``) or face-down pieces turned up (``(face-down ...)``).

One expectimax serves both: the generic alpha-beta (:mod:`game.logic.search.alphabeta`:
iterative deepening, a transposition table, a bound on positions or time) on the described
game's cursor (:mod:`game.logic.rules.cursor`), where a chance node is worth the mean of its
outcomes weighed by their probabilities and a position it stops at is worth the
description's piece values and zones. A chance node counts as a ply of the depth.

A level's depth counts moves: :func:`level_plies` makes it plies. In a game of dice a throw
comes before every move, so a depth of one is a move and the throw after it; where chance
acts only after some moves (a flip), the plies are the level's depth.

It reads only the state, where nothing hidden is written (a face-down piece is no piece
until chance turns it up), and draws nothing from the caller's ``rng``: ties are broken by a
generator seeded by the position, so a search bounded by depth or positions gives the same
move and the same words every time. The words follow the levels' (:mod:`~game.logic.rules.levels`):
what chance it expects over, then the search's depth, positions and score in the game's least
piece, for the side to move: "expects the most over the throws to come: best of a 6-ply
search of 5,004 positions: +0.35 pieces for White".
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from typing import Any

from game.logic.contract import Limits, Stop
from game.logic.rules.position import Move
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.state import RulesState
from game.logic.search.alphabeta import DECIDED, WIN, AlphaBetaAgent

__all__ = ["Expected", "chance_over", "expected_choice", "level_plies"]

#: Seconds the search thinks when it is given no bound at all.
DEFAULT_SECONDS = 1.0


@dataclass(frozen=True)
class Expected:
    """The move chosen, why in words, and the search's depth, positions, score (for F3)."""

    move: Move
    said: str
    details: dict[str, Any] = field(default_factory=dict)


def chance_over(rulebook: Rulebook) -> str | None:
    """What chance decides in ``rulebook``'s game, as the hint names it; None for a game
    without chance."""
    if rulebook.dice is not None:
        return "the throws to come"
    if rulebook.design.face_down is not None:
        return "the pieces still face down"
    if rulebook.design.random_players:
        return "the random players' moves"
    return None


def level_plies(rulebook: Rulebook, depth: int | None) -> int | None:
    """The plies of a search ``depth`` moves deep (None: no bound), the chance nodes counted."""
    if depth is None or rulebook.dice is None:
        return depth
    return 2 * depth  # a throw before each move


def expected_choice(
    state: RulesState, plies: int | None, nodes: int | None, seconds: float | None, stop: Stop
) -> Expected:
    """The move of ``state`` (a player to move) with the best expected value within the
    bounds (``plies``, each chance node one; ``nodes``; ``seconds``), and why in words."""
    if not (plies or nodes or seconds):
        seconds = DEFAULT_SECONDS
    agent = AlphaBetaAgent()
    seeded = random.Random(zlib.crc32(repr(state.key()).encode()))
    limits = Limits(time=seconds, depth=plies, nodes=nodes)
    move: Move = agent.choose(state, limits, seeded, stop)
    depth, score, positions = agent.found
    if not positions:
        return Expected(move, agent.explain())  # the only move: no search
    rulebook = state.rulebook
    name, worth = _least_piece(rulebook)
    if abs(score) >= DECIDED:
        plies_left = round(WIN - abs(score))
        where = f"{'won' if score > 0 else 'lost'} within {plies_left} plies whatever chance does"
    else:
        where = f"{score / worth:+.2f} {name}" if name else f"score {score:+.2f}"
    side = rulebook.design.players[rulebook.player(state.pos)]
    said = (
        f"expects the most over {chance_over(rulebook) or 'chance'}: best of a {depth}-ply "
        f"search of {positions:,} positions: {where} for {side}"
    )
    return Expected(move, said, {"depth": depth, "nodes": positions, "score": score / worth})


def _least_piece(rulebook: Rulebook) -> tuple[str, int]:
    """The plural name and value of the game's least valued piece worth anything ("" and 1
    when none is)."""
    pieces = [p for p in rulebook.design.pieces if p.value > 0]
    if not pieces:
        return "", 1
    least = min(pieces, key=lambda p: p.value)
    name = least.name.lower()
    return (name[:-3] + "men" if name.endswith("man") else name + "s"), least.value
