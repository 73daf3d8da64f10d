"""The menu's cards: one upright panel per game with the game's picture, facing the camera.

:func:`screen_quad` stands a card where the menu's layout (:mod:`game.hall.menu_layout`)
put it on the screen, on a plane square to the camera's view; :class:`CardLayer` draws the
cards shown as a render layer in one draw call (a picture on a frame each; the selected card
glows), and :func:`hit_card` says which card a mouse ray meets. :func:`read_png` reads the
pictures with pyglet's PNG decoder.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

#: The pictures' size in pixels (made by tools/make_cards.py: the scene without the HUD); a
#: picture of another size is scaled to it. Cards have their shape.
PICTURE = (480, 360)


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


@dataclass(frozen=True)
class ScreenPlane:
    """The plane ``depth`` in front of a camera (eye, target, up, vertical ``fov`` in
    degrees), square to its view, seen in a view of ``size`` window units: :meth:`at` is the
    world point drawn at a window point, :meth:`quad` a card drawn over a window rectangle."""

    eye: np.ndarray
    target: np.ndarray
    up: np.ndarray
    fov: float
    size: tuple[float, float]
    depth: float

    def _axes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
        forward = _unit(np.asarray(self.target, "f8") - np.asarray(self.eye, "f8"))
        right = _unit(np.cross(forward, np.asarray(self.up, "f8")))
        up = np.cross(right, forward)
        half_h = self.depth * math.tan(math.radians(self.fov) / 2.0)
        half_w = half_h * self.size[0] / max(1.0, self.size[1])
        return forward, right, up, half_w, half_h

    def at(self, x: float, y: float) -> np.ndarray:
        """The point of the plane drawn at window point (x, y) (from the bottom-left)."""
        forward, right, up, half_w, half_h = self._axes()
        w, h = max(1.0, self.size[0]), max(1.0, self.size[1])
        point = (
            np.asarray(self.eye, "f8")
            + forward * self.depth
            + right * ((2.0 * x / w - 1.0) * half_w)
            + up * ((2.0 * y / h - 1.0) * half_h)
        )
        return point.astype("f4")

    def quad(self, x: float, y: float, w: float, h: float) -> CardQuad:
        """A card drawn over the window rectangle (x, y bottom-left, w, h)."""
        forward, right, up, half_w, half_h = self._axes()
        size_w, size_h = max(1.0, self.size[0]), max(1.0, self.size[1])
        center = self.at(x + w / 2.0, y + h / 2.0)
        return CardQuad(
            center,
            (right * (w / size_w * half_w)).astype("f4"),
            (up * (h / size_h * half_h)).astype("f4"),
            (-forward).astype("f4"),
        )


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
    pixel each way (a smaller picture for a card). Raises ValueError naming the file for
    anything it cannot read."""
    from game.engine.png import decode_png

    path = Path(path)
    try:
        pixels = decode_png(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a PNG file that can be read ({exc})") from None
    return pixels[::step, ::step].copy()


class CardLayer:
    """Draws the cards shown (a render layer of the menu scene) in one draw call: the
    pictures of every game are the layers of one texture array; :meth:`place` says which
    games' cards stand where. ``hover`` is the glowing card (an index into those placed)."""

    def __init__(
        self,
        ctx: Any,
        pictures: Sequence[Path | None],
        keep: Callable[[object, Callable[[], Any]], Any] | None = None,
    ):
        """``keep(key, make)``: where the layer's program and pictures are kept between the
        menu's visits (the renderer's :meth:`~game.engine.render.Renderer.keep`); None: the
        layer makes its own and releases them."""
        from game.engine.render import load_program

        self.ctx = ctx
        self.quads: list[CardQuad] = []
        self.games: list[int] = []  # the game (index into ``pictures``) of each placed card
        self.hover: int | None = None
        self._owned = keep is None
        if keep is None:
            keep = _make
        self.prog = keep(("program", "menu_card"), lambda: load_program(ctx, "menu_card"))
        images = [_picture(p) for p in pictures]
        found = [image for image in images if image is not None]
        self.pictures = None
        if found:
            # The same files, unchanged since: the same texture.
            key = ("menu cards", tuple((p, _stamp(p)) for p in pictures))
            self.pictures = keep(key, lambda: _texture(ctx, found))
        self.layers = []
        layer = 0
        for image in images:
            self.layers.append(layer if image is not None else -2)
            layer += image is not None
        self.vertices = 0
        self._placed = 0  # how many times the cards were moved
        self.buffer = ctx.buffer(reserve=max(1, len(pictures)) * 12 * 7 * 4)
        self.vao = ctx.vertex_array(
            self.prog, [(self.buffer, "3f 2f 2f", "in_position", "in_uv", "in_card")]
        )

    def place(self, quads: Sequence[CardQuad], games: Sequence[int]) -> None:
        """Stand the cards of ``games`` (indexes into the pictures) at ``quads``."""
        if len(quads) != len(games):
            raise ValueError(f"{len(quads)} places for {len(games)} cards")
        if any(not 0 <= g < len(self.layers) for g in games):
            raise ValueError(f"no picture for some of the games {list(games)}")
        self.quads, self.games = list(quads), list(games)
        self._placed += 1
        self.vertices = 12 * len(self.quads)
        if self.quads:
            self.buffer.write(self._vertex_data().tobytes())

    def _vertex_data(self) -> np.ndarray:
        rows = []
        for i, (q, game) in enumerate(zip(self.quads, self.games, strict=True)):
            # The picture first: the frame behind it then fails the depth test there, so
            # those pixels are shaded once (a software rasteriser feels the overdraw).
            rows.append(_quad_vertices(q.corners(lift=0.002), i, self.layers[game]))
            rows.append(_quad_vertices(q.corners(grow=0.05), i, -1.0))  # the frame
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
        self.prog["u_view_proj"].write(frame.view_proj.T.copy().tobytes())
        self.prog["u_hover"].value = -1.0 if self.hover is None else float(self.hover)
        if self.pictures is not None:
            self.pictures.use(location=0)
            self.prog["u_pictures"].value = 0
        self.vao.render(moderngl.TRIANGLES, vertices=self.vertices)
        return 1, self.vertices // 3

    def release(self) -> None:
        if self._owned:
            if self.pictures is not None:
                self.pictures.release()
            self.prog.release()
        self.vao.release()
        self.buffer.release()


# --- private helpers: they trust their input -------------------------------------------------


def _stamp(path: Path | None) -> int:
    try:
        return path.stat().st_mtime_ns if path is not None else 0
    except OSError:
        return 0


def _make(key: object, make: Callable[[], Any]) -> Any:
    return make()


def _texture(ctx: Any, images: list[np.ndarray]) -> Any:
    """The pictures as the layers of one texture array, with mipmaps."""
    data = np.concatenate([image[::-1] for image in images])  # GL's first row: bottom
    texture = ctx.texture_array((PICTURE[0], PICTURE[1], len(images)), 3, data)
    texture.build_mipmaps()
    return texture


def _unit(v: np.ndarray) -> np.ndarray:
    result: np.ndarray = v / np.linalg.norm(v)
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
