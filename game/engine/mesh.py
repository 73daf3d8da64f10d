"""Triangle meshes and the Wavefront OBJ loader for the shipped models.

The loader reads the subset of OBJ that ``tools/make_models.py`` writes, plus what other tools
commonly add:

* ``v x y z [w]`` or ``v x y z r g b`` (the vertex colour extension; components in 0..1),
* ``vn x y z`` (normalised on load),
* ``f`` with corners ``a``, ``a/t``, ``a//n`` or ``a/t/n``; 1-based or negative (relative)
  indices; polygons with more than three corners are fan-triangulated,
* ``vt``, ``vp``, ``o``, ``g``, ``s``, ``usemtl``, ``mtllib``, ``l``, ``p`` and ``#`` comments,
  which are skipped.

A vertex without a colour is white; a corner without a normal gets its triangle's flat normal.
The result is non-indexed: one row per triangle corner, ready for a vertex buffer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from game.errors import AssetError

__all__ = ["FLOATS_PER_VERTEX", "Mesh", "ObjError", "PackedModels", "load_obj", "pack_models"]

#: Floats per row of :attr:`Mesh.vertices`: position xyz, normal xyz, colour rgb.
FLOATS_PER_VERTEX = 9

_FAST_FACES = re.compile(r"(?:f(?: [+-]?[0-9]+//[+-]?[0-9]+){3} )*")
_SKIPPED = frozenset({"vt", "vp", "o", "g", "s", "usemtl", "mtllib", "l", "p"})


class ObjError(AssetError):
    """An OBJ file is malformed; the message reads ``<file>:<line>: <what was expected>``."""


@dataclass(frozen=True, eq=False)
class Mesh:
    """A triangle soup: every three rows of ``vertices`` are one triangle.

    ``vertices`` is a C-contiguous ``(N, 9)`` float32 array, one row per triangle corner:
    position xyz, unit normal xyz, colour rgb in 0..1; ``N`` is a multiple of 3.
    """

    name: str
    vertices: np.ndarray

    @property
    def triangles(self) -> int:
        """How many triangles the mesh has."""
        return int(self.vertices.shape[0] // 3)

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The axis-aligned bounding box as (min xyz, max xyz)."""
        positions = self.vertices[:, 0:3]
        return positions.min(axis=0), positions.max(axis=0)

    @property
    def positions(self) -> np.ndarray:
        """The ``(N, 3)`` corner positions (a view)."""
        return self.vertices[:, 0:3]

    @property
    def normals(self) -> np.ndarray:
        """The ``(N, 3)`` corner normals (a view)."""
        return self.vertices[:, 3:6]

    @property
    def colours(self) -> np.ndarray:
        """The ``(N, 3)`` corner colours (a view)."""
        return self.vertices[:, 6:9]


def _bad_number(where: str, tokens: list[str], what: str) -> ObjError:
    """The error for a line whose numbers did not parse (called only on the slow path)."""
    for token in tokens:
        try:
            float(token)
        except ValueError:
            return ObjError(f"{where}: expected a number in {what}, found {token!r}")
    return ObjError(f"{where}: expected numbers in {what}")


def _bad_corner(where: str, corner: str, nv: int, nn: int) -> ObjError:
    """The error for a face corner that did not parse or is out of range."""
    fields = corner.split("/")
    if len(fields) > 3 or not fields[0]:
        return ObjError(f"{where}: expected a face corner v, v/t, v//n or v/t/n, found {corner!r}")
    for token, count, kind in ((fields[0], nv, "vertex"), (fields[-1], nn, "normal")):
        if kind == "normal" and (len(fields) < 3 or not token):
            continue
        try:
            index = int(token)
        except ValueError:
            return ObjError(f"{where}: expected an integer {kind} index, found {token!r}")
        resolved = index - 1 if index > 0 else count + index
        if not 0 <= resolved < count:
            return ObjError(
                f"{where}: expected a {kind} index in 1..{count} or -{count}..-1"
                f" ({count} defined so far), found {index}"
            )
    return ObjError(f"{where}: expected a face corner v, v/t, v//n or v/t/n, found {corner!r}")


