"""The debug overlay (F3): an imgui-bundle UI drawn by a small ModernGL renderer of our own.

imgui-bundle's bundled renderers need PyOpenGL, so this module carries its own: one shader, one
dynamic vertex buffer and one dynamic index buffer, uploaded once per frame, and the textures
Dear ImGui asks for through its 1.92 texture protocol (``ImTextureData`` with status
WantCreate / WantUpdates / WantDestroy; the font atlas is one of them and grows on demand).

``imgui_bundle`` is imported lazily, on the first :meth:`DebugOverlay.draw`, so importing this
module stays cheap and works where imgui-bundle is missing.

Input comes in pyglet conventions (window pixels, origin bottom-left; buttons 1 left, 2 middle,
4 right). A press consumed by the overlay (it landed on an overlay window) is not for the game,
and neither is the matching release.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import moderngl
import numpy as np

log = logging.getLogger(__name__)

__all__ = ["DebugOverlay", "FrameStats", "draw_graph"]

_VERTEX_SHADER = """
#version 330 core
uniform vec4 u_transform;  // xy: scale, zw: translate (imgui display coords -> clip space)
in vec2 in_pos;
in vec2 in_uv;
in vec4 in_col;
out vec2 v_uv;
out vec4 v_col;
void main() {
    v_uv = in_uv;
    v_col = in_col;
    gl_Position = vec4(in_pos * u_transform.xy + u_transform.zw, 0.0, 1.0);
}
"""

_FRAGMENT_SHADER = """
#version 330 core
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_col;
out vec4 f_color;
void main() {
    f_color = v_col * texture(u_texture, v_uv);
}
"""

# pyglet mouse button -> Dear ImGui mouse button (0 left, 1 right, 2 middle)
_IMGUI_BUTTON = {1: 0, 4: 1, 2: 2}

_WINDOW_MARGIN = 10.0
_WINDOW_ALPHA = 0.80
_FONT_SIZE = 15.0
_DEBUG_TITLE = "Gamehall debug"


def _imgui() -> Any:
    """Import imgui-bundle's imgui module (only when the overlay is first used)."""
    from imgui_bundle import imgui

    return imgui


def _col32(r: int, g: int, b: int, a: int = 255) -> int:
    """Pack an RGBA colour the way ImDrawList wants it (IM_COL32)."""
    return (a << 24) | (b << 16) | (g << 8) | r


