"""The described board games' models: every piece shape (draughts men and crowns, the chess
set, counters, Go stones, crosses and rings) and the parts boards are built from."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from modelling.geometry import (
    Colour,
    Geo,
    box,
    extrude,
    lathe,
    merge,
    move,
    octahedron,
    rotate,
    sphere,
    unit,
)
from modelling.palette import WHITE

# --------------------------------------------------------------------------------------------
# The described board games: every piece shape, and the parts boards are built from
# --------------------------------------------------------------------------------------------
# Pieces stand on y=0 centred on the origin, for a board square of 1.0; they are near white,
# with a few grey bands for detail, so the owner's colour (the node's material) tints them.

PIECE = (0.96, 0.95, 0.93)
PIECE_SHADE = (0.78, 0.77, 0.75)
PIECE_DEEP = (0.62, 0.61, 0.60)
CROWN = (0.96, 0.74, 0.20)
CROWN_DARK = (0.72, 0.48, 0.10)


def _staunton_base(top: float) -> list[tuple[float, float]]:
    """The foot every chess piece shares, up to the collar at ``top``."""
    return [(0.33, 0.0), (0.33, 0.05), (0.29, 0.08), (0.30, 0.10), (0.22, 0.14),
            (0.17, 0.18), (0.12, top)]  # fmt: skip


def _bands(profile: Sequence[tuple[float, float]], dark: Sequence[int]) -> list[Colour]:
    """One colour per band of a lathe profile: the ``dark`` bands shaded."""
    return [PIECE_SHADE if i in dark else PIECE for i in range(len(profile) - 1)]


def man() -> Geo:
    """A draughts man: a low disc with a ridged rim and a sunken ring on top, 0.8 across."""
    profile = [(0.0, 0.0), (0.38, 0.0), (0.40, 0.02), (0.40, 0.05), (0.385, 0.065),
               (0.40, 0.08), (0.40, 0.11), (0.38, 0.13), (0.30, 0.13), (0.27, 0.115),
               (0.24, 0.13), (0.0, 0.13)]  # fmt: skip
    colours = [PIECE, PIECE, PIECE, PIECE_SHADE, PIECE_SHADE, PIECE, PIECE, PIECE,
               PIECE_SHADE, PIECE_SHADE, PIECE]  # fmt: skip
    return lathe(profile, 28, colours, caps=False)


def crown() -> Geo:
    """A gold crown (a draughts king's mark): a band 0.36 across with five points, 0.16 tall."""
    band = lathe([(0.0, 0.0), (0.18, 0.0), (0.18, 0.07), (0.15, 0.07), (0.15, 0.01),
                  (0.0, 0.01)], 20, [CROWN_DARK, CROWN, CROWN, CROWN_DARK, CROWN_DARK],
                 caps=False)  # fmt: skip
    parts = [band]
    for k in range(5):
        spike = move(octahedron(0.05, CROWN, squash=(0.8, 1.8, 0.5)), 0.0, 0.11, 0.165)
        parts.append(rotate(spike, (0, 1, 0), 72.0 * k))
    return merge(*parts)


def pawn() -> Geo:
    """A chess pawn: a Staunton foot, a collar and a ball, 0.6 tall."""
    profile = [*_staunton_base(0.30), (0.17, 0.32), (0.17, 0.345), (0.09, 0.37), (0.0, 0.37)]
    body = lathe(profile, 20, _bands(profile, {5, 7, 8}), caps=False)
    return merge(body, move(sphere(0.13, 16, 8, PIECE), 0.0, 0.47, 0.0))


def rook() -> Geo:
    """A chess rook: a straight tower with five battlements, 0.66 tall."""
    profile = [*_staunton_base(0.20), (0.15, 0.44), (0.21, 0.47), (0.21, 0.58),
               (0.15, 0.58), (0.15, 0.54), (0.0, 0.54)]  # fmt: skip
    parts = [lathe(profile, 20, _bands(profile, {6, 9, 10}), caps=False)]
    for k in range(5):
        merlon = box((-0.055, 0.58, 0.15), (0.055, 0.66, 0.21), PIECE)
        parts.append(rotate(merlon, (0, 1, 0), 72.0 * k))
    return merge(*parts)


def bishop() -> Geo:
    """A chess bishop: a slim stem, a collar, a pointed mitre with a dark band and a knob,
    0.86 tall."""
    profile = [*_staunton_base(0.40), (0.18, 0.42), (0.18, 0.45), (0.11, 0.47), (0.15, 0.56),
               (0.155, 0.62), (0.13, 0.68), (0.08, 0.74), (0.0, 0.77)]  # fmt: skip
    body = lathe(profile, 20, _bands(profile, {7, 8, 10}), caps=False)
    return merge(body, move(sphere(0.05, 10, 5, PIECE), 0.0, 0.80, 0.0))


def queen() -> Geo:
    """A chess queen: a tall waisted body, a flared coronet of nine points and a ball,
    0.96 tall."""
    profile = [*_staunton_base(0.52), (0.19, 0.55), (0.19, 0.58), (0.12, 0.60), (0.15, 0.70),
               (0.21, 0.80), (0.17, 0.80), (0.12, 0.84), (0.0, 0.85)]  # fmt: skip
    parts = [lathe(profile, 24, _bands(profile, {7, 8, 12}), caps=False)]
    for k in range(9):
        point = move(octahedron(0.05, PIECE, squash=(1.0, 1.6, 1.0)), 0.0, 0.84, 0.19)
        parts.append(rotate(point, (0, 1, 0), 40.0 * k))
    parts.append(move(sphere(0.075, 10, 5, PIECE), 0.0, 0.91, 0.0))
    return merge(*parts)


def king() -> Geo:
    """A chess king: the tallest piece, a waisted body, a cap and a big cross on top, 1.2
    tall."""
    profile = [*_staunton_base(0.54), (0.19, 0.57), (0.19, 0.60), (0.12, 0.62), (0.15, 0.72),
               (0.19, 0.80), (0.16, 0.84), (0.08, 0.87), (0.0, 0.88)]  # fmt: skip
    body = lathe(profile, 24, _bands(profile, {7, 8, 12}), caps=False)
    upright = box((-0.045, 0.86, -0.045), (0.045, 1.20, 0.045), PIECE)
    arm = box((-0.14, 1.02, -0.045), (0.14, 1.10, 0.045), PIECE)
    return merge(body, upright, arm)


def knight() -> Geo:
    """A chess knight: a Staunton foot and a horse's head in profile, facing -X (left, as
    diagrams draw it), 0.8 tall."""
    foot = [*_staunton_base(0.20)[:-1], (0.17, 0.20), (0.0, 0.20)]
    parts = [lathe(foot, 20, _bands(foot, {5}), caps=False)]
    head = [(0.16, 0.18), (0.17, 0.36), (0.13, 0.55), (0.05, 0.68), (0.02, 0.80),
            (-0.04, 0.72), (-0.12, 0.68), (-0.24, 0.56), (-0.29, 0.47), (-0.25, 0.42),
            (-0.12, 0.44), (-0.04, 0.40), (-0.10, 0.28), (-0.14, 0.18)]  # fmt: skip
    parts.append(extrude(head, -0.10, 0.10, PIECE))
    mane = [(0.17, 0.36), (0.20, 0.40), (0.16, 0.58), (0.07, 0.70), (0.05, 0.68),
            (0.13, 0.55)]  # fmt: skip
    parts.append(extrude(mane, -0.05, 0.05, PIECE_SHADE))
    eye = octahedron(0.025, PIECE_DEEP)
    parts += [move(eye, -0.12, 0.60, 0.10), move(eye, -0.12, 0.60, -0.10)]
    return merge(*parts)


def counter() -> Geo:
    """A plain disc (the ``disc`` shape of a described game), 0.84 across and 0.12 thick,
    its bottom on y=0; the same on both faces, so it can turn over."""
    profile = [(0.0, 0.0), (0.40, 0.0), (0.42, 0.02), (0.42, 0.10), (0.40, 0.12), (0.0, 0.12)]
    return lathe(profile, 28, [PIECE, PIECE, PIECE_SHADE, PIECE, PIECE], caps=False)


def stone() -> Geo:
    """A Go stone: a smooth lens 0.88 across and 0.2 thick."""
    t = np.linspace(-math.pi / 2, math.pi / 2, 9)
    profile = [(0.44 * math.cos(a), 0.10 + 0.10 * math.sin(a)) for a in t]
    profile[0], profile[-1] = (0.0, 0.0), (0.0, 0.20)
    geo = lathe(profile, 24, PIECE, caps=False)
    # Smooth normals of the squashed sphere the lens is.
    centred = geo.pos - np.array([0.0, 0.10, 0.0])
    return Geo(geo.pos, unit(centred / np.array([0.44, 0.10, 0.44]) ** 1), geo.col)


def cross() -> Geo:
    """An X lying on the board: two crossed bars 0.8 long, 0.18 wide and 0.12 high."""
    bar = box((-0.40, 0.0, -0.09), (0.40, 0.12, 0.09), PIECE)
    return merge(rotate(bar, (0, 1, 0), 45.0), rotate(bar, (0, 1, 0), -45.0))


def ring() -> Geo:
    """An O lying on the board: a ring 0.76 across and 0.14 thick."""
    t = np.linspace(-math.pi / 2, 3 * math.pi / 2, 13)
    profile = [(0.31 + 0.07 * math.cos(a), 0.07 + 0.07 * math.sin(a)) for a in t]
    geo = lathe(profile, 28, PIECE, caps=False)
    radial = geo.pos * np.array([1.0, 0.0, 1.0])
    core = unit(radial) * 0.31 + np.array([0.0, 0.07, 0.0])
    return Geo(geo.pos, unit(geo.pos - core), geo.col)


def block() -> Geo:
    """A white unit block, -0.5..0.5 across X and Z, 0..1 up: scaled, it is a board's square,
    its frame, and the lines of a drawn board."""
    return box((-0.5, 0.0, -0.5), (0.5, 1.0, 0.5), WHITE)


def hexagon() -> Geo:
    """A white hexagonal slab 0.1 thick, its corners 1.0 from the middle (one on +Z), top at
    y=0: a cell of a hex board, scaled."""
    return lathe([(0.0, -0.1), (1.0, -0.1), (1.0, 0.0), (0.0, 0.0)], 6, WHITE, phase=0.0,
                 caps=False)  # fmt: skip


def hole() -> Geo:
    """A point of a drawn board: a small white dot 0.24 across, 0.012 high."""
    return lathe([(0.0, 0.0), (0.12, 0.0), (0.12, 0.012), (0.0, 0.012)], 16, WHITE, caps=False)


def spike() -> Geo:
    """A point of a backgammon board: a white triangular slab 0.01 thick, its base 1.0 wide
    along X through the origin and its tip 1.0 away on -Z, top at y=0.01 (scaled to a
    column's width and length)."""
    slab = extrude([(-0.5, 0.0), (0.5, 0.0), (0.0, 1.0)], 0.0, 0.01, WHITE)
    return rotate(slab, (1, 0, 0), -90.0)


def pentagon() -> Geo:
    """A shogi piece lying on the board: a pentagonal slab 0.76 wide, 0.86 long and 0.14
    thick whose point is on -Z (away from the camera: the piece faces the far side; turned
    half round for the other player)."""
    outline = [(-0.38, -0.42), (0.38, -0.42), (0.31, 0.22), (0.0, 0.44), (-0.31, 0.22)]
    slab = extrude(outline, 0.0, 0.14, PIECE, PIECE_SHADE)
    return rotate(slab, (1, 0, 0), -90.0)
