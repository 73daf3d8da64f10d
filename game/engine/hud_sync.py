"""What the Director keeps the HUD showing, tick by tick: the scene's status with the toast,
the frame rate and the F1 help laid over it, its buttons, sheet, tooltip and world labels, the
camera framed in the room the HUD leaves, and the sound at a game's end.
:class:`HudSync` is a part of :class:`~game.engine.director.Director`, split off to keep each
module to one concern.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.controller import Button, Tone
from game.engine.drawing import OVERLAY_FONT_BASE
from game.engine.framing import Lens, frame, pieces_box

if TYPE_CHECKING:
    from collections import deque

    from game.engine.commands import CommandTable
    from game.engine.controller import SceneController, ServerNote
    from game.engine.hud import Hud
    from game.engine.overlay import DebugOverlay
    from game.engine.scene import Scene
    from game.engine.sound import Sounds

__all__ = ["HudSync"]


class HudSync:
    """The Director's HUD upkeep (see the module docstring); the Director owns the state."""

    hud: Hud
    overlay: DebugOverlay
    sounds: Sounds
    controller: SceneController | None
    scene: Scene | None
    bounds: dict[str, Any]
    frame_ms: deque[float]
    mouse: tuple[float, float] | None
    toast: str
    toast_tone: Tone
    show_fps: bool
    server_note: ServerNote | None
    show_help: bool
    show_hud: bool
    _box_cache: tuple[tuple[object, ...], Any]
    _lens_cache: tuple[Any, tuple[object, ...], Lens]
    _ending: tuple[object, Tone] | None

    if TYPE_CHECKING:

        def commands(self) -> CommandTable | None: ...
        def ui_scale(self) -> float: ...
        def area_size(self) -> tuple[int, int]: ...
        def window_size(self) -> tuple[int, int]: ...
        def _project(self, items: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]: ...

    def help_text(self) -> str:
        """The F1 panel: the scene's own lines first (the controller's ``help_intro()``: its
        rules), then every command with its key, then the Director's keys."""
        table = self.commands()
        lines = list(self.controller.help_intro()) if self.controller is not None else []
        return "\n".join(lines + (table.help_lines() if table is not None else []))

    def _buttons(self) -> list[Button]:
        table = self.commands()
        return table.buttons() if table is not None else []

    def fps(self) -> float:
        """Frames per second from the median of the recent frame times (0 before any)."""
        if not self.frame_ms:
            return 0.0
        median = sorted(self.frame_ms)[len(self.frame_ms) // 2]
        return 1000.0 / median if median > 0 else 0.0

    def _layout_hud(self) -> None:
        """Lay the HUD out in the game's part of the window, its text sized for the window."""
        self.hud.layout(self.area_size(), self.ui_scale(), text_for=self.window_size())

    def _sync_hud(self) -> None:
        if self.controller is None:
            return
        self.overlay.scale = self.hud.font_size() / OVERLAY_FONT_BASE
        if self.hud.size != self.area_size():  # the overlay came, went or changed its width
            self._layout_hud()
        status = self.controller.status()
        self._sound_the_end(status.tone)
        if self.server_note is not None and (note := self.server_note.note()):
            status = replace(status, title=f"{status.title}   {note}")
        if self.show_fps and self.fps() > 0:
            status = replace(status, counter=f"{status.counter}   {self.fps():.0f} fps")
        if self.toast:
            status = replace(status, banner=self.toast, tone=self.toast_tone)
        if self.show_help:
            status = replace(status, help=self.help_text())
        self.hud.f1_help = self.show_help
        self.hud.set_buttons(self._buttons())
        # The sheet first: the banner is placed in the room it leaves. A sheet that comes in
        # (a game opened) is laid out under the title panel of its own status, so that
        # status is placed before it: under the panel of the scene before, every label of
        # it was laid out twice in that frame (once there, once again under the new panel).
        controller = self.controller
        sheet = controller.sheet()
        if sheet is not None and self.hud.sheet.sheet is None:
            self.hud.set_status(status)
        self.hud.set_sheet(sheet)
        self.hud.set_status(status)
        # A controller may offer a tooltip: its text, and the world point it is about (None:
        # beside the mouse).
        tip = controller.tooltip()
        at: tuple[float, float] | None = self.mouse
        if tip is not None and tip[1] is not None:
            projected = self._project([("", np.asarray(tip[1], dtype=np.float64))])
            at = projected[0][1:] if projected else None
        self.hud.set_tooltip(tip[0] if tip is not None else "", at)
        labels = controller.world_labels()
        if self.scene is not None and self.scene.camera.fit:
            # The pieces keep clear of the HUD: right of a docked sheet, above the bar.
            camera = self.scene.camera
            box = self._pieces_box(labels)
            free = self.hud.free_rect() if self.show_hud else (0.0, 0.0, *self.area_size())
            lens = self._lens_for(camera, free, box)
            camera.shift, camera.shift_y, camera.zoom = lens.shift_x, lens.shift_y, lens.zoom
        self.hud.set_world_labels(self._project(labels))

    def _lens_for(self, camera: Any, free: tuple[float, float, float, float], box: Any) -> Lens:
        """:func:`game.engine.framing.frame`'s lens, worked out again only when what it
        depends on changes (the home view, the window, the room the HUD leaves, the box): a
        frame of a scene at rest, or of pieces moving, reuses the last one."""
        size = self.area_size()
        key = (*camera.home_key(), camera.fit_aspect, size, free)
        last_box, last_key, lens = self._lens_cache
        if box is not last_box or key != last_key:
            lens = frame(camera, size, free, box)
            self._lens_cache = (box, key, lens)
        return lens

    def _pieces_box(self, labels: list[tuple[str, np.ndarray]]) -> Any:
        """The box of the scene's pieces (game.engine.framing), worked out again only when
        the set of pickable nodes changes (a new board), not as pieces move."""
        assert self.scene is not None
        key = (id(self.scene), tuple(n.name for n in self.scene.pickable_nodes()))
        last_key, box = self._box_cache
        if key != last_key:
            points = [p for _t, p in labels]
            if self.scene.camera.keep is not None:
                points.extend(self.scene.camera.keep)
            box = pieces_box(self.scene, self.bounds, points)
            self._box_cache = (key, box)
        return box

    def _sound_the_end(self, tone: Tone) -> None:
        """The win or loss sound, once, when the scene's status turns to a game won or lost."""
        ended = tone if tone in (Tone.WON, Tone.LOST) else None
        now = (self.controller, ended) if ended is not None else None
        if now is not None and now != self._ending:
            self.sounds.play("win" if ended is Tone.WON else "loss")
        self._ending = now