@dataclass
class FrameStats:
    """What the Director measured over the last frames; shown in the debug window."""

    frame_ms: Sequence[float] = ()  # recent frame times in milliseconds, newest last
    fps: float = 0.0
    draw_calls: int = 0
    triangles: int = 0
    nodes: int = 0
    running_tweens: int = 0
    scene: str = ""  # current scene / controller name


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
        self._panel_width = 0.0  # the window width the game panel was last placed for
        self._imgui_ctx: Any = None
        self._program: moderngl.Program | None = None
        self._vbo: moderngl.Buffer | None = None
        self._ibo: moderngl.Buffer | None = None
        self._vao: moderngl.VertexArray | None = None
        self._sampler: moderngl.Sampler | None = None
        self._textures: dict[int, moderngl.Texture] = {}  # imgui textures by GL name
        self._window_size: tuple[int, int] = (0, 0)
        self._mouse: tuple[float, float] | None = None  # last pointer position, pyglet coords
        self._captured: set[int] = set()  # pyglet buttons whose press the overlay took
        self._imgui_down: set[int] = set()  # imgui buttons we told imgui are held
        self._rects: list[tuple[float, float, float, float]] = []  # overlay windows, imgui coords
        self._frames = 0
        self._logged_errors: set[str] = set()

    # ------------------------------------------------------------------ visibility, capture
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
        """Build one imgui frame and render it into ``fbo``; return the GL draw calls made.

        ``window_size`` is in window units (what input coordinates use); the framebuffer may be
        larger by a HiDPI ratio. ``framebuffer_size`` defaults to ``fbo.size``; pass it for the
        window's default framebuffer, whose recorded size goes stale after a resize. Does
        nothing (returns 0) while hidden.
        """
        if not self.visible:
            return 0
        win_w, win_h = int(window_size[0]), int(window_size[1])
        fb_w, fb_h = framebuffer_size or fbo.size
        self._fb_size = (fb_w, fb_h)
        if min(win_w, win_h, fb_w, fb_h) <= 0:
            return 0
        self._ensure_created()
        self._window_size = (win_w, win_h)
        with self._current() as imgui:
            io = imgui.get_io()
            io.display_size = (float(win_w), float(win_h))
            io.display_framebuffer_scale = (fb_w / win_w, fb_h / win_h)
            if self._mouse is not None:
                # events are not fed while hidden; imgui drops this if it is already current
                io.add_mouse_pos_event(*self._to_imgui(*self._mouse))
            frames = 2 if self._frames == 0 else 1
            for _ in range(frames):
                # a window is hidden during its first frame while imgui measures it, so the
                # very first draw builds a throwaway frame first: F3 shows at once.
                io.delta_time = max(float(dt), 1e-4)
                self._build_frame(imgui, stats, panel, panel_title)
            self._frames += 1
            self._rects = self._window_rects(imgui)
            self._sync_textures(imgui)
            return self._render(imgui.get_draw_data(), fbo)

    def release(self) -> None:
        """Free the GL objects and the imgui context. The overlay can be drawn again later."""
        imgui_ctx, self._imgui_ctx = self._imgui_ctx, None
        if imgui_ctx is not None:
            imgui = _imgui()
            previous = imgui.get_current_context()
            imgui.set_current_context(imgui_ctx)
            for tex in imgui.get_platform_io().textures:
                if tex.status != imgui.ImTextureStatus.destroyed:
                    tex.set_tex_id(0)
                    tex.status = imgui.ImTextureStatus.destroyed
            imgui.get_io().backend_flags &= ~imgui.BackendFlags_.renderer_has_textures
            imgui.destroy_context(imgui_ctx)
            if previous is not None and previous is not imgui_ctx:
                imgui.set_current_context(previous)
        for texture in self._textures.values():
            texture.release()
        self._textures.clear()
        for obj in (self._vao, self._vbo, self._ibo, self._program, self._sampler):
            if obj is not None:
                obj.release()
        self._vao = self._vbo = self._ibo = self._program = self._sampler = None
        self._rects = []
        self._captured.clear()
        self._imgui_down.clear()
        self._frames = 0

    # ------------------------------------------------------------------ internals: setup
    def _live(self) -> bool:
        return self.visible and self._imgui_ctx is not None and self._window_size[1] > 0

    @contextlib.contextmanager
    def _current(self) -> Iterator[Any]:
        """Make our imgui context current for the block (others may own contexts too)."""
        imgui = _imgui()
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
        imgui = _imgui()
        previous = imgui.get_current_context()
        self._imgui_ctx = imgui.create_context()
        imgui.set_current_context(self._imgui_ctx)
        try:
            io = imgui.get_io()
            io.set_ini_filename(None)  # no imgui.ini in the working directory
            io.backend_flags |= imgui.BackendFlags_.renderer_has_textures
            io.config_windows_move_from_title_bar_only = True  # drags in a panel stay there
            max_size = int(self.ctx.info["GL_MAX_TEXTURE_SIZE"])
            platform_io = imgui.get_platform_io()
            platform_io.renderer_texture_max_width = max_size
            platform_io.renderer_texture_max_height = max_size
            io.fonts.add_font_default_vector()
            imgui.style_colors_dark()
            style = imgui.get_style()
            style.font_size_base = _FONT_SIZE
            style.window_rounding = 6.0
            style.frame_rounding = 3.0
            style.window_border_size = 1.0
            style.window_padding = (10.0, 8.0)
            style.item_spacing = (8.0, 5.0)
        finally:
            if previous is not None:
                imgui.set_current_context(previous)

        ctx = self.ctx
        self._program = ctx.program(vertex_shader=_VERTEX_SHADER, fragment_shader=_FRAGMENT_SHADER)
        sampler_uniform = self._program["u_texture"]
        assert isinstance(sampler_uniform, moderngl.Uniform)
        sampler_uniform.value = 0
        self._vbo = ctx.buffer(reserve=64 * 1024, dynamic=True)
        self._ibo = ctx.buffer(reserve=32 * 1024, dynamic=True)
        self._vao = ctx.vertex_array(
            self._program,
            [(self._vbo, "2f 2f 4f1", "in_pos", "in_uv", "in_col")],
            index_buffer=self._ibo,
            index_element_size=4,
        )
        self._sampler = ctx.sampler(
            filter=(moderngl.LINEAR, moderngl.LINEAR), repeat_x=False, repeat_y=False
        )

    # ------------------------------------------------------------------ internals: UI
    def _build_frame(
        self,
        imgui: Any,
        stats: FrameStats,
        panel: Callable[[], None] | None,
        panel_title: str,
    ) -> None:
        imgui.new_frame()
        try:
            self._debug_window(imgui, stats)
            if panel is not None:
                self._panel_window(imgui, panel, panel_title)
            else:
                self.panel_error = None
        finally:
            imgui.render()

    def _debug_window(self, imgui: Any, stats: FrameStats) -> None:
        imgui.set_next_window_pos((_WINDOW_MARGIN, _WINDOW_MARGIN), imgui.Cond_.first_use_ever)
        imgui.set_next_window_bg_alpha(_WINDOW_ALPHA)
        flags = (
            imgui.WindowFlags_.always_auto_resize
            | imgui.WindowFlags_.no_saved_settings
            | imgui.WindowFlags_.no_focus_on_appearing
        )
        expanded, _ = imgui.begin(_DEBUG_TITLE, None, flags)
        try:
            if expanded:
                self._debug_contents(imgui, stats)
        finally:
            imgui.end()

    def _debug_contents(self, imgui: Any, stats: FrameStats) -> None:
        fps = float(stats.fps)
        if fps >= 55.0:
            fps_col = (0.45, 0.9, 0.45, 1.0)
        elif fps >= 30.0:
            fps_col = (0.95, 0.8, 0.3, 1.0)
        else:
            fps_col = (1.0, 0.4, 0.35, 1.0)
        samples = np.asarray(stats.frame_ms, dtype=np.float32)
        imgui.text_colored(imgui.ImVec4(*fps_col), f"{fps:.1f} FPS")
        imgui.same_line()
        if samples.size:
            imgui.text_disabled(f"({samples[-1]:.2f} ms last frame)")
        else:
            imgui.text_disabled("(no frame times yet)")

        width = 300.0
        if samples.size:
            lo, med, hi = (float(v) for v in np.percentile(samples, (0, 50, 100)))
            top = max(20.0, hi * 1.15)
            imgui.push_style_color(imgui.Col_.plot_lines, imgui.ImVec4(0.45, 0.85, 0.55, 1.0))
            imgui.plot_lines(
                "##frame_ms",
                samples,
                overlay_text=f"frame time (ms), last {samples.size} frames",
                scale_min=0.0,
                scale_max=top,
                graph_size=(width, 64.0),
            )
            imgui.pop_style_color()
            self._budget_line(imgui, 1000.0 / 60.0, top)
            imgui.text(f"min {lo:.2f}   median {med:.2f}   max {hi:.2f} ms")
        else:
            imgui.dummy((width, 64.0))
        imgui.separator()

        rows = (
            ("draw calls", f"{stats.draw_calls:,}"),
            ("triangles", f"{stats.triangles:,}"),
            ("scene nodes", f"{stats.nodes:,}"),
            ("running tweens", f"{stats.running_tweens:,}"),
            ("scene", stats.scene or "-"),
        )
        if imgui.begin_table("##stats", 2, imgui.TableFlags_.sizing_fixed_fit):
            for name, value in rows:
                imgui.table_next_row()
                imgui.table_next_column()
                imgui.text_disabled(name)
                imgui.table_next_column()
                imgui.text(value)
            imgui.end_table()
        imgui.separator()
        imgui.text_disabled("F3 hides this overlay")

    @staticmethod
    def _budget_line(imgui: Any, ms: float, top: float) -> None:
        """Mark the 60 FPS budget on the frame-time plot just drawn."""
        if ms >= top:
            return
        lo = imgui.get_item_rect_min()
        hi = imgui.get_item_rect_max()
        pad = imgui.get_style().frame_padding
        y0, y1 = lo.y + pad.y, hi.y - pad.y
        y = y1 - (y1 - y0) * (ms / top)
        imgui.get_window_draw_list().add_line(
            (lo.x + pad.x, y), (hi.x - pad.x, y), _col32(120, 220, 120, 110), 1.0
        )

    def _panel_window(self, imgui: Any, panel: Callable[[], None], title: str) -> None:
        width = float(self._window_size[0])
        # Pinned to the top-right corner: placed again whenever the window's width changes,
        # so a resize never leaves the panel cut off (a person may still drag it meanwhile).
        cond = imgui.Cond_.first_use_ever
        if width != self._panel_width:
            cond = imgui.Cond_.always
            self._panel_width = width
        imgui.set_next_window_pos((width - _WINDOW_MARGIN, _WINDOW_MARGIN), cond, (1.0, 0.0))
        imgui.set_next_window_bg_alpha(_WINDOW_ALPHA)
        flags = imgui.WindowFlags_.always_auto_resize | imgui.WindowFlags_.no_saved_settings
        expanded, _ = imgui.begin(f"{title}###gamehall_panel", None, flags)
        try:
            if expanded:
                self._call_panel(imgui, panel)
        finally:
            imgui.end()

    def _call_panel(self, imgui: Any, panel: Callable[[], None]) -> None:
        """Run the controller's panel; an exception it raises is shown and logged, not fatal."""
        state = imgui.internal.ErrorRecoveryState()
        imgui.internal.error_recovery_store_state(state)
        try:
            panel()
        except Exception as exc:
            # unwind what the panel left open (Begin/Push without End/Pop), quietly: it is
            # reported below, once, through logging
            io = imgui.get_io()
            asserting = io.config_error_recovery_enable_assert
            logging_on = io.config_error_recovery_enable_debug_log
            io.config_error_recovery_enable_assert = False
            io.config_error_recovery_enable_debug_log = False
            try:
                imgui.internal.error_recovery_try_to_recover_state(state)
            finally:
                io.config_error_recovery_enable_assert = asserting
                io.config_error_recovery_enable_debug_log = logging_on
            message = f"{type(exc).__name__}: {exc}"
            if message not in self._logged_errors:
                self._logged_errors.add(message)
                log.exception("debug overlay panel failed")
            self.panel_error = message
            imgui.text_colored(imgui.ImVec4(1.0, 0.4, 0.35, 1.0), f"panel failed: {message}")
        else:
            self.panel_error = None

    @staticmethod
    def _window_rects(imgui: Any) -> list[tuple[float, float, float, float]]:
        """Rectangles (imgui coordinates) of the windows shown last frame that take the mouse."""
        rects = []
        skip = imgui.WindowFlags_.no_mouse_inputs | imgui.WindowFlags_.child_window
        for window in imgui.get_current_context().windows:
            if not window.active or window.hidden or window.is_fallback_window:
                continue
            if window.flags & imgui.WindowFlags_.modal:
                rects.append((-math.inf, -math.inf, math.inf, math.inf))
                continue  # a modal popup blocks the whole screen
            if window.flags & skip:
                continue  # tooltips; child windows lie inside their parent anyway
            x, y = window.pos.x, window.pos.y
            rects.append((x, y, x + window.size.x, y + window.size.y))
        return rects

    # ------------------------------------------------------------------ internals: textures
    def _sync_textures(self, imgui: Any) -> None:
        """Honour imgui's texture requests (font atlas creation, glyph uploads, destruction)."""
        status = imgui.ImTextureStatus
        for tex in imgui.get_platform_io().textures:
            state = tex.status
            if state == status.want_create:
                self._create_texture(imgui, tex)
            elif state == status.want_updates:
                self._update_texture(tex)
                tex.status = status.ok
            elif state == status.want_destroy:
                texture = self._textures.pop(int(tex.tex_id), None)
                if texture is not None:
                    texture.release()
                tex.set_tex_id(0)
                tex.status = status.destroyed

    def _create_texture(self, imgui: Any, tex: Any) -> None:
        components = 1 if tex.format == imgui.ImTextureFormat.alpha8 else 4
        pixels = tex.get_pixels_array()
        texture = self.ctx.texture((tex.width, tex.height), components, pixels, alignment=1)
        if components == 1:
            texture.swizzle = "111R"  # alpha-only atlas: white, coverage in alpha
        texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        texture.repeat_x = texture.repeat_y = False
        self._textures[texture.glo] = texture
        tex.set_tex_id(texture.glo)
        tex.status = imgui.ImTextureStatus.ok

    def _update_texture(self, tex: Any) -> None:
        texture = self._textures.get(int(tex.tex_id))
        if texture is None:
            return
        bpp = int(tex.bytes_per_pixel)
        pixels = tex.get_pixels_array().reshape(tex.height, tex.width, bpp)
        for rect in tex.updates:
            x, y, w, h = int(rect.x), int(rect.y), int(rect.w), int(rect.h)
            if w <= 0 or h <= 0:
                continue
            block = np.ascontiguousarray(pixels[y : y + h, x : x + w])
            texture.write(block, viewport=(x, y, w, h), alignment=1)

    # ------------------------------------------------------------------ internals: GL
    def _render(self, draw_data: Any, fbo: moderngl.Framebuffer) -> int:
        if draw_data is None or draw_data.total_idx_count <= 0:
            return 0
        assert self._vbo is not None and self._ibo is not None and self._vao is not None
        assert self._program is not None and self._sampler is not None
        imgui = _imgui()
        vertex_size = int(imgui.VERTEX_SIZE)
        index_dtype = np.uint16 if int(imgui.INDEX_SIZE) == 2 else np.uint32

        # One upload per frame: all draw lists back to back, indices rebased to 32 bits.
        lists = list(draw_data.cmd_lists)
        vertices: list[bytes] = []
        indices: list[np.ndarray] = []
        first_index: list[int] = []
        base_vertex = base_index = 0
        for draw_list in lists:
            n_vtx = draw_list.vtx_buffer.size()
            n_idx = draw_list.idx_buffer.size()
            vertices.append(
                ctypes.string_at(draw_list.vtx_buffer.data_address(), n_vtx * vertex_size)
            )
            raw = ctypes.string_at(
                draw_list.idx_buffer.data_address(), n_idx * index_dtype().itemsize
            )
            indices.append(np.frombuffer(raw, dtype=index_dtype).astype(np.uint32) + base_vertex)
            first_index.append(base_index)
            base_vertex += n_vtx
            base_index += n_idx
        vertex_bytes = b"".join(vertices)
        index_bytes = np.concatenate(indices).tobytes()
        self._upload(self._vbo, vertex_bytes)
        self._upload(self._ibo, index_bytes)

        ctx = self.ctx
        fb_w, fb_h = self._fb_size
        fbo.use()
        ctx.viewport = (0, 0, fb_w, fb_h)
        ctx.enable_only(moderngl.BLEND)
        ctx.blend_equation = (moderngl.FUNC_ADD, moderngl.FUNC_ADD)
        # separate alpha factors (the stubs only know the 2-tuple form)
        ctx.blend_func = (  # type: ignore[assignment]
            moderngl.SRC_ALPHA,
            moderngl.ONE_MINUS_SRC_ALPHA,
            moderngl.ONE,
            moderngl.ONE_MINUS_SRC_ALPHA,
        )
        ctx.wireframe = False

        left, top = draw_data.display_pos.x, draw_data.display_pos.y
        width, height = draw_data.display_size.x, draw_data.display_size.y
        sx, sy = 2.0 / width, -2.0 / height
        transform = self._program["u_transform"]
        assert isinstance(transform, moderngl.Uniform)
        transform.value = (sx, sy, -1.0 - left * sx, 1.0 - top * sy)
        scale_x, scale_y = fb_w / width, fb_h / height
        self._sampler.use(0)

        calls = 0
        bound = -1
        try:
            for draw_list, start in zip(lists, first_index, strict=True):
                for cmd in draw_list.cmd_buffer:
                    count = int(cmd.elem_count)
                    if count <= 0:
                        continue
                    clip = cmd.clip_rect
                    x0 = max(0.0, (clip.x - left) * scale_x)
                    y0 = max(0.0, (clip.y - top) * scale_y)
                    x1 = min(float(fb_w), (clip.z - left) * scale_x)
                    y1 = min(float(fb_h), (clip.w - top) * scale_y)
                    if x1 <= x0 or y1 <= y0:
                        continue
                    tex_id = int(cmd.tex_ref.get_tex_id())
                    texture = self._textures.get(tex_id)
                    if texture is None:
                        continue  # not one of ours (foreign texture ids are not supported)
                    if tex_id != bound:
                        texture.use(0)
                        bound = tex_id
                    ctx.scissor = (int(x0), int(fb_h - y1), int(x1 - x0 + 0.5), int(y1 - y0 + 0.5))
                    self._vao.render(
                        moderngl.TRIANGLES, vertices=count, first=start + int(cmd.idx_offset)
                    )
                    calls += 1
        finally:
            ctx.scissor = None
            self._sampler.clear(0)
        return calls

    @staticmethod
    def _upload(buffer: moderngl.Buffer, data: bytes) -> None:
        """Write a frame's data, orphaning the old storage (growing it when too small)."""
        size = len(data)
        if size > buffer.size:
            buffer.orphan(max(size, buffer.size * 2))
        else:
            buffer.orphan()
        buffer.write(data)


