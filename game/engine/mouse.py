"""The mouse over a scene: telling a click from a drag, and what a drag or the wheel does to
the camera when the scene's controller does not take it.

A press on the scene is held back: let go within :data:`CLICK_SLOP` window units of where it
went down and it is a click (picked at the release, with the camera as it is then); move
further and it becomes a drag, which never clicks. A drag with the left button (no Shift) or
the right button turns the view about its target; with the middle button, or the left with
Shift, it pans; the wheel zooms. All three stop at the scene's limits
(:class:`~game.engine.orbit.OrbitLimits`).

A controller may take drags and the wheel itself (a flat map that pans) by overriding
:meth:`~game.engine.controller.SceneController.on_drag` and ``on_scroll`` (pyglet's
conventions: window units from the bottom-left, ``buttons`` a mask of 1 left, 2 middle,
4 right, ``modifiers`` pyglet's mask with 1 for Shift). Returning True means the controller
handled it and the camera stays; False (the base's default) lets the Director move the
camera.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.engine.controller import SceneController
    from game.engine.hud import Hud
    from game.engine.overlay import DebugOverlay
    from game.engine.scene import Camera, Node, Scene

__all__ = [
    "CLICK_SLOP",
    "LEFT",
    "MIDDLE",
    "RIGHT",
    "SHIFT",
    "Press",
    "SceneMouse",
    "drag_camera",
    "scroll_camera",
]

log = logging.getLogger(__name__)

LEFT, MIDDLE, RIGHT = 1, 2, 4  # pyglet.window.mouse
SHIFT = 1  # pyglet.window.key.MOD_SHIFT
#: How far (window units) a press may wander and still be a click.
CLICK_SLOP = 5.0


@dataclass
class Press:
    """A press on the scene that is not yet a click or a drag."""

    x: float
    y: float
    button: int
    modifiers: int
    slop: float = CLICK_SLOP
    dragging: bool = False
    dragged_once: bool = False  # the first drag step, which also covers the slop, is done

    def moved_to(self, x: float, y: float) -> bool:
        """Note the pointer at (x, y); True once the press has become a drag (for good)."""
        if not self.dragging and math.hypot(x - self.x, y - self.y) > self.slop:
            self.dragging = True
        return self.dragging


def offer(hook: Callable[..., bool], *args: Any) -> bool:
    """Hand an event to a controller's ``hook`` (its ``on_drag`` or ``on_scroll``); True if
    it took it. A hook that raises is logged and counts as not taken, so the camera still
    answers."""
    try:
        return bool(hook(*args))
    except Exception:
        log.exception("%r failed", hook)
        return False


def drag_camera(
    camera: Camera,
    dx: float,
    dy: float,
    buttons: int,
    modifiers: int,
    height: float,
) -> bool:
    """Turn or pan ``camera``'s view for a drag of (dx, dy) in a view ``height`` window units
    tall; see the module docstring for which button does which. False when no button that
    moves the view is held."""
    orbit = camera.orbit
    # The lens zoom (a view that steps back for a narrow window) makes each unit cover more.
    seen = height * max(camera.zoom, 1e-3)
    if buttons & MIDDLE or (buttons & LEFT and modifiers & SHIFT):
        orbit.pan_by(dx, dy, seen, camera.fov, camera.eye, camera.target)
        return True
    if buttons & (LEFT | RIGHT):
        orbit.turn(dx, dy, height, camera.eye, camera.target)
        return True
    return False


def scroll_camera(camera: Camera, notches: float) -> None:
    """The wheel: ``notches`` up zooms in, down zooms out, within the limits."""
    camera.orbit.zoom_by(notches)


class SceneMouse:
    """The Director's mouse events (pyglet calls them by name): overlay first, then the
    HUD, then the scene, where a press is a click or a drag (see the module docstring)."""

    overlay: DebugOverlay
    hud: Hud
    controller: SceneController | None
    scene: Scene | None
    mouse: tuple[float, float] | None
    _press: Press | None

    if TYPE_CHECKING:

        def perform(self, command: str, *, strict: bool = False) -> bool: ...
        def play(self, action: object) -> bool: ...
        def pick_at(self, x: float, y: float) -> Node | None: ...
        def area_size(self) -> tuple[int, int]: ...
        def to_area(self, x: float, y: float) -> tuple[float, float] | None: ...
        def _set_hover(self, node: Node | None) -> None: ...
        def _sync_hud(self) -> None: ...

    # Events come in window units; the HUD and the controller's hooks get them in the game's
    # part of the window (beside the F3 overlay), as ``to_area`` gives them.

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        if self.overlay.visible:
            self.overlay.on_mouse_motion(x, y)
            if self.overlay.wants_mouse():
                self._set_hover(None)
                return
        local = self.to_area(x, y)
        if local is None:
            self._set_hover(None)
            return
        self.hud.on_mouse_motion(*local)
        self.mouse = local  # where a tooltip goes
        if self.hud.contains(*local):
            self._set_hover(None)
            return
        self._set_hover(self.pick_at(x, y))

    def on_mouse_drag(
        self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int
    ) -> None:
        """A drag that began on the scene turns or pans the view (or goes to the
        controller's ``on_drag``, see :mod:`game.engine.mouse`); any other is a hover."""
        press = self._press
        if press is None or not press.moved_to(x, y):
            self.on_mouse_motion(x, y, dx, dy)
            return
        if not press.dragged_once:
            # The first steps of the drag were still inside the click's slop: count them.
            dx, dy = x - press.x, y - press.y
            press.dragged_once = True
        self.drag(x, y, dx, dy, buttons, modifiers)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        """Overlay and HUD take a press at once; on the scene it waits for the release (a
        click) or for the pointer to move (a drag)."""
        if self._click_ui(x, y, button) is None:
            self._press = Press(x, y, button, modifiers, slop=CLICK_SLOP * self.hud.scale)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        if self.overlay.visible:
            self.overlay.on_mouse_release(x, y, button)
        press, self._press = self._press, None
        if press is not None and press.button == button == 1 and not press.moved_to(x, y):
            self._click_scene(x, y)

    def on_mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> None:
        """The wheel: the overlay's when over it, else the controller's ``on_scroll``, else
        the camera's zoom."""
        if self.overlay.visible and self.overlay.on_mouse_scroll(x, y, sy):
            return
        local = self.to_area(x, y)
        if local is None or self.hud.contains(*local):
            return
        if self.controller is None or self.scene is None:
            return
        if not offer(self.controller.on_scroll, *local, sy):
            scroll_camera(self.scene.camera, sy)
        self._after_view_change(x, y)

    def drag(
        self, x: float, y: float, dx: float, dy: float, buttons: int = 1, modifiers: int = 0
    ) -> str:
        """One step of a drag on the scene (window units): the controller's, or the
        camera's. Returns who took it ("controller", "camera" or "none")."""
        if self.controller is None or self.scene is None:
            return "none"
        local = self.to_area(x, y)
        lx, ly = local if local is not None else (x, y)
        if offer(self.controller.on_drag, lx, ly, dx, dy, buttons, modifiers):
            self._after_view_change(x, y)
            return "controller"
        moved = drag_camera(
            self.scene.camera, dx, dy, buttons, modifiers, float(self.area_size()[1])
        )
        self._after_view_change(x, y)
        return "camera" if moved else "none"

    def reset_view(self) -> None:
        """The scene's own view again, after the mouse turned, panned or zoomed it."""
        if self.scene is not None:
            self.scene.camera.orbit.reset()
            self._sync_hud()

    def click(self, x: float, y: float, button: int = 1) -> str:
        """Route a click: overlay, then HUD buttons, then the scene. Returns who took it."""
        taken = self._click_ui(x, y, button)
        if taken is not None:
            return taken
        if button != 1:
            return "none"
        self._click_scene(x, y)
        return "scene"

    def _click_ui(self, x: float, y: float, button: int) -> str | None:
        """A press on the overlay or the HUD: handled, and who took it; None: the scene's."""
        if self.overlay.visible and self.overlay.on_mouse_press(x, y, button):
            return "overlay"
        local = self.to_area(x, y)
        if local is None:
            return "none"  # beside a folded overlay's title bar: neither it nor the game
        if button != 1:
            return None
        spec = self.hud.button_at(*local)
        if spec is not None:
            if self.hud.is_enabled(spec.command):
                self.perform(spec.command)
            return "hud"
        if self.hud.sheet.contains(*local):
            command = self.hud.sheet.command_at(*local)
            if command is not None:
                self.perform(command)
            return "hud"
        return None

    def _click_scene(self, x: float, y: float) -> None:
        """A click on the scene: the node under it, picked with the camera as it is now."""
        if self.controller is not None:
            action = self.controller.on_pick(self.pick_at(x, y))
            if action is not None:
                self.play(action)
            self._sync_hud()

    def _after_view_change(self, x: float, y: float) -> None:
        self._sync_hud()  # world labels follow the view
        local = self.to_area(x, y)
        if self.scene is not None and local is not None and not self.hud.contains(*local):
            self._set_hover(self.pick_at(x, y))
