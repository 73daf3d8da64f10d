"""The debug overlay's frame statistics (:class:`FrameStats`, what the Director measured) and
the section of the overlay that shows them (:func:`frame_statistics`)."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from game.engine.overlay_widgets import col32
from game.engine.stalls import STALL_MS

__all__ = ["STALL_WINDOW_S", "FrameStats", "frame_statistics"]

#: The seconds of frames the overlay's stall line looks back on.
STALL_WINDOW_S = 10


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
    #: Milliseconds each pass of the last frame took on the GPU (3D scene, HUD, overlay).
    pass_ms: Mapping[str, float] = field(default_factory=dict)
    #: The longest frame over 100 ms of the last seconds and what the drawing thread did
    #: meanwhile (:meth:`game.engine.stalls.Stall.describe`); "" when there was none.
    stall: str = ""
    #: Lines about the connection of a game played on a server (none: a local game).
    connection: Sequence[str] = ()


def frame_statistics(imgui: Any, stats: FrameStats) -> None:
    """The overlay's first section: frames a second, the frame-time graph with the 60 FPS
    budget, the passes' times, the last stall and the scene's counts."""
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

    width = max(120.0, float(imgui.get_content_region_avail().x))
    if samples.size:
        # Not np.percentile: its first call imports numpy.ma (0.1 s on the drawing
        # thread, in the frame of the first F3).
        lo, med, hi = (
            float(samples.min()),
            float(statistics.median(stats.frame_ms)),
            float(samples.max()),
        )
        top = max(20.0, hi * 1.15)
        imgui.push_style_color(imgui.Col_.plot_lines, imgui.ImVec4(0.45, 0.85, 0.55, 1.0))
        imgui.text_disabled(f"frame time (ms), last {samples.size} frames")
        imgui.plot_lines(
            "##frame_ms",
            samples,
            scale_min=0.0,
            scale_max=top,
            graph_size=(width, 64.0),
        )
        imgui.pop_style_color()
        _budget_line(imgui, 1000.0 / 60.0, top)
        imgui.text(f"min {lo:.2f}   median {med:.2f}   max {hi:.2f} ms")
    else:
        imgui.dummy((width, 64.0))
    if stats.pass_ms:  # where the frame's time goes
        imgui.text_disabled(
            "GPU: " + "  ".join(f"{name} {ms:.2f} ms" for name, ms in stats.pass_ms.items())
        )
    if stats.stall:  # the frames the window ignored input for, and why
        imgui.text_colored(imgui.ImVec4(1.0, 0.6, 0.35, 1.0), f"Stall: {stats.stall}")
    else:
        imgui.text_disabled(f"No frame over {STALL_MS:.0f} ms in the last {STALL_WINDOW_S} s")
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
    if stats.connection:
        imgui.separator()
        for line in stats.connection:
            imgui.text(line)
    imgui.separator()
    imgui.text_disabled("F3 hides this overlay")


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
        (lo.x + pad.x, y), (hi.x - pad.x, y), col32(120, 220, 120, 110), 1.0
    )
