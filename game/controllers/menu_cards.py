"""The menu's cards: one upright panel per game with the game's picture, facing the camera.

:func:`card_grid` places the cards in rows (:func:`card_quads`: in one row) from the menu
scene's anchors, :class:`CardLayer` draws them as a render layer in one draw call (a picture
on a frame each; the hovered card glows), and :func:`hit_card` says which card a mouse ray
meets. :func:`read_png` reads the pictures with pyglet's PNG decoder.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

#: Cards are 16:9, like the pictures (screenshots of the games), which are drawn this size.
ASPECT = 16 / 9
PICTURE = (640, 360)
#: Room under each row of cards for the titles, as a fraction of a card's height.
LABEL = 0.3


@dataclass(frozen=True)
class CardQuad:
    """Where one card stands: its centre, its two half-axes in the card's plane, its normal."""

    center: np.ndarray
    right: np.ndarray  # half the width, along the card
    up: np.ndarray  # half the height
    normal: np.ndarray

    def corners(self, grow: float = 0.0, lift: float = 0.0) -> np.ndarray:
        """The four corners (bottom-left first, counter-clockwise), grown by ``grow`` times
        the half-height on each side and moved ``lift`` along the normal."""
        r = self.right + self.right / np.linalg.norm(self.right) * grow * np.linalg.norm(self.up)
        u = self.up * (1.0 + grow)
        c = self.center + self.normal * lift
        return np.array([c - r - u, c + r - u, c + r + u, c - r + u], dtype="f4")


def card_quads(count: int, center: Any, row_width: float, eye: Any) -> list[CardQuad]:
    """``count`` cards side by side across ``row_width`` around ``center``, each turned to
    face ``eye`` (the camera), with a gap of a tenth of a card between them."""
    if count <= 0:
        return []
    width = row_width / (count + 0.1 * (count - 1))
    half = np.array([width / 2, width / 2 / ASPECT], dtype="f4")
    center = np.asarray(center, dtype="f4")
    eye = np.asarray(eye, dtype="f4")
    quads = []
    for i in range(count):
        offset = (i - (count - 1) / 2) * width * 1.1
        c = center + np.array([offset, 0.0, 0.0], dtype="f4")
        normal = _unit(eye - c)
        right = _unit(np.cross(np.array([0.0, 1.0, 0.0], dtype="f4"), normal))
        up = np.cross(normal, right)
        quads.append(CardQuad(c, right * half[0], up * half[1], normal))
    return quads


def best_columns(
    count: int, width: float, height: float, label: float = LABEL, min_pitch: float = 0.0
) -> int:
    """How many cards a row makes them largest in ``width`` x ``height`` (a card's height
    plus ``label`` of it for its title under each row; fewer rows on a tie): the largest
    cards also leave the titles under them the most room.

    >>> [best_columns(n, 7.4, 3.4) for n in (1, 4, 5, 12, 13)]
    [1, 2, 3, 4, 5]
    >>> best_columns(13, 4.0, 3.4)  # a narrower window: more rows
    4
    """
    best, size = 1, -1.0
    for cols in range(1, max(1, count) + 1):
        rows = math.ceil(count / cols)
        card = _card_width(cols, rows, width, height, label)
        if cols > 1 and _pitch(cols, card, width, min_pitch) < min_pitch:
            continue  # the titles of a row would run into each other
        if card > size * 1.0001:
            best, size = cols, card
    return best


def _pitch(cols: int, card: float, width: float, min_pitch: float = 0.0) -> float:
    """How far apart the cards of a row stand: a tenth of a card between them, more (up to
    half a card, or the titles' ``min_pitch``) where the width allows."""
    return max(card * 1.1, min(width / cols, max(card * 1.5, min_pitch)))


