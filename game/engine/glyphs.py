"""Text as pixels: a line of text rendered from the HUD's font into a numpy coverage mask,
for pictures a scene draws on its own surfaces (card faces). Needs a GL context (pyglet keeps
its glyphs in textures).

:func:`use_fast_glyphs` makes pyglet's FreeType fonts (Linux, BSD) turn each new glyph's
coverage into the texture's pixels with numpy instead of pyglet's own loop over every byte
in Python: a glyph at 20 pixels took about a millisecond there, one at 70 pixels six, on the
drawing thread, so a HUD that laid its text out at a new size (or a card face in large
letters) held up a frame for a large fraction of a second. Each glyph it renders keeps its
coverage (``glyph.coverage``), which :func:`text_mask` reads instead of reading the glyph
back from its texture.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "AHEAD",
    "FONT",
    "GlyphsAhead",
    "glyphs_of",
    "label_width",
    "text_mask",
    "text_width",
    "use_fast_glyphs",
    "wrap",
]

FONT = ["DejaVu Sans", "Arial", "Helvetica"]

Mask = npt.NDArray[np.float32]


def use_fast_glyphs() -> bool:
    """Render the glyphs of pyglet's FreeType fonts with numpy (see the module docstring);
    False where pyglet does not use FreeType (Windows and macOS draw glyphs with the
    system's own renderer, which has no such loop). Call it before text is drawn; fonts
    loaded before keep their renderer for the glyphs they have not rendered yet."""
    try:
        from pyglet.font import freetype
    except Exception:  # not a FreeType platform (or no FreeType library): nothing to do
        return False
    base = freetype.FreeTypeGlyphRenderer
    if not issubclass(freetype.FreeTypeFont.glyph_renderer_class, base):
        return False
    if getattr(freetype.FreeTypeFont.glyph_renderer_class, "fast", False):
        return True

    class FastGlyphRenderer(base):  # type: ignore[misc, valid-type]
        """pyglet's FreeType glyph renderer, its coverage expanded with numpy."""

        fast = True
        _coverage: Any = None

        def _expand_to_rgba(self, data: Any, src_format: str, dst_format: str) -> bytes:
            if (src_format, dst_format) != ("R", "BGRA"):
                return bytes(super()._expand_to_rgba(data, src_format, dst_format))
            coverage = np.frombuffer(data, dtype=np.uint8)
            pixels = np.full((coverage.size, 4), 255, dtype=np.uint8)
            pixels[:, 3] = coverage
            self._coverage = coverage
            return pixels.tobytes()

        def _create_glyph(self) -> Any:
            self._coverage = None
            glyph = super()._create_glyph()
            coverage = self._coverage
            width, height = self._width, self._height
            stride = self._pitch if self._pitch > 0 else width
            if coverage is not None and width and height and coverage.size >= stride * height:
                # As the texture holds them (rows of ``pitch`` bytes), top row first.
                rows = coverage[: stride * height].reshape(height, stride)[:, :width]
                glyph.coverage = rows.astype(np.float32) / 255.0
            return glyph

    freetype.FreeTypeFont.glyph_renderer_class = FastGlyphRenderer
    return True


#: The characters :class:`GlyphsAhead` renders for each font in use: what the games' texts are
#: mostly made of.
AHEAD = "".join(chr(c) for c in range(32, 127)) + "·–—’…×°±"


class GlyphsAhead:
    """Renders ahead, a few at a time, the glyphs of :data:`AHEAD` in every font the window's
    texts use (pyglet renders a glyph the first time a text shows it: a new game's first frame
    rendered its labels' letters, a new size all of them, and stalled). Each :meth:`run` is a
    step of the frame it is called in; a font whose glyphs are all there costs nothing more.
    It keeps the fonts it has rendered: pyglet keeps a font only while a text uses it (and the
    last three loaded), so a size that came back (the HUD measures its buttons' texts at their
    sizes) rendered its glyphs again. Needs the window's GL context current (the glyphs go into
    textures)."""

    #: Glyphs rendered in one step.
    STEP = 6

    def __init__(self, chars: str = AHEAD) -> None:
        self.chars = chars
        self._done: dict[int, Any] = {}  # by id: the fonts whose glyphs are all rendered

    def run(self, seconds: float) -> int:
        """Render glyphs still missing for about ``seconds`` (at least one step when any is
        missing); how many it rendered."""
        rendered = 0
        ends = time.perf_counter() + seconds
        for font in self.fonts():
            if id(font) in self._done:
                continue
            missing = [c for c in self.chars if c not in font.glyphs]
            while missing:
                font.get_glyphs("".join(missing[: self.STEP]))
                rendered += len(missing[: self.STEP])
                missing = missing[self.STEP :]
                if time.perf_counter() >= ends:
                    return rendered
            self._done[id(font)] = font
        return rendered

    @staticmethod
    def fonts() -> list[Any]:
        """The fonts the current GL context's texts use (pyglet's cache of them)."""
        from pyglet import gl

        space = gl.current_context.object_space if gl.current_context else None
        cache = getattr(space, "pyglet_font_font_cache", None)
        return list(cache.values()) if cache is not None else []


def _font(size: float, bold: bool) -> Any:
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


def label_width(text: str, size: float, bold: bool = False) -> int:
    """The ``content_width`` a one-line pyglet ``Label`` of ``text`` at ``size`` would have,
    without laying a label out: its glyphs' advances, each rounded as pyglet's layout rounds
    them. A label laid out again costs a millisecond or more (its vertex lists made anew); a
    panel that tries sizes until its text fits measures with this, then styles its labels
    once. A glyph not rendered yet is measured from FreeType's metrics alone (no bitmap, no
    texture): a sheet trying three sizes in two weights rendered some three hundred glyphs
    it never drew, 0.3-1 s of its frame on a busy machine."""
    font = _font(size, bold)
    widths = _advances(font)
    if widths is None:  # not FreeType, or shaped by HarfBuzz: the glyphs themselves
        glyphs = font.get_glyphs(text)
        if not isinstance(glyphs, tuple):  # older pyglet: the glyphs alone, no offsets
            return sum(round(g.advance) for g in glyphs)
        return sum(
            round(g.advance + o.x_advance) for g, o in zip(glyphs[0], glyphs[1], strict=True)
        )
    total = 0
    for char in text:
        if char == "\t":
            char = " "  # pyglet draws a tab as a space
        advance = widths.get(char)
        if advance is None:
            advance = widths[char] = _advance(font, char)
        total += advance
    return total


def _advances(font: Any) -> dict[str, int] | None:
    """The advances measured for ``font``'s characters (kept on the font), or None where
    they cannot be measured apart from rendering."""
    measured: dict[str, int] | None = getattr(font, "gamehall_advances", None)
    if measured is not None:
        return measured
    import pyglet

    if pyglet.options.text_shaping == "harfbuzz" or not hasattr(font, "face"):
        return None
    try:
        from pyglet.font import freetype_lib
    except Exception:  # not FreeType
        return None
    if not hasattr(freetype_lib, "FT_Load_Char"):
        return None
    measured = {}
    font.gamehall_advances = measured
    return measured


def _advance(font: Any, char: str) -> int:
    """The advance pyglet's FreeType font gives ``char``'s glyph, in whole pixels."""
    glyph = font.glyphs.get(char)
    if glyph is None and font.face.get_character_index(char) != 0:
        from pyglet.font import freetype_lib

        face = font.face
        face.set_char_size(font.size, font.dpi)
        freetype_lib.FT_Load_Char(face.ft_face, ord(char), freetype_lib.FT_LOAD_NO_BITMAP)
        # As pyglet's renderer: int() of the 26.6 fixed-point advance.
        return int(face.ft_face.contents.glyph.contents.advance.x / 64.0)
    if glyph is None:  # a fallback font's glyph: rendered, as the label will
        glyph = font.get_glyphs(char)
        glyph = glyph[0][0] if isinstance(glyph, tuple) else glyph[0]
    advance: int = round(glyph.advance)
    return advance


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
        alpha = _coverage(glyph)
        if alpha.size:
            x0 = round(pen + glyph.vertices[0])
            top = ascent - round(glyph.vertices[1]) - alpha.shape[0]
            _blit(canvas, alpha, top, x0)
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


def _coverage(glyph: Any) -> Mask:
    """A glyph's coverage, top row first: what the fast renderer kept, else read back from
    the glyph's texture."""
    kept = getattr(glyph, "coverage", None)
    if kept is not None:
        return np.asarray(kept, dtype=np.float32)
    image = glyph.get_image_data()
    if not (image.width and image.height):
        return np.zeros((0, 0), dtype=np.float32)
    raw = np.frombuffer(image.get_data("RGBA", image.width * 4), dtype=np.uint8)
    alpha = raw.reshape(image.height, image.width, 4)[:, :, 3] / 255.0
    return alpha.astype(np.float32)


def _blit(canvas: Mask, alpha: Mask, top: int, left: int) -> None:
    h, w = canvas.shape
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(h, top + alpha.shape[0]), min(w, left + alpha.shape[1])
    if y0 >= y1 or x0 >= x1:
        return
    part = alpha[y0 - top : y1 - top, x0 - left : x1 - left]
    canvas[y0:y1, x0:x1] = np.maximum(canvas[y0:y1, x0:x1], part)
