"""BasicRobot: the default robot of spec 5.3."""

from __future__ import annotations

from typing import ClassVar

from game.logic.grab.robot import Robot, RobotGame
from game.logic.grab.state import NO_MOVE, Move, MoveKind

_INFINITY = float("inf")
_NAN = float("nan")


class BasicRobot(Robot):
    """Attacks where it has the most armies against the biggest country, else marches
    gathered armies towards the front (spec 5.3, step by step):

    1. Owning nothing, it plays ``none``.
    2. The targets are the other players' countries next to any of its own.
    3. Scanning them by ascending id: ``est`` sums, over its own neighbours a of the target,
       ``armies(a)`` if a is inland ignoring the target, else half of it; ``ratio = est /
       armies(target)`` (IEEE division: an empty target gives infinity, or NaN for est 0,
       which is never eligible). Eligible when ``ratio x AF > 1.1``; the score
       ``ratio x size(target)`` must be strictly higher than the best so far (from 0).
    4. It attacks the best target with all of its neighbours of it (ascending id).
    5. Otherwise it gathers.
       a) With a remembered gathering country that it still owns and for which
          :meth:`~game.logic.grab.robot.RobotGame.neighbour_to_nearest_enemy` gives a next
          country: it gathers into that next country from all of the next country's inland
          neighbours, and remembers the next country if it is inland (else forgets). If it
          no longer owns it or the answer is None, it forgets it and goes on with b).
       b) Among its inland countries (``my_countries`` order) the one whose inland
          neighbours hold the most armies (strictly more than the best so far, from 0) is
          remembered and gathered into from those neighbours. If none holds any: the
          fallback takes, over all its countries, the one whose own neighbours have the most
          spendable armies (strictly, from 0), remembers it even at the border, and gathers
          into it from all its own neighbours. If that is 0 too, ``none``.

    It remembers one country id between moves (``gathering``).
    """

    name: ClassVar[str] = "Basic Robot"
    description: ClassVar[str] = "Default robot used by game"
    default: ClassVar[bool] = True

    def __init__(self) -> None:
        #: The gathering country (spec 5.3's ``maxMoverCountryId``), or None.
        self.gathering: int | None = None

    def plan(self, game: RobotGame) -> Move:
        mine = game.my_countries
        if not mine:
            return NO_MOVE
        target = _best_target(game, mine)
        if target is not None:
            me, owners = game.player, game.owners
            attackers = tuple(a for a in game.neighbours(target) if owners[a] == me)
            return Move(MoveKind.ATTACK, target, attackers)
        return self._gather(game, mine)

    def _gather(self, game: RobotGame, mine: tuple[int, ...]) -> Move:
        me = game.player
        owners = game.owners
        armies = game.army_sizes
        table = game.board.neighbours
        inland = game.is_inland
        if self.gathering is not None:
            start = self.gathering
            self.gathering = None
            step = game.neighbour_to_nearest_enemy(start) if owners[start] == me else None
            if step is not None:
                if inland(step):
                    self.gathering = step
                return Move(MoveKind.GATHER, step, tuple(n for n in table[step] if inland(n)))
        best_total = 0.0
        best: int | None = None
        for c in mine:
            if inland(c):
                total = 0.0
                for n in table[c]:
                    if inland(n):
                        total += armies[n]
                if best_total < total:
                    best_total, best = total, c
        if best is not None:
            self.gathering = best
            return Move(MoveKind.GATHER, best, tuple(n for n in table[best] if inland(n)))
        spendable = game.spendable
        for c in mine:
            total = 0.0
            for n in table[c]:
                if owners[n] == me:
                    total += spendable(n)
            if best_total < total:
                best_total, best = total, c
        if best is not None:
            self.gathering = best
            return Move(MoveKind.GATHER, best, tuple(n for n in table[best] if owners[n] == me))
        return NO_MOVE


def _best_target(game: RobotGame, mine: tuple[int, ...]) -> int | None:
    """Steps 2 and 3 of spec 5.3: the enemy neighbour to attack, or None."""
    me = game.player
    owners = game.owners
    armies = game.army_sizes
    sizes = game.board.sizes
    table = game.board.neighbours
    factor = game.attack_factor
    enemies = {n for c in mine for n in table[c] if owners[n] != me}
    best_score = 0.0
    best: int | None = None
    for t in sorted(enemies):
        estimate = 0.0
        for a in table[t]:
            if owners[a] == me:
                # Inland apart from t: nothing else to defend, so all of it can go. (A plain
                # loop: several times faster here than all() over a generator.)
                for n in table[a]:
                    if n != t and owners[n] != me:
                        estimate += armies[a] / 2
                        break
                else:
                    estimate += armies[a]
        defence = armies[t]
        # Real division: an empty target gives infinity (or NaN for 0 / 0), as in spec 5.3.
        ratio = estimate / defence if defence else (_INFINITY if estimate else _NAN)
        if ratio * factor > 1.1:
            score = ratio * sizes[t]
            if best_score < score:
                best_score, best = score, t
    return best
