"""The river crossing's models: the priest and the devil, the boat, the banks and the water,
and the props round them (trees, rocks, reeds, clouds, the jetty)."""

from __future__ import annotations

import math

import numpy as np

from modelling.geometry import (
    Colour,
    Geo,
    blob,
    box,
    cylinder,
    extrude,
    face_normals,
    fan,
    halving_band,
    lathe,
    lerp,
    merge,
    mirror_x,
    move,
    noise,
    octahedron,
    orient,
    ring_band,
    rotate,
    scale,
    smooth_loop,
    sphere,
    surface,
    transform,
    tris,
    tube,
    vary,
)
from modelling.palette import (
    BARK,
    BELLY,
    CATTAIL,
    CHEEK,
    CLOUD,
    DECK_A,
    DECK_B,
    DEVIL,
    DEVIL_DARK,
    DEVIL_EYE,
    EYE,
    GOLD,
    GRASS,
    GRASS_EDGE,
    HOOF,
    HORN,
    LEAF,
    LEAF_DARK,
    LEAF_LIGHT,
    MITRE,
    MOSS,
    OAR,
    POLE,
    PUPIL,
    REED,
    REED_DARK,
    ROBE,
    ROCK,
    ROCK_DARK,
    ROYAL,
    SKIN,
    SOIL,
    SOIL_DARK,
    STEEL,
    WATER_DEEP,
    WATER_SHALLOW,
    WING,
    WOOD_DARK,
    WOOD_LIGHT,
    WOOD_MID,
)

# --------------------------------------------------------------------------------------------
# Characters
# --------------------------------------------------------------------------------------------


def _eyes(y: float, z: float, dx: float, size: float, colour: Colour) -> Geo:
    """A pair of diamond eyes (cheap octahedra), mirrored about x=0, on the +Z face."""
    eye = octahedron(size, colour, squash=(0.8, 1.2, 0.5))
    return merge(move(eye, -dx, y, z), move(eye, dx, y, z))


def _dots(y: float, z: float, dx: float, size: float, colour: Colour, segments: int) -> Geo:
    """A pair of small round bumps facing +Z (a low dome each), mirrored about x=0."""
    dome = lathe([(size, 0.0), (0.75 * size, 0.35 * size), (0.0, 0.5 * size)], segments, colour,
                 caps=False)  # fmt: skip
    dome = rotate(scale(dome, 1.0, 1.0, 1.15), (1, 0, 0), 90)  # +Y -> +Z, a little taller
    return merge(move(dome, -dx, y, z), move(dome, dx, y, z))


