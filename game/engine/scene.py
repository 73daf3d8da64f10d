"""The scene graph: nodes, camera, light and named anchors, loaded from ``scenes/*.toml``.

Matrices here are numpy float32 arrays in the column-vector convention (``M @ v``); the
renderer transposes them once when it uploads, so GL reads them column-major. pyrr supplies the
quaternion and projection maths; everything is composed as raw arrays.

A scene file has these tables (see ``scenes/river.toml`` for a full example)::

    [camera]      eye, target, up (optional), fov (degrees), near, far, fit_aspect
                  (optional: the narrowest width/height the scene fits; a narrower view
                  steps back), fit (false: the Director never moves or scales the
                  picture to keep the pieces clear of the HUD), keep_min and keep_max
                  (a box that stays in view besides the pickable nodes); the mouse view
                  (game.engine.orbit): orbit (false: the mouse never moves the view),
                  orbit_yaw, orbit_pitch_min, orbit_pitch_max (degrees), orbit_zoom_min,
                  orbit_zoom_max, orbit_pan
    [light]       direction (towards the ground), color, ambient, shadow_extent, shadow_center
    [background]  top, bottom (RGB), fog (0..1, optional)
    [materials.NAME]  color (RGB or RGBA), specular, shininess, wave (optional, for water)
    [[objects]]   name, mesh, material, position, rotation (degrees XYZ), scale, parent,
                  pickable, visible
    [prototypes.NAME]  mesh, material, scale, rotation: templates a controller spawns from
    [anchors]     NAME = [x, y, z] or a number: the fixed positions the game moves things to

A malformed file raises :class:`SceneError` naming the file, the key and what was expected.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyrr

from game.engine.orbit import Orbit, OrbitLimits
from game.errors import AssetError

Vec3 = np.ndarray


class SceneError(AssetError):
    """A scene file is malformed; the message names the file, the key and what was expected."""


def vec3(values: Any) -> np.ndarray:
    """Return a float32 array of shape (3,) from three numbers."""
    return np.asarray(values, dtype="f4").reshape(3)


def quat_from_euler_degrees(angles: Any) -> np.ndarray:
    """Unit quaternion (x, y, z, w) for rotations about X, then Y, then Z, in degrees."""
    ax, ay, az = (math.radians(float(a)) for a in angles)
    qx = pyrr.quaternion.create_from_x_rotation(ax)
    qy = pyrr.quaternion.create_from_y_rotation(ay)
    qz = pyrr.quaternion.create_from_z_rotation(az)
    q = pyrr.quaternion.cross(qz, pyrr.quaternion.cross(qy, qx))
    return np.asarray(q, dtype="f4")


def quat_from_axis_angle(axis: Any, radians: float) -> np.ndarray:
    """Unit quaternion (x, y, z, w) for a rotation by ``radians`` about ``axis``."""
    a = np.asarray(axis, dtype="f8")
    unit = a / np.linalg.norm(a)
    return np.asarray(pyrr.quaternion.create_from_axis_rotation(unit, radians, dtype="f4"))


def trs_matrix(position: np.ndarray, rotation: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Column-vector model matrix T * R * S from a position, a unit quaternion and a scale."""
    x, y, z, w = (float(c) for c in rotation)
    xx, yy, zz = x * x, y * y, z * z
    xy, xz, yz, wx, wy, wz = x * y, x * z, y * z, w * x, w * y, w * z
    sx, sy, sz = (float(c) for c in scale)
    m = np.empty((4, 4), dtype="f4")
    m[0, 0] = (1 - 2 * (yy + zz)) * sx
    m[0, 1] = 2 * (xy - wz) * sy
    m[0, 2] = 2 * (xz + wy) * sz
    m[1, 0] = 2 * (xy + wz) * sx
    m[1, 1] = (1 - 2 * (xx + zz)) * sy
    m[1, 2] = 2 * (yz - wx) * sz
    m[2, 0] = 2 * (xz - wy) * sx
    m[2, 1] = 2 * (yz + wx) * sy
    m[2, 2] = (1 - 2 * (xx + yy)) * sz
    m[0:3, 3] = position
    m[3] = (0, 0, 0, 1)
    return m


@dataclass
class Material:
    """How a surface looks: a tint that multiplies the mesh's vertex colours, and its shine."""

    color: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    specular: float = 0.2
    shininess: float = 24.0
    wave: bool = False


