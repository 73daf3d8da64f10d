"""The picture of ``gamehall rules analyse``: how long the games lasted and who won them.

The left half is a histogram of the finished games' lengths in plies, its mean marked; the
right half a bar per seat (and one for draws) with the rate and its 95% interval drawn as a
whisker. Drawn with numpy into an image; the words are the HUD's font, rendered through a
hidden headless window (pyglet keeps glyphs in textures).
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from game.logic.analyse import Analysis

__all__ = ["SIZE", "draw", "write_chart"]

SIZE: Final = (1000, 560)
PAPER: Final = (246, 243, 236)
INK: Final = (40, 38, 36)
GRID: Final = (214, 208, 198)
BARS: Final = ((70, 110, 170), (190, 90, 60), (110, 150, 80), (150, 110, 170), (200, 160, 60))
DRAW: Final = (140, 140, 140)

Image = npt.NDArray[np.uint8]


def _box(img: Image, x0: float, y0: float, x1: float, y1: float, colour: tuple[int, ...]) -> None:
    h, w = img.shape[:2]
    a, b = max(0, round(min(x0, x1))), min(w, round(max(x0, x1)))
    c, d = max(0, round(min(y0, y1))), min(h, round(max(y0, y1)))
    if a < b and c < d:
        img[c:d, a:b] = colour


def _text(
    img: Image,
    text: str,
    x: float,
    y: float,
    size: int = 16,
    *,
    bold: bool = False,
    anchor: str = "left",
) -> None:
    """``text`` with its top at ``y``; ``x`` is its left edge, centre or right edge."""
    from game.engine.glyphs import text_mask

    mask = text_mask(text, size, bold)
    mh, mw = mask.shape
    left = round(x - (mw / 2 if anchor == "centre" else mw if anchor == "right" else 0))
    top = round(y)
    h, w = img.shape[:2]
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(h, top + mh), min(w, left + mw)
    if y0 >= y1 or x0 >= x1:
        return
    alpha = mask[y0 - top : y1 - top, x0 - left : x1 - left, None]
    part = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (part * (1 - alpha) + np.array(INK, np.float32) * alpha).astype(np.uint8)


def _histogram(img: Image, analysis: Analysis, x0: int, y0: int, x1: int, y1: int) -> None:
    lengths = analysis.lengths
    _text(img, "Game length (plies)", (x0 + x1) / 2, y0 - 34, 17, bold=True, anchor="centre")
    _box(img, x0, y1, x1, y1 + 2, INK)
    if not lengths:
        _text(img, "no game finished", (x0 + x1) / 2, (y0 + y1) / 2, anchor="centre")
        return
    low, high = min(lengths), max(lengths)
    bins = max(1, min(24, high - low + 1))
    counts, _edges = np.histogram(lengths, bins=bins, range=(low, high + 1))
    top = int(counts.max())
    width = (x1 - x0) / bins
    for i, count in enumerate(counts):
        bar_top = y1 - (y1 - y0) * count / top
        _box(img, x0 + i * width + 1, bar_top, x0 + (i + 1) * width - 1, y1, BARS[0])
    for value in sorted({top // 2, top} - {0}):
        y = y1 - (y1 - y0) * value / top
        _box(img, x0 - 6, y, x0, y + 1, INK)
        _text(img, str(value), x0 - 10, y - 9, 13, anchor="right")
    _text(img, "games", x0 - 10, y0 - 30, 13, anchor="right")
    ticks = sorted({low, (low + high + 1) // 2, high + 1})
    for value in ticks:
        where = x0 + (value - low) / (high + 1 - low) * (x1 - x0)
        _box(img, where, y1, where + 1, y1 + 6, INK)
        _text(img, str(value), where, y1 + 8, 14, anchor="centre")
    mean = statistics.fmean(lengths)
    x = x0 + (mean - low) / (high + 1 - low) * (x1 - x0)
    _box(img, x - 1, y0, x + 1, y1, BARS[1])
    _text(img, f"mean {mean:.1f}", x + 4, y0, 14)


def _rates(img: Image, analysis: Analysis, x0: int, y0: int, x1: int, y1: int) -> None:
    _text(img, "Results (95% interval)", (x0 + x1) / 2, y0 - 34, 17, bold=True, anchor="centre")
    rows = [
        (f"{name} wins", analysis.wins(s), BARS[s % len(BARS)])
        for s, name in enumerate(analysis.seats)
    ]
    rows.append(("draws", analysis.draws, DRAW))
    label_w = 130
    left, right = x0 + label_w, x1 - 60
    for fraction in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = left + (right - left) * fraction
        _box(img, x, y0, x + 1, y1, GRID)
        _text(img, f"{fraction:.0%}", x, y1 + 8, 13, anchor="centre")
    step = (y1 - y0) / len(rows)
    for i, (label, count, colour) in enumerate(rows):
        rate, low, high = analysis.rate(count)
        top, bottom = y0 + i * step + step * 0.2, y0 + (i + 1) * step - step * 0.2
        _text(img, label, left - 10, (top + bottom) / 2 - 10, 15, anchor="right")
        _box(img, left, top, left + (right - left) * rate, bottom, colour)
        middle = (top + bottom) / 2
        _box(
            img,
            left + (right - left) * low,
            middle - 1,
            left + (right - left) * high,
            middle + 1,
            INK,
        )
        for end in (low, high):
            _box(
                img,
                left + (right - left) * end - 1,
                middle - 7,
                left + (right - left) * end + 1,
                middle + 7,
                INK,
            )
        _text(img, f"{rate:.1%}", right + 6, middle - 10, 14)


def draw(analysis: Analysis, size: tuple[int, int] = SIZE) -> Image:
    """The picture as an (height, width, 3) image. Needs a GL context (the font)."""
    w, h = size
    img = np.empty((h, w, 3), dtype=np.uint8)
    img[:] = PAPER
    games = len(analysis.games)
    _text(
        img,
        f"{analysis.game_id}: {games} games, {' v '.join(analysis.agents)}",
        w / 2,
        14,
        20,
        bold=True,
        anchor="centre",
    )
    _text(
        img,
        f"branching factor {analysis.branching:.1f} legal moves a decision",
        w / 2,
        44,
        15,
        anchor="centre",
    )
    top, bottom = 130, h - 60
    _histogram(img, analysis, 70, top, w // 2 - 30, bottom)
    _rates(img, analysis, w // 2 + 10, top, w - 20, bottom)
    return img


def write_chart(analysis: Analysis, path: str | Path, size: tuple[int, int] = SIZE) -> Path:
    """Draw the picture and write it as a PNG; a hidden headless window lends the font its
    GL context."""
    from game.engine.png import write_png
    from game.engine.window import configure_pyglet

    configure_pyglet(headless=True)
    import pyglet

    window: Any = pyglet.window.Window(width=16, height=16, visible=False)
    try:
        return write_png(path, draw(analysis, size))
    finally:
        window.close()
