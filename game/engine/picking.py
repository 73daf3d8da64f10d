"""Picking: which node is under the mouse, by a ray against each node's bounding box."""

from __future__ import annotations

import numpy as np

from game.engine.scene import Node, Scene


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


def pick(
    scene: Scene,
    bounds: dict[str, tuple[np.ndarray, np.ndarray]],
    origin: np.ndarray,
    direction: np.ndarray,
) -> Node | None:
    """The nearest pickable node hit by the ray; each box is tested in the node's own space."""
    best: tuple[float, Node] | None = None
    for node in scene.pickable_nodes():
        if node.mesh not in bounds:
            continue
        lo, hi = bounds[node.mesh]
        world = node.world_matrix().astype("f8")
        inv = np.linalg.inv(world)
        o = (inv @ np.append(origin, 1.0))[:3]
        d = inv[:3, :3] @ direction
        t = ray_box(o, d, lo, hi)
        if t is None:
            continue
        # Compare in world units: scale the local distance back by the direction's stretch.
        dist = t * float(np.linalg.norm(world[:3, :3] @ d))
        if best is None or dist < best[0]:
            best = (dist, node)
    return best[1] if best else None
