"""What a description says about how its game looks, read by the board scene: the style of
the board, the meshes a stack of pieces is drawn with, the colour of the last move's rings,
the coordinates a grid of names has, and the geometry a board's positions imply (their
spacing, a hex grid's rows, the lines of a drawn board). Plain functions of the design and
the state (no GL).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from game.logic.rules.design import Design

__all__ = [
    "LAST_COLOURS",
    "SHAPE_MESH",
    "SPIKES",
    "SPIKE_BOARD",
    "STYLES",
    "WATER",
    "WOOD",
    "Stack",
    "board_style",
    "grid_labels",
    "has_horizontal_neighbour",
    "hex_lattice",
    "hex_skew",
    "last_move_colour",
    "merge_lines",
    "piece_meshes",
    "spacing",
    "stacks_of",
    "star_points",
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
    "pentagon": "pentagon",
}

#: Colours of the board's parts (RGB 0..1) by style; see :func:`board_style`.
STYLES: dict[str, dict[str, tuple[float, float, float]]] = {
    "checkered": {"light": (0.92, 0.84, 0.68), "dark": (0.50, 0.33, 0.21), "line": (0, 0, 0)},
    "felt": {"light": (0.14, 0.46, 0.27), "dark": (0.14, 0.46, 0.27), "line": (0.05, 0.2, 0.1)},
    "paper": {"light": (0.93, 0.90, 0.82), "dark": (0.93, 0.90, 0.82), "line": (0.2, 0.17, 0.15)},
    "points": {"light": (0.86, 0.68, 0.42), "dark": (0.86, 0.68, 0.42), "line": (0.16, 0.1, 0.06)},
    "wood": {"light": (0.88, 0.72, 0.46), "dark": (0.88, 0.72, 0.46), "line": (0.16, 0.1, 0.06)},
    "hex": {
        "light": (0.92, 0.84, 0.66),
        "mid": (0.80, 0.66, 0.46),
        "dark": (0.64, 0.47, 0.30),
        "line": (0.2, 0.14, 0.1),
    },
}
WOOD = (0.42, 0.26, 0.15)
#: The two colours of a board's triangles (``(point-shape triangle)``), by turns.
SPIKES = ((0.17, 0.34, 0.30), (0.97, 0.91, 0.76))
#: The board under them.
SPIKE_BOARD = (0.66, 0.48, 0.29)
#: Positions drawn as water (``(water ZONE)``: Barrage's lakes).
WATER = (0.30, 0.58, 0.82)
#: The last move's rings: red, or violet where a player's pieces are red (Tic-tac-toe's X).
LAST_COLOURS = (("red", (0.95, 0.30, 0.22)), ("violet", (0.62, 0.36, 0.98)))

#: One piece of a stack: (owner, type name).
Stack = list[tuple[int, str]]


def board_style(design: Design) -> str:
    """How the board is drawn: ``checkered`` (a square board whose pieces move, or one
    that says ``(checkered)``), ``wood``
    (a shogi board, for lettered tokens: plain, with lines), ``felt``
    (a square board discs are placed on, Othello's), ``paper`` (other square boards pieces
    are only placed on), ``points`` (lines and points) or ``hex``."""
    kind = design.board.kind
    if kind in ("points", "hex"):
        return kind
    if design.board.look.checkered >= 0:  # a board of positions asked to be checkered
        return "checkered"
    if any("pentagon" in piece.shapes for piece in design.pieces):
        return "wood"  # a shogi board: plain wood and lines
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
    and alone on its position a man on a man with the crown on top. Each player's piece
    takes its own shape where the description gives one per player (``(shape cross
    ring)``)."""
    men = any(piece.shape == "man" for piece in design.pieces)
    out: list[tuple[str, int]] = []
    for level, (owner, name) in enumerate(stack):
        shape = _shape(design, name, owner)
        if shape == "king" and men:
            out.append(("man", owner))
            if len(stack) == 1:
                out.append(("man", owner))
            if level == len(stack) - 1:
                out.append(("crown", -1))
            continue
        out.append((SHAPE_MESH.get(shape, "counter"), owner))
    return out


def stacks_of(state: Any, seat: int | None = None) -> dict[int, Stack]:
    """The pieces of ``state`` by position, bottom first: ``state.stacks()`` where a game has
    stacks, else one piece a position from ``state.pieces()``. With a ``seat``, the pieces
    that seat cannot see (``state.hidden_from(seat)``: another's concealed piece) are of the
    type ``?``, drawn as a blank token of their owner's colour, until the game is over: then
    every piece is shown, but on a stand-in (a server's match: its unseen types made up)."""
    stacks = getattr(state, "stacks", None)
    if callable(stacks):
        found = stacks()  # (position, pieces) pairs, or a mapping of them
        pairs = found.items() if isinstance(found, Mapping) else found
        out = {int(p): [(int(o), str(t)) for o, t in s] for p, s in pairs}
    else:
        out = {int(p): [(int(o), str(t))] for p, o, t in state.pieces()}
    hidden = getattr(state, "hidden_from", None)
    over = getattr(state, "is_terminal", None)
    shown = callable(over) and over() and not getattr(state, "stands_in", False)
    if seat is not None and callable(hidden) and not shown:
        for p in hidden(seat):
            out[p] = [(o, "?") for o, _ in out[p]]
    return out


