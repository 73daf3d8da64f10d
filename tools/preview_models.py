"""Render preview PNGs of the shipped models (scratch tool for checking how they look).

    python tools/preview_models.py [models_dir] [out_dir]

Writes ``models.png`` (every model on its own, lit with simple Lambert shading and vertex
colours) and ``scene.png`` (a Priests and Devils river layout) into ``out_dir`` (default
``/tmp/gamehall_preview``). Needs an EGL-capable OpenGL (Mesa llvmpipe is enough).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import moderngl
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine.mesh import Mesh, load_obj
from game.engine.png import write_png

Vec3 = tuple[float, float, float]

VERTEX = """
#version 330
uniform mat4 u_mvp;
uniform mat4 u_model;
uniform vec3 u_tint;
in vec3 in_pos;
in vec3 in_nrm;
in vec3 in_col;
out vec3 v_nrm;
out vec3 v_col;
void main() {
    gl_Position = u_mvp * vec4(in_pos, 1.0);
    v_nrm = transpose(inverse(mat3(u_model))) * in_nrm;
    v_col = in_col * u_tint;
}
"""

FRAGMENT = """
#version 330
in vec3 v_nrm;
in vec3 v_col;
out vec4 f_col;
void main() {
    vec3 n = normalize(v_nrm);
    vec3 l = normalize(vec3(0.45, 0.8, 0.55));
    float diffuse = max(dot(n, l), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    vec3 c = v_col * (0.28 + 0.17 * sky + 0.7 * diffuse);
    f_col = vec4(pow(c, vec3(1.0)), 1.0);
}
"""


def perspective(fov_deg: float, aspect: float, near: float, far: float) -> np.ndarray:
    f = 1.0 / math.tan(math.radians(fov_deg) / 2)
    return np.array(
        [
            [f / aspect, 0, 0, 0],
            [0, f, 0, 0],
            [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
            [0, 0, -1, 0],
        ]
    )


def look_at(eye: np.ndarray, target: np.ndarray, up: Vec3 = (0.0, 1.0, 0.0)) -> np.ndarray:
    f = target - eye
    f = f / np.linalg.norm(f)
    s = np.cross(f, up)
    s = s / np.linalg.norm(s)
    u = np.cross(s, f)
    m = np.eye(4)
    m[0, :3], m[1, :3], m[2, :3] = s, u, -f
    m[:3, 3] = -m[:3, :3] @ eye
    return m


def model_matrix(
    pos: Vec3 = (0.0, 0.0, 0.0), sx: float = 1.0, sy: float = 1.0, sz: float = 1.0, yaw: float = 0.0
) -> np.ndarray:
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    rot = np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]])
    m = rot @ np.diag([sx, sy, sz, 1.0])
    m[:3, 3] = pos
    return m


class Renderer:
    def __init__(self, width: int, height: int) -> None:
        self.ctx = moderngl.create_standalone_context(backend="egl")  # type: ignore[arg-type]
        self.size = (width, height)
        self.ms = self.ctx.framebuffer(
            self.ctx.renderbuffer(self.size, samples=4),
            self.ctx.depth_renderbuffer(self.size, samples=4),
        )
        self.out = self.ctx.framebuffer(self.ctx.renderbuffer(self.size))
        self.prog = self.ctx.program(vertex_shader=VERTEX, fragment_shader=FRAGMENT)
        self.vaos: dict[str, moderngl.VertexArray] = {}

    def uniform(self, name: str) -> moderngl.Uniform:
        member = self.prog[name]
        assert isinstance(member, moderngl.Uniform)
        return member

    def add(self, mesh: Mesh) -> None:
        vbo = self.ctx.buffer(mesh.vertices.astype("f4").tobytes())
        self.vaos[mesh.name] = self.ctx.vertex_array(
            self.prog, [(vbo, "3f 3f 3f", "in_pos", "in_nrm", "in_col")]
        )

    def begin(self, background: Vec3 = (0.78, 0.86, 0.93)) -> None:
        self.ms.use()
        self.ctx.enable(moderngl.DEPTH_TEST)
        self.ctx.clear(*background, 1.0)

    def draw(
        self, name: str, view_proj: np.ndarray, model: np.ndarray, tint: Vec3 = (1.0, 1.0, 1.0)
    ) -> None:
        self.uniform("u_mvp").write((view_proj @ model).T.astype("f4").tobytes())
        self.uniform("u_model").write(model.T.astype("f4").tobytes())
        self.uniform("u_tint").value = tuple(tint)
        self.vaos[name].render()

    def finish(self, path: Path) -> None:
        self.ctx.copy_framebuffer(self.out, self.ms)
        w, h = self.size
        img = np.frombuffer(self.out.read(components=3), dtype=np.uint8).reshape(h, w, 3)
        write_png(path, np.ascontiguousarray(img[::-1]))


def render_models(meshes: dict[str, Mesh], out: Path) -> None:
    names = [n for n in meshes if n != "water"] + ["water"]
    names.insert(names.index("boat") + 1, "lineup")
    names += ["priest@160", "devil@200", "devil@90", "disc@flip"]
    cols, cell = 5, 320
    rows = math.ceil(len(names) / cols)
    r = Renderer(cols * cell, rows * cell)
    for mesh in meshes.values():
        r.add(mesh)
    r.begin()
    for i, name in enumerate(names):
        col, row = i % cols, i // cols
        r.ctx.viewport = (col * cell, (rows - 1 - row) * cell, cell, cell)
        items: list[tuple[str, np.ndarray]]
        if name == "lineup":  # priest and devil side by side on the boat, same scale
            items = [("boat", model_matrix())]
            for k, who in enumerate(["priest", "devil", "priest", "devil"]):
                items.append((who, model_matrix((-1.05 + 0.7 * k, 0.25, 0.0))))
            lo, hi = np.array([-1.5, -0.2, -0.7]), np.array([1.5, 1.4, 0.7])
        else:
            base, _, how = name.partition("@")
            m = model_matrix(sy=-1.0) if how == "flip" else model_matrix(yaw=float(how or 0))
            items = [(base, m)]
            lo, hi = meshes[base].bounds
        centre = (lo + hi) / 2
        radius = float(np.linalg.norm(hi - lo)) / 2
        direction = np.array([0.55, 0.5, 1.0])
        direction /= np.linalg.norm(direction)
        eye = centre + direction * radius / math.sin(math.radians(15)) * 1.02
        vp = perspective(30, 1.0, radius * 0.1, radius * 20) @ look_at(eye, centre)
        for item, m in items:
            r.draw(item, vp, m)
    r.finish(out)


def render_scene(meshes: dict[str, Mesh], out: Path) -> None:
    r = Renderer(1280, 720)
    for mesh in meshes.values():
        r.add(mesh)
    r.begin((0.62, 0.80, 0.95))
    vp = perspective(40, 1280 / 720, 0.5, 100) @ look_at(np.array([0.0, 8.5, 13.0]),
                                                          np.array([0.0, 0.0, 0.5]))  # fmt: skip
    water_y = -0.3
    draws = [
        ("water", model_matrix((0, water_y, 0))),
        ("bank", model_matrix((-7.5, 0, 0))),
        ("bank", model_matrix((7.5, 0, 0), sx=-1)),
        ("jetty", model_matrix((-3.5, 0, 1.5))),
        ("jetty", model_matrix((3.5, 0, 1.5), sx=-1)),
        ("boat", model_matrix((-1.7, water_y, 1.5))),
        ("priest", model_matrix((-2.05, water_y + 0.25, 1.5))),
        ("devil", model_matrix((-1.35, water_y + 0.25, 1.5))),
        ("arrow", model_matrix((-1.7, 1.6, 1.5))),
        ("marker", model_matrix((-5.2, 0.01, 2.2))),
    ]
    for k in range(2):
        draws.append(("priest", model_matrix((-5.2 - 0.8 * k, 0, 2.2 - 0.6 * k))))
    for k in range(2):
        draws.append(("devil", model_matrix((-5.0 - 0.8 * k, 0, 0.6 - 0.6 * k))))
    draws.append(("priest", model_matrix((5.2, 0, 2.0))))
    draws.append(("devil", model_matrix((5.8, 0, 1.0))))
    for x, z, s in [(-7.5, -2.5, 1.2), (-9.5, 0.5, 1.0), (7.8, -2.0, 1.3), (9.6, 1.5, 0.9)]:
        draws.append(("tree", model_matrix((x, 0, z), s, s, s, yaw=40 * x)))
    for x, z in [(-4.2, -2.8), (4.3, 3.0), (6.5, -3.5)]:
        draws.append(("rock", model_matrix((x, 0, z), yaw=70 * z)))
    for x, z in [(-3.3, 3.4), (3.4, -1.0), (-3.4, -1.2), (3.3, 4.0)]:
        draws.append(("reeds", model_matrix((x, -0.3, z))))
    for x, y, z in [(-5, 5.5, -6), (4, 6.5, -7)]:
        draws.append(("cloud", model_matrix((x, y, z), 1.5, 1.5, 1.5)))
    for name, m in draws:
        r.draw(name, vp, m)
    r.finish(out)


def main() -> int:
    root = Path(__file__).resolve().parent.parent
    models_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "models"
    out_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/tmp/gamehall_preview")
    out_dir.mkdir(parents=True, exist_ok=True)
    meshes = {p.stem: load_obj(p) for p in sorted(models_dir.glob("*.obj"))}
    render_models(meshes, out_dir / "models.png")
    render_scene(meshes, out_dir / "scene.png")
    print(out_dir / "models.png")
    print(out_dir / "scene.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
