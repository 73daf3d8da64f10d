"""Two very small games of the contract, for the searches' examples and tests: :class:`Nim`
(no chance, nothing hidden, solved by hand) and :class:`Pig` (a dice game: chance nodes).

>>> Nim(4).legal_actions(), Nim(4).apply(1).current_player()
([1, 2], 1)
>>> pig = Pig(goal=5).apply("roll")
>>> pig.current_player() == CHANCE, [p for _, p in pig.chance_outcomes()][:2]
(True, [0.16666666666666666, 0.16666666666666666])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from game.logic.contract import CHANCE, TERMINAL, IllegalActionError, NotationError

__all__ = ["Nim", "Pig"]


@dataclass(frozen=True, slots=True)
class Nim:
    """A heap of ``stones``; two seats take one or two in turn; who takes the last wins.
    The seat to move wins exactly when ``stones`` is not a multiple of 3."""

    stones: int
    player: int = 0

    def current_player(self) -> int:
        return TERMINAL if self.stones == 0 else self.player

    def legal_actions(self) -> list[int]:
        return [n for n in (1, 2) if n <= self.stones]

    def apply(self, action: int) -> Nim:
        if action not in self.legal_actions():
            raise IllegalActionError(f"cannot take {action!r} of {self.stones}")
        return Nim(self.stones - action, 1 - self.player)

    def is_terminal(self) -> bool:
        return self.stones == 0

    def returns(self) -> tuple[float, float]:
        if self.stones:
            return (0.0, 0.0)
        winner = 1 - self.player  # who took the last stone
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def key(self) -> Hashable:
        return (self.stones, self.player)

    def action_text(self, action: int) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        if text.strip() not in ("1", "2"):
            raise NotationError(f"take 1 or 2, not {text!r}")
        return int(text)

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        return []

    def observation(self, seat: int) -> Hashable:
        return self.key()


@dataclass(frozen=True, slots=True)
class Pig:
    """Two seats race to ``goal`` points. On its turn a seat may ``roll`` a die: a 1 loses
    the turn's points and ends the turn, any other face adds to them; or ``hold``: the turn's
    points count and the other seat plays. After a roll, chance acts (the die)."""

    goal: int = 10
    scores: tuple[int, int] = (0, 0)
    turn_points: int = 0
    player: int = 0
    rolling: bool = False

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def legal_actions(self) -> list[object]:
        if self.is_terminal():
            return []
        if self.rolling:
            return list(range(1, 7))
        return ["roll", "hold"]

    def apply(self, action: object) -> Pig:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal now")
        if self.rolling:
            assert isinstance(action, int)
            if action == 1:
                return Pig(self.goal, self.scores, 0, 1 - self.player)
            return Pig(self.goal, self.scores, self.turn_points + action, self.player)
        if action == "roll":
            return Pig(self.goal, self.scores, self.turn_points, self.player, rolling=True)
        scores = list(self.scores)
        scores[self.player] += self.turn_points
        return Pig(self.goal, (scores[0], scores[1]), 0, 1 - self.player)

    def is_terminal(self) -> bool:
        return max(self.scores) >= self.goal

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        return (1.0, -1.0) if self.scores[0] >= self.goal else (-1.0, 1.0)

    def key(self) -> Hashable:
        return (self.goal, self.scores, self.turn_points, self.player, self.rolling)

    def action_text(self, action: object) -> str:
        return str(action)

    def parse_action(self, text: str) -> object:
        word = text.strip()
        action: object = int(word) if word.isdigit() else word
        if action not in self.legal_actions():
            raise NotationError(f"not an action now: {text!r}")
        return action

    def chance_outcomes(self) -> Sequence[tuple[object, float]]:
        return [(face, 1 / 6) for face in range(1, 7)] if self.rolling else []

    def observation(self, seat: int) -> Hashable:
        return self.key()
