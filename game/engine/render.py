"""The 3D renderer: sky, a shadow pass from the sun and a lit scene pass.

Every mesh lives in one vertex buffer; every frame the visible nodes become one instance
buffer sorted by mesh and one indirect buffer with a command per mesh, so the shadow pass and
the scene pass are each a single multi-draw call whatever the number of meshes and pieces.
Each pass sets its own GL state and never relies on what pyglet, imgui or another pass left.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import moderngl
import numpy as np
import pyrr

from game.engine.mesh import Mesh, pack_models
from game.engine.scene import Node, Scene
from game.engine.targets import Target, sized, warm_copies
from game.resources import asset_dir, asset_path

log = logging.getLogger(__name__)

INSTANCE_FLOATS = 24  # model matrix (16), tint rgb + glow (4), material (4)
SHADOW_SIZE = 1024
SKY_CELLS = 8  # the sky's grid: its colour is worked out at the cells' corners


@dataclass
class RenderStats:
    """What one frame cost: GL draw calls, triangles drawn in the scene pass, nodes drawn."""

    draw_calls: int = 0
    triangles: int = 0
    nodes: int = 0
    meshes: int = 0
    shadow_updated: bool = False  # False: the shadow map of an earlier frame was still right
    reused: bool = False  # True: the still part of an earlier frame was copied, not drawn


@dataclass
class Frame:
    """What a :class:`Layer` needs to draw itself into the frame the scene pass just drew."""

    ctx: moderngl.Context
    view_proj: np.ndarray  # 4x4, column vectors (multiply points on the right)
    eye: np.ndarray
    light_dir: np.ndarray  # normalised, pointing from the sun into the scene
    light_color: np.ndarray
    ambient: np.ndarray
    size: tuple[int, int]
    time: float


class Layer(Protocol):
    """Geometry a controller builds and draws itself (a generated map), added to
    ``Scene.layers``. It is drawn after the scene's nodes and before the sky, so the depth test
    is shared; it sets its own GL state and returns the draw calls and triangles it issued."""

    def draw(self, frame: Frame) -> tuple[int, int]: ...

    def release(self) -> None: ...


class StillLayer(Layer, Protocol):
    """A layer that can say what it draws from. ``still_key`` returns bytes that change
    whenever its picture would (apart from the camera and the light, which the renderer
    compares itself), or None while it animates. A scene whose layers all have it may have
    its still frames copied from a cache instead of drawn; a layer without it is drawn every
    frame."""

    def still_key(self) -> bytes | None: ...


def load_program(ctx: moderngl.Context, name: str) -> moderngl.Program:
    """Compile ``shaders/NAME.glsl``, which holds both stages behind ``#if defined`` guards."""
    source = asset_path("shaders", f"{name}.glsl").read_text(encoding="utf-8")
    header = "#version 330 core\n"
    return ctx.program(
        vertex_shader=header + "#define VERTEX_SHADER\n" + source,
        fragment_shader=header + "#define FRAGMENT_SHADER\n" + source,
    )


class MeshLibrary:
    """Every model under ``models/``, packed into one indexed vertex buffer.

    Identical corners are merged (in first-seen order, which keeps the vertex cache of a
    software rasteriser warm): the water grid shares each vertex among six triangles, so it is
    shaded a sixth as often.
    """

    def __init__(self, ctx: moderngl.Context, folder: Path | None = None) -> None:
        packed = pack_models(folder or asset_dir("models"))
        self.meshes: dict[str, Mesh] = packed.meshes
        self.radius = packed.radius
        self.first, self.count, self.base = packed.first, packed.count, packed.base
        self.vertices = packed.vertices
        self.buffer = ctx.buffer(packed.vertex_bytes)
        self.index_buffer = ctx.buffer(packed.index_bytes)

    def __contains__(self, name: object) -> bool:
        return name in self.meshes

    def release(self) -> None:
        self.buffer.release()
        self.index_buffer.release()


