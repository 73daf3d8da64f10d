"""The dice of a described game of chance in the scene, on the table beside the board (or on
the board, where ``(dice-at X Y)`` says): cubes
with their pips on top (``(dice (faces 6))``), or sticks (two-faced dice: the marked ones
lie white side up with a red dot, the others dark; a total of other dice is shown as dice as even
as can be that add up to it). A new throw tumbles them through the air
for a moment before they land showing it; between turns they stay as they fell.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.scene import Node, quat_from_axis_angle
from game.engine.tweens import Tween

if TYPE_CHECKING:
    from game.games.rules.view import BoardView
    from game.logic.rules.design import Design

__all__ = ["ROLL_SECONDS", "DiceView", "dice_view"]

#: How long a throw tumbles before the dice land.
ROLL_SECONDS = 0.7
#: Where the pips of a face lie, in units of half a face, for the values 1 to 6.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0, 0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0), (0.5, 0), (-0.5, 0.5), (0.5, 0.5)),
}
IVORY = (0.95, 0.92, 0.84, 1.0)
DARK = (0.22, 0.16, 0.12, 1.0)
RED = (0.75, 0.12, 0.1, 1.0)


class DiceView:
    """The dice's nodes, spawned through ``board`` (so that they go with it)."""

    def __init__(self, board: BoardView, count: int, faces: tuple[int, ...]) -> None:
        self.board = board
        self.sticks = len(faces) == 2 and min(faces) == 0
        self.count = count
        self.shown: tuple[int, ...] | None = None
        self.rolling = 0.0  # seconds of tumbling left
        cell = board.cell
        self.size = (0.9 if self.sticks else 0.45) * cell
        lo = board.xy.min(axis=0)
        hi = board.xy.max(axis=0)
        apart = 0.45 if self.sticks else 0.7
        at = board.design.board.look.dice_at
        if at is not None:  # on the board, side by side (``(dice-at X Y)``), a checker's size
            self.size = 0.6 * cell
            self.spots = [
                board.world_xy(at[0] + (i - (count - 1) / 2) * 1.6 * apart * board.step, at[1])
                for i in range(count)
            ]
        else:  # on the table to the right of the board, one above the other
            self.spots = [
                board.world_xy(
                    float(hi[0]) + 1.7, float((lo[1] + hi[1]) / 2 + (i - (count - 1) / 2) * apart)
                )
                for i in range(count)
            ]
        self.dice: list[Node] = [board._spawn("block") for _ in range(count)]
        self.marks: list[list[Node]] = [[] for _ in range(count)]
        for die in self.dice:
            die.scale = (
                np.array([self.size, 0.1 * cell, 0.2 * cell], dtype="f4")
                if self.sticks
                else np.full(3, self.size, dtype="f4")
            )
            die.hidden = True

    def show(self, throw: tuple[int, ...] | None) -> None:
        """The dice at rest showing ``throw`` (for sticks, the sum: that many marked); None
        hides them (nothing thrown yet)."""
        self.shown = throw
        self.rolling = 0.0
        for die in self.dice:
            die.hidden = throw is None
        self._settle()

    def roll(self, throw: tuple[int, ...]) -> Tween:
        """The tween of a throw: the dice tumble, then land showing ``throw``."""
        self.show(throw)
        self.rolling = ROLL_SECONDS
        return _Roll(self)

    def update(self, dt: float) -> None:
        """Tumble the dice while a throw rolls, then land them."""
        if self.rolling <= 0.0:
            return
        self.rolling = max(0.0, self.rolling - dt)
        if self.rolling == 0.0:
            self._settle()
            return
        t = 1.0 - self.rolling / ROLL_SECONDS
        for i, die in enumerate(self.dice):
            axis = (math.sin(3.1 * i + 1), 0.7, math.cos(2.3 * i + 0.4))
            die.rotation = quat_from_axis_angle(axis, 4.0 * math.pi * t * (1 + 0.3 * i))
            hop = math.sin(math.pi * t) * 1.2 * self.size
            die.position = self.spots[i] + np.array([0.0, hop, 0.0], dtype="f4")
            for mark in self.marks[i]:
                mark.hidden = True

    def _settle(self) -> None:
        """The dice at rest on the table, the throw's faces up."""
        for i, die in enumerate(self.dice):
            die.rotation = quat_from_axis_angle((0.0, 1.0, 0.0), 0.0)
            die.position = self.spots[i].copy()
        if self.shown is None:
            for marks in self.marks:
                for mark in marks:
                    mark.hidden = True
            return
        if self.sticks:
            faces = [1 if i < self.shown[0] else 0 for i in range(self.count)]
        elif len(self.shown) < self.count:  # a total: dice as even as can be that add up to it
            share, extra = divmod(self.shown[0], self.count)
            faces = [share + (i < extra) for i in range(self.count)]
        else:
            faces = list(self.shown)
        for i, (die, face) in enumerate(zip(self.dice, faces, strict=False)):
            if self.sticks:
                die.material.color = IVORY if face else DARK
                self._marks(i, [(0.0, 0.0)] if face else [], RED, 0.1 * self.board.cell)
            else:
                die.material.color = IVORY
                self._marks(i, list(PIPS.get(face, ())), DARK, self.size)

    def _marks(self, i: int, spots: list[tuple[float, float]], colour: Any, top: float) -> None:
        """The pips (or a stick's dot) of die ``i`` on its top face."""
        marks = self.marks[i]
        while len(marks) < len(spots):
            mark = self.board._spawn("piece", mesh="disc")
            marks.append(mark)
        half = 0.32 * self.size
        pip = (0.18 if not self.sticks else 0.16) * self.size
        for k, mark in enumerate(marks):
            mark.hidden = k >= len(spots)
            if mark.hidden:
                continue
            dx, dy = spots[k]
            mark.material.color = colour
            mark.scale = np.array([pip, 0.3 * pip, pip], dtype="f4")
            mark.position = self.spots[i] + np.array(
                [dx * half, top + 0.01 * self.size, dy * half], dtype="f4"
            )


class _Roll(Tween):
    """A throw's tumble, as a tween: the next move waits until the dice have landed."""

    def __init__(self, view: DiceView) -> None:
        super().__init__()
        self.view = view

    def advance(self, dt: float) -> float | None:
        left = self.view.rolling
        self.view.update(dt)
        return None if self.view.rolling > 0.0 else max(0.0, dt - left)


def dice_view(board: BoardView, design: Design, state: Any) -> DiceView | None:
    """The dice of ``design`` beside ``board``, showing ``state``'s throw (None: a game
    without dice)."""
    if design.dice is None:
        return None
    view = DiceView(board, design.dice.count, design.dice.faces)
    view.show(state.pos.throw)
    return view
