"""Generate the low-poly models in ``models/`` (numpy only, deterministic).

Run ``python tools/make_models.py`` to rewrite every ``models/*.obj``; the same code always
writes the same bytes. Conventions: Y is up, characters stand on y=0 centred at the origin and
face +Z, a character is about 1.0 tall. Each model is one function returning a :class:`Geo`
(a triangle soup with a normal and a colour per corner); :func:`to_obj` writes the OBJ subset
that ``game.engine.mesh.load_obj`` reads: ``v x y z r g b``, ``vn``, ``f a//n b//n c//n``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"

Colour = tuple[float, float, float]
ColourSpec = Colour | Sequence[Colour] | np.ndarray
Vector = Sequence[float] | np.ndarray

# --------------------------------------------------------------------------------------------
# Palette (sRGB-ish values in 0..1)
# --------------------------------------------------------------------------------------------

ROBE = (0.95, 0.91, 0.82)
GOLD = (0.93, 0.70, 0.22)
ROYAL = (0.18, 0.32, 0.70)
MITRE = (0.98, 0.97, 0.94)
SKIN = (0.97, 0.77, 0.61)
EYE = (0.12, 0.10, 0.10)
CHEEK = (0.96, 0.60, 0.55)

DEVIL = (0.84, 0.13, 0.10)
DEVIL_DARK = (0.62, 0.07, 0.07)
BELLY = (0.95, 0.38, 0.22)
HORN = (0.16, 0.11, 0.10)
HOOF = (0.17, 0.12, 0.11)
WING = (0.38, 0.05, 0.12)
DEVIL_EYE = (1.00, 0.86, 0.20)
PUPIL = (0.08, 0.05, 0.05)
POLE = (0.22, 0.15, 0.11)
STEEL = (0.78, 0.78, 0.82)

WOOD_LIGHT = (0.72, 0.50, 0.30)
WOOD_MID = (0.62, 0.41, 0.23)
WOOD_DARK = (0.40, 0.25, 0.14)
DECK_A = (0.82, 0.63, 0.40)
DECK_B = (0.74, 0.55, 0.34)
OAR = (0.86, 0.72, 0.50)

GRASS = (0.40, 0.68, 0.26)
GRASS_EDGE = (0.33, 0.56, 0.22)
SOIL_DARK = (0.42, 0.30, 0.19)
SOIL = (0.56, 0.41, 0.27)
ROCK = (0.52, 0.49, 0.46)
ROCK_DARK = (0.40, 0.38, 0.36)

WATER_DEEP = (0.10, 0.37, 0.52)
WATER_SHALLOW = (0.24, 0.60, 0.64)

BARK = (0.45, 0.30, 0.18)
LEAF = (0.30, 0.60, 0.24)
LEAF_LIGHT = (0.46, 0.72, 0.30)
LEAF_DARK = (0.22, 0.48, 0.20)
MOSS = (0.42, 0.55, 0.28)
REED = (0.42, 0.62, 0.25)
REED_DARK = (0.30, 0.50, 0.20)
CATTAIL = (0.42, 0.25, 0.13)
CLOUD = (0.98, 0.98, 1.00)

TABLE = (0.36, 0.22, 0.13)
TABLE_DARK = (0.28, 0.17, 0.10)

WHITE = (0.96, 0.96, 0.95)
BLACK = (0.07, 0.07, 0.08)

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


def _unit(v: np.ndarray) -> np.ndarray:
    length = np.linalg.norm(v, axis=-1, keepdims=True)
    out: np.ndarray = np.divide(v, length, out=np.zeros_like(v), where=length > 1e-15)
    return out


def face_normals(pos: np.ndarray) -> np.ndarray:
    """Flat normals ``(T, 3)`` from the winding (counter-clockwise = front)."""
    return _unit(np.cross(pos[:, 1] - pos[:, 0], pos[:, 2] - pos[:, 0]))


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
        n = _unit(np.asarray(nrm, dtype=np.float64).reshape(pos.shape))
    keep = area2 > 1e-10
    return Geo(pos[keep], n[keep], c[keep])


def transform(geo: Geo, matrix: np.ndarray | None = None, offset: Vector = (0, 0, 0)) -> Geo:
    """Apply ``p -> M p + offset``; normals follow the inverse transpose, winding is kept."""
    m = np.eye(3) if matrix is None else np.asarray(matrix, dtype=np.float64)
    pos = geo.pos @ m.T + np.asarray(offset, dtype=np.float64)
    nrm = _unit(geo.nrm @ np.linalg.inv(m))
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
    a = _unit(np.asarray(axis, dtype=np.float64))
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
    y = _unit(np.asarray(up, dtype=np.float64))
    x = _unit(np.cross(y, np.asarray(front, dtype=np.float64)))
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
        geo = Geo(geo.pos, _unit(geo.pos), geo.col)
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
    t = _unit(np.gradient(p, axis=0))
    hint = np.array([0.0, 0.0, 1.0]) if abs(t[0, 2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    u = _unit(hint - np.dot(hint, t[0]) * t[0])
    us, vs = [], []
    for k in range(len(p)):  # parallel transport keeps the tube from twisting
        u = _unit(u - np.dot(u, t[k]) * t[k])
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


# --------------------------------------------------------------------------------------------
# Characters
# --------------------------------------------------------------------------------------------


def _eyes(y: float, z: float, dx: float, size: float, colour: Colour) -> Geo:
    """A pair of diamond eyes (cheap octahedra), mirrored about x=0, on the +Z face."""
    eye = octahedron(size, colour, squash=(0.8, 1.2, 0.5))
    return merge(move(eye, -dx, y, z), move(eye, dx, y, z))


def _dots(y: float, z: float, dx: float, size: float, colour: Colour, segments: int) -> Geo:
    """A pair of small round bumps facing +Z (a low dome each), mirrored about x=0."""
    dome = lathe([(size, 0.0), (0.75 * size, 0.35 * size), (0.0, 0.5 * size)], segments, colour,
                 caps=False)  # fmt: skip
    dome = rotate(scale(dome, 1.0, 1.0, 1.15), (1, 0, 0), 90)  # +Y -> +Z, a little taller
    return merge(move(dome, -dx, y, z), move(dome, dx, y, z))


def priest() -> Geo:
    """A calm priest: long cream robe with gold trim and a blue stole, round head, tall mitre."""
    # Robe: a bell revolved about Y, slightly flattened front to back. Segment 0 faces +Z and
    # carries the blue stole; the hem and belt are gold.
    robe_profile = [
        (0.275, 0.00), (0.278, 0.06), (0.252, 0.20), (0.222, 0.335), (0.226, 0.395),
        (0.198, 0.50), (0.172, 0.585), (0.110, 0.650), (0.058, 0.665),
    ]  # fmt: skip
    segs = 12
    bands = [GOLD, ROBE, ROBE, GOLD, ROBE, ROBE, ROBE, GOLD]
    col = np.array([[b] * segs for b in bands])
    for band in (1, 2, 4, 5, 6):
        col[band, 0] = ROYAL
    robe = scale(lathe(robe_profile, segs, col, phase=-0.5), 1.0, 1.0, 0.86)

    # Sleeves hang from the shoulders to hands folded in front at the belt.
    sleeve_path = [
        (0.165, 0.585, -0.01),
        (0.205, 0.49, 0.04),
        (0.16, 0.42, 0.15),
        (0.085, 0.41, 0.215),
    ]
    sleeve_col = [ROBE, ROBE, GOLD]
    sleeve = tube(sleeve_path, [0.052, 0.060, 0.068, 0.072], 6, sleeve_col)
    sleeves = merge(sleeve, mirror_x(sleeve))
    hands = move(scale(sphere(0.062, 7, 4, SKIN), 1.25, 0.8, 0.8), 0.0, 0.41, 0.235)

    # Head with a friendly face.
    head = move(sphere(0.135, 10, 7, SKIN), 0.0, 0.775, 0.0)
    eyes = _dots(0.79, 0.124, 0.046, 0.021, EYE, 8)
    cheeks = _dots(0.75, 0.108, 0.074, 0.022, CHEEK, 6)
    smile = tube([(-0.035, 0.735, 0.122), (-0.012, 0.722, 0.13), (0.012, 0.722, 0.13),
                  (0.035, 0.735, 0.122)], [0.007] * 4, 3, EYE, caps=False)  # fmt: skip

    # Mitre: a tall pointed cap, flattened front to back, white with gold band and stripe.
    mitre_profile = [(0.128, 0.835), (0.134, 0.895), (0.128, 0.975), (0.098, 1.045), (0.0, 1.12)]
    mcol = np.array([[b] * segs for b in [GOLD, MITRE, MITRE, MITRE]])
    mcol[1:, 0] = GOLD
    mcol[1:, segs // 2] = GOLD
    mitre = scale(lathe(mitre_profile, segs, mcol, phase=-0.5), 1.0, 1.0, 0.72)

    # A small gold cross on the chest.
    cross = merge(box((-0.014, 0.47, 0.17), (0.014, 0.565, 0.19), GOLD),
                  box((-0.04, 0.52, 0.17), (0.04, 0.545, 0.19), GOLD))  # fmt: skip
    return merge(robe, sleeves, hands, head, eyes, cheeks, smile, mitre, cross)


def devil() -> Geo:
    """A mischievous devil: red, round and stocky with horns, bat wings, tail and trident."""
    # Feet: dark hooves under short legs.
    hoof = cylinder(0.072, 0.0, 0.065, 6, HOOF, top=0.062)
    leg = tube([(0.0, 0.06, 0.0), (0.0, 0.22, 0.0)], [0.055, 0.058], 6, DEVIL_DARK, caps=False)
    legs = merge(move(hoof + leg, -0.105, 0, 0.01), move(hoof + leg, 0.105, 0, 0.01))

    # Round body with a lighter belly (the front segments).
    segs = 10
    body_profile = [
        (0.11, 0.16),
        (0.215, 0.20),
        (0.262, 0.29),
        (0.254, 0.38),
        (0.205, 0.465),
        (0.11, 0.52),
    ]
    bcol = np.array([[DEVIL] * segs for _ in range(len(body_profile) - 1)])
    bcol[1:4, 0] = BELLY
    body = scale(lathe(body_profile, segs, bcol, phase=-0.5), 1.0, 1.0, 0.9)

    # Big round head with yellow eyes and two dark curved horns.
    head = move(sphere(0.168, 10, 7, DEVIL), 0.0, 0.61, 0.0)
    eyes = _eyes(0.625, 0.142, 0.058, 0.034, DEVIL_EYE)
    pupils = _eyes(0.62, 0.162, 0.058, 0.015, PUPIL)
    brow = box((-0.045, -0.008, -0.012), (0.045, 0.008, 0.012), PUPIL)
    brows = merge(
        move(rotate(brow, (0, 0, 1), -24), -0.06, 0.675, 0.142),
        move(rotate(brow, (0, 0, 1), 24), 0.06, 0.675, 0.142),
    )
    horn = tube(
        [(0.075, 0.70, 0.02), (0.13, 0.765, 0.03), (0.165, 0.83, 0.03), (0.16, 0.90, 0.01)],
        [0.05, 0.04, 0.024, 0.0],
        6,
        HORN,
    )
    horns = merge(horn, mirror_x(horn))

    # Arms down at the sides; one hand holds a trident.
    arm = tube([(0.20, 0.42, 0.0), (0.29, 0.36, 0.04), (0.33, 0.30, 0.08)], [0.05, 0.045, 0.045], 6,
               DEVIL)  # fmt: skip
    hand = move(octahedron(0.055, DEVIL_DARK), 0.335, 0.29, 0.085)
    arms = merge(arm, hand, mirror_x(arm), mirror_x(hand))
    pole = tube([(0.335, 0.02, 0.085), (0.335, 0.74, 0.085)], [0.016, 0.016], 5, POLE, caps=False)
    bar = box((0.26, 0.735, 0.07), (0.41, 0.765, 0.10), STEEL)
    prong = cylinder(0.016, 0.76, 0.87, 5, STEEL, top=0.0)
    trident = merge(
        pole, bar, move(prong, 0.335, 0.0, 0.085), move(prong, 0.27, -0.02, 0.085),
        move(prong, 0.40, -0.02, 0.085),
    )  # fmt: skip

    # A pointed tail curling up behind.
    tail_path = [(0.0, 0.24, -0.19), (0.02, 0.19, -0.31), (0.07, 0.22, -0.41), (0.13, 0.33, -0.45),
                 (0.16, 0.45, -0.42)]  # fmt: skip
    tail = tube(tail_path, [0.032, 0.028, 0.025, 0.022, 0.02], 5, DEVIL_DARK)
    spade = extrude([(0.0, -0.01), (0.055, 0.02), (0.0, 0.10), (-0.055, 0.02)], -0.012, 0.012, HORN)
    tip_dir = np.subtract(tail_path[-1], tail_path[-2])
    spade = orient(spade, tail_path[-1], tip_dir, (1.0, 0.0, 0.3))

    # Small bat wings on the back.
    wing_poly = [(0.0, 0.0), (0.09, 0.05), (0.15, -0.02), (0.21, 0.05), (0.30, 0.02), (0.33, 0.22),
                 (0.16, 0.18), (0.0, 0.10)]  # fmt: skip
    wing = extrude(wing_poly, -0.012, 0.012, WING)
    wing = move(rotate(wing, (0, 1, 0), 28), 0.07, 0.40, -0.17)
    wings = merge(wing, mirror_x(wing))
    return merge(legs, body, head, eyes, pupils, brows, horns, arms, trident, tail, spade, wings)


# --------------------------------------------------------------------------------------------
# Boat, banks and water
# --------------------------------------------------------------------------------------------


def boat() -> Geo:
    """A wooden rowing boat along X: 3.0 long, 1.3 wide, deck at y=0.25, two oars out."""
    half_len, half_width, deck_y = 1.5, 0.65, 0.25
    sections = 17
    u = np.linspace(-1.0, 1.0, sections)  # -1 stern .. 1 bow, both ends pointed
    au = np.abs(u)
    x = u * half_len
    w = half_width * np.clip(1.0 - au**2.6, 0.0, 1.0) ** 0.62  # half-width of the hull
    bottom = -0.15 + 0.20 * au**3  # rocker: the keel rises towards the ends
    rim = 0.36 + 0.17 * au**2.4  # sheer: the gunwale rises towards the ends

    # One closed cross-section per station, walked around: deck (right to left), left inner
    # wall, left gunwale, outer hull under the keel, right gunwale, right inner wall.
    phi = np.radians(np.linspace(-90.0, 90.0, 9))
    cos_deck = np.clip(1.0 - (deck_y - bottom) / (rim - bottom), 0.0, 1.0)
    w_deck = 0.9 * w * np.sqrt(1.0 - cos_deck**2)
    w_in = 0.88 * w
    lip = 0.035
    deck_z = np.linspace(1.0, -1.0, 6)
    loops = []
    for i in range(sections):
        pts = [(w_deck[i] * dz, deck_y) for dz in deck_z]
        pts += [(-w_in[i], rim[i]), (-w_in[i], rim[i] + lip), (-w[i] - 0.02, rim[i] + lip)]
        pts += [(w[i] * math.sin(p), bottom[i] + (rim[i] - bottom[i]) * (1 - math.cos(p)))
                for p in phi]  # fmt: skip
        pts += [(w[i] + 0.02, rim[i] + lip), (w_in[i], rim[i] + lip), (w_in[i], rim[i])]
        pts.append(pts[0])
        loops.append([(x[i], yy, zz) for zz, yy in pts])
    grid = np.array(loops)

    band_cols: list[Colour] = [DECK_A, DECK_B] * 2 + [DECK_A]  # five deck planks
    band_cols += [WOOD_MID, WOOD_DARK, WOOD_DARK, WOOD_DARK]  # inner wall, gunwale top, lip
    band_cols += [WOOD_MID, WOOD_LIGHT] * 4  # hull planks
    band_cols += [WOOD_DARK, WOOD_DARK, WOOD_DARK, WOOD_MID]  # lip, gunwale top, inner wall
    cols = np.broadcast_to(np.array(band_cols)[None, :, :], (sections - 1, len(band_cols), 3))
    hull = vary(surface(grid, cols, flip=True), 0.05, 11)

    # Oars resting in the oarlocks amidships, blades in the water either side.
    oar = merge(
        tube([(0.0, 0.42, 0.45), (0.0, 0.40, 0.70), (0.0, 0.12, 1.30)], [0.024] * 3, 6, OAR),
        orient(box((-0.07, 0.0, -0.012), (0.07, 0.34, 0.012), OAR), (0.0, 0.17, 1.26),
               (0.0, -0.28, 0.60), (1.0, 0.0, 0.0)),
    )  # fmt: skip
    lock = box((-0.04, rim[8] + lip, 0.62), (0.04, rim[8] + lip + 0.07, 0.68), WOOD_DARK)
    oars = merge(oar, lock, transform(oar + lock, np.diag([1.0, 1.0, -1.0])))
    return merge(hull, oars)


def bank() -> Geo:
    """A grassy river bank block, top at y=0, earthy sides down to y=-1.5, irregular edge."""
    half_x, half_z, n = 3.5, 5.0, 80
    # A rounded rectangle (a superellipse) sampled evenly by angle from the centre, then
    # pulled in a little by smooth noise so the outline is gently irregular; it always stays
    # inside the +-3.5 x +-5 box. One closed ring of points per height.
    t = 2 * np.pi * (np.arange(n) + 0.5) / n
    dx, dz = np.sin(t), np.cos(t)

    def ring(inset: float, y: float, wobble: float, seed: int) -> np.ndarray:
        p = 6.0
        k = (np.abs(dx / (half_x - inset)) ** p + np.abs(dz / (half_z - inset)) ** p) ** (-1 / p)
        k = k - wobble * smooth_loop(noise(n, seed), 2)
        pts = np.column_stack([dx * k, np.full(n, y), dz * k])
        return np.vstack([pts, pts[:1]])

    top_edge = ring(0.30, 0.0, 0.16, 1)
    lip = ring(0.10, -0.16, 0.16, 1)
    mid1 = ring(0.0, -0.45, 0.22, 2)
    mid2 = ring(0.05, -0.95, 0.25, 3)
    foot = ring(0.0, -1.5, 0.2, 4)

    # Top: rings shrinking towards the centre, thinned out every other ring so the grass
    # facets stay about the same size everywhere.
    def shrink(s: float, step: int) -> np.ndarray:
        ring_points: np.ndarray = top_edge[::step] * np.array([s, 1.0, s])
        return ring_points

    top = merge(
        ring_band(top_edge, shrink(0.8, 1), GRASS),
        halving_band(shrink(0.8, 1), shrink(0.6, 2), GRASS),
        ring_band(shrink(0.6, 2), shrink(0.4, 2), GRASS),
        halving_band(shrink(0.4, 2), shrink(0.2, 4), GRASS),
        fan((0.0, 0.0, 0.0), shrink(0.2, 4), GRASS),
    )
    top = vary(top, 0.05, 21)
    sides = merge(
        vary(ring_band(lip, top_edge, GRASS_EDGE), 0.06, 22),
        vary(ring_band(mid1, lip, SOIL_DARK), 0.08, 23),
        vary(ring_band(mid2, mid1, SOIL), 0.08, 24),
        vary(ring_band(foot, mid2, ROCK), 0.10, 25),
    )
    base = fan((0.0, -1.5, 0.0), foot[::-1], ROCK_DARK)
    return merge(top, sides, base)


def water() -> Geo:
    """A flat 56 x 40 grid at y=0 over X -12..12, Z -10..10, teal in the middle of the river."""
    nx, nz = 56, 40
    xs = np.linspace(-12.0, 12.0, nx + 1)
    zs = np.linspace(-10.0, 10.0, nz + 1)
    gx, gz = np.meshgrid(xs, zs, indexing="ij")  # rows along X, columns along Z: normal +Y
    grid = np.stack([gx, np.zeros_like(gx), gz], axis=2)
    shallow = np.clip((np.abs(gx) - 1.5) / 5.0, 0.0, 1.0)
    shallow = shallow * shallow * (3 - 2 * shallow)
    col = lerp(WATER_DEEP, WATER_SHALLOW, shallow[..., None])
    col = col * (1.0 + 0.04 * (noise(gx.size, 31).reshape(gx.shape) - 0.5))[..., None]
    normals = np.broadcast_to(np.array([0.0, 1.0, 0.0]), grid.shape)
    return surface(grid, np.clip(col, 0, 1), normals)


# --------------------------------------------------------------------------------------------
# Props
# --------------------------------------------------------------------------------------------


def tree() -> Geo:
    """A round low-poly tree: a tapered trunk under three lumpy leaf clusters, ~2.2 tall."""
    trunk = tube([(0, -0.05, 0), (0.02, 0.5, 0), (-0.02, 1.0, 0.02)], [0.15, 0.11, 0.08], 7, BARK)
    branch = tube([(0.0, 0.75, 0.0), (0.26, 0.98, 0.08)], [0.05, 0.03], 5, BARK)
    crowns = merge(
        move(blob(0.62, LEAF, bumps=0.12, seed=41, squash=(1.0, 0.9, 1.0)), 0.0, 1.45, 0.0),
        move(blob(0.42, LEAF_LIGHT, bumps=0.12, seed=42), 0.36, 1.12, 0.14),
        move(blob(0.40, LEAF_DARK, bumps=0.12, seed=43), -0.22, 1.85, -0.08),
    )
    return merge(vary(trunk + branch, 0.06, 44), vary(crowns, 0.08, 45))


def rock() -> Geo:
    """A lumpy grey boulder with a smaller one beside it; mossy where it faces up."""
    big = move(blob(0.5, ROCK, bumps=0.18, seed=51, squash=(1.0, 0.62, 0.85)), 0.0, 0.22, 0.0)
    small = move(blob(0.26, ROCK, bumps=0.2, seed=52, squash=(1.0, 0.7, 0.9)), 0.48, 0.10, 0.22)
    geo = merge(big, small)
    up = face_normals(geo.pos)[:, 1]
    col = np.where((up > 0.72)[:, None, None], np.array(MOSS), geo.col)
    col = np.where((up < -0.2)[:, None, None], np.array(ROCK_DARK), col)
    return vary(Geo(geo.pos, geo.nrm, col), 0.10, 53)


def reeds() -> Geo:
    """A clump of reed blades and three cattails, ~1.0 tall."""
    parts = []
    count = 13
    h = noise(count * 4, 61)
    for i in range(count):
        ang = 2 * np.pi * (i / count + 0.1 * h[4 * i])
        rad = 0.05 + 0.14 * h[4 * i + 1]
        height = 0.55 + 0.35 * h[4 * i + 2]
        lean = 0.10 + 0.22 * h[4 * i + 3]
        bx, bz = rad * math.sin(ang), rad * math.cos(ang)
        ox, oz = math.sin(ang) * lean, math.cos(ang) * lean
        path = [(bx, -0.05, bz), (bx + 0.3 * ox, 0.5 * height, bz + 0.3 * oz),
                (bx + ox, height, bz + oz)]  # fmt: skip
        colour = REED if i % 2 else REED_DARK
        parts.append(tube(path, [0.022, 0.016, 0.0], 3, colour))
    for i, (cx, cz, top) in enumerate(
        [(0.02, 0.03, 1.0), (-0.09, -0.05, 0.86), (0.1, -0.08, 0.78)]
    ):
        stem = tube([(cx, -0.05, cz), (cx + 0.02 * i, top, cz)], [0.012, 0.01], 4, REED_DARK)
        head = tube(
            [(cx + 0.02 * i, top - 0.26, cz), (cx + 0.02 * i, top - 0.03, cz)],
            [0.032, 0.032], 6, CATTAIL,
        )  # fmt: skip
        parts += [stem, head]
    return vary(merge(*parts), 0.08, 62)


def cloud() -> Geo:
    """A puffy white cloud about 2.4 long with a flat underside."""
    puffs = merge(
        move(blob(0.55, CLOUD, bumps=0.06, seed=71), 0.0, 0.35, 0.0),
        move(blob(0.42, CLOUD, bumps=0.06, seed=72), -0.62, 0.22, 0.05),
        move(blob(0.45, CLOUD, bumps=0.06, seed=73), 0.62, 0.25, -0.05),
        move(blob(0.32, CLOUD, bumps=0.06, seed=74), 0.2, 0.62, 0.1),
    )
    pos = puffs.pos.copy()
    pos[..., 1] = np.maximum(pos[..., 1], 0.0)  # flatten the bottom
    geo = tris(pos, puffs.col)
    down = face_normals(geo.pos)[:, 1] < -0.5
    col = np.where(down[:, None, None], np.array((0.86, 0.88, 0.93)), geo.col)
    return Geo(geo.pos, geo.nrm, col)


def jetty() -> Geo:
    """A short wooden pier, 1.5 along X by 1.2 along Z, deck top at y=0, on four posts."""
    planks = []
    count, gap = 6, 0.03
    width = (1.5 - gap * (count - 1)) / count
    for i in range(count):
        x0 = -0.75 + i * (width + gap)
        colour = DECK_A if i % 2 == 0 else DECK_B
        planks.append(box((x0, -0.06, -0.6), (x0 + width, 0.0, 0.6), colour))
    beams = merge(
        box((-0.75, -0.16, 0.38), (0.75, -0.06, 0.48), WOOD_DARK),
        box((-0.75, -0.16, -0.48), (0.75, -0.06, -0.38), WOOD_DARK),
    )
    post = lathe([(0.075, -1.2), (0.075, 0.1), (0.06, 0.13)], 7, [WOOD_MID, WOOD_DARK])
    posts = merge(*(move(post, px, 0.0, pz) for px in (-0.62, 0.62) for pz in (-0.53, 0.53)))
    return vary(merge(*planks, beams, posts), 0.07, 81)


# --------------------------------------------------------------------------------------------
# Pieces and markers for board games and hints
# --------------------------------------------------------------------------------------------


def disc() -> Geo:
    """A Reversi disc: radius 0.45, 0.12 thick, centred on y=0; white on top, black below."""
    profile = [(0.0, -0.06), (0.42, -0.06), (0.45, -0.035), (0.45, 0.0), (0.45, 0.035),
               (0.42, 0.06), (0.0, 0.06)]  # fmt: skip
    return lathe(profile, 24, [BLACK, BLACK, BLACK, WHITE, WHITE, WHITE], caps=False)


def marker() -> Geo:
    """A thin flat ring, outer radius 0.3, lying on y=0 (for highlights)."""
    profile = [(0.22, 0.0), (0.30, 0.0), (0.30, 0.02), (0.22, 0.02), (0.22, 0.0)]
    return lathe(profile, 32, WHITE, caps=False)


def arrow() -> Geo:
    """A hint arrow pointing down -Y: tip at the origin, 0.6 tall."""
    profile = [(0.0, 0.0), (0.17, 0.26), (0.07, 0.26), (0.07, 0.60), (0.0, 0.60)]
    return lathe(profile, 12, WHITE, caps=False)


def disc_face() -> Geo:
    """One face of a Reversi disc: the half above y=0 of a disc of radius 0.45, 0.12 thick,
    white for the theme's colour (a disc is two faces, the lower one turned over)."""
    profile = [(0.45, 0.0), (0.45, 0.035), (0.42, 0.06), (0.0, 0.06)]
    return lathe(profile, 24, WHITE, caps=False)


