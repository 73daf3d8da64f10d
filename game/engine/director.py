"""The Director: one per process. It owns the window, the clock, the tweens, the
renderer, the HUD and the debug overlay, and switches between scene controllers.

The same Director runs a visible window (``gamehall play``) and pyglet's headless EGL window
(``gamehall shot``, the benchmarks and the tests). In headless use nothing waits on the wall
clock: :meth:`advance` steps simulated time with a fixed ``dt`` as fast as the machine allows.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from game.engine.commands import CommandTable
from game.engine.controller import SceneController, Tone, UnknownCommandError, release
from game.engine.drawing import SceneDrawing
from game.engine.framing import Lens
from game.engine.glyphs import GlyphsAhead
from game.engine.hud_sync import HudSync
from game.engine.mouse import Press, SceneMouse
from game.engine.picking import mouse_ray, pick_hit, triangles_of
from game.engine.sound import Sounds
from game.engine.stalls import StallWatch
from game.engine.targets import Target
from game.engine.tweens import TweenManager
from game.engine.window import attach_context, open_window

if TYPE_CHECKING:
    import moderngl
    import pyglet.window

    from game.engine.controller import ServerNote
    from game.engine.scene import Node, Scene

log = logging.getLogger(__name__)

FIXED_DT = 1.0 / 60.0
MAX_DT = 0.1  # a stalled frame never teleports the animation
#: The Director's command (and key, unless the scene binds it) for the scene's own view.
VIEW_COMMAND = "view"
VIEW_KEY = "V"
#: How long the warm-up thread rests after each game it readies (frames draw meanwhile).
WARM_PAUSE_SECONDS = 0.05
#: The longest the warm-up waits, at a pause point, for the frame being drawn to end (a window
#: that draws no frames, minimised, has none to hold up).
WARM_FRAME_WAIT_S = 0.25
#: Seconds of a window's frame given to rendering ahead the glyphs of the fonts in use.
GLYPHS_AHEAD_S = 0.003
#: How long the question before quitting waits for the second Esc (or close).
QUIT_CONFIRM_SECONDS = 4.0
#: The longest :meth:`Director.close` waits for the warm-up thread (a guard against a hang;
#: its longest step, importing the overlay's library, takes a few seconds).
WARM_UP_CLOSE_S = 120.0


class Director(SceneDrawing, SceneMouse, HudSync):
    """Runs one game at a time in one window; see the module docstring."""

    current: ClassVar[Director | None] = None

    def __init__(
        self,
        *,
        headless: bool = False,
        size: tuple[int, int] = (1280, 720),
        position: tuple[int, int] | None = None,
        shadows: bool = True,
        volume: float = 0.8,
        muted: bool = False,
        warm_games: Callable[[threading.Event, float], object] | None = None,
        screenshot_folder: Callable[[], Path] | None = None,
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
        #: Each mesh's triangles, for picking what is drawn under the mouse.
        self.triangles = {
            name: triangles_of(m.positions) for name, m in self.renderer.meshes.meshes.items()
        }
        #: The HUD's size factor for the screen's density; None: asked of the window (a
        #: headless one is 1). Tests and ``shot --scale`` set it.
        self.scale_override: float | None = None
        self.hud = Hud(size, self.ui_scale())
        self.hud.sheet.gradual = not headless  # a window makes a new sheet's labels a step a frame
        self.overlay = DebugOverlay(self.ctx)
        self.tweens = TweenManager()
        self.sounds = Sounds(enabled=not headless, volume=volume, muted=muted)
        #: What the warm-up readies after the overlay and the sounds (the games), on its
        #: thread: called with the stop event (set on close) and the rest after each game.
        self.warm_games = warm_games
        #: Where F12 saves a screenshot (None: the current folder).
        self.screenshot_folder = screenshot_folder
        self._warm_stop = threading.Event()  # set on close: the warm-up stops between games
        self._warm_thread: threading.Thread | None = None
        self._overlay_ready = threading.Event()  # the warm-up has imported the overlay's library
        #: Set from the end of a frame drawn to the start of the next tick: while it is clear
        #: the drawing thread works, and a paced warm-up waits at its pause points.
        self._between_frames = threading.Event()
        #: A window's frames render the glyphs of the fonts in use ahead of the texts (set by
        #: :meth:`run`; None: not at all, as headless tests and pictures need nothing ahead).
        self.glyphs_ahead: GlyphsAhead | None = None
        #: Milliseconds of the last frame's passes (3D scene, HUD, overlay), measured while
        #: the overlay shows or ``time_passes`` is set (``gamehall bench render``).
        self.pass_ms: dict[str, float] = {}
        self.time_passes = False
        self._ending: tuple[object, Tone] | None = None  # the scene and tone of the last end
        self.factories: dict[str, Callable[[], SceneController]] = {}
        self.controller: SceneController | None = None
        self.last_game: str | None = None
        self.scene: Scene | None = None
        self.clock = 0.0
        self.frame_ms: deque[float] = deque(maxlen=240)
        #: The frames that took too long, and what this thread did meanwhile (the F3 overlay
        #: shows the longest of the last seconds); it samples only in :meth:`run`'s window.
        self.stalls = StallWatch()
        self.hovered: Node | None = None
        self.ray: tuple[np.ndarray, np.ndarray] | None = None  # the last mouse ray cast
        #: Where that ray met the node it picked (world point; None: it picked nothing).
        self.hit: np.ndarray | None = None
        self.mouse: tuple[float, float] | None = None  # the last mouse position (window)
        self.toast = ""
        self.toast_tone = Tone.INFO
        self.toast_until = 0.0
        self.last_draw_calls = 0
        self.show_fps = False  # the frame rate after the HUD's counter (a saved setting)
        #: The connection of a game played on a server: its note after the HUD's title,
        #: its lines in the F3 overlay (None: a local game).
        self.server_note: ServerNote | None = None
        self.show_help = False  # F1: the command list in the HUD's help panel
        #: False: the scene alone, framed in the whole of its part of the window (the menu's
        #: card pictures, tools/make_cards.py).
        self.show_hud = True
        self.closed = False
        self.on_quit: Callable[[], None] | None = None
        #: Asked when the person quits: "" when nothing would be left behind, else the
        #: question the banner puts first (``gamehall play`` sets it from the games in
        #: progress); a second Esc or close within QUIT_CONFIRM_SECONDS quits.
        self.quit_question: Callable[[], str] | None = None
        self.quitting = False  # quit for good (the window's loop then ends)
        self._quit_asked_until = -1.0
        self._target: Target | None = None
        # The pieces' box and what it was worked out from (see _pieces_box); the last lens
        # the framing gave, with the box and the rest it was worked out from (see _lens_for).
        self._box_cache: tuple[tuple[object, ...], Any] = ((), None)
        self._lens_cache: tuple[Any, tuple[object, ...], Lens] = (None, (), Lens())
        self._press: Press | None = None  # a press on the scene: a click or a drag to be
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
        # The old game's sheet goes with it (the new one's comes in _sync_hud): kept until
        # then, it was laid out again, every label, in the room the new buttons leave.
        self.hud.set_sheet(None)
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
                self.toggle_help()
            elif name == "overlay":
                self.overlay.toggle()
            elif name == "mute":
                self.sounds.toggle_mute()
                self.say(self.sounds.describe())
            elif name == "menu":
                self.escape()
            elif name == VIEW_COMMAND:
                self.reset_view()
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

    def toggle_help(self) -> None:
        """F1: a scene with help of its own (its ``toggle_help`` returns True: its rules,
        marks and keys on a sheet) shows or hides it; any other gets the list of its commands
        in the HUD's help panel."""
        if self.controller is None or not self.controller.toggle_help():
            self.show_help = not self.show_help

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

    def update(self, dt: float, hud: bool = True) -> None:
        """One tick: tweens first, then the controller, then the HUD (``hud`` False: left as
        it is, for a tick no frame shows; the next tick with it brings it up to date)."""
        dt = min(max(dt, 0.0), MAX_DT)
        self._between_frames.clear()
        if self._overlay_ready.is_set():  # its library imported: the rest takes milliseconds
            self._overlay_ready.clear()
            with contextlib.suppress(Exception):  # the overlay says so when it is opened
                self.overlay.prepare()
        self.clock += dt
        self.renderer.time = self.clock
        self.tweens.update(dt)
        if self.controller is not None:
            self.controller.update(dt)
        if self.toast and self.clock >= self.toast_until:
            self.toast = ""
        if not hud:
            return
        self._sync_hud()
        if self.glyphs_ahead is not None:
            self.glyphs_ahead.run(GLYPHS_AHEAD_S)

    def advance(self, seconds: float, dt: float = FIXED_DT) -> None:
        """Step simulated time by ``seconds`` in fixed steps (headless use)."""
        steps = max(1, round(seconds / dt))
        for _ in range(steps):
            self.update(dt)

    def settle(self, dt: float = FIXED_DT, limit: float = 900.0, wall_limit: float = 300.0) -> bool:
        """Step simulated time until nothing runs or is queued; False if time ran out.

        ``limit`` counts simulated seconds of animation. While only a worker is busy (the
        computer thinking) the loop waits in wall time instead, up to ``wall_limit`` seconds,
        since no amount of simulated time makes a thread finish. While the scene's engine is
        being readied (the controller's ``preparing()``: numba compiling, the first
        time, for minutes on a slow machine) it waits without a limit, and ``wall_limit``
        counts from the end of it. No frame is drawn meanwhile, so the HUD is brought up to
        date once, in the last tick.
        """
        elapsed = 0.0
        deadline = time.perf_counter() + wall_limit
        while self.busy():
            waiting = self.controller is not None and self.controller.preparing()
            if waiting:
                deadline = time.perf_counter() + wall_limit
            if elapsed >= limit or time.perf_counter() > deadline:
                return False
            animating = self.tweens.busy > 0
            if not animating:  # let the worker run (a compile: leave it the processor)
                time.sleep(0.05 if waiting else 0.002)
            self.update(dt, hud=False)
            if animating:
                elapsed += dt
        self.update(dt)
        return True

    # -- drawing ----------------------------------------------------------------------------

    def on_draw(self) -> None:
        now = time.perf_counter()
        self.frame_ms.append((now - self._last_frame) * 1000.0)
        self._last_frame = now
        self.render(self.ctx.screen, self.framebuffer_size())
        self.stalls.frame()
        self._between_frames.set()

    # -- window events (pyglet calls these by name) -----------------------------------------

    def ui_scale(self) -> float:
        """How much larger the HUD is drawn for the screen's density (1 at 96 dpi)."""
        if self.scale_override is not None:
            return self.scale_override
        if self.headless:
            return 1.0
        from game.engine.hud import ui_scale

        try:
            dpi = float(self.window.dpi)
        except Exception:  # a platform that cannot tell: plain density
            return 1.0
        return ui_scale(self.window_size(), self.framebuffer_size(), dpi)

    def set_ui_scale(self, scale: float | None) -> None:
        """Draw the HUD ``scale`` times larger (None: as the screen asks) and lay it out."""
        self.scale_override = scale
        self._layout_hud()
        self._sync_hud()

    def on_resize(self, width: int, height: int) -> None:
        self._size = (max(1, width), max(1, height))
        self._layout_hud()
        self._sync_hud()

    def on_text(self, text: str) -> None:
        """Typed characters (moves like "d3") go to a controller that takes text."""
        if self.overlay.visible and self.overlay.wants_keyboard():
            return
        if self.controller is not None:
            self.controller.on_text(text)
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
        elif self._typing() and _types_text(name):
            pass  # the character reaches the scene's text field through on_text
        elif name == "F1":
            self.perform("help")
        elif name == "M":
            self.perform("mute")
        elif name == VIEW_KEY and VIEW_KEY not in self._keys():
            self.perform(VIEW_COMMAND)
        elif self.controller is not None and (command := self._keys().get(name)):
            self.perform(command)
        return True  # pyglet's default Esc handler would close the window

    def escape(self) -> None:
        """Esc: from a game back to the menu; from the menu, quit. A controller with an
        whose ``on_escape()`` returns True keeps Esc for itself (it ended an animation)."""
        if self.controller is not None and self.controller.on_escape():
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
        """Quit (Esc in the menu, the menu's Quit, closing the window); while a game is in
        progress (see :attr:`quit_question`) the first request only asks."""
        question = self.quit_question() if self.quit_question is not None else ""
        if question and self.clock > self._quit_asked_until:
            self._quit_asked_until = self.clock + QUIT_CONFIRM_SECONDS
            self.say(question, Tone.WARN, seconds=QUIT_CONFIRM_SECONDS)
            self._sync_hud()
            return
        self._quit_asked_until = -1.0
        self.quitting = True
        if self.on_quit is not None:
            self.on_quit()
        if not self.headless:
            import pyglet

            pyglet.app.exit()

    # -- running ----------------------------------------------------------------------------

    def warm_up(self, paced: bool = False) -> threading.Thread:
        """Make now, on a background thread, what a first use would make: import the F3
        overlay's imgui library and the sound system with its effects (a second or two each,
        which the drawing thread would otherwise spend on the first F3 and the first sound),
        then what :attr:`warm_games` readies (the window's games). The overlay's
        imgui objects need the GL context: the next :meth:`update` makes them once the library
        is in. ``paced`` (a window's frames being drawn): the games' work runs between frames,
        waiting at each of its pause points (:mod:`game.logic.pacing`: a function of a
        description compiled) until the frame being drawn ends; it held the interpreter's lock
        while the drawing thread worked, and frames stalled. Returns the thread."""
        from game.engine.imgui_renderer import imgui_module
        from game.logic.pacing import paced as pacing

        def work() -> None:
            try:
                imgui_module()
            except Exception as exc:  # the overlay says so when it is opened
                log.warning("the overlay's library did not load: %s", exc)
            self._overlay_ready.set()
            self.sounds.prepare()
            if self.warm_games is None:
                return
            with pacing(self.between_frames) if paced else contextlib.nullcontext():
                self.warm_games(self._warm_stop, WARM_PAUSE_SECONDS)

        thread = threading.Thread(target=work, name="warm-up", daemon=True)
        self._warm_thread = thread
        thread.start()
        return thread

    def between_frames(self) -> None:
        """Wait until the frame being drawn ends, :data:`WARM_FRAME_WAIT_S` at most (a window
        that draws no frames has none to hold up); see :class:`~game.engine.controller.Host`.
        Headless, at once: a frame is drawn only when asked for (:meth:`capture`), on the
        asking thread, so none is being drawn meanwhile (the wait was the whole bound at
        every pause point, a tick having begun a frame that no drawing ends)."""
        if not self.headless:
            self._between_frames.wait(WARM_FRAME_WAIT_S)

    def run(self) -> None:
        """The windowed main loop: pyglet's clock drives update(), pyglet calls on_draw(); half
        a second in, while the menu shows, the games warm up."""
        import pyglet

        pyglet.clock.schedule_once(lambda dt: self.warm_up(paced=True), 0.5)
        self.glyphs_ahead = GlyphsAhead()
        pyglet.clock.schedule_interval(self.update, FIXED_DT)
        self.stalls.start()
        try:
            pyglet.app.run(interval=FIXED_DT)
        finally:
            self.stalls.stop()
            pyglet.clock.unschedule(self.update)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._warm_stop.set()
        self._between_frames.set()  # no more frames: nothing for the warm-up to wait for
        if self._warm_thread is not None:
            # An import cannot be stopped half way, and the process ending during the imgui
            # library's (Esc twice at once after the start) aborts it: wait for the warm-up,
            # which ends between games once stopped. The bound only guards against a hang.
            self._warm_thread.join(WARM_UP_CLOSE_S)
        self.tweens.cancel_all()
        if self.controller is not None:
            self.controller.exit()
            self.controller = None
        self.overlay.release()
        self.renderer.release()
        release(self._target)
        self._target = None
        self.window.remove_handlers(self)
        self.window.close()
        Director.current = None

    # -- helpers ----------------------------------------------------------------------------

    def _typing(self) -> bool:
        """Whether the scene's text field has the keyboard (its ``typing()``)."""
        return self.controller is not None and self.controller.typing()

    def _keys(self) -> dict[str, str]:
        table = self.commands()
        return table.keys() if table is not None else {}

    def pick_at(self, x: float, y: float) -> Node | None:
        """The scene's node under window point (x, y), or None (also off the game's part).
        The ray and the point where it met the node stay in :attr:`ray` and :attr:`hit` for
        the controller (a board's square under the mouse): the scene is picked once."""
        local = self.to_area(x, y)
        if self.scene is None or local is None:
            self.hit = None
            return None
        vp = self.renderer.view_projection(self.scene, self.area_size())
        origin, direction = mouse_ray(vp, local[0], local[1], self.area_size())
        self.ray = (origin, direction)
        found = pick_hit(self.scene, self.bounds, origin, direction, self.triangles)
        self.hit = found[1] if found is not None else None
        return found[0] if found is not None else None

    def _set_hover(self, node: Node | None) -> None:
        # Called on every motion: a controller may care where on a node the mouse is (a
        # board's squares), and ignores repeats itself.
        self.hovered = node
        if self.controller is not None:
            self.controller.on_hover(node)

    def sound(self, name: str) -> None:
        """Play sound effect ``name`` (see :mod:`game.engine.sound`)."""
        self.sounds.play(name)


#: Keys that type no character: they keep their commands while a text field has the keyboard.
_NOT_TYPING = frozenset(
    ("ENTER", "RETURN", "NUM_ENTER", "BACKSPACE", "DELETE", "TAB", "LEFT", "RIGHT", "UP",
     "DOWN", "HOME", "END", "PAGEUP", "PAGEDOWN", "INSERT")
)  # fmt: skip


def _types_text(key: str) -> bool:
    """Whether pyglet's key ``key`` (its symbol string) types a character."""
    if key in _NOT_TYPING or key.startswith(("LSHIFT", "RSHIFT", "LCTRL", "RCTRL", "LALT")):
        return False
    return not (key.startswith("F") and key[1:].isdigit())
