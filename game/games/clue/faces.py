"""Cluedo's card faces: pictures of every card (its category's colour band and symbol, its
name in large letters) and the card back, drawn on the table's card nodes by a render layer.

:func:`face_pictures` paints the pictures once with numpy and the HUD's font. In a window the
layer paints them a little each frame instead (a card's name is laid out by trying sizes, and
every size renders its letters: all the faces at once held up the frame Cluedo opened in for a
second or more): each card shows its category's colours at once (from their smaller
pictures: the largest go up a few layers a frame) and its name a few frames later. Every card node
carries a face on its top side and the back on its bottom side, so a card lies face up or
face down by how it is turned, and a turn that flips it shows one side, then the other. A
card the viewer may not see carries the back on both sides: the scene never holds a hidden
card's name. :class:`CardFaceLayer` draws all of them in one draw call from the nodes' current
matrices, so cards that tweens move carry their faces along.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Generator, Iterator
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from game.engine.glyphs import text_mask, text_width, wrap
from game.logic.clue.deck import Deck

__all__ = [
    "BACK",
    "CATEGORY_RGB",
    "CardFaceLayer",
    "face_pictures",
    "name_cap_height",
    "paint_ahead",
]

#: Picture size in pixels (the card is 0.64 x 0.9).
WIDTH, HEIGHT = 256, 360
#: Category colours (suspects red, weapons blue, rooms green; more categories cycle).
CATEGORY_RGB = ((196, 58, 52), (52, 98, 190), (46, 140, 74), (150, 90, 170), (200, 130, 30))
#: The symbol drawn on a category's cards, by the category's name.
SYMBOLS = {"suspect": "♟", "weapon": "⚔", "room": "⌂"}
BACK = -1  # the layer index meaning "the back", before it is resolved to the last layer
#: The face's corners on the card's top, in the card's own coordinates (x across, z along).
HALF_X, HALF_Z, TOP = 0.30, 0.43, 0.0275
#: The height of a capital letter of the HUD's bold font, as a share of its size.
CAP = 0.73
#: The card's name: between these text sizes (pixels of the picture), under the band, no
#: wider than this, narrowed by at most this much to fit (a long word such as "Candlestick").
NAME_SIZES = (76, 30)
NAME_TOP, NAME_WIDTH, SQUEEZE = 84, WIDTH - 30, 0.62
VOWELS = frozenset("aeiouy")
#: Seconds of painting a window's frame gives the faces still to be painted (each step of it
#: renders one line of text at one size: a few milliseconds).
FRAME_BUDGET = 0.012
#: A window's table first sends up the plain pictures' levels from this one on (90 x 64
#: pixels, about a card's size on screen at 800x600: 0.5 MB for the default deck), and the
#: larger ones a few layers a step (1.5 MB of level 0) as the frames paint.
FIRST_LEVEL = 2
LAYERS_A_STEP = 4

T = TypeVar("T")
#: A painting done in steps: it yields between them and returns its result.
Steps = Generator[None, None, T]


def paint_ahead() -> None:
    """Make what opening a window's Cluedo table paints before its first face: the plain face
    of every category's colours and the back, each with its smaller pictures (numpy alone:
    the window's warm-up thread calls it while the menu shows, see
    :attr:`game.registry.Entry.ahead`)."""
    from game.logic.clue.deck import load_deck
    from game.logic.clue.game import OPTIONS

    for kind in range(-1, len(CATEGORY_RGB)):
        _plain_chain(kind)
    _plain_levels(_kinds(load_deck(str(OPTIONS.defaults()["deck"]))))  # the default deck's


def face_pictures(deck: Deck) -> npt.NDArray[np.uint8]:
    """(cards + 1, HEIGHT, WIDTH, 4) RGBA, top row first: every card's face, then the back."""
    out = np.zeros((deck.n_cards + 1, HEIGHT, WIDTH, 4), dtype=np.uint8)
    for card in range(deck.n_cards):
        out[card] = _done(_face_steps(deck, card))
    out[deck.n_cards] = _back()
    return out


