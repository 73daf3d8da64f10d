"""The MasterGrab map as geometry: every country an extruded tile (numpy only, no GL).

The pixel map is sampled onto a coarser grid of cells (``step`` pixels a side), so a
1000-country map at 3840x2160 stays a few tens of thousands of triangles. Each cell row becomes
runs of one country (a top quad each), and every edge between two countries becomes two walls,
one facing out of each side; the wrap edge of the map gets its walls too, so copies of the map
laid side by side meet seamlessly. The heights are not in the vertices: a vertex stores its
country and whether it is a top corner, and the shader raises it to that country's height, so
a conquest or a hover changes one texel, not the mesh.

Primitives are sorted into ``chunks`` x ``chunks`` blocks of the map with an index range each,
so the renderer can skip the blocks outside the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

#: Pixels of the game map per world unit.
PIXELS_PER_UNIT = 40.0
VERTEX_FLOATS = 7  # x, top flag, z, normal xyz, country


@dataclass(frozen=True)
class MapMesh:
    """Vertices (``VERTEX_FLOATS`` each), triangle indices, and per chunk its first index,
    index count and world rectangle (x0, z0, x1, z1). ``cells[yc, xc]`` is the country drawn
    at each cell, which picking uses so that a click hits what is seen."""

    vertices: npt.NDArray[np.float32]
    indices: npt.NDArray[np.uint32]
    chunks: list[tuple[int, int, tuple[float, float, float, float]]]
    cells: npt.NDArray[np.int32]
    step: int
    width: float  # world size of one copy of the map
    depth: float

    @property
    def triangles(self) -> int:
        return len(self.indices) // 3

    def country_at(self, x: float, z: float) -> int:
        """The country under world point (x, z), wrapping around the map."""
        rows, cols = self.cells.shape
        unit = self.step / PIXELS_PER_UNIT
        xc = int(np.floor(x / unit)) % cols
        yc = int(np.floor(z / unit)) % rows
        return int(self.cells[yc, xc])


def cell_grid(
    owner: npt.NDArray[np.int32], step: int, centres: tuple[tuple[int, int], ...]
) -> npt.NDArray[np.int32]:
    """``owner`` sampled at the middle of every ``step`` x ``step`` block; a country too small
    to hold a sample gets the cell of its centre pixel, so every country can be seen and hit."""
    height, width = owner.shape
    rows, cols = height // step, width // step
    ys = np.arange(rows) * step + step // 2
    xs = np.arange(cols) * step + step // 2
    cells = np.ascontiguousarray(owner[np.ix_(ys, xs)]).astype(np.int32)
    present = np.zeros(len(centres), dtype=bool)
    present[cells.ravel()] = True
    for country in np.flatnonzero(~present):
        cx, cy = centres[country]
        cells[min(cy // step, rows - 1), min(cx // step, cols - 1)] = country
    return cells


def choose_step(width: int, height: int) -> int:
    """Cells of about 4 pixels for a window-sized map, coarser for bigger ones (at most
    about 400 cells across)."""
    return max(2, int(np.ceil(max(width, height) / 400)))


def build_map_mesh(
    owner: npt.NDArray[np.int32],
    centres: tuple[tuple[int, int], ...],
    *,
    step: int | None = None,
    chunks: int = 8,
) -> MapMesh:
    """The extruded tiles of the pixel map ``owner`` (rows are y)."""
    height, width = owner.shape
    step = step or choose_step(width, height)
    cells = cell_grid(owner, step, centres)
    rows, cols = cells.shape
    unit = step / PIXELS_PER_UNIT

    quads: list[npt.NDArray[np.float32]] = []  # (n, 4, 7) corners in winding order
    keys: list[npt.NDArray[np.int64]] = []  # chunk of each quad

    def chunk_of(xc: npt.NDArray[np.int64], yc: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        cx = np.minimum(xc * chunks // cols, chunks - 1)
        cy = np.minimum(yc * chunks // rows, chunks - 1)
        return np.asarray(cy * chunks + cx, dtype=np.int64)

    # Tops: runs of one country along each row.
    starts = np.ones((rows, cols), dtype=bool)
    starts[:, 1:] = cells[:, 1:] != cells[:, :-1]
    ry, rx = np.nonzero(starts)
    ends = np.empty_like(rx)
    ends[:-1] = np.where(ry[1:] == ry[:-1], rx[1:], cols)
    ends[-1] = cols
    country = cells[ry, rx].astype(np.float32)
    x0, x1 = rx * unit, ends * unit
    z0, z1 = ry * unit, (ry + 1) * unit
    top = np.zeros((len(rx), 4, VERTEX_FLOATS), dtype=np.float32)
    # Counter-clockwise seen from above (+y): with z towards the viewer, that is x0z1, x1z1 ...
    for i, (xs, zs) in enumerate(((x0, z1), (x1, z1), (x1, z0), (x0, z0))):
        top[:, i, 0], top[:, i, 1], top[:, i, 2] = xs, 1.0, zs
    top[:, :, 4] = 1.0
    top[:, :, 6] = country[:, None]
    quads.append(top)
    keys.append(chunk_of(rx, ry))

    # Walls between columns x-1 and x (x = 0..cols-1; left of column 0 is the last column,
    # across the wrap: copies of the map are drawn side by side, so that edge stands at x = 0
    # of each copy and no wall is needed at its right end).
    left = np.roll(cells, 1, axis=1)
    differs = left != cells  # (rows, cols): an edge at the left side of each cell
    for facing in (1.0, -1.0):  # +x: the left country's wall, -x: the right country's
        owners = left if facing > 0 else cells
        wall = _merged_runs(differs.T, owners.T, (left if facing < 0 else cells).T)
        xc, y_start, y_end, who = wall
        x = xc * unit
        quads.append(_wall(x, y_start * unit, x, y_end * unit, facing, 0.0, who))
        keys.append(chunk_of(xc, y_start))
    # Walls between rows y-1 and y.
    up = np.roll(cells, 1, axis=0)
    differs = up != cells
    for facing in (1.0, -1.0):  # +z: the upper country's wall, -z: the lower country's
        owners = up if facing > 0 else cells
        yc, x_start, x_end, who = _merged_runs(differs, owners, up if facing < 0 else cells)
        z = yc * unit
        quads.append(_wall(x_start * unit, z, x_end * unit, z, 0.0, facing, who))
        keys.append(chunk_of(x_start, yc))

    corners = np.concatenate(quads)
    chunk = np.concatenate(keys)
    order = np.argsort(chunk, kind="stable")
    corners = corners[order]
    chunk = chunk[order]
    vertices = corners.reshape(-1, VERTEX_FLOATS)
    base = (np.arange(len(corners), dtype=np.uint32) * 4)[:, None]
    indices = (base + np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)).ravel()
    counts = np.bincount(chunk, minlength=chunks * chunks)
    firsts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    world_w, world_d = cols * unit, rows * unit
    spans = []
    for c in range(chunks * chunks):
        cy, cx = divmod(c, chunks)
        rect = (
            (cx * cols // chunks) * unit,
            (cy * rows // chunks) * unit,
            (((cx + 1) * cols + chunks - 1) // chunks) * unit,
            (((cy + 1) * rows + chunks - 1) // chunks) * unit,
        )
        spans.append((int(firsts[c]) * 6, int(counts[c]) * 6, rect))
    return MapMesh(vertices, indices, spans, cells, step, world_w, world_d)


def _merged_runs(
    differs: npt.NDArray[np.bool_],
    owners: npt.NDArray[np.int32],
    other: npt.NDArray[np.int32],
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32]
]:
    """Edges marked in ``differs`` (lines along axis 0, positions along axis 1), merged along
    axis 1 while the owner and the country across stay the same: (line, start, end, owner)."""
    lines, length = differs.shape
    key = np.where(differs, owners.astype(np.int64) * 1_000_003 + other, -1)
    starts = np.ones((lines, length), dtype=bool)
    starts[:, 1:] = key[:, 1:] != key[:, :-1]
    starts &= differs
    line, pos = np.nonzero(starts)
    # Each run ends where the key changes (or the line ends).
    change = np.ones((lines, length + 1), dtype=bool)
    change[:, 1:-1] = key[:, 1:] != key[:, :-1]
    cl, cp = np.nonzero(change[:, 1:])
    flat_change = cl * (length + 1) + cp + 1
    flat_start = line * (length + 1) + pos
    end_at = flat_change[np.searchsorted(flat_change, flat_start, side="right")]
    end = end_at - line * (length + 1)
    return line.astype(np.int64), pos.astype(np.int64), end.astype(np.int64), owners[line, pos]


def _wall(
    xa: npt.NDArray[Any] | float,
    za: npt.NDArray[Any],
    xb: npt.NDArray[Any] | float,
    zb: npt.NDArray[Any],
    nx: float,
    nz: float,
    who: npt.NDArray[np.int32],
) -> npt.NDArray[np.float32]:
    """Vertical quads from (xa, za) to (xb, zb), bottom to top, facing (nx, 0, nz)."""
    n = len(who)
    quad = np.zeros((n, 4, VERTEX_FLOATS), dtype=np.float32)
    xa_, za_ = np.broadcast_to(xa, n), np.broadcast_to(za, n)
    xb_, zb_ = np.broadcast_to(xb, n), np.broadcast_to(zb, n)
    corners = [(xa_, za_, 0.0), (xb_, zb_, 0.0), (xb_, zb_, 1.0), (xa_, za_, 1.0)]
    # Listed this way the corners wind counter-clockwise seen from -x (a wall along +z) or
    # from +z (a wall along +x); a wall facing the other way lists them backwards.
    if nx > 0 or nz < 0:
        corners = corners[::-1]
    for i, (xs, zs, t) in enumerate(corners):
        quad[:, i, 0], quad[:, i, 1], quad[:, i, 2] = xs, t, zs
    quad[:, :, 3], quad[:, :, 5] = nx, nz
    quad[:, :, 6] = who[:, None]
    return quad
