"""MasterGrab's strength figures: the strategic robot against three basic robots, and one
against one (:data:`DUEL_ROBOTS`).

``gamehall bench grab --strength`` and ``benchmarks/grab.py --strength`` print the lines of
:func:`strength_tournament`, a tournament of the generic runner
(:func:`game.logic.tournament.run_tournament`: seats rotated over shared maps, Wilson
intervals, the winrates line last). Par is 0.25; the target for strategic is 0.50 or more
(one against one: par 0.50, target 0.60).
Robots think with a generous budget (a move over budget is lost, so a busy machine must not
decide games) and a game still running after
:data:`~game.logic.grab.game.TOURNAMENT_ROUNDS` rounds goes to the leader of the ranking
(:meth:`GrabGame.unfinished_returns <game.logic.grab.game.GrabGame.unfinished_returns>`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from game.logic.contract import Limits
from game.logic.grab.bench import BUDGET_S
from game.logic.tournament import GameEntry, PlayedGame, TournamentResult, run_tournament

__all__ = ["DUEL_ROBOTS", "STRENGTH_ROBOTS", "strength_tournament"]

#: One robot per seat: the robot measured first, then its opponents.
STRENGTH_ROBOTS: Final = ("strategic", "basic", "basic", "basic")
#: One against one: strategic and basic, each in both seats over a tournament.
DUEL_ROBOTS: Final = ("strategic", "basic")


def strength_tournament(
    entry: GameEntry,
    games: int = 200,
    *,
    jobs: int = 1,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int, int, PlayedGame], None] | None = None,
    robots: tuple[str, ...] = STRENGTH_ROBOTS,
) -> TournamentResult:
    """``games`` games of ``robots`` (default :data:`STRENGTH_ROBOTS`) on MasterGrab
    (``entry``, the registry's) with ``options`` (default: the standard 140-country map)."""
    return run_tournament(
        entry,
        robots,
        games,
        options=options,
        seed=seed,
        limits=Limits(time=BUDGET_S),
        jobs=jobs,
        progress=progress,
    )