def reversi_felt() -> Geo:
    """The playing surface of the Reversi board: 8 x 8 squares of 1.0 (top at y=0, centred
    on the origin), white for the theme's colour."""
    return box((-4.0, -0.30, -4.0), (4.0, 0.0, 4.0), WHITE)


def reversi_lines() -> Geo:
    """The Reversi board's grid lines just above the felt and its four traditional dots,
    white for the theme's colour."""
    parts = []
    for i in range(9):
        c = -4.0 + i
        parts.append(box((c - 0.025, 0.0, -4.0), (c + 0.025, 0.004, 4.0), WHITE))
        parts.append(box((-4.0, 0.0, c - 0.025), (4.0, 0.004, c + 0.025), WHITE))
    for x, z in ((-2, -2), (2, -2), (-2, 2), (2, 2)):
        parts.append(move(cylinder(0.07, 0.0, 0.006, 8, WHITE), x, 0.0, z))
    return merge(*parts)


def reversi_frame() -> Geo:
    """The Reversi board's bevelled wooden frame round the felt: four rails (a trapezoid
    section swept along each side), in wood tones the theme tints."""
    inner, outer, top, low = 4.0, 4.6, 0.10, -0.36
    section = [(inner, 0.0), (inner + 0.12, top), (outer - 0.1, top), (outer, top - 0.08),
               (outer, low), (inner, low)]  # fmt: skip
    parts = []
    for k in range(4):
        rail = extrude([(x, y) for x, y in reversed(section)], -outer, outer, WOOD_MID)
        rail = rotate(rail, (0, 1, 0), 90.0 * k)
        parts.append(vary(rail, 0.05, 40 + k))
    return merge(*parts)