# ---------------------------------------------------------------------- helpers for panels
_GRAPH_BG = _col32(20, 24, 32, 170)
_GRAPH_BORDER = _col32(90, 100, 120, 160)
_GRAPH_EDGE = _col32(140, 150, 170, 150)
_GRAPH_EDGE_HINT = _col32(80, 220, 255, 230)
_GRAPH_NODE = _col32(105, 120, 150, 255)
_GRAPH_NODE_RIM = _col32(15, 18, 24, 255)
_GRAPH_CURRENT = _col32(255, 200, 40, 255)
_GRAPH_GOAL = _col32(70, 200, 90, 255)
_GRAPH_HIGHLIGHT = _col32(80, 220, 255, 255)
_GRAPH_HOVER = _col32(255, 255, 255, 230)
_GRAPH_LABEL = _col32(200, 205, 215, 220)
_GRAPH_LABEL_BG = _col32(20, 24, 32, 190)


def draw_graph(
    nodes: Sequence[tuple[float, float]],
    edges: Sequence[tuple[int, int]],
    *,
    labels: Sequence[str] = (),
    current: int | None = None,
    goal: Iterable[int] = (),
    highlight: Iterable[int] = (),
    size: tuple[float, float] = (320, 220),
) -> None:
    """Draw a node-link diagram in the current imgui window (call it inside a panel).

    ``nodes`` are positions in 0..1 x 0..1 with (0, 0) at the top-left of a region of ``size``
    pixels reserved at the cursor. The ``current`` node is filled bright yellow, ``goal`` nodes
    green, ``highlight`` nodes (e.g. the optimal next states) get a cyan ring and so does the
    edge to them from the current node. ``labels`` (one per node, may be shorter) are written
    small beside the nodes; hovering a node shows its label as a tooltip.
    """
    imgui = _imgui()
    count = len(nodes)
    for a, b in edges:
        if not (0 <= a < count and 0 <= b < count):
            raise ValueError(f"draw_graph: edge ({a}, {b}) names a node outside 0..{count - 1}")
    if current is not None and not 0 <= current < count:
        raise ValueError(f"draw_graph: current node {current} is outside 0..{count - 1}")
    goals = set(goal)
    hints = set(highlight)

    width, height = float(size[0]), float(size[1])
    origin = imgui.get_cursor_screen_pos()
    ox, oy = origin.x, origin.y
    imgui.dummy((width, height))
    region_hovered = imgui.is_item_hovered()

    radius = max(3.0, min(7.0, min(width, height) / 30.0))
    pad = radius + 5.0
    span_x, span_y = max(width - 2 * pad, 1.0), max(height - 2 * pad, 1.0)
    points = [
        (
            ox + pad + min(max(float(u), 0.0), 1.0) * span_x,
            oy + pad + min(max(float(v), 0.0), 1.0) * span_y,
        )
        for u, v in nodes
    ]

    hovered: int | None = None
    if region_hovered and points:
        mouse = imgui.get_mouse_pos()
        best = (radius + 4.0) ** 2
        for i, (x, y) in enumerate(points):
            d2 = (x - mouse.x) ** 2 + (y - mouse.y) ** 2
            if d2 <= best:
                best, hovered = d2, i

    dl = imgui.get_window_draw_list()
    dl.push_clip_rect((ox, oy), (ox + width, oy + height), True)
    try:
        dl.add_rect_filled((ox, oy), (ox + width, oy + height), _GRAPH_BG, 4.0)
        dl.add_rect((ox, oy), (ox + width, oy + height), _GRAPH_BORDER, 4.0)
        for a, b in edges:
            dl.add_line(points[a], points[b], _GRAPH_EDGE, 1.2)
        if current is not None:
            for a, b in edges:
                other = b if a == current else a if b == current else None
                if other is not None and other in hints:
                    dl.add_line(points[current], points[other], _GRAPH_EDGE_HINT, 2.5)

        font = imgui.get_font()
        font_size = max(imgui.get_font_size() * 0.8, 8.0)
        font_scale = font_size / imgui.get_font_size()
        for i, (x, y) in enumerate(points):
            r = radius * 1.35 if i == current else radius
            fill = _GRAPH_NODE
            if i in goals:
                fill = _GRAPH_GOAL
            if i == current:
                fill = _GRAPH_CURRENT
            dl.add_circle_filled((x, y), r, fill)
            dl.add_circle((x, y), r, _GRAPH_NODE_RIM, 0, 1.0)
            if i == current and i in goals:
                dl.add_circle((x, y), r + 2.5, _GRAPH_GOAL, 0, 2.0)
            if i in hints:
                dl.add_circle((x, y), r + 3.5, _GRAPH_HIGHLIGHT, 0, 2.0)
            if i == hovered:
                dl.add_circle((x, y), r + 6.0, _GRAPH_HOVER, 0, 1.5)
            if i < len(labels) and labels[i]:
                text_w = imgui.calc_text_size(labels[i]).x * font_scale
                tx = x + r + 6.0
                if tx + text_w > ox + width - 2.0:  # no room on the right: write it on the left
                    tx = x - r - 6.0 - text_w
                ty = y - font_size * 0.5
                dl.add_rect_filled(
                    (tx - 1.0, ty), (tx + text_w + 1.0, ty + font_size), _GRAPH_LABEL_BG, 2.0
                )
                dl.add_text(font, font_size, (tx, ty), _GRAPH_LABEL, labels[i])
    finally:
        dl.pop_clip_rect()

    if hovered is not None:
        text = labels[hovered] if hovered < len(labels) and labels[hovered] else f"node {hovered}"
        tags = [
            tag
            for tag, on in (
                ("current", hovered == current),
                ("goal", hovered in goals),
                ("hint", hovered in hints),
            )
            if on
        ]
        imgui.set_tooltip(f"{text}  ({', '.join(tags)})" if tags else text)
