"""The MasterGrab map in the scene: its render layer, the camera over it, and picking.

:class:`MapView` builds the layer for a map, uploads what :func:`~game.games.grab.paint.
paint` makes of a state (tile heights ease towards their new values), pans and zooms the
camera (which stays over the first copy of the wrapping map), and finds the country under
the mouse ray.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from game.engine.picking import ray_at_height
from game.games.grab.mesh import PIXELS_PER_UNIT, MapMesh, build_map_mesh
from game.games.grab.paint import (
    LABEL_HEIGHT,
    LAND_HEIGHT,
    Painting,
    arrows,
    label_boxes,
    paint,
    palette_of,
)
from game.games.grab.view import GrabLayer
from game.logic.grab.game import MIN_MAP
from game.logic.grab.labels import Label, LabelSpots, label_spots
from game.logic.grab.map import GrabMap
from game.logic.grab.record import CountryMarks
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import GrabState, Move

if TYPE_CHECKING:
    from game.engine.scene import Scene
    from game.games.grab.anim import Flight

__all__ = ["MapView"]

ZOOM_LIMITS: Final = (8.0, 90.0)
VIEW_DIR: Final = np.array([0.0, 21.0, 14.9], dtype="f4") / np.linalg.norm([0.0, 21.0, 14.9])


class MapView:
    """The layer and camera of one scene; ``dirty`` asks for a redraw on the next frame."""

    def __init__(self, scene: Scene, ctx: Any) -> None:
        self.scene = scene
        self.ctx = ctx
        self.layer: GrabLayer | None = None
        self.grab_map: GrabMap | None = None
        self.spots: LabelSpots | None = None
        self.painting: Painting | None = None  # what the last redraw showed
        self._labels: tuple[tuple[int, ...], dict[int, Label]] | None = None
        self.colour = "vermillion"  # the person's colour
        self.dirty = True
        self._heights = np.zeros(0, dtype="f4")
        self._target_heights = np.zeros(0, dtype="f4")
        self._colours = np.zeros((0, 3), dtype="f4")
        self._camera_goal = np.zeros(3, dtype="f4")
        self._distance = self._distance_goal = 26.0

    def build(
        self, grab_map: GrabMap, spots: LabelSpots | None = None, mesh: MapMesh | None = None
    ) -> None:
        """A new layer for ``grab_map`` (``spots`` and ``mesh``: its numbers' places and its
        mesh, when they were made with it; else made here); the camera looks at its middle
        from a distance that shows about the default map (140 countries) whatever the map's
        size."""
        self.release()
        self.grab_map = grab_map
        self.spots = spots if spots is not None else label_spots(grab_map)
        self._labels = None
        if mesh is None:
            mesh = build_map_mesh(grab_map.owner, grab_map.centres, mountains=grab_map.mountains)
        self.layer = GrabLayer(self.ctx, mesh, grab_map.countries)
        self.scene.layers.append(self.layer)
        width = min(mesh.width, MIN_MAP[0] / PIXELS_PER_UNIT)
        self._distance = self._distance_goal = float(np.clip(width * 0.8, *ZOOM_LIMITS))
        self._camera_goal = np.array([mesh.width / 2, 0.0, mesh.depth / 2], dtype="f4")
        self._place_camera(self._camera_goal, self._distance)
        self.jump()

    def jump(self) -> None:
        """The next redraw sets the heights at once instead of easing (a new game)."""
        self._heights = np.zeros(0, dtype="f4")
        self.dirty = True

    def release(self) -> None:
        if self.layer is not None:
            self.scene.layers.remove(self.layer)
            self.layer.release()
            self.layer = None

    def redraw(
        self,
        state: GrabState,
        marks: CountryMarks,
        hover: int | None,
        hint: Move | None,
        playing: Flight | None = None,
    ) -> None:
        """Colours, heights, numbers, rings and arrows of ``state``, and the move in flight
        (``playing``: its arrows, armies on their way, the target's colour)."""
        self.dirty = False
        layer, grab_map, spots = self.layer, self.grab_map, self.spots
        if layer is None or grab_map is None or spots is None:
            return
        palette = palette_of(state, self.colour)
        # The numbers' places depend only on how many digits each has: placed again only
        # when that changes (placing a big map's numbers takes tens of milliseconds).
        key = tuple(
            len(str(int(a))) if o != MOUNTAIN else 0
            for a, o in zip(state.armies, state.owners, strict=True)
        )
        if self._labels is None or self._labels[0] != key:
            self._labels = (key, label_boxes(state, spots, layer.atlas.advance))
        painting = paint(
            state,
            grab_map,
            marks,
            spots,
            palette=palette,
            advance=layer.atlas.advance,
            hover=hover,
            hint=hint,
            labels=self._labels[1],
        )
        self.painting = painting
        self._target_heights = painting.heights
        if len(self._heights) != len(painting.heights):
            self._heights = painting.heights.copy()
        shapes = arrows(state, grab_map, palette, hint)
        sprites = painting.sprites
        if playing is not None:
            if playing.colour is not None:
                painting.colours[playing.target] = playing.colour
            shapes += playing.arrows
            sprites = sprites + playing.sprites
        self._colours = painting.colours
        layer.hover = hover if hover is not None else -1
        layer.set_countries(self._colours, self._heights, painting.owners)
        layer.set_sprites(sprites)
        layer.set_arrows(shapes)

    def update(self, dt: float) -> None:
        """One frame: the camera eases to its goal, the tiles to their heights."""
        self._move_camera(dt)
        if self.layer is None or len(self._heights) == 0 or self.dirty:
            return
        gap = self._target_heights - self._heights
        if float(np.abs(gap).max()) < 1e-3:
            return
        self._heights = self._heights + gap * (1.0 - math.exp(-dt * 8.0))
        self.layer.set_countries(self._colours, self._heights)

    def pan(self, dx: int, dz: int) -> None:
        step = self._distance * 0.3
        self._camera_goal = self._camera_goal + np.array([dx * step, 0.0, dz * step], "f4")

    def zoom(self, factor: float) -> None:
        self._distance_goal = float(np.clip(self._distance_goal * factor, *ZOOM_LIMITS))

    def anchor_of(
        self, country: int, near: tuple[float, float, float] | None = None
    ) -> tuple[float, float, float] | None:
        """The world point of ``country``'s number, in the copy of the map nearest ``near``
        (default: the middle of the view); None before a map is built."""
        spots, layer = self.spots, self.layer
        if spots is None or layer is None:
            return None
        x, z = (v / PIXELS_PER_UNIT for v in spots.points[country])
        target = near if near is not None else tuple(float(v) for v in self.scene.camera.target)
        w, d = layer.mesh.width, layer.mesh.depth
        x += round((target[0] - x) / w) * w
        z += round((target[2] - z) / d) * d
        return (x, LABEL_HEIGHT, z)

    def bring_into_view(self, countries: list[int], view_proj: Any) -> bool:
        """Pan so that every one of ``countries`` (the last one first: a move's target)
        lies well inside the view (``view_proj``: the camera's matrix now); True when the
        camera moves."""
        first = self.anchor_of(countries[-1])
        if first is None:
            return False
        # The others in the copy nearest the first: a move may reach across the wrap.
        points = [first] + [self.anchor_of(c, first) or first for c in countries[:-1]]
        inside = True
        for point in points:
            clip = np.asarray(view_proj, dtype=np.float64) @ np.array([*point, 1.0])
            if clip[3] <= 0 or abs(clip[0] / clip[3]) > 0.7 or abs(clip[1] / clip[3]) > 0.6:
                inside = False
        if inside:
            return False
        middle = np.mean(np.asarray(points, dtype=np.float64), axis=0)
        self._camera_goal = np.array([middle[0], 0.0, middle[2]], dtype="f4")
        return True

    def country_at(self, ray: tuple[Any, Any] | None) -> int | None:
        """The country (mountains included) where ``ray`` (origin, direction) meets the
        land, or None."""
        if self.layer is None:
            return None
        point = ray_at_height(ray, LAND_HEIGHT + 0.1)
        if point is None:
            return None
        return self.layer.mesh.country_at(float(point[0]), float(point[2]))

    def _place_camera(self, target: np.ndarray, distance: float) -> None:
        cam = self.scene.camera
        cam.target = np.asarray(target, dtype="f4")
        cam.eye = cam.target + VIEW_DIR * distance

    def _move_camera(self, dt: float) -> None:
        if self.layer is None:
            return
        cam = self.scene.camera
        ease = 1.0 - math.exp(-dt * 10.0)
        target = cam.target + (self._camera_goal - cam.target) * ease
        distance = self._distance + (self._distance_goal - self._distance) * ease
        if np.allclose(target, cam.target, atol=1e-4) and abs(distance - self._distance) < 1e-4:
            return
        self._distance = distance
        # Keep the camera over the first copy of the map: the copies are identical, so the
        # jump is invisible, and numbers never grow large.
        w, d = self.layer.mesh.width, self.layer.mesh.depth
        shift = np.array([math.floor(target[0] / w) * w, 0.0, math.floor(target[2] / d) * d])
        target = target - shift
        self._camera_goal = self._camera_goal - shift.astype("f4")
        self._place_camera(target, distance)
        self.dirty = True