class CardFaceLayer:
    """Draws the faces and backs of the cards in :attr:`cards` (pairs of a node and its
    card, or :data:`BACK` for a card the viewer may not see) in one draw call.

    ``gradual``: the faces are painted a step at a time, as the scene's frames call
    :meth:`paint`, each card showing its category's colours until its face is done; else they
    are all painted now (no window: nothing to keep drawing)."""

    def __init__(self, ctx: Any, deck: Deck, *, gradual: bool = False) -> None:
        import moderngl

        from game.engine.render import load_program

        self.ctx = ctx
        self.deck = deck
        self.back_layer = deck.n_cards
        self.cards: list[tuple[Any, int]] = []
        self._todo: Iterator[None] = iter(())
        layers = deck.n_cards + 1
        self.painted = not gradual
        #: The largest level of the texture that is there (a window's first levels go up a
        #: few layers a step; cards are drawn from this level and the smaller ones).
        self.base_level = 0
        self._plain: tuple[npt.NDArray[np.uint8], ...] = ()
        #: How many pictures have been painted into the texture (all, once it is painted).
        self.faces_done = 0 if gradual else layers
        if gradual:
            self._todo = self._painting()
            self.texture = ctx.texture_array((WIDTH, HEIGHT, layers), 4)
            # The smaller pictures are made here, a face at a time as it is painted: the
            # driver's own (a software renderer compiles its code for it first) held up a
            # frame for 150-200 ms. Until then a card shows its category's plain face.
            # The plain faces and the back (with their smaller pictures) were made ahead by
            # the window's warm-up (:func:`paint_ahead`): painting them here held up the frame
            # Cluedo opened in for 0.4-0.8 s. They go up a level at a time, every layer at once.
            # The largest levels (8 MB for the default deck, 0.6 s of that frame on a busy
            # machine) go up a few layers a step, as the frames call :meth:`paint`: until a
            # level is all there the cards show the smaller pictures.
            self._plain = _plain_levels(_kinds(deck))
            self.base_level = min(FIRST_LEVEL, len(self._plain) - 1)
            _upload_levels(self.texture, self._plain, self.base_level)
        else:
            pictures = face_pictures(deck)
            self.texture = ctx.texture_array(
                (WIDTH, HEIGHT, layers), 4, pictures[:, ::-1].tobytes()
            )
            self.texture.build_mipmaps()
        self.texture.filter = (moderngl.LINEAR_MIPMAP_LINEAR, moderngl.LINEAR)
        self.texture.anisotropy = 8.0
        self.prog: Any = load_program(ctx, "clue_face")
        self.buffer = ctx.buffer(reserve=4)
        self.vao: Any = None
        self._capacity = 0

    def paint(self, seconds: float) -> bool:
        """Paint the faces still to be painted for about ``seconds`` (at least one step: a
        line of text at one size, a card's colours); True once every face is painted."""
        if self.painted:
            return True
        ends = time.perf_counter() + seconds
        for _ in self._todo:
            if time.perf_counter() >= ends:
                return False
        self.painted = True
        return True

    def still_key(self) -> bytes:
        """The cards' corners, faces and glow: all the picture depends on (and how many faces
        are painted, from which level)."""
        painted = self.faces_done.to_bytes(4, "little") + self.base_level.to_bytes(4, "little")
        return self._vertices().tobytes() + painted

    def draw(self, frame: Any) -> tuple[int, int]:
        import moderngl

        if not self.cards:
            return 0, 0
        data = self._vertices()
        if data.nbytes > self._capacity:
            self.buffer.orphan(data.nbytes)
            self._capacity = data.nbytes
            if self.vao is not None:
                self.vao.release()
            self.vao = self.ctx.vertex_array(
                self.prog,
                [(self.buffer, "3f 3f 2f 1f 1f", "in_position", "in_normal", "in_uv", "in_layer",
                  "in_glow")],
            )  # fmt: skip
        self.buffer.write(data.tobytes())
        ctx = self.ctx
        ctx.enable_only(moderngl.DEPTH_TEST)
        ctx.depth_func = "<="
        self.prog["u_view_proj"].write(frame.view_proj.T.astype("f4").tobytes())
        self.prog["u_light_dir"].value = tuple(float(x) for x in frame.light_dir)
        self.prog["u_ambient"].value = tuple(float(x) for x in frame.ambient)
        self.prog["u_light_color"].value = tuple(float(x) for x in frame.light_color)
        self.texture.use(location=0)
        self.prog["u_faces"].value = 0
        vertices = len(data)
        self.vao.render(moderngl.TRIANGLES, vertices=vertices)
        return 1, vertices // 3

    def release(self) -> None:
        if self.vao is not None:
            self.vao.release()
        self.buffer.release()
        self.texture.release()
        self.prog.release()

    def _painting(self) -> Iterator[None]:
        """The gradual painting: the plain pictures' largest levels, a few layers a step, then
        each card's face in steps, then into its layer (with its smaller pictures)."""
        for level in range(self.base_level - 1, -1, -1):
            images = self._plain[level]
            for first in range(0, len(images), LAYERS_A_STEP):
                _write_layers(self.texture, level, first, images[first : first + LAYERS_A_STEP])
                if first + LAYERS_A_STEP >= len(images):  # the level is all there: draw it
                    self.base_level = level
                    _use_levels_from(self.texture, level)
                yield
        for card in range(self.deck.n_cards):
            picture = yield from _face_steps(self.deck, card)
            _write_levels(self.texture, card, _chain(picture))
            self.faces_done += 1
            yield
        self.faces_done += 1  # the back was there from the start

    def _vertices(self) -> npt.NDArray[np.float32]:
        rows = []
        for node, card in self.cards:
            if node.hidden:
                continue
            m = node.world_matrix().astype("f4")
            face = self.back_layer if card == BACK else card
            glow = float(node.highlight)
            rows.append(_quad(m, TOP, 1.0, face, glow))
            rows.append(_quad(m, -0.0005, -1.0, self.back_layer, glow))
        if not rows:
            return np.zeros((0, 10), dtype="f4")
        return np.concatenate(rows).astype("f4")


