"""Picking: which node is under the mouse, by a ray against the triangles each node draws.

A node's bounding box only rules it out quickly: a tall piece's box reaches over the piece
behind it (a king's box covers the foot of the pawn on the next rank), so the ray is tested
against the mesh's own triangles, in the node's own space, and the nearest triangle hit wins.
A mesh whose triangles are not known is picked by its box alone.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyrr

from game.engine.scene import Node, Scene

__all__ = [
    "mouse_ray",
    "pick",
    "pick_hit",
    "ray_at_height",
    "ray_box",
    "ray_triangles",
    "triangles_of",
]

Bounds = Mapping[str, tuple[np.ndarray, np.ndarray]]


def mouse_ray(
    view_proj: np.ndarray, x: float, y: float, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """World-space ray (origin, unit direction) through window pixel (x, y), origin bottom-left."""
    w, h = max(1, size[0]), max(1, size[1])
    nx, ny = 2.0 * x / w - 1.0, 2.0 * y / h - 1.0
    inv = np.linalg.inv(view_proj.astype("f8"))
    near = inv @ np.array([nx, ny, -1.0, 1.0])
    far = inv @ np.array([nx, ny, 1.0, 1.0])
    near = near[:3] / near[3]
    far = far[:3] / far[3]
    d = far - near
    return near, d / np.linalg.norm(d)


def ray_at_height(ray: tuple[np.ndarray, np.ndarray] | None, height: float) -> np.ndarray | None:
    """Where ``ray`` (origin, direction) meets the level plane ``y = height`` ahead of its
    origin (pyrr's ray-plane test), or None: no ray, one along the plane, or the plane
    behind it."""
    if ray is None:
        return None
    origin, direction = (np.asarray(v, dtype="f8") for v in ray)
    if abs(direction[1]) < 1e-6:
        return None
    plane = pyrr.plane.create(np.array([0.0, 1.0, 0.0]), float(height))
    hit = pyrr.geometric_tests.ray_intersect_plane(np.stack([origin, direction]), plane)
    if hit is None or float(np.dot(hit - origin, direction)) <= 0.0:
        return None
    return np.asarray(hit, dtype="f8")


def ray_box(
    origin: np.ndarray, direction: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> float | None:
    """Distance along the ray to an axis-aligned box, or None when it misses (slab test)."""
    t_near, t_far = -np.inf, np.inf
    for axis in range(3):
        o, d = origin[axis], direction[axis]
        if abs(d) < 1e-12:
            if o < lo[axis] or o > hi[axis]:
                return None
            continue
        t1, t2 = (lo[axis] - o) / d, (hi[axis] - o) / d
        if t1 > t2:
            t1, t2 = t2, t1
        t_near, t_far = max(t_near, t1), min(t_far, t2)
        if t_near > t_far or t_far < 0:
            return None
    return float(t_near if t_near >= 0 else t_far)


def _ray_boxes(
    origins: np.ndarray, directions: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> np.ndarray:
    """:func:`ray_box` for many rays and boxes at once (rows of ``(N, 3)`` arrays): each
    distance, NaN where the ray misses its box."""
    flat = np.abs(directions) < 1e-12  # parallel to a slab: inside it or a miss
    outside = flat & ((origins < lo) | (origins > hi))
    with np.errstate(divide="ignore", invalid="ignore"):
        safe = np.where(flat, 1.0, directions)
        t1, t2 = (lo - origins) / safe, (hi - origins) / safe
    t_near = np.where(flat, -np.inf, np.minimum(t1, t2)).max(axis=1)
    t_far = np.where(flat, np.inf, np.maximum(t1, t2)).min(axis=1)
    missed = outside.any(axis=1) | (t_near > t_far) | (t_far < 0)
    return np.where(missed, np.nan, np.where(t_near >= 0, t_near, t_far))


def triangles_of(corners: np.ndarray) -> np.ndarray:
    """A mesh's ``(N, 3)`` corner positions (three rows a triangle) as an ``(N/3, 3, 3)``
    float64 array, the shape :func:`ray_triangles` takes."""
    return np.ascontiguousarray(corners, dtype="f8").reshape(-1, 3, 3)


def ray_triangles(origin: np.ndarray, direction: np.ndarray, triangles: np.ndarray) -> float | None:
    """Distance along the ray to the nearest of ``triangles`` (``(N, 3, 3)``) it passes
    through, either face, or None when it passes through none (Moller-Trumbore, all the
    triangles at once).

    >>> tri = np.array([[[0.0, 0, 0], [1, 0, 0], [0, 1, 0]]])
    >>> ray_triangles(np.array([0.2, 0.2, 5.0]), np.array([0.0, 0, -1]), tri)
    5.0
    >>> ray_triangles(np.array([0.9, 0.9, 5.0]), np.array([0.0, 0, -1]), tri) is None
    True
    """
    if len(triangles) == 0:
        return None
    a = triangles[:, 0]
    e1 = triangles[:, 1] - a
    e2 = triangles[:, 2] - a
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - a
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    # A hair of slack at the edges: a ray through an edge shared by two triangles hits one.
    eps = 1e-9
    hit = ok & (u >= -eps) & (v >= -eps) & (u + v <= 1.0 + eps) & (t >= 0.0)
    if not hit.any():
        return None
    return float(t[hit].min())


def pick(
    scene: Scene,
    bounds: Bounds,
    origin: np.ndarray,
    direction: np.ndarray,
    triangles: Mapping[str, np.ndarray] | None = None,
) -> Node | None:
    """The nearest pickable node whose drawn surface the ray meets (see the module
    docstring): ``triangles`` maps a mesh name to :func:`triangles_of` its corners; a mesh
    missing there is tested by its box in ``bounds`` alone."""
    hit = pick_hit(scene, bounds, origin, direction, triangles)
    return hit[0] if hit is not None else None


def pick_hit(
    scene: Scene,
    bounds: Bounds,
    origin: np.ndarray,
    direction: np.ndarray,
    triangles: Mapping[str, np.ndarray] | None = None,
) -> tuple[Node, np.ndarray] | None:
    """:func:`pick`'s node and the world point where the ray meets its surface (the
    direction need not be of unit length), or None."""
    triangles = triangles or {}
    nodes = [node for node in scene.pickable_nodes() if str(node.mesh) in bounds]
    if not nodes:
        return None
    # Every node's box at once: the ray in each node's own space, then the slab test.
    worlds = np.stack([node.world_matrix() for node in nodes]).astype("f8")
    inverses = np.linalg.inv(worlds)
    origins = (inverses @ np.append(np.asarray(origin, dtype="f8"), 1.0))[:, :3]
    directions = inverses[:, :3, :3] @ np.asarray(direction, dtype="f8")
    boxes = [bounds[str(node.mesh)] for node in nodes]
    lo = np.array([np.asarray(b[0], dtype="f8") for b in boxes])
    hi = np.array([np.asarray(b[1], dtype="f8") for b in boxes])
    entries = _ray_boxes(origins, directions, lo, hi)
    # The ray starts inside the box: its surface may be anywhere along it.
    inside = np.all((origins >= lo) & (origins <= hi), axis=1)
    entries = np.where(inside & ~np.isnan(entries), 0.0, entries)
    # Compare in world units: scale the local distance back by the direction's stretch.
    stretches = np.linalg.norm(np.einsum("nij,nj->ni", worlds[:, :3, :3], directions), axis=1)
    candidates: list[tuple[float, Node, np.ndarray, np.ndarray, float]] = [
        (float(entries[i] * stretches[i]), nodes[i], origins[i], directions[i],
         float(stretches[i]))
        for i in np.flatnonzero(~np.isnan(entries))
    ]  # fmt: skip
    candidates.sort(key=lambda c: c[0])
    best: tuple[float, Node] | None = None
    for box_distance, node, o, d, stretch in candidates:
        if best is not None and box_distance > best[0]:
            break  # every box left starts behind the surface already hit
        shape = triangles.get(str(node.mesh))
        if shape is None:
            t: float | None = box_distance / stretch
        else:
            t = ray_triangles(o, d, shape)
        if t is None:
            continue
        distance = t * stretch
        if best is None or distance < best[0]:
            best = (distance, node)
    if best is None:
        return None
    unit = np.asarray(direction, dtype="f8")
    unit = unit / np.linalg.norm(unit)
    return best[1], np.asarray(origin, dtype="f8") + best[0] * unit
