"""The person's own view of a scene: orbit, zoom and pan on top of the scene's camera.

A scene file (or a controller) places the camera with ``eye`` and ``target``: the *home*
view. :class:`Orbit` keeps what the person did to it with the mouse as offsets from home (a
turn about the vertical axis through the target, a tilt, a distance factor and a shift of the
target), so a controller that moves its camera (a map that pans with keys, a menu that steps
back in a narrow window) and the person's drags add up instead of fighting. Every reader of
the camera (drawing, picking, labels) goes through :meth:`Orbit.place`, so a click picks what
is drawn under the mouse whatever the view.

The :class:`OrbitLimits` keep the scene in view: the tilt stays between a low angle above the
horizon and just short of straight down (the board never flips under the camera), the
distance within a range of home's, the target within a fraction of home's distance from where
the scene put it, and the turn within ``yaw`` degrees of home (180: all the way round).

>>> import numpy as np
>>> orbit = Orbit()
>>> eye, target = np.array([0.0, 5.0, 5.0]), np.zeros(3)
>>> orbit.zoom_by(-100.0)  # a hundred notches out: stops at zoom_max
>>> round(orbit.zoom, 2)
2.0
>>> orbit.reset(); orbit.is_home()
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Orbit", "OrbitLimits"]

#: Radians of turn per window height of drag.
TURN_PER_HEIGHT = math.pi
#: The distance factor per wheel notch (one notch in is this much nearer).
ZOOM_STEP = 0.88


@dataclass(frozen=True)
class OrbitLimits:
    """How far the person's view may stray from home; see the module docstring.

    ``yaw``: degrees either way (180 or more: free); ``pitch_min``/``pitch_max``: the view's
    angle above the horizon in degrees; ``zoom_min``/``zoom_max``: the distance to the target
    as a factor of home's; ``pan``: how far the target may move, as a fraction of home's
    distance. ``enabled`` False: the view stays home (the mouse does not move it).
    """

    enabled: bool = True
    yaw: float = 180.0
    pitch_min: float = 12.0
    pitch_max: float = 88.0
    zoom_min: float = 0.45
    zoom_max: float = 2.0
    pan: float = 0.45


@dataclass
class Orbit:
    """Offsets from the home view (radians, a distance factor, a world shift of the target)."""

    limits: OrbitLimits = field(default_factory=OrbitLimits)
    yaw: float = 0.0
    pitch: float = 0.0
    zoom: float = 1.0
    pan: np.ndarray = field(default_factory=lambda: np.zeros(3, dtype="f8"))

    def is_home(self) -> bool:
        """True when the person has not moved the view (or reset it)."""
        return self.yaw == 0.0 and self.pitch == 0.0 and self.zoom == 1.0 and not self.pan.any()

    def reset(self) -> None:
        """Back to the scene's own view."""
        self.yaw = self.pitch = 0.0
        self.zoom = 1.0
        self.pan = np.zeros(3, dtype="f8")

    def place(self, eye: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The eye and target to draw with, from the home ``eye`` and ``target`` (float32)."""
        if self.is_home():
            return np.asarray(eye, "f4"), np.asarray(target, "f4")
        e, t = np.asarray(eye, "f8"), np.asarray(target, "f8")
        distance, heading, elevation = _spherical(e - t)
        heading += self.yaw
        elevation = self._clamp_elevation(elevation, elevation + self.pitch)
        t = t + self.pan
        offset = distance * self.zoom * _direction(heading, elevation)
        return (t + offset).astype("f4"), t.astype("f4")

    # -- what the mouse does ------------------------------------------------------------------

    def turn(
        self, dx: float, dy: float, height: float, eye: np.ndarray, target: np.ndarray
    ) -> None:
        """A drag of (``dx``, ``dy``) window units in a view ``height`` units tall turns the
        view about the target: sideways turns the scene with the mouse, up tilts the view
        towards the horizon. The tilt stops at the limits."""
        if not self.limits.enabled or not (math.isfinite(dx) and math.isfinite(dy)):
            return
        rate = TURN_PER_HEIGHT / max(1.0, height)
        yaw = self.yaw - dx * rate
        cap = math.radians(self.limits.yaw)
        # Free turning (cap of half a turn or more) keeps the number small.
        self.yaw = min(cap, max(-cap, yaw)) if cap < math.pi else math.remainder(yaw, math.tau)
        _d, _h, home = _spherical(np.asarray(eye, "f8") - np.asarray(target, "f8"))
        self.pitch = self._clamp_elevation(home, home + self.pitch - dy * rate) - home

    def zoom_by(self, notches: float) -> None:
        """The wheel: ``notches`` up (positive) brings the eye nearer, down takes it back,
        within the limits."""
        if not self.limits.enabled or not math.isfinite(notches):
            return
        zoom = self.zoom * ZOOM_STEP ** max(-50.0, min(50.0, float(notches)))
        self.zoom = min(self.limits.zoom_max, max(self.limits.zoom_min, zoom))

    def pan_by(
        self,
        dx: float,
        dy: float,
        height: float,
        fov: float,
        eye: np.ndarray,
        target: np.ndarray,
    ) -> None:
        """A drag of (``dx``, ``dy``) window units moves the target over the ground (the
        horizontal plane through it), so the ground under the mouse follows it; the target
        stays within ``limits.pan`` of home's distance from where the scene put it."""
        if not self.limits.enabled or not (math.isfinite(dx) and math.isfinite(dy)):
            return
        placed_eye, placed_target = self.place(eye, target)
        forward = placed_target.astype("f8") - placed_eye.astype("f8")
        distance = float(np.linalg.norm(forward))
        if distance < 1e-9:
            return
        forward /= distance
        ground = np.array([forward[0], 0.0, forward[2]])
        if float(np.linalg.norm(ground)) < 1e-6:
            return
        ground /= np.linalg.norm(ground)
        right = np.array([-ground[2], 0.0, ground[0]])
        per_unit = 2.0 * distance * math.tan(math.radians(fov) / 2.0) / max(1.0, height)
        # Up the screen is along the ground away from the eye, stretched by the slant.
        slant = max(0.35, abs(float(forward[1])))
        move = -right * dx * per_unit - ground * dy * per_unit / slant
        pan = self.pan + move
        home_distance = float(np.linalg.norm(np.asarray(eye, "f8") - np.asarray(target, "f8")))
        cap = self.limits.pan * home_distance
        length = float(np.linalg.norm(pan))
        if length > cap:
            pan *= cap / length
        self.pan = pan

    # -- helpers ------------------------------------------------------------------------------

    def _clamp_elevation(self, home: float, wanted: float) -> float:
        """``wanted`` within the limits; a home view outside them is kept as far as it goes
        (the person can move back towards the limits, never further out)."""
        low = min(math.radians(self.limits.pitch_min), home)
        high = max(math.radians(self.limits.pitch_max), home)
        return min(high, max(low, wanted))


def _spherical(offset: np.ndarray) -> tuple[float, float, float]:
    """Distance, heading (radians about +Y from +Z) and elevation (radians above the
    horizontal) of ``offset``."""
    distance = float(np.linalg.norm(offset))
    if distance < 1e-12:
        return 0.0, 0.0, 0.0
    heading = math.atan2(float(offset[0]), float(offset[2]))
    elevation = math.asin(max(-1.0, min(1.0, float(offset[1]) / distance)))
    return distance, heading, elevation


def _direction(heading: float, elevation: float) -> np.ndarray:
    c = math.cos(elevation)
    return np.array([c * math.sin(heading), math.sin(elevation), c * math.cos(heading)])
