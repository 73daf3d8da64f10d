"""Text as pixels: a line of text rendered from the HUD's font into a numpy coverage mask,
for pictures a scene draws on its own surfaces (card faces). Needs a GL context (pyglet keeps
its glyphs in textures).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["FONT", "glyphs_of", "text_mask", "text_width", "wrap"]

FONT = ["DejaVu Sans", "Arial", "Helvetica"]

Mask = npt.NDArray[np.float32]


def _font(size: int, bold: bool) -> Any:
    import pyglet

    return pyglet.font.load(FONT, size, weight="bold" if bold else "normal")


def glyphs_of(font: Any, text: str) -> list[Any]:
    """The glyphs pyglet's ``font`` draws ``text`` with, one per character."""
    glyphs = font.get_glyphs(text)
    # pyglet 2.1 returns (glyphs, offsets); older versions the list alone
    if isinstance(glyphs, tuple):
        glyphs = glyphs[0]
    return list(glyphs)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text`` in pixels."""
    return float(sum(g.advance for g in glyphs_of(_font(size, bold), text)))


def text_mask(text: str, size: int, bold: bool = False) -> Mask:
    """``text`` on one line: an (height, width) coverage mask in 0..1, top row first, as tall
    as the font's ascent plus descent."""
    font = _font(size, bold)
    glyphs = glyphs_of(font, text)
    ascent, descent = int(font.ascent), int(font.descent)
    height = max(1, ascent - descent)
    width = max(1, int(np.ceil(sum(g.advance for g in glyphs))) + 2)
    canvas = np.zeros((height, width), dtype=np.float32)
    pen = 1.0
    for glyph in glyphs:
        image = glyph.get_image_data()
        if image.width and image.height:
            raw = np.frombuffer(image.get_data("RGBA", image.width * 4), dtype=np.uint8)
            alpha = raw.reshape(image.height, image.width, 4)[:, :, 3] / 255.0
            x0 = round(pen + glyph.vertices[0])
            top = ascent - round(glyph.vertices[1]) - image.height
            _blit(canvas, alpha.astype(np.float32), top, x0)
        pen += glyph.advance
    return canvas


def wrap(text: str, size: int, width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` pixels where it can be (a single
    word wider than that keeps its own line)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


def _blit(canvas: Mask, alpha: Mask, top: int, left: int) -> None:
    h, w = canvas.shape
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(h, top + alpha.shape[0]), min(w, left + alpha.shape[1])
    if y0 >= y1 or x0 >= x1:
        return
    part = alpha[y0 - top : y1 - top, x0 - left : x1 - left]
    canvas[y0:y1, x0:x1] = np.maximum(canvas[y0:y1, x0:x1], part)
