"""Triangle soups with a normal and a colour per corner, and the primitives models are built
from (lathe, extrude, tube, icospheres); numpy only and deterministic (no global random
state: :func:`noise` hashes its index)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Colour = tuple[float, float, float]
ColourSpec = Colour | Sequence[Colour] | np.ndarray
Vector = Sequence[float] | np.ndarray

# --------------------------------------------------------------------------------------------
# Geometry: a triangle soup with per-corner normals and colours
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Geo:
    """Triangles: ``pos``, ``nrm`` and ``col`` are ``(T, 3, 3)`` float64 arrays."""

    pos: np.ndarray
    nrm: np.ndarray
    col: np.ndarray

    @property
    def triangles(self) -> int:
        return int(self.pos.shape[0])

    def __add__(self, other: Geo) -> Geo:
        return merge(self, other)


def merge(*parts: Geo) -> Geo:
    """Concatenate triangle soups."""
    return Geo(
        np.concatenate([p.pos for p in parts]),
        np.concatenate([p.nrm for p in parts]),
        np.concatenate([p.col for p in parts]),
    )


def unit(v: np.ndarray) -> np.ndarray:
    length = np.linalg.norm(v, axis=-1, keepdims=True)
    out: np.ndarray = np.divide(v, length, out=np.zeros_like(v), where=length > 1e-15)
    return out


def face_normals(pos: np.ndarray) -> np.ndarray:
    """Flat normals ``(T, 3)`` from the winding (counter-clockwise = front)."""
    return unit(np.cross(pos[:, 1] - pos[:, 0], pos[:, 2] - pos[:, 0]))


def tris(pos: np.ndarray, col: ColourSpec, nrm: np.ndarray | None = None) -> Geo:
    """Make a Geo from ``(T, 3, 3)`` corners; colour per mesh, per triangle or per corner.

    Without ``nrm`` the triangles are flat shaded. Degenerate triangles are dropped.
    """
    pos = np.asarray(pos, dtype=np.float64).reshape(-1, 3, 3)
    c = np.asarray(col, dtype=np.float64)
    if c.shape == (3,):
        c = np.broadcast_to(c, pos.shape)
    elif c.shape == (pos.shape[0], 3):
        c = np.repeat(c[:, None, :], 3, axis=1)
    c = np.ascontiguousarray(np.broadcast_to(c, pos.shape))
    area2 = np.linalg.norm(np.cross(pos[:, 1] - pos[:, 0], pos[:, 2] - pos[:, 0]), axis=1)
    if nrm is None:
        n = np.repeat(face_normals(pos)[:, None, :], 3, axis=1)
    else:
        n = unit(np.asarray(nrm, dtype=np.float64).reshape(pos.shape))
    keep = area2 > 1e-10
    return Geo(pos[keep], n[keep], c[keep])


def transform(geo: Geo, matrix: np.ndarray | None = None, offset: Vector = (0, 0, 0)) -> Geo:
    """Apply ``p -> M p + offset``; normals follow the inverse transpose, winding is kept."""
    m = np.eye(3) if matrix is None else np.asarray(matrix, dtype=np.float64)
    pos = geo.pos @ m.T + np.asarray(offset, dtype=np.float64)
    nrm = unit(geo.nrm @ np.linalg.inv(m))
    col = geo.col
    if np.linalg.det(m) < 0:  # mirrored: swap two corners so the winding still faces out
        pos, nrm, col = pos[:, ::-1], nrm[:, ::-1], col[:, ::-1]
    return Geo(np.ascontiguousarray(pos), np.ascontiguousarray(nrm), np.ascontiguousarray(col))


def move(geo: Geo, x: float, y: float, z: float) -> Geo:
    return transform(geo, None, (x, y, z))


def scale(geo: Geo, sx: float, sy: float | None = None, sz: float | None = None) -> Geo:
    sy = sx if sy is None else sy
    sz = sx if sz is None else sz
    return transform(geo, np.diag([sx, sy, sz]))


def rotation(axis: Sequence[float], degrees: float) -> np.ndarray:
    """Rotation matrix about ``axis`` (right-handed)."""
    a = unit(np.asarray(axis, dtype=np.float64))
    t = math.radians(degrees)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    m: np.ndarray = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)
    return m


def rotate(geo: Geo, axis: Sequence[float], degrees: float) -> Geo:
    return transform(geo, rotation(axis, degrees))


def mirror_x(geo: Geo) -> Geo:
    return transform(geo, np.diag([-1.0, 1.0, 1.0]))


def orient(geo: Geo, origin: Vector, up: Vector, front: Vector) -> Geo:
    """Map local +Y to ``up`` and local +Z towards ``front``, then move to ``origin``."""
    y = unit(np.asarray(up, dtype=np.float64))
    x = unit(np.cross(y, np.asarray(front, dtype=np.float64)))
    z = np.cross(x, y)
    return transform(geo, np.column_stack([x, y, z]), origin)


# --------------------------------------------------------------------------------------------
# Deterministic noise (no global random state, same numbers on every machine)
# --------------------------------------------------------------------------------------------


def noise(count: int, seed: int) -> np.ndarray:
    """``count`` pseudo-random numbers in [0, 1) from a splitmix64 hash of (index, seed)."""
    offset = np.uint64((seed * 0x9E3779B97F4A7C15) % (1 << 64))
    x = np.arange(count, dtype=np.uint64) + offset
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(31)
    x = x * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(29)
    return (x >> np.uint64(11)).astype(np.float64) / float(1 << 53)


def vary(geo: Geo, amount: float, seed: int) -> Geo:
    """Brighten or darken each triangle by up to ``amount`` (a hand-painted, faceted look)."""
    f = 1.0 + amount * (2.0 * noise(geo.triangles, seed) - 1.0)
    return Geo(geo.pos, geo.nrm, np.clip(geo.col * f[:, None, None], 0.0, 1.0))


def lerp(a: Colour, b: Colour, t: np.ndarray | float) -> np.ndarray:
    """Blend from ``a`` (t=0) to ``b`` (t=1)."""
    return (1.0 - t) * np.asarray(a) + t * np.asarray(b)


def smooth_loop(values: np.ndarray, passes: int) -> np.ndarray:
    """Blur a closed loop of numbers (for gently irregular outlines)."""
    for _ in range(passes):
        values = 0.25 * np.roll(values, 1) + 0.5 * values + 0.25 * np.roll(values, -1)
    return values


# --------------------------------------------------------------------------------------------
# Primitives
# --------------------------------------------------------------------------------------------


def surface(
    grid: np.ndarray, col: ColourSpec, normals: np.ndarray | None = None, flip: bool = False
) -> Geo:
    """Triangulate a ``(R, C, 3)`` grid of points, two triangles per quad.

    The front side is ``cross(d/dcolumn, d/drow)`` (or the other side with ``flip``).
    ``col`` is one colour, one per quad ``(R-1, C-1, 3)`` or one per point ``(R, C, 3)``.
    """
    p = np.asarray(grid, dtype=np.float64)
    rows, cols = p.shape[:2]
    a, b, c, d = p[:-1, :-1], p[1:, :-1], p[1:, 1:], p[:-1, 1:]
    ci = np.asarray(col, dtype=np.float64)
    if ci.shape == (rows, cols, 3):
        ca, cb, cc, cd = ci[:-1, :-1], ci[1:, :-1], ci[1:, 1:], ci[:-1, 1:]
    else:
        q = np.broadcast_to(ci, (rows - 1, cols - 1, 3))
        ca = cb = cc = cd = q
    first = [(a, ca), (d, cd), (c, cc)]
    second = [(a, ca), (c, cc), (b, cb)]
    if normals is not None:
        n = np.asarray(normals, dtype=np.float64)
        na, nb, nc, nd = n[:-1, :-1], n[1:, :-1], n[1:, 1:], n[:-1, 1:]
        first_n, second_n = [na, nd, nc], [na, nc, nb]
    if flip:
        first, second = first[::-1], second[::-1]
        if normals is not None:
            first_n, second_n = first_n[::-1], second_n[::-1]
    pos = np.stack([np.stack([x for x, _ in t], axis=2) for t in (first, second)], axis=2)
    cor = np.stack([np.stack([y for _, y in t], axis=2) for t in (first, second)], axis=2)
    nrm = None
    if normals is not None:
        nrm = np.stack([np.stack(t, axis=2) for t in (first_n, second_n)], axis=2)
        nrm = nrm.reshape(-1, 3, 3)
    return tris(pos.reshape(-1, 3, 3), cor.reshape(-1, 3, 3), nrm)


def fan(centre: Sequence[float], ring: np.ndarray, col: ColourSpec) -> Geo:
    """A fan from ``centre`` over consecutive points of ``ring`` (closed ring, first == last)."""
    ring = np.asarray(ring, dtype=np.float64)
    c = np.broadcast_to(np.asarray(centre, dtype=np.float64), ring[:-1].shape)
    return tris(np.stack([c, ring[:-1], ring[1:]], axis=1), col)


def _band_colours(col: ColourSpec, bands: int, segments: int) -> np.ndarray:
    """Expand a colour spec to one colour per quad ``(bands, segments, 3)``."""
    c = np.asarray(col, dtype=np.float64)
    if c.shape == (3,):
        return np.broadcast_to(c, (bands, segments, 3))
    if c.shape == (bands, 3):
        return np.broadcast_to(c[:, None, :], (bands, segments, 3))
    return np.broadcast_to(c, (bands, segments, 3))


def lathe(
    profile: Sequence[tuple[float, float]],
    segments: int,
    col: ColourSpec,
    *,
    phase: float = 0.0,
    caps: bool = True,
) -> Geo:
    """Revolve ``(radius, y)`` points (bottom to top) about the Y axis.

    Angle 0 faces +Z; ``phase`` (in segments) turns the seams, e.g. -0.5 centres segment 0
    on +Z. ``col`` is one colour, one per band, or ``(bands, segments, 3)``. Open ends with
    a radius get flat caps coloured like the nearest band. A profile that runs outwards along
    the bottom, up the outside and inwards along the top faces out.
    """
    prof = np.asarray(profile, dtype=np.float64)
    theta = 2 * np.pi * (np.arange(segments + 1) % segments + phase) / segments
    s, c = np.sin(theta), np.cos(theta)
    r, y = prof[:, 0:1], prof[:, 1:2]
    grid = np.stack([r * s, np.broadcast_to(y, (r * s).shape), r * c], axis=2)
    bands = _band_colours(col, len(prof) - 1, segments)
    geo = surface(grid, bands)
    if caps:
        parts = [geo]
        if prof[0, 0] > 1e-9:
            parts.append(fan((0, prof[0, 1], 0), grid[0][::-1], bands[0, 0]))
        if prof[-1, 0] > 1e-9:
            parts.append(fan((0, prof[-1, 1], 0), grid[-1], bands[-1, 0]))
        geo = merge(*parts)
    return geo


def cylinder(
    radius: float, y0: float, y1: float, segments: int, col: ColourSpec, top: float | None = None
) -> Geo:
    """A cylinder (or frustum with a different ``top`` radius, or cone with top=0) along Y."""
    return lathe([(radius, y0), (radius if top is None else top, y1)], segments, col)


def sphere(radius: float, segments: int, rings: int, col: ColourSpec, smooth: bool = True) -> Geo:
    """A UV sphere centred at the origin."""
    phi = np.linspace(-np.pi / 2, np.pi / 2, rings + 1)
    profile = [(radius * math.cos(p), radius * math.sin(p)) for p in phi]
    profile[0] = (0.0, -radius)
    profile[-1] = (0.0, radius)
    geo = lathe(profile, segments, col, caps=False)
    if smooth:
        geo = Geo(geo.pos, unit(geo.pos), geo.col)
    return geo


def box(lo: Sequence[float], hi: Sequence[float], col: ColourSpec) -> Geo:
    """An axis-aligned box."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    return extrude([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], z0, z1, col)


