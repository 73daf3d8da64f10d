"""The Reversi board in the scene: discs, the rings on legal squares, the last-move dot and
the hint arrow, and the tweens that play a move (the new disc drops in, then the flipped
discs turn over one after another, outward from it).

:class:`BoardView` only draws what it is told: the controller hands it positions and moves
from the match. Square ``sq`` (A1 = 0 ... H8 = 63) sits at ``a1 + (col, 0, row) * square``,
the anchors of ``scenes/reversi.toml``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from game.engine.scene import Node, Scene, quat_from_axis_angle
from game.engine.tweens import MoveTo, Parallel, RotateBy, Sequence, Tween, Wait
from game.logic.reversi.board import PASS, Color, Position, square_name, squares

__all__ = ["BoardView"]

UP_WHITE = np.array([0.0, 0.0, 0.0, 1.0], dtype="f4")
UP_BLACK = quat_from_axis_angle((1.0, 0.0, 0.0), math.pi)  # the black face on top


class BoardView:
    """The board's nodes in ``scene``: 64 discs (hidden while their square is empty), 64
    rings, the last-move dot and the hint arrow."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.rest = scene.number("disc_rest")
        self.discs: dict[int, Node] = {}
        self.rings: dict[int, Node] = {}
        for sq in range(64):
            disc = scene.spawn("disc", f"disc_{square_name(sq)}")
            disc.hidden = True
            disc.position = self.center(sq, self.rest)
            self.discs[sq] = disc
            ring = scene.spawn("legal", f"legal_{square_name(sq)}")
            ring.position = self.center(sq, 0.008)
            self.rings[sq] = ring
        self.last = scene.spawn("last", "last_move")
        self.arrow = scene.spawn("hint", "hint_arrow")
        self.hint: int | None = None

    # -- the position, at once --------------------------------------------------------------

    def snap(self, position: Position) -> None:
        """Every disc where ``position`` has it, face up by colour, at rest."""
        for sq, node in self.discs.items():
            bit = 1 << sq
            node.hidden = not (position.black | position.white) & bit
            node.rotation = UP_BLACK if position.black & bit else UP_WHITE
            node.position = self.center(sq, self.rest)
            node.highlight = 0.0

    def hide_marks(self) -> None:
        """No rings, dot, arrow or lit discs (while a move plays)."""
        for ring in self.rings.values():
            ring.hidden = True
        self.last.hidden = True
        self.arrow.hidden = True
        for node in self.discs.values():
            node.highlight = 0.0

    def show_marks(
        self,
        position: Position,
        *,
        legal: Iterable[int],
        hover: int | None,
        last: int | None,
        hint: int | None,
        clock: float,
    ) -> None:
        """Rings on the ``legal`` squares (the one under the mouse lit, with the discs it
        would flip), the dot on the ``last`` move, the arrow over the ``hint``."""
        self.hide_marks()
        legal = [sq for sq in legal if sq != PASS]
        for sq in legal:
            ring = self.rings[sq]
            ring.hidden = False
            ring.highlight = 0.8 if sq == hover else 0.0
        if hover is not None and hover in legal:
            for sq in squares(position.flips(hover)):
                self.discs[sq].highlight = 0.55
        if last is not None and last != PASS:
            self.last.hidden = False
            self.last.position = self.center(last, 2 * self.rest + 0.004)
        self.hint = hint if hint != PASS else None
        if self.hint is not None:
            self.arrow.hidden = False
            ring = self.rings[self.hint]
            ring.hidden = False
            ring.highlight = 1.0
            self.bob(clock)

    def bob(self, clock: float) -> None:
        """Float the hint arrow up and down over its square."""
        if self.hint is None or self.arrow.hidden:
            return
        lift = 0.25 + 0.1 * (1.0 + math.sin(clock * 4.0))
        self.arrow.position = self.center(self.hint, lift)

    # -- a move, animated ---------------------------------------------------------------------

    def move_tween(self, before: Position, move: int) -> Tween | None:
        """The tween that plays ``move`` from ``before`` (None for a pass); the new disc is
        shown above its square at once. Flips turn outward from the new disc, nearer discs
        first, each about the axis across the line from the new disc, so it rolls away."""
        if move == PASS:
            return None
        s = self.scene
        disc = self.discs[move]
        rest = self.center(move, self.rest)
        disc.hidden = False
        disc.rotation = UP_BLACK if before.to_move is Color.BLACK else UP_WHITE
        disc.position = rest + np.array([0.0, s.number("drop_height"), 0.0], dtype="f4")
        steps: list[Tween] = [MoveTo(disc, rest, duration=s.number("drop_time"))]
        mr, mc = divmod(move, 8)
        flipped = squares(before.flips(move))
        order = sorted((max(abs(sq // 8 - mr), abs(sq % 8 - mc)), sq) for sq in flipped)
        flip_time = s.number("flip_time")
        lift = np.array([0.0, s.number("flip_height"), 0.0], dtype="f4")
        turns: list[Tween] = []
        for dist, sq in order:
            node = self.discs[sq]
            r, c = divmod(sq, 8)
            axis = (float(r - mr), 0.0, float(-(c - mc)))  # perpendicular to the direction
            base = self.center(sq, self.rest)
            turns.append(
                Sequence(
                    Wait((dist - 1) * s.number("flip_stagger")),
                    Parallel(
                        RotateBy(node, axis, math.pi, duration=flip_time),
                        Sequence(
                            MoveTo(node, base + lift, duration=flip_time / 2),
                            MoveTo(node, base, duration=flip_time / 2),
                        ),
                    ),
                )
            )
        if turns:
            steps.append(Parallel(*turns))
        self.hide_marks()
        return Sequence(*steps)

    # -- geometry -----------------------------------------------------------------------------

    def center(self, sq: int, height: float) -> np.ndarray[Any, Any]:
        """The centre of square ``sq``, ``height`` above the felt."""
        a1 = self.scene.anchor("a1")
        step = self.scene.number("square")
        row, col = divmod(sq, 8)
        return np.array([a1[0] + col * step, height, a1[2] + row * step], dtype="f4")

    def square_at(self, ray: tuple[Any, Any] | None) -> int | None:
        """The square a mouse ray ``(origin, direction)`` crosses on the felt (y = 0)."""
        if ray is None:
            return None
        origin, direction = ray
        if abs(direction[1]) < 1e-6:
            return None
        t = -origin[1] / direction[1]
        if t <= 0:
            return None
        hit = origin + t * direction
        a1 = self.scene.anchor("a1")
        step = self.scene.number("square")
        col = math.floor((hit[0] - a1[0]) / step + 0.5)
        row = math.floor((hit[2] - a1[2]) / step + 0.5)
        if 0 <= col < 8 and 0 <= row < 8:
            return int(row * 8 + col)
        return None

    def labels(self) -> list[tuple[str, np.ndarray[Any, Any]]]:
        """The coordinates around the board: a-h along the near and far edges, 1-8 down
        both sides."""
        off = 0.5 + self.scene.number("label_offset")
        out = []
        for i in range(8):
            letter, number = chr(ord("a") + i), str(i + 1)
            out.append((letter, self.center(i, 0.1) - np.array([0, 0, off], "f4")))
            out.append((letter, self.center(56 + i, 0.1) + np.array([0, 0, off], "f4")))
            out.append((number, self.center(8 * i, 0.1) - np.array([off, 0, 0], "f4")))
            out.append((number, self.center(8 * i + 7, 0.1) + np.array([off, 0, 0], "f4")))
        return out
