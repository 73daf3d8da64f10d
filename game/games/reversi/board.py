"""The Reversi board in the scene: discs, the rings on legal squares, the last-move dot, the
hint's ghost disc (the mover's colour, ringed by a glowing rim), the coordinates around the
board, the hover preview of a move's flips, and the tweens that play a move (the new disc
drops in, then the flipped discs turn over one after another, outward from it).

:class:`ReversiBoardView` only draws what it is told: the controller hands it positions, moves and
the look (:class:`Look`: the theme, the marks shown, the animation) from its options. Square
``sq`` (A1 = 0 ... H8 = 63) sits at ``a1 + (col, 0, row) * square``, the anchors of
``scenes/reversi.toml``. A disc is two faces: the node in :attr:`ReversiBoardView.discs` (White's
colour on top when unturned) and its child, the lower face (Black's colour).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyrr

from game.engine.scene import Material, Node, Scene, quat_from_axis_angle
from game.engine.tweens import MoveTo, Parallel, RotateBy, Sequence, Tween, Wait
from game.games.reversi.look import SPEEDS, THEMES, Theme, ghost_color
from game.logic.reversi.board import PASS, Color, Position, square_name, squares

__all__ = ["Look", "ReversiBoardView"]

UP_WHITE = np.array([0.0, 0.0, 0.0, 1.0], dtype="f4")
UP_BLACK = quat_from_axis_angle((1.0, 0.0, 0.0), math.pi)  # the black face on top
#: How strongly the discs a hovered move would flip glow, and the hovered square's ring.
PREVIEW_GLOW = 0.6
RING_GLOW = 0.8
#: How strongly the ghost disc's rim glows (it bobs between the two), and the disc itself.
RIM_GLOW = (0.45, 0.75)
GHOST_GLOW = 0.05
#: How much of the felt shows through the ghost disc.
GHOST_SEE_THROUGH = 0.15


@dataclass(frozen=True)
class Look:
    """What the options say about the board: ``theme`` (a key of
    :data:`~game.games.reversi.look.THEMES`), ``speed`` (a key of
    :data:`~game.games.reversi.look.SPEEDS`), whether moves are animated and which
    marks are shown."""

    theme: str = "classic"
    animation: bool = True
    speed: str = "normal"
    legal_marks: bool = True
    last_move_mark: bool = True

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Look:
        """The look of checked Reversi options."""
        return cls(
            theme=options["theme"],
            animation=options["animation"],
            speed=options["animation_speed"],
            legal_marks=options["legal_marks"],
            last_move_mark=options["last_move_mark"],
        )


class ReversiBoardView:
    """The board's nodes in ``scene``: 64 discs (hidden while their square is empty), 64
    rings, the last-move dot and the hint's ghost disc with its rim, drawn with ``look``."""

    def __init__(self, scene: Scene, look: Look | None = None) -> None:
        self.scene = scene
        self.rest = scene.number("disc_rest")
        self.discs: dict[int, Node] = {}
        self.unders: dict[int, Node] = {}  # each disc's lower face
        self.rings: dict[int, Node] = {}
        for sq in range(64):
            disc = scene.spawn("disc", f"disc_{square_name(sq)}")
            under = scene.spawn("disc_under", f"disc_{square_name(sq)}_under")
            under.set_parent(disc, keep_world=False)
            disc.hidden = True
            disc.position = self.center(sq, self.rest)
            self.discs[sq] = disc
            self.unders[sq] = under
            ring = scene.spawn("legal", f"legal_{square_name(sq)}")
            ring.position = self.center(sq, 0.008)
            self.rings[sq] = ring
        self.last = scene.spawn("last", "last_move")
        self.ghost = scene.spawn("ghost", "hint_ghost")
        ghost_under = scene.spawn("disc_under", "hint_ghost_under")
        ghost_under.set_parent(self.ghost, keep_world=False)
        self.rim = scene.spawn("ghost_rim", "hint_ghost_rim")
        self.rim.set_parent(self.ghost, keep_world=False)
        self.hint: int | None = None
        self.tilted: set[int] = set()  # the discs the hover preview has tilted
        self.look = look or Look()
        self.theme: Theme = THEMES[self.look.theme]
        self._materials: dict[str, Material] = {}
        self.set_look(self.look)

    # -- the look -----------------------------------------------------------------------------

    def set_look(self, look: Look) -> None:
        """Draw with ``look`` from now on: the theme's colours at once (marks and animation
        from the next :meth:`show_marks` and :meth:`move_tween`)."""
        self.look = look
        theme = self.theme = THEMES[look.theme]
        disc = self.scene.materials.get("disc", Material())
        felt = self.scene.materials.get("felt", Material())

        def paint(name: str, rgb: tuple[float, float, float], like: Material) -> Material:
            material = Material((*rgb, 1.0), like.specular, like.shininess)
            self._materials[name] = material
            return material

        light, dark = paint("light", theme.light, disc), paint("dark", theme.dark, disc)
        for sq, node in self.discs.items():
            node.material = light
            self.unders[sq].material = dark
        self.scene["board"].material = paint("felt", theme.felt, felt)
        self.scene["board_lines"].material = paint("lines", theme.lines, felt)
        frame = self.scene["board_frame"]
        frame.material = paint("frame", theme.frame, frame.material)
        legal = paint("legal", theme.legal, self.rings[0].material)
        hint = paint("hint", theme.hint, self.rings[0].material)
        for sq, ring in self.rings.items():
            ring.material = hint if sq == self.hint else legal
        self.last.material = paint("last", theme.last, self.last.material)
        self._paint_ghost(Color.BLACK)

    def ghost_colour(self, mover: Color) -> tuple[float, float, float]:
        """The ghost disc's colour when ``mover`` is to move: the mover's disc colour, a
        little of the felt showing through (a stronger mix turned a black ghost into a dark
        green smudge); the rim, not the colour, tells it from a disc on the board."""
        theme = self.theme
        disc = theme.dark if mover is Color.BLACK else theme.light
        return ghost_color(disc, theme.felt, GHOST_SEE_THROUGH)

    def rim_colour(self) -> tuple[float, float, float]:
        """The colour of the ghost disc's rim: the theme's hint colour (the hint's ring's)."""
        return self.theme.hint

    # -- the position, at once --------------------------------------------------------------

    def snap(self, position: Position) -> None:
        """Every disc where ``position`` has it, face up by colour, at rest."""
        self.tilted.clear()
        for sq, node in self.discs.items():
            bit = 1 << sq
            node.hidden = not (position.black | position.white) & bit
            node.rotation = UP_BLACK if position.black & bit else UP_WHITE
            node.position = self.center(sq, self.rest)
            self._glow(sq, 0.0)

    def hide_marks(self) -> None:
        """No rings, dot, ghost or lit discs (while a move plays)."""
        for ring in self.rings.values():
            ring.hidden = True
            ring.highlight = 0.0
        self.last.hidden = True
        self.ghost.hidden = True
        self.hint = None
        for sq in self.discs:
            self._glow(sq, 0.0)

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
        """Rings on the ``legal`` squares (when the look shows them), the hover preview (the
        ring under the mouse lit, and the discs that move would flip tilted and glowing; for
        a square that is not ``legal``, nothing), the dot on the ``last`` move (when shown),
        and the ghost disc of the side to move over the ``hint``."""
        self._untilt(position)
        self.hide_marks()
        legal = [sq for sq in legal if sq != PASS]
        if self.look.legal_marks:
            for sq in legal:
                self.rings[sq].hidden = False
        if hover is not None and hover in legal:
            ring = self.rings[hover]
            ring.hidden = False
            ring.highlight = RING_GLOW
            self._tilt(position, hover)
        if self.look.last_move_mark and last is not None and last != PASS:
            self.last.hidden = False
            self.last.position = self.center(last, 2 * self.rest + 0.004)
        hint_ring = self._materials["hint"]
        legal_ring = self._materials["legal"]
        for ring in self.rings.values():
            ring.material = legal_ring
        self.hint = hint if hint != PASS else None
        if self.hint is not None:
            ring = self.rings[self.hint]
            ring.hidden = False
            ring.highlight = 1.0
            ring.material = hint_ring
            self.ghost.hidden = False
            self._paint_ghost(position.to_move)
            self.bob(clock)

    def bob(self, clock: float) -> None:
        """Float the hint's ghost disc gently up and down over its square, its rim's glow
        rising and falling with it."""
        if self.hint is None or self.ghost.hidden:
            return
        swing = math.sin(clock * 3.0)
        lift = self.scene.number("ghost_height") + self.scene.number("ghost_bob") * swing
        self.ghost.position = self.center(self.hint, lift)
        # The disc barely glows: a strong glow would turn a black ghost olive.
        self.ghost.highlight = self.ghost.children[0].highlight = GHOST_GLOW
        low, high = RIM_GLOW
        self.rim.highlight = low + (high - low) * (0.5 + 0.5 * swing)

    # -- inside -------------------------------------------------------------------------------

    def _paint_ghost(self, mover: Color) -> None:
        disc = self.scene.materials.get("disc", Material())
        material = Material((*self.ghost_colour(mover), 1.0), disc.specular, disc.shininess)
        self.ghost.material = material
        self.ghost.children[0].material = material
        self.rim.material = Material((*self.rim_colour(), 1.0), disc.specular, disc.shininess)

    def _glow(self, sq: int, amount: float) -> None:
        self.discs[sq].highlight = amount
        self.unders[sq].highlight = amount

    def _tilt(self, position: Position, move: int) -> None:
        """Tilt and light the discs ``move`` would flip, each about the axis it would turn
        on, as if it started to roll away from the new disc."""
        angle = math.radians(self.scene.number("preview_tilt"))
        lift = 0.45 * math.sin(angle)  # the rim stays above the felt
        mr, mc = divmod(move, 8)
        for sq in squares(position.flips(move)):
            r, c = divmod(sq, 8)
            axis = (float(r - mr), 0.0, float(-(c - mc)))
            base = UP_BLACK if position.black >> sq & 1 else UP_WHITE
            node = self.discs[sq]
            turn = quat_from_axis_angle(axis, angle).astype("f8")
            node.rotation = pyrr.quaternion.cross(turn, base.astype("f8")).astype("f4")
            node.position = self.center(sq, self.rest + lift)
            self._glow(sq, PREVIEW_GLOW)
            self.tilted.add(sq)

    def _untilt(self, position: Position) -> None:
        """Lay the discs the hover preview tilted flat again, as ``position`` has them."""
        for sq in self.tilted:
            node = self.discs[sq]
            node.rotation = UP_BLACK if position.black >> sq & 1 else UP_WHITE
            node.position = self.center(sq, self.rest)
        self.tilted.clear()

    # -- a move, animated ---------------------------------------------------------------------

    def move_tween(self, before: Position, move: int) -> Tween | None:
        """The tween that plays ``move`` from ``before`` (None for a pass, or when the look
        does not animate: the caller then snaps the board); the new disc is shown above its
        square at once. Flips turn outward from the new disc, nearer discs first, each about
        the axis across the line from the new disc, so it rolls away. The look's speed
        divides every time."""
        self._untilt(before)
        self.hide_marks()
        if move == PASS or not self.look.animation:
            return None
        s = self.scene
        pace = 1.0 / SPEEDS[self.look.speed]
        disc = self.discs[move]
        rest = self.center(move, self.rest)
        disc.hidden = False
        disc.rotation = UP_BLACK if before.to_move is Color.BLACK else UP_WHITE
        disc.position = rest + np.array([0.0, s.number("drop_height"), 0.0], dtype="f4")
        steps: list[Tween] = [MoveTo(disc, rest, duration=s.number("drop_time") * pace)]
        mr, mc = divmod(move, 8)
        flipped = squares(before.flips(move))
        order = sorted((max(abs(sq // 8 - mr), abs(sq % 8 - mc)), sq) for sq in flipped)
        flip_time = s.number("flip_time") * pace
        lift = np.array([0.0, s.number("flip_height"), 0.0], dtype="f4")
        turns: list[Tween] = []
        for dist, sq in order:
            node = self.discs[sq]
            r, c = divmod(sq, 8)
            axis = (float(r - mr), 0.0, float(-(c - mc)))  # perpendicular to the direction
            base = self.center(sq, self.rest)
            turns.append(
                Sequence(
                    Wait((dist - 1) * s.number("flip_stagger") * pace),
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
        return Sequence(*steps)

    # -- geometry -----------------------------------------------------------------------------

    def center(self, sq: int, height: float) -> np.ndarray[Any, Any]:
        """The centre of square ``sq``, ``height`` above the felt."""
        a1 = self.scene.anchor("a1")
        step = self.scene.number("square")
        row, col = divmod(sq, 8)
        return np.array([a1[0] + col * step, height, a1[2] + row * step], dtype="f4")

    def square_at(self, hit: Any) -> int | None:
        """The square under the world point ``hit`` (where the mouse's pick met the felt, a
        disc or a mark), or None off the board or for no point."""
        if hit is None:
            return None
        a1 = self.scene.anchor("a1")
        step = self.scene.number("square")
        col = math.floor((hit[0] - a1[0]) / step + 0.5)
        row = math.floor((hit[2] - a1[2]) / step + 0.5)
        if 0 <= col < 8 and 0 <= row < 8:
            return int(row * 8 + col)
        return None

    def labels(self) -> list[tuple[str, Any]]:
        """The coordinates around the board, on the frame: a-h along the near and far edges,
        1-8 down both sides. (The hint's score is in the banner, where it covers nothing.)"""
        off = 0.5 + self.scene.number("label_offset")
        out: list[tuple[str, Any]] = []
        for i in range(8):
            letter, number = chr(ord("a") + i), str(i + 1)
            out.append((letter, self.center(i, 0.1) - np.array([0, 0, off], "f4")))
            out.append((letter, self.center(56 + i, 0.1) + np.array([0, 0, off], "f4")))
            out.append((number, self.center(8 * i, 0.1) - np.array([off, 0, 0], "f4")))
            out.append((number, self.center(8 * i + 7, 0.1) + np.array([off, 0, 0], "f4")))
        return out
