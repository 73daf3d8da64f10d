"""SimpleRobot: the example robot of spec 5.2."""

from __future__ import annotations

from typing import ClassVar

from game.logic.grab.robot import Robot, RobotGame
from game.logic.grab.state import NO_MOVE, Move, MoveKind


class SimpleRobot(Robot):
    """Attacks the best single target with a single country; never gathers (spec 5.2).

    For each own country c in ``my_countries`` order (spec 5.1's ``CountryIds`` order) with
    ``strength = armies(c) x AF``, and each neighbour n of c by ascending id that another
    player owns with ``armies(n) < strength``, the score is ``strength / armies(n) x size(n)``
    (an empty n scores infinity: real division). The highest score wins; a later one must be
    strictly higher. It attacks n with c alone, ignoring that one army stays home, so an attack
    can narrowly fail. With no candidate it plays ``none``. (Strength is ``armies x AF`` as
    spec 5.2 states it; halving the armies, which some readings do, agrees at the default AF
    of 0.5.)
    """

    name: ClassVar[str] = "SimpleRobot"
    description: ClassVar[str] = (
        "Attacks the weakest big neighbour with one country; never gathers."
    )
    default: ClassVar[bool] = False

    def plan(self, game: RobotGame) -> Move:
        # The loops read owners and armies by id from the game's tables (faster than
        # game.owner(n) and game.armies(n) per neighbour).
        me, owners, armies = game.player, game.owners, game.army_sizes
        best_score = 0.0
        best: tuple[int, int] | None = None
        for c in game.my_countries:
            strength = armies[c] * game.attack_factor
            for n in game.neighbours(c):
                defence = armies[n]
                if owners[n] != me and defence < strength:
                    ratio = strength / defence if defence else float("inf")
                    score = ratio * game.size(n)
                    if best_score < score:
                        best_score, best = score, (c, n)
        if best is None:
            return NO_MOVE
        attacker, target = best
        return Move(MoveKind.ATTACK, target, (attacker,))