def load_obj(path: str | Path) -> Mesh:
    """Read an OBJ file into a :class:`Mesh` named after the file's stem.

    Raises :class:`ObjError` naming the file and line for anything malformed, and
    ``FileNotFoundError`` when the file does not exist.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ObjError(f"{path}:1: expected UTF-8 text ({exc.reason})") from None

    verts: list[list[float]] = []  # x y z r g b
    vert_lines: list[int] = []
    normals: list[list[float]] = []
    normal_lines: list[int] = []
    face_tokens: list[str] = []  # every face line's words, "f" included
    face_meta: list[tuple[int, int, int, int]] = []  # line, corners, vertices/normals so far
    lineno = 0

    for lineno, raw in enumerate(text.splitlines(), start=1):
        parts = (raw.partition("#")[0] if "#" in raw else raw).split()
        if not parts:
            continue
        keyword = parts[0]
        if keyword == "f":
            face_tokens += parts
            face_meta.append((lineno, len(parts) - 1, len(verts), len(normals)))
        elif keyword == "v":
            try:
                values = [float(t) for t in parts[1:]]
            except ValueError:
                raise _bad_number(f"{path}:{lineno}", parts[1:], "'v'") from None
            if len(values) == 6:
                verts.append(values)
            elif len(values) in (3, 4):
                verts.append([values[0], values[1], values[2], 1.0, 1.0, 1.0])
            else:
                raise ObjError(
                    f"{path}:{lineno}: expected 'v x y z' or 'v x y z r g b', found"
                    f" {len(values)} numbers"
                )
            vert_lines.append(lineno)
        elif keyword == "vn":
            try:
                values = [float(t) for t in parts[1:]]
            except ValueError:
                raise _bad_number(f"{path}:{lineno}", parts[1:], "'vn'") from None
            if len(values) != 3:
                raise ObjError(f"{path}:{lineno}: expected 'vn x y z', found {len(values)} numbers")
            normals.append(values)
            normal_lines.append(lineno)
        elif keyword not in _SKIPPED:
            raise ObjError(
                f"{path}:{lineno}: expected a statement v, vn, f, vt, o, g, s, usemtl or"
                f" mtllib, found {keyword!r}"
            )

    # Checks done once over whole arrays; the line numbers point back at the culprit.
    vdata = np.asarray(verts, dtype=np.float64).reshape(-1, 6)
    bad = ~np.isfinite(vdata).all(axis=1)
    if bad.any():
        raise ObjError(f"{path}:{vert_lines[int(np.argmax(bad))]}: expected finite numbers in 'v'")
    bad = ((vdata[:, 3:6] < 0.0) | (vdata[:, 3:6] > 1.0)).any(axis=1)
    if bad.any():
        k = int(np.argmax(bad))
        rgb = " ".join(f"{c:g}" for c in vdata[k, 3:6])
        raise ObjError(
            f"{path}:{vert_lines[k]}: expected vertex colour components in 0..1, found {rgb}"
        )
    ndata = np.asarray(normals, dtype=np.float64).reshape(-1, 3)
    length = np.linalg.norm(ndata, axis=1)
    bad = ~(np.isfinite(length) & (length > 1e-12))
    if bad.any():
        raise ObjError(
            f"{path}:{normal_lines[int(np.argmax(bad))]}: expected a finite, non-zero normal"
        )
    ndata /= length[:, None]
    if not face_meta:
        raise ObjError(f"{path}:{max(lineno, 1)}: expected at least one face, found none")
    vi, ni = _faces(path, face_tokens, face_meta)

    out = np.empty((vi.size, FLOATS_PER_VERTEX), dtype=np.float32)
    corners = vdata[vi]
    out[:, 0:3] = corners[:, 0:3]
    out[:, 6:9] = corners[:, 3:6]
    has_n = ni >= 0
    if has_n.all():
        out[:, 3:6] = ndata[ni]
    else:
        out[has_n, 3:6] = ndata[ni[has_n]]
        out[~has_n, 3:6] = _flat_normals(corners[:, 0:3])[~has_n]
    out.flags.writeable = False
    return Mesh(name=path.stem, vertices=out)


def _faces(
    path: Path, tokens: list[str], meta: list[tuple[int, int, int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Resolve face corners to 0-based (vertex, normal) indices per triangle corner.

    ``tokens`` holds each face line's words (``f`` first); ``meta`` one ``(line, corners,
    vertices so far, normals so far)`` per face. Missing normals are -1.
    """
    info = np.asarray(meta, dtype=np.int64)
    text = " ".join(tokens) + " "
    if _FAST_FACES.fullmatch(text):  # fast path: every face is "f a//n b//n c//n"
        flat = np.array(text.replace("f ", "").replace("//", " ").split(), dtype=np.int64)
        v, n = flat[0::2], flat[1::2]
        nv, nn = np.repeat(info[:, 2], 3), np.repeat(info[:, 3], 3)
        v = np.where(v > 0, v - 1, nv + v)
        n = np.where(n > 0, n - 1, nn + n)
        if not ((v < 0) | (v >= nv) | (n < 0) | (n >= nn)).any():
            return v.astype(np.intp), n.astype(np.intp)
    return _faces_slow(path, tokens, meta)


