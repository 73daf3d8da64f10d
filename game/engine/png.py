"""A small PNG writer (numpy + zlib), so screenshots need no imaging library."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np


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
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode_png(pixels))
    return path