def table() -> Geo:
    """A broad tabletop under the board: top at y=0, 24 x 16, with a darker rim."""
    return merge(
        vary(box((-12.0, -0.4, -8.0), (12.0, 0.0, 8.0), TABLE), 0.04, 7),
        box((-12.2, -0.5, -8.2), (12.2, -0.3, 8.2), TABLE_DARK),
    )


def card() -> Geo:
    """A playing card lying flat, 0.64 x 0.9, its face a pale panel inside a grey border;
    white so that a material tints it (a category's colour, or the back's)."""
    return merge(
        box((-0.32, 0.0, -0.45), (0.32, 0.02, 0.45), (0.78, 0.78, 0.78)),
        box((-0.26, 0.02, -0.39), (0.26, 0.026, 0.39), (1.0, 1.0, 1.0)),
    )


def envelope() -> Geo:
    """The envelope: a flat packet 1.6 x 1.1 with its flap a shade darker."""
    flap = np.array(
        [[-0.8, 0.082, -0.55], [0.0, 0.082, 0.05], [0.8, 0.082, -0.55]], dtype=np.float64
    )
    return merge(
        box((-0.8, 0.0, -0.55), (0.8, 0.08, 0.55), (1.0, 1.0, 1.0)),
        tris(flap, (0.82, 0.82, 0.82)),
    )


