"""The F3 debug overlay: imgui-bundle UI through our own ModernGL renderer (headless pyglet)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.engine.overlay import DebugOverlay, FrameStats, draw_graph
from game.engine.window import attach_context
from tests.waiting import HANG_S

W, H = 640, 480
BACKGROUND = (0.2, 0.4, 0.6, 1.0)
STATS = FrameStats(
    frame_ms=[16.0 + (i % 7) * 0.5 for i in range(240)],
    fps=60.0,
    draw_calls=12,
    triangles=3456,
    nodes=20,
    running_tweens=2,
    scene="TestScene",
)


class GL:
    def __init__(self, window: Any, ctx: Any, fbo: Any) -> None:
        self.window, self.ctx, self.fbo = window, ctx, fbo

    def framebuffer(self, width: int, height: int) -> Any:
        ctx = self.ctx
        return ctx.framebuffer(
            [ctx.renderbuffer((width, height), 4)], ctx.depth_renderbuffer((width, height))
        )

    def changed_pixels(self, fbo: Any | None = None) -> int:
        fbo = fbo or self.fbo
        w, h = fbo.size
        img = np.frombuffer(fbo.read(components=4), np.uint8).reshape(h, w, 4).astype(int)
        bg = np.round(np.array(BACKGROUND) * 255).astype(int)
        return int(np.any(np.abs(img - bg) > 2, axis=2).sum())


@pytest.fixture(scope="module")
def gl() -> Iterator[GL]:
    import pyglet

    pyglet.options["headless"] = True
    import pyglet.window

    window = pyglet.window.Window(W, H, visible=False)
    window.switch_to()
    ctx = attach_context()
    fbo = ctx.framebuffer([ctx.renderbuffer((W, H), 4)], ctx.depth_renderbuffer((W, H)))
    yield GL(window, ctx, fbo)
    fbo.release()
    window.close()


@pytest.fixture
def overlay(gl: GL) -> Iterator[DebugOverlay]:
    gl.window.switch_to()
    assert gl.ctx.error == "GL_NO_ERROR"
    ov = DebugOverlay(gl.ctx)
    yield ov
    ov.release()
    assert gl.ctx.error == "GL_NO_ERROR"


def frame(
    gl: GL, ov: DebugOverlay, panel: Callable[[], None] | None = None, fbo: Any = None
) -> int:
    fbo = fbo or gl.fbo
    fbo.use()
    gl.ctx.clear(*BACKGROUND)
    calls = ov.draw(fbo, (W, H), STATS, panel, "Test panel", 1 / 60)
    assert gl.ctx.error == "GL_NO_ERROR"
    return calls


@pytest.mark.gl
def test_draw_changes_pixels_and_counts_draw_calls(gl: GL, overlay: DebugOverlay) -> None:
    assert overlay.toggle() is True
    calls = frame(gl, overlay)
    assert calls > 0
    assert gl.changed_pixels() > 5000
    assert gl.ctx.scissor is None or tuple(gl.ctx.scissor) == (0, 0, W, H)


@pytest.mark.gl
def test_hidden_overlay_draws_and_consumes_nothing(gl: GL, overlay: DebugOverlay) -> None:
    assert overlay.visible is False
    assert frame(gl, overlay) == 0
    assert gl.changed_pixels() == 0
    overlay.on_mouse_motion(40, H - 40)
    assert overlay.on_mouse_press(40, H - 40, 1) is False
    assert overlay.on_mouse_release(40, H - 40, 1) is False
    assert overlay.on_mouse_scroll(40, H - 40, 1.0) is False
    assert overlay.wants_mouse() is False
    assert overlay.wants_keyboard() is False
    # shown, drawn once, hidden again: consumes nothing any more
    overlay.toggle()
    frame(gl, overlay)
    assert overlay.toggle() is False
    overlay.on_mouse_motion(40, H - 40)
    assert overlay.wants_mouse() is False
    assert overlay.on_mouse_press(40, H - 40, 1) is False


@pytest.mark.gl
def test_mouse_over_debug_window_is_captured(gl: GL, overlay: DebugOverlay) -> None:
    overlay.toggle()
    frame(gl, overlay)
    # the debug column fills the left edge: a point in its margin, clear of its buttons
    overlay.on_mouse_motion(4, H - 200)
    assert overlay.wants_mouse() is True
    assert overlay.on_mouse_press(4, H - 200, 1) is True
    frame(gl, overlay)
    assert overlay.wants_mouse() is True
    assert overlay.on_mouse_release(4, H - 200, 1) is True
    frame(gl, overlay)
    assert overlay.on_mouse_scroll(4, H - 200, -1.0) is True
    # bottom-right corner: no overlay window there
    overlay.on_mouse_motion(W - 5, 5)
    assert overlay.wants_mouse() is False
    assert overlay.on_mouse_press(W - 5, 5, 1) is False
    assert overlay.on_mouse_release(W - 5, 5, 1) is False
    assert overlay.on_mouse_scroll(W - 5, 5, 1.0) is False
    frame(gl, overlay)
    assert overlay.wants_mouse() is False


@pytest.mark.gl
def test_panel_button_receives_clicks(gl: GL, overlay: DebugOverlay) -> None:
    from imgui_bundle import imgui

    seen: dict[str, Any] = {"calls": 0, "clicks": 0, "rect": None}

    def panel() -> None:
        seen["calls"] += 1
        imgui.text("panel text")
        if imgui.button("Press me"):
            seen["clicks"] += 1
        lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        seen["rect"] = (lo.x, lo.y, hi.x, hi.y)

    overlay.toggle()
    frame(gl, overlay, panel)
    assert seen["calls"] >= 1
    assert overlay.panel_error is None
    x0, y0, x1, y1 = seen["rect"]
    assert x1 > x0 and y1 > y0
    # imgui coordinates (top-left origin) -> pyglet window coordinates (bottom-left origin)
    px, py = (x0 + x1) / 2, H - (y0 + y1) / 2
    overlay.on_mouse_motion(px, py)
    frame(gl, overlay, panel)
    assert overlay.wants_mouse() is True
    assert overlay.on_mouse_press(px, py, 1) is True
    frame(gl, overlay, panel)
    assert seen["clicks"] == 0
    assert overlay.on_mouse_release(px, py, 1) is True
    frame(gl, overlay, panel)
    assert seen["clicks"] == 1
    frame(gl, overlay, panel)
    assert seen["clicks"] == 1


@pytest.mark.gl
def test_draw_graph_in_panel(gl: GL, overlay: DebugOverlay) -> None:
    nodes = [((i % 4) / 3, (i // 4) / 3) for i in range(16)]
    edges = [(i, i + 1) for i in range(16) if i % 4 != 3] + [(i, i + 4) for i in range(12)]
    labels = [f"s{i}" for i in range(16)]

    def panel() -> None:
        draw_graph(nodes, edges, labels=labels, current=5, goal=[15], highlight=[6, 9])

    overlay.toggle()
    without = frame(gl, overlay)
    with_graph = frame(gl, overlay, panel)
    assert overlay.panel_error is None
    assert with_graph >= without
    # hover a node: the tooltip path runs too
    x, y = W - 150, H - 120
    overlay.on_mouse_motion(x, y)
    frame(gl, overlay, panel)
    frame(gl, overlay, panel)
    assert overlay.panel_error is None

    def bad_panel() -> None:
        draw_graph(nodes, [(0, 99)])

    frame(gl, overlay, bad_panel)
    assert overlay.panel_error is not None and "99" in overlay.panel_error


@pytest.mark.gl
def test_panel_text_has_every_glyph_it_uses(gl: GL, overlay: DebugOverlay) -> None:
    """Arrows, dashes, the ellipsis and the notebook's marks the controllers write are
    drawn, not shown as "?"."""
    from imgui_bundle import imgui

    text = "Robot1 vs Robot2: wins 7 3→5 from 4→1, 6−2 – thinking… ✓ ·"
    missing: list[str] = []

    def panel() -> None:
        imgui.text(text)
        font = imgui.get_font()
        missing.extend(c for c in sorted(set(text)) if not font.is_glyph_in_font(ord(c)))

    overlay.toggle()
    frame(gl, overlay, panel)
    assert overlay.panel_error is None
    assert missing == []


@pytest.mark.gl
def test_failing_panel_is_contained(gl: GL, overlay: DebugOverlay) -> None:
    from imgui_bundle import imgui

    def panel() -> None:
        imgui.push_style_color(imgui.Col_.text, imgui.ImVec4(1, 0, 0, 1))
        imgui.begin_child("unfinished", (80, 40))
        raise RuntimeError("panel bug")

    overlay.toggle()
    assert frame(gl, overlay, panel) > 0
    assert overlay.panel_error == "RuntimeError: panel bug"
    assert frame(gl, overlay) > 0
    assert overlay.panel_error is None


@pytest.mark.gl
def test_hidpi_framebuffer(gl: GL, overlay: DebugOverlay) -> None:
    overlay.toggle()
    frame(gl, overlay)
    small = gl.changed_pixels()
    big_fbo = gl.framebuffer(2 * W, 2 * H)
    try:
        frame(gl, overlay, fbo=big_fbo)
        big = gl.changed_pixels(big_fbo)
    finally:
        big_fbo.release()
    assert 3.0 < big / small < 5.0
    # input stays in window units
    overlay.on_mouse_motion(40, H - 40)
    assert overlay.wants_mouse() is True


@pytest.mark.gl
def test_release_leaves_no_gl_error_and_can_redraw(gl: GL, overlay: DebugOverlay) -> None:
    overlay.toggle()
    frame(gl, overlay)
    overlay.release()
    assert gl.ctx.error == "GL_NO_ERROR"
    assert overlay.wants_mouse() is False
    assert frame(gl, overlay) > 0  # lazily recreated
    overlay.release()
    overlay.release()  # twice is harmless
    assert gl.ctx.error == "GL_NO_ERROR"


def test_import_does_not_load_imgui_bundle() -> None:
    root = Path(__file__).resolve().parent.parent
    code = "import sys, game.engine.overlay; assert 'imgui_bundle' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True, timeout=HANG_S)


# -- docking --------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(640, 400), (800, 600), (1280, 720), (1920, 1080), (3840, 2160)])
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("scale", [1.0, 2.7, 4.0])
@pytest.mark.parametrize("needed", [0.0, 330.0, 5000.0])
def test_the_docked_column_is_flush_with_its_edge_and_leaves_the_game_the_rest(
    size, side, scale, needed
):
    overlay = DebugOverlay(None)  # type: ignore[arg-type]  # no GL needed to place it
    overlay.set_side(side)
    overlay.scale = scale
    overlay._needed = needed  # what the contents asked for (measured as frames are built)
    x, y, w, h = overlay.dock_rect(size)
    assert (x == 0) == (side == "left") and (x + w == size[0]) == (side == "right")
    assert y == 0 and h == size[1], "as tall as the window"
    assert w <= size[0] * 0.34 + 0.5, "at most a third of the width: the game keeps the rest"
    if needed == 330.0:
        assert w >= min(needed, size[0] * 0.34 - 0.5), "wide enough for its contents"
    assert overlay.area(size) == (0, 0, size[0], size[1]), "hidden: the game has it all"
    overlay.visible = True
    ax, ay, aw, ah = overlay.area(size)
    assert (ay, ah) == (0, size[1]) and aw == size[0] - w
    assert ax == (w if side == "left" else 0), "the game's part lies beside the column"
    assert overlay.rect(size) == (x, 0, w, size[1])
    overlay.collapsed = True
    _x, by, _w, bh = overlay.rect(size)
    assert by + bh == size[1] and 10 < bh < 80, "folded: the title bar at the top"
    assert overlay.area(size) == (0, 0, size[0], size[1] - bh), "the game under its band"


def test_the_overlay_docks_only_left_or_right() -> None:
    overlay = DebugOverlay(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'top'"):
        overlay.set_side("top")
    assert overlay.side == "left"


@pytest.mark.gl
def test_dock_button_and_collapse_arrow_change_the_overlay_and_tell(
    gl: GL, overlay: DebugOverlay
) -> None:
    changes: list[tuple[str, bool]] = []
    overlay.on_change = lambda: changes.append((overlay.side, overlay.collapsed))
    overlay.toggle()
    frame(gl, overlay)
    frame(gl, overlay)
    (x0, y0, x1, y1), *_ = overlay._rects
    assert x0 == 0 and x1 < W / 2 and y1 - y0 == H, "a full-height column at the left"

    def click(px: float, py: float) -> None:  # imgui coordinates
        overlay.on_mouse_motion(px, H - py)
        frame(gl, overlay)
        overlay.on_mouse_press(px, H - py, 1)
        frame(gl, overlay)
        overlay.on_mouse_release(px, H - py, 1)
        frame(gl, overlay)
        frame(gl, overlay)

    # "Dock right" is the first item under the title bar.
    click(x0 + 30, y0 + 32)
    assert overlay.side == "right" and changes[-1] == ("right", False)
    (x0, y0, x1, y1), *_ = overlay._rects
    assert x0 > W / 2, "the column moved to the right edge"
    # The arrow at the left of the title bar folds it to its title bar.
    click(x0 + 12, y0 + 9)
    assert overlay.collapsed and changes[-1] == ("right", True)
    (x0, y0, x1, y1), *_ = overlay._rects
    assert y1 - y0 < 40
    assert overlay.area((W, H)) == (0.0, 0.0, W, H - (y1 - y0)), "the game under the bar"
