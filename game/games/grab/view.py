"""Drawing the MasterGrab map: the tiles, the borders, the move arrows and the labels (a
render Layer).

The map is drawn once per copy of it that the camera can see (the world wraps), and within a
copy only the chunks inside the view, so panning across the wrap costs about one map's worth
of triangles. The borders are anti-aliased bands over the tiles; arrows are flat triangles
above them; numbers and rings are sprites from a glyph atlas made once from the HUD's font,
lying flat on the map and drawn last, so nothing hides them
(:mod:`game.games.grab.atlas`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import moderngl
import numpy as np
import numpy.typing as npt

from game.engine.picking import ray_at_height
from game.engine.render import Frame, load_program
from game.games.grab.atlas import make_atlas
from game.games.grab.mesh import SEGMENT_FLOATS, VERTEX_FLOATS, MapMesh

SPRITE_FLOATS = 16  # anchor 3, rect 4, uv 4, colour 4, padding 1
#: An arrow's shaft: the fill's half-width, and how far the outline and the halo reach out
#: beyond the band inside them (world units).
ARROW_HALF = 0.12
OUTLINE_WIDTH = 0.075
HALO_WIDTH = 0.065
ARROW_HEIGHT = 0.62  # above the highest land tile (mountain peaks may reach through)
BOX_HEIGHT = 1.4  # the tallest thing on the map (a mountain's peak), for culling
BORDER_WIDTH = 0.045  # half-width of a border between two owners, world units
MAX_COPIES = 3  # per axis and side: enough for the farthest zoom


@dataclass
class Sprite:
    """One label piece: ``name`` from the atlas, centred at ``dx`` em right of the anchor and
    ``dy`` em up, ``scale`` world units per em; ``width`` and ``height`` stretch it (bars)."""

    anchor: tuple[float, float, float]
    name: str
    dx: float
    dy: float
    scale: float
    color: tuple[float, float, float, float]
    width: float = 1.0
    height: float = 1.0


@dataclass
class Arrow:
    """A flat arrow from ``start`` to ``end`` (world x, z); the end may lie past the edge of
    the map copy (an arrow across the wrap), where the next copy continues it. The ``fill``
    is edged all round by the ``outline``, and that, when given, by a ``halo`` (a light
    edge around a dark one reads on every colour of land, light or dark)."""

    start: tuple[float, float]
    end: tuple[float, float]
    fill: tuple[float, float, float, float]
    outline: tuple[float, float, float, float]
    halo: tuple[float, float, float, float] | None = None


class GrabLayer:
    """The map's tiles, labels and arrows; see the module docstring."""

    def __init__(self, ctx: moderngl.Context, mesh: MapMesh, countries: int) -> None:
        self.ctx = ctx
        self.mesh = mesh
        self.countries = countries
        self.map_prog = load_program(ctx, "grab_map")
        self.border_prog = load_program(ctx, "grab_border")
        self.sprite_prog = load_program(ctx, "grab_sprite")
        self.flat_prog = load_program(ctx, "grab_flat")
        self.atlas = make_atlas(ctx)
        self.vbo = ctx.buffer(mesh.vertices.astype("f4").tobytes())
        self.ibo = ctx.buffer(mesh.indices.astype("u4").tobytes())
        self.offsets = ctx.buffer(reserve=8 * 64, dynamic=True)
        self.indirect = ctx.buffer(reserve=20 * 16 * 64, dynamic=True)
        self.map_vao = self._map_vao()
        assert mesh.vertices.shape[1] == VERTEX_FLOATS
        # Each chunk's box (its rectangle up to the tallest tile) as 8 corners, for culling.
        boxes = []
        for _first, _count, (x0, z0, x1, z1) in mesh.chunks:
            boxes.append(
                [(x, y, z, 1.0) for x in (x0, x1) for y in (0.0, BOX_HEIGHT) for z in (z0, z1)]
            )
        self._boxes = np.asarray(boxes, dtype="f4")
        self._non_empty = np.array([count > 0 for _f, count, _r in mesh.chunks])
        self.data = ctx.texture((countries, 2), 4, dtype="f4")
        self.data.filter = (moderngl.NEAREST, moderngl.NEAREST)
        self.hover = -1
        self._owners = np.zeros(countries, dtype="f4")
        self._content: dict[str, bytes] = {}  # what each setter last uploaded
        self.segment_vbo = ctx.buffer(mesh.segments.astype("f4").tobytes())
        quads = len(mesh.segments) // 4
        base = (np.arange(quads, dtype=np.uint32) * 4)[:, None]
        pattern = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)
        self.segment_ibo = ctx.buffer((base + pattern).astype("u4").tobytes())
        self.segment_indices = quads * 6
        self.border_vao = ctx.vertex_array(
            self.border_prog,
            [(self.segment_vbo, "2f 2f 2f 2f", "in_start", "in_end", "in_corner", "in_countries")],
            index_buffer=self.segment_ibo,
            index_element_size=4,
        )
        assert mesh.segments.shape[1] == SEGMENT_FLOATS
        self.sprites = ctx.buffer(reserve=SPRITE_FLOATS * 4 * 256, dynamic=True)
        self.sprite_count = 0
        self.sprite_vao = self._sprite_vao()
        self.arrows = ctx.buffer(reserve=7 * 4 * 64, dynamic=True)
        self.arrow_vertices = 0
        self.arrow_vao = self._arrow_vao()
        self.copies_drawn = 0

    # -- content ----------------------------------------------------------------------------

    def set_countries(
        self,
        colors: npt.NDArray[np.float32],
        heights: npt.NDArray[np.float32],
        owners: npt.NDArray[np.float32] | None = None,
    ) -> None:
        """Per country an rgb colour (0..1), a tile height (world units) and its owner (a
        number the borders compare: the same on both sides draws a thin border)."""
        data = np.zeros((2, self.countries, 4), dtype="f4")
        data[0, :, 0:3] = colors
        data[0, :, 3] = heights
        if owners is not None:
            self._owners = np.asarray(owners, dtype="f4")
        data[1, :, 0] = self._owners
        self._content["countries"] = data.tobytes()
        self.data.write(self._content["countries"])

    def set_sprites(self, sprites: list[Sprite]) -> None:
        rows = np.zeros((len(sprites), SPRITE_FLOATS), dtype="f4")
        atlas = self.atlas
        for i, s in enumerate(sprites):
            w_em, h_em = atlas.size[s.name]
            half_w, half_h = w_em * s.scale / 2 * s.width, h_em * s.scale / 2 * s.height
            x = s.dx * s.scale
            y = s.dy * s.scale
            rows[i, 0:3] = s.anchor
            rows[i, 3:7] = (x - half_w, y - half_h, x + half_w, y + half_h)
            rows[i, 7:11] = atlas.uv[s.name]
            rows[i, 11:15] = s.color
        self._content["sprites"] = rows.tobytes()
        self._upload(self._content["sprites"], "sprites", "sprite_vao", self._sprite_vao)
        self.sprite_count = len(sprites)

    def set_arrows(self, arrows: list[Arrow]) -> None:
        triangles: list[list[float]] = []
        for arrow in arrows:
            # Outside in: the halo, the outline, then the fill, each the same arrow grown.
            bands = [(OUTLINE_WIDTH, arrow.outline), (0.0, arrow.fill)]
            if arrow.halo is not None:
                bands.insert(0, (OUTLINE_WIDTH + HALO_WIDTH, arrow.halo))
            for grow, colour in bands:
                triangles += _arrow_triangles(
                    arrow.start, arrow.end, ARROW_HALF, ARROW_HEIGHT, colour, grow
                )
        data = np.asarray(triangles, dtype="f4").tobytes()
        self._content["arrows"] = data
        self._upload(data, "arrows", "arrow_vao", self._arrow_vao)
        self.arrow_vertices = len(triangles)

    # -- drawing ----------------------------------------------------------------------------

    def still_key(self) -> bytes:
        """What the map is drawn from besides the camera: tiles, sprites, arrows, hover."""
        parts = (self._content.get(k, b"") for k in ("countries", "sprites", "arrows"))
        return b"|".join((*parts, str(self.hover).encode()))

    def draw(self, frame: Frame) -> tuple[int, int]:
        ctx = self.ctx
        view_proj = frame.view_proj
        copies = self._visible_copies(view_proj)
        commands = []
        offsets: list[tuple[float, float]] = []
        triangles = 0
        for ox, oz, _ in copies:
            for chunk in self._chunks_in_view(view_proj, ox, oz):
                first, count, _rect = self.mesh.chunks[chunk]
                commands.append((count, 1, first, 0, len(offsets)))
                offsets.append((ox, oz))
                triangles += count // 3
        self.copies_drawn = len(copies)
        calls = 0
        vp = view_proj.T.copy().tobytes()
        if commands:
            ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
            ctx.cull_face = "back"
            ctx.depth_func = "<"
            data = np.asarray(offsets, dtype="f4").tobytes()
            self._upload(data, "offsets", "map_vao", self._map_vao)
            packed = np.asarray(commands, dtype="u4").tobytes()
            if len(packed) > self.indirect.size:
                self.indirect.release()
                self.indirect = ctx.buffer(reserve=len(packed) * 2, dynamic=True)
            self.indirect.write(packed)
            p = self.map_prog
            p["u_view_proj"].write(vp)  # type: ignore[union-attr]
            p["u_light_dir"].value = tuple(frame.light_dir)  # type: ignore[union-attr]
            p["u_data"].value = 1  # type: ignore[union-attr]
            self.data.use(location=1)
            self.map_vao.render_indirect(self.indirect, moderngl.TRIANGLES, len(commands))
            calls += 1
        ctx.cull_face = "back"
        if commands and self.segment_indices:
            calls += self._draw_borders(vp, copies)
            triangles += len(copies) * self.segment_indices // 3
        if self.arrow_vertices:
            ctx.enable_only(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            self.flat_prog["u_view_proj"].write(vp)  # type: ignore[union-attr]
            for ox, oz, _ in copies:
                self.flat_prog["u_offset"].value = (ox, oz)  # type: ignore[union-attr]
                self.arrow_vao.render(moderngl.TRIANGLES, vertices=self.arrow_vertices)
                calls += 1
                triangles += self.arrow_vertices // 3
        if self.sprite_count:
            ctx.enable_only(moderngl.BLEND)
            ctx.blend_func = moderngl.SRC_ALPHA, moderngl.ONE_MINUS_SRC_ALPHA
            sp = self.sprite_prog
            sp["u_view_proj"].write(vp)  # type: ignore[union-attr]
            # Upright, facing the camera: text is never slanted by the perspective.
            inv = np.linalg.inv(view_proj.astype(np.float64))
            sp["u_right"].value = tuple(_direction(inv, (1.0, 0.0)))  # type: ignore[union-attr]
            sp["u_up"].value = tuple(_direction(inv, (0.0, 1.0)))  # type: ignore[union-attr]
            sp["u_atlas"].value = 2  # type: ignore[union-attr]
            self.atlas.texture.use(location=2)
            for ox, oz, _ in copies:
                sp["u_offset"].value = (ox, oz)  # type: ignore[union-attr]
                self.sprite_vao.render(moderngl.TRIANGLES, vertices=6, instances=self.sprite_count)
                calls += 1
                triangles += 2 * self.sprite_count
        ctx.blend_equation = moderngl.FUNC_ADD  # type: ignore[assignment]
        ctx.enable_only(moderngl.DEPTH_TEST)
        return calls, triangles

    def _draw_borders(
        self, vp: bytes, copies: list[tuple[float, float, tuple[float, float, float, float]]]
    ) -> int:
        """The border bands over the tiles: dark ones (MIN blending), then the hovered
        country's light outline (MAX blending); returns the draw calls."""
        ctx = self.ctx
        ctx.enable_only(moderngl.DEPTH_TEST | moderngl.BLEND)
        ctx.depth_func = "<="
        ctx.fbo.depth_mask = False
        ctx.blend_func = moderngl.ONE, moderngl.ONE
        bp = self.border_prog
        bp["u_view_proj"].write(vp)  # type: ignore[union-attr]
        bp["u_data"].value = 1  # type: ignore[union-attr]
        bp["u_hover"].value = self.hover  # type: ignore[union-attr]
        bp["u_width"].value = BORDER_WIDTH  # type: ignore[union-attr]
        self.data.use(location=1)
        calls = 0
        passes = ((0, moderngl.MIN), (1, moderngl.MAX)) if self.hover >= 0 else ((0, moderngl.MIN),)
        for index, equation in passes:
            ctx.blend_equation = equation  # type: ignore[assignment]
            bp["u_pass"].value = index  # type: ignore[union-attr]
            for ox, oz, _ in copies:
                bp["u_offset"].value = (ox, oz)  # type: ignore[union-attr]
                self.border_vao.render(moderngl.TRIANGLES, vertices=self.segment_indices)
                calls += 1
        ctx.blend_equation = moderngl.FUNC_ADD  # type: ignore[assignment]
        ctx.fbo.depth_mask = True
        return calls

    def release(self) -> None:
        for obj in (
            self.map_vao,
            self.border_vao,
            self.segment_vbo,
            self.segment_ibo,
            self.border_prog,
            self.sprite_vao,
            self.arrow_vao,
            self.vbo,
            self.ibo,
            self.offsets,
            self.indirect,
            self.sprites,
            self.arrows,
            self.data,
            self.atlas.texture,
            self.map_prog,
            self.sprite_prog,
            self.flat_prog,
        ):
            obj.release()

    # -- helpers ----------------------------------------------------------------------------

    def _upload(
        self, data: bytes, buffer_name: str, vao_name: str, make_vao: Callable[[], Any]
    ) -> None:
        """Write ``data`` into the buffer attribute ``buffer_name``; one too small is replaced
        by one at least twice its size, and the vertex array ``vao_name`` is made again."""
        buffer: moderngl.Buffer = getattr(self, buffer_name)
        if len(data) > buffer.size:
            grown = max(len(data), buffer.size * 2)
            buffer.release()
            getattr(self, vao_name).release()
            buffer = self.ctx.buffer(reserve=grown, dynamic=True)
            setattr(self, buffer_name, buffer)
            setattr(self, vao_name, make_vao())
        if data:
            buffer.write(data)

    def _map_vao(self) -> moderngl.VertexArray:
        return self.ctx.vertex_array(
            self.map_prog,
            [
                (self.vbo, "3f 3f 1f 1f", "in_pos", "in_normal", "in_country", "in_rise"),
                (self.offsets, "2f/i", "in_offset"),
            ],
            index_buffer=self.ibo,
            index_element_size=4,
        )

    def _sprite_vao(self) -> moderngl.VertexArray:
        return self.ctx.vertex_array(
            self.sprite_prog,
            [(self.sprites, "3f 4f 4f 4f 4x/i", "in_anchor", "in_rect", "in_uv", "in_color")],
        )

    def _arrow_vao(self) -> moderngl.VertexArray:
        return self.ctx.vertex_array(
            self.flat_prog, [(self.arrows, "3f 4f", "in_position", "in_color")]
        )

    def _chunks_in_view(
        self, view_proj: npt.NDArray[np.float32], ox: float, oz: float
    ) -> list[int]:
        """The non-empty chunks of the copy at (ox, oz) whose boxes meet the view frustum."""
        boxes = self._boxes + np.array([ox, 0.0, oz, 0.0], dtype="f4")
        clip = boxes @ view_proj.T  # (chunks, 8, 4)
        w = clip[:, :, 3:4]
        outside = (
            np.all(clip[:, :, 0:1] < -w, axis=(1, 2))
            | np.all(clip[:, :, 0:1] > w, axis=(1, 2))
            | np.all(clip[:, :, 1:2] < -w, axis=(1, 2))
            | np.all(clip[:, :, 1:2] > w, axis=(1, 2))
            | np.all(w <= 0, axis=(1, 2))
        )
        return [int(c) for c in np.flatnonzero(~outside & self._non_empty)]

    def _visible_copies(
        self, view_proj: npt.NDArray[np.float32]
    ) -> list[tuple[float, float, tuple[float, float, float, float]]]:
        """The copies of the map (offsets) that meet the part of the ground in view, with
        that part's rectangle (x0, z0, x1, z1), grown by a margin for tall tiles."""
        rect = ground_rect(view_proj)
        w, d = self.mesh.width, self.mesh.depth
        i0 = max(math.floor(rect[0] / w), -MAX_COPIES)
        i1 = min(math.floor(rect[2] / w), MAX_COPIES)
        j0 = max(math.floor(rect[1] / d), -MAX_COPIES)
        j1 = min(math.floor(rect[3] / d), MAX_COPIES)
        return [(i * w, j * d, rect) for j in range(j0, j1 + 1) for i in range(i0, i1 + 1)]


def ground_rect(
    view_proj: npt.NDArray[np.float32], margin: float = 1.5
) -> tuple[float, float, float, float]:
    """The rectangle (x0, z0, x1, z1) of the ground plane y = 0 the camera can see: each
    screen corner's ray meets the ground, or (above the horizon) reaches the far plane."""
    inv = np.linalg.inv(view_proj.astype(np.float64))
    points = []
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            near = inv @ np.array([sx, sy, -1.0, 1.0])
            far = inv @ np.array([sx, sy, 1.0, 1.0])
            near = near[:3] / near[3]
            far = far[:3] / far[3]
            for height in (0.0, ARROW_HEIGHT):
                crossed = (near[1] - height) * (far[1] - height) < 0
                hit = ray_at_height((near, far - near), height) if crossed else None
                points.append(hit if hit is not None else far)
    xs = [p[0] for p in points]
    zs = [p[2] for p in points]
    return (min(xs) - margin, min(zs) - margin, max(xs) + margin, max(zs) + margin)


def _direction(inv: npt.NDArray[np.float64], axis: tuple[float, float]) -> npt.NDArray[np.float32]:
    """The world direction of a screen axis at the centre of the view, normalised."""
    a = inv @ np.array([0.0, 0.0, 0.5, 1.0])
    b = inv @ np.array([axis[0] * 0.1, axis[1] * 0.1, 0.5, 1.0])
    v = b[:3] / b[3] - a[:3] / a[3]
    out: npt.NDArray[np.float32] = (v / np.linalg.norm(v)).astype("f4")
    return out


def _arrow_triangles(
    start: tuple[float, float],
    end: tuple[float, float],
    half: float,
    y: float,
    color: tuple[float, float, float, float],
    grow: float = 0.0,
) -> list[list[float]]:
    """A shaft of half-width ``half`` and a head twice as wide, as triangles with colours;
    ``grow`` moves every edge that far outward (the same arrow, edged: an outline)."""
    sx, sz = start
    ex, ez = end
    dx, dz = ex - sx, ez - sz
    length = math.hypot(dx, dz)
    if length < 1e-6:
        return []
    ux, uz = dx / length, dz / length
    nx, nz = -uz, ux
    inset = min(0.25, length * 0.15)
    sx, sz = sx + ux * (inset - grow), sz + uz * (inset - grow)
    ex, ez = ex - ux * inset, ez - uz * inset
    head = min(length * 0.4, half * 5.0)
    hx, hz = ex - ux * (head + grow), ez - uz * (head + grow)
    w = half * 2.4
    tip = half * 0.6
    # The head's sides moved out by ``grow``: the tip goes forward by grow over the sine of
    # the half-angle at the tip; a base corner (the base moved back by grow) lies where the
    # moved side crosses the moved base.
    reach = head + tip  # from the head's base to its tip
    slant = math.hypot(reach, w)
    forward = grow * slant / w
    side = w + grow * (slant + w) / reach
    shaft = half + grow
    corners = [
        (sx + nx * shaft, sz + nz * shaft),
        (hx + nx * shaft, hz + nz * shaft),
        (hx - nx * shaft, hz - nz * shaft),
        (sx - nx * shaft, sz - nz * shaft),
    ]
    tris = [corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]]
    tx, tz = ex + ux * (tip + forward), ez + uz * (tip + forward)
    tris += [(hx + nx * side, hz + nz * side), (tx, tz), (hx - nx * side, hz - nz * side)]
    return [[x, y, z, *color] for x, z in tris]
