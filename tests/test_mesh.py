"""The OBJ loader, the shipped models and the model generator (no OpenGL needed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from game.engine import mesh as mesh_module
from game.engine.mesh import FLOATS_PER_VERTEX, Mesh, ObjError, load_obj
from game.errors import AssetError
from game.resources import asset_dir, asset_path

ROOT = Path(__file__).resolve().parent.parent

BUDGETS = {
    "priest": 700,
    "devil": 700,
    "boat": 900,
    "bank": 1500,
    "water": 4500,
    "tree": 400,
    "rock": 400,
    "reeds": 400,
    "cloud": 400,
    "jetty": 400,
    "disc": 400,
    "marker": 400,
    "arrow": 400,
    "reversi_felt": 12,
    "reversi_lines": 400,
    "reversi_frame": 100,
    "disc_face": 200,
    "table": 100,
    "card": 40,
    "envelope": 40,
    "felt": 20,
    "man": 600,
    "crown": 240,
    "pawn": 700,
    "rook": 600,
    "knight": 600,
    "bishop": 700,
    "queen": 900,
    "king": 800,
    "counter": 400,
    "stone": 500,
    "cross": 40,
    "ring": 800,
    "block": 12,
    "hexagon": 30,
    "hole": 70,
    "pentagon": 40,
    "spike": 12,
}

#: The pieces of the described games (one mesh per shape a description may name).
PIECES = ("man", "pawn", "rook", "knight", "bishop", "queen", "king", "counter", "stone",
          "cross", "ring")  # fmt: skip


@pytest.fixture(scope="module")
def make_models() -> ModuleType:
    """tools/make_models.py imported as a module (tools/ is not a package)."""
    path = ROOT / "tools" / "make_models.py"
    spec = importlib.util.spec_from_file_location("gamehall_make_models", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.fixture(scope="module")
def models() -> dict[str, Mesh]:
    return {name: load_obj(asset_path("models", f"{name}.obj")) for name in BUDGETS}


def write(tmp_path: Path, text: str, name: str = "model.obj") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def height(mesh: Mesh) -> float:
    lo, hi = mesh.bounds
    return float(hi[1] - lo[1])


def extent(mesh: Mesh) -> np.ndarray:
    lo, hi = mesh.bounds
    return np.asarray(hi - lo)


# --------------------------------------------------------------------------------------------
# Shipped models
# --------------------------------------------------------------------------------------------


def test_every_shipped_model_is_listed() -> None:
    shipped = {p.stem for p in asset_dir("models").glob("*.obj")}
    assert shipped == set(BUDGETS)


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_shipped_model_is_well_formed(models: dict[str, Mesh], name: str) -> None:
    mesh = models[name]
    assert mesh.name == name
    assert mesh.vertices.dtype == np.float32
    assert mesh.vertices.shape[1] == FLOATS_PER_VERTEX
    assert mesh.vertices.shape[0] % 3 == 0
    assert mesh.vertices.flags.c_contiguous
    assert 0 < mesh.triangles <= BUDGETS[name]
    assert np.isfinite(mesh.vertices).all()
    np.testing.assert_allclose(np.linalg.norm(mesh.normals, axis=1), 1.0, atol=1e-3)
    assert mesh.colours.min() >= 0.0 and mesh.colours.max() <= 1.0


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_flat_normals_face_the_way_the_triangles_wind(models: dict[str, Mesh], name: str) -> None:
    """Counter-clockwise corners face out, like the stored normals (the shadow pass culls)."""
    tri = models[name].positions.reshape(-1, 3, 3).astype(np.float64)
    face = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    mean_normal = models[name].normals.reshape(-1, 3, 3).mean(axis=1)
    assert (np.einsum("ij,ij->i", face, mean_normal) > 0).all()


@pytest.mark.parametrize("name", ["priest", "devil"])
def test_characters_stand_on_the_origin_facing_the_camera(
    models: dict[str, Mesh], name: str
) -> None:
    mesh = models[name]
    lo, hi = mesh.bounds
    assert lo[1] == pytest.approx(0.0, abs=1e-3)
    assert 0.8 <= hi[1] <= 1.2
    # Feet centred on the origin: the bottom slice of the body (not a held prop) is centred.
    p = mesh.positions
    feet = p[(p[:, 1] < 0.05) & (np.abs(p[:, 0]) < 0.3)]
    centre = (feet.min(axis=0) + feet.max(axis=0)) / 2
    assert np.abs(centre[[0, 2]]).max() < 0.03
    # The face (eyes) is on the +Z side of the head.
    head = mesh.positions[mesh.positions[:, 1] > 0.55]
    assert head[:, 2].max() > -head[:, 2].min() * 0.5


def test_priest_is_taller_and_slimmer_than_devil(models: dict[str, Mesh]) -> None:
    priest, devil = models["priest"], models["devil"]
    assert height(priest) == pytest.approx(1.1, abs=0.1)
    assert height(devil) < height(priest) - 0.15
    assert extent(devil)[0] > extent(priest)[0] + 0.15


def test_priests_and_devils_have_their_own_colours(models: dict[str, Mesh]) -> None:
    def mean_colour(mesh: Mesh) -> np.ndarray:
        return np.asarray(mesh.colours.mean(axis=0))

    priest, devil = mean_colour(models["priest"]), mean_colour(models["devil"])
    assert priest.mean() > 0.7 and priest.min() > 0.5  # light: cream, white and gold
    assert devil[0] > 2 * devil[1] and devil[0] > 2 * devil[2]  # red


def test_boat_dimensions(models: dict[str, Mesh]) -> None:
    boat = models["boat"]
    lo, hi = boat.bounds
    assert hi[0] - lo[0] == pytest.approx(3.0, abs=0.05)
    assert -0.3 < lo[1] < 0.0  # the keel sits a little below the waterline
    hull = boat.positions[np.abs(boat.positions[:, 2]) < 0.7]
    assert np.abs(hull[:, 2]).max() == pytest.approx(0.67, abs=0.05)  # 1.3 wide, + rim
    # Passengers stand on a deck at y=0.25 from x=-1.05 to 1.05 (four, 0.7 apart).
    up = boat.normals[:, 1] > 0.99
    deck = boat.positions[up & (np.abs(boat.positions[:, 1] - 0.25) < 1e-3)]
    assert deck[:, 0].min() < -1.25 and deck[:, 0].max() > 1.25
    assert np.abs(deck[:, 2]).max() > 0.5


def test_bank_dimensions(models: dict[str, Mesh]) -> None:
    bank = models["bank"]
    lo, hi = bank.bounds
    assert hi[1] == pytest.approx(0.0, abs=1e-4)
    assert lo[1] == pytest.approx(-1.5, abs=1e-4)
    assert -3.5 <= lo[0] < -3.3 and 3.3 < hi[0] <= 3.5
    assert -5.0 <= lo[2] < -4.8 and 4.8 < hi[2] <= 5.0
    flat = (bank.positions[:, 1].reshape(-1, 3) > -1e-4).all(axis=1)  # triangles on the top
    assert flat.sum() > 100
    top_normals = bank.normals.reshape(-1, 3, 3)[flat]
    assert np.allclose(top_normals, (0, 1, 0), atol=1e-3)
    grass = bank.colours.reshape(-1, 3, 3)[flat].mean(axis=(0, 1))
    assert grass[1] > grass[0] and grass[1] > grass[2]


def test_water_is_a_flat_grid(models: dict[str, Mesh]) -> None:
    water = models["water"]
    lo, hi = water.bounds
    np.testing.assert_allclose(lo, (-12, 0, -10), atol=1e-4)
    np.testing.assert_allclose(hi, (12, 0, 10), atol=1e-4)
    np.testing.assert_allclose(water.normals, np.tile((0, 1, 0), (water.vertices.shape[0], 1)))
    assert water.triangles >= 4000
    blue = water.colours.mean(axis=0)
    assert blue[2] > blue[0]


def test_props_stand_on_the_ground(models: dict[str, Mesh]) -> None:
    for name in ("tree", "rock", "reeds"):
        lo, hi = models[name].bounds
        assert -0.2 < lo[1] <= 0.0, name
        assert hi[1] > 0.4, name
    jetty = models["jetty"]
    lo, hi = jetty.bounds
    assert hi[0] - lo[0] == pytest.approx(1.5, abs=0.05)
    assert hi[2] - lo[2] == pytest.approx(1.2, abs=0.05)
    planks = jetty.positions[jetty.normals[:, 1] > 0.99]
    assert np.isclose(planks[:, 1], 0.0, atol=1e-4).sum() > 0


def test_disc_is_white_on_top_and_black_below(models: dict[str, Mesh]) -> None:
    disc = models["disc"]
    lo, hi = disc.bounds
    np.testing.assert_allclose(lo, (-0.45, -0.06, -0.45), atol=2e-3)
    np.testing.assert_allclose(hi, (0.45, 0.06, 0.45), atol=2e-3)
    y = disc.positions[:, 1].reshape(-1, 3).mean(axis=1)
    brightness = disc.colours.reshape(-1, 3, 3).mean(axis=(1, 2))
    assert (brightness[y > 0] > 0.9).all()
    assert (brightness[y < 0] < 0.1).all()


def test_marker_and_arrow(models: dict[str, Mesh]) -> None:
    lo, hi = models["marker"].bounds
    assert hi[0] == pytest.approx(0.3, abs=2e-3) and hi[1] < 0.05
    arrow = models["arrow"]
    lo, hi = arrow.bounds
    assert lo[1] == pytest.approx(0.0) and hi[1] == pytest.approx(0.6, abs=0.05)
    tip = arrow.positions[arrow.positions[:, 1] < 1e-4]
    assert np.abs(tip[:, [0, 2]]).max() < 1e-4  # it points straight down at the origin
    assert (models["marker"].colours > 0.9).all() and (arrow.colours > 0.9).all()


def test_every_shipped_model_loads_on_the_vectorised_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped models' faces never reach the per-corner Python parser.

    That parser is for hand-made files and error messages; the generator's "f a//n b//n c//n"
    lines are read in one numpy pass. benchmarks/models.py prints the load time.
    """

    def slow_path(*args: object) -> None:
        raise AssertionError("the per-corner face parser ran")

    monkeypatch.setattr(mesh_module, "_faces_slow", slow_path)
    paths = sorted(asset_dir("models").glob("*.obj"))
    assert {path.stem for path in paths} == set(BUDGETS)
    for path in paths:
        assert load_obj(path).triangles > 0


