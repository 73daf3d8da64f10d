"""Draws Dear ImGui's draw data with ModernGL: the debug overlay's renderer.

imgui-bundle's bundled renderers need PyOpenGL, so the project carries its own: one shader, one
dynamic vertex buffer and one dynamic index buffer, uploaded once per frame, and the textures
Dear ImGui asks for through its 1.92 texture protocol (``ImTextureData`` with status
WantCreate / WantUpdates / WantDestroy; the font atlas is one of them and grows on demand).

``imgui_bundle`` is imported lazily (:func:`imgui_module`), so importing this module stays cheap
and works where imgui-bundle is missing.
"""

from __future__ import annotations

import ctypes
from typing import Any

import moderngl
import numpy as np

__all__ = ["ImguiRenderer", "imgui_module"]

_VERTEX_SHADER = """
#version 330 core
uniform vec4 u_transform;  // xy: scale, zw: translate (imgui display coords -> clip space)
in vec2 in_pos;
in vec2 in_uv;
in vec4 in_col;
out vec2 v_uv;
out vec4 v_col;
void main() {
    v_uv = in_uv;
    v_col = in_col;
    gl_Position = vec4(in_pos * u_transform.xy + u_transform.zw, 0.0, 1.0);
}
"""

_FRAGMENT_SHADER = """
#version 330 core
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_col;
out vec4 f_color;
void main() {
    f_color = v_col * texture(u_texture, v_uv);
}
"""


def imgui_module() -> Any:
    """Import imgui-bundle's imgui module (only when the overlay is first used)."""
    from imgui_bundle import imgui

    return imgui