# --- private helpers: they trust their input -------------------------------------------------


def _quad(m: npt.NDArray[np.float32], y: float, up: float, layer: int, glow: float) -> Any:
    """Two triangles on the card's top (``up`` 1) or bottom (``up`` -1) side in world
    space: position, normal, uv, layer, glow."""
    # Corners in the card's frame: x across, z along (z towards the player is the bottom of
    # the picture); the bottom side is mirrored so its picture reads the right way round.
    xs = (-HALF_X, HALF_X) if up > 0 else (HALF_X, -HALF_X)
    local = np.array(
        [[xs[0], y, HALF_Z, 1], [xs[1], y, HALF_Z, 1], [xs[1], y, -HALF_Z, 1],
         [xs[0], y, -HALF_Z, 1]], dtype="f4",
    )  # fmt: skip
    world = (m @ local.T).T[:, :3]
    normal = m[:3, :3] @ np.array([0.0, up, 0.0], dtype="f4")
    normal /= max(float(np.linalg.norm(normal)), 1e-6)
    uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype="f4")
    order = [0, 1, 2, 0, 2, 3]
    out = np.zeros((6, 10), dtype="f4")
    out[:, 0:3] = world[order]
    out[:, 3:6] = normal
    out[:, 6:8] = uv[order]
    out[:, 8] = layer
    out[:, 9] = glow
    return out


def name_cap_height(name: str) -> float:
    """How tall the capital letters of ``name`` are on its card, as a share of the card's
    height (what a test compares with the card's height on screen)."""
    size, _lines = _done(_name_lines(name))
    return CAP * size / HEIGHT


def _done(steps: Steps[T]) -> T:
    """Run a painting in steps to its end; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value  # type: ignore[no-any-return]


def _colours(k: int) -> tuple[Any, Any, Any]:
    """The category's colour, the paper's and the ink's."""
    color = np.array(CATEGORY_RGB[k % len(CATEGORY_RGB)], dtype=np.float32)
    paper = np.array((246, 240, 226), dtype=np.float32)
    ink = np.array((34, 30, 40), dtype=np.float32)
    return color, paper, ink