class Node:
    """One object in the scene: a mesh with a transform, a material and an optional parent.

    ``position``, ``rotation`` (unit quaternion x, y, z, w) and ``scale`` are float32 arrays; the
    timed actions assign new arrays to them. ``highlight`` (0..1) adds a glow; ``hidden`` keeps
    it out of drawing and picking.
    """

    __slots__ = (
        "children",
        "hidden",
        "highlight",
        "material",
        "mesh",
        "name",
        "parent",
        "pickable",
        "position",
        "rotation",
        "scale",
        "tags",
    )

    def __init__(
        self,
        name: str,
        mesh: str | None = None,
        material: Material | None = None,
        *,
        position: Any = (0.0, 0.0, 0.0),
        rotation: Any = (0.0, 0.0, 0.0, 1.0),
        scale: Any = (1.0, 1.0, 1.0),
        pickable: bool = False,
        hidden: bool = False,
    ) -> None:
        self.name = name
        self.mesh = mesh
        self.material = material or Material()
        self.position = vec3(position)
        self.rotation = np.asarray(rotation, dtype="f4").reshape(4)
        self.scale = vec3(scale)
        self.parent: Node | None = None
        self.children: list[Node] = []
        self.pickable = pickable
        self.hidden = hidden
        self.highlight = 0.0
        self.tags: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"Node({self.name!r}, mesh={self.mesh!r})"

    def local_matrix(self) -> np.ndarray:
        return trs_matrix(self.position, self.rotation, self.scale)

    def world_matrix(self) -> np.ndarray:
        m = self.local_matrix()
        node = self.parent
        while node is not None:
            m = node.local_matrix() @ m
            node = node.parent
        return m

    def world_position(self) -> np.ndarray:
        return self.world_matrix()[0:3, 3].copy()

    def set_parent(self, parent: Node | None, *, keep_world: bool = True) -> None:
        """Attach to ``parent`` (or detach); by default the node stays where it is on screen."""
        world = self.world_matrix() if keep_world else None
        if self.parent is not None:
            self.parent.children.remove(self)
        self.parent = parent
        if parent is not None:
            parent.children.append(self)
        if world is not None:
            base = parent.world_matrix() if parent is not None else np.eye(4, dtype="f4")
            local = np.linalg.inv(base) @ world
            self.position = local[0:3, 3].astype("f4")

    def is_visible(self) -> bool:
        node: Node | None = self
        while node is not None:
            if node.hidden:
                return False
            node = node.parent
        return True


@dataclass
class Camera:
    eye: np.ndarray = field(default_factory=lambda: vec3((0, 6, 14)))
    target: np.ndarray = field(default_factory=lambda: vec3((0, 0, 0)))
    up: np.ndarray = field(default_factory=lambda: vec3((0, 1, 0)))
    fov: float = 40.0
    near: float = 0.1
    far: float = 200.0
    #: The narrowest view (width / height) that shows the whole scene; 0: no fitting.
    fit_aspect: float = 0.0
    #: The lens, in normalised device units (2 across the view): the picture's middle
    #: moves right by ``shift`` and up by ``shift_y`` (halves of the view) and the picture
    #: is scaled by ``zoom``. The Director sets them (game.engine.framing) so the HUD's
    #: panels hide none of the scene, at any window shape.
    shift: float = 0.0
    shift_y: float = 0.0
    zoom: float = 1.0
    #: False: the Director leaves the lens alone (a scene that frames itself, the menu).
    fit: bool = True
    #: A world box (lo, hi) that must stay in view besides the pickable nodes (where pieces
    #: will go: the far bank); None: none.
    keep: tuple[np.ndarray, np.ndarray] | None = None
    #: The person's orbit, zoom and pan on top of ``eye`` and ``target`` (the home view).
    orbit: Orbit = field(default_factory=Orbit)

    def home_key(self) -> tuple[object, ...]:
        """What the home view's picture depends on (eye, target, up and the lens' shape)."""
        points = (np.asarray(v, dtype="f8").tobytes() for v in (self.eye, self.target, self.up))
        return (*points, self.fov, self.near, self.far)

    def view_key(self) -> tuple[object, ...]:
        """What :meth:`view` and :meth:`projection` depend on: the home view, the lens and
        the person's orbit."""
        o = self.orbit
        pan = np.asarray(o.pan, dtype="f8").tobytes()
        return (*self.home_key(), self.shift, self.shift_y, self.zoom,
                o.limits, o.yaw, o.pitch, o.zoom, pan)  # fmt: skip

    def placed(self) -> tuple[np.ndarray, np.ndarray]:
        """The eye and target the scene is drawn from: home moved by :attr:`orbit`."""
        return self.orbit.place(self.eye, self.target)

    def view(self) -> np.ndarray:
        eye, target = self.placed()
        return np.asarray(pyrr.matrix44.create_look_at(eye, target, self.up), "f4").T

    def projection(self, aspect: float) -> np.ndarray:
        p = pyrr.matrix44.create_perspective_projection(self.fov, aspect, self.near, self.far)
        out = np.asarray(p, dtype="f4").T
        if self.shift or self.shift_y or self.zoom != 1.0:
            out = out.copy()
            out[0] = self.zoom * out[0] + self.shift * out[3]  # x_clip += shift * w_clip
            out[1] = self.zoom * out[1] + self.shift_y * out[3]
        return out