def grid_labels(
    names: Sequence[str], xy: np.ndarray
) -> tuple[list[tuple[float, str]], list[tuple[float, str]]] | None:
    """The column letters (by x) and row numbers (by y) when every position is named by its
    column and row (``e4``, or shogi's number and letter, ``7g``), each column with one
    name and each row with one; None otherwise.

    >>> grid_labels(["a1", "b1", "a2"], np.array([[0, 0], [1, 0], [0, 1]]))
    ([(0.0, 'a'), (1.0, 'b')], [(0.0, '1'), (1.0, '2')])
    >>> grid_labels(["1", "2"], np.array([[0, 0], [1, 0]])) is None
    True
    """
    columns: dict[float, str] = {}
    rows: dict[float, str] = {}
    for name, (x, y) in zip(names, np.asarray(xy, dtype="f8").tolist(), strict=True):
        found = _GRID_NAME.match(name)
        if found is not None or (found := _FILE_RANK.match(name)) is not None:
            letter, number = found.groups()
        else:
            return None
        if columns.setdefault(round(x, 3), letter) != letter:
            return None
        if rows.setdefault(round(y, 3), number) != number:
            return None
    if len(set(columns.values())) != len(columns) or len(set(rows.values())) != len(rows):
        return None
    return sorted(columns.items()), sorted(rows.items())


_GRID_NAME = re.compile(r"^([A-Za-z]+)(\d+)$")
_FILE_RANK = re.compile(r"^(\d+)([A-Za-z]+)$")


def _shape(design: Design, name: str, owner: int = 0) -> str:
    """The shape ``owner``'s piece ``name`` is drawn as; a piece of unknown type (``?``: one
    the watcher cannot see) is drawn as the shape every piece shares, else as a disc."""
    for piece in design.pieces:
        if piece.name == name:
            return piece.shapes[owner] if 0 <= owner < len(piece.shapes) else piece.shape
    shared = {piece.shape for piece in design.pieces}
    return shared.pop() if len(shared) == 1 else "disc"


def spacing(xy: np.ndarray) -> float:
    """The distance between the nearest two positions (1.0 for a single position)."""
    if len(xy) < 2:
        return 1.0
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    d[d < 1e-9] = np.inf
    found = float(d.min())
    return found if math.isfinite(found) else 1.0


def hex_skew(board: Any) -> float:
    """How far each row of a hex grid given in columns and rows moves along: -0.5 when a
    direction steps (1, 1) (each row half a cell left of the one below it goes right), +0.5
    when one steps (1, -1); 0 when the positions are placed already (or not a grid)."""
    xy = board.xy
    if any(abs(x - round(x)) > 1e-9 or abs(y - round(y)) > 1e-9 for x, y in xy):
        return 0.0
    for row in board.links:
        for p, q in enumerate(row):
            if q >= 0:
                dx, dy = xy[q][0] - xy[p][0], xy[q][1] - xy[p][1]
                if abs(dx) == 1 and abs(dy) == 1:
                    return -0.5 if dx == dy else 0.5
                break
    return 0.0


def hex_lattice(xy: np.ndarray, step: float) -> np.ndarray:
    """Each position's whole coordinates (q, r) on a hex lattice of cells ``step`` apart
    placed anywhere (not a grid of columns and rows): the steps along a neighbour's direction
    and along that direction turned 60 degrees, from the first position. Neighbours differ in
    q - r by 1 or 2 (mod 3), so three tones by q - r never put one beside its like.

    >>> hex_lattice(np.array([[0, 0], [1, 0], [0.5, 0.866]]), 1.0).tolist()
    [[0, 0], [1, 0], [0, 1]]
    """
    xy = np.asarray(xy, dtype="f8")
    d = np.hypot(*(xy - xy[0]).T)
    near = np.flatnonzero(np.abs(d - step) < 0.2 * step)
    u = (xy[near[0]] - xy[0]) if len(near) else np.array([step, 0.0])
    c, s = math.cos(math.pi / 3), math.sin(math.pi / 3)
    v = np.array([u[0] * c - u[1] * s, u[0] * s + u[1] * c])
    solved = np.linalg.solve(np.column_stack([u, v]), (xy - xy[0]).T).T
    return np.round(solved).astype(int)


def has_horizontal_neighbour(xy: np.ndarray, step: float) -> bool:
    for a in xy[: min(len(xy), 64)]:
        d = xy - a
        if np.any((np.abs(d[:, 1]) < 1e-6) & (np.abs(np.abs(d[:, 0]) - step) < 1e-6)):
            return True
    return False


def merge_lines(
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


def star_points(xy: np.ndarray) -> list[int]:
    """The star points (hoshi) of a square board of lines, as Go boards mark them: the
    points the fourth line crosses (the third below 13 lines), the centre of an odd board,
    and on 15 lines or more the middles of the sides between; none below 7 lines."""
    xs = sorted({round(float(x), 6) for x in xy[:, 0]})
    ys = sorted({round(float(y), 6) for y in xy[:, 1]})
    size = len(xs)
    if size != len(ys) or size < 7:
        return []
    edge = 3 if size >= 13 else 2
    lines = [edge, size - 1 - edge]
    if size % 2:
        lines.insert(1, size // 2)
    marks = {(a, b) for a in lines for b in lines}
    if size % 2 and size < 15:  # corners and the centre only
        marks = {
            (a, b)
            for a in lines
            for b in lines
            if (a == b == size // 2) or (a != size // 2 and b != size // 2)
        }
    return [
        p
        for p in range(len(xy))
        if (xs.index(round(float(xy[p, 0]), 6)), ys.index(round(float(xy[p, 1]), 6))) in marks
    ]