def felt() -> Geo:
    """A card table's cloth: 11 x 8, top at y=0, white for the material to colour."""
    return box((-5.5, -0.12, -4.0), (5.5, 0.0, 4.0), (1.0, 1.0, 1.0))


# --------------------------------------------------------------------------------------------
# The described board games: every piece shape, and the parts boards are built from
# --------------------------------------------------------------------------------------------
# Pieces stand on y=0 centred on the origin, for a board square of 1.0; they are near white,
# with a few grey bands for detail, so the owner's colour (the node's material) tints them.

PIECE = (0.96, 0.95, 0.93)
PIECE_SHADE = (0.78, 0.77, 0.75)
PIECE_DEEP = (0.62, 0.61, 0.60)
CROWN = (0.96, 0.74, 0.20)
CROWN_DARK = (0.72, 0.48, 0.10)


def _staunton_base(top: float) -> list[tuple[float, float]]:
    """The foot every chess piece shares, up to the collar at ``top``."""
    return [(0.33, 0.0), (0.33, 0.05), (0.29, 0.08), (0.30, 0.10), (0.22, 0.14),
            (0.17, 0.18), (0.12, top)]  # fmt: skip


def _bands(profile: Sequence[tuple[float, float]], dark: Sequence[int]) -> list[Colour]:
    """One colour per band of a lathe profile: the ``dark`` bands shaded."""
    return [PIECE_SHADE if i in dark else PIECE for i in range(len(profile) - 1)]


