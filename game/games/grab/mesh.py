"""The MasterGrab map as geometry: smooth country tiles, their borders, mountains (numpy only).

The pixel map is sampled onto a coarser grid of cells (``step`` pixels a side), so a
1000-country map at 3840x2160 stays a few tens of thousands of triangles. The cell corners on
a border between two countries are then smoothed along that border (each moves towards the
middle of its two neighbours on the border, never more than half a cell; where three or more
countries meet the corner stays), which turns the pixel stairs into smooth curves: the tiles,
their walls and the border lines all use these corners, so they meet exactly.

* Tiles: each cell row becomes runs of one country (a top quad each, cut where a smoothed
  corner bends the edge); every edge between two countries becomes two walls, one facing out
  of each side. A vertex stores its country, whether it is a top corner, and a rise (the
  mountains' peaks): the shader lifts it to the country's height plus the rise, so a
  conquest or a hover changes one texel, not the mesh.
* Border lines: one segment per border edge with the countries on both sides, drawn as an
  anti-aliased band whose width the shader picks (thick between owners, thin inside one
  owner's land).
* Mountains: their inner corners rise with the distance from the mountain's edge (a little
  noise makes ridges), faceted, so they look like rock, not like land.

Primitives are sorted into ``chunks`` x ``chunks`` blocks of the map with an index range each,
so the renderer can skip the blocks outside the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

#: Pixels of the game map per world unit.
PIXELS_PER_UNIT = 40.0
VERTEX_FLOATS = 8  # x, top flag, z, normal xyz, country, rise
SEGMENT_FLOATS = 8  # start xz, end xz, end flag, side, country a, country b
SMOOTHING_ROUNDS = 12
MOUNTAIN_RISE = 0.13  # world units of height per cell inside a mountain's edge
MOUNTAIN_PEAK = 0.75  # the highest rise
SEAM = 0.002  # world units each top quad reaches into the next row


@dataclass(frozen=True)
class MapMesh:
    """Vertices (``VERTEX_FLOATS`` each), triangle indices, per chunk its first index, index
    count and world rectangle (x0, z0, x1, z1), and the border ``segments`` (4 vertices of
    ``SEGMENT_FLOATS`` each). ``cells[yc, xc]`` is the country drawn at each cell, which
    picking uses so that a click hits what is seen."""

    vertices: npt.NDArray[np.float32]
    indices: npt.NDArray[np.uint32]
    chunks: list[tuple[int, int, tuple[float, float, float, float]]]
    cells: npt.NDArray[np.int32]
    step: int
    width: float  # world size of one copy of the map
    depth: float
    segments: npt.NDArray[np.float32]

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


def smooth_corners(cells: npt.NDArray[np.int32]) -> npt.NDArray[np.float64]:
    """Per cell corner (rows x cols, corner (i, j) is cell (i, j)'s top-left, wrapping) its
    offset (dx, dy) in cells from the lattice point: see the module docstring."""
    ul = np.roll(cells, (1, 1), axis=(0, 1))
    ur = np.roll(cells, 1, axis=0)
    ll = np.roll(cells, 1, axis=1)
    lr = cells
    up, down = ul != ur, ll != lr
    left, right = ul != ll, ur != lr
    degree = up.astype(int) + down + left + right
    moving = degree == 2
    d = np.zeros((*cells.shape, 2))
    for _ in range(SMOOTHING_ROUNDS):
        dx, dy = d[..., 0], d[..., 1]
        sx = (
            up * np.roll(dx, 1, axis=0)
            + down * np.roll(dx, -1, axis=0)
            + left * (np.roll(dx, 1, axis=1) - 1)
            + right * (np.roll(dx, -1, axis=1) + 1)
        )
        sy = (
            up * (np.roll(dy, 1, axis=0) - 1)
            + down * (np.roll(dy, -1, axis=0) + 1)
            + left * np.roll(dy, 1, axis=1)
            + right * np.roll(dy, -1, axis=1)
        )
        target = np.stack([sx, sy], axis=-1) / 2
        d = np.where(moving[..., None], np.clip(d + 0.6 * (target - d), -0.5, 0.5), 0.0)
    return d


def build_map_mesh(
    owner: npt.NDArray[np.int32],
    centres: tuple[tuple[int, int], ...],
    *,
    step: int | None = None,
    chunks: int = 8,
    mountains: frozenset[int] = frozenset(),
) -> MapMesh:
    """The tiles, walls and border segments of the pixel map ``owner`` (rows are y)."""
    height, width = owner.shape
    step = step or choose_step(width, height)
    cells = cell_grid(owner, step, centres)
    rows, cols = cells.shape
    unit = step / PIXELS_PER_UNIT
    offset = smooth_corners(cells)
    is_mountain = np.isin(cells, np.fromiter(mountains, dtype=np.int64, count=len(mountains)))
    rise = _mountain_rise(cells, is_mountain)

    def corner(
        i: npt.NDArray[np.int64], j: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """World x, z of corners (i, j); i and j may be one past the last (the wrap)."""
        o = offset[i % rows, j % cols]
        return (j + o[..., 0]) * unit, (i + o[..., 1]) * unit

    def chunk_of(xc: npt.NDArray[np.int64], yc: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        cx = np.minimum(xc * chunks // cols, chunks - 1)
        cy = np.minimum(yc * chunks // rows, chunks - 1)
        return np.asarray(cy * chunks + cx, dtype=np.int64)

    quads: list[npt.NDArray[np.float32]] = []  # (n, 4, VERTEX_FLOATS) corners, wound CCW
    keys: list[npt.NDArray[np.int64]] = []

    # Land tops: runs of one country along each row; a cell with a moved corner is a quad of
    # its own, so a long run's edges stay on the lattice and meet its neighbours' exactly.
    bent = np.any(offset != 0, axis=-1)
    bent_below = np.roll(bent, -1, axis=0)
    special = bent | bent_below | np.roll(bent, -1, axis=1) | np.roll(bent_below, -1, axis=1)
    special |= is_mountain
    starts = np.ones((rows, cols), dtype=bool)
    starts[:, 1:] = (cells[:, 1:] != cells[:, :-1]) | special[:, 1:] | special[:, :-1]
    ry, rx = np.nonzero(starts)
    ends = np.empty_like(rx)
    ends[:-1] = np.where(ry[1:] == ry[:-1], rx[1:], cols)
    ends[-1] = cols
    land = ~is_mountain[ry, rx]
    ry, rx, ends = ry[land], rx[land], ends[land]
    who = cells[ry, rx]
    # Counter-clockwise seen from above (+y, z towards the viewer): (x0, z1), (x1, z1) ...
    ring = [(ry + 1, rx), (ry + 1, ends), (ry, ends), (ry, rx)]
    quads.append(_top(ring, corner, who, np.zeros((len(who), 4)), (1, 1, -1, -1)))
    keys.append(chunk_of(rx, ry))

    # Mountain tops: every cell its own two faceted triangles, corners raised.
    my, mx = np.nonzero(is_mountain)
    who = cells[my, mx]
    ring = [(my + 1, mx), (my + 1, mx + 1), (my, mx + 1), (my, mx)]
    lift = np.stack([rise[i % rows, j % cols] for i, j in ring], axis=1)
    seam = (1, 1, -1, -1)
    for tri in ((0, 1, 2, 2), (0, 2, 3, 3)):
        quads.append(
            _top([ring[k] for k in tri], corner, who, lift[:, list(tri)], [seam[k] for k in tri])
        )
        keys.append(chunk_of(mx, my))

    # Border edges: vertical ones left of cell (i, j), horizontal ones above it.
    segments = []
    for axis in (1, 0):
        before = np.roll(cells, 1, axis=axis)
        ei, ej = np.nonzero(before != cells)
        a, b = before[ei, ej], cells[ei, ej]
        if axis == 1:  # from corner (i, j) down to (i + 1, j); `before` lies to the left (-x)
            p0, p1 = corner(ei, ej), corner(ei + 1, ej)
        else:  # from corner (i, j + 1) left to (i, j); `before` lies above (-z)
            p0, p1 = corner(ei, ej + 1), corner(ei, ej)
        # Walking p0 -> p1 the country `before` is on the right: each side's wall faces out.
        quads.append(_wall(p0, p1, a))
        quads.append(_wall(p1, p0, b))
        keys += [chunk_of(ej, ei)] * 2
        segments.append(_segments(p0, p1, a, b))

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
    # Each chunk's rectangle is what its primitives cover: a run of tiles starts in its chunk
    # but may reach into the next ones, and culling by the chunk's cells alone would drop it.
    spans = []
    for c in range(chunks * chunks):
        first, count = int(firsts[c]), int(counts[c])
        if count:
            xz = corners[first : first + count][:, :, [0, 2]].reshape(-1, 2)
            low, high = xz.min(axis=0), xz.max(axis=0)
            rect = (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
        else:
            rect = (0.0, 0.0, 0.0, 0.0)
        spans.append((first * 6, count * 6, rect))
    lines = np.concatenate(segments).reshape(-1, SEGMENT_FLOATS).astype(np.float32)
    return MapMesh(vertices, indices, spans, cells, step, cols * unit, rows * unit, lines)


def _mountain_rise(
    cells: npt.NDArray[np.int32], is_mountain: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float64]:
    """Per corner its rise: 0 unless all four cells round it are one mountain, then more
    the farther the mountain's edge is (with noise, so ridges and peaks show)."""
    rows, cols = cells.shape
    around = [np.roll(cells, s, axis=(0, 1)) for s in ((1, 1), (1, 0), (0, 1), (0, 0))]
    same = (around[0] == around[1]) & (around[0] == around[2]) & (around[0] == around[3])
    inside = same & np.roll(is_mountain, (1, 1), axis=(0, 1))
    depth = np.zeros((rows, cols))
    layer = inside.copy()
    for _ in range(12):  # each round peels the corners next to an outside one
        if not layer.any():
            break
        depth += layer
        next_layer = layer.copy()
        for shift in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            next_layer &= np.roll(layer, shift, axis=(0, 1))
        layer = next_layer
    i, j = np.mgrid[0:rows, 0:cols]
    # Gentle waves, not per-corner noise: ridges and saddles, no needles.
    noise = 0.8 + 0.2 * np.sin(i * 0.9 + np.cos(j * 0.7) * 2.0) + 0.15 * np.cos(j * 1.3 - i * 0.4)
    out: npt.NDArray[np.float64] = np.minimum(depth * MOUNTAIN_RISE * noise, MOUNTAIN_PEAK)
    return out


def _top(
    ring: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]],
    corner: object,
    who: npt.NDArray[np.int32],
    lift: npt.NDArray[np.float64],
    seam: Sequence[int],
) -> npt.NDArray[np.float32]:
    """Top quads through the corners of ``ring`` (four (i, j) index arrays) with ``lift``
    rises, wound counter-clockwise seen from above, with their normals; ``seam`` says which
    way (+1: +z) each corner reaches into the next row."""
    n = len(who)
    quad = np.zeros((n, 4, VERTEX_FLOATS), dtype=np.float32)
    for k, (i, j) in enumerate(ring):
        x, z = corner(i, j)  # type: ignore[operator]
        # Rows overlap by a hair: where a long run meets several short ones (a T-junction),
        # rounding would otherwise leave a line of background pixels between them.
        quad[:, k, 0], quad[:, k, 2] = x, z + SEAM * seam[k]
    quad[:, :, 1] = 1.0
    quad[:, :, 7] = lift
    # A smoothed corner can fold a thin quad over: the other diagonal keeps it unfolded.
    xz = quad[:, :, [0, 2]].astype(np.float64)
    folded = (_cross(xz[:, 0], xz[:, 1], xz[:, 2]) > 0) | (_cross(xz[:, 0], xz[:, 2], xz[:, 3]) > 0)
    quad[folded] = np.roll(quad[folded], -1, axis=1)
    # The normal of the (possibly raised) face: from its first triangle.
    p = np.stack([quad[:, :, 0], quad[:, :, 7], quad[:, :, 2]], axis=-1).astype(np.float64)
    normal = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
    length = np.linalg.norm(normal, axis=1, keepdims=True)
    normal = np.where(length > 1e-12, normal / np.maximum(length, 1e-12), [0.0, 1.0, 0.0])
    normal *= np.where(normal[:, 1:2] < 0, -1.0, 1.0)
    quad[:, :, 3:6] = normal[:, None, :]
    quad[:, :, 6] = who[:, None]
    return quad