def _triangulate(poly: np.ndarray) -> list[tuple[int, int, int]]:
    """Ear-clip a simple counter-clockwise polygon."""

    def cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
        return float((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]))

    idx = list(range(len(poly)))
    out: list[tuple[int, int, int]] = []
    while len(idx) > 3:
        for k in range(len(idx)):
            i, j, m = idx[k - 1], idx[k], idx[(k + 1) % len(idx)]
            a, b, c = poly[i], poly[j], poly[m]
            if cross(a, b, c) <= 1e-12:
                continue
            inside = any(
                cross(a, b, poly[q]) >= 0
                and cross(b, c, poly[q]) >= 0
                and cross(c, a, poly[q]) >= 0
                for q in idx
                if q not in (i, j, m)
            )
            if not inside:
                out.append((i, j, m))
                idx.pop(k)
                break
        else:
            raise ValueError("polygon is not simple and counter-clockwise")
    out.append((idx[0], idx[1], idx[2]))
    return out


def extrude(
    polygon: Sequence[tuple[float, float]],
    z0: float,
    z1: float,
    col: ColourSpec,
    side_col: ColourSpec | None = None,
) -> Geo:
    """Extrude a counter-clockwise XY polygon from z0 to z1 (z1 > z0), capped both ends."""
    poly = np.asarray(polygon, dtype=np.float64)
    k = len(poly)
    loop = np.vstack([poly, poly[:1]])
    front = np.column_stack([loop, np.full(k + 1, z1)])
    back = np.column_stack([loop, np.full(k + 1, z0)])
    sides = surface(np.stack([front, back], axis=1), col if side_col is None else side_col)
    faces = _triangulate(poly)
    f = np.array([[front[i], front[j], front[m]] for i, j, m in faces])
    b = np.array([[back[i], back[m], back[j]] for i, j, m in faces])
    return merge(sides, tris(f, col), tris(b, col))


