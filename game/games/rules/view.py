"""The board of a described game in the scene, built from the description's geometry: the
cells or points and lines, the pieces (stacks where a position holds several), the rings that
show where a click can go, the last move and the hint, and the coordinates at the edges.

:class:`BoardView` draws what it is told: the controller hands it states and marks. Board
units (a position's ``xy``) map to the scene by :meth:`BoardView.world`: x to the right, the
first row nearest the camera, the whole board scaled so its larger side is the scene's
``span``. Pieces are the meshes :mod:`game.games.rules.look` names, tinted with their
owner's colour. The fixed part of the board (frame, cells, points and lines) is built by
:class:`~game.games.rules.build.BoardBuild`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from game.engine.scene import Node, Scene
from game.games.rules.build import BoardBuild
from game.games.rules.look import (
    Stack,
    board_style,
    grid_labels,
    hex_skew,
    last_move_colour,
    piece_meshes,
    spacing,
    stacks_of,
)
from game.games.rules.shelf import HALF_TURN, TOKEN, Shelf, turned_half
from game.logic.rules.design import Design

__all__ = ["BoardView", "Marks"]


#: How much wider than `span` a board wider than deep may be drawn.
WIDE_BOARD = 1.3

#: Seeds on the bottom layer of a pit's pile, and the turn between one seed and the next.
PILE_LAYER = 9
GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))

#: The colour of the winning line or chain's rings.
WON = (1.0, 0.9, 0.45)


@dataclass
class Marks:
    """What the board shows besides the pieces. Positions are indices of the board."""

    steps: Sequence[int] = ()  # where the next click of a person's move can go
    spots: Sequence[int] = ()  # where a person can place a piece
    movable: Sequence[int] = ()  # pieces a person can move
    selected: Sequence[int] = ()  # the path clicked so far
    hover: int | None = None
    last: Sequence[int] = ()  # the last move's path
    hint: Sequence[int] = ()  # the hint's path (one position: a drop)
    take: Sequence[int] = ()  # pieces a click takes, to choose among moves (a mill's)
    won: Sequence[int] = ()  # the winning line or chain, when the game is won


class BoardView(BoardBuild):
    """The board's nodes in ``scene`` for ``design``; ``bounds`` are the meshes' boxes (the
    Director's), for the height of a stack. ``quarter``: the board is turned by that many
    quarter turns, so that the person's side is nearest the camera (2: seen from the other
    side, the last row nearest; 1 and 3: from the right or the left, for a person of a
    four-player game whose pieces start there)."""

    def __init__(
        self,
        scene: Scene,
        design: Design,
        bounds: Mapping[str, tuple[Any, Any]],
        quarter: int = 0,
    ) -> None:
        self.scene = scene
        self.quarter = quarter % 4
        self.turned = self.quarter == 2
        # Board coordinates about the centre to the camera's: (x, y) -> (x*a - y*b, x*b + y*a).
        self._turn = ((1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0))[self.quarter]
        self.design = design
        #: The seat whose view the board shows, where pieces are concealed (None: all).
        self.watcher: int | None = None
        self.bounds = bounds
        self.names = design.board.names
        board = design.board
        xy = np.asarray(board.xy, dtype="f8").reshape(-1, 2)
        self.grid = xy  # the description's own coordinates
        self.skew = hex_skew(board) if board.kind == "hex" else 0.0
        if self.skew:  # a hex grid in columns and rows: each row half a cell along
            xy = np.column_stack([xy[:, 0] + self.skew * xy[:, 1], xy[:, 1] * math.sqrt(0.75)])
        self.xy = xy
        # Positions that never hold a piece (Surakarta's loop arcs) are drawn as lines only.
        self.off_board: frozenset[int] = frozenset(getattr(board, "off_board", ()))
        self.playable = [p for p in range(len(xy)) if p not in self.off_board]
        # A position's stack layer lifts its piece over those below it; the pieces are sized
        # by the positions on the board itself (layer 0).
        self.layer = np.asarray(board.look.layer or [0] * len(xy), dtype="f8")
        ground = [p for p in self.playable if not self.layer[p]]
        self.step = spacing(xy[ground] if ground else xy)
        lo = xy.min(axis=0) - self.step / 2
        hi = xy.max(axis=0) + self.step / 2
        self.centre = (lo + hi) / 2
        self.extent = hi - lo
        # The larger side is `span` long; a board much wider than deep (Kalah's two rows)
        # may run wider, as the view is wider than it is deep.
        width, depth = (float(v) for v in self.extent[:: -1 if self.quarter % 2 else 1])
        self.scale = scene.number("span") / max(
            width / WIDE_BOARD, depth, width if width < depth else 0.0
        )
        self.cell = self.step * self.scale  # one cell in world units: the pieces' scale
        if board.look.layer:  # a layer is as high as the first piece's shape
            mesh = piece_meshes(design, [(0, design.pieces[0].name)])[0][0]
            self.layer *= self.mesh_height(mesh) * self.cell
        self.style = board_style(design)
        self.last_name, self.last_colour = last_move_colour(design)
        self._nodes: list[str] = []  # every node this view added (released on rebuild)
        self._serial = 0
        self.pieces: dict[int, list[Node]] = {}
        self._pools: dict[str, list[Node]] = {}
        self.hint: Sequence[int] = ()
        self._build_board()
        self.arrow = self._spawn("arrow")
        self._labels = self._make_labels()
        self.shelf = Shelf(self)  # pieces in hand (shogi's)

    # -- geometry -------------------------------------------------------------------------

    def world(self, position: int, height: float = 0.0) -> np.ndarray:
        """The centre of ``position`` in the scene, ``height`` above the cells."""
        x, y = self.xy[position]
        return self.world_xy(float(x), float(y), height + float(self.layer[position]))

    def world_xy(self, x: float, y: float, height: float = 0.0) -> np.ndarray:
        (a, b), s = self._turn, self.scale
        dx, dy = x - self.centre[0], y - self.centre[1]
        return np.array([(dx * a - dy * b) * s, height, -(dx * b + dy * a) * s], dtype="f4")

    def position_at(self, hit: Any, steps: Sequence[int] = ()) -> int | None:
        """The position under the world point ``hit`` (where the mouse's pick met the
        board): the nearest centre, within a cell; None off the board or for no point. Of
        positions on one spot, layer over layer: the one of ``steps`` (where a click can go
        now), else the top piece, else the lowest."""
        if hit is None:
            return None
        (a, b), s = self._turn, self.scale
        u, v = hit[0] / s, -hit[2] / s  # the turned coordinates; turned back below
        x = u * a + v * b + self.centre[0]
        y = -u * b + v * a + self.centre[1]
        d = np.hypot(self.xy[:, 0] - x, self.xy[:, 1] - y)
        d[list(self.off_board)] = np.inf
        best = int(np.argmin(d))
        spot = [p for p in np.flatnonzero(d <= d[best] + 1e-9).tolist() if p not in self.off_board]
        if len(spot) > 1:
            spot.sort(key=lambda p: self.layer[p])
            held = [p for p in spot if p in self.pieces]
            best = next((p for p in spot if p in steps), held[-1] if held else spot[0])
        limit = 0.5 if self.design.board.kind == "square" else 0.55
        if self.design.board.kind == "square":
            dx, dy = abs(self.xy[best, 0] - x), abs(self.xy[best, 1] - y)
            return best if max(dx, dy) <= limit * self.step else None
        return best if d[best] <= limit * self.step else None

    def position_of(self, node: Node | None) -> int | None:
        """The position of a piece node (its stack's), or None for any other node."""
        if node is None:
            return None
        found = node.tags.get("position")
        return found if isinstance(found, int) else None

    # -- pieces ---------------------------------------------------------------------------

    def snap(self, state: Any) -> None:
        """Every piece where ``state`` has it, at rest, in its owner's colour."""
        for nodes in self.pieces.values():
            for node in nodes:
                self._remove(node.name)
        self.pieces = {}
        for position, stack in stacks_of(state, self.watcher).items():
            self.pieces[position] = self.place(position, stack)
        self.shelf.show(state)

    def place(self, position: int, stack: Stack, lift: float = 0.0) -> list[Node]:
        """New nodes for ``stack`` (bottom first) on ``position``, ``lift`` above rest; in a
        game of counters, a pile of seeds spread over the pit."""
        if self.design.counters:
            return self._pile(position, stack, lift)
        nodes: list[Node] = []
        height = 0.0
        parts = piece_meshes(self.design, stack)
        for mesh, owner in parts:
            node = self._spawn("piece", mesh=mesh)
            # The crown keeps its own gold; a piece no one owns takes the extra colour.
            tint = (1.0, 1.0, 1.0) if mesh == "crown" else self.colour(owner)
            node.material.color = (*tint, 1.0)
            node.scale = np.full(3, self.cell, dtype="f4")
            node.position = self.world(position, height + lift)
            node.tags["position"] = position
            node.tags["height"] = height
            node.pickable = True
            if mesh == TOKEN and turned_half(owner, self.turned):  # it points at the enemy
                node.rotation = HALF_TURN.copy()
            height += self.mesh_height(mesh) * self.cell
            nodes.append(node)
        return nodes

    def _pile(self, position: int, stack: Stack, lift: float) -> list[Node]:
        """Seeds lying in a pit: up to ``PILE_LAYER`` on the bottom spread out on a
        sunflower spiral, the next layer on top of them turned a little, each seed a shade
        of its colour of its own so that the pile reads as loose stones."""
        nodes: list[Node] = []
        seed = 0.42 * self.cell
        for i, (mesh, owner) in enumerate(piece_meshes(self.design, stack)):
            layer, k = divmod(i, PILE_LAYER)
            angle = k * GOLDEN_ANGLE + layer * 0.8
            radius = 0.34 * self.cell * math.sqrt((k + 0.5) / PILE_LAYER)
            offset = np.array([radius * math.cos(angle), 0.0, radius * math.sin(angle)], "f4")
            height = layer * 0.55 * self.mesh_height(mesh) * seed
            node = self._spawn("piece", mesh=mesh)
            shade = 0.82 + 0.3 * ((i * 0.6180339) % 1.0)
            r, g, b = self.colour(owner)
            node.material.color = (
                min(1.0, r * shade),
                min(1.0, g * shade),
                min(1.0, b * shade),
                1.0,
            )
            node.scale = np.full(3, seed, dtype="f4")
            node.position = self.world(position, height + lift) + offset
            node.tags["position"] = position
            node.tags["height"] = height
            node.pickable = True
            nodes.append(node)
        return nodes

    def stack_height(self, position: int) -> float:
        """How high the pieces on ``position`` stand, in world units (0 when empty)."""
        nodes = self.pieces.get(position, [])
        if not nodes:
            return 0.0
        top = nodes[-1]
        assert top.mesh is not None
        return float(top.tags.get("height", 0.0)) + self.mesh_height(top.mesh) * self.cell

    def mesh_height(self, mesh: str) -> float:
        lo, hi = self.bounds.get(mesh, ((0.0, 0.0, 0.0), (0.0, 0.1, 0.0)))
        return float(hi[1] - lo[1])

    def colour(self, owner: int) -> tuple[float, float, float]:
        colours = self.design.colours
        players = len(self.design.players)
        if owner < 0 and len(colours) > players:  # the colour of the pieces no one owns
            owner = players
        if 0 <= owner < len(colours):
            r, g, b = colours[owner]
            return (float(r), float(g), float(b))
        return (0.8, 0.8, 0.8)

    # -- marks ----------------------------------------------------------------------------

    def hide_marks(self) -> None:
        """No rings, lines, arrow or glow (while a move plays)."""
        for pool in self._pools.values():
            for node in pool:
                node.hidden = True
        self.arrow.hidden = True
        self.hint = ()
        for nodes in self.pieces.values():
            for node in nodes:
                node.highlight = 0.0

    def show_marks(self, marks: Marks, clock: float = 0.0) -> None:
        """Rings where the next click can go (the hovered one lit), halos under the pieces
        that can move and on the last move, the clicked path and the hint's path with its
        arrow."""
        self.hide_marks()
        c = self.cell
        self._rings("last", [(p, 1.7, 0.0) for p in marks.last], 0.006)
        lit = marks.hover
        movable = [p for p in marks.movable if p not in marks.selected]
        self._rings("movable", [(p, 1.6, 0.2 if p == lit else 0.0) for p in movable], 0.008)
        self._rings("step", [(p, 1.1, 0.9 if p == lit else 0.0) for p in marks.steps], 0.01)
        self._rings("spot", [(p, 1.2, 0.9 if p == lit else 0.0) for p in marks.spots], 0.004)
        if len(marks.hint) == 1:  # a drop: a dot (a ring would read as Tic-tac-toe's O)
            self._rings("hint_spot", [(marks.hint[0], 1.8, 0.8)], 0.006)
        else:
            self._rings("hint", [(p, 1.25, 0.6) for p in marks.hint], 0.012)
        # The clicked path: a ring on each step after the piece (and on a drop's place).
        visited = [p for i, p in enumerate(marks.selected) if i or p not in self.pieces]
        self._rings("visited", [(p, 1.2, 0.5) for p in visited], 0.01)
        self._rings("take", [(p, 1.7, 0.9 if p == lit else 0.3) for p in marks.take], 0.012)
        self._rings("won", [(p, 1.5, 0.9) for p in marks.won], 0.014)
        if marks.won and _straight(self.xy, marks.won):  # a row of N: a bar along it
            self._lines("won_line", marks.won, WON, 0.05 * c, 0.2 * c)
        for p in marks.won:
            for node in self.pieces.get(p, []):
                node.highlight = 0.35
        # The clicked path and the hint's run just over a man's height, so the pieces they
        # pass over do not hide them.
        self._lines("path", marks.selected, (0.55, 0.85, 0.98), 0.03 * c, 0.16 * c)
        self._lines("hint_line", marks.hint, (1.0, 0.78, 0.20), 0.04 * c, 0.17 * c)
        for p in (*marks.selected[:1], *marks.hint[:1]):
            for node in self.pieces.get(p, []):
                node.highlight = 0.7
        if marks.hover is not None and marks.hover in marks.movable and not marks.selected:
            for node in self.pieces.get(marks.hover, []):
                node.highlight = 0.3
        self.hint = tuple(marks.hint)
        if self.hint:
            self.arrow.hidden = False
            self.arrow.scale = np.full(3, min(max(c, 1.1), 1.6), dtype="f4")
            self.bob(clock)

    def bob(self, clock: float) -> None:
        """Float the hint's arrow up and down over the hint's last position."""
        if not self.hint or self.arrow.hidden:
            return
        end = self.hint[-1]
        lift = self.stack_height(end) + 0.25 + 0.1 * (1.0 + math.sin(clock * 4.0))
        self.arrow.position = self.world(end, lift)

    # -- labels ---------------------------------------------------------------------------

    def labels(self) -> list[tuple[str, np.ndarray]]:
        """The coordinates: letters and numbers at the edges for a grid of names like
        ``e4``, each position's number in its cell's corner for numbered boards (draughts),
        the names beside the points of a small drawn board."""
        return self._labels

    # -- building -------------------------------------------------------------------------

    def release(self) -> None:
        """Take every node this view added out of the scene."""
        for name in self._nodes:
            if name in self.scene.nodes:
                self.scene.remove(name)
        self._nodes = []
        self.pieces = {}
        self._pools = {}

    def _make_labels(self) -> list[tuple[str, np.ndarray]]:
        on = self.playable
        names, xy, step = [self.names[p] for p in on], self.xy[on], self.step
        off = self.scene.number("label_offset") + self.scene.number("border") * 0.2
        lo = self.xy.min(axis=0) - step / 2  # the board's edges, the loops' too
        hi = self.xy.max(axis=0) + step / 2
        out: list[tuple[str, np.ndarray]] = []
        grid = grid_labels(names, xy)
        c = self.cell
        hexes = grid_labels(names, self.grid[on]) if self.skew else None
        if hexes is not None:  # a hex grid's rows lean: each label beside its end cell
            cells = np.round(self.grid[on]).astype(int).tolist()
            cell_at = {(x, y): p for p, (x, y) in zip(on, cells, strict=True)}
            (x0, y0), (x1, y1) = np.min(cells, axis=0).tolist(), np.max(cells, axis=0).tolist()
            for x, text in hexes[0]:
                p = cell_at.get((round(x), y1 if self.turned else y0))
                if p is not None:
                    out.append((text, self.world(p, 0.05) + np.array([0, 0, 0.9 * c], "f4")))
            for y, text in hexes[1]:
                for x, sign in ((x0, -1.0), (x1, 1.0)):
                    p = cell_at.get((round(x), round(y)))
                    if p is not None:
                        out.append((text, self.world(p, 0.05) + np.array([sign * c, 0, 0], "f4")))
        elif grid is not None and self.quarter % 2:  # seen from the right or the left
            columns, rows = grid
            near_column = float(hi[0] if self.quarter == 1 else lo[0])
            for y, text in rows:
                near = self.world_xy(near_column, y, 0.05)
                out.append((text, near + np.array([0.0, 0.0, off], "f4")))
            for x, text in columns:
                for edge in (float(lo[1]), float(hi[1])):
                    at = self.world_xy(x, edge, 0.05)
                    out.append((text, at + np.array([math.copysign(off, at[0]), 0, 0], "f4")))
        elif grid is not None:
            columns, rows = grid
            near_row = float(hi[1] if self.turned else lo[1])
            for x, text in columns:
                # The near edge only: at the far edge the pieces of the last row stand in
                # front of the letters.
                near = self.world_xy(x, near_row, 0.05)
                out.append((text, near + np.array([0.0, 0.0, off], "f4")))
            for y, text in rows:
                for edge in (float(lo[0]), float(hi[0])):
                    at = self.world_xy(edge, y, 0.05)
                    out.append((text, at + np.array([math.copysign(off, at[0]), 0, 0], "f4")))
        elif all(n.isdigit() for n in names) and self.design.board.kind == "square":
            # The near left corner: a piece's top, seen from the camera, covers the far one.
            corner = np.array([-0.29 * c, 0.02, 0.31 * c], dtype="f4")
            out.extend((self.names[p], self.world(p) + corner) for p in on)
        elif self.design.board.look.columns:  # each column's name by its base, outside it
            for column in self.design.board.look.columns:
                first = column.positions[0]
                x, y = self.xy[first] - 0.85 * np.asarray(column.step, dtype="f8")
                out.append((self.names[first], self.world_xy(float(x), float(y), 0.05)))
        elif len(names) <= 48:
            beside = np.array([0.32 * c, 0.02, -0.32 * c], dtype="f4")
            out.extend((self.names[p], self.world(p) + beside) for p in on)
        return out

    # -- node pools -------------------------------------------------------------------------

    def _rings(self, kind: str, rings: Sequence[tuple[int, float, float]], lift: float) -> None:
        pool = self._pool(kind, len(rings))
        for node, (p, size, glow) in zip(pool, rings, strict=False):
            node.hidden = False
            node.position = self.world(p, lift)
            node.scale = np.array([size * self.cell, 1.0, size * self.cell], dtype="f4")
            node.highlight = glow

    def _lines(
        self,
        kind: str,
        path: Sequence[int],
        colour: tuple[float, float, float],
        width: float,
        lift: float,
    ) -> None:
        pairs = list(pairwise(path))
        pool = self._pool(kind, len(pairs))
        for node, (a, b) in zip(pool, pairs, strict=False):
            node.hidden = False
            a_, b_ = self.world(a, lift), self.world(b, lift)
            self._stretch(node, a_, b_, max(width, 0.05), 0.02)
            node.material.color = (*colour, 1.0)

    def _pool(self, kind: str, count: int) -> list[Node]:
        pool = self._pools.setdefault(kind, [])
        prototype = {"path": "hint_line", "visited": "movable", "hint_spot": "spot"}.get(kind, kind)
        prototype = "step" if kind in ("take", "won") else prototype
        prototype = "hint_line" if kind == "won_line" else prototype
        while len(pool) < count:
            node = self._spawn(prototype)
            node.hidden = True
            if kind == "last":
                node.material.color = (*self.last_colour, 1.0)
            elif kind == "hint_spot":  # the hint's own gold, deeper than a legal dot's
                node.material.color = (1.0, 0.66, 0.08, 1.0)
            elif kind == "won":
                node.material.color = (*WON, 1.0)
            pool.append(node)
        return pool[:count]

    def _spawn(self, prototype: str, name: str | None = None, **overrides: Any) -> Node:
        if name is None:
            self._serial += 1
            name = f"{prototype}-{self._serial}"
        node = self.scene.spawn(prototype, name, **overrides)
        self._nodes.append(name)
        return node

    def _remove(self, name: str) -> None:
        if name in self.scene.nodes:
            self.scene.remove(name)


def _straight(xy: np.ndarray, positions: Sequence[int]) -> bool:
    """Whether ``positions`` lie on one straight line (a row of N, not a Hex chain)."""
    points = xy[list(positions)]
    d = points - points[0]
    far = d[int(np.argmax(np.hypot(d[:, 0], d[:, 1])))]
    return bool(np.all(np.abs(d[:, 0] * far[1] - d[:, 1] * far[0]) < 1e-6))