@dataclass
class Light:
    direction: np.ndarray = field(default_factory=lambda: vec3((-0.4, -1.0, -0.5)))
    color: np.ndarray = field(default_factory=lambda: vec3((1.0, 0.96, 0.88)))
    ambient: np.ndarray = field(default_factory=lambda: vec3((0.32, 0.36, 0.45)))
    shadow_extent: float = 14.0
    shadow_center: np.ndarray = field(default_factory=lambda: vec3((0, 0, 0)))


@dataclass
class Background:
    top: np.ndarray = field(default_factory=lambda: vec3((0.35, 0.58, 0.86)))
    bottom: np.ndarray = field(default_factory=lambda: vec3((0.86, 0.9, 0.95)))
    fog: float = 0.0


class Scene:
    """Nodes by name (in drawing order), plus camera, light, background and anchors."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.camera = Camera()
        self.light = Light()
        self.background = Background()
        self.materials: dict[str, Material] = {}
        self.prototypes: dict[str, dict[str, Any]] = {}
        self.anchors: dict[str, Any] = {}
        self.nodes: dict[str, Node] = {}
        self.source: str = name
        # Drawn by the renderer after the nodes: geometry a controller builds itself (a
        # generated map), see game.engine.render.Layer.
        self.layers: list[Any] = []

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes.values())

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, name: str) -> Node:
        return self.nodes[name]

    def add(self, node: Node, parent: Node | str | None = None) -> Node:
        if node.name in self.nodes:
            raise ValueError(f"scene {self.name!r} already has a node named {node.name!r}")
        self.nodes[node.name] = node
        if parent is not None:
            node.set_parent(self.nodes[parent] if isinstance(parent, str) else parent)
        return node

    def remove(self, name: str) -> None:
        node = self.nodes.pop(name)
        node.set_parent(None)
        for child in list(node.children):
            self.remove(child.name)

    def spawn(self, prototype: str, name: str, **overrides: Any) -> Node:
        """Add a node made from a ``[prototypes.NAME]`` template."""
        if prototype not in self.prototypes:
            raise SceneError(f"{self.source}: no [prototypes.{prototype}] table")
        spec = {**self.prototypes[prototype], **overrides}
        node = _node_from_spec(self, name, spec, f"prototypes.{prototype}")
        return self.add(node)

    def anchor(self, name: str) -> np.ndarray:
        """A named position from the ``[anchors]`` table, as a fresh float32 array."""
        if name not in self.anchors:
            raise SceneError(f"{self.source}: [anchors] has no key {name!r}")
        return np.array(self.anchors[name], dtype="f4")

    def number(self, name: str) -> float:
        value = self.anchors.get(name)
        if not isinstance(value, int | float):
            raise SceneError(f"{self.source}: [anchors] {name} should be a number")
        return float(value)

    def pickable_nodes(self) -> list[Node]:
        return [n for n in self.nodes.values() if n.pickable and n.mesh and n.is_visible()]


def load_scene(path: str | Path) -> Scene:
    """Read a scene file; raise :class:`SceneError` with file, key and expectation when bad."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SceneError(f"{path}: cannot read the scene file ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SceneError(f"{path}: not valid TOML: {exc}") from exc
    return scene_from_dict(data, path.stem, source=str(path))