def man() -> Geo:
    """A draughts man: a low disc with a ridged rim and a sunken ring on top, 0.8 across."""
    profile = [(0.0, 0.0), (0.38, 0.0), (0.40, 0.02), (0.40, 0.05), (0.385, 0.065),
               (0.40, 0.08), (0.40, 0.11), (0.38, 0.13), (0.30, 0.13), (0.27, 0.115),
               (0.24, 0.13), (0.0, 0.13)]  # fmt: skip
    colours = [PIECE, PIECE, PIECE, PIECE_SHADE, PIECE_SHADE, PIECE, PIECE, PIECE,
               PIECE_SHADE, PIECE_SHADE, PIECE]  # fmt: skip
    return lathe(profile, 28, colours, caps=False)


def crown() -> Geo:
    """A gold crown (a draughts king's mark): a band 0.36 across with five points, 0.16 tall."""
    band = lathe([(0.0, 0.0), (0.18, 0.0), (0.18, 0.07), (0.15, 0.07), (0.15, 0.01),
                  (0.0, 0.01)], 20, [CROWN_DARK, CROWN, CROWN, CROWN_DARK, CROWN_DARK],
                 caps=False)  # fmt: skip
    parts = [band]
    for k in range(5):
        spike = move(octahedron(0.05, CROWN, squash=(0.8, 1.8, 0.5)), 0.0, 0.11, 0.165)
        parts.append(rotate(spike, (0, 1, 0), 72.0 * k))
    return merge(*parts)


