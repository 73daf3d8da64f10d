"""The 3D renderer: sky, a shadow pass from the sun and a lit scene pass.

Every mesh lives in one vertex buffer; every frame the visible nodes become one instance
buffer sorted by mesh and one indirect buffer with a command per mesh, so the shadow pass and
the scene pass are each a single multi-draw call whatever the number of meshes and pieces.
Each pass sets its own GL state and never relies on what pyglet, imgui or another pass left.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import moderngl
import numpy as np
import pyrr

from game.engine.mesh import Mesh, load_obj
from game.engine.scene import Node, Scene
from game.resources import asset_dir, asset_path

log = logging.getLogger(__name__)

INSTANCE_FLOATS = 24  # model matrix (16), tint rgb + glow (4), material (4)
SHADOW_SIZE = 1024


@dataclass
class RenderStats:
    """What one frame cost: GL draw calls, triangles drawn in the scene pass, nodes drawn."""

    draw_calls: int = 0
    triangles: int = 0
    nodes: int = 0
    meshes: int = 0
    shadow_updated: bool = False  # False: the shadow map of an earlier frame was still right


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
        folder = folder or asset_dir("models")
        self.meshes: dict[str, Mesh] = {}
        for path in sorted(folder.glob("*.obj")):
            self.meshes[path.stem] = load_obj(path)
        if not self.meshes:
            raise FileNotFoundError(f"no models found in {folder}")
        self.first: dict[str, int] = {}  # first index of the mesh in the index buffer
        self.count: dict[str, int] = {}  # number of indices (three per triangle)
        self.base: dict[str, int] = {}  # added to every index of the mesh
        vertex_chunks = []
        index_chunks = []
        vertices = indices = 0
        for name, mesh in self.meshes.items():
            unique, index = _merge_corners(mesh.vertices)
            self.first[name], self.count[name], self.base[name] = indices, len(index), vertices
            vertex_chunks.append(unique)
            index_chunks.append(index)
            vertices += len(unique)
            indices += len(index)
        self.vertices = vertices
        self.buffer = ctx.buffer(np.concatenate(vertex_chunks).astype("f4").tobytes())
        self.index_buffer = ctx.buffer(np.concatenate(index_chunks).astype("u4").tobytes())

    def __contains__(self, name: object) -> bool:
        return name in self.meshes

    def release(self) -> None:
        self.buffer.release()
        self.index_buffer.release()


def _uniform(prog: moderngl.Program, name: str) -> moderngl.Uniform:
    member = prog[name]
    assert isinstance(member, moderngl.Uniform), name
    return member


def _merge_corners(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unique rows of ``corners`` in first-seen order, and the index of each corner."""
    seen: dict[bytes, int] = {}
    index = np.empty(len(corners), dtype="u4")
    keep: list[int] = []
    for i, row in enumerate(np.ascontiguousarray(corners, dtype="f4")):
        key = row.tobytes()
        j = seen.get(key)
        if j is None:
            j = seen[key] = len(keep)
            keep.append(i)
        index[i] = j
    return corners[keep], index


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

    # -- frame ------------------------------------------------------------------------------

    def render(self, scene: Scene, fbo: moderngl.Framebuffer, size: tuple[int, int]) -> RenderStats:
        """Draw sky, shadows and scene into ``fbo`` (``size`` is its pixel size)."""
        stats = RenderStats()
        width, height = max(1, size[0]), max(1, size[1])
        commands, instance_data, stats.triangles, stats.nodes, casters = self._gather(scene)
        stats.meshes = len(commands)

        fbo.use()
        self.ctx.viewport = (0, 0, width, height)
        self.ctx.scissor = None
        bg = scene.background.bottom
        fbo.clear(float(bg[0]), float(bg[1]), float(bg[2]), 1.0, depth=1.0)
        if not commands:
            self._draw_layers(scene, size, stats)
            self._draw_sky(scene, stats)
            self.stats = stats
            return stats

        self._ensure_capacity(len(instance_data))
        assert self._instances is not None and self._indirect is not None
        self._instances.write(instance_data.tobytes())
        # Indexed commands: count, instances, first index, base vertex, base instance.
        packed = np.asarray(commands, dtype="u4")
        self._indirect.orphan(packed.nbytes)
        self._indirect.write(packed.tobytes())
        light_vp = self._light_matrix(scene)

        # The shadow map only changes when a caster moves or the light does; in a turn-based
        # game most frames are still, so a still frame reuses the last map.
        caster_rows = sum(c[1] for c in commands[:casters])
        shadow_key = instance_data[:caster_rows].tobytes() + light_vp.tobytes()
        if self.shadows and casters and shadow_key != self._shadow_key:
            self._shadow_key = shadow_key
            stats.shadow_updated = True
            self.shadow_fbo.use()
            self.ctx.viewport = (0, 0, SHADOW_SIZE, SHADOW_SIZE)
            self.shadow_fbo.clear(depth=1.0)
            self.ctx.enable_only(moderngl.DEPTH_TEST | moderngl.CULL_FACE)
            self.ctx.cull_face = "front"  # back faces into the map: less acne on lit faces
            self.ctx.depth_func = "<"
            _uniform(self.shadow_prog, "u_light_vp").write(light_vp.T.copy().tobytes())
            assert self._shadow_vao is not None
            # Only the leading commands: water is sorted last and casts no shadow.
            self._shadow_vao.render_indirect(self._indirect, moderngl.TRIANGLES, casters)
            stats.draw_calls += 1
            self.ctx.cull_face = "back"

        fbo.use()
        self.ctx.viewport = (0, 0, width, height)
        self.ctx.enable_only(moderngl.DEPTH_TEST)
        self.ctx.depth_func = "<"
        cam = scene.camera
        view_proj = cam.projection(width / height) @ cam.view()
        p = self.scene_prog
        _uniform(p, "u_view_proj").write(view_proj.T.copy().tobytes())
        _uniform(p, "u_light_vp").write(light_vp.T.copy().tobytes())
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
        assert self._scene_vao is not None
        self._scene_vao.render_indirect(self._indirect, moderngl.TRIANGLES, len(commands))
        stats.draw_calls += 1
        self._draw_layers(scene, size, stats)
        self._draw_sky(scene, stats)
        self.stats = stats
        return stats

    def _draw_layers(self, scene: Scene, size: tuple[int, int], stats: RenderStats) -> None:
        if not scene.layers:
            return
        width, height = max(1, size[0]), max(1, size[1])
        cam = scene.camera
        light = scene.light
        frame = Frame(
            ctx=self.ctx,
            view_proj=cam.projection(width / height) @ cam.view(),
            eye=np.asarray(cam.placed()[0], dtype="f4"),
            light_dir=(light.direction / np.linalg.norm(light.direction)).astype("f4"),
            light_color=np.asarray(light.color, dtype="f4"),
            ambient=np.asarray(light.ambient, dtype="f4"),
            size=(width, height),
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
        self.sky_vao.render(moderngl.TRIANGLES, vertices=3)
        stats.draw_calls += 1

    def view_projection(self, scene: Scene, size: tuple[int, int]) -> np.ndarray:
        cam = scene.camera
        vp: np.ndarray = cam.projection(max(1, size[0]) / max(1, size[1])) @ cam.view()
        return vp

    def release(self) -> None:
        for obj in (self._scene_vao, self._shadow_vao, self._instances, self._indirect):
            if obj is not None:
                obj.release()
        self.sky_vao.release()
        self.shadow_fbo.release()
        self.shadow_map.release()
        self.meshes.release()

    # -- helpers ----------------------------------------------------------------------------

    def _gather(
        self, scene: Scene
    ) -> tuple[list[tuple[int, int, int, int, int]], np.ndarray, int, int, int]:
        """Instance rows sorted by mesh, one indirect command per mesh in use (casters first,
        water last), the triangles, the nodes, and how many leading commands cast shadows."""
        by_mesh: dict[str, list[Node]] = {}
        for node in scene:
            if node.mesh is None or not node.is_visible():
                continue
            if node.mesh not in self.meshes:
                if node.mesh not in self._missing_logged:
                    log.warning(
                        "scene %s: node %s uses unknown mesh %r", scene.name, node.name, node.mesh
                    )
                    self._missing_logged.add(node.mesh)
                continue
            by_mesh.setdefault(node.mesh, []).append(node)
        # Opaque pieces first, the big water plane last: the depth test then rejects the water
        # hidden behind banks before it is shaded (software rasterisers test depth early).
        order = sorted(by_mesh, key=lambda mesh: any(n.material.wave for n in by_mesh[mesh]))
        by_mesh = {mesh: by_mesh[mesh] for mesh in order}
        total = sum(len(v) for v in by_mesh.values())
        data = np.empty((total, INSTANCE_FLOATS), dtype="f4")
        commands = []
        row = 0
        triangles = 0
        for mesh, nodes in by_mesh.items():
            base = row
            for node in nodes:
                m = node.material
                data[row, 0:16] = node.world_matrix().T.reshape(16)
                data[row, 16:19] = m.color[0:3]
                data[row, 19] = node.highlight
                data[row, 20] = m.specular
                data[row, 21] = m.shininess
                data[row, 22] = 1.0 if m.wave else 0.0
                data[row, 23] = 1.0 if m.wave else 0.0  # water casts no shadow
                row += 1
            lib = self.meshes
            count = lib.count[mesh]
            commands.append((count, len(nodes), lib.first[mesh], lib.base[mesh], base))
            triangles += count // 3 * len(nodes)
        casters = sum(1 for mesh in by_mesh if not any(n.material.wave for n in by_mesh[mesh]))
        return commands, data, triangles, total, casters

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