def _faces_slow(
    path: Path, tokens: list[str], meta: list[tuple[int, int, int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """The general face parser: any corner form, polygons, and exact error messages."""
    corner_v: list[int] = []
    corner_n: list[int] = []
    start = 0
    for lineno, count, nv, nn in meta:
        corners = tokens[start + 1 : start + 1 + count]
        start += count + 1
        if count < 3:
            raise ObjError(
                f"{path}:{lineno}: expected a face with at least 3 corners, found {count}"
            )
        face_v: list[int] = []
        face_n: list[int] = []
        for corner in corners:
            try:
                fields = corner.split("/")
                i = int(fields[0])
                i = i - 1 if i > 0 else nv + i
                if len(fields) == 3 and fields[2]:
                    j = int(fields[2])
                    j = j - 1 if j > 0 else nn + j
                    ok = 0 <= j < nn
                else:
                    j = -1
                    ok = len(fields) <= 3
            except ValueError:
                ok = False
            if not (ok and 0 <= i < nv):
                raise _bad_corner(f"{path}:{lineno}", corner, nv, nn)
            face_v.append(i)
            face_n.append(j)
        for k in range(1, count - 1):
            corner_v += (face_v[0], face_v[k], face_v[k + 1])
            corner_n += (face_n[0], face_n[k], face_n[k + 1])
    return np.asarray(corner_v, dtype=np.intp), np.asarray(corner_n, dtype=np.intp)


def _flat_normals(corners: np.ndarray) -> np.ndarray:
    """Per-corner flat normals of a triangle soup ``(3T, 3)``; degenerate triangles face +Y."""
    tri = corners.reshape(-1, 3, 3)
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    length = np.linalg.norm(n, axis=1, keepdims=True)
    degenerate = length[:, 0] < 1e-12
    n = np.divide(n, length, out=np.zeros_like(n), where=length >= 1e-12)
    n[degenerate] = (0.0, 1.0, 0.0)
    return np.repeat(n, 3, axis=0)


@dataclass(frozen=True)
class PackedModels:
    """The models of a folder read and packed for one vertex and one index buffer, what the
    renderer's ``MeshLibrary`` uploads (identical corners merged in first-seen order)."""

    meshes: dict[str, Mesh]
    radius: dict[str, float]
    first: dict[str, int]
    count: dict[str, int]
    base: dict[str, int]
    vertices: int
    vertex_bytes: bytes
    index_bytes: bytes


#: The folders' models as last packed, by folder and the files' names, sizes and times: a
#: second window (a new Director, ``gamehall shot``'s in-process runs) packs nothing again
#: until a model file changes.
_PACKED: dict[Path, tuple[tuple[tuple[str, int, int], ...], PackedModels]] = {}


def pack_models(folder: Path) -> PackedModels:
    """The models under ``folder`` packed (read again only when a file changed)."""
    paths = sorted(folder.glob("*.obj"))
    stamp = tuple((p.name, (st := p.stat()).st_size, st.st_mtime_ns) for p in paths)
    kept = _PACKED.get(folder)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    meshes = {path.stem: load_obj(path) for path in paths}
    if not meshes:
        raise FileNotFoundError(f"no models found in {folder}")
    # How far the mesh reaches from its origin: its size, before a node scales it.
    radius = {
        name: float(np.sqrt((mesh.positions**2).sum(axis=1).max())) if mesh.triangles else 0.0
        for name, mesh in meshes.items()
    }
    first: dict[str, int] = {}  # first index of the mesh in the index buffer
    count: dict[str, int] = {}  # number of indices (three per triangle)
    base: dict[str, int] = {}  # added to every index of the mesh
    vertex_chunks = []
    index_chunks = []
    vertices = indices = 0
    for name, mesh in meshes.items():
        unique, index = _merge_corners(mesh.vertices)
        first[name], count[name], base[name] = indices, len(index), vertices
        vertex_chunks.append(unique)
        index_chunks.append(index)
        vertices += len(unique)
        indices += len(index)
    packed = PackedModels(
        meshes, radius, first, count, base, vertices,
        np.concatenate(vertex_chunks).astype("f4").tobytes(),
        np.concatenate(index_chunks).astype("u4").tobytes(),
    )  # fmt: skip
    _PACKED[folder] = (stamp, packed)
    return packed


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
