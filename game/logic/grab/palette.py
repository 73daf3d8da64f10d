"""The owners' colours of MasterGrab: one strong colour a player, safe for colour-blind eyes.

The first seven are the Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2008),
in an order chosen so that the first few players of a game differ most for viewers with
deuteranopia or protanopia as well as for everyone else; the next nine come from Paul Tol's
"muted" palette, for games of more than seven players. The person picks their colour
(:data:`COLOUR_NAMES`, the ``colour`` option); the robots take the others in order.

:func:`simulate` and :func:`distance` (CIELAB ΔE under Machado et al.'s 2009 colour-vision
deficiency model) let tests check that the palette stays apart.

>>> owner_colours("vermillion", 4)[:2]
((213, 94, 0), (86, 180, 233))
>>> owner_colours("sky", 3)
((86, 180, 233), (213, 94, 0), (240, 228, 66))
"""

from __future__ import annotations

from typing import Final, Literal

import numpy as np
import numpy.typing as npt

RGB = tuple[int, int, int]

#: Name -> colour (0..255), in the order the robots take them.
PALETTE: Final[dict[str, RGB]] = {
    "vermillion": (213, 94, 0),
    "sky": (86, 180, 233),
    "yellow": (240, 228, 66),
    "green": (0, 158, 115),
    "blue": (0, 114, 178),
    "purple": (204, 121, 167),
    "orange": (230, 159, 0),
    "rose": (204, 102, 119),
    "indigo": (51, 34, 136),
    "sand": (221, 204, 119),
    "wine": (136, 34, 85),
    "teal": (68, 170, 153),
    "olive": (153, 153, 51),
    "violet": (170, 68, 153),
    "cyan": (136, 204, 238),
    "brown": (140, 81, 10),
}
COLOUR_NAMES: Final = tuple(PALETTE)
DEFAULT_COLOUR: Final = "vermillion"
#: Mountains: nobody's, a light stone that no owner's colour is near.
MOUNTAIN_RGB: Final[RGB] = (176, 168, 150)

Vision = Literal["normal", "deuteranopia", "protanopia"]

# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
_DEUTERANOPIA: Final = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                         (-0.011820, 0.042940, 0.968881))  # fmt: skip
_PROTANOPIA: Final = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                      (-0.003882, -0.048116, 1.051998))  # fmt: skip
_SIMULATION: Final[dict[str, npt.NDArray[np.float64]]] = {
    "normal": np.eye(3),
    "deuteranopia": np.array(_DEUTERANOPIA),
    "protanopia": np.array(_PROTANOPIA),
}
_XYZ: Final = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
_WHITE: Final = np.array([0.95047, 1.0, 1.08883])


def owner_colours(human: str | None, players: int) -> tuple[RGB, ...]:
    """The colour of each player: the person's ``human`` colour first (None: robots only,
    who take the palette in order), then the rest of the palette in order; more than 16
    players would repeat colours (the options stop at 16). Raises ValueError for a name
    not in :data:`PALETTE`."""
    if human is not None and human not in PALETTE:
        raise ValueError(f"colour={human!r} is not one of {', '.join(COLOUR_NAMES)}")
    names = list(COLOUR_NAMES)
    if human is not None:
        names.remove(human)
        names.insert(0, human)
    return tuple(PALETTE[names[p % len(names)]] for p in range(players))


def simulate(rgb: RGB, vision: Vision) -> npt.NDArray[np.float64]:
    """``rgb`` (0..255) as a viewer with ``vision`` sees it, in CIELAB."""
    c = np.asarray(rgb, dtype=np.float64) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    seen = np.clip(_SIMULATION[vision] @ linear, 0.0, 1.0)
    x = (_XYZ @ seen) / _WHITE
    f = np.where(x > 0.008856, np.cbrt(x), 7.787 * x + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def distance(a: RGB, b: RGB) -> float:
    """The smallest CIELAB ΔE between ``a`` and ``b`` for normal, deuteranope and protanope
    viewers: how far apart the pair looks to the viewer who tells them apart worst."""
    return min(
        float(np.linalg.norm(simulate(a, v) - simulate(b, v)))
        for v in ("normal", "deuteranopia", "protanopia")
    )


__all__ = [
    "COLOUR_NAMES",
    "DEFAULT_COLOUR",
    "MOUNTAIN_RGB",
    "PALETTE",
    "distance",
    "owner_colours",
    "simulate",
]