def _kinds(deck: Deck) -> tuple[int, ...]:
    """The plain picture of each layer of a deck's texture: its card's category, -1 the back."""
    return (*(deck.category_of(card) for card in range(deck.n_cards)), -1)


@functools.lru_cache(maxsize=2)
def _plain_levels(kinds: tuple[int, ...]) -> tuple[npt.NDArray[np.uint8], ...]:
    """Every level of a texture whose layers show the plain pictures ``kinds``
    (:func:`_plain_chain`): (layers, h, w, 4) each, bottom row first; made once."""
    chains = [_plain_chain(kind) for kind in kinds]
    levels = tuple(np.stack([chain[level] for chain in chains]) for level in range(len(chains[0])))
    for images in levels:
        images.setflags(write=False)
    return levels


def _upload_levels(texture: Any, levels: tuple[npt.NDArray[np.uint8], ...], first: int) -> None:
    """Make every level of ``texture`` (moderngl makes only the first) for ``levels``
    (:func:`_plain_levels`) at once, and fill those from ``first`` on with their pictures, one
    call a level (:func:`_write_layers` fills the larger ones); draw from level ``first`` on.
    The levels are made together (immutable storage): a level made apart from the texture's
    first was kept aside by the driver, and all of them copied together at the first draw."""
    import ctypes

    from pyglet import gl

    layers, h, w = levels[0].shape[:3]
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, texture.glo)
    if _storage(texture.ctx):
        gl.glTexStorage3D(gl.GL_TEXTURE_2D_ARRAY, len(levels), gl.GL_RGBA8, w, h, layers)
        for level in range(first, len(levels)):
            _write_layers(texture, level, 0, levels[level])
    else:  # OpenGL before 4.2: a level at a time
        gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
        for level, images in enumerate(levels):
            layers, h, w = images.shape[:3]
            data = images.ctypes.data_as(ctypes.c_void_p) if level >= first else None
            gl.glTexImage3D(gl.GL_TEXTURE_2D_ARRAY, level, gl.GL_RGBA8, w, h, layers, 0,
                            gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, data)  # fmt: skip
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, texture.glo)
    gl.glTexParameteri(gl.GL_TEXTURE_2D_ARRAY, gl.GL_TEXTURE_BASE_LEVEL, first)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)


def _storage(ctx: Any) -> bool:
    """Whether the context makes a texture's levels together (``glTexStorage3D``)."""
    return bool(ctx.version_code >= 420 or "GL_ARB_texture_storage" in ctx.extensions)


def _write_layers(texture: Any, level: int, first: int, images: npt.NDArray[np.uint8]) -> None:
    """Write ``images`` (layers, h, w, 4; bottom row first) into ``level`` of ``texture``,
    from layer ``first`` on, in one call."""
    import ctypes

    from pyglet import gl

    layers, h, w = images.shape[:3]
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, texture.glo)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    gl.glTexSubImage3D(gl.GL_TEXTURE_2D_ARRAY, level, 0, 0, first, w, h, layers, gl.GL_RGBA,
                       gl.GL_UNSIGNED_BYTE, images.ctypes.data_as(ctypes.c_void_p))  # fmt: skip
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)


def _use_levels_from(texture: Any, level: int) -> None:
    """Draw ``texture`` from its level ``level`` on (the larger ones are not all there)."""
    from pyglet import gl

    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, texture.glo)
    gl.glTexParameteri(gl.GL_TEXTURE_2D_ARRAY, gl.GL_TEXTURE_BASE_LEVEL, level)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)


def _write_levels(
    texture: Any, layer: int, chain: list[npt.NDArray[np.uint8]], first_level: int = 0
) -> None:
    """Write a picture's mipmap ``chain`` (:func:`_chain`), from level ``first_level`` on,
    into ``layer`` of ``texture``."""
    import ctypes

    from pyglet import gl

    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, texture.glo)
    gl.glPixelStorei(gl.GL_UNPACK_ALIGNMENT, 1)
    for level, image in enumerate(chain, start=first_level):
        h, w = image.shape[:2]
        gl.glTexSubImage3D(gl.GL_TEXTURE_2D_ARRAY, level, 0, 0, layer, w, h, 1, gl.GL_RGBA,
                           gl.GL_UNSIGNED_BYTE, image.ctypes.data_as(ctypes.c_void_p))  # fmt: skip
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)


