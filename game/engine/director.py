"""The Director: one per process. It owns the window, the clock, the tweens, the
renderer, the HUD and the debug overlay, and switches between scene controllers.

The same Director runs a visible window (``gamehall play``) and pyglet's headless EGL window
(``gamehall shot``, the benchmarks and the tests). In headless use nothing waits on the wall
clock: :meth:`advance` steps simulated time with a fixed ``dt`` as fast as the machine allows.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from game.engine.commands import CommandTable
from game.engine.controller import Button, SceneController, Tone, UnknownCommandError
from game.engine.picking import mouse_ray, pick
from game.engine.png import write_png
from game.engine.tweens import TweenManager
from game.engine.window import attach_context, open_window

if TYPE_CHECKING:
    import moderngl
    import pyglet.window

    from game.engine.scene import Node, Scene

log = logging.getLogger(__name__)

FIXED_DT = 1.0 / 60.0
MAX_DT = 0.1  # a stalled frame never teleports the animation


class Director:
    """Runs one game at a time in one window; see the module docstring."""

    current: ClassVar[Director | None] = None

    def __init__(
        self,
        *,
        headless: bool = False,
        size: tuple[int, int] = (1280, 720),
        position: tuple[int, int] | None = None,
        shadows: bool = True,
    ) -> None:
        if Director.current is not None:
            raise RuntimeError("there is already a Director in this process; close() it first")
        self.headless = headless
        self.window: pyglet.window.Window = open_window(size, headless=headless, position=position)

        from game.engine.hud import Hud
        from game.engine.overlay import DebugOverlay
        from game.engine.render import Renderer

        self.ctx: moderngl.Context = attach_context()
        self.renderer = Renderer(self.ctx)
        self.renderer.shadows = shadows
        self.bounds = {name: m.bounds for name, m in self.renderer.meshes.meshes.items()}
        self.hud = Hud(size)
        self.overlay = DebugOverlay(self.ctx)
        self.tweens = TweenManager()
        self.factories: dict[str, Callable[[], SceneController]] = {}
        self.controller: SceneController | None = None
        self.last_game: str | None = None
        self.scene: Scene | None = None
        self.clock = 0.0
        self.frame_ms: deque[float] = deque(maxlen=240)
        self.hovered: Node | None = None
        self.ray: tuple[np.ndarray, np.ndarray] | None = None  # the last mouse ray cast
        self.mouse: tuple[float, float] | None = None  # the last mouse position (window)
        self.toast = ""
        self.toast_tone = Tone.INFO
        self.toast_until = 0.0
        self.last_draw_calls = 0
        self.show_fps = False  # the frame rate after the HUD's counter (a saved setting)
        self.show_help = False  # F1: the command list in the HUD's help panel
        self.closed = False
        self.on_quit: Callable[[], None] | None = None
        self._target: moderngl.Framebuffer | None = None
        self._size = (max(1, size[0]), max(1, size[1]))
        self._last_frame = time.perf_counter()
        self.window.push_handlers(self)
        Director.current = self

    # -- scenes -----------------------------------------------------------------------------

    def register(self, name: str, factory: Callable[[], SceneController]) -> None:
        self.factories[name] = factory

    def switch(self, name: str) -> SceneController:
        """Leave the current controller (exit hook) and enter the one registered as ``name``."""
        if name not in self.factories:
            raise UnknownCommandError(
                f"no game named {name!r}; choose one of {', '.join(sorted(self.factories))}"
            )
        self.tweens.cancel_all()
        # A controller makes GL objects as it enters: on our context, even if another window
        # (a test's, a tool's) was made current since.
        self.window.switch_to()
        controller = self.factories[name]()
        scene = controller.enter(self)  # may raise (a bad scene file): the old game stays
        if self.controller is not None:
            self.controller.exit()
        self.hovered = None
        self.toast = ""
        self.scene = scene
        self.controller = controller
        if name != "menu":
            self.last_game = name
        self.window.set_caption(f"Gamehall: {controller.title}")
        self.hud.set_buttons(self._buttons())
        self._sync_hud()
        log.info("entered scene %s", name)
        return controller

    # -- commands and game actions ------------------------------------------------------------

    def perform(self, command: str, *, strict: bool = False) -> bool:
        """Run a command (``name`` or ``name:argument``) on the current scene; a refusal
        becomes a HUD message.

        ``strict``: a command the scene does not have raises UnknownCommandError (for scripts
        such as ``gamehall shot``) instead of becoming a message.
        """
        if self.controller is None:
            return False
        name = command.strip()
        try:
            if name == "help":
                self.show_help = not self.show_help
            elif name == "overlay":
                self.overlay.toggle()
            elif name == "menu":
                self.escape()
            else:
                self.controller.commands().run(name)
        except UnknownCommandError:
            if strict:
                raise
            self.say(f"unknown command {command!r}", Tone.WARN)
            return False
        except ValueError as exc:  # refused or illegal input is the player's, not a bug
            self.say(str(exc), Tone.WARN)
            return False
        finally:
            self._sync_hud()
        return True

    def play(self, action: object) -> bool:
        """Hand a game action (from a pick or typed text) to the scene; an illegal one
        becomes a HUD message and changes nothing."""
        if self.controller is None:
            return False
        try:
            self.controller.play(action)
        except ValueError as exc:
            self.say(str(exc), Tone.WARN)
            return False
        finally:
            self._sync_hud()
        return True

    def commands(self) -> CommandTable | None:
        """The current scene's command table (None before the first scene)."""
        return self.controller.commands() if self.controller is not None else None

    def say(self, text: str, tone: Tone = Tone.INFO, seconds: float = 3.0) -> None:
        """Show a transient message in the banner (screenshots saved, refused input)."""
        self.toast, self.toast_tone, self.toast_until = text, tone, self.clock + seconds
        log.info("%s", text)

    def busy(self) -> bool:
        return self.tweens.busy > 0 or (self.controller is not None and not self.controller.idle())

    # -- time -------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        """One tick: tweens first, then the controller, then the HUD."""
        dt = min(max(dt, 0.0), MAX_DT)
        self.clock += dt
        self.renderer.time = self.clock
        self.tweens.update(dt)
        if self.controller is not None:
            self.controller.update(dt)
        if self.toast and self.clock >= self.toast_until:
            self.toast = ""
        self._sync_hud()

    def advance(self, seconds: float, dt: float = FIXED_DT) -> None:
        """Step simulated time by ``seconds`` in fixed steps (headless use)."""
        steps = max(1, round(seconds / dt))
        for _ in range(steps):
            self.update(dt)

    def settle(self, dt: float = FIXED_DT, limit: float = 900.0, wall_limit: float = 300.0) -> bool:
        """Step simulated time until nothing runs or is queued; False if time ran out.

        ``limit`` counts simulated seconds of animation. While only a worker is busy (the
        computer thinking, numba compiling) the loop waits in wall time instead, up to
        ``wall_limit`` seconds, since no amount of simulated time makes a thread finish.
        """
        elapsed = 0.0
        deadline = time.perf_counter() + wall_limit
        while self.busy():
            if elapsed >= limit or time.perf_counter() > deadline:
                return False
            animating = self.tweens.busy > 0
            if not animating:
                time.sleep(0.002)  # let the worker thread run
            self.update(dt)
            if animating:
                elapsed += dt
        self.update(dt)
        return True

    # -- drawing ----------------------------------------------------------------------------

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

    def render(self, fbo: moderngl.Framebuffer, size: tuple[int, int]) -> int:
        """Scene, HUD and overlay into ``fbo``; returns the draw calls it counted."""
        import moderngl

        started = time.perf_counter()
        calls = 0
        if self.scene is not None:
            calls += self.renderer.render(self.scene, fbo, size).draw_calls
        else:
            fbo.use()
            fbo.clear(0.1, 0.12, 0.18, 1.0)
        # pyglet draws the HUD with its own shaders into whatever framebuffer is bound.
        fbo.use()
        self.ctx.viewport = (0, 0, size[0], size[1])
        self.ctx.enable_only(moderngl.BLEND)
        self.ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
        self.hud.draw()
        calls += 2  # shapes and text: one batch, drawn as two vertex lists
        if self.headless:  # no display refresh to time: record what drawing took
            self.frame_ms.append((time.perf_counter() - started) * 1000.0)
        if self.overlay.visible and self.controller is not None:
            self.last_draw_calls = calls
            calls += self.overlay.draw(
                fbo,
                self.window_size(),
                self._frame_stats(),
                panel=self.controller.debug_panel,
                panel_title=self.controller.title,
                framebuffer_size=size,
            )
        self.ctx.enable_only(moderngl.NOTHING)
        self.last_draw_calls = calls
        return calls

    def on_draw(self) -> None:
        now = time.perf_counter()
        self.frame_ms.append((now - self._last_frame) * 1000.0)
        self._last_frame = now
        self.render(self.ctx.screen, self.framebuffer_size())

    def offscreen(self, size: tuple[int, int] | None = None) -> moderngl.Framebuffer:
        """A framebuffer of ``size`` (default: the window's) that we own and may read back."""
        size = size or self.framebuffer_size()
        if self._target is None or self._target.size != size:
            if self._target is not None:
                self._release_target()
            self._target = self.ctx.framebuffer(
                color_attachments=[self.ctx.renderbuffer(size, components=4)],
                depth_attachment=self.ctx.depth_renderbuffer(size),
            )
        return self._target

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
            from game.settings import screenshot_dir

            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = self.controller.name if self.controller else "gamehall"
            path = screenshot_dir() / f"{name}-{stamp}.png"
        saved = write_png(path, self.capture())
        self.say(f"Screenshot saved to {saved}")
        return saved

    # -- window events (pyglet calls these by name) -----------------------------------------

    def on_resize(self, width: int, height: int) -> None:
        self._size = (max(1, width), max(1, height))
        self.hud.layout(self._size)
        self._sync_hud()

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        if self.overlay.visible:
            self.overlay.on_mouse_motion(x, y)
            if self.overlay.wants_mouse():
                self._set_hover(None)
                return
        self.hud.on_mouse_motion(x, y)
        self.mouse = (x, y)
        if self.hud.contains(x, y):
            self._set_hover(None)
            return
        self._set_hover(self.pick_at(x, y))

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, *args: Any) -> None:
        self.on_mouse_motion(x, y, dx, dy)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        self.click(x, y, button)

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        if self.overlay.visible:
            self.overlay.on_mouse_release(x, y, button)

    def on_mouse_scroll(self, x: float, y: float, sx: float, sy: float) -> None:
        if self.overlay.visible:
            self.overlay.on_mouse_scroll(x, y, sy)

    def click(self, x: float, y: float, button: int = 1) -> str:
        """Route a click: overlay, then HUD buttons, then the scene. Returns who took it."""
        if self.overlay.visible and self.overlay.on_mouse_press(x, y, button):
            return "overlay"
        if button != 1:
            return "none"
        spec = self.hud.button_at(x, y)
        if spec is not None:
            if self.hud.is_enabled(spec.command):
                self.perform(spec.command)
            return "hud"
        if self.hud.sheet.contains(x, y):
            command = self.hud.sheet.command_at(x, y)
            if command is not None:
                self.perform(command)
            return "hud"
        if self.controller is not None:
            action = self.controller.on_pick(self.pick_at(x, y))
            if action is not None:
                self.play(action)
            self._sync_hud()
        return "scene"

    def on_text(self, text: str) -> None:
        """Typed characters (moves like "d3") go to a controller that takes text."""
        if self.overlay.visible and self.overlay.wants_keyboard():
            return
        handler = getattr(self.controller, "on_text", None)
        if handler is not None:
            handler(text)
            self._sync_hud()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        from pyglet.window import key

        name = key.symbol_string(symbol)
        if name == "F3":
            self.overlay.toggle()
        elif name == "F12":
            try:
                self.screenshot()
            except OSError as exc:
                self.say(f"Could not save the screenshot: {exc}", Tone.WARN)
        elif name == "ESCAPE":
            self.escape()
        elif self.overlay.visible and self.overlay.wants_keyboard():
            pass
        elif name == "F1":
            self.perform("help")
        elif self.controller is not None and (command := self._keys().get(name)):
            self.perform(command)
        return True  # pyglet's default Esc handler would close the window

    def escape(self) -> None:
        """Esc: from a game back to the menu; from the menu, quit. A controller with an
        ``on_escape()`` that returns True keeps Esc for itself (it ended an animation)."""
        own = getattr(self.controller, "on_escape", None)
        if own is not None and own():
            return
        if (
            self.controller is not None
            and self.controller.name != "menu"
            and "menu" in (self.factories)
        ):
            self.switch("menu")
        else:
            self.quit()

    def on_close(self) -> bool:
        self.quit()
        return True

    def quit(self) -> None:
        if self.on_quit is not None:
            self.on_quit()
        if not self.headless:
            import pyglet

            pyglet.app.exit()

    # -- running ----------------------------------------------------------------------------

    def run(self) -> None:
        """The windowed main loop: pyglet's clock drives update(), pyglet calls on_draw()."""
        import pyglet

        pyglet.clock.schedule_interval(self.update, FIXED_DT)
        try:
            pyglet.app.run(interval=FIXED_DT)
        finally:
            pyglet.clock.unschedule(self.update)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.tweens.cancel_all()
        if self.controller is not None:
            self.controller.exit()
            self.controller = None
        self.overlay.release()
        self.renderer.release()
        if self._target is not None:
            self._release_target()
        self.window.remove_handlers(self)
        self.window.close()
        Director.current = None

    # -- helpers ----------------------------------------------------------------------------

    def help_text(self) -> str:
        """The F1 panel: every command of the scene with its key, then the Director's keys."""
        table = self.commands()
        return "\n".join(table.help_lines()) if table is not None else ""

    def _keys(self) -> dict[str, str]:
        table = self.commands()
        return table.keys() if table is not None else {}

    def _buttons(self) -> list[Button]:
        table = self.commands()
        return table.buttons() if table is not None else []

    def pick_at(self, x: float, y: float) -> Node | None:
        if self.scene is None:
            return None
        vp = self.renderer.view_projection(self.scene, self.framebuffer_size())
        origin, direction = mouse_ray(vp, x, y, self.window_size())
        self.ray = (origin, direction)
        return pick(self.scene, self.bounds, origin, direction)

    def _release_target(self) -> None:
        assert self._target is not None
        attachments = [*self._target.color_attachments, self._target.depth_attachment]
        # Bind the default framebuffer first: moderngl re-binds the previously bound one after
        # creating the next framebuffer, and binding a deleted name is a GL error.
        self.ctx.screen.use()
        self._target.release()  # the framebuffer first, then what was attached to it
        for att in attachments:
            if att is not None:
                att.release()
        self._target = None

    def _set_hover(self, node: Node | None) -> None:
        # Called on every motion: a controller may care where on a node the mouse is (a
        # board's squares), and ignores repeats itself.
        self.hovered = node
        if self.controller is not None:
            self.controller.on_hover(node)

    def fps(self) -> float:
        """Frames per second from the median of the recent frame times (0 before any)."""
        if not self.frame_ms:
            return 0.0
        median = sorted(self.frame_ms)[len(self.frame_ms) // 2]
        return 1000.0 / median if median > 0 else 0.0

    def _sync_hud(self) -> None:
        if self.controller is None:
            return
        status = self.controller.status()
        if self.show_fps and self.fps() > 0:
            status = replace(status, counter=f"{status.counter}   {self.fps():.0f} fps")
        if self.toast:
            status = replace(status, banner=self.toast, tone=self.toast_tone)
        if self.show_help:
            status = replace(status, help=self.help_text())
        self.hud.set_buttons(self._buttons())
        # The sheet first: the banner is placed in the room it leaves.
        sheet = getattr(self.controller, "sheet", None)
        self.hud.set_sheet(sheet() if sheet is not None else None)
        self.hud.set_status(status)
        if self.scene is not None:
            # The scene's middle moves right of a sheet docked at the left edge.
            w, h = self.window_size()
            self.scene.camera.fit(w, h, self.hud.sheet.width if self.hud.sheet.visible else 0.0)
        # A controller may offer a tooltip: its text, and the world point it is about (None:
        # beside the mouse).
        tooltip = getattr(self.controller, "tooltip", None)
        tip = tooltip() if tooltip is not None else None
        at: tuple[float, float] | None = self.mouse
        if tip is not None and tip[1] is not None:
            projected = self._project([("", np.asarray(tip[1], dtype=np.float64))])
            at = projected[0][1:] if projected else None
        self.hud.set_tooltip(tip[0] if tip is not None else "", at)
        anchors = getattr(self.controller, "world_labels", None)
        self.hud.set_world_labels(self._project(anchors()) if anchors is not None else [])

    def _project(self, items: list[tuple[str, np.ndarray]]) -> list[tuple[str, float, float]]:
        """Window positions of world points (behind the camera: left out)."""
        if self.scene is None or not items:
            return []
        vp = self.renderer.view_projection(self.scene, self.framebuffer_size())
        w, h = self.window_size()
        out = []
        for text, point in items:
            clip = vp @ np.append(point, 1.0)
            if clip[3] <= 0:
                continue
            out.append((text, (clip[0] / clip[3] + 1) / 2 * w, (clip[1] / clip[3] + 1) / 2 * h))
        return out

    def _frame_stats(self) -> Any:
        from game.engine.overlay import FrameStats

        stats = self.renderer.stats
        return FrameStats(
            frame_ms=list(self.frame_ms) or [0.0],
            fps=self.fps(),
            draw_calls=self.last_draw_calls,
            triangles=stats.triangles,
            nodes=len(self.scene) if self.scene is not None else 0,
            running_tweens=self.tweens.running,
            scene=self.controller.name if self.controller else "",
        )