def card_grid(
    count: int,
    center: Any,
    width: float,
    height: float,
    eye: Any,
    label: float = LABEL,
    min_pitch: float = 0.0,
) -> list[CardQuad]:
    """``count`` cards in rows (as many a row as :func:`best_columns` says) filling at most
    ``width`` x ``height`` around ``center`` (the last row centred), on one plane facing
    ``eye``, with a gap of a tenth of a card between cards and ``label`` of a card's height
    under each row for its title; with ``min_pitch``, no fewer rows than keep the cards of
    a row that far apart (their titles' width)."""
    if count <= 0:
        return []
    cols = best_columns(count, width, height, label, min_pitch)
    rows = math.ceil(count / cols)
    card = _card_width(cols, rows, width, height, label)
    # Rows short of the height leave width to spare: the cards move apart (up to half a card),
    # which gives the titles under them room.
    pitch_x = _pitch(cols, card, width, min_pitch)
    pitch_y = card / ASPECT * (1.0 + label)
    half = np.array([card / 2, card / 2 / ASPECT], dtype="f4")
    center = np.asarray(center, dtype="f4")
    # One wall of cards facing the camera (each card turned to the eye would fan the rows).
    normal = _unit(np.asarray(eye, dtype="f4") - center)
    right = _unit(np.cross(np.array([0.0, 1.0, 0.0], dtype="f4"), normal))
    up = np.cross(normal, right)
    quads = []
    for i in range(count):
        row, col = divmod(i, cols)
        in_row = min(cols, count - row * cols)
        x = (col - (in_row - 1) / 2) * pitch_x
        y = ((rows - 1) / 2 - row) * pitch_y + label * card / ASPECT / 2
        c = center + right * x + up * y
        quads.append(CardQuad(c.astype("f4"), right * half[0], up * half[1], normal))
    return quads


def _card_width(cols: int, rows: int, width: float, height: float, label: float) -> float:
    return min(width / (cols + 0.1 * (cols - 1)), height / (rows * (1.0 + label)) * ASPECT)


def hit_card(quads: Sequence[CardQuad], origin: Any, direction: Any) -> int | None:
    """The index of the nearest card the ray (``origin``, ``direction``) meets, or None."""
    best: tuple[float, int] | None = None
    origin = np.asarray(origin, dtype="f8")
    direction = np.asarray(direction, dtype="f8")
    for i, q in enumerate(quads):
        denom = float(np.dot(direction, q.normal))
        if abs(denom) < 1e-9:
            continue
        t = float(np.dot(q.center - origin, q.normal)) / denom
        if t <= 0:
            continue
        local = origin + direction * t - q.center
        x = float(np.dot(local, q.right)) / float(np.dot(q.right, q.right))
        y = float(np.dot(local, q.up)) / float(np.dot(q.up, q.up))
        if abs(x) <= 1.05 and abs(y) <= 1.05 and (best is None or t < best[0]):
            best = (t, i)
    return None if best is None else best[1]