def _chain(picture: npt.NDArray[np.uint8]) -> list[npt.NDArray[np.uint8]]:
    """A picture (top row first) and its smaller pictures as GL wants them (bottom row
    first): each side halved, down to one pixel, each pixel the mean of those it covers."""
    image = picture[::-1].astype(np.uint16)
    chain = [np.ascontiguousarray(picture[::-1])]
    while image.shape[0] > 1 or image.shape[1] > 1:
        h, w = image.shape[:2]
        if h > 1:
            image = (image[0 : h - h % 2 : 2] + image[1 : h - h % 2 + 1 : 2] + 1) // 2
        if w > 1:
            image = (image[:, 0 : w - w % 2 : 2] + image[:, 1 : w - w % 2 + 1 : 2] + 1) // 2
        chain.append(np.ascontiguousarray(image.astype(np.uint8)))
    return chain


@functools.cache
def _plain_chain(kind: int) -> tuple[npt.NDArray[np.uint8], ...]:
    """The picture (:func:`_chain`) of a face of category ``kind`` with nothing written on
    it, or of the back (``kind`` -1); made once (the category's colours cycle)."""
    if kind >= len(CATEGORY_RGB):
        return _plain_chain(kind % len(CATEGORY_RGB))
    chain = _chain(_plain_picture(kind) if kind >= 0 else _back())
    for image in chain:
        image.setflags(write=False)  # shared by every table made after it
    return tuple(chain)


def _plain(k: int) -> npt.NDArray[np.float32]:
    """A face of category ``k`` with nothing written on it: paper, border and band (RGB)."""
    color, paper, _ink = _colours(k)
    rgb = np.empty((HEIGHT, WIDTH, 3), dtype=np.float32)
    rgb[:] = paper
    rgb[:10], rgb[-10:], rgb[:, :10], rgb[:, -10:] = color, color, color, color
    rgb[10:70, 10 : WIDTH - 10] = color
    return rgb


def _plain_picture(k: int) -> npt.NDArray[np.uint8]:
    """:func:`_plain` as a picture (RGBA)."""
    out = np.empty((HEIGHT, WIDTH, 4), dtype=np.uint8)
    out[..., :3] = _plain(k)
    out[..., 3] = 255
    return out


