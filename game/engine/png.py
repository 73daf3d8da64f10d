"""A small PNG writer (numpy + zlib), so screenshots need no imaging library, and a reader for
the PNGs it writes (8-bit RGB or RGBA, rows unfiltered), which decodes them at zlib's speed."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

from game.safewrite import write_bytes_atomic


def encode_png(pixels: np.ndarray) -> bytes:
    """PNG bytes for an (height, width, 3 or 4) uint8 array, first row at the top."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] not in (3, 4):
        raise ValueError(f"expected an (h, w, 3|4) uint8 array, got {pixels.dtype} {pixels.shape}")
    h, w, c = pixels.shape
    raw = np.zeros((h, w * c + 1), dtype=np.uint8)  # filter byte 0 at the start of each row
    raw[:, 1:] = pixels.reshape(h, w * c)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", w, h, 8, 2 if c == 3 else 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + chunk(b"IEND", b"")
    )


def write_png(path: str | Path, pixels: np.ndarray) -> Path:
    """Write ``pixels`` as a PNG to ``path`` (its folder made if missing) by the one safe
    writer, :func:`game.safewrite.write_bytes_atomic`: a link, a pipe, a device or a folder
    there is refused with an OSError naming it."""
    path = Path(path)
    write_bytes_atomic(path, encode_png(pixels))
    return path


def decode_png(data: bytes) -> np.ndarray | None:
    """The pixels of a PNG as :func:`encode_png` writes it (8-bit RGB or RGBA, not interlaced,
    every row unfiltered), as an (h, w, 3|4) uint8 array; None for any other PNG (a slower,
    general decoder reads those). Raises ValueError for what is not a PNG at all."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG file")
    at, header, parts = 8, b"", []
    while at + 8 <= len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            parts.append(body)
        elif kind == b"IEND":
            break
    if len(header) != 13:
        raise ValueError("a PNG without its header")
    w, h, depth, colour, _compression, _filter, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in (2, 6) or interlace:
        return None
    c = 3 if colour == 2 else 4
    try:
        raw = np.frombuffer(zlib.decompress(b"".join(parts)), dtype=np.uint8)
    except zlib.error as exc:
        raise ValueError(f"a damaged PNG ({exc})") from None
    if raw.size != h * (w * c + 1):
        raise ValueError("a PNG whose data does not fill its picture")
    rows = raw.reshape(h, w * c + 1)
    if rows[:, 0].any():  # filtered rows: not one of ours
        return None
    return rows[:, 1:].reshape(h, w, c)