def pawn() -> Geo:
    """A chess pawn: a Staunton foot, a collar and a ball, 0.6 tall."""
    profile = [*_staunton_base(0.30), (0.17, 0.32), (0.17, 0.345), (0.09, 0.37), (0.0, 0.37)]
    body = lathe(profile, 20, _bands(profile, {5, 7, 8}), caps=False)
    return merge(body, move(sphere(0.13, 16, 8, PIECE), 0.0, 0.47, 0.0))


def rook() -> Geo:
    """A chess rook: a straight tower with five battlements, 0.66 tall."""
    profile = [*_staunton_base(0.20), (0.15, 0.44), (0.21, 0.47), (0.21, 0.58),
               (0.15, 0.58), (0.15, 0.54), (0.0, 0.54)]  # fmt: skip
    parts = [lathe(profile, 20, _bands(profile, {6, 9, 10}), caps=False)]
    for k in range(5):
        merlon = box((-0.055, 0.58, 0.15), (0.055, 0.66, 0.21), PIECE)
        parts.append(rotate(merlon, (0, 1, 0), 72.0 * k))
    return merge(*parts)


def bishop() -> Geo:
    """A chess bishop: a slim stem, a collar, a pointed mitre with a dark band and a knob,
    0.86 tall."""
    profile = [*_staunton_base(0.40), (0.18, 0.42), (0.18, 0.45), (0.11, 0.47), (0.15, 0.56),
               (0.155, 0.62), (0.13, 0.68), (0.08, 0.74), (0.0, 0.77)]  # fmt: skip
    body = lathe(profile, 20, _bands(profile, {7, 8, 10}), caps=False)
    return merge(body, move(sphere(0.05, 10, 5, PIECE), 0.0, 0.80, 0.0))