def _face_steps(deck: Deck, card: int) -> Steps[npt.NDArray[np.uint8]]:
    """The face of ``card``, in steps: the band's symbol and category, the name's layout
    (a size at a time), then each line of the name."""
    k = deck.category_of(card)
    category = deck.categories[k].name
    _color, paper, ink = _colours(k)
    rgb = _plain(k)
    # The band: the category's symbol and name; below it the card's name, as large as the
    # face allows (it must be read on a card a few dozen pixels tall).
    symbol = SYMBOLS.get(category.lower(), "◆")
    _paint(rgb, text_mask(symbol, 34), 40, 38, paper)
    yield
    _paint(rgb, _fit(text_mask(category.upper(), 26, bold=True), WIDTH - 90), 40, WIDTH / 2 + 14,
           paper)  # fmt: skip
    yield
    size, lines = yield from _name_lines(deck.name(card))
    step = size * 1.12
    middle = (NAME_TOP + HEIGHT - 14) / 2
    first = middle - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        mask = _fit(text_mask(line, size, bold=True), NAME_WIDTH)
        _paint(rgb, mask, first + i * step, WIDTH / 2, ink)
        yield
    out = np.empty((HEIGHT, WIDTH, 4), dtype=np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    out[..., 3] = 255
    return out


def _name_lines(name: str) -> Steps[tuple[int, list[str]]]:
    """The text size of a card's name and its lines: the largest size at which it takes at
    most three lines, each narrowed by at most :data:`SQUEEZE` to fit the face, under the
    band. A long word is split with a hyphen where that makes the name much larger (a
    third), else the name gets smaller."""
    whole = yield from _largest(name, hyphens=False)
    split = yield from _largest(name, hyphens=True)
    return split if split[0] >= whole[0] * 1.3 else whole


def _largest(name: str, *, hyphens: bool) -> Steps[tuple[int, list[str]]]:
    room = NAME_WIDTH / SQUEEZE
    for size in range(NAME_SIZES[0], NAME_SIZES[1] - 1, -2):
        yield
        lines = wrap(name, size, room, bold=True)
        if hyphens:
            lines = [part for line in lines for part in _hyphenate(line, size, room)]
        tall = size * 1.12 * len(lines)
        if (
            len(lines) <= 3
            and tall <= HEIGHT - 14 - NAME_TOP
            and all(text_width(x, size, True) <= room for x in lines)
        ):
            return size, lines
    return NAME_SIZES[1], wrap(name, NAME_SIZES[1], room, bold=True)


def _hyphenate(line: str, size: int, room: float) -> list[str]:
    """``line`` as it is when it fits ``room`` or is not one long word (eleven letters or
    more), else split before a consonant, with five letters or more on each side, as near
    the middle as can be ("Conser-vatory", "Candle-stick")."""
    if text_width(line, size, True) <= room or len(line) < 11 or not line.isalpha():
        return [line]
    cuts = [i for i in range(5, len(line) - 4) if line[i].lower() not in VOWELS]
    if not cuts:
        return [line]
    cut = min(cuts, key=lambda i: abs(2 * i - len(line)))
    return [line[:cut] + "-", line[cut:]]


def _fit(mask: Any, width: float) -> Any:
    """``mask`` narrowed (never widened) to ``width`` pixels."""
    w = mask.shape[1]
    if w <= width:
        return mask
    new = max(1, int(width))
    xs = np.linspace(0.0, w - 1.0, new)
    left = np.floor(xs).astype(int)
    right = np.minimum(left + 1, w - 1)
    t = (xs - left)[None, :]
    return mask[:, left] * (1 - t) + mask[:, right] * t


def _back() -> npt.NDArray[np.uint8]:
    """A deep red back with a lattice of lighter diamonds and a gold frame."""
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    red = np.array((122, 28, 40), dtype=np.float32)
    light = np.array((160, 52, 62), dtype=np.float32)
    gold = np.array((214, 172, 84), dtype=np.float32)
    lattice = (np.abs(((xx + yy) % 32) - 16) < 2.2) | (np.abs(((xx - yy) % 32) - 16) < 2.2)
    rgb = np.where(lattice[..., None], light, red)
    frame = (
        (((xx >= 14) & (xx < 20)) | ((xx >= WIDTH - 20) & (xx < WIDTH - 14)))
        & (yy >= 14)
        & (yy < HEIGHT - 14)
    )
    frame |= (((yy >= 14) & (yy < 20)) | ((yy >= HEIGHT - 20) & (yy < HEIGHT - 14))) & (
        (xx >= 14) & (xx < WIDTH - 14)
    )
    rgb[frame] = gold
    out = np.empty((HEIGHT, WIDTH, 4), dtype=np.uint8)
    out[..., :3] = rgb.astype(np.uint8)
    out[..., 3] = 255
    return out


def _paint(
    rgb: npt.NDArray[np.float32], mask: Any, center_y: float, center_x: float, color: Any
) -> None:
    """Blend ``color`` into ``rgb`` through ``mask``, centred at (center_x, center_y)."""
    h, w = mask.shape
    top, left = round(center_y - h / 2), round(center_x - w / 2)
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(rgb.shape[0], top + h), min(rgb.shape[1], left + w)
    if y0 >= y1 or x0 >= x1:
        return
    a = mask[y0 - top : y1 - top, x0 - left : x1 - left, None]
    rgb[y0:y1, x0:x1] = rgb[y0:y1, x0:x1] * (1 - a) + np.asarray(color) * a
