"""The MasterGrab map's label atlas: digits (regular and bold), a ring and a solid block,
rendered from the HUD's font into one texture that the map's number sprites sample.

Rendering it (twenty glyphs at 40 pixels from FreeType, and the outline grown around them)
took about 0.2 s of the frame the map first showed in. :class:`AtlasPainter` paints it a
cell at a time instead (:meth:`~AtlasPainter.step`), and the window's controller calls
:func:`paint_ahead` once a frame while the first map is being made in a worker, so that the
map's first frame finds the pixels done and only uploads them. The pixels do not depend on
the GL context and are painted once per process; the glyphs need a context current (pyglet
renders them into textures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import moderngl
import numpy as np
import numpy.typing as npt

__all__ = ["Atlas", "AtlasPainter", "make_atlas", "paint_ahead"]

SIZE = 40  # the font size the glyphs are rendered at; a cell's size in em is relative to it
CELL_W, CELL_H = 48, 56
BASELINE = 12
COLUMNS = 8
PAD = 4  # cells apart, so linear filtering and the outline never bleed between them
NAMES = (*(str(d) for d in range(10)), *(f"b{d}" for d in range(10)), "ring", "block")


@dataclass
class Atlas:
    """Glyph cells: uv rectangles and the size of each cell in em (1 em = the font size)."""

    texture: moderngl.Texture
    uv: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    size: dict[str, tuple[float, float]] = field(default_factory=dict)  # width, height in em
    advance: float = 0.6  # a digit's advance in em


class AtlasPainter:
    """The atlas's pixels, painted a step at a time: a cell each, then the outline grown
    around them all. :meth:`pixels` finishes what is left and returns them."""

    def __init__(self) -> None:
        rows = math.ceil(len(NAMES) / COLUMNS)
        self.width, self.height = COLUMNS * (CELL_W + PAD), rows * (CELL_H + PAD)
        self.cover = np.zeros((self.height, self.width), dtype=np.float32)  # rows bottom up
        self.advance = 0.6
        self.places: dict[str, tuple[int, int]] = {}
        self._next = 0  # the next cell to paint; len(NAMES): the outline is next
        self._pixels: npt.NDArray[np.uint8] | None = None

    @property
    def done(self) -> bool:
        return self._pixels is not None

    def step(self) -> bool:
        """Paint the next cell (or, after the last, grow the outline); whether any is left."""
        if self._pixels is not None:
            return False
        if self._next < len(NAMES):
            self._paint(NAMES[self._next])
            self._next += 1
            return True
        self._pixels = _with_outline(self.cover)
        return False

    def pixels(self) -> npt.NDArray[np.uint8]:
        """The atlas's pixels (height, width, 2: coverage and outline), painted to the end."""
        while self.step():
            pass
        assert self._pixels is not None
        return self._pixels

    def _paint(self, name: str) -> None:
        import pyglet

        from game.engine.glyphs import FONT, glyphs_of

        r, c = divmod(NAMES.index(name), COLUMNS)
        x0, y0 = c * (CELL_W + PAD) + PAD // 2, r * (CELL_H + PAD) + PAD // 2
        self.places[name] = (x0, y0)
        block = self.cover[y0 : y0 + CELL_H, x0 : x0 + CELL_W]
        if name == "ring":
            yy, xx = np.mgrid[0:CELL_H, 0:CELL_W]
            d = np.hypot(xx - CELL_W / 2 + 0.5, yy - CELL_H / 2 + 0.5)
            block[:] = np.clip(1.0 - np.abs(d - 19.0) / 3.0, 0.0, 1.0)
            return
        if name == "block":
            block[3:-3, 3:-3] = 1.0
            return
        font = pyglet.font.load(FONT, SIZE, weight="bold" if name.startswith("b") else "normal")
        glyph = glyphs_of(font, name[-1])[0]
        image = glyph.get_image_data()
        raw = np.frombuffer(image.get_data("RGBA", image.width * 4), dtype=np.uint8)
        # pyglet hands the rows top first; the atlas, like GL, keeps them bottom first.
        alpha = raw.reshape(image.height, image.width, 4)[::-1, :, 3] / 255.0
        gx0 = round((CELL_W - glyph.advance) / 2 + glyph.vertices[0])
        gy0 = BASELINE + int(glyph.vertices[1])
        h = min(image.height, CELL_H - max(gy0, 0))
        w = min(image.width, CELL_W - max(gx0, 0))
        block[max(gy0, 0) : max(gy0, 0) + h, max(gx0, 0) : max(gx0, 0) + w] = alpha[:h, :w]
        self.advance = glyph.advance / SIZE


#: The process's painter: the pixels are painted once, ahead where the window lets them.
_AHEAD = AtlasPainter()


def paint_ahead() -> bool:
    """A step of the atlas painted ahead (see the module docstring); whether any is left.
    Needs a GL context current."""
    return _AHEAD.step()


def make_atlas(ctx: moderngl.Context) -> Atlas:
    """The atlas as a texture of ``ctx``: the pixels painted ahead (what is left of them
    painted now), uploaded."""
    painter = _AHEAD
    pixels = painter.pixels()
    texture = ctx.texture((painter.width, painter.height), 2, pixels.tobytes())
    texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
    atlas = Atlas(texture, advance=painter.advance)
    for name, (x0, y0) in painter.places.items():
        atlas.uv[name] = (
            x0 / painter.width,
            y0 / painter.height,
            (x0 + CELL_W) / painter.width,
            (y0 + CELL_H) / painter.height,
        )
        atlas.size[name] = (CELL_W / SIZE, CELL_H / SIZE)
    return atlas


def _with_outline(cover: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """The coverage and, as a second channel, the coverage grown by three pixels (the dark
    outline that keeps a number readable on every colour of land)."""
    grown = cover.copy()
    for dy in range(-3, 4):
        for dx in range(-3, 4):
            if dx * dx + dy * dy <= 10:
                grown = np.maximum(grown, np.roll(np.roll(cover, dy, axis=0), dx, axis=1))
    pixels = np.stack([cover, grown], axis=-1)
    return (pixels * 255).astype(np.uint8)
