"""The debug overlay (F3): frame statistics and the controller's panel in one Dear ImGui
window docked at the left or right edge of the game window (the person picks the side with
its "Dock" button, and may fold it to its title bar; the settings remember both).

The column is opaque, as tall as the window and flush with its edge; it is as wide as its
contents need (text wraps, a table keeps its columns), between a least width and a share of
the window, so nothing in it is clipped and it has no horizontal scrollbar. The game gets the
rest of the window (:meth:`DebugOverlay.area`): the Director draws the scene and lays out the
HUD there, so the overlay hides nothing of the game. Folded to its title bar, the overlay
takes a band along the top of the window instead.

The imgui frames are drawn by :class:`game.engine.imgui_renderer.ImguiRenderer`; helpers for
panels (``draw_graph``) live in :mod:`game.engine.overlay_widgets`, the frame statistics and
their section in :mod:`game.engine.overlay_stats`, the imgui context's setup and a panel's
guarded call in :mod:`game.engine.overlay_imgui`. ``imgui_bundle`` is imported
lazily, on the first :meth:`DebugOverlay.build`, so importing this module stays cheap and works
where imgui-bundle is missing.

Input comes in pyglet conventions (window pixels, origin bottom-left; buttons 1 left, 2 middle,
4 right). A press consumed by the overlay (it landed on an overlay window) is not for the game,
and neither is the matching release.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Callable, Iterator
from typing import Any

import moderngl

from game.engine.imgui_renderer import ImguiRenderer, imgui_module
from game.engine.overlay_imgui import (
    FONT_SIZE,
    FRAME_PADDING,
    call_panel,
    create_context,
    window_rects,
)
from game.engine.overlay_stats import STALL_WINDOW_S, FrameStats, frame_statistics
from game.engine.overlay_widgets import draw_graph, set_room

log = logging.getLogger(__name__)

__all__ = ["SIDES", "STALL_WINDOW_S", "DebugOverlay", "FrameStats", "draw_graph"]

# pyglet mouse button -> Dear ImGui mouse button (0 left, 1 right, 2 middle)
_IMGUI_BUTTON = {1: 0, 4: 1, 2: 2}

#: The docked column's width: what its contents need, at least this many times its text
#: size, at most this share of the window's width (and this many times its text size).
_DOCK_LEAST_EM = 20.0
_DOCK_MOST = 0.34
_DOCK_MOST_EM = 40.0
#: The edges the overlay docks at.
SIDES = ("left", "right")
#: The overlay's text is scaled with the HUD's, within these bounds (a small window gets a
#: slightly smaller overlay, so the game keeps room).
_SCALE_LEAST = 0.85
_SCALE_MOST = 4.0
#: How many frames the overlay builds at most to settle its width to its contents.
_FIT_PASSES = 4
_DEBUG_TITLE = "Gamehall debug"


class DebugOverlay:
    """Dear ImGui debug windows over the game, toggled with F3.

    Construction is cheap: the imgui context, fonts and GL objects are made on the first
    :meth:`draw` while visible. Every draw sets all the GL state it needs (framebuffer,
    viewport, blending on, depth test and culling off, scissor per command) and leaves
    ``ctx.scissor = None`` behind.
    """

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self.visible: bool = False
        #: the last exception a panel callback raised, as one line (None while all is well)
        self.panel_error: str | None = None
        self._fb_size: tuple[int, int] = (1, 1)
        self._imgui_ctx: Any = None
        self._renderer: ImguiRenderer | None = None
        self._window_size: tuple[int, int] = (0, 0)
        self._mouse: tuple[float, float] | None = None  # last pointer position, pyglet coords
        self._captured: set[int] = set()  # pyglet buttons whose press the overlay took
        self._imgui_down: set[int] = set()  # imgui buttons we told imgui are held
        self._rects: list[tuple[float, float, float, float]] = []  # overlay windows, imgui coords
        self._frames = 0
        self._built = False  # a frame was built and not yet painted
        #: The width the contents asked for (window units; 0 before they are measured), for
        #: the window size, text size and scene in ``_fit_key``.
        self._needed = 0.0
        self._fit_key: tuple[object, ...] | None = None
        self._logged_errors: set[str] = set()
        #: The window edge the overlay docks at ("left" or "right"), and whether it shows
        #: only its title bar; the person changes both in the overlay, the settings keep them.
        self.side: str = "left"
        self.collapsed: bool = False
        self._drawn_collapsed: bool | None = None  # as imgui drew it last (None: not yet)
        #: How much larger than its base size the overlay's text and column are (the
        #: Director sets it from the HUD's text size, so 4K and HiDPI stay readable).
        self.scale: float = 1.0
        #: Called after the person moves the overlay to the other side or (un)collapses it.
        self.on_change: Callable[[], None] | None = None

    # ------------------------------------------------------------------ visibility, capture
    def prepare(self) -> None:
        """Make the imgui context, fonts and GL objects now (they are otherwise made on the
        first F3), so that the first F3 does not stall; the GL context must be current."""
        self._ensure_created()

    def toggle(self) -> bool:
        """Show or hide the overlay; return the new visibility."""
        self.visible = not self.visible
        if not self.visible and self._imgui_ctx is not None and self._imgui_down:
            # imgui sees no events while hidden: let go of held buttons now, so nothing sticks.
            # The matching pyglet releases are still swallowed (see on_mouse_release).
            with self._current() as imgui:
                io = imgui.get_io()
                for button in sorted(self._imgui_down):
                    io.add_mouse_button_event(button, False)
            self._imgui_down.clear()
        return self.visible

    def set_side(self, side: str) -> None:
        """Dock at the ``"left"`` or ``"right"`` edge (anything else is refused with a
        ValueError naming it)."""
        if side not in SIDES:
            raise ValueError(f"the overlay docks at the left or the right, not {side!r}")
        if side != self.side:
            self.side = side
            self._changed()

    def dock_rect(self, window_size: tuple[int, int]) -> tuple[float, float, float, float]:
        """Where the overlay goes in a window of ``window_size`` (x, y from the top-left,
        width, height, window units): a column at :attr:`side`, flush with the window's edge
        and as tall as the window, as wide as its contents need within its bounds (the
        contents are measured as frames are built: before the first, the least width)."""
        w, h = max(1.0, float(window_size[0])), max(1.0, float(window_size[1]))
        width = self._width(w)
        x = 0.0 if self.side == "left" else w - width
        return x, 0.0, width, h

    def rect(self, window_size: tuple[int, int]) -> tuple[float, float, float, float] | None:
        """The overlay's rectangle in the game window's terms (x, y from the bottom-left,
        width, height, window units): the column, or the title bar alone when folded; None
        while hidden."""
        if not self.visible:
            return None
        x, _y, width, h = self.dock_rect(window_size)
        if self.collapsed:
            bar = self._title_bar()
            return x, h - bar, width, bar
        return x, 0.0, width, h

    def area(self, window_size: tuple[int, int]) -> tuple[float, float, float, float]:
        """The part of the window the overlay leaves to the game (x, y from the bottom-left,
        width, height, window units): the whole window while hidden; beside the column; under
        the title bar's band when folded."""
        w, h = max(1, int(window_size[0])), max(1, int(window_size[1]))
        if not self.visible:
            return 0.0, 0.0, float(w), float(h)
        if self.collapsed:
            return 0.0, 0.0, float(w), max(1.0, h - self._title_bar())
        _x, _y, width, _h = self.dock_rect((w, h))
        rest = max(1.0, w - width)
        return (width if self.side == "left" else 0.0), 0.0, rest, float(h)

    def fits(self) -> bool:
        """Whether the last frame's contents fit the column's width: no line, table or row of
        buttons reaches past its edge (so nothing is clipped and nothing needs scrolling
        across)."""
        return self._needed <= self._width(self._window_size[0]) + 0.5

    def wants_mouse(self) -> bool:
        """True when visible and the mouse belongs to the overlay: the pointer is over one of
        the windows imgui showed last frame (what io.want_capture_mouse says, but judged at the
        newest pointer position), or a button pressed on the overlay is still held."""
        if not self._live():
            return False
        if self._captured:
            return True
        return self._mouse is not None and self._hit(*self._mouse)

    def wants_keyboard(self) -> bool:
        """True when visible and imgui wants the keyboard (io.want_capture_keyboard)."""
        if not self._live():
            return False
        with self._current() as imgui:
            return bool(imgui.get_io().want_capture_keyboard)

    # ------------------------------------------------------------------ input (pyglet coords)
    def on_mouse_motion(self, x: float, y: float) -> None:
        self._mouse = (float(x), float(y))
        if self._live():
            with self._current() as imgui:
                imgui.get_io().add_mouse_pos_event(*self._to_imgui(x, y))

    def on_mouse_press(self, x: float, y: float, button: int) -> bool:
        """Feed a press to imgui; True (consumed) if it landed on an overlay window."""
        self._mouse = (float(x), float(y))
        if not self._live():
            return False
        hit = self._hit(x, y)
        index = _IMGUI_BUTTON.get(button)
        with self._current() as imgui:
            io = imgui.get_io()
            io.add_mouse_pos_event(*self._to_imgui(x, y))
            if index is not None:
                io.add_mouse_button_event(index, True)
                self._imgui_down.add(index)
        if hit:
            self._captured.add(button)
        return hit

    def on_mouse_release(self, x: float, y: float, button: int) -> bool:
        """Feed a release to imgui; True if the press that started it was the overlay's."""
        self._mouse = (float(x), float(y))
        consumed = button in self._captured
        self._captured.discard(button)
        index = _IMGUI_BUTTON.get(button)
        if self._live() and index is not None and index in self._imgui_down:
            with self._current() as imgui:
                io = imgui.get_io()
                io.add_mouse_pos_event(*self._to_imgui(x, y))
                io.add_mouse_button_event(index, False)
            self._imgui_down.discard(index)
        return consumed

    def on_mouse_scroll(self, x: float, y: float, dy: float) -> bool:
        """Scroll the overlay window under the pointer; True if there was one."""
        self._mouse = (float(x), float(y))
        if not self._live() or not self._hit(x, y):
            return False
        with self._current() as imgui:
            io = imgui.get_io()
            io.add_mouse_pos_event(*self._to_imgui(x, y))
            io.add_mouse_wheel_event(0.0, float(dy))
        return True

    # ------------------------------------------------------------------ frame
    def draw(
        self,
        fbo: moderngl.Framebuffer,
        window_size: tuple[int, int],
        stats: FrameStats,
        panel: Callable[[], None] | None = None,
        panel_title: str = "Game",
        dt: float = 1 / 60,
        framebuffer_size: tuple[int, int] | None = None,
    ) -> int:
        """:meth:`build` then :meth:`paint`: one imgui frame into ``fbo``; return the GL draw
        calls made (0 while hidden)."""
        self.build(window_size, stats, panel, panel_title, dt)
        return self.paint(fbo, framebuffer_size or fbo.size)

    def build(
        self,
        window_size: tuple[int, int],
        stats: FrameStats,
        panel: Callable[[], None] | None = None,
        panel_title: str = "Game",
        dt: float = 1 / 60,
    ) -> bool:
        """Build this frame's imgui window (the panel callback runs now), as wide as its
        contents need: a frame that finds them wider than the column is built again at the
        new width. Returns True when the column's width changed, so the caller lays the game
        out again in the new :meth:`area` before it draws. Nothing while hidden.

        ``window_size`` is in window units (what input coordinates use).
        """
        if not self.visible:
            return False
        win_w, win_h = int(window_size[0]), int(window_size[1])
        if min(win_w, win_h) <= 0:
            return False
        self._ensure_created()
        self._window_size = (win_w, win_h)
        fit_key = (win_w, win_h, self._scale(), panel_title)
        if fit_key != self._fit_key:  # another window, text size or scene: measure afresh
            self._fit_key, self._needed = fit_key, 0.0
        before = self._width(win_w)
        with self._current() as imgui:
            io = imgui.get_io()
            io.display_size = (float(win_w), float(win_h))
            if self._mouse is not None:
                # events are not fed while hidden; imgui drops this if it is already current
                io.add_mouse_pos_event(*self._to_imgui(*self._mouse))
            # A window is hidden during its first frame while imgui measures it, so the very
            # first build makes a throwaway frame first: F3 shows at once. A frame whose
            # contents want a wider column is built again at that width.
            passes = 0
            while True:
                width = self._width(win_w)
                io.delta_time = max(float(dt), 1e-4) if passes == 0 else 1e-4
                imgui.new_frame()
                try:
                    self._dock_window(imgui, stats, panel, panel_title)
                finally:
                    imgui.render()
                passes += 1
                settled = self._frames > 0 or passes > 1
                if settled and (self._width(win_w) <= width + 0.5 or passes >= _FIT_PASSES):
                    break
            self._frames += 1
            self._rects = window_rects(imgui)
            self._built = True
        return abs(self._width(win_w) - before) > 0.5

    def paint(self, fbo: moderngl.Framebuffer, framebuffer_size: tuple[int, int]) -> int:
        """Render the frame :meth:`build` made into ``fbo`` (``framebuffer_size`` pixels: the
        window's default framebuffer's recorded size goes stale after a resize, so it is
        passed); return the GL draw calls made."""
        if not self.visible or not self._built:
            return 0
        self._built = False
        win_w, win_h = self._window_size
        fb_w, fb_h = int(framebuffer_size[0]), int(framebuffer_size[1])
        if min(win_w, win_h, fb_w, fb_h) <= 0:
            return 0
        self._fb_size = (fb_w, fb_h)
        with self._current() as imgui:
            imgui.get_io().display_framebuffer_scale = (fb_w / win_w, fb_h / win_h)
            assert self._renderer is not None
            self._renderer.sync_textures(imgui)
            return self._renderer.render(imgui.get_draw_data(), fbo, self._fb_size)

    def release(self) -> None:
        """Free the GL objects and the imgui context. The overlay can be drawn again later."""
        imgui_ctx, self._imgui_ctx = self._imgui_ctx, None
        renderer, self._renderer = self._renderer, None
        if imgui_ctx is not None:
            imgui = imgui_module()
            previous = imgui.get_current_context()
            imgui.set_current_context(imgui_ctx)
            if renderer is not None:
                renderer.release(imgui)
            imgui.destroy_context(imgui_ctx)
            if previous is not None and previous is not imgui_ctx:
                imgui.set_current_context(previous)
        elif renderer is not None:
            renderer.release()
        self._rects = []
        self._captured.clear()
        self._imgui_down.clear()
        self._frames = 0
        self._built = False
        self._drawn_collapsed = None

    # ------------------------------------------------------------------ internals: setup
    def _live(self) -> bool:
        return self.visible and self._imgui_ctx is not None and self._window_size[1] > 0

    @contextlib.contextmanager
    def _current(self) -> Iterator[Any]:
        """Make our imgui context current for the block (others may own contexts too)."""
        imgui = imgui_module()
        previous = imgui.get_current_context()
        imgui.set_current_context(self._imgui_ctx)
        try:
            yield imgui
        finally:
            if previous is not None:
                imgui.set_current_context(previous)

    def _to_imgui(self, x: float, y: float) -> tuple[float, float]:
        return float(x), float(self._window_size[1]) - float(y)

    def _hit(self, x: float, y: float) -> bool:
        px, py = self._to_imgui(x, y)
        return any(x0 <= px < x1 and y0 <= py < y1 for x0, y0, x1, y1 in self._rects)

    def _ensure_created(self) -> None:
        if self._imgui_ctx is not None:
            return
        self._imgui_ctx = create_context(self.ctx)
        self._renderer = ImguiRenderer(self.ctx)

    # ------------------------------------------------------------------ internals: UI
    def _dock_window(
        self,
        imgui: Any,
        stats: FrameStats,
        panel: Callable[[], None] | None,
        panel_title: str,
    ) -> None:
        """One window docked at :attr:`side`: the frame statistics, then the scene's panel;
        collapsing it (the arrow in its title bar) leaves the title bar."""
        imgui.get_style().font_scale_main = self._scale()
        x, y, width, height = self.dock_rect(self._window_size)
        imgui.set_next_window_pos((x, y), imgui.Cond_.always)
        imgui.set_next_window_size((width, height), imgui.Cond_.always)
        # A fold set from outside (the settings, a script) is imposed; otherwise imgui keeps
        # what its arrow did.
        imposed = self.collapsed != self._drawn_collapsed
        cond = imgui.Cond_.always if imposed else imgui.Cond_.appearing
        imgui.set_next_window_collapsed(self.collapsed, cond)
        imgui.set_next_window_bg_alpha(1.0)  # opaque: nothing of the game shows through
        flags = (
            imgui.WindowFlags_.no_saved_settings
            | imgui.WindowFlags_.no_move
            | imgui.WindowFlags_.no_resize
            | imgui.WindowFlags_.no_focus_on_appearing
        )
        expanded, _ = imgui.begin(f"{_DEBUG_TITLE} (F3)###gamehall_overlay", None, flags)
        try:
            if expanded == self.collapsed:  # the person clicked the title bar's arrow
                self.collapsed = not expanded
                self._changed()
            self._drawn_collapsed = self.collapsed
            if not expanded:
                self.panel_error = None
                return
            # Text wraps at the column's edge; in a table's cell too (the window's edge, not
            # the cell's: a column sized to its text would otherwise shrink to nothing).
            edge = imgui.get_cursor_pos_x() + imgui.get_content_region_avail().x
            imgui.push_text_wrap_pos(max(1.0, edge))
            try:
                other = "right" if self.side == "left" else "left"
                if imgui.small_button(f"Dock {other}"):
                    self.set_side(other)
                imgui.same_line()
                imgui.text_disabled("or fold it (the arrow)")
                frame_statistics(imgui, stats)
                if panel is None:
                    self.panel_error = None
                elif imgui.collapsing_header(
                    f"{panel_title}###gamehall_panel", imgui.TreeNodeFlags_.default_open
                ):
                    frame = width - imgui.get_content_region_avail().x  # padding, scrollbar
                    set_room(self._width(self._window_size[0], widest=True) - frame)
                    try:
                        self.panel_error = call_panel(imgui, panel, self._logged_errors)
                    finally:
                        set_room(math.inf)
            finally:
                imgui.pop_text_wrap_pos()
            self._measure(imgui)
        finally:
            imgui.end()

    def _measure(self, imgui: Any) -> None:
        """Note how wide the column must be for what this frame put in it (what does not
        wrap: a table's columns, a row of buttons); the width only grows while the window,
        the text size and the scene stay the same, so the game beside it keeps still."""
        window = imgui.internal.get_current_window()
        pad = imgui.get_style().window_padding.x
        # what the items reached (a graph's canvas), and what tables would like (their
        # columns' natural widths, which they squeeze into a narrower window)
        reach = max(window.dc.cursor_max_pos.x, window.dc.ideal_max_pos.x)
        needed = reach - window.pos.x + pad + window.scrollbar_sizes.x
        if math.isfinite(needed) and needed > self._needed:
            self._needed = float(math.ceil(needed))

    def _width(self, window_width: float, widest: bool = False) -> float:
        """The column's width in a window ``window_width`` wide: what the contents need,
        within the least and the most (see the module's constants); the most, ``widest``."""
        em = FONT_SIZE * self._scale()
        most = min(window_width * _DOCK_MOST, _DOCK_MOST_EM * em)
        least = min(_DOCK_LEAST_EM * em, most)
        return float(round(most if widest else min(max(least, self._needed), most)))

    def _title_bar(self) -> float:
        """The height of the title bar (what is left of the overlay when folded)."""
        return float(math.ceil(FONT_SIZE * self._scale() + 2 * FRAME_PADDING[1]))

    def _scale(self) -> float:
        scale = self.scale
        return min(_SCALE_MOST, max(_SCALE_LEAST, scale)) if math.isfinite(scale) else 1.0

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:  # saving a setting must never take the overlay down
                log.exception("saving the overlay's place failed")
