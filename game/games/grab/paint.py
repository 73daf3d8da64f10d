"""How the MasterGrab map looks for a state: tile colours and heights, the army numbers and
rings over the countries, and the arrows of the last moves (spec 6.2).

Pure functions from the game's state to what :class:`~game.games.grab.view.GrabLayer`
draws; the controller uploads the result after every change.

* Every owner has one strong colour (:mod:`game.logic.grab.palette`); mountains are light
  stone and nobody's. A tile is a little taller the more armies it holds.
* One number a country, lying flat inside it, as big as the country allows and never
  overlapping another (:mod:`game.logic.grab.labels`); bold when the country is nearly full.
* Rings: taken this round (in the colour of the owner it was taken from), attacked (in the
  owner's colour), armies moved in (small), the cheapest targets (white), the hint (gold).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from game.games.grab.mesh import PIXELS_PER_UNIT
from game.games.grab.view import Arrow, Sprite
from game.logic.grab.labels import Label, LabelSpots, place_labels
from game.logic.grab.map import GrabMap
from game.logic.grab.palette import MOUNTAIN_RGB, owner_colours
from game.logic.grab.record import CountryMarks, CountryState
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import GrabState, Move, MoveKind

__all__ = [
    "LABEL_HEIGHT",
    "LAND_HEIGHT",
    "Painting",
    "arrows",
    "label_boxes",
    "move_arrow",
    "paint",
    "palette_of",
]

MOUNTAIN_COLOUR = tuple(v / 255.0 for v in MOUNTAIN_RGB)
HINT_COLOUR = (1.0, 0.85, 0.25, 1.0)
#: The hint's arrows: gold, edged in black and then in white, so that one of the two edges
#: stands out on every owner's colour (the black one on yellow land, where the gold alone
#: vanished; the white one on dark land).
HINT_EDGE = (0.0, 0.0, 0.0, 1.0)
HINT_HALO = (1.0, 1.0, 1.0, 1.0)
LAND_HEIGHT = 0.1
ARMY_HEIGHT = 0.2  # extra height of a country holding the biggest capacity
#: The plane the numbers lie in: about the middle of the land's heights.
LABEL_HEIGHT = LAND_HEIGHT + ARMY_HEIGHT * 0.5
RING_COLOUR_CHEAP = (1.0, 1.0, 1.0, 0.9)
RING_SIZE = {
    CountryState.MOVED: 0.75,
    CountryState.ATTACKED: 0.9,
    CountryState.TAKEN: 1.0,
    CountryState.CHEAP: 0.85,
}
OUTLINE = {
    "won": (0.0, 0.0, 0.0, 0.8),
    "lost": (1.0, 1.0, 1.0, 0.9),
    "move": (0.35, 0.35, 0.38, 0.85),
}
RING_RADIUS_EM = 19.0 / 40.0  # the atlas ring's radius, in em of its sprite

Colour = tuple[float, float, float, float]
RGB = tuple[float, float, float]


def palette_of(state: GrabState, colour: str) -> list[RGB]:
    """Each player's colour (0..1): the person's ``colour`` first when a person plays."""
    board = state.board
    rgb = owner_colours(colour if board.human_playing else None, board.players)
    return [(r / 255.0, g / 255.0, b / 255.0) for r, g, b in rgb]


@dataclass
class Painting:
    """A state as the layer draws it: per-country colours, heights and owners, the sprites,
    and where each number lies (map pixels)."""

    colours: npt.NDArray[np.float32]
    heights: npt.NDArray[np.float32]
    owners: npt.NDArray[np.float32]
    sprites: list[Sprite]
    labels: dict[int, Label]


def paint(
    state: GrabState,
    grab_map: GrabMap,
    marks: CountryMarks,
    spots: LabelSpots,
    *,
    palette: Sequence[RGB],
    advance: float,
    hover: int | None = None,
    hint: Move | None = None,
    labels: dict[int, Label] | None = None,
) -> Painting:
    """Colours, heights and numbers of ``state`` (see the module docstring). ``hover``
    lightens a country and its neighbours; ``hint`` rings its target. ``advance`` is a
    digit's width in em; ``labels`` are the numbers' places when the caller has them (they
    change only when a number gains or loses a digit)."""
    board = state.board
    n = board.countries
    owners = np.array(state.owners)
    armies = np.array(state.armies, dtype="f4")
    capacity = np.array(board.capacity, dtype="f4")
    land = owners != MOUNTAIN
    colours = np.empty((n, 3), dtype="f4")
    colours[~land] = MOUNTAIN_COLOUR
    colours[land] = np.asarray(palette, dtype="f4")[owners[land]]
    biggest = float(capacity.max()) or 1.0
    heights = (LAND_HEIGHT + ARMY_HEIGHT * np.minimum(armies / biggest, 1.3)).astype("f4")
    heights[~land] = LAND_HEIGHT
    if hover is not None and owners[hover] != MOUNTAIN:
        neighbours = list(board.neighbours[hover])
        colours[neighbours] = colours[neighbours] * 0.8 + 0.2
        colours[hover] = colours[hover] * 0.75 + 0.25
        heights[hover] += 0.06
    if labels is None:
        labels = label_boxes(state, spots, advance)
    sprites = _sprites(state, marks, labels, advance, palette, hint)
    return Painting(colours, heights, owners.astype("f4"), sprites, labels)


def label_boxes(state: GrabState, spots: LabelSpots, advance: float) -> dict[int, Label]:
    """Where every land country's army number lies, and its size (map pixels; a label's
    height is its text's em): see :func:`~game.logic.grab.labels.place_labels`."""
    mountains = frozenset(c for c, o in enumerate(state.owners) if o == MOUNTAIN)
    widths = [len(str(int(a))) * advance for a in state.armies]
    return place_labels(spots, widths, mountains)


