"""The debug overlay's dealings with Dear ImGui's context: making one set up for the overlay
(:func:`create_context`: style, fonts), calling a controller's panel in it without letting a
failure take the overlay down (:func:`call_panel`), and the rectangles of the windows it showed
(:func:`window_rects`: what takes the mouse)."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import moderngl

from game.engine.imgui_renderer import imgui_module

__all__ = ["FONT_SIZE", "FRAME_PADDING", "call_panel", "create_context", "window_rects"]

log = logging.getLogger("game.engine.overlay")  # the overlay's log, as before the split

#: The overlay's text size (window units, before its scale).
FONT_SIZE = 15.0
FRAME_PADDING = (4.0, 3.0)  # imgui's style (window units): the title bar's margins
#: The default font covers ASCII and Latin-1 only; this font, shipped with imgui-bundle, is merged
#: into it so the arrows, dashes and ellipsis the panels write are drawn instead of "?".
_FALLBACK_FONT = Path("assets", "fonts", "Inconsolata-Medium.ttf")


def create_context(ctx: moderngl.Context) -> Any:
    """A new imgui context set up for the overlay (no ini file, textures made by our renderer
    up to the GL context's largest, the fonts, the overlay's style); the current context is
    left as it was."""
    imgui = imgui_module()
    previous = imgui.get_current_context()
    context = imgui.create_context()
    imgui.set_current_context(context)
    try:
        io = imgui.get_io()
        io.set_ini_filename(None)  # no imgui.ini in the working directory
        io.backend_flags |= imgui.BackendFlags_.renderer_has_textures
        io.config_windows_move_from_title_bar_only = True  # drags in a panel stay there
        max_size = int(ctx.info["GL_MAX_TEXTURE_SIZE"])
        platform_io = imgui.get_platform_io()
        platform_io.renderer_texture_max_width = max_size
        platform_io.renderer_texture_max_height = max_size
        _load_fonts(imgui)
        imgui.style_colors_dark()
        style = imgui.get_style()
        style.font_size_base = FONT_SIZE
        style.frame_rounding = 3.0
        style.window_padding = (10.0, 8.0)
        style.item_spacing = (8.0, 5.0)
        style.frame_padding = FRAME_PADDING
        style.window_border_size = 0.0  # flush with the window's edge
        style.window_rounding = 0.0
    finally:
        if previous is not None:
            imgui.set_current_context(previous)
    return context


def call_panel(imgui: Any, panel: Callable[[], None], logged: set[str]) -> str | None:
    """Run the controller's panel; an exception it raises is shown and logged (once a
    message: ``logged`` holds those logged), not fatal. Returns its message, or None."""
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
        if message not in logged:
            logged.add(message)
            log.exception("debug overlay panel failed")
        imgui.text_colored(imgui.ImVec4(1.0, 0.4, 0.35, 1.0), f"panel failed: {message}")
        return message
    return None


def window_rects(imgui: Any) -> list[tuple[float, float, float, float]]:
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


def _load_fonts(imgui: Any) -> None:
    """The default font, with the fallback font merged in for the glyphs it lacks.

    Dear ImGui 1.92 loads glyphs on demand, so merging costs nothing until a panel writes a
    character outside ASCII.
    """
    import imgui_bundle

    fonts = imgui.get_io().fonts
    fonts.add_font_default_vector()
    path = Path(imgui_bundle.__file__).parent / _FALLBACK_FONT
    if not path.is_file():
        log.warning("debug overlay: %s is missing; characters outside ASCII show as '?'", path)
        return
    config = imgui.ImFontConfig()
    config.merge_mode = True
    fonts.add_font_from_file_ttf(str(path), 0.0, config)
