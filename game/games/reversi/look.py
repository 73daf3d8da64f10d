"""How the Reversi board looks: the colour themes and the animation speeds its options name.

A :class:`Theme` gives the felt, its lines, the frame's tint, the two disc colours and the
marks (the rings on legal squares, the last-move dot, the hint's ring). The option ``theme``
names one of :data:`THEMES`; ``animation_speed`` one of :data:`SPEEDS` (how much faster than
normal a move plays). The option schema (:mod:`game.games.reversi.entry`) lists the same names, and
a test checks that they agree.

Pure data and colour arithmetic: no GL here, so the registry may read the names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["SPEEDS", "THEMES", "Theme", "ghost_color"]

RGB = tuple[float, float, float]


@dataclass(frozen=True)
class Theme:
    """One look of the board; colours are linear-ish RGB tints (0..1) of white meshes,
    except ``frame``, which tints the frame's wood."""

    title: str
    felt: RGB
    lines: RGB
    frame: RGB
    dark: RGB  # Black's discs
    light: RGB  # White's discs
    legal: RGB  # the rings on the squares where the person may play
    last: RGB  # the dot on the disc played last
    hint: RGB  # the ring under the hint's ghost disc


#: The themes, in the order the Theme button steps through them.
THEMES: Final[dict[str, Theme]] = {
    "classic": Theme(
        title="Classic green",
        felt=(0.11, 0.47, 0.27),
        lines=(0.04, 0.21, 0.11),
        frame=(1.0, 1.0, 1.0),
        dark=(0.075, 0.075, 0.085),
        light=(1.0, 1.0, 0.99),
        legal=(0.95, 0.85, 0.45),
        last=(0.95, 0.25, 0.20),
        hint=(1.0, 0.80, 0.20),
    ),
    "wood": Theme(
        title="Wood",
        felt=(0.86, 0.66, 0.42),
        lines=(0.33, 0.20, 0.10),
        frame=(0.62, 0.50, 0.42),
        dark=(0.16, 0.09, 0.06),
        light=(1.0, 0.95, 0.84),
        legal=(0.20, 0.42, 0.85),
        last=(0.85, 0.12, 0.10),
        hint=(0.15, 0.65, 0.30),
    ),
    "contrast": Theme(
        title="High contrast",
        felt=(0.06, 0.26, 0.72),
        lines=(0.96, 0.96, 0.96),
        frame=(0.30, 0.30, 0.32),
        dark=(0.0, 0.0, 0.0),
        light=(1.04, 1.04, 1.04),
        legal=(1.0, 0.92, 0.0),
        last=(1.0, 0.25, 0.80),
        hint=(1.0, 0.92, 0.0),
    ),
}

#: How fast a move plays, for each ``animation_speed``: the tweens' times are divided by it.
SPEEDS: Final[dict[str, float]] = {"slow": 0.5, "normal": 1.0, "fast": 2.0}


def ghost_color(disc: RGB, felt: RGB, see_through: float = 0.4) -> RGB:
    """The colour of a see-through disc of colour ``disc`` lying over ``felt``: what blending
    it over the felt with ``see_through`` of the felt showing gives (the scene pass draws
    opaque, and a ghost disc stands over plain felt, so the mix is the same picture).

    >>> ghost_color((0.0, 0.0, 0.0), (1.0, 0.5, 0.0), 0.5)
    (0.5, 0.25, 0.0)
    """
    keep = 1.0 - see_through
    r, g, b = (keep * d + see_through * f for d, f in zip(disc, felt, strict=True))
    return (r, g, b)