def scene_from_dict(data: Mapping[str, Any], name: str, *, source: str = "<scene>") -> Scene:
    scene = Scene(name)
    scene.source = source
    r = _Reader(source)
    cam = r.table(data, "camera")
    scene.camera = Camera(
        eye=r.vec(cam, "camera.eye", scene.camera.eye),
        target=r.vec(cam, "camera.target", scene.camera.target),
        up=r.vec(cam, "camera.up", scene.camera.up),
        fov=r.num(cam, "camera.fov", scene.camera.fov, 5, 150),
        near=r.num(cam, "camera.near", scene.camera.near, 1e-4, 1e3),
        far=r.num(cam, "camera.far", scene.camera.far, 1e-3, 1e6),
        fit_aspect=r.num(cam, "camera.fit_aspect", 0.0, 0.0, 10.0),
        fit=r.flag(cam, "camera.fit", True),
        keep=_keep_box(r, cam),
        orbit=Orbit(_orbit_limits(r, cam)),
    )
    light = r.table(data, "light")
    d = Light()
    scene.light = Light(
        direction=r.vec(light, "light.direction", d.direction),
        color=r.vec(light, "light.color", d.color),
        ambient=r.vec(light, "light.ambient", d.ambient),
        shadow_extent=r.num(light, "light.shadow_extent", d.shadow_extent, 0.1, 1e4),
        shadow_center=r.vec(light, "light.shadow_center", d.shadow_center),
    )
    if float(np.linalg.norm(scene.light.direction)) == 0.0:
        raise SceneError(f"{source}: light.direction must not be the zero vector")
    bg = r.table(data, "background")
    b = Background()
    scene.background = Background(
        top=r.vec(bg, "background.top", b.top),
        bottom=r.vec(bg, "background.bottom", b.bottom),
        fog=r.num(bg, "background.fog", b.fog, 0.0, 1.0),
    )
    for mname, spec in r.table(data, "materials").items():
        key = f"materials.{mname}"
        if not isinstance(spec, dict):
            raise SceneError(f"{source}: [{key}] should be a table")
        color = r.color(spec, f"{key}.color", (1.0, 1.0, 1.0, 1.0))
        scene.materials[mname] = Material(
            color=color,
            specular=r.num(spec, f"{key}.specular", 0.2, 0.0, 10.0),
            shininess=r.num(spec, f"{key}.shininess", 24.0, 1.0, 512.0),
            wave=r.flag(spec, f"{key}.wave", False),
        )
    for pname, spec in r.table(data, "prototypes").items():
        if not isinstance(spec, dict):
            raise SceneError(f"{source}: [prototypes.{pname}] should be a table")
        scene.prototypes[pname] = dict(spec)
    objects = data.get("objects", [])
    if not isinstance(objects, list):
        raise SceneError(f"{source}: 'objects' should be an array of tables ([[objects]])")
    pending_parents: list[tuple[Node, str, str]] = []
    for i, spec in enumerate(objects):
        key = f"objects[{i}]"
        if not isinstance(spec, dict):
            raise SceneError(f"{source}: {key} should be a table")
        oname = spec.get("name")
        if not isinstance(oname, str) or not oname:
            raise SceneError(f"{source}: {key}.name should be a non-empty string")
        if oname in scene.nodes:
            raise SceneError(f"{source}: {key}.name {oname!r} is used twice")
        node = _node_from_spec(scene, oname, spec, key)
        scene.nodes[oname] = node
        if "parent" in spec:
            pending_parents.append((node, str(spec["parent"]), key))
    for node, parent, key in pending_parents:
        if parent not in scene.nodes:
            raise SceneError(f"{source}: {key}.parent names {parent!r}, which is not an object")
        node.set_parent(scene.nodes[parent], keep_world=False)
    for aname, value in r.table(data, "anchors").items():
        if isinstance(value, bool) or not isinstance(value, int | float | list):
            raise SceneError(f"{source}: anchors.{aname} should be a number or [x, y, z]")
        if isinstance(value, list):
            scene.anchors[aname] = r.vec({aname: value}, f"anchors.{aname}", None)
        else:
            scene.anchors[aname] = float(value)
    return scene