def queen() -> Geo:
    """A chess queen: a tall waisted body, a flared coronet of nine points and a ball,
    0.96 tall."""
    profile = [*_staunton_base(0.52), (0.19, 0.55), (0.19, 0.58), (0.12, 0.60), (0.15, 0.70),
               (0.21, 0.80), (0.17, 0.80), (0.12, 0.84), (0.0, 0.85)]  # fmt: skip
    parts = [lathe(profile, 24, _bands(profile, {7, 8, 12}), caps=False)]
    for k in range(9):
        point = move(octahedron(0.05, PIECE, squash=(1.0, 1.6, 1.0)), 0.0, 0.84, 0.19)
        parts.append(rotate(point, (0, 1, 0), 40.0 * k))
    parts.append(move(sphere(0.075, 10, 5, PIECE), 0.0, 0.91, 0.0))
    return merge(*parts)


def king() -> Geo:
    """A chess king: the tallest piece, a waisted body, a cap and a big cross on top, 1.2
    tall."""
    profile = [*_staunton_base(0.54), (0.19, 0.57), (0.19, 0.60), (0.12, 0.62), (0.15, 0.72),
               (0.19, 0.80), (0.16, 0.84), (0.08, 0.87), (0.0, 0.88)]  # fmt: skip
    body = lathe(profile, 24, _bands(profile, {7, 8, 12}), caps=False)
    upright = box((-0.045, 0.86, -0.045), (0.045, 1.20, 0.045), PIECE)
    arm = box((-0.14, 1.02, -0.045), (0.14, 1.10, 0.045), PIECE)
    return merge(body, upright, arm)


def knight() -> Geo:
    """A chess knight: a Staunton foot and a horse's head in profile, facing -X (left, as
    diagrams draw it), 0.8 tall."""
    foot = [*_staunton_base(0.20)[:-1], (0.17, 0.20), (0.0, 0.20)]
    parts = [lathe(foot, 20, _bands(foot, {5}), caps=False)]
    head = [(0.16, 0.18), (0.17, 0.36), (0.13, 0.55), (0.05, 0.68), (0.02, 0.80),
            (-0.04, 0.72), (-0.12, 0.68), (-0.24, 0.56), (-0.29, 0.47), (-0.25, 0.42),
            (-0.12, 0.44), (-0.04, 0.40), (-0.10, 0.28), (-0.14, 0.18)]  # fmt: skip
    parts.append(extrude(head, -0.10, 0.10, PIECE))
    mane = [(0.17, 0.36), (0.20, 0.40), (0.16, 0.58), (0.07, 0.70), (0.05, 0.68),
            (0.13, 0.55)]  # fmt: skip
    parts.append(extrude(mane, -0.05, 0.05, PIECE_SHADE))
    eye = octahedron(0.025, PIECE_DEEP)
    parts += [move(eye, -0.12, 0.60, 0.10), move(eye, -0.12, 0.60, -0.10)]
    return merge(*parts)


def counter() -> Geo:
    """A plain disc (the ``disc`` shape of a described game), 0.84 across and 0.12 thick,
    its bottom on y=0; the same on both faces, so it can turn over."""
    profile = [(0.0, 0.0), (0.40, 0.0), (0.42, 0.02), (0.42, 0.10), (0.40, 0.12), (0.0, 0.12)]
    return lathe(profile, 28, [PIECE, PIECE, PIECE_SHADE, PIECE, PIECE], caps=False)


def stone() -> Geo:
    """A Go stone: a smooth lens 0.88 across and 0.2 thick."""
    t = np.linspace(-math.pi / 2, math.pi / 2, 9)
    profile = [(0.44 * math.cos(a), 0.10 + 0.10 * math.sin(a)) for a in t]
    profile[0], profile[-1] = (0.0, 0.0), (0.0, 0.20)
    geo = lathe(profile, 24, PIECE, caps=False)
    # Smooth normals of the squashed sphere the lens is.
    centred = geo.pos - np.array([0.0, 0.10, 0.0])
    return Geo(geo.pos, _unit(centred / np.array([0.44, 0.10, 0.44]) ** 1), geo.col)


def cross() -> Geo:
    """An X lying on the board: two crossed bars 0.8 long, 0.18 wide and 0.12 high."""
    bar = box((-0.40, 0.0, -0.09), (0.40, 0.12, 0.09), PIECE)
    return merge(rotate(bar, (0, 1, 0), 45.0), rotate(bar, (0, 1, 0), -45.0))


