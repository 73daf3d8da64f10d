"""The fixed part of a described game's board in the scene, built once per board: the frame,
the cells (checkered, or lined where the board has no checks), the hexagons tinted with the
colours of the players whose goal edges they lie on, or the points and the lines between them
(a pit for each of a sowing game's positions), and the bars that draw a line.
:class:`BoardBuild` is a part of :class:`~game.games.rules.view.BoardView`, split off to
keep each module to one concern.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.scene import Node, Scene, quat_from_axis_angle
from game.games.rules.look import (
    SPIKE_BOARD,
    SPIKES,
    STYLES,
    WATER,
    WOOD,
    has_horizontal_neighbour,
    hex_lattice,
    merge_lines,
    star_points,
)
from game.logic.rules.design import Design
from game.logic.rules.sexpr import Form

__all__ = ["BoardBuild"]


class BoardBuild:
    """The board's fixed nodes (see the module docstring); the BoardView owns the state."""

    scene: Scene
    design: Design
    style: str
    xy: np.ndarray
    grid: np.ndarray
    skew: float
    step: float
    scale: float
    cell: float
    extent: np.ndarray
    playable: list[int]
    off_board: frozenset[int]
    layer: np.ndarray

    if TYPE_CHECKING:

        def world(self, position: int, height: float = 0.0) -> np.ndarray: ...
        def world_xy(self, x: float, y: float, height: float = 0.0) -> np.ndarray: ...
        def colour(self, owner: int) -> tuple[float, float, float]: ...
        def _spawn(self, prototype: str, name: str | None = None, **overrides: Any) -> Node: ...

    def _build_board(self) -> None:
        s = self.scene
        board = self.design.board
        colours = STYLES[self.style]
        border = s.number("border")
        thick = s.number("frame_height")
        top = 0.0 if board.kind == "points" else -0.6 * s.number("cell_height")
        width, depth = (self.extent * self.scale + 2 * border).tolist()
        frame = self._spawn("block", name="board")
        frame.pickable = True
        frame.position = np.array([0.0, top - thick, 0.0], dtype="f4")
        frame.scale = np.array([width, thick, depth], dtype="f4")
        frame.material.color = (*(colours["light"] if board.kind == "points" else WOOD), 1.0)
        if board.look.point_shape == "triangle":
            frame.material.color = (*SPIKE_BOARD, 1.0)
        if board.kind == "square":
            self._cells(colours)
        elif board.kind == "hex":
            self._hexagons(colours)
        else:
            self._points(colours)

    def _cells(self, colours: Mapping[str, tuple[float, float, float]]) -> None:
        """Every cell of the grid the positions lie on, checkered like the positions the
        description calls dark (a draughts board keeps only those: the others are drawn
        light); lines between the cells of a board without checks."""
        xy, step = self.xy, self.step
        base = xy.min(axis=0)
        cols, rows = (np.round((xy.max(axis=0) - base) / step).astype(int) + 1).tolist()
        present = {(int(i), int(j)) for i, j in np.round((xy - base) / step).astype(int)}
        dark = self.design.board.dark
        if dark:
            i0, j0 = np.round((xy[min(dark)] - base) / step).astype(int).tolist()
            parity = (i0 + j0) % 2
        elif len(present) < cols * rows:
            i0, j0 = next(iter(present))
            parity = (i0 + j0) % 2
        else:
            parity = -1
        h = self.scene.number("cell_height")
        water = {
            (int(i), int(j))
            for i, j in np.round((xy[sorted(self.design.board.water)] - base) / step).astype(int)
        }
        # A board with gaps (positions off the board, Ur's; a checkered board of positions,
        # Camelot's) draws only its own cells.
        gaps = bool(self.off_board) or self.design.board.look.checkered >= 0
        kept = {
            (int(i), int(j)) for i, j in np.round((xy[self.playable] - base) / step).astype(int)
        }
        at = {
            (int(i), int(j)): p for p, (i, j) in enumerate(np.round((xy - base) / step).astype(int))
        }
        for i in range(cols):
            for j in range(rows):
                if gaps and (i, j) not in kept:
                    continue
                node = self._spawn("block")
                x, y = base[0] + i * step, base[1] + j * step
                node.position = self.world_xy(float(x), float(y), -h)
                node.scale = np.array([self.cell, h, self.cell], dtype="f4")
                tone = "dark" if (i + j) % 2 == parity else "light"
                node.material.color = (*colours[tone], 1.0)
                if (i, j) in at and self._goals.get(at[i, j]):  # a tinted zone's square
                    node.material.color = (*self._tinted(at[i, j], colours[tone], 0.45), 1.0)
                if (i, j) in water:  # a lake: no piece enters it
                    node.material.color = (*WATER, 1.0)
        for p in self.design.board.marked:
            self._rosette(p)
        if self.style != "checkered":
            lines = []
            x0, y0 = base - step / 2
            x1, y1 = base + (np.array([cols, rows]) - 0.5) * step
            for i in range(cols + 1):
                x = x0 + i * step
                lines.append(((x, y0), (x, y1)))
            for j in range(rows + 1):
                y = y0 + j * step
                lines.append(((x0, y), (x1, y)))
            self._bars(lines, colours["line"], 0.001)

    def _rosette(self, position: int) -> None:
        """A mark on ``position`` (``(marked ZONE)``): a flower of five red and gold dots."""
        for k, (dx, dy) in enumerate(((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))):
            node = self._spawn("piece", mesh="disc")
            size = (0.3 if k == 0 else 0.26) * self.cell
            node.scale = np.array([size, 0.15 * size, size], dtype="f4")
            x, y = self.xy[position]
            node.position = self.world_xy(float(x) + 0.22 * dx, float(y) + 0.22 * dy, 0.004)
            node.material.color = (0.85, 0.62, 0.16, 1.0) if k == 0 else (0.62, 0.14, 0.12, 1.0)

    def _hexagons(self, colours: Mapping[str, tuple[float, float, float]]) -> None:
        """A hexagonal cell on each position, touching its neighbours side to side."""
        radius = self.step / math.sqrt(3.0) * 0.96
        flat = has_horizontal_neighbour(self.xy, self.step)
        turn = quat_from_axis_angle((0.0, 1.0, 0.0), 0.0 if flat else math.pi / 6)
        lattice = self.grid if self.skew else hex_lattice(self.xy, self.step)
        for p in range(len(self.xy)):
            node = self._spawn("hexagon")
            node.position = self.world(p, 0.0)
            r = radius * self.scale
            node.scale = np.array([r, 0.4, r], dtype="f4")
            node.rotation = turn
            # Three tones, so no two neighbours share one (in a grid of columns and rows).
            q, r = (round(v) for v in lattice[p])
            tone = ("light", "mid", "dark")[(q + r if self.skew < 0 else q - r) % 3]
            node.material.color = (*self._tinted(p, colours[tone]), 1.0)

    def _tinted(
        self, position: int, tone: tuple[float, float, float], weight: float = 0.65
    ) -> tuple[float, float, float]:
        """``tone`` mixed with the colour of each player whose goal holds ``position`` (the
        sides a Hex player joins, a zone the board tints), so that a player sees which
        edges are whose."""
        owners = self._goals.get(position)
        if not owners:
            return tone
        mix = np.mean([self.colour(o) for o in owners], axis=0)
        r, g, b = ((1 - weight) * np.asarray(tone) + weight * mix).tolist()
        return (r, g, b)

    @property
    def _goals(self) -> dict[int, list[int]]:
        """For each position in a zone that a (connects A B) end joins, or that the board
        tints (``(tint ZONE)``): the players whose part of the zone holds it."""
        cached: dict[int, list[int]] | None = self.__dict__.get("_goal_cache")
        if cached is None:
            cached = {}
            for player, part in enumerate(self.design.board.look.tinted):
                for position in part:
                    cached.setdefault(position, []).append(player)
            zones = self.design.board.zones
            for end in self.design.ends:
                for cond in _conditions(end.condition):
                    if cond.head != "connects":
                        continue
                    for zone in cond.args:
                        for player, part in enumerate(zones[str(zone.value)]):
                            for position in part:
                                if player not in cached.setdefault(position, []):
                                    cached[position].append(player)
            self.__dict__["_goal_cache"] = cached
        return cached

    def _points(self, colours: Mapping[str, tuple[float, float, float]]) -> None:
        """A dot on each point and the lines between them: the links the description draws,
        and the links between neighbouring points along the grid (Gomoku's lines, Surakarta's
        squares); on a grid of lines alone the crossings are the points, without dots."""
        board = self.design.board
        xy, step = self.xy, self.step
        for p in self._goals:  # a tinted zone's points: a wide disc of its owner's colour
            node = self._spawn("point")
            node.position = self.world(p, -0.001)
            node.scale = np.array([0.7 / 0.12 * self.cell, 1.0, 0.7 / 0.12 * self.cell], "f4")
            node.material.color = (*self._tinted(p, colours["light"], 0.5), 1.0)
        if self.design.counters:  # pits (Kalah): a wide hollow each, no lines between
            for p in self.playable:
                node = self._spawn("point")
                node.position = self.world(p, 0.0)
                wide = 0.5 * self.cell / 0.12
                node.scale = np.array([wide, 1.0, wide], "f4")
                node.material.color = (*colours["line"], 1.0)
            return
        if board.look.point_shape == "triangle":
            self._spikes()
            return
        segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
        found: set[tuple[int, int]] = set()
        given = getattr(board, "lines", ())
        if given:  # the description's own lines: their crossings are the points
            for p, q in given:
                segments.append(
                    ((float(xy[p, 0]), float(xy[p, 1])), (float(xy[q, 0]), float(xy[q, 1])))
                )
            self._bars(segments, colours["line"], 0.002)
            for p in self.playable:  # a point no line passes through gets its dot
                if not any(_on_segment(xy[p], xy[a], xy[b]) for a, b in given):
                    self._dot(p, colours["line"])
            return
        for row in board.links:
            for p, q in enumerate(row):
                if q < 0 or (q, p) in found or {p, q} & self.off_board:
                    continue
                d = xy[q] - xy[p]
                axis = abs(d[0]) < 1e-6 or abs(d[1]) < 1e-6
                if axis and abs(float(np.hypot(*d)) - step) < 1e-6:
                    found.add((p, q))
        pairs: Iterable[tuple[int, int]] = [*board.drawn, *sorted(found)]
        for p, q in pairs:
            segments.append(
                ((float(xy[p, 0]), float(xy[p, 1])), (float(xy[q, 0]), float(xy[q, 1])))
            )
        self._bars(segments, colours["line"], 0.002)
        if self.design.groups is not None:  # Go: the star points, small dots on the lines
            for p in star_points(xy):
                node = self._spawn("point")
                node.position = self.world(p, 0.0)
                node.scale = np.array([0.9 * self.cell, 1.0, 0.9 * self.cell], "f4")
                node.material.color = (*colours["line"], 1.0)
        if segments and not board.drawn:
            return  # the lines' crossings are the points (Gomoku): dots would only clutter
        for p in self.playable:
            self._dot(p, colours["line"])

    def _dot(self, position: int, colour: tuple[float, float, float]) -> None:
        """A point's dot."""
        size = 0.16
        node = self._spawn("point")
        node.position = self.world(position, 0.0)
        node.scale = np.array([size / 0.12 * self.cell, 1.0, size / 0.12 * self.cell], "f4")
        node.material.color = (*colour, 1.0)

    def _spikes(self) -> None:
        """Each column (``(point-shape triangle)``) as a long filled triangle: its base across
        the column's first position, its tip at the end of the first layer, in the two
        colours of :data:`SPIKES` by turns along each ``(column ...)``."""
        for i, column in enumerate(self.design.board.look.columns):
            first = self.xy[column.positions[0]]
            step = np.asarray(column.step, dtype="f8")
            (bx, by), (tx, ty) = (first - step / 2), (first + (column.fold - 0.5) * step)
            base = self.world_xy(float(bx), float(by), 0.001)
            tip = self.world_xy(float(tx), float(ty), 0.001)
            d = tip - base
            node = self._spawn("spike")
            node.position = base
            node.scale = np.array([0.96 * self.cell, 1.0, float(np.hypot(d[0], d[2]))], "f4")
            node.rotation = quat_from_axis_angle((0.0, 1.0, 0.0), math.atan2(-d[0], -d[2]))
            node.material.color = (*SPIKES[i % 2], 1.0)
        self._bar()

    def _bar(self) -> None:
        """A wooden bar across the board in each gap wider than a triangle between the
        triangles and the positions beside them (Backgammon's bar between the two halves,
        and the wall before the trays)."""
        columns = self.design.board.look.columns
        across = 0 if abs(columns[0].step[0]) < abs(columns[0].step[1]) else 1
        ground = [p for p in self.playable if not self.layer[p]]
        bases = sorted({round(float(self.xy[p, across]), 6) for p in ground})
        lo = self.xy.min(axis=0) - self.step / 2
        hi = self.xy.max(axis=0) + self.step / 2
        for a, b in pairwise(bases):
            if b - a <= 1.5 * self.step:
                continue
            middle, wide = (a + b) / 2, b - a - self.step
            a_, b_ = self.world_xy(middle, float(lo[1])), self.world_xy(middle, float(hi[1]))
            if across:
                a_, b_ = self.world_xy(float(lo[0]), middle), self.world_xy(float(hi[0]), middle)
            node = self._spawn("block")
            self._stretch(node, a_, b_, 0.0, 0.02)
            node.scale = np.array([node.scale[0], 0.02, wide * self.scale], dtype="f4")
            node.material.color = (*WOOD, 1.0)

    def _bars(
        self,
        segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
        colour: tuple[float, float, float],
        lift: float,
    ) -> None:
        width = max(0.02, self.scene.number("line_width") * self.cell)
        for (ax, ay), (bx, by) in merge_lines(segments):
            a = self.world_xy(ax, ay, lift)
            b = self.world_xy(bx, by, lift)
            node = self._spawn("block")
            self._stretch(node, a, b, width, 0.004)
            node.material.color = (*colour, 1.0)

    def _stretch(
        self, node: Node, a: np.ndarray, b: np.ndarray, width: float, height: float
    ) -> None:
        """Lay the unit block ``node`` from ``a`` to ``b`` (a bar ``width`` wide)."""
        d = b - a
        length = float(np.hypot(d[0], d[2]))
        node.position = ((a + b) / 2).astype("f4")
        node.scale = np.array([length + width, height, width], dtype="f4")
        node.rotation = quat_from_axis_angle((0.0, 1.0, 0.0), math.atan2(-float(d[2]), float(d[0])))


def _on_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the point ``p`` lies on the segment from ``a`` to ``b``."""
    ab, ap = b - a, p - a
    cross = float(ab[0] * ap[1] - ab[1] * ap[0])
    along = float(ab @ ap)
    return abs(cross) < 1e-6 * max(1.0, float(ab @ ab)) and -1e-9 <= along <= float(ab @ ab) + 1e-9


def _conditions(item: Any) -> Iterable[Any]:
    """``item`` and every condition inside it (the forms of an end condition)."""
    if isinstance(item, Form):
        yield item
        for sub in item.args:
            yield from _conditions(sub)
