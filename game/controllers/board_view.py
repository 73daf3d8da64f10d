"""The board of a described game in the scene, built from the description's geometry: the
cells or points and lines, the pieces (stacks where a position holds several), the rings that
show where a click can go, the last move and the hint, and the coordinates at the edges.

:class:`BoardView` draws what it is told: the controller hands it states and marks. Board
units (a position's ``xy``) map to the scene by :meth:`BoardView.world`: x to the right, the
first row nearest the camera, the whole board scaled so its larger side is the scene's
``span``. Pieces are the meshes of :data:`SHAPE_MESH`, tinted with their owner's colour.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from game.engine.scene import Node, Scene, quat_from_axis_angle
from game.logic.rules.design import Design

__all__ = [
    "SHAPE_MESH",
    "BoardView",
    "Marks",
    "Stack",
    "board_style",
    "grid_labels",
    "last_move_colour",
    "piece_meshes",
    "stacks_of",
]

#: The mesh of each piece shape a description may name (``(shape NAME)``).
SHAPE_MESH: dict[str, str] = {
    "man": "man",
    "king": "king",
    "pawn": "pawn",
    "knight": "knight",
    "bishop": "bishop",
    "rook": "rook",
    "queen": "queen",
    "disc": "counter",
    "stone": "stone",
    "cross": "cross",
    "ring": "ring",
}

#: Colours of the board's parts (RGB 0..1) by style; see :func:`board_style`.
STYLES: dict[str, dict[str, tuple[float, float, float]]] = {
    "checkered": {"light": (0.92, 0.84, 0.68), "dark": (0.50, 0.33, 0.21), "line": (0, 0, 0)},
    "felt": {"light": (0.14, 0.46, 0.27), "dark": (0.14, 0.46, 0.27), "line": (0.05, 0.2, 0.1)},
    "paper": {"light": (0.93, 0.90, 0.82), "dark": (0.93, 0.90, 0.82), "line": (0.2, 0.17, 0.15)},
    "points": {"light": (0.86, 0.68, 0.42), "dark": (0.86, 0.68, 0.42), "line": (0.16, 0.1, 0.06)},
    "hex": {"light": (0.90, 0.80, 0.62), "dark": (0.74, 0.58, 0.40), "line": (0.2, 0.14, 0.1)},
}
WOOD = (0.42, 0.26, 0.15)
#: The last move's rings: red, or violet where a player's pieces are red (Tic-tac-toe's X).
LAST_COLOURS = (("red", (0.95, 0.30, 0.22)), ("violet", (0.62, 0.36, 0.98)))

#: One piece of a stack: (owner, type name).
Stack = list[tuple[int, str]]


@dataclass
class Marks:
    """What the board shows besides the pieces. Positions are indices of the board."""

    steps: Sequence[int] = ()  # where the next click of a person's move can go
    spots: Sequence[int] = ()  # where a person can place a piece
    movable: Sequence[int] = ()  # pieces a person can move (and drops, when few)
    selected: Sequence[int] = ()  # the path clicked so far
    hover: int | None = None
    last: Sequence[int] = ()  # the last move's path
    hint: Sequence[int] = ()  # the hint's path (one position: a drop)


class BoardView:
    """The board's nodes in ``scene`` for ``design``; ``bounds`` are the meshes' boxes (the
    Director's), for the height of a stack. ``turned``: the board is seen from the other side
    (the last row nearest the camera), for a person whose pieces start there."""

    def __init__(
        self,
        scene: Scene,
        design: Design,
        bounds: Mapping[str, tuple[Any, Any]],
        turned: bool = False,
    ) -> None:
        self.scene = scene
        self.turned = turned
        self._side = -1.0 if turned else 1.0
        self.design = design
        self.bounds = bounds
        self.names = design.board.names
        board = design.board
        xy = np.asarray(board.xy, dtype="f8").reshape(-1, 2)
        self.xy = xy
        self.step = _spacing(xy)
        lo = xy.min(axis=0) - self.step / 2
        hi = xy.max(axis=0) + self.step / 2
        self.centre = (lo + hi) / 2
        self.extent = hi - lo
        self.scale = scene.number("span") / float(max(self.extent))
        self.cell = self.step * self.scale  # one cell in world units: the pieces' scale
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

    # -- geometry -------------------------------------------------------------------------

    def world(self, position: int, height: float = 0.0) -> np.ndarray:
        """The centre of ``position`` in the scene, ``height`` above the cells."""
        x, y = self.xy[position]
        return self.world_xy(float(x), float(y), height)

    def world_xy(self, x: float, y: float, height: float = 0.0) -> np.ndarray:
        s = self.scale * self._side
        return np.array([(x - self.centre[0]) * s, height, -(y - self.centre[1]) * s], dtype="f4")

    def position_at(self, ray: tuple[Any, Any] | None) -> int | None:
        """The position a mouse ray ``(origin, direction)`` points at on the board's top (the
        nearest centre, within a cell), or None."""
        if ray is None:
            return None
        origin, direction = (np.asarray(v, dtype="f8") for v in ray)
        if abs(direction[1]) < 1e-6:
            return None
        t = -origin[1] / direction[1]
        if t <= 0:
            return None
        hit = origin + t * direction
        x = hit[0] / (self.scale * self._side) + self.centre[0]
        y = -hit[2] / (self.scale * self._side) + self.centre[1]
        d = np.hypot(self.xy[:, 0] - x, self.xy[:, 1] - y)
        best = int(np.argmin(d))
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
        for position, stack in stacks_of(state).items():
            self.pieces[position] = self.place(position, stack)

    def place(self, position: int, stack: Stack, lift: float = 0.0) -> list[Node]:
        """New nodes for ``stack`` (bottom first) on ``position``, ``lift`` above rest."""
        nodes: list[Node] = []
        height = 0.0
        parts = piece_meshes(self.design, stack)
        for mesh, owner in parts:
            node = self._spawn("piece", mesh=mesh)
            node.material.color = (*(self.colour(owner) if owner >= 0 else (1, 1, 1)), 1.0)
            node.scale = np.full(3, self.cell, dtype="f4")
            node.position = self.world(position, height + lift)
            node.tags["position"] = position
            node.tags["height"] = height
            node.pickable = True
            height += self.mesh_height(mesh) * self.cell
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
        self._rings("last", [(p, 1.6, 0.0) for p in marks.last], 0.006)
        lit = marks.hover
        movable = [p for p in marks.movable if p not in marks.selected]
        self._rings("movable", [(p, 1.5, 0.2 if p == lit else 0.0) for p in movable], 0.008)
        self._rings("step", [(p, 1.1, 0.9 if p == lit else 0.0) for p in marks.steps], 0.01)
        self._rings("spot", [(p, 1.2, 0.9 if p == lit else 0.0) for p in marks.spots], 0.004)
        if len(marks.hint) == 1:  # a drop: a dot (a ring would read as Tic-tac-toe's O)
            self._rings("hint_spot", [(marks.hint[0], 1.8, 0.8)], 0.006)
        else:
            self._rings("hint", [(p, 1.25, 0.6) for p in marks.hint], 0.012)
        self._rings("visited", [(p, 1.2, 0.5) for p in marks.selected[1:]], 0.01)
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

    def _build_board(self) -> None:
        s = self.scene
        board = self.design.board
        colours = STYLES[self.style]
        border = s.number("border")
        thick = s.number("frame_height")
        top = -0.6 * s.number("cell_height") if board.kind == "square" else 0.0
        width, depth = (self.extent * self.scale + 2 * border).tolist()
        frame = self._spawn("block", name="board")
        frame.pickable = True
        frame.position = np.array([0.0, top - thick, 0.0], dtype="f4")
        frame.scale = np.array([width, thick, depth], dtype="f4")
        frame.material.color = (*(colours["light"] if board.kind == "points" else WOOD), 1.0)
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
        for i in range(cols):
            for j in range(rows):
                node = self._spawn("block")
                x, y = base[0] + i * step, base[1] + j * step
                node.position = self.world_xy(float(x), float(y), -h)
                node.scale = np.array([self.cell, h, self.cell], dtype="f4")
                tone = "dark" if (i + j) % 2 == parity else "light"
                node.material.color = (*colours[tone], 1.0)
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

    def _hexagons(self, colours: Mapping[str, tuple[float, float, float]]) -> None:
        """A hexagonal cell on each position, touching its neighbours side to side."""
        radius = self.step / math.sqrt(3.0) * 0.96
        flat = _has_horizontal_neighbour(self.xy, self.step)
        turn = quat_from_axis_angle((0.0, 1.0, 0.0), 0.0 if flat else math.pi / 6)
        for p in range(len(self.xy)):
            node = self._spawn("hexagon")
            node.position = self.world(p, 0.0)
            r = radius * self.scale
            node.scale = np.array([r, 0.4, r], dtype="f4")
            node.rotation = turn
            x, y = self.xy[p]
            tone = "dark" if (round(x * 2) + round(y * 2)) % 3 == 0 else "light"
            node.material.color = (*colours[tone], 1.0)

    def _points(self, colours: Mapping[str, tuple[float, float, float]]) -> None:
        """A dot on each point and the lines between them: the links the description draws,
        else the links between neighbouring points along the grid (Gomoku's lines)."""
        board = self.design.board
        xy, step = self.xy, self.step
        segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
        if board.drawn:
            pairs: Iterable[tuple[int, int]] = board.drawn
        else:
            found = set()
            for row in board.links:
                for p, q in enumerate(row):
                    if q < 0 or (q, p) in found:
                        continue
                    d = xy[q] - xy[p]
                    axis = abs(d[0]) < 1e-6 or abs(d[1]) < 1e-6
                    if axis and abs(float(np.hypot(*d)) - step) < 1e-6:
                        found.add((p, q))
            pairs = sorted(found)
        for p, q in pairs:
            segments.append(
                ((float(xy[p, 0]), float(xy[p, 1])), (float(xy[q, 0]), float(xy[q, 1])))
            )
        self._bars(segments, colours["line"], 0.002)
        if segments and not board.drawn:
            return  # the lines' crossings are the points (Gomoku): dots would only clutter
        size = 0.16
        for p in range(len(xy)):
            node = self._spawn("point")
            node.position = self.world(p, 0.0)
            node.scale = np.array([size / 0.12 * self.cell, 1.0, size / 0.12 * self.cell], "f4")
            node.material.color = (*colours["line"], 1.0)

    def _bars(
        self,
        segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
        colour: tuple[float, float, float],
        lift: float,
    ) -> None:
        width = max(0.02, self.scene.number("line_width") * self.cell)
        for (ax, ay), (bx, by) in _merge_lines(segments):
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

    def _make_labels(self) -> list[tuple[str, np.ndarray]]:
        names, xy, step = self.names, self.xy, self.step
        off = self.scene.number("label_offset") + self.scene.number("border") * 0.2
        lo = xy.min(axis=0) - step / 2
        hi = xy.max(axis=0) + step / 2
        out: list[tuple[str, np.ndarray]] = []
        grid = grid_labels(names, xy)
        c = self.cell
        if grid is not None:
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
            out.extend((name, self.world(p) + corner) for p, name in enumerate(names))
        elif len(names) <= 48:
            beside = np.array([0.32 * c, 0.02, -0.32 * c], dtype="f4")
            out.extend((name, self.world(p) + beside) for p, name in enumerate(names))
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
        while len(pool) < count:
            node = self._spawn(prototype)
            node.hidden = True
            if kind == "last":
                node.material.color = (*self.last_colour, 1.0)
            elif kind == "hint_spot":  # the hint's own gold, deeper than a legal dot's
                node.material.color = (1.0, 0.66, 0.08, 1.0)
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


# -- what a description says about the look -----------------------------------------------


def board_style(design: Design) -> str:
    """How the board is drawn: ``checkered`` (a square board whose pieces move), ``felt``
    (a square board discs are placed on, Othello's), ``paper`` (other square boards pieces
    are only placed on), ``points`` (lines and points) or ``hex``."""
    kind = design.board.kind
    if kind in ("points", "hex"):
        return kind
    drops_only = all(program.drop for piece in design.pieces for program in piece.programs)
    if not drops_only:
        return "checkered"
    return "felt" if any(piece.shape == "disc" for piece in design.pieces) else "paper"


def last_move_colour(design: Design) -> tuple[str, tuple[float, float, float]]:
    """The name and colour of the last move's rings: the first of :data:`LAST_COLOURS` that
    no player's colour is close to."""
    for name, colour in LAST_COLOURS:
        near = any(
            sum((a - b) ** 2 for a, b in zip(colour, own, strict=True)) < 0.12
            for own in design.colours
        )
        if not near:
            return name, colour
    return LAST_COLOURS[0]


def piece_meshes(design: Design, stack: Stack) -> list[tuple[str, int]]:
    """The meshes a stack is drawn with, bottom first, each with its owner.

    A ``king`` in a game that also has a ``man`` is a draughts king: a man with a crown,
    and alone on its position a man on a man with the crown on top. A ``cross`` of a
    player named O is drawn as a ring (Tic-tac-toe's O)."""
    men = any(piece.shape == "man" for piece in design.pieces)
    out: list[tuple[str, int]] = []
    for level, (owner, name) in enumerate(stack):
        shape = _shape(design, name)
        if shape == "king" and men:
            out.append(("man", owner))
            if len(stack) == 1:
                out.append(("man", owner))
            if level == len(stack) - 1:
                out.append(("crown", -1))
            continue
        if shape == "cross" and _player(design, owner).upper() == "O":
            shape = "ring"
        out.append((SHAPE_MESH.get(shape, "counter"), owner))
    return out


def stacks_of(state: Any) -> dict[int, Stack]:
    """The pieces of ``state`` by position, bottom first: ``state.stacks()`` where a game has
    stacks, else one piece a position from ``state.pieces()``."""
    stacks = getattr(state, "stacks", None)
    if callable(stacks):
        return {int(p): [(int(o), str(t)) for o, t in s] for p, s in stacks().items()}
    return {int(p): [(int(o), str(t))] for p, o, t in state.pieces()}


def grid_labels(
    names: Sequence[str], xy: np.ndarray
) -> tuple[list[tuple[float, str]], list[tuple[float, str]]] | None:
    """The column letters (by x) and row numbers (by y) when every position is named by its
    column and row (``e4``), each column with one letter and each row with one number; None
    otherwise.

    >>> grid_labels(["a1", "b1", "a2"], np.array([[0, 0], [1, 0], [0, 1]]))
    ([(0.0, 'a'), (1.0, 'b')], [(0.0, '1'), (1.0, '2')])
    >>> grid_labels(["1", "2"], np.array([[0, 0], [1, 0]])) is None
    True
    """
    columns: dict[float, str] = {}
    rows: dict[float, str] = {}
    for name, (x, y) in zip(names, np.asarray(xy, dtype="f8").tolist(), strict=True):
        found = _GRID_NAME.match(name)
        if found is None:
            return None
        letter, number = found.groups()
        if columns.setdefault(round(x, 3), letter) != letter:
            return None
        if rows.setdefault(round(y, 3), number) != number:
            return None
    if len(set(columns.values())) != len(columns) or len(set(rows.values())) != len(rows):
        return None
    return sorted(columns.items()), sorted(rows.items())


_GRID_NAME = re.compile(r"^([A-Za-z]+)(\d+)$")


def _shape(design: Design, name: str) -> str:
    for piece in design.pieces:
        if piece.name == name:
            return piece.shape
    return "disc"


def _player(design: Design, owner: int) -> str:
    return design.players[owner] if 0 <= owner < len(design.players) else ""


def _spacing(xy: np.ndarray) -> float:
    """The distance between the nearest two positions (1.0 for a single position)."""
    if len(xy) < 2:
        return 1.0
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    d[d < 1e-9] = np.inf
    found = float(d.min())
    return found if math.isfinite(found) else 1.0


def _has_horizontal_neighbour(xy: np.ndarray, step: float) -> bool:
    for a in xy[: min(len(xy), 64)]:
        d = xy - a
        if np.any((np.abs(d[:, 1]) < 1e-6) & (np.abs(np.abs(d[:, 0]) - step) < 1e-6)):
            return True
    return False


def _merge_lines(
    segments: Sequence[tuple[tuple[float, float], tuple[float, float]]],
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Join segments that lie on one line and touch into one (a grid's rows become one bar
    each, so a 15x15 board is 30 bars, not 420)."""
    groups: dict[tuple[float, float, float], list[tuple[float, float]]] = {}
    for (ax, ay), (bx, by) in segments:
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        if length < 1e-9:
            continue
        ux, uy = dx / length, dy / length
        if ux < -1e-9 or (abs(ux) <= 1e-9 and uy < 0):
            ux, uy = -ux, -uy
        offset = ax * -uy + ay * ux  # distance of the line from the origin
        key = (round(ux, 4), round(uy, 4), round(offset, 4))
        t0, t1 = sorted((ax * ux + ay * uy, bx * ux + by * uy))
        groups.setdefault(key, []).append((t0, t1))
    out = []
    for (ux, uy, offset), spans in groups.items():
        spans.sort()
        start, end = spans[0]
        merged = []
        for t0, t1 in spans[1:]:
            if t0 <= end + 1e-6:
                end = max(end, t1)
            else:
                merged.append((start, end))
                start, end = t0, t1
        merged.append((start, end))
        for t0, t1 in merged:
            px, py = -uy * offset, ux * offset  # the line's point nearest the origin
            out.append(((px + ux * t0, py + uy * t0), (px + ux * t1, py + uy * t1)))
    return out
