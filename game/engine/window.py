"""Opening pyglet's window, or its headless (EGL) stand-in, with a clear error on no display."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from game.errors import NoDisplayError

if TYPE_CHECKING:
    import moderngl
    import pyglet.window


def _command() -> str:
    """The gamehall command as it was typed (``.venv/bin/gamehall`` is not on PATH)."""
    argv0 = sys.argv[0] if sys.argv else ""
    return argv0 if os.path.basename(argv0) == "gamehall" else "gamehall"


NO_DISPLAY_MESSAGE = (
    f"gamehall: no display found. Run it under a virtual screen with `xvfb-run -a {_command()}"
    " play` (xvfb-run is in the xvfb package), or render a picture with"
    f" `{_command()} shot river --out river.png`."
)


def configure_pyglet(headless: bool) -> None:
    """Set pyglet's options; must run before pyglet.window is imported anywhere."""
    import pyglet

    pyglet.options["headless"] = headless
    pyglet.options["debug_gl"] = False  # we check ctx.error ourselves where it matters
    pyglet.options["shadow_window"] = False


def attach_context() -> moderngl.Context:
    """A ModernGL context for the GL context pyglet made current (GLX or headless EGL).

    ``moderngl.init_context`` loads GL functions from whatever is current; plain
    ``create_context()`` would instead reuse a cached context, or try to detect a GLX one,
    once any earlier context exists in the process.
    """
    import moderngl

    moderngl.init_context()
    return moderngl.get_context()


def has_display() -> bool:
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def open_window(
    size: tuple[int, int],
    *,
    headless: bool,
    title: str = "Gamehall",
    position: tuple[int, int] | None = None,
) -> pyglet.window.Window:
    """Open the game window (resizable) or a hidden headless one of ``size``."""
    if not headless and not has_display():
        raise NoDisplayError(NO_DISPLAY_MESSAGE)
    configure_pyglet(headless)
    import pyglet

    from game.engine.glyphs import use_fast_glyphs

    use_fast_glyphs()  # before any text is drawn
    config = pyglet.gl.Config(  # type: ignore[abstract]  # pyglet picks the platform's Config
        major_version=3, minor_version=3, forward_compatible=True, double_buffer=True, depth_size=24
    )
    try:
        if headless:
            return pyglet.window.Window(size[0], size[1], visible=False, config=config)
        window = pyglet.window.Window(
            size[0], size[1], caption=title, resizable=True, config=config, visible=False
        )
    except Exception as exc:
        # pyglet raises its own NoSuchDisplayException from a platform module (not always the
        # class pyglet.window exports) when DISPLAY names a screen that is not there.
        if "display" in type(exc).__name__.lower():
            raise NoDisplayError(NO_DISPLAY_MESSAGE) from exc
        raise
    except pyglet.window.NoSuchConfigException:
        window = pyglet.window.Window(
            size[0], size[1], caption=title, resizable=True, visible=False
        )
    if position is not None:
        window.set_location(*position)
    window.set_minimum_size(640, 400)
    window.set_visible(True)
    return window