def ring() -> Geo:
    """An O lying on the board: a ring 0.76 across and 0.14 thick."""
    t = np.linspace(-math.pi / 2, 3 * math.pi / 2, 13)
    profile = [(0.31 + 0.07 * math.cos(a), 0.07 + 0.07 * math.sin(a)) for a in t]
    geo = lathe(profile, 28, PIECE, caps=False)
    radial = geo.pos * np.array([1.0, 0.0, 1.0])
    core = _unit(radial) * 0.31 + np.array([0.0, 0.07, 0.0])
    return Geo(geo.pos, _unit(geo.pos - core), geo.col)


def block() -> Geo:
    """A white unit block, -0.5..0.5 across X and Z, 0..1 up: scaled, it is a board's square,
    its frame, and the lines of a drawn board."""
    return box((-0.5, 0.0, -0.5), (0.5, 1.0, 0.5), WHITE)


def hexagon() -> Geo:
    """A white hexagonal slab 0.1 thick, its corners 1.0 from the middle (one on +Z), top at
    y=0: a cell of a hex board, scaled."""
    return lathe([(0.0, -0.1), (1.0, -0.1), (1.0, 0.0), (0.0, 0.0)], 6, WHITE, phase=0.0,
                 caps=False)  # fmt: skip


def hole() -> Geo:
    """A point of a drawn board: a small white dot 0.24 across, 0.012 high."""
    return lathe([(0.0, 0.0), (0.12, 0.0), (0.12, 0.012), (0.0, 0.012)], 16, WHITE, caps=False)


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

#: file name -> (build function, triangle budget)
MODELS: dict[str, tuple[Callable[[], Geo], int]] = {
    "priest.obj": (priest, 700),
    "reversi_felt.obj": (reversi_felt, 12),
    "reversi_lines.obj": (reversi_lines, 400),
    "reversi_frame.obj": (reversi_frame, 100),
    "table.obj": (table, 100),
    "devil.obj": (devil, 700),
    "boat.obj": (boat, 900),
    "bank.obj": (bank, 1500),
    "water.obj": (water, 4500),
    "tree.obj": (tree, 400),
    "rock.obj": (rock, 400),
    "reeds.obj": (reeds, 400),
    "cloud.obj": (cloud, 400),
    "jetty.obj": (jetty, 400),
    "disc.obj": (disc, 400),
    "disc_face.obj": (disc_face, 200),
    "marker.obj": (marker, 400),
    "arrow.obj": (arrow, 400),
    "card.obj": (card, 40),
    "envelope.obj": (envelope, 40),
    "felt.obj": (felt, 20),
    "man.obj": (man, 600),
    "crown.obj": (crown, 240),
    "pawn.obj": (pawn, 700),
    "rook.obj": (rook, 600),
    "knight.obj": (knight, 600),
    "bishop.obj": (bishop, 700),
    "queen.obj": (queen, 900),
    "king.obj": (king, 800),
    "counter.obj": (counter, 400),
    "stone.obj": (stone, 500),
    "cross.obj": (cross, 40),
    "ring.obj": (ring, 800),
    "block.obj": (block, 12),
    "hexagon.obj": (hexagon, 30),
    "hole.obj": (hole, 70),
}


def _clean(a: np.ndarray) -> np.ndarray:
    """Round to 4 decimals and turn -0.0 into 0.0 so the text is stable."""
    return np.round(a, 4) + 0.0


_V_FORMAT = " ".join(["{:.4f}"] * 6)
_N_FORMAT = " ".join(["{:.4f}"] * 3)


def to_obj(name: str, geo: Geo, description: str = "") -> str:
    """Write ``geo`` as OBJ text with shared vertices and normals, 4 decimals."""
    pos = _clean(geo.pos.reshape(-1, 3))
    nrm = _clean(geo.nrm.reshape(-1, 3))
    col = _clean(np.clip(geo.col.reshape(-1, 3), 0.0, 1.0))
    v_index: dict[str, int] = {}
    n_index: dict[str, int] = {}
    faces: list[str] = []
    corner: list[str] = []
    for p, n, c in zip(pos.tolist(), nrm.tolist(), col.tolist(), strict=True):
        vkey = _V_FORMAT.format(*p, *c)
        nkey = _N_FORMAT.format(*n)
        vi = v_index.setdefault(vkey, len(v_index) + 1)
        ni = n_index.setdefault(nkey, len(n_index) + 1)
        corner.append(f"{vi}//{ni}")
        if len(corner) == 3:
            faces.append("f " + " ".join(corner))
            corner = []
    lo, hi = pos.min(axis=0), pos.max(axis=0)
    lines = [
        f"# Gamehall model '{name}': generated by tools/make_models.py - do not edit by hand.",
    ]
    if description:
        lines.append(f"# {description}")
    lines += [
        f"# triangles: {geo.triangles}",
        "# bounds: min {:.3f} {:.3f} {:.3f} max {:.3f} {:.3f} {:.3f}".format(*lo, *hi),
        f"o {name}",
    ]
    lines += [f"v {k}" for k in v_index]
    lines += [f"vn {k}" for k in n_index]
    lines += faces
    return "\n".join(lines) + "\n"


def build(filename: str) -> str:
    """The OBJ text of one model."""
    func, _budget = MODELS[filename]
    doc = (func.__doc__ or "").strip().splitlines()
    return to_obj(filename.removesuffix(".obj"), func(), doc[0] if doc else "")


def build_all() -> dict[str, str]:
    """Every model's OBJ text, keyed by file name."""
    return {filename: build(filename) for filename in MODELS}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out_dir = Path(args[0]) if args else MODELS_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    for filename, text in build_all().items():
        (out_dir / filename).write_text(text, encoding="utf-8", newline="\n")
        tri = text.count("\nf ")
        budget = MODELS[filename][1]
        flag = "" if tri <= budget else "  OVER BUDGET"
        print(f"{filename:12s} {tri:5d} triangles (budget {budget}){flag}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
