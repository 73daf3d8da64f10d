"""Where a MasterGrab map writes each country's army number, and how big.

:func:`label_spots` finds, for every country, the pixel farthest from its border (the centre
of the largest circle inside it) and that circle's radius, from a distance transform of the
pixel map across the wrap. :func:`place_labels` then sizes each number to fit its circle
(between a smallest readable and a largest size) and makes sure no two numbers overlap: where
a small country's number would touch one placed before it (bigger countries go first), it
shrinks until it fits.

Everything is in map pixels; the map wraps, so boxes are compared across the edges too.

>>> from game.logic.grab.map import generate_map
>>> from game.logic.grab.options import GrabOptions
>>> grab_map = generate_map(GrabOptions(countries=30), 640, 360, seed=2)
>>> spots = label_spots(grab_map)
>>> all(grab_map.owner[y, x] == c for c, (x, y) in enumerate(spots.points))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from game.logic.grab.map import GrabMap

#: A label's height as a share of its circle's radius, and its limits in map pixels.
HEIGHT_PER_RADIUS: Final = 1.0
MIN_HEIGHT: Final = 11.0
MAX_HEIGHT: Final = 22.0
#: Gap kept between two labels, as a share of the smaller one's height.
GAP: Final = 0.15
#: How much deeper than its height a label's room on the map is: numbers stand upright,
#: facing a camera that looks down at the map at a slant, so a number's picture covers
#: more of the map from front to back than it is tall (up to about 1.8 times, at the top of
#: the view); the room keeps numbers apart on the screen too.
TALL: Final = 1.8
#: Extra room beside a number, per unit of the two numbers' heights: near the left and right
#: edges of the view the perspective draws a farther number nearer the middle, so two numbers
#: at different depths come closer on the screen than on the map.
SLANT: Final = 0.45


@dataclass(frozen=True)
class LabelSpots:
    """Per country its best spot (x, y) and the radius of the free circle there (pixels)."""

    points: tuple[tuple[int, int], ...]
    radii: npt.NDArray[np.float64]
    width: int
    height: int


@dataclass(frozen=True)
class Label:
    """A placed number: its centre (x, y) and size (width, height) in map pixels; the room
    it keeps free on the map is ``height * TALL`` deep."""

    x: float
    y: float
    width: float
    height: float


def label_spots(grab_map: GrabMap) -> LabelSpots:
    """The best spot of every country (see the module docstring)."""
    owner = np.ascontiguousarray(grab_map.owner, dtype=np.int32)
    dist = _distance_to_border(owner)
    height, width = owner.shape
    flat_owner = owner.ravel()
    flat = dist.ravel()
    order = np.lexsort((-flat, flat_owner))  # by country, then farthest from the border first
    firsts = np.searchsorted(flat_owner[order], np.arange(grab_map.countries))
    points = []
    radii = np.zeros(grab_map.countries)
    for country, first in enumerate(firsts.tolist()):
        pixel = int(order[first])
        points.append((pixel % width, pixel // width))
        radii[country] = float(flat[pixel]) + 0.5
    return LabelSpots(tuple(points), radii, width, height)


def place_labels(
    spots: LabelSpots, widths: list[float], skip: frozenset[int] = frozenset()
) -> dict[int, Label]:
    """A label for every country not in ``skip``: ``widths[c]`` is its text's width per unit
    of height (digits x a digit's advance). No two labels overlap (with a small gap), across
    the wrap too; see the module docstring."""
    countries = [c for c in range(len(widths)) if c not in skip]
    # Big countries first: they have room, and their numbers matter most.
    countries.sort(key=lambda c: -spots.radii[c])
    placed: dict[int, Label] = {}
    boxes = np.zeros((0, 4))  # x, y, w, h of the labels placed so far
    for c in countries:
        aspect = widths[c]
        x, y = spots.points[c]
        size = _fit(float(spots.radii[c]), aspect)
        label = Label(float(x), float(y), size * aspect, size)
        # Crowded (a tiny country, a long number): it shrinks until it fits beside the others.
        while size > 1.0 and _overlaps(label, boxes, spots.width, spots.height):
            size *= 0.85
            label = Label(float(x), float(y), size * aspect, size)
        assert label is not None
        placed[c] = label
        boxes = np.vstack([boxes, [label.x, label.y, label.width, label.height]])
    return placed


def overlapping(labels: dict[int, Label], width: int, height: int) -> list[tuple[int, int]]:
    """Pairs of labels whose boxes overlap (across the wrap): empty for a good placement."""
    keys = list(labels)
    out = []
    for i, a in enumerate(keys):
        la = labels[a]
        for b in keys[i + 1 :]:
            lb = labels[b]
            dx = abs((la.x - lb.x + width / 2) % width - width / 2)
            dy = abs((la.y - lb.y + height / 2) % height - height / 2)
            wide = (la.width + lb.width) / 2 + SLANT * (la.height + lb.height)
            if dx < wide and dy < (la.height + lb.height) * TALL / 2:
                out.append((a, b))
    return out


def _fit(radius: float, aspect: float) -> float:
    """The height of a label of ``aspect`` (width per height) whose box fits the circle."""
    # The room's half diagonal is height/2 * sqrt(TALL^2 + aspect^2).
    inside = 2 * radius / np.sqrt(TALL * TALL + aspect * aspect) * HEIGHT_PER_RADIUS
    return float(np.clip(inside, MIN_HEIGHT, MAX_HEIGHT))


def _overlaps(label: Label, boxes: npt.NDArray[np.float64], width: int, height: int) -> bool:
    if not len(boxes):
        return False
    dx = np.abs((boxes[:, 0] - label.x + width / 2) % width - width / 2)
    dy = np.abs((boxes[:, 1] - label.y + height / 2) % height - height / 2)
    gap = GAP * np.minimum(boxes[:, 3], label.height)
    return bool(
        np.any(
            (dx < (boxes[:, 2] + label.width) / 2 + SLANT * (boxes[:, 3] + label.height) + gap)
            & (dy < (boxes[:, 3] + label.height) * TALL / 2 + gap)
        )
    )


def _distance_to_border(owner: npt.NDArray[np.int32]) -> npt.NDArray[np.float32]:
    """Per pixel, about how far (pixels) the nearest pixel of another country is, minus one:
    0 on a country's edge. Chamfer distances (1 and sqrt 2), across the wrap."""
    edge = np.zeros(owner.shape, dtype=bool)
    for axis in (0, 1):
        for shift in (1, -1):
            edge |= owner != np.roll(owner, shift, axis=axis)
    from game.logic.grab.kernels import chamfer  # numba: loaded on first use here

    result: npt.NDArray[np.float32] = chamfer(edge)
    return result


__all__ = ["Label", "LabelSpots", "label_spots", "overlapping", "place_labels"]