# --------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def built(make_models: ModuleType) -> dict[str, str]:
    """Every model's text, built once for the tests below (a few CPU seconds a build)."""
    result: dict[str, str] = make_models.build_all()
    return result


def test_generator_is_deterministic(built: dict[str, str]) -> None:
    """The build equals the shipped files, which another process built (under another hash
    seed): the same text on every run, whatever order a set or dict would take there."""
    assert set(built) == {f"{name}.obj" for name in BUDGETS}
    for filename, text in built.items():
        assert text == asset_path("models", filename).read_text(encoding="utf-8"), filename


def test_shipped_models_match_the_generator(
    make_models: ModuleType, built: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """models/ is up to date: run ``python tools/make_models.py`` after changing the script.
    What the script writes is its build, byte for byte (the build itself: the fixture's)."""
    monkeypatch.setattr(make_models, "build_all", lambda: built)
    make_models.main([str(tmp_path)])
    for name in BUDGETS:
        generated = (tmp_path / f"{name}.obj").read_bytes()
        assert generated == asset_path("models", f"{name}.obj").read_bytes(), name


def test_generator_budgets_match(make_models: ModuleType) -> None:
    assert {k.removesuffix(".obj"): v for k, (_, v) in make_models.MODELS.items()} == BUDGETS


# --------------------------------------------------------------------------------------------
# The loader
# --------------------------------------------------------------------------------------------

TRIANGLE = """\
# a comment
o tri
v 0 0 0 1 0 0
v 1 0 0 0 1 0
v 0 1 0 0 0 1
vn 0 0 2
f 1//1 2//1 3//1
"""


def test_load_triangle(tmp_path: Path) -> None:
    mesh = load_obj(write(tmp_path, TRIANGLE, "tri.obj"))
    assert mesh.name == "tri"
    assert mesh.triangles == 1
    np.testing.assert_allclose(mesh.positions, [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(mesh.normals, [[0, 0, 1]] * 3)  # normalised on load
    np.testing.assert_allclose(mesh.colours, np.eye(3))
    lo, hi = mesh.bounds
    np.testing.assert_allclose(lo, (0, 0, 0))
    np.testing.assert_allclose(hi, (1, 1, 0))
    with pytest.raises(ValueError):
        mesh.vertices[0, 0] = 5.0  # read-only


def test_missing_colour_is_white_and_missing_normal_is_flat(tmp_path: Path) -> None:
    text = "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n"
    mesh = load_obj(write(tmp_path, text))
    np.testing.assert_allclose(mesh.colours, np.ones((3, 3)))
    np.testing.assert_allclose(mesh.normals, [[0, 1, 0]] * 3)


def test_polygons_are_fan_triangulated_and_forms_mixed(tmp_path: Path) -> None:
    text = (
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 1.5 0\n"
        "vt 0 0\nvn 0 0 1\n"
        "g group\ns off\nusemtl x\n"
        "f 1/1/1 2/1/1 3/1/1 4/1/1 5/1/1\n"  # pentagon -> 3 triangles
        "f 1 2 3 # trailing comment\n"
        "f 1/1 2/1 3/1\n"
        "f 1//1 2//1 3//1\n"
    )
    mesh = load_obj(write(tmp_path, text))
    assert mesh.triangles == 6
    first = mesh.positions[:9].reshape(3, 3, 3)
    np.testing.assert_allclose(first[:, 0], [[0, 0, 0]] * 3)  # all fan out from corner 1
    np.testing.assert_allclose(first[2, 2], (0.5, 1.5, 0))
    np.testing.assert_allclose(mesh.normals, np.tile((0, 0, 1), (18, 1)))


def test_negative_indices_are_relative(tmp_path: Path) -> None:
    text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf -3//-1 -2//-1 -1//-1\nv 5 5 5\nf 1 -3 4\n"
    mesh = load_obj(write(tmp_path, text))
    np.testing.assert_allclose(mesh.positions[:3], [[0, 0, 0], [1, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(mesh.positions[3:], [[0, 0, 0], [1, 0, 0], [5, 5, 5]])


def test_crlf_bom_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "dos.obj"
    path.write_bytes(b"\xef\xbb\xbf# dos\r\n\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n")
    assert load_obj(path).triangles == 1


def test_degenerate_triangle_without_normal_gets_an_up_normal(tmp_path: Path) -> None:
    mesh = load_obj(write(tmp_path, "v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\n"))
    np.testing.assert_allclose(mesh.normals, [[0, 1, 0]] * 3)


def test_loader_matches_generator_output(make_models: ModuleType, tmp_path: Path) -> None:
    geo = make_models.box((0, 0, 0), (1, 2, 3), (0.5, 0.25, 1.0))
    mesh = load_obj(write(tmp_path, make_models.to_obj("box", geo), "box.obj"))
    assert mesh.triangles == 12
    np.testing.assert_allclose(mesh.bounds[1], (1, 2, 3))
    np.testing.assert_allclose(mesh.colours, np.tile((0.5, 0.25, 1.0), (36, 1)))


VALID = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\n"


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("v 0 x 0\n", 1, "expected a number"),
        ("v 0 0\n", 1, "'v x y z'"),
        ("v 0 0 0 1 1\n", 1, "'v x y z'"),
        ("v 0 0 nan\n", 1, "finite"),
        ("v 0 0 0 2 0 0\n", 1, "colour components in 0..1"),
        (VALID + "vn 0 0\n", 5, "'vn x y z'"),
        (VALID + "vn 0 0 0\n", 5, "non-zero normal"),
        (VALID + "vn 1 a 0\n", 5, "expected a number"),
        (VALID + "f 1 2 4\n", 5, "vertex index in 1..3"),
        (VALID + "f 1 2 0\n", 5, "vertex index in 1..3"),
        (VALID + "f 1 2 -4\n", 5, "vertex index in 1..3"),
        (VALID + "f 1//1 2//1 3//2\n", 5, "normal index in 1..1"),
        (VALID + "f 1//1 2//1 3//x\n", 5, "integer normal index"),
        (VALID + "f 1 2 a\n", 5, "integer vertex index"),
        (VALID + "f 1/1/1/1 2 3\n", 5, "face corner"),
        (VALID + "f /1 2 3\n", 5, "face corner"),
        (VALID + "f 1 2\n", 5, "at least 3 corners"),
        (VALID + "f\n", 5, "at least 3 corners"),
        (VALID + "\nf 1//1 2//1 3//1\nf 1//1 2//1 4//1\n", 7, "vertex index in 1..3"),
        ("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n", 1, "vertex index in 1..0"),
        (VALID + "bogus 1 2 3\n", 5, "found 'bogus'"),
        (VALID, 4, "at least one face"),
        ("", 1, "at least one face"),
    ],
)
def test_malformed_file_names_file_and_line(
    tmp_path: Path, text: str, line: int, words: str
) -> None:
    path = write(tmp_path, text, "bad.obj")
    with pytest.raises(ObjError) as info:
        load_obj(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: expected"), message
    assert words in message
    assert isinstance(info.value, AssetError) and isinstance(info.value, ValueError)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "binary.obj"
    path.write_bytes(b"v 0 0 0\n\xff\xfe\n")
    with pytest.raises(ObjError, match=r"binary\.obj:1: expected UTF-8"):
        load_obj(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_obj(tmp_path / "nope.obj")


def test_card_envelope_and_felt_lie_flat_and_white(models: dict[str, Mesh]) -> None:
    """Cluedo's meshes are tinted by their material, so they are white or grey, and flat."""
    for name, (width, depth) in {"card": (0.64, 0.9), "envelope": (1.6, 1.1),
                                 "felt": (11.0, 8.0)}.items():  # fmt: skip
        lo, hi = models[name].bounds
        assert hi[0] - lo[0] == pytest.approx(width) and hi[2] - lo[2] == pytest.approx(depth)
        assert hi[1] - lo[1] < 0.2, f"{name} lies flat"
        colours = models[name].colours
        assert (abs(colours[:, 0] - colours[:, 1]) < 1e-6).all(), f"{name} is grey"


def test_board_game_pieces_stand_in_one_cell_pale_for_their_owners_colour(
    models: dict[str, Mesh],
) -> None:
    """Every piece stands on y=0 inside a cell of 1.0 round the origin, and is near white
    (the owner's colour tints it); the chess pieces rise in the order players know, and a
    man is flat enough to stack."""
    for name in PIECES:
        lo, hi = models[name].bounds
        assert abs(float(lo[1])) < 1e-3, name
        assert max(abs(float(v)) for v in (lo[0], lo[2], hi[0], hi[2])) <= 0.45, name
        assert models[name].colours.mean() > 0.85, name
    tall = [height(models[n]) for n in ("pawn", "rook", "knight", "bishop", "queen", "king")]
    assert tall == sorted(tall)
    assert height(models["man"]) < 0.15 and height(models["counter"]) < 0.15
    lo, hi = models["block"].bounds
    np.testing.assert_allclose(lo, [-0.5, 0.0, -0.5])
    np.testing.assert_allclose(hi, [0.5, 1.0, 0.5])


def test_a_folder_of_models_is_packed_once_until_a_file_changes(tmp_path: Path) -> None:
    """Every window (a new Director) uploads the same packed models: they are read again only
    when a file of the folder changed."""
    import os

    from game.engine.mesh import pack_models

    (tmp_path / "tri.obj").write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", encoding="utf-8")
    first = pack_models(tmp_path)
    assert pack_models(tmp_path) is first
    assert first.vertices == 3 and first.count == {"tri": 3}
    quad = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n"
    (tmp_path / "tri.obj").write_text(quad, encoding="utf-8")
    os.utime(tmp_path / "tri.obj", ns=(1, 1))  # a time of its own, whatever the clock's grain
    again = pack_models(tmp_path)
    assert again is not first and again.count == {"tri": 6}