def _keep_box(r: _Reader, cam: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """``keep_min`` and ``keep_max`` of ``[camera]``: both or neither."""
    if "keep_min" not in cam and "keep_max" not in cam:
        return None
    lo = r.vec(cam, "camera.keep_min", None)
    hi = r.vec(cam, "camera.keep_max", None)
    if np.any(lo > hi):
        raise SceneError(f"{r.source}: camera.keep_min should be below keep_max on every axis")
    return lo, hi


def _orbit_limits(r: _Reader, cam: Mapping[str, Any]) -> OrbitLimits:
    """The ``orbit*`` keys of ``[camera]``; a pitch or zoom range given upside down is
    refused."""
    d = OrbitLimits()
    limits = OrbitLimits(
        enabled=r.flag(cam, "camera.orbit", d.enabled),
        yaw=r.num(cam, "camera.orbit_yaw", d.yaw, 0.0, 360.0),
        pitch_min=r.num(cam, "camera.orbit_pitch_min", d.pitch_min, 0.0, 89.0),
        pitch_max=r.num(cam, "camera.orbit_pitch_max", d.pitch_max, 1.0, 89.5),
        zoom_min=r.num(cam, "camera.orbit_zoom_min", d.zoom_min, 0.05, 1.0),
        zoom_max=r.num(cam, "camera.orbit_zoom_max", d.zoom_max, 1.0, 20.0),
        pan=r.num(cam, "camera.orbit_pan", d.pan, 0.0, 10.0),
    )
    if limits.pitch_min > limits.pitch_max:
        raise SceneError(f"{r.source}: camera.orbit_pitch_min is above camera.orbit_pitch_max")
    return limits


_NODE_KEYS = {
    "name",
    "mesh",
    "material",
    "position",
    "rotation",
    "scale",
    "parent",
    "pickable",
    "hidden",
    "color",
}


def _node_from_spec(scene: Scene, name: str, spec: Mapping[str, Any], key: str) -> Node:
    r = _Reader(scene.source)
    unknown = set(spec) - _NODE_KEYS
    if unknown:
        raise SceneError(
            f"{scene.source}: {key} has unknown key {sorted(unknown)[0]!r} "
            f"(expected one of {', '.join(sorted(_NODE_KEYS))})"
        )
    mesh = spec.get("mesh")
    if mesh is not None and not isinstance(mesh, str):
        raise SceneError(f"{scene.source}: {key}.mesh should be a mesh name (a string)")
    material = Material()
    mname = spec.get("material")
    if mname is not None:
        if not isinstance(mname, str) or mname not in scene.materials:
            raise SceneError(
                f"{scene.source}: {key}.material {mname!r} is not defined under [materials]"
            )
        base = scene.materials[mname]
        material = Material(base.color, base.specular, base.shininess, base.wave)
    if "color" in spec:
        material.color = r.color(spec, f"{key}.color", material.color)
    scale = spec.get("scale", 1.0)
    if isinstance(scale, int | float) and not isinstance(scale, bool):
        scale = [scale, scale, scale]
    return Node(
        name,
        mesh,
        material,
        position=r.vec(spec, f"{key}.position", vec3((0, 0, 0))),
        rotation=quat_from_euler_degrees(r.vec(spec, f"{key}.rotation", vec3((0, 0, 0)))),
        scale=r.vec({"scale": scale}, f"{key}.scale", None),
        pickable=r.flag(spec, f"{key}.pickable", False),
        hidden=r.flag(spec, f"{key}.hidden", False),
    )


class _Reader:
    """Typed look-ups that raise SceneError naming the file and key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def table(self, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise SceneError(f"{self.source}: [{key}] should be a table")
        return value

    def _leaf(self, key: str) -> str:
        return key.rsplit(".", 1)[-1]

    def vec(self, data: Mapping[str, Any], key: str, default: Any) -> np.ndarray:
        value = data.get(self._leaf(key))
        if value is None:
            if default is None:
                raise SceneError(f"{self.source}: {key} is missing; expected [x, y, z]")
            return vec3(default)
        if (
            not isinstance(value, list)
            or len(value) != 3
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            raise SceneError(f"{self.source}: {key} should be three numbers [x, y, z]")
        return vec3(value)

    def color(
        self, data: Mapping[str, Any], key: str, default: tuple[float, float, float, float]
    ) -> tuple[float, float, float, float]:
        value = data.get(self._leaf(key))
        if value is None:
            return default
        if (
            not isinstance(value, list)
            or len(value) not in (3, 4)
            or not all(isinstance(v, int | float) and 0.0 <= v <= 1.0 for v in value)
        ):
            raise SceneError(f"{self.source}: {key} should be [r, g, b] or [r, g, b, a] in 0..1")
        rgba = [float(v) for v in value] + ([1.0] if len(value) == 3 else [])
        return (rgba[0], rgba[1], rgba[2], rgba[3])

    def num(
        self, data: Mapping[str, Any], key: str, default: float, low: float, high: float
    ) -> float:
        value = data.get(self._leaf(key), default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SceneError(f"{self.source}: {key} should be a number")
        if not low <= value <= high:
            raise SceneError(f"{self.source}: {key} = {value} is out of range {low}..{high}")
        return float(value)

    def flag(self, data: Mapping[str, Any], key: str, default: bool) -> bool:
        value = data.get(self._leaf(key), default)
        if not isinstance(value, bool):
            raise SceneError(f"{self.source}: {key} should be true or false")
        return value