def arrows(
    state: GrabState, grab_map: GrabMap, palette: Sequence[RGB], hint: Move | None = None
) -> list[Arrow]:
    """One arrow per source of every player's last move (spec 6.2), outlined by how it went
    (won: black, lost: white, a gather: grey), and the hint's arrows in gold, edged in black
    and white."""
    shapes = []
    for result in state.results:
        if result.is_error or result.kind is MoveKind.NONE:
            continue
        how = "move" if result.kind is MoveKind.GATHER else ("won" if result.success else "lost")
        fill = (*palette[result.player], 1.0)
        for source in result.sources:
            shapes.append(move_arrow(grab_map, source, result.target, fill, OUTLINE[how]))
    if hint is not None and hint.kind is not MoveKind.NONE:
        for source in hint.sources:
            arrow = move_arrow(grab_map, source, hint.target, HINT_COLOUR, HINT_EDGE)
            shapes.append(replace(arrow, halo=HINT_HALO))
    return shapes


def move_arrow(
    grab_map: GrabMap, source: int, target: int, fill: Colour, outline: Colour, grown: float = 1.0
) -> Arrow:
    """From the source's centre towards the target's by the shortest way round the torus
    (an arrow across the wrap pokes out of this copy of the map into the next one); ``grown``
    (0..1) is how much of the way it reaches."""
    w, h = grab_map.width, grab_map.height
    sx, sy = grab_map.centres[source]
    tx, ty = grab_map.centres[target]
    dx = (tx - sx + w // 2) % w - w // 2
    dy = (ty - sy + h // 2) % h - h // 2
    u = PIXELS_PER_UNIT
    end = ((sx + dx * grown) / u, (sy + dy * grown) / u)
    return Arrow((sx / u, sy / u), end, fill, outline)


def _sprites(
    state: GrabState,
    marks: CountryMarks,
    labels: dict[int, Label],
    advance: float,
    palette: Sequence[RGB],
    hint: Move | None,
) -> list[Sprite]:
    def owner_colour(c: int) -> Colour:
        return (*palette[state.owners[c]], 1.0)

    ring_colour: dict[CountryState, Callable[[int], Colour]] = {
        CountryState.MOVED: owner_colour,
        CountryState.ATTACKED: owner_colour,
        CountryState.TAKEN: lambda c: (*palette[marks.previous_owners[c]], 1.0),
        CountryState.CHEAP: lambda c: RING_COLOUR_CHEAP,
    }
    hint_target = hint.target if hint is not None else -1
    sprites: list[Sprite] = []
    u = PIXELS_PER_UNIT
    for c, label in labels.items():
        anchor = (label.x / u, LABEL_HEIGHT, label.y / u)
        scale = label.height / u  # world units per em
        # The ring around the number: a little wider than the number's box.
        ring = max(label.width, label.height) / u * 0.62 / RING_RADIUS_EM
        mark = marks.states[c]
        if mark in RING_SIZE:
            sprites.append(
                Sprite(anchor, "ring", 0.0, 0.0, ring * RING_SIZE[mark], ring_colour[mark](c))
            )
        if c == hint_target:
            sprites.append(Sprite(anchor, "ring", 0.0, 0.0, ring * 1.2, HINT_COLOUR))
        armies = state.armies[c]
        text = str(int(armies))
        prefix = "b" if armies > 0.9 * state.board.capacity[c] else ""
        for i, ch in enumerate(text):
            dx = (i - (len(text) - 1) / 2) * advance
            sprites.append(Sprite(anchor, prefix + ch, dx, 0.0, scale, (1.0, 1.0, 1.0, 1.0)))
    return sprites
