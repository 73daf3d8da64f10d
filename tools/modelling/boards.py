"""Reversi's and Cluedo's models: the disc and its faces, the board's felt, lines and frame,
the hint marker and arrow, the table, the cards, the envelope and the card table's felt."""

from __future__ import annotations

import numpy as np

from modelling.geometry import Geo, box, cylinder, extrude, lathe, merge, move, rotate, tris, vary
from modelling.palette import BLACK, TABLE, TABLE_DARK, WHITE, WOOD_MID

# --------------------------------------------------------------------------------------------
# Pieces and markers for board games and hints
# --------------------------------------------------------------------------------------------


def disc() -> Geo:
    """A Reversi disc: radius 0.45, 0.12 thick, centred on y=0; white on top, black below."""
    profile = [(0.0, -0.06), (0.42, -0.06), (0.45, -0.035), (0.45, 0.0), (0.45, 0.035),
               (0.42, 0.06), (0.0, 0.06)]  # fmt: skip
    return lathe(profile, 24, [BLACK, BLACK, BLACK, WHITE, WHITE, WHITE], caps=False)


def marker() -> Geo:
    """A thin flat ring, outer radius 0.3, lying on y=0 (for highlights)."""
    profile = [(0.22, 0.0), (0.30, 0.0), (0.30, 0.02), (0.22, 0.02), (0.22, 0.0)]
    return lathe(profile, 32, WHITE, caps=False)


def arrow() -> Geo:
    """A hint arrow pointing down -Y: tip at the origin, 0.6 tall."""
    profile = [(0.0, 0.0), (0.17, 0.26), (0.07, 0.26), (0.07, 0.60), (0.0, 0.60)]
    return lathe(profile, 12, WHITE, caps=False)


def disc_face() -> Geo:
    """One face of a Reversi disc: the half above y=0 of a disc of radius 0.45, 0.12 thick,
    white for the theme's colour (a disc is two faces, the lower one turned over)."""
    profile = [(0.45, 0.0), (0.45, 0.035), (0.42, 0.06), (0.0, 0.06)]
    return lathe(profile, 24, WHITE, caps=False)


def reversi_felt() -> Geo:
    """The playing surface of the Reversi board: 8 x 8 squares of 1.0 (top at y=0, centred
    on the origin), white for the theme's colour."""
    return box((-4.0, -0.30, -4.0), (4.0, 0.0, 4.0), WHITE)


def reversi_lines() -> Geo:
    """The Reversi board's grid lines just above the felt and its four traditional dots,
    white for the theme's colour."""
    parts = []
    for i in range(9):
        c = -4.0 + i
        parts.append(box((c - 0.025, 0.0, -4.0), (c + 0.025, 0.004, 4.0), WHITE))
        parts.append(box((-4.0, 0.0, c - 0.025), (4.0, 0.004, c + 0.025), WHITE))
    for x, z in ((-2, -2), (2, -2), (-2, 2), (2, 2)):
        parts.append(move(cylinder(0.07, 0.0, 0.006, 8, WHITE), x, 0.0, z))
    return merge(*parts)


def reversi_frame() -> Geo:
    """The Reversi board's bevelled wooden frame round the felt: four rails (a trapezoid
    section swept along each side), in wood tones the theme tints."""
    inner, outer, top, low = 4.0, 4.6, 0.10, -0.36
    section = [(inner, 0.0), (inner + 0.12, top), (outer - 0.1, top), (outer, top - 0.08),
               (outer, low), (inner, low)]  # fmt: skip
    parts = []
    for k in range(4):
        rail = extrude([(x, y) for x, y in reversed(section)], -outer, outer, WOOD_MID)
        rail = rotate(rail, (0, 1, 0), 90.0 * k)
        parts.append(vary(rail, 0.05, 40 + k))
    return merge(*parts)


def table() -> Geo:
    """A broad tabletop under the board: top at y=0, 24 x 16, with a darker rim."""
    return merge(
        vary(box((-12.0, -0.4, -8.0), (12.0, 0.0, 8.0), TABLE), 0.04, 7),
        box((-12.2, -0.5, -8.2), (12.2, -0.3, 8.2), TABLE_DARK),
    )


def card() -> Geo:
    """A playing card lying flat, 0.64 x 0.9, its face a pale panel inside a grey border;
    white so that a material tints it (a category's colour, or the back's)."""
    return merge(
        box((-0.32, 0.0, -0.45), (0.32, 0.02, 0.45), (0.78, 0.78, 0.78)),
        box((-0.26, 0.02, -0.39), (0.26, 0.026, 0.39), (1.0, 1.0, 1.0)),
    )


def envelope() -> Geo:
    """The envelope: a flat packet 1.6 x 1.1 with its flap a shade darker."""
    flap = np.array(
        [[-0.8, 0.082, -0.55], [0.0, 0.082, 0.05], [0.8, 0.082, -0.55]], dtype=np.float64
    )
    return merge(
        box((-0.8, 0.0, -0.55), (0.8, 0.08, 0.55), (1.0, 1.0, 1.0)),
        tris(flap, (0.82, 0.82, 0.82)),
    )


def felt() -> Geo:
    """A card table's cloth: 11 x 8, top at y=0, white for the material to colour."""
    return box((-5.5, -0.12, -4.0), (5.5, 0.0, 4.0), (1.0, 1.0, 1.0))