def _cross(
    a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], c: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The z of (b - a) x (c - a) for points (x, z): > 0 is clockwise seen from above."""
    out: npt.NDArray[np.float64] = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (
        b[:, 1] - a[:, 1]
    ) * (c[:, 0] - a[:, 0])
    return out


def _wall(
    p0: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    p1: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    who: npt.NDArray[np.int32],
) -> npt.NDArray[np.float32]:
    """Vertical quads from p0 to p1 (world x, z arrays), bottom to top, of the country on
    the right of p0 -> p1 seen from above, facing out of it (to the left)."""
    n = len(who)
    quad = np.zeros((n, 4, VERTEX_FLOATS), dtype=np.float32)
    (x0, z0), (x1, z1) = p0, p1
    # Corners p1-bottom, p0-bottom, p0-top, p1-top: counter-clockwise seen from outside.
    for k, (x, z, top) in enumerate(((x1, z1, 0.0), (x0, z0, 0.0), (x0, z0, 1.0), (x1, z1, 1.0))):
        quad[:, k, 0], quad[:, k, 1], quad[:, k, 2] = x, top, z
    dx, dz = x1 - x0, z1 - z0
    length = np.maximum(np.hypot(dx, dz), 1e-9)
    quad[:, :, 3] = (dz / length)[:, None]
    quad[:, :, 5] = (-dx / length)[:, None]
    quad[:, :, 6] = who[:, None]
    return quad


def _segments(
    p0: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    p1: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    a: npt.NDArray[np.int32],
    b: npt.NDArray[np.int32],
) -> npt.NDArray[np.float32]:
    """Four vertices per border edge (its two ends, each on both sides of the line)."""
    n = len(a)
    out = np.zeros((n, 4, SEGMENT_FLOATS), dtype=np.float32)
    out[:, :, 0], out[:, :, 1] = p0[0][:, None], p0[1][:, None]
    out[:, :, 2], out[:, :, 3] = p1[0][:, None], p1[1][:, None]
    out[:, :, 4] = [0.0, 1.0, 1.0, 0.0]
    out[:, :, 5] = [-1.0, -1.0, 1.0, 1.0]
    out[:, :, 6] = a[:, None]
    out[:, :, 7] = b[:, None]
    return out
