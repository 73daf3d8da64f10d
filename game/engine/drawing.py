"""What the Director draws and where: the game's part of the window (beside the F3 overlay),
the frame's passes (3D scene, HUD, overlay) into a framebuffer, offscreen captures and
screenshots, and world points projected to the window. :class:`SceneDrawing` is a part of
:class:`~game.engine.director.Director`, split off to keep each module to one concern.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.png import write_png
from game.engine.targets import Target, sized

if TYPE_CHECKING:
    from collections import deque

    import moderngl
    import pyglet.window

    from game.engine.controller import SceneController, ServerNote, Tone
    from game.engine.hud import Hud
    from game.engine.overlay import DebugOverlay
    from game.engine.render import Renderer
    from game.engine.scene import Scene
    from game.engine.stalls import StallWatch
    from game.engine.tweens import TweenManager

#: The HUD text size at which the overlay is drawn at its own size (larger: larger).
OVERLAY_FONT_BASE = 16.0
#: The colour of what neither the game nor the overlay covers (beside a folded overlay).
MARGIN_COLOR = (0.06, 0.06, 0.07)


class SceneDrawing:
    """The Director's drawing (see the module docstring); the Director owns the state."""

    headless: bool
    window: pyglet.window.Window
    ctx: moderngl.Context
    renderer: Renderer
    hud: Hud
    overlay: DebugOverlay
    tweens: TweenManager
    stalls: StallWatch
    controller: SceneController | None
    server_note: ServerNote | None
    scene: Scene | None
    frame_ms: deque[float]
    pass_ms: dict[str, float]
    time_passes: bool
    show_hud: bool
    last_draw_calls: int
    screenshot_folder: Callable[[], Path] | None
    _size: tuple[int, int]
    _target: Target | None

    if TYPE_CHECKING:

        def say(self, text: str, tone: Tone = ..., seconds: float = 3.0) -> None: ...
        def fps(self) -> float: ...
        def _sync_hud(self) -> None: ...

    def window_size(self) -> tuple[int, int]:
        """The window's size in window units (what mouse coordinates use)."""
        if self.headless:  # a headless window keeps its first size; we track resizes
            return self._size
        w, h = self.window.get_size()
        return max(1, w), max(1, h)

    def framebuffer_size(self) -> tuple[int, int]:
        """The size in pixels to render at (larger than window_size on HiDPI screens)."""
        if self.headless:  # we only ever draw into our own framebuffers, sized like the window
            return self._size
        w, h = self.window.get_framebuffer_size()
        return max(1, w), max(1, h)

    def area(self) -> tuple[float, float, float, float]:
        """The part of the window the game gets (x, y from the bottom-left, width, height;
        window units): the whole window, less the F3 overlay's column (or its folded title
        bar's band) while it shows. The scene is drawn and the HUD laid out in it, so the
        overlay hides nothing of the game."""
        return self.overlay.area(self.window_size())

    def area_size(self) -> tuple[int, int]:
        """The size of :meth:`area` (window units): the window a scene lays itself out for."""
        _x, _y, w, h = self.area()
        return max(1, round(w)), max(1, round(h))

    def free_rect(self) -> tuple[float, float, float, float]:
        """The part of :meth:`area` the HUD leaves to the scene (left, bottom, right, top in
        the area's own terms)."""
        return self.hud.free_rect()

    def label_size(self) -> int:
        """The text size of the labels the HUD shows at scene positions."""
        return self.hud.label_size()

    def text_width(self, text: str, size: float) -> float:
        """How wide the HUD draws ``text`` at ``size`` (window units)."""
        return self.hud.text_width(text, size)

    def to_area(self, x: float, y: float) -> tuple[float, float] | None:
        """Window point (x, y) in the game's part's own terms (its bottom-left at 0, 0);
        None when the point lies outside it (on the overlay)."""
        ax, ay, w, h = self.area()
        lx, ly = x - ax, y - ay
        return (lx, ly) if 0.0 <= lx <= w and 0.0 <= ly <= h else None

    def to_window(self, point: Any) -> tuple[float, float] | None:
        """Where the world ``point`` is drawn, in window units from the bottom-left (None
        behind the camera)."""
        projected = self._project([("", np.asarray(point, dtype=np.float64))])
        if not projected:
            return None
        ax, ay, _w, _h = self.area()
        return projected[0][1] + ax, projected[0][2] + ay

    def _area_pixels(self, size: tuple[int, int]) -> tuple[int, int, int, int]:
        """:meth:`area` in the pixels of a framebuffer of ``size`` (HiDPI: more pixels than
        window units)."""
        win_w, win_h = self.window_size()
        rx, ry = size[0] / win_w, size[1] / win_h
        ax, ay, w, h = self.area()
        x, y = round(ax * rx), round(ay * ry)
        width = max(1, min(size[0] - x, round(w * rx)))
        return x, y, width, max(1, min(size[1] - y, round(h * ry)))

    def render(self, fbo: moderngl.Framebuffer, size: tuple[int, int]) -> int:
        """Scene, HUD and overlay into ``fbo`` (``size`` pixels); returns the draw calls it
        counted. The overlay's frame is built first: its width decides the :meth:`area` the
        scene and the HUD are drawn in."""
        import moderngl

        started = time.perf_counter()
        calls = 0
        timing = self.time_passes or self.overlay.visible
        overlay = self.overlay.visible and self.controller is not None
        overlay_ms = 0.0
        if overlay:
            assert self.controller is not None
            built = time.perf_counter()
            self.overlay.scale = self.hud.font_size() / OVERLAY_FONT_BASE
            self.overlay.build(
                self.window_size(),
                self._frame_stats(),
                panel=self.controller.debug_panel,
                panel_title=self.controller.title,
            )
            overlay_ms = (time.perf_counter() - built) * 1000.0
        if self.hud.size != self.area_size():
            self._sync_hud()  # the overlay came, went or changed its width since the update
        x, y, w, h = self._area_pixels(size)
        with self._pass("3D scene", timing):
            if (x, y, w, h) != (0, 0, size[0], size[1]):
                fbo.use()  # what the overlay does not cover of the rest (a folded one's band)
                self.ctx.viewport = (0, 0, size[0], size[1])
                self.ctx.scissor = None
                fbo.clear(*MARGIN_COLOR, 1.0, depth=1.0)
            if self.scene is not None:
                calls += self.renderer.render(self.scene, fbo, (w, h), origin=(x, y)).draw_calls
            else:
                fbo.use()
                fbo.clear(0.1, 0.12, 0.18, 1.0, viewport=(x, y, w, h))
        # pyglet draws the HUD with its own shaders into whatever framebuffer is bound, in
        # window units through the window's projection: here, those of the game's part.
        if self.show_hud:
            with self._pass("HUD", timing):
                fbo.use()
                self.ctx.viewport = (x, y, w, h)
                self.ctx.enable_only(moderngl.BLEND)
                self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
                with self._hud_projection():
                    self.hud.draw()
            calls += 2  # shapes and text: one batch, drawn as two vertex lists
        if self.headless:  # no display refresh to time: record what drawing took
            self.frame_ms.append((time.perf_counter() - started) * 1000.0)
        if overlay:
            self.last_draw_calls = calls
            painted = time.perf_counter()
            with self._pass("overlay", timing):
                calls += self.overlay.paint(fbo, size)
            if timing:
                overlay_ms += (time.perf_counter() - painted) * 1000.0
                self.pass_ms["overlay"] = overlay_ms
        self.ctx.enable_only(moderngl.NOTHING)
        self.last_draw_calls = calls
        return calls

    @contextlib.contextmanager
    def _hud_projection(self) -> Iterator[None]:
        """pyglet's window projection set to the game's part of the window (window units)
        while the HUD draws, and put back after."""
        from pyglet.math import Mat4

        _x, _y, w, h = self.area()
        window = self.window
        before = window.projection
        window.projection = Mat4.orthogonal_projection(0.0, w, 0.0, h, -255.0, 255.0)
        try:
            yield
        finally:
            window.projection = before

    @contextlib.contextmanager
    def _pass(self, name: str, timing: bool) -> Iterator[None]:
        """Time one pass of the frame when ``timing``: the GL finishes what came before, then
        the pass, so the milliseconds (in :attr:`pass_ms`, which the F3 overlay shows) are
        what the pass took to draw, whatever the driver defers."""
        if not timing:
            yield
            return
        self.ctx.finish()
        started = time.perf_counter()
        yield
        self.ctx.finish()
        self.pass_ms[name] = (time.perf_counter() - started) * 1000.0

    def offscreen(self, size: tuple[int, int] | None = None) -> moderngl.Framebuffer:
        """A framebuffer of ``size`` (default: the window's) that we own and may read back."""
        size = size or self.framebuffer_size()
        self._target = sized(self.ctx, self._target, size)
        return self._target.fbo

    def capture(self) -> np.ndarray:
        """Render one frame offscreen and return it as an (h, w, 3) uint8 array, top row first."""
        size = self.framebuffer_size()
        fbo = self.offscreen(size)
        self.render(fbo, size)
        raw = fbo.read(components=3, alignment=1)
        pixels = np.frombuffer(raw, dtype=np.uint8).reshape(size[1], size[0], 3)
        return np.ascontiguousarray(pixels[::-1])

    def screenshot(self, path: str | Path | None = None) -> Path:
        """Save a PNG (default: the screenshots folder) and say where."""
        if path is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = self.controller.name if self.controller else "gamehall"
            folder = self.screenshot_folder() if self.screenshot_folder else Path.cwd()
            path = folder / f"{name}-{stamp}.png"
        saved = write_png(path, self.capture())
        self.say(f"Screenshot saved to {saved}")
        return saved

    def _project(self, items: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """Window positions of world points: ``(text, point)`` becomes ``(text, x, y)``,
        ``(text, point, size)`` keeps its size (behind the camera: left out)."""
        if self.scene is None or not items:
            return []
        w, h = self.area_size()
        vp = self.renderer.view_projection(self.scene, (w, h))
        points = np.ones((len(items), 4))
        points[:, :3] = [np.asarray(item[1], dtype="f8").reshape(3) for item in items]
        clip = points @ np.asarray(vp, dtype="f8").T  # every point at once
        out = []
        for (text, _point, *size), (cx, cy, _cz, cw) in zip(items, clip.tolist(), strict=True):
            if cw <= 0:
                continue
            out.append((text, (cx / cw + 1) / 2 * w, (cy / cw + 1) / 2 * h, *size))
        return out

    def _frame_stats(self) -> Any:
        from game.engine.overlay import STALL_WINDOW_S, FrameStats

        stats = self.renderer.stats
        stall = self.stalls.longest(STALL_WINDOW_S)
        return FrameStats(
            frame_ms=list(self.frame_ms) or [0.0],
            fps=self.fps(),
            draw_calls=self.last_draw_calls,
            triangles=stats.triangles,
            nodes=len(self.scene) if self.scene is not None else 0,
            running_tweens=self.tweens.running,
            scene=self.controller.name if self.controller else "",
            pass_ms=dict(self.pass_ms),
            stall=stall.describe() if stall is not None else "",
            connection=self.server_note.lines() if self.server_note is not None else (),
        )