def tube(
    path: Sequence[Sequence[float]],
    radii: Sequence[float],
    segments: int,
    col: ColourSpec,
    caps: bool = True,
) -> Geo:
    """Sweep a circle along a polyline; a zero radius makes a pointed end."""
    p = np.asarray(path, dtype=np.float64)
    r = np.asarray(radii, dtype=np.float64)
    t = unit(np.gradient(p, axis=0))
    hint = np.array([0.0, 0.0, 1.0]) if abs(t[0, 2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    u = unit(hint - np.dot(hint, t[0]) * t[0])
    us, vs = [], []
    for k in range(len(p)):  # parallel transport keeps the tube from twisting
        u = unit(u - np.dot(u, t[k]) * t[k])
        us.append(u)
        vs.append(np.cross(t[k], u))
    ang = 2 * np.pi * (np.arange(segments + 1) % segments) / segments
    ring = (
        np.cos(ang)[None, :, None] * np.array(us)[:, None, :]
        + np.sin(ang)[None, :, None] * np.array(vs)[:, None, :]
    )
    grid = p[:, None, :] + r[:, None, None] * ring
    bands = _band_colours(col, len(p) - 1, segments)
    parts = [surface(grid, bands)]
    if caps and r[0] > 1e-9:
        parts.append(fan(p[0], grid[0][::-1], bands[0, 0]))
    if caps and r[-1] > 1e-9:
        parts.append(fan(p[-1], grid[-1], bands[-1, 0]))
    return merge(*parts)


_ICO_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _icosphere_mesh(subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit icosphere as (vertices, faces); faces wind counter-clockwise seen from outside."""
    if subdivisions in _ICO_CACHE:
        return _ICO_CACHE[subdivisions]
    g = (1 + 5**0.5) / 2
    verts = [
        (-1, g, 0), (1, g, 0), (-1, -g, 0), (1, -g, 0),
        (0, -1, g), (0, 1, g), (0, -1, -g), (0, 1, -g),
        (g, 0, -1), (g, 0, 1), (-g, 0, -1), (-g, 0, 1),
    ]  # fmt: skip
    faces = [
        (0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11),
        (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
        (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9),
        (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1),
    ]  # fmt: skip
    vlist = [np.array(v, dtype=np.float64) / np.linalg.norm(v) for v in verts]
    for _ in range(subdivisions):
        cache: dict[tuple[int, int], int] = {}

        def mid(i: int, j: int, cache: dict[tuple[int, int], int] = cache) -> int:
            key = (min(i, j), max(i, j))
            if key not in cache:
                m = vlist[i] + vlist[j]
                vlist.append(m / np.linalg.norm(m))
                cache[key] = len(vlist) - 1
            return cache[key]

        new_faces = []
        for a, b, c in faces:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            new_faces += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        faces = new_faces
    result = (np.array(vlist), np.array(faces))
    _ICO_CACHE[subdivisions] = result
    return result


def blob(
    radius: float,
    col: ColourSpec,
    *,
    subdivisions: int = 1,
    bumps: float = 0.0,
    seed: int = 0,
    squash: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> Geo:
    """A flat-shaded icosphere, optionally lumpy (each vertex pushed in or out by ``bumps``)."""
    verts, faces = _icosphere_mesh(subdivisions)
    k = 1.0 + bumps * (2.0 * noise(len(verts), seed) - 1.0)
    v = verts * (radius * k)[:, None] * np.asarray(squash)
    return tris(v[faces], col)


def halving_band(outer: np.ndarray, inner: np.ndarray, col: ColourSpec) -> Geo:
    """Join a closed ring of 2m+1 points to one of m+1 points (first == last in both).

    Inner point j sits opposite outer point 2j; three triangles per inner segment, facing
    the same way as ``ring_band(outer, inner)``.
    """
    a = np.asarray(outer, dtype=np.float64)
    b = np.asarray(inner, dtype=np.float64)
    a0, a1, a2 = a[0:-1:2], a[1::2], a[2::2]
    b0, b1 = b[:-1], b[1:]
    return tris(np.concatenate([np.stack(t, axis=1) for t in
                                ((a0, a1, b0), (a1, b1, b0), (a1, a2, b1))]), col)  # fmt: skip


def octahedron(
    radius: float, col: ColourSpec, squash: tuple[float, float, float] = (1.0, 1.0, 1.0)
) -> Geo:
    """Eight triangles: the cheapest round-ish blob (eyes, knobs)."""
    r = np.array(squash) * radius
    px, py, pz = np.diag(r)
    nx, ny, nz = -np.diag(r)
    faces = [(px, py, pz), (pz, py, nx), (nx, py, nz), (nz, py, px),
             (px, pz, ny), (pz, nx, ny), (nx, nz, ny), (nz, px, ny)]  # fmt: skip
    return tris(np.array(faces), col)


def ring_band(a: np.ndarray, b: np.ndarray, col: ColourSpec) -> Geo:
    """Join two closed rings of points (same count, first == last) with quads."""
    return surface(np.stack([a, b], axis=0), col)
