"""PNG through pyglet's bundled codec (game.engine.png): pixels come back as they went in, any
PNG another program wrote is read, and what is not a PNG is one clear ValueError."""

from __future__ import annotations

import io

import numpy as np
import pytest
from pyglet.extlibs import png as codec

from game.engine.png import decode_png, encode_png


@pytest.mark.parametrize("shape", [(1, 1, 3), (5, 4, 3), (3, 7, 4), (17, 33, 4)])
def test_pixels_come_back_as_they_went_in(shape: tuple[int, int, int]) -> None:
    pixels = np.random.default_rng(sum(shape)).integers(0, 256, size=shape, dtype=np.uint8)
    data = encode_png(pixels)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert np.array_equal(decode_png(data), pixels)


def test_the_first_row_is_the_top() -> None:
    pixels = np.zeros((2, 3, 3), dtype=np.uint8)
    pixels[0] = 255  # white on top, black below
    width, height, rows, _info = codec.Reader(bytes=encode_png(pixels)).asRGB8()
    assert (width, height) == (3, 2) and [bytes(r) for r in rows] == [b"\xff" * 9, b"\0" * 9]


def written(pixels: list[list[int]], **options: object) -> bytes:
    out = io.BytesIO()
    codec.Writer(len(pixels[0]) // options.pop("planes", 1), len(pixels), **options).write(
        out, pixels
    )
    return out.getvalue()


def test_grey_palette_and_16_bit_pictures_are_widened_to_rgb() -> None:
    grey = written([[0, 128], [255, 7]], greyscale=True, bitdepth=8)
    assert decode_png(grey).tolist() == [[[0] * 3, [128] * 3], [[255] * 3, [7] * 3]]
    palette = written([[0, 1]], palette=[(10, 20, 30), (40, 50, 60)], bitdepth=8)
    assert decode_png(palette).tolist() == [[[10, 20, 30], [40, 50, 60]]]
    deep = written([[0, 65535, 0, 257, 514, 771]], greyscale=False, bitdepth=16, planes=3)
    assert decode_png(deep).tolist() == [[[0, 255, 0], [1, 2, 3]]]


def test_transparency_keeps_an_alpha_channel() -> None:
    rgba = written([[1, 2, 3, 0, 4, 5, 6, 255]], greyscale=False, alpha=True, planes=4)
    assert decode_png(rgba).tolist() == [[[1, 2, 3, 0], [4, 5, 6, 255]]]


@pytest.mark.parametrize(
    "data",
    [b"", b"GIF89a", b"\x89PNG\r\n\x1a\n", encode_png(np.zeros((40, 40, 3), np.uint8))[:60]],
    ids=["empty", "a GIF", "a signature alone", "cut short"],
)
def test_what_is_not_a_whole_png_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError, match="PNG"):
        decode_png(data)


def test_a_wrong_array_is_refused_before_anything_is_written() -> None:
    with pytest.raises(ValueError, match="uint8"):
        encode_png(np.zeros((2, 2), np.uint8))
