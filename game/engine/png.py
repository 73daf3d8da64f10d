"""Pixels to PNG and back through the PNG codec that pyglet bundles, with numpy arrays on our
side.

``pyglet.extlibs.png`` is the codec behind pyglet's own ``PNGImageEncoder`` and
``PNGImageDecoder``; it is called directly here because those two go through
``pyglet.image``, which needs a GL context (a display or EGL) just to be imported, and the
decoder turns every byte into a Python int on its way to an ``ImageData`` (about 20 times
slower, which the menu's pictures would pay at its first frame). Rows go to and from numpy
as whole byte strings.
"""

from __future__ import annotations

import array
import io
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from game.safewrite import write_bytes_atomic


def encode_png(pixels: np.ndarray) -> bytes:
    """PNG bytes for an (height, width, 3 or 4) uint8 array, first row at the top."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in (3, 4):
        raise ValueError(f"expected an (h, w, 3|4) uint8 array, got {pixels.dtype} {pixels.shape}")
    png = _codec()
    h, w, c = pixels.shape
    rows = array.array("B", np.ascontiguousarray(pixels).tobytes())
    out = io.BytesIO()
    png.Writer(w, h, greyscale=False, alpha=c == 4, bitdepth=8).write_array(out, rows)
    return out.getvalue()


def write_png(path: str | Path, pixels: np.ndarray) -> Path:
    """Write ``pixels`` as a PNG to ``path`` (its folder made if missing) by the one safe
    writer, :func:`game.safewrite.write_bytes_atomic`: a link, a pipe, a device or a folder
    there is refused with an OSError naming it."""
    path = Path(path)
    write_bytes_atomic(path, encode_png(pixels))
    return path


def decode_png(data: bytes) -> np.ndarray:
    """The pixels of any PNG as an (h, w, 3|4) uint8 array, top row first: RGB, or RGBA when
    it has transparency; grey and palette pictures are widened, 16-bit ones narrowed. Raises
    ValueError for what is not a PNG or is damaged."""
    png = _codec()
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG file")
    try:
        reader = png.Reader(bytes=data)
        width, height, rows, info = reader.asRGBA8() if _has_alpha(reader) else reader.asRGB8()
        pixels = np.vstack([np.asarray(row, dtype=np.uint8) for row in rows])
    except (png.Error, ValueError, EOFError, zlib.error) as exc:
        raise ValueError(f"a damaged PNG ({exc})") from None
    return pixels.reshape(height, width, info["planes"])


def _codec() -> Any:
    """``pyglet.extlibs.png`` (untyped: Any)."""
    from pyglet.extlibs import png

    return png


def _has_alpha(reader: Any) -> bool:
    """Whether the picture has transparency (an alpha channel or a tRNS chunk); reads the
    header chunks only."""
    reader.preamble()
    return bool(reader.alpha or reader.trns is not None)