def read_png(path: str | Path, step: int = 1) -> np.ndarray:
    """The pixels of a PNG as an (h, w, 3|4) uint8 array, top row first; every ``step``-th
    pixel each way (a smaller picture for a card). The PNGs the game writes decode at once;
    others through pyglet's PNG decoder. Raises ValueError naming the file for anything it
    cannot read."""
    from pyglet.image import load
    from pyglet.image.codecs import ImageDecodeException
    from pyglet.image.codecs.png import PNGImageDecoder

    from game.engine.png import decode_png

    path = Path(path)
    try:
        fast = decode_png(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a PNG file that can be read ({exc})") from None
    if fast is not None:
        return fast[::step, ::step].copy()
    try:
        with path.open("rb") as file:
            image = load(str(path), file=file, decoder=PNGImageDecoder()).get_image_data()
    except ImageDecodeException as exc:
        raise ValueError(f"{path}: not a PNG file that can be read ({exc})") from None
    channels = 4 if "A" in image.format else 3
    data = image.get_data("RGBA" if channels == 4 else "RGB", -image.width * channels)
    pixels = np.frombuffer(data, dtype=np.uint8).reshape(image.height, image.width, channels)
    return pixels[::step, ::step].copy()


class CardLayer:
    """Draws the cards (a render layer of the menu scene) in one draw call: the pictures are
    the layers of one texture array. ``hover`` is the glowing card."""

    def __init__(self, ctx: Any, quads: Sequence[CardQuad], pictures: Sequence[Path | None]):
        from game.engine.render import load_program

        self.ctx = ctx
        self.quads = list(quads)
        self.hover: int | None = None
        self.prog = load_program(ctx, "menu_card")
        images = [_picture(p) for p in pictures]
        found = [image for image in images if image is not None]
        self.pictures = None
        if found:
            data = np.concatenate([image[::-1] for image in found])  # GL's first row: bottom
            self.pictures = ctx.texture_array((PICTURE[0], PICTURE[1], len(found)), 3, data)
            self.pictures.build_mipmaps()
        self.layers = []
        layer = 0
        for image in images:
            self.layers.append(layer if image is not None else -2)
            layer += image is not None
        self.vertices = 12 * len(self.quads)
        self._placed = 0  # how many times the cards were moved
        self.buffer = ctx.buffer(self._vertex_data().tobytes())
        self.vao = ctx.vertex_array(
            self.prog, [(self.buffer, "3f 2f 2f", "in_position", "in_uv", "in_card")]
        )

    def place(self, quads: Sequence[CardQuad]) -> None:
        """Move the cards to ``quads`` (as many as before: a window of another shape)."""
        if len(quads) != len(self.quads):
            raise ValueError(f"{len(quads)} places for {len(self.quads)} cards")
        self.quads = list(quads)
        self._placed += 1
        if self.quads:
            self.buffer.write(self._vertex_data().tobytes())

    def _vertex_data(self) -> np.ndarray:
        rows = []
        for i, (q, layer) in enumerate(zip(self.quads, self.layers, strict=True)):
            # The picture first: the frame behind it then fails the depth test there, so
            # those pixels are shaded once (a software rasteriser feels the overdraw).
            rows.append(_quad_vertices(q.corners(lift=0.01), i, layer))
            rows.append(_quad_vertices(q.corners(grow=0.06), i, -1.0))  # the frame
        data = np.concatenate(rows) if rows else np.zeros((1, 7))
        return data.astype("f4")

    def still_key(self) -> bytes:
        """The cards' places (counted) and the hovered card: all the picture depends on."""
        return f"{self._placed} {self.hover}".encode()

    def draw(self, frame: Any) -> tuple[int, int]:
        import moderngl

        if not self.vertices:
            return 0, 0
        ctx = self.ctx
        ctx.enable_only(moderngl.DEPTH_TEST)
        ctx.depth_func = "<="
        self.prog["u_view_proj"].write(frame.view_proj.T.copy().tobytes())  # type: ignore[union-attr]
        self.prog["u_hover"].value = -1.0 if self.hover is None else float(self.hover)  # type: ignore[union-attr]
        if self.pictures is not None:
            self.pictures.use(location=0)
            self.prog["u_pictures"].value = 0  # type: ignore[union-attr]
        self.vao.render(moderngl.TRIANGLES, vertices=self.vertices)
        return 1, self.vertices // 3

    def release(self) -> None:
        if self.pictures is not None:
            self.pictures.release()
        self.vao.release()
        self.buffer.release()
        self.prog.release()


# --- private helpers: they trust their input -------------------------------------------------


def _unit(v: np.ndarray) -> np.ndarray:
    result: np.ndarray = (v / np.linalg.norm(v)).astype("f4")
    return result


def _quad_vertices(corners: np.ndarray, card: int, layer: float) -> np.ndarray:
    # Two triangles; v runs up the card, so the picture's top row (v = 1) is at the top.
    uv = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], dtype="f4")
    order = [0, 1, 2, 0, 2, 3]
    ids = np.tile(np.array([[card, layer]], dtype="f4"), (6, 1))
    return np.hstack([corners[order], uv[order], ids])


def _picture(path: Path | None) -> np.ndarray | None:
    """A card's picture as PICTURE-sized RGB (nearest pixels), or None without one; kept
    while the file is unchanged (the menu is entered again after every game)."""
    if path is None:
        return None
    try:
        stamp = path.stat().st_mtime_ns
    except OSError as exc:
        log.warning("menu: no picture for a card: %s", exc)
        return None
    return _read_picture(path, stamp)


@lru_cache(maxsize=64)
def _read_picture(path: Path, stamp: int) -> np.ndarray | None:
    try:
        pixels = read_png(path)
    except (OSError, ValueError) as exc:
        log.warning("menu: no picture for a card: %s", exc)
        return None
    h, w = pixels.shape[:2]
    rows = (np.arange(PICTURE[1]) * h // PICTURE[1]).astype(int)
    cols = (np.arange(PICTURE[0]) * w // PICTURE[0]).astype(int)
    return np.ascontiguousarray(pixels[rows][:, cols, :3])