def _uniform(prog: moderngl.Program, name: str) -> moderngl.Uniform:
    member = prog[name]
    assert isinstance(member, moderngl.Uniform), name
    return member


class Renderer:
    """Draws a :class:`Scene` into a framebuffer; owns the GL objects it needs."""

    def __init__(self, ctx: moderngl.Context, meshes: MeshLibrary | None = None) -> None:
        self.ctx = ctx
        self.meshes = meshes or MeshLibrary(ctx)
        self.shadows = True
        self.time = 0.0
        self.stats = RenderStats()
        self.scene_prog = load_program(ctx, "scene")
        self.shadow_prog = load_program(ctx, "shadow")
        self.sky_prog = load_program(ctx, "sky")
        self._capacity = 0
        self._instances: moderngl.Buffer | None = None
        self._indirect: moderngl.Buffer | None = None
        self._scene_vao: moderngl.VertexArray | None = None
        self._shadow_vao: moderngl.VertexArray | None = None
        self._ensure_capacity(256)
        self.sky_vao = ctx.vertex_array(self.sky_prog, [])
        self.shadow_map = ctx.depth_texture((SHADOW_SIZE, SHADOW_SIZE))
        self.shadow_map.compare_func = "<="
        self.shadow_map.filter = (moderngl.LINEAR, moderngl.LINEAR)
        # Outside the map counts as lit: clamp to the border, whose depth the pass clears to 1.
        self.shadow_map.repeat_x = False
        self.shadow_map.repeat_y = False
        self.shadow_fbo = ctx.framebuffer(depth_attachment=self.shadow_map)
        self._missing_logged: set[str] = set()
        self._shadow_key = b""
        self._light_vp = np.eye(4, dtype="f4")
        self._rows = np.zeros((0, INSTANCE_FLOATS), dtype="f4")
        #: Keep the still part of a frame and copy it while nothing changes (see render).
        self.cache_still = True
        self._drawn_triangles = 0
        self._still_key: bytes | None = None  # the key of the last frame drawn
        self._cached = False  # the cache holds the still part of that frame
        self._copied = False  # the cache's copies made once (targets.warm_copies)
        self._cache: Target | None = None
        self._work: Target | None = None  # the cache with the water drawn over it
        self._kept: dict[object, Any] = {}  # see keep()
        self._view: np.ndarray = np.eye(4, dtype="f4")  # see view_projection()
        self._view_key: tuple[object, ...] = ()

    # -- frame ------------------------------------------------------------------------------

    def render(
        self,
        scene: Scene,
        fbo: moderngl.Framebuffer,
        size: tuple[int, int],
        origin: tuple[int, int] = (0, 0),
    ) -> RenderStats:
        """Draw sky, shadows and scene into ``fbo``, in the ``size`` pixels whose bottom-left
        corner is at ``origin`` (the whole of ``fbo`` by default; the part of the window the
        game has beside the F3 overlay otherwise); nothing outside them changes.

        A turn-based game spends most frames still. When a frame's still part (every node but
        the water, the layers, the sky, the camera and the light) is the same as the frame
        before, it is drawn once more into a cache and from then on copied instead of drawn;
        only the water, whose waves move every frame, is drawn over the copy.
        """
        stats = RenderStats()
        size = max(1, size[0]), max(1, size[1])
        if self.cache_still and not self._copied:
            self._copied = True
            self._cache = warm_copies(self.ctx, self._cache, fbo, origin, size)
        commands, instance_data, stats.triangles, stats.nodes, casters = self._gather(scene)
        stats.meshes = len(commands)
        view_proj = self.view_projection(scene, size)
        drawn = _Drawn(scene, commands, instance_data, casters, view_proj, size)
        key = self._key(drawn)
        if key is not None and key == self._still_key and self.cache_still:
            if not self._cached:  # the second frame alike: worth keeping
                self._draw_still(drawn)
            stats.triangles = self._drawn_triangles  # what the copied picture holds
            self._from_cache(drawn, fbo, origin, stats)
            self.stats = stats
            return stats
        self._still_key, self._cached = key, False
        self._upload(commands, instance_data)
        self._draw(scene, fbo, (*origin, *size), commands, casters, view_proj, stats)
        self._drawn_triangles = stats.triangles
        self.stats = stats
        return stats

    def _draw(
        self,
        scene: Scene,
        fbo: moderngl.Framebuffer,
        viewport: tuple[int, int, int, int],
        commands: list[tuple[int, int, int, int, int]],
        casters: int,
        view_proj: np.ndarray,
        stats: RenderStats,
        *,
        water: bool = True,
    ) -> None:
        """The whole scene into ``viewport`` (x, y, width, height) of ``fbo``: nodes, layers,
        water (unless not ``water``), sky."""
        fbo.use()
        self.ctx.viewport = viewport
        self.ctx.scissor = None
        bg = scene.background.bottom
        fbo.clear(float(bg[0]), float(bg[1]), float(bg[2]), 1.0, depth=1.0, viewport=viewport)
        if commands:
            self._draw_shadows(scene, commands, casters, stats)
            fbo.use()
            self.ctx.viewport = viewport
            self._draw_nodes(scene, view_proj, 0, casters, stats)
        self._draw_layers(scene, view_proj, (viewport[2], viewport[3]), stats)
        if water:
            self._draw_nodes(scene, view_proj, casters, len(commands), stats)
        self._draw_sky(scene, stats)

    def _draw_shadows(
        self,
        scene: Scene,
        commands: list[tuple[int, int, int, int, int]],
        casters: int,
        stats: RenderStats,
    ) -> None:
        """Redraw the shadow map if a caster or the light moved since it was last drawn."""
        light_vp = self._light_matrix(scene)
        self._light_vp = light_vp
        # In a turn-based game most frames are still: a still frame reuses the last map.
        caster_rows = sum(c[1] for c in commands[:casters])
        shadow_key = self._rows[:caster_rows].tobytes() + light_vp.tobytes()
        if not (self.shadows and casters and shadow_key != self._shadow_key):
            return
        self._shadow_key = shadow_key
        stats.shadow_updated = True
        self.shadow_fbo.use()
        self.ctx.viewport = (0, 0, SHADOW_SIZE, SHADOW_SIZE)
        self.shadow_fbo.clear(depth=1.0)
        self.ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
        self.ctx.cull_face = "front"  # back faces into the map: less acne on lit faces
        self.ctx.depth_func = "<"
        _uniform(self.shadow_prog, "u_light_vp").write(light_vp.T.copy().tobytes())
        assert self._shadow_vao is not None and self._indirect is not None
        # Only the leading commands: water is sorted last and casts no shadow.
        self._shadow_vao.render_indirect(self._indirect, moderngl.TRIANGLES, casters)
        stats.draw_calls += 1
        self.ctx.cull_face = "back"

    def _draw_nodes(
        self, scene: Scene, view_proj: np.ndarray, first: int, end: int, stats: RenderStats
    ) -> None:
        """The lit pass over the indirect commands ``first`` up to ``end``."""
        if end <= first:
            return
        self.ctx.enable_only(moderngl.DEPTH_TEST)
        self.ctx.depth_func = "<"
        cam = scene.camera
        p = self.scene_prog
        _uniform(p, "u_view_proj").write(view_proj.T.copy().tobytes())
        _uniform(p, "u_light_vp").write(self._light_vp.T.copy().tobytes())
        self._set(p, "u_time", self.time)
        self._set(p, "u_eye", tuple(cam.placed()[0]))
        direction = scene.light.direction / np.linalg.norm(scene.light.direction)
        self._set(p, "u_light_dir", tuple(direction))
        self._set(p, "u_light_color", tuple(scene.light.color))
        self._set(p, "u_ambient", tuple(scene.light.ambient))
        self._set(p, "u_sky_top", tuple(scene.background.top))
        self._set(p, "u_sky_bottom", tuple(scene.background.bottom))
        self._set(p, "u_fog", scene.background.fog)
        self._set(p, "u_shadows", self.shadows)
        self._set(p, "u_shadow_map", 0)
        self.shadow_map.use(location=0)
        assert self._scene_vao is not None and self._indirect is not None
        self._scene_vao.render_indirect(
            self._indirect, moderngl.TRIANGLES, end - first, first=first
        )
        stats.draw_calls += 1

    def _upload(self, commands: list[tuple[int, int, int, int, int]], rows: np.ndarray) -> None:
        """The instance rows and the indirect commands into their buffers."""
        self._rows = rows
        if not commands:
            return
        self._ensure_capacity(len(rows))
        assert self._instances is not None and self._indirect is not None
        self._instances.write(rows.tobytes())
        # Indexed commands: count, instances, first index, base vertex, base instance.
        packed = np.asarray(commands, dtype="u4")
        self._indirect.orphan(packed.nbytes)
        self._indirect.write(packed.tobytes())

    def _key(self, drawn: _Drawn) -> bytes | None:
        """Everything the still part of a frame is drawn from, or None when a layer cannot
        say (it is then drawn every frame)."""
        scene, commands, rows, casters, view_proj, size = drawn
        parts = [
            np.asarray(size, "i4").tobytes(),
            np.asarray(commands, "u4").tobytes(),
            rows[: sum(c[1] for c in commands[:casters])].tobytes(),
            np.asarray(view_proj, "f4").tobytes(),
            np.asarray(scene.camera.placed()[0], "f4").tobytes(),
            _light_bytes(scene, self.shadows),
        ]
        for layer in scene.layers:
            layer_key = getattr(layer, "still_key", None)
            part = layer_key() if layer_key is not None else None
            if part is None:
                return None
            parts.append(part)
        return b"|".join(parts)

    def _draw_still(self, drawn: _Drawn) -> None:
        """Draw the still part of the frame (all but the water) into the cache."""
        scene, commands, rows, casters, view_proj, size = drawn
        self._cache = sized(self.ctx, self._cache, size)
        self._upload(commands, rows)
        self._draw(scene, self._cache.fbo, (0, 0, *size), commands, casters, view_proj,
                   RenderStats(), water=False)  # fmt: skip
        self._cached = True

    def _from_cache(
        self, drawn: _Drawn, fbo: moderngl.Framebuffer, origin: tuple[int, int], stats: RenderStats
    ) -> None:
        """A still frame: the cached picture, and the water drawn again over it."""
        scene, commands, rows, casters, view_proj, _ = drawn
        cache = self._cache
        assert cache is not None
        stats.reused = True
        if casters == len(commands):  # nothing moves by itself: copy the colours, done
            cache.copy_colour_to(fbo, origin)
            stats.draw_calls += 1
            return
        # The water is drawn over a copy of the picture and its depth (the target may be the
        # window, whose depth buffer need not match ours), then the colours are copied out.
        self._work = work = sized(self.ctx, self._work, cache.size)
        self._upload(commands, rows)  # the water's rows may differ from the cached frame's
        self.ctx.copy_framebuffer(work.fbo, cache.fbo)
        work.fbo.use()
        self.ctx.viewport = (0, 0, *work.size)
        self._draw_nodes(scene, view_proj, casters, len(commands), stats)
        work.copy_colour_to(fbo, origin)
        stats.draw_calls += 2

    def _draw_layers(
        self, scene: Scene, view_proj: np.ndarray, size: tuple[int, int], stats: RenderStats
    ) -> None:
        if not scene.layers:
            return
        cam = scene.camera
        light = scene.light
        frame = Frame(
            ctx=self.ctx,
            view_proj=view_proj,
            eye=np.asarray(cam.placed()[0], dtype="f4"),
            light_dir=(light.direction / np.linalg.norm(light.direction)).astype("f4"),
            light_color=np.asarray(light.color, dtype="f4"),
            ambient=np.asarray(light.ambient, dtype="f4"),
            size=size,
            time=self.time,
        )
        for layer in scene.layers:
            calls, triangles = layer.draw(frame)
            stats.draw_calls += calls
            stats.triangles += triangles

    def _draw_sky(self, scene: Scene, stats: RenderStats) -> None:
        """The sky goes last, at the far plane, so only pixels no object covered are shaded."""
        self.ctx.enable_only(moderngl.DEPTH_TEST)
        self.ctx.depth_func = "<="
        _uniform(self.sky_prog, "u_top").value = tuple(scene.background.top)
        _uniform(self.sky_prog, "u_bottom").value = tuple(scene.background.bottom)
        _uniform(self.sky_prog, "u_cells").value = SKY_CELLS
        self.sky_vao.render(moderngl.TRIANGLES, vertices=SKY_CELLS * SKY_CELLS * 6)
        stats.draw_calls += 1

    def view_projection(self, scene: Scene, size: tuple[int, int]) -> np.ndarray:
        """The camera's projection times its view for a view of ``size``: worked out again
        only when the camera or the size changes (a frame asks for it several times: to draw,
        to place the labels, to pick). Read-only: it is shared."""
        cam = scene.camera
        aspect = max(1, size[0]) / max(1, size[1])
        key = (*cam.view_key(), aspect)
        if key != self._view_key:
            vp: np.ndarray = cam.projection(aspect) @ cam.view()
            vp.flags.writeable = False
            self._view, self._view_key = vp, key
        return self._view

    def keep(self, key: object, make: Callable[[], Any]) -> Any:
        """The GL object (a program, a texture) kept under ``key``: ``make()``'s, made the
        first time a scene asks and kept for its next visits (the menu's card pictures and
        their program took a frame of a third of a second each time it opened); released
        with the renderer, never by the scene."""
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]

    def release(self) -> None:
        for kept in self._kept.values():
            kept.release()
        self._kept.clear()
        for obj in (self._scene_vao, self._shadow_vao, self._instances, self._indirect):
            if obj is not None:
                obj.release()
        for target in (self._cache, self._work):
            if target is not None:
                target.release()
        self._cache = self._work = None
        self._cached = False
        self.sky_vao.release()
        self.shadow_fbo.release()
        self.shadow_map.release()
        self.meshes.release()

    # -- helpers ----------------------------------------------------------------------------

    def _gather(
        self, scene: Scene
    ) -> tuple[list[tuple[int, int, int, int, int]], np.ndarray, int, int, int]:
        """Instance rows and one indirect command per run of a mesh (casters first, water
        last), the triangles, the nodes, and how many leading commands cast shadows.

        Nodes go smallest first: in a board scene the small things (pieces, marks) lie on the
        big ones (board, table), so drawing them first lets the depth test reject the hidden
        part of the big surfaces before it is shaded. A software rasteriser tests depth before
        shading, so this is most of the scene pass's cost; commands are cheap, so a mesh whose
        nodes differ in size (a block for a cell and one for the base) gets a command per run.
        """
        lib = self.meshes
        placed: list[tuple[bool, float, int, Node, np.ndarray]] = []
        for node in scene:
            if node.mesh is None or not node.is_visible():
                continue
            if node.mesh not in lib:
                if node.mesh not in self._missing_logged:
                    log.warning(
                        "scene %s: node %s uses unknown mesh %r", scene.name, node.name, node.mesh
                    )
                    self._missing_logged.add(node.mesh)
                continue
            world = node.world_matrix()
            stretch = float(np.sqrt((world[0:3, 0:3] ** 2).sum(axis=0).max()))
            size = lib.radius[node.mesh] * stretch
            # Water last: it casts no shadow and lies under everything.
            placed.append((node.material.wave, size, len(placed), node, world))
        placed.sort(key=lambda p: p[0:3])
        data = np.empty((len(placed), INSTANCE_FLOATS), dtype="f4")
        commands: list[tuple[int, int, int, int, int]] = []
        triangles = casters = 0
        mesh = None
        for row, (wave, _size, _seq, node, world) in enumerate(placed):
            m = node.material
            data[row, 0:16] = world.T.reshape(16)
            data[row, 16:19] = m.color[0:3]
            data[row, 19] = node.highlight
            data[row, 20] = m.specular
            data[row, 21] = m.shininess
            data[row, 22] = data[row, 23] = 1.0 if wave else 0.0  # water casts no shadow
            count = lib.count[node.mesh]  # type: ignore[index]
            triangles += count // 3
            if node.mesh == mesh and commands:
                first = commands[-1]
                commands[-1] = (first[0], first[1] + 1, first[2], first[3], first[4])
                continue
            mesh = node.mesh
            commands.append((count, 1, lib.first[mesh], lib.base[mesh], row))  # type: ignore[index]
            casters += 0 if wave else 1
        return commands, data, triangles, len(placed), casters

    def _light_matrix(self, scene: Scene) -> np.ndarray:
        light = scene.light
        d = light.direction / np.linalg.norm(light.direction)
        extent = light.shadow_extent
        center = light.shadow_center
        eye = center - d * extent * 2.0
        up = (0.0, 1.0, 0.0) if abs(float(d[1])) < 0.99 else (0.0, 0.0, 1.0)
        view = np.asarray(pyrr.matrix44.create_look_at(eye, center, up), dtype="f4").T
        proj = pyrr.matrix44.create_orthogonal_projection(
            -extent, extent, -extent, extent, 0.1, extent * 4.0
        )
        matrix: np.ndarray = np.asarray(proj, dtype="f4").T @ view
        return matrix

    def _ensure_capacity(self, instances: int) -> None:
        if instances <= self._capacity:
            return
        capacity = max(256, 1 << math.ceil(math.log2(instances)))
        for obj in (self._scene_vao, self._shadow_vao, self._instances):
            if obj is not None:
                obj.release()
        self._instances = self.ctx.buffer(reserve=capacity * INSTANCE_FLOATS * 4, dynamic=True)
        if self._indirect is None:
            self._indirect = self.ctx.buffer(reserve=64 * 20, dynamic=True)
        vbo = self.meshes.buffer
        self._scene_vao = self.ctx.vertex_array(
            self.scene_prog,
            [
                (vbo, "3f 3f 3f", "in_position", "in_normal", "in_color"),
                (self._instances, "16f 4f 4f/i", "in_model", "in_tint", "in_material"),
            ],
            index_buffer=self.meshes.index_buffer,
            index_element_size=4,
        )
        self._shadow_vao = self.ctx.vertex_array(
            self.shadow_prog,
            [
                (vbo, "3f 24x", "in_position"),
                (self._instances, "16f 16x 4f/i", "in_model", "in_material"),
            ],
            index_buffer=self.meshes.index_buffer,
            index_element_size=4,
        )
        self._capacity = capacity

    @staticmethod
    def _set(prog: moderngl.Program, name: str, value: object) -> None:
        if name in prog:
            _uniform(prog, name).value = value


def _light_bytes(scene: Scene, shadows: bool) -> bytes:
    """The light and the sky as bytes, for the still-frame key (a repr of the arrays would
    cost a good part of a millisecond every frame)."""
    light, sky = scene.light, scene.background
    values = [
        *light.direction, *light.color, *light.ambient, light.shadow_extent,
        *light.shadow_center, *sky.top, *sky.bottom, sky.fog, float(shadows),
    ]  # fmt: skip
    return np.asarray(values, dtype="f8").tobytes()


class _Drawn(NamedTuple):
    """What a frame is drawn from: the scene, its indexed draw commands and instance rows (the
    first ``casters`` commands cast shadows; the water's come last), the camera's matrix and
    the size in pixels."""

    scene: Scene
    commands: list[tuple[int, int, int, int, int]]
    rows: np.ndarray
    casters: int
    view_proj: np.ndarray
    size: tuple[int, int]