class ImguiRenderer:
    """The GL side of one imgui context: its program, buffers, sampler and textures.

    Construction makes the GL objects in ``ctx``. Call :meth:`sync_textures` after
    ``imgui.render()`` and before :meth:`render`, with the imgui context current. Every
    :meth:`render` sets all the GL state it needs (framebuffer, viewport, blending on, depth test
    and culling off, scissor per command) and leaves ``ctx.scissor = None`` behind.
    """

    def __init__(self, ctx: moderngl.Context) -> None:
        self.ctx = ctx
        self._textures: dict[int, moderngl.Texture] = {}  # imgui textures by GL name
        self._program = ctx.program(vertex_shader=_VERTEX_SHADER, fragment_shader=_FRAGMENT_SHADER)
        sampler_uniform = self._program["u_texture"]
        assert isinstance(sampler_uniform, moderngl.Uniform)
        sampler_uniform.value = 0
        self._vbo = ctx.buffer(reserve=64 * 1024, dynamic=True)
        self._ibo = ctx.buffer(reserve=32 * 1024, dynamic=True)
        self._vao = ctx.vertex_array(
            self._program,
            [(self._vbo, "2f 2f 4f1", "in_pos", "in_uv", "in_col")],
            index_buffer=self._ibo,
            index_element_size=4,
        )
        self._sampler = ctx.sampler(
            filter=(moderngl.LINEAR, moderngl.LINEAR), repeat_x=False, repeat_y=False
        )

    def release(self, imgui: Any | None = None) -> None:
        """Free the GL objects. With ``imgui`` (its context current), also mark every texture
        it still holds destroyed, so destroying that context touches no GL."""
        if imgui is not None:
            for tex in imgui.get_platform_io().textures:
                if tex.status != imgui.ImTextureStatus.destroyed:
                    tex.set_tex_id(0)
                    tex.status = imgui.ImTextureStatus.destroyed
            imgui.get_io().backend_flags &= ~imgui.BackendFlags_.renderer_has_textures
        for texture in self._textures.values():
            texture.release()
        self._textures.clear()
        for obj in (self._vao, self._vbo, self._ibo, self._program, self._sampler):
            obj.release()

    # ------------------------------------------------------------------ textures
    def sync_textures(self, imgui: Any) -> None:
        """Honour imgui's texture requests (font atlas creation, glyph uploads, destruction)."""
        status = imgui.ImTextureStatus
        for tex in imgui.get_platform_io().textures:
            state = tex.status
            if state == status.want_create:
                self._create_texture(imgui, tex)
            elif state == status.want_updates:
                self._update_texture(tex)
                tex.status = status.ok
            elif state == status.want_destroy:
                texture = self._textures.pop(int(tex.tex_id), None)
                if texture is not None:
                    texture.release()
                tex.set_tex_id(0)
                tex.status = status.destroyed

    def _create_texture(self, imgui: Any, tex: Any) -> None:
        components = 1 if tex.format == imgui.ImTextureFormat.alpha8 else 4
        pixels = tex.get_pixels_array()
        texture = self.ctx.texture((tex.width, tex.height), components, pixels, alignment=1)
        if components == 1:
            texture.swizzle = "111R"  # alpha-only atlas: white, coverage in alpha
        texture.filter = (moderngl.LINEAR, moderngl.LINEAR)
        texture.repeat_x = texture.repeat_y = False
        self._textures[texture.glo] = texture
        tex.set_tex_id(texture.glo)
        tex.status = imgui.ImTextureStatus.ok

    def _update_texture(self, tex: Any) -> None:
        texture = self._textures.get(int(tex.tex_id))
        if texture is None:
            return
        bpp = int(tex.bytes_per_pixel)
        pixels = tex.get_pixels_array().reshape(tex.height, tex.width, bpp)
        for rect in tex.updates:
            x, y, w, h = int(rect.x), int(rect.y), int(rect.w), int(rect.h)
            if w <= 0 or h <= 0:
                continue
            block = np.ascontiguousarray(pixels[y : y + h, x : x + w])
            texture.write(block, viewport=(x, y, w, h), alignment=1)

    # ------------------------------------------------------------------ drawing
    def render(self, draw_data: Any, fbo: moderngl.Framebuffer, fb_size: tuple[int, int]) -> int:
        """Draw ``draw_data`` into ``fbo`` of ``fb_size`` pixels; return the GL draw calls made."""
        if draw_data is None or draw_data.total_idx_count <= 0:
            return 0
        imgui = imgui_module()
        vertex_size = int(imgui.VERTEX_SIZE)
        index_dtype = np.uint16 if int(imgui.INDEX_SIZE) == 2 else np.uint32

        # One upload per frame: all draw lists back to back, indices rebased to 32 bits.
        lists = list(draw_data.cmd_lists)
        vertices: list[bytes] = []
        indices: list[np.ndarray] = []
        first_index: list[int] = []
        base_vertex = base_index = 0
        for draw_list in lists:
            n_vtx = draw_list.vtx_buffer.size()
            n_idx = draw_list.idx_buffer.size()
            vertices.append(
                ctypes.string_at(draw_list.vtx_buffer.data_address(), n_vtx * vertex_size)
            )
            raw = ctypes.string_at(
                draw_list.idx_buffer.data_address(), n_idx * index_dtype().itemsize
            )
            indices.append(np.frombuffer(raw, dtype=index_dtype).astype(np.uint32) + base_vertex)
            first_index.append(base_index)
            base_vertex += n_vtx
            base_index += n_idx
        vertex_bytes = b"".join(vertices)
        index_bytes = np.concatenate(indices).tobytes()
        self._upload(self._vbo, vertex_bytes)
        self._upload(self._ibo, index_bytes)

        ctx = self.ctx
        fb_w, fb_h = fb_size
        fbo.use()
        ctx.viewport = (0, 0, fb_w, fb_h)
        ctx.enable_only(moderngl.BLEND)
        ctx.blend_equation = (moderngl.FUNC_ADD, moderngl.FUNC_ADD)
        # separate alpha factors (the stubs only know the 2-tuple form)
        ctx.blend_func = (  # type: ignore[assignment]
            moderngl.SRC_ALPHA,
            moderngl.ONE_MINUS_SRC_ALPHA,
            moderngl.ONE,
            moderngl.ONE_MINUS_SRC_ALPHA,
        )
        ctx.wireframe = False

        left, top = draw_data.display_pos.x, draw_data.display_pos.y
        width, height = draw_data.display_size.x, draw_data.display_size.y
        sx, sy = 2.0 / width, -2.0 / height
        transform = self._program["u_transform"]
        assert isinstance(transform, moderngl.Uniform)
        transform.value = (sx, sy, -1.0 - left * sx, 1.0 - top * sy)
        scale_x, scale_y = fb_w / width, fb_h / height
        self._sampler.use(0)

        calls = 0
        bound = -1
        try:
            for draw_list, start in zip(lists, first_index, strict=True):
                for cmd in draw_list.cmd_buffer:
                    count = int(cmd.elem_count)
                    if count <= 0:
                        continue
                    clip = cmd.clip_rect
                    x0 = max(0.0, (clip.x - left) * scale_x)
                    y0 = max(0.0, (clip.y - top) * scale_y)
                    x1 = min(float(fb_w), (clip.z - left) * scale_x)
                    y1 = min(float(fb_h), (clip.w - top) * scale_y)
                    if x1 <= x0 or y1 <= y0:
                        continue
                    tex_id = int(cmd.tex_ref.get_tex_id())
                    texture = self._textures.get(tex_id)
                    if texture is None:
                        continue  # not one of ours (foreign texture ids are not supported)
                    if tex_id != bound:
                        texture.use(0)
                        bound = tex_id
                    ctx.scissor = (int(x0), int(fb_h - y1), int(x1 - x0 + 0.5), int(y1 - y0 + 0.5))
                    self._vao.render(
                        moderngl.TRIANGLES, vertices=count, first=start + int(cmd.idx_offset)
                    )
                    calls += 1
        finally:
            ctx.scissor = None
            self._sampler.clear(0)
        return calls

    @staticmethod
    def _upload(buffer: moderngl.Buffer, data: bytes) -> None:
        """Write a frame's data, orphaning the old storage (growing it when too small)."""
        size = len(data)
        if size > buffer.size:
            buffer.orphan(max(size, buffer.size * 2))
        else:
            buffer.orphan()
        buffer.write(data)