def priest() -> Geo:
    """A calm priest: long cream robe with gold trim and a blue stole, round head, tall mitre."""
    # Robe: a bell revolved about Y, slightly flattened front to back. Segment 0 faces +Z and
    # carries the blue stole; the hem and belt are gold.
    robe_profile = [
        (0.275, 0.00), (0.278, 0.06), (0.252, 0.20), (0.222, 0.335), (0.226, 0.395),
        (0.198, 0.50), (0.172, 0.585), (0.110, 0.650), (0.058, 0.665),
    ]  # fmt: skip
    segs = 12
    bands = [GOLD, ROBE, ROBE, GOLD, ROBE, ROBE, ROBE, GOLD]
    col = np.array([[b] * segs for b in bands])
    for band in (1, 2, 4, 5, 6):
        col[band, 0] = ROYAL
    robe = scale(lathe(robe_profile, segs, col, phase=-0.5), 1.0, 1.0, 0.86)

    # Sleeves hang from the shoulders to hands folded in front at the belt.
    sleeve_path = [
        (0.165, 0.585, -0.01),
        (0.205, 0.49, 0.04),
        (0.16, 0.42, 0.15),
        (0.085, 0.41, 0.215),
    ]
    sleeve_col = [ROBE, ROBE, GOLD]
    sleeve = tube(sleeve_path, [0.052, 0.060, 0.068, 0.072], 6, sleeve_col)
    sleeves = merge(sleeve, mirror_x(sleeve))
    hands = move(scale(sphere(0.062, 7, 4, SKIN), 1.25, 0.8, 0.8), 0.0, 0.41, 0.235)

    # Head with a friendly face.
    head = move(sphere(0.135, 10, 7, SKIN), 0.0, 0.775, 0.0)
    eyes = _dots(0.79, 0.124, 0.046, 0.021, EYE, 8)
    cheeks = _dots(0.75, 0.108, 0.074, 0.022, CHEEK, 6)
    smile = tube([(-0.035, 0.735, 0.122), (-0.012, 0.722, 0.13), (0.012, 0.722, 0.13),
                  (0.035, 0.735, 0.122)], [0.007] * 4, 3, EYE, caps=False)  # fmt: skip

    # Mitre: a tall pointed cap, flattened front to back, white with gold band and stripe.
    mitre_profile = [(0.128, 0.835), (0.134, 0.895), (0.128, 0.975), (0.098, 1.045), (0.0, 1.12)]
    mcol = np.array([[b] * segs for b in [GOLD, MITRE, MITRE, MITRE]])
    mcol[1:, 0] = GOLD
    mcol[1:, segs // 2] = GOLD
    mitre = scale(lathe(mitre_profile, segs, mcol, phase=-0.5), 1.0, 1.0, 0.72)

    # A small gold cross on the chest.
    cross = merge(box((-0.014, 0.47, 0.17), (0.014, 0.565, 0.19), GOLD),
                  box((-0.04, 0.52, 0.17), (0.04, 0.545, 0.19), GOLD))  # fmt: skip
    return merge(robe, sleeves, hands, head, eyes, cheeks, smile, mitre, cross)


def devil() -> Geo:
    """A mischievous devil: red, round and stocky with horns, bat wings, tail and trident."""
    # Feet: dark hooves under short legs.
    hoof = cylinder(0.072, 0.0, 0.065, 6, HOOF, top=0.062)
    leg = tube([(0.0, 0.06, 0.0), (0.0, 0.22, 0.0)], [0.055, 0.058], 6, DEVIL_DARK, caps=False)
    legs = merge(move(hoof + leg, -0.105, 0, 0.01), move(hoof + leg, 0.105, 0, 0.01))

    # Round body with a lighter belly (the front segments).
    segs = 10
    body_profile = [
        (0.11, 0.16),
        (0.215, 0.20),
        (0.262, 0.29),
        (0.254, 0.38),
        (0.205, 0.465),
        (0.11, 0.52),
    ]
    bcol = np.array([[DEVIL] * segs for _ in range(len(body_profile) - 1)])
    bcol[1:4, 0] = BELLY
    body = scale(lathe(body_profile, segs, bcol, phase=-0.5), 1.0, 1.0, 0.9)

    # Big round head with yellow eyes and two dark curved horns.
    head = move(sphere(0.168, 10, 7, DEVIL), 0.0, 0.61, 0.0)
    eyes = _eyes(0.625, 0.142, 0.058, 0.034, DEVIL_EYE)
    pupils = _eyes(0.62, 0.162, 0.058, 0.015, PUPIL)
    brow = box((-0.045, -0.008, -0.012), (0.045, 0.008, 0.012), PUPIL)
    brows = merge(
        move(rotate(brow, (0, 0, 1), -24), -0.06, 0.675, 0.142),
        move(rotate(brow, (0, 0, 1), 24), 0.06, 0.675, 0.142),
    )
    horn = tube(
        [(0.075, 0.70, 0.02), (0.13, 0.765, 0.03), (0.165, 0.83, 0.03), (0.16, 0.90, 0.01)],
        [0.05, 0.04, 0.024, 0.0],
        6,
        HORN,
    )
    horns = merge(horn, mirror_x(horn))

    # Arms down at the sides; one hand holds a trident.
    arm = tube([(0.20, 0.42, 0.0), (0.29, 0.36, 0.04), (0.33, 0.30, 0.08)], [0.05, 0.045, 0.045], 6,
               DEVIL)  # fmt: skip
    hand = move(octahedron(0.055, DEVIL_DARK), 0.335, 0.29, 0.085)
    arms = merge(arm, hand, mirror_x(arm), mirror_x(hand))
    pole = tube([(0.335, 0.02, 0.085), (0.335, 0.74, 0.085)], [0.016, 0.016], 5, POLE, caps=False)
    bar = box((0.26, 0.735, 0.07), (0.41, 0.765, 0.10), STEEL)
    prong = cylinder(0.016, 0.76, 0.87, 5, STEEL, top=0.0)
    trident = merge(
        pole, bar, move(prong, 0.335, 0.0, 0.085), move(prong, 0.27, -0.02, 0.085),
        move(prong, 0.40, -0.02, 0.085),
    )  # fmt: skip

    # A pointed tail curling up behind.
    tail_path = [(0.0, 0.24, -0.19), (0.02, 0.19, -0.31), (0.07, 0.22, -0.41), (0.13, 0.33, -0.45),
                 (0.16, 0.45, -0.42)]  # fmt: skip
    tail = tube(tail_path, [0.032, 0.028, 0.025, 0.022, 0.02], 5, DEVIL_DARK)
    spade = extrude([(0.0, -0.01), (0.055, 0.02), (0.0, 0.10), (-0.055, 0.02)], -0.012, 0.012, HORN)
    tip_dir = np.subtract(tail_path[-1], tail_path[-2])
    spade = orient(spade, tail_path[-1], tip_dir, (1.0, 0.0, 0.3))

    # Small bat wings on the back.
    wing_poly = [(0.0, 0.0), (0.09, 0.05), (0.15, -0.02), (0.21, 0.05), (0.30, 0.02), (0.33, 0.22),
                 (0.16, 0.18), (0.0, 0.10)]  # fmt: skip
    wing = extrude(wing_poly, -0.012, 0.012, WING)
    wing = move(rotate(wing, (0, 1, 0), 28), 0.07, 0.40, -0.17)
    wings = merge(wing, mirror_x(wing))
    return merge(legs, body, head, eyes, pupils, brows, horns, arms, trident, tail, spade, wings)


# --------------------------------------------------------------------------------------------
# Boat, banks and water
# --------------------------------------------------------------------------------------------


def boat() -> Geo:
    """A wooden rowing boat along X: 3.0 long, 1.3 wide, deck at y=0.25, two oars out."""
    half_len, half_width, deck_y = 1.5, 0.65, 0.25
    sections = 17
    u = np.linspace(-1.0, 1.0, sections)  # -1 stern .. 1 bow, both ends pointed
    au = np.abs(u)
    x = u * half_len
    w = half_width * np.clip(1.0 - au**2.6, 0.0, 1.0) ** 0.62  # half-width of the hull
    bottom = -0.15 + 0.20 * au**3  # rocker: the keel rises towards the ends
    rim = 0.36 + 0.17 * au**2.4  # sheer: the gunwale rises towards the ends

    # One closed cross-section per station, walked around: deck (right to left), left inner
    # wall, left gunwale, outer hull under the keel, right gunwale, right inner wall.
    phi = np.radians(np.linspace(-90.0, 90.0, 9))
    cos_deck = np.clip(1.0 - (deck_y - bottom) / (rim - bottom), 0.0, 1.0)
    w_deck = 0.9 * w * np.sqrt(1.0 - cos_deck**2)
    w_in = 0.88 * w
    lip = 0.035
    deck_z = np.linspace(1.0, -1.0, 6)
    loops = []
    for i in range(sections):
        pts = [(w_deck[i] * dz, deck_y) for dz in deck_z]
        pts += [(-w_in[i], rim[i]), (-w_in[i], rim[i] + lip), (-w[i] - 0.02, rim[i] + lip)]
        pts += [(w[i] * math.sin(p), bottom[i] + (rim[i] - bottom[i]) * (1 - math.cos(p)))
                for p in phi]  # fmt: skip
        pts += [(w[i] + 0.02, rim[i] + lip), (w_in[i], rim[i] + lip), (w_in[i], rim[i])]
        pts.append(pts[0])
        loops.append([(x[i], yy, zz) for zz, yy in pts])
    grid = np.array(loops)

    band_cols: list[Colour] = [DECK_A, DECK_B] * 2 + [DECK_A]  # five deck planks
    band_cols += [WOOD_MID, WOOD_DARK, WOOD_DARK, WOOD_DARK]  # inner wall, gunwale top, lip
    band_cols += [WOOD_MID, WOOD_LIGHT] * 4  # hull planks
    band_cols += [WOOD_DARK, WOOD_DARK, WOOD_DARK, WOOD_MID]  # lip, gunwale top, inner wall
    cols = np.broadcast_to(np.array(band_cols)[None, :, :], (sections - 1, len(band_cols), 3))
    hull = vary(surface(grid, cols, flip=True), 0.05, 11)

    # Oars resting in the oarlocks amidships, blades in the water either side.
    oar = merge(
        tube([(0.0, 0.42, 0.45), (0.0, 0.40, 0.70), (0.0, 0.12, 1.30)], [0.024] * 3, 6, OAR),
        orient(box((-0.07, 0.0, -0.012), (0.07, 0.34, 0.012), OAR), (0.0, 0.17, 1.26),
               (0.0, -0.28, 0.60), (1.0, 0.0, 0.0)),
    )  # fmt: skip
    lock = box((-0.04, rim[8] + lip, 0.62), (0.04, rim[8] + lip + 0.07, 0.68), WOOD_DARK)
    oars = merge(oar, lock, transform(oar + lock, np.diag([1.0, 1.0, -1.0])))
    return merge(hull, oars)


def bank() -> Geo:
    """A grassy river bank block, top at y=0, earthy sides down to y=-1.5, irregular edge."""
    half_x, half_z, n = 3.5, 5.0, 80
    # A rounded rectangle (a superellipse) sampled evenly by angle from the centre, then
    # pulled in a little by smooth noise so the outline is gently irregular; it always stays
    # inside the +-3.5 x +-5 box. One closed ring of points per height.
    t = 2 * np.pi * (np.arange(n) + 0.5) / n
    dx, dz = np.sin(t), np.cos(t)

    def ring(inset: float, y: float, wobble: float, seed: int) -> np.ndarray:
        p = 6.0
        k = (np.abs(dx / (half_x - inset)) ** p + np.abs(dz / (half_z - inset)) ** p) ** (-1 / p)
        k = k - wobble * smooth_loop(noise(n, seed), 2)
        pts = np.column_stack([dx * k, np.full(n, y), dz * k])
        return np.vstack([pts, pts[:1]])

    top_edge = ring(0.30, 0.0, 0.16, 1)
    lip = ring(0.10, -0.16, 0.16, 1)
    mid1 = ring(0.0, -0.45, 0.22, 2)
    mid2 = ring(0.05, -0.95, 0.25, 3)
    foot = ring(0.0, -1.5, 0.2, 4)

    # Top: rings shrinking towards the centre, thinned out every other ring so the grass
    # facets stay about the same size everywhere.
    def shrink(s: float, step: int) -> np.ndarray:
        ring_points: np.ndarray = top_edge[::step] * np.array([s, 1.0, s])
        return ring_points

    top = merge(
        ring_band(top_edge, shrink(0.8, 1), GRASS),
        halving_band(shrink(0.8, 1), shrink(0.6, 2), GRASS),
        ring_band(shrink(0.6, 2), shrink(0.4, 2), GRASS),
        halving_band(shrink(0.4, 2), shrink(0.2, 4), GRASS),
        fan((0.0, 0.0, 0.0), shrink(0.2, 4), GRASS),
    )
    top = vary(top, 0.05, 21)
    sides = merge(
        vary(ring_band(lip, top_edge, GRASS_EDGE), 0.06, 22),
        vary(ring_band(mid1, lip, SOIL_DARK), 0.08, 23),
        vary(ring_band(mid2, mid1, SOIL), 0.08, 24),
        vary(ring_band(foot, mid2, ROCK), 0.10, 25),
    )
    base = fan((0.0, -1.5, 0.0), foot[::-1], ROCK_DARK)
    return merge(top, sides, base)


def water() -> Geo:
    """A flat 56 x 40 grid at y=0 over X -12..12, Z -10..10, teal in the middle of the river."""
    nx, nz = 56, 40
    xs = np.linspace(-12.0, 12.0, nx + 1)
    zs = np.linspace(-10.0, 10.0, nz + 1)
    gx, gz = np.meshgrid(xs, zs, indexing="ij")  # rows along X, columns along Z: normal +Y
    grid = np.stack([gx, np.zeros_like(gx), gz], axis=2)
    shallow = np.clip((np.abs(gx) - 1.5) / 5.0, 0.0, 1.0)
    shallow = shallow * shallow * (3 - 2 * shallow)
    col = lerp(WATER_DEEP, WATER_SHALLOW, shallow[..., None])
    col = col * (1.0 + 0.04 * (noise(gx.size, 31).reshape(gx.shape) - 0.5))[..., None]
    normals = np.broadcast_to(np.array([0.0, 1.0, 0.0]), grid.shape)
    return surface(grid, np.clip(col, 0, 1), normals)


# --------------------------------------------------------------------------------------------
# Props
# --------------------------------------------------------------------------------------------


def tree() -> Geo:
    """A round low-poly tree: a tapered trunk under three lumpy leaf clusters, ~2.2 tall."""
    trunk = tube([(0, -0.05, 0), (0.02, 0.5, 0), (-0.02, 1.0, 0.02)], [0.15, 0.11, 0.08], 7, BARK)
    branch = tube([(0.0, 0.75, 0.0), (0.26, 0.98, 0.08)], [0.05, 0.03], 5, BARK)
    crowns = merge(
        move(blob(0.62, LEAF, bumps=0.12, seed=41, squash=(1.0, 0.9, 1.0)), 0.0, 1.45, 0.0),
        move(blob(0.42, LEAF_LIGHT, bumps=0.12, seed=42), 0.36, 1.12, 0.14),
        move(blob(0.40, LEAF_DARK, bumps=0.12, seed=43), -0.22, 1.85, -0.08),
    )
    return merge(vary(trunk + branch, 0.06, 44), vary(crowns, 0.08, 45))


def rock() -> Geo:
    """A lumpy grey boulder with a smaller one beside it; mossy where it faces up."""
    big = move(blob(0.5, ROCK, bumps=0.18, seed=51, squash=(1.0, 0.62, 0.85)), 0.0, 0.22, 0.0)
    small = move(blob(0.26, ROCK, bumps=0.2, seed=52, squash=(1.0, 0.7, 0.9)), 0.48, 0.10, 0.22)
    geo = merge(big, small)
    up = face_normals(geo.pos)[:, 1]
    col = np.where((up > 0.72)[:, None, None], np.array(MOSS), geo.col)
    col = np.where((up < -0.2)[:, None, None], np.array(ROCK_DARK), col)
    return vary(Geo(geo.pos, geo.nrm, col), 0.10, 53)


def reeds() -> Geo:
    """A clump of reed blades and three cattails, ~1.0 tall."""
    parts = []
    count = 13
    h = noise(count * 4, 61)
    for i in range(count):
        ang = 2 * np.pi * (i / count + 0.1 * h[4 * i])
        rad = 0.05 + 0.14 * h[4 * i + 1]
        height = 0.55 + 0.35 * h[4 * i + 2]
        lean = 0.10 + 0.22 * h[4 * i + 3]
        bx, bz = rad * math.sin(ang), rad * math.cos(ang)
        ox, oz = math.sin(ang) * lean, math.cos(ang) * lean
        path = [(bx, -0.05, bz), (bx + 0.3 * ox, 0.5 * height, bz + 0.3 * oz),
                (bx + ox, height, bz + oz)]  # fmt: skip
        colour = REED if i % 2 else REED_DARK
        parts.append(tube(path, [0.022, 0.016, 0.0], 3, colour))
    for i, (cx, cz, top) in enumerate(
        [(0.02, 0.03, 1.0), (-0.09, -0.05, 0.86), (0.1, -0.08, 0.78)]
    ):
        stem = tube([(cx, -0.05, cz), (cx + 0.02 * i, top, cz)], [0.012, 0.01], 4, REED_DARK)
        head = tube(
            [(cx + 0.02 * i, top - 0.26, cz), (cx + 0.02 * i, top - 0.03, cz)],
            [0.032, 0.032], 6, CATTAIL,
        )  # fmt: skip
        parts += [stem, head]
    return vary(merge(*parts), 0.08, 62)


def cloud() -> Geo:
    """A puffy white cloud about 2.4 long with a flat underside."""
    puffs = merge(
        move(blob(0.55, CLOUD, bumps=0.06, seed=71), 0.0, 0.35, 0.0),
        move(blob(0.42, CLOUD, bumps=0.06, seed=72), -0.62, 0.22, 0.05),
        move(blob(0.45, CLOUD, bumps=0.06, seed=73), 0.62, 0.25, -0.05),
        move(blob(0.32, CLOUD, bumps=0.06, seed=74), 0.2, 0.62, 0.1),
    )
    pos = puffs.pos.copy()
    pos[..., 1] = np.maximum(pos[..., 1], 0.0)  # flatten the bottom
    geo = tris(pos, puffs.col)
    down = face_normals(geo.pos)[:, 1] < -0.5
    col = np.where(down[:, None, None], np.array((0.86, 0.88, 0.93)), geo.col)
    return Geo(geo.pos, geo.nrm, col)


def jetty() -> Geo:
    """A short wooden pier, 1.5 along X by 1.2 along Z, deck top at y=0, on four posts."""
    planks = []
    count, gap = 6, 0.03
    width = (1.5 - gap * (count - 1)) / count
    for i in range(count):
        x0 = -0.75 + i * (width + gap)
        colour = DECK_A if i % 2 == 0 else DECK_B
        planks.append(box((x0, -0.06, -0.6), (x0 + width, 0.0, 0.6), colour))
    beams = merge(
        box((-0.75, -0.16, 0.38), (0.75, -0.06, 0.48), WOOD_DARK),
        box((-0.75, -0.16, -0.48), (0.75, -0.06, -0.38), WOOD_DARK),
    )
    post = lathe([(0.075, -1.2), (0.075, 0.1), (0.06, 0.13)], 7, [WOOD_MID, WOOD_DARK])
    posts = merge(*(move(post, px, 0.0, pz) for px in (-0.62, 0.62) for pz in (-0.53, 0.53)))
    return vary(merge(*planks, beams, posts), 0.07, 81)
