"""How the MasterGrab map looks, without GL: the mesh (no holes, smooth borders), the palette
(apart for colour-blind eyes), the country names and where the numbers go."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.games.grab.mesh import (
    PIXELS_PER_UNIT,
    SEGMENT_FLOATS,
    VERTEX_FLOATS,
    build_map_mesh,
    cell_grid,
    smooth_corners,
)
from game.logic.grab.labels import TALL, label_spots, overlapping, place_labels
from game.logic.grab.map import generate_map
from game.logic.grab.names import country_names
from game.logic.grab.options import SCHEMA, GrabOptions, GrabOptionsError
from game.logic.grab.palette import COLOUR_NAMES, PALETTE, distance, owner_colours


def _map(seed: int = 1, countries: int = 60, size: tuple[int, int] = (640, 360)):
    return generate_map(GrabOptions(countries=countries), *size, seed, countries=countries)


def _cross(o, p, q):
    return (p[..., 0] - o[..., 0]) * (q[..., 1] - o[..., 1]) - (p[..., 1] - o[..., 1]) * (
        q[..., 0] - o[..., 0]
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_the_tiles_cover_the_map_without_holes(seed):
    grab_map = _map(seed)
    mesh = build_map_mesh(grab_map.owner, grab_map.centres, step=4, mountains=grab_map.mountains)
    quads = mesh.vertices.reshape(-1, 4, VERTEX_FLOATS)
    tops = quads[(quads[:, :, 1] == 1).all(axis=1)]
    tris = np.concatenate([tops[:, [0, 1, 2]], tops[:, [0, 2, 3]]])[:, :, [0, 2]]
    tris = tris.astype(np.float64)
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    area = _cross(a, b, c)
    rng = np.random.default_rng(seed)
    points = rng.uniform([0.2, 0.2], [mesh.width - 0.2, mesh.depth - 0.2], size=(3000, 2))
    for chunk in np.array_split(points, 6):
        p = chunk[:, None, :]
        d1 = _cross(a[None], b[None], p)
        d2 = _cross(b[None], c[None], p)
        d3 = _cross(c[None], a[None], p)
        inside = ((d1 <= 0) & (d2 <= 0) & (d3 <= 0)) | ((d1 >= 0) & (d2 >= 0) & (d3 >= 0))
        inside &= np.abs(area)[None] > 1e-12
        assert inside.any(axis=1).all()  # every point of the map lies on some tile
    # Nearly every top triangle faces up (a smoothed corner may fold a sliver, never more).
    assert (area > 1e-12).sum() <= 0.002 * len(area)
    assert set(np.unique(mesh.cells)) == set(range(grab_map.countries))
    assert sum(count for _, count, _ in mesh.chunks) == len(mesh.indices)
    # Culling by chunk never drops a tile: each lies inside its chunk's rectangle.
    for first, count, (x0, z0, x1, z1) in mesh.chunks:
        corners = quads[first // 6 : (first + count) // 6]
        assert (corners[:, :, 0] >= x0).all() and (corners[:, :, 0] <= x1).all()
        assert (corners[:, :, 2] >= z0).all() and (corners[:, :, 2] <= z1).all()


def test_borders_are_smooth_curves_not_pixel_stairs():
    grab_map = _map(3)
    cells = cell_grid(grab_map.owner, 4, grab_map.centres)
    offset = smooth_corners(cells)
    assert np.abs(offset).max() <= 0.5  # a corner never leaves its half cell
    rows, cols = cells.shape
    ul, ur = np.roll(cells, (1, 1), axis=(0, 1)), np.roll(cells, 1, axis=0)
    ll, lr = np.roll(cells, 1, axis=1), cells
    edges = {(-1, 0): ul != ur, (1, 0): ll != lr, (0, -1): ul != ll, (0, 1): ur != lr}
    degree = sum(e.astype(int) for e in edges.values())
    sharp_before = sharp_after = total = 0
    for i, j in zip(*np.nonzero(degree == 2), strict=True):
        dirs = [d for d, e in edges.items() if e[i, j]]
        here = np.array([j, i]) + offset[i, j]
        vectors = []
        for di, dj in dirs:
            there = np.array([j + dj, i + di]) + offset[(i + di) % rows, (j + dj) % cols]
            vectors.append(there - here)
        cos = np.dot(*vectors) / np.linalg.norm(vectors[0]) / np.linalg.norm(vectors[1])
        total += 1
        sharp_before += dirs[0][0] * dirs[1][0] + dirs[0][1] * dirs[1][1] == 0  # a right angle
        sharp_after += cos > -0.5  # the border turns by more than 60 degrees here
    assert sharp_before > 0.3 * total  # the pixel map is full of stairs ...
    assert sharp_after < 0.03 * total  # ... the drawn borders almost never turn sharply


def test_every_border_edge_has_a_band_and_a_wall_on_each_side():
    grab_map = _map(4)
    mesh = build_map_mesh(grab_map.owner, grab_map.centres, step=4, mountains=grab_map.mountains)
    segments = mesh.segments.reshape(-1, 4, SEGMENT_FLOATS)
    a, b = segments[:, 0, 6].astype(int), segments[:, 0, 7].astype(int)
    assert (a != b).all()
    # Nearly every band lies between countries that touch on the pixel map (the coarser
    # cells may, rarely, make two countries meet at a corner of a third).
    real = [y in grab_map.borders[x] for x, y in zip(a.tolist(), b.tolist(), strict=True)]
    assert sum(real) >= 0.99 * len(real)
    quads = mesh.vertices.reshape(-1, 4, VERTEX_FLOATS)
    walls = quads[~(quads[:, :, 1] == 1).all(axis=1)]
    assert len(walls) == 2 * len(segments)
    # A wall stands across its normal: the normal is horizontal and at right angles to it.
    along = walls[:, 0, [0, 2]] - walls[:, 1, [0, 2]]
    normal = walls[:, 0, [3, 5]]
    assert np.abs(walls[:, 0, 4]).max() == 0
    assert np.abs((along * normal).sum(axis=1)).max() < 1e-4


def test_the_palette_stays_apart_for_colour_blind_eyes():
    okabe_ito = COLOUR_NAMES[:7]
    for x, y in itertools.combinations(okabe_ito, 2):
        assert distance(PALETTE[x], PALETTE[y]) > 15, (x, y)
    # Whatever colour the person picks, a default game's four owners stay well apart.
    for colour in COLOUR_NAMES:
        four = owner_colours(colour, 4)
        assert len(set(four)) == 4 and four[0] == PALETTE[colour]
        if colour in okabe_ito:
            assert min(distance(p, q) for p, q in itertools.combinations(four, 2)) > 15
    assert len(set(owner_colours(None, 16))) == 16
    with pytest.raises(ValueError, match="colour"):
        owner_colours("pink", 4)


def test_the_colour_is_an_option_saved_like_the_others():
    values = SCHEMA.validate({"colour": "sky", "robot_speed": "slow"})
    assert GrabOptions.from_values(values).colour == "sky"
    assert SCHEMA.defaults()["colour"] == "vermillion"
    with pytest.raises(ValueError):
        SCHEMA.validate({"colour": "pink"})
    with pytest.raises(GrabOptionsError):
        GrabOptions(robot_speed="warp")


def test_every_country_has_a_name_stable_for_its_map():
    grab_map = _map(5, countries=300, size=(1280, 720))
    names = country_names(grab_map)
    assert len(names) == 300 and len(set(names)) == 300
    assert all(name and name[0].isupper() for name in names)
    assert all(names[m].startswith("Mount ") for m in grab_map.mountains)
    assert names == country_names(_map(5, countries=300, size=(1280, 720)))
    assert names != country_names(_map(6, countries=300, size=(1280, 720)))


@pytest.mark.parametrize(("countries", "size"), [(20, (1280, 720)), (140, (1280, 720)),
                                                 (700, (2800, 1575))])  # fmt: skip
def test_numbers_lie_inside_their_country_and_never_overlap(countries, size):
    grab_map = _map(7, countries=countries, size=size)
    spots = label_spots(grab_map)
    for c, (x, y) in enumerate(spots.points):
        assert grab_map.owner[y, x] == c
    # Long numbers everywhere: the worst case for crowding.
    labels = place_labels(spots, [0.62 * 3] * countries, grab_map.mountains)
    assert set(labels) == set(range(countries)) - grab_map.mountains
    assert overlapping(labels, *size) == []
    # Where it fits, a number's room lies inside its country (the circle at its spot).
    for c, label in labels.items():
        half = np.hypot(label.width, label.height * TALL) / 2
        if label.height > 11:
            assert half <= spots.radii[c] + 1e-6
    assert PIXELS_PER_UNIT > 0
