"""Framing a scene in the part of the window the HUD leaves free, at any window shape.

A scene's *pieces* are what a player must see: every pickable node (a board's squares, the
river's banks and cast) and the points the controller labels (a board's coordinates, the
seats' names). :func:`pieces_box` is their world box; :func:`frame` works out the lens (a
scale no larger than the scene file's, and a shift) that puts the box, as the camera's home
view sees it, inside the free rectangle: it moves the picture as little as it can from where
the scene file put it, and shrinks it only when the box does not fit. A window of another
shape (4:3 instead of 16:9) or a panel docked at a side then hides nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from game.engine.scene import Camera, Scene

__all__ = ["Lens", "frame", "pieces_box"]

Box = tuple[np.ndarray, np.ndarray]  # world (lo, hi)


@dataclass(frozen=True)
class Lens:
    """How the picture is moved and scaled on screen (normalised device units)."""

    shift_x: float = 0.0
    shift_y: float = 0.0
    zoom: float = 1.0


def pieces_box(
    scene: Scene, bounds: Mapping[str, tuple[Any, Any]], points: Iterable[Any] = ()
) -> Box | None:
    """The world box around the scene's visible pickable nodes (by their meshes' boxes) and
    ``points``; None when there is nothing."""
    corners: list[np.ndarray] = []
    for node in scene.pickable_nodes():
        if node.mesh is None or node.mesh not in bounds:
            continue
        lo, hi = (np.asarray(b, dtype="f8") for b in bounds[node.mesh])
        local = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                          for z in (lo[2], hi[2])])  # fmt: skip
        corners.extend((local @ node.world_matrix().astype("f8").T)[:, :3])
    for point in points:
        p = np.asarray(point, dtype="f8").reshape(-1)
        if p.shape == (3,) and np.all(np.isfinite(p)):
            corners.append(p)
    if not corners:
        return None
    stack = np.asarray(corners)
    return stack.min(axis=0), stack.max(axis=0)


def frame(
    camera: Camera,
    size: tuple[float, float],
    free: tuple[float, float, float, float],
    box: Box | None,
) -> Lens:
    """The lens that shows ``box`` (world) inside ``free`` (left, bottom, right, top in
    window units) of a view of ``size``, seen from the camera's home view.

    With no box, the picture is centred in the free part across and scaled down only where
    that part is narrower than the camera's ``fit_aspect``. Otherwise the box's picture is
    scaled down until it fits the free part (never up), then moved into it as little as it
    can be from the centre of the free part across and where the scene put it up and down.
    """
    w, h = max(1.0, float(size[0])), max(1.0, float(size[1]))
    left, bottom, right, top = _sane(free, w, h)
    # Normalised device units of the free part.
    nl, nr = 2.0 * left / w - 1.0, 2.0 * right / w - 1.0
    nb, nt = 2.0 * bottom / h - 1.0, 2.0 * top / h - 1.0
    zoom = 1.0
    if camera.fit_aspect > 0:
        zoom = min(1.0, (right - left) / h / camera.fit_aspect)
    shift_x = (nl + nr) / 2.0  # the middle of the free part, across
    shift_y = 0.0
    extent = _extent(camera, w / h, box) if box is not None else None
    if extent is None:
        return Lens(shift_x, shift_y, zoom)
    x0, y0, x1, y1 = extent
    zoom = min(zoom, (nr - nl) / max(x1 - x0, 1e-6), (nt - nb) / max(y1 - y0, 1e-6))
    zoom = max(zoom, 0.05)
    shift_x = _into(shift_x, zoom, x0, x1, nl, nr)
    shift_y = _into(0.0, zoom, y0, y1, nb, nt)
    return Lens(shift_x, shift_y, zoom)


# -- helpers: they trust their input ----------------------------------------------------------


def _sane(
    free: tuple[float, float, float, float], w: float, h: float
) -> tuple[float, float, float, float]:
    """``free`` inside the view and at least a tenth of it each way."""
    left = min(max(float(free[0]), 0.0), w * 0.9)
    right = max(min(float(free[2]), w), left + w * 0.1)
    bottom = min(max(float(free[1]), 0.0), h * 0.9)
    top = max(min(float(free[3]), h), bottom + h * 0.1)
    return left, bottom, right, top


def _extent(camera: Camera, aspect: float, box: Box) -> tuple[float, float, float, float] | None:
    """The box's picture (x0, y0, x1, y1 in normalised device units) from the home view with
    a plain lens; None when part of it is behind the eye."""
    import pyrr

    view = np.asarray(pyrr.matrix44.create_look_at(camera.eye, camera.target, camera.up)).T
    proj = np.asarray(
        pyrr.matrix44.create_perspective_projection(camera.fov, aspect, camera.near, camera.far)
    ).T
    lo, hi = box
    corners = np.array([[x, y, z, 1.0] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])])  # fmt: skip
    clip = corners @ (proj @ view).T
    if np.any(clip[:, 3] <= 1e-6):
        return None
    ndc = clip[:, :2] / clip[:, 3:4]
    return (
        float(ndc[:, 0].min()),
        float(ndc[:, 1].min()),
        float(ndc[:, 0].max()),
        float(ndc[:, 1].max()),
    )


def _into(shift: float, zoom: float, a0: float, a1: float, low: float, high: float) -> float:
    """``shift`` moved as little as it takes for [a0, a1] scaled by ``zoom`` and shifted to
    lie in [low, high] (centred when it is as wide as the room)."""
    s0, s1 = zoom * a0 + shift, zoom * a1 + shift
    if s1 - s0 >= high - low - 1e-9:
        return (low + high) / 2.0 - zoom * (a0 + a1) / 2.0
    if s0 < low:
        return shift + (low - s0)
    if s1 > high:
        return shift - (s1 - high)
    return shift
