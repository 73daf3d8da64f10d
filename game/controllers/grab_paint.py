"""How the MasterGrab map looks for a state: tile colours and heights, the numbers, capacity
bars and rings over the countries, and the arrows of the last moves (spec 6.2).

Pure functions from the game's state to what :class:`~game.controllers.grab_view.GrabLayer`
draws; the controller uploads the result after every change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.controllers.grab_mesh import PIXELS_PER_UNIT
from game.controllers.grab_view import Arrow, Sprite
from game.logic.grab.map import GrabMap
from game.logic.grab.record import CountryMarks, CountryState
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import GrabState, Move, MoveKind

__all__ = [
    "LAND_HEIGHT",
    "Painting",
    "arrows",
    "paint",
    "player_colour",
]

#: Spec 2.1's player colours: index 0 is the human.
COLOURS = [0xFF6060, 0xFFFF30, 0x80EF80, 0x80EFEF, 0x8080EF, 0xEF80EF, 0xE0E070, 0xE0E0E0,
           0xCF8080, 0xCFFF30, 0x80BF80, 0x80BFEF, 0x8080BF, 0xEF80BF, 0xA0E070,
           0xA0A0E0]  # fmt: skip
MOUNTAIN_COLOUR = (0.42, 0.41, 0.43)
HINT_COLOUR = (1.0, 0.85, 0.25, 1.0)
LAND_HEIGHT = 0.18
ARMY_HEIGHT = 0.55  # extra height of a country holding the biggest capacity
LABEL_SCALE = 0.42  # world units per em
RING_SIZE = {
    CountryState.MOVED: 1.1,
    CountryState.ATTACKED: 1.45,
    CountryState.TAKEN: 1.8,
    CountryState.CHEAP: 1.3,
}
OUTLINE = {
    "won": (0.0, 0.0, 0.0, 0.75),
    "lost": (1.0, 1.0, 1.0, 0.85),
    "move": (0.45, 0.45, 0.45, 0.8),
}

Colour = tuple[float, float, float, float]


def player_colour(player: int, human_playing: bool) -> tuple[float, float, float]:
    """The player's colour (0..1): robots-only games start at the first robot colour."""
    value = COLOURS[(player if human_playing else player + 1) % len(COLOURS)]
    return ((value >> 16) / 255.0, ((value >> 8) & 255) / 255.0, (value & 255) / 255.0)


@dataclass
class Painting:
    """A state as the layer draws it: per-country colours and heights, and the sprites."""

    colours: npt.NDArray[np.float32]
    heights: npt.NDArray[np.float32]
    sprites: list[Sprite]


def paint(
    state: GrabState,
    grab_map: GrabMap,
    marks: CountryMarks,
    *,
    advance: float,
    hover: int | None = None,
    hint: Move | None = None,
) -> Painting:
    """Colours (spec 6.2: three shades, lighter for fewer armies), heights (taller with more
    armies; mountains as grey rock), and per land country its army number (bold when nearly
    full), capacity bar and ring. ``hover`` lifts a country and lights its neighbours;
    ``hint`` rings its target. ``advance`` is a digit's width in em."""
    board = state.board
    human = board.human_playing
    n = board.countries
    owners = np.array(state.owners)
    armies = np.array(state.armies, dtype="f4")
    capacity = np.array(board.capacity, dtype="f4")
    land = owners != MOUNTAIN
    palette = np.array([player_colour(p, human) for p in range(board.players)], "f4")
    colours = np.empty((n, 3), dtype="f4")
    colours[~land] = MOUNTAIN_COLOUR
    colours[land] = palette[owners[land]]
    top = max(1.0, float(np.floor(armies[land]).max()) if land.any() else 1.0)
    shade = np.maximum(2 - np.floor(armies / ((top + 1) / 3)), 0)
    colours = colours + (1.0 - colours) * (shade * 0.11)[:, None]
    colours[~land] = MOUNTAIN_COLOUR
    biggest = float(capacity.max()) or 1.0
    heights = (LAND_HEIGHT + ARMY_HEIGHT * np.minimum(armies / biggest, 1.6)).astype("f4")
    ids = np.arange(n)
    heights[~land] = 0.95 + 0.35 * ((ids[~land] * 0.618) % 1.0)
    if hover is not None and owners[hover] != MOUNTAIN:
        neighbours = list(board.neighbours[hover])
        colours[neighbours] = colours[neighbours] * 0.75 + 0.25
        colours[hover] = colours[hover] * 0.6 + 0.4
        heights[hover] += 0.12
    sprites = _sprites(state, grab_map, marks, heights, advance, hover, hint)
    return Painting(colours.astype("f4"), heights.astype("f4"), sprites)


def arrows(state: GrabState, grab_map: GrabMap, hint: Move | None = None) -> list[Arrow]:
    """One arrow per source of every player's last move (spec 6.2), outlined by how it went
    (won, lost, a gather), and the hint's arrows in gold."""
    human = state.board.human_playing
    shapes = []
    for result in state.results:
        if result.is_error or result.kind is MoveKind.NONE:
            continue
        how = "move" if result.kind is MoveKind.GATHER else ("won" if result.success else "lost")
        fill = (*player_colour(result.player, human), 1.0)
        for source in result.sources:
            shapes.append(_arrow(grab_map, source, result.target, fill, OUTLINE[how]))
    if hint is not None and hint.kind is not MoveKind.NONE:
        for source in hint.sources:
            shapes.append(_arrow(grab_map, source, hint.target, HINT_COLOUR, (0.3, 0.2, 0.0, 0.9)))
    return shapes


def _sprites(
    state: GrabState,
    grab_map: GrabMap,
    marks: CountryMarks,
    heights: npt.NDArray[np.float32],
    advance: float,
    hover: int | None,
    hint: Move | None,
) -> list[Sprite]:
    human = state.board.human_playing
    ring_colour: dict[CountryState, Callable[[int], Colour]] = {
        CountryState.MOVED: lambda c: (*player_colour(state.owners[c], human), 1.0),
        CountryState.ATTACKED: lambda c: (*player_colour(state.owners[c], human), 1.0),
        CountryState.TAKEN: lambda c: (*player_colour(marks.previous_owners[c], human), 1.0),
        CountryState.CHEAP: lambda c: (1.0, 1.0, 1.0, 0.85),
    }
    hint_target = hint.target if hint is not None else -1
    sprites: list[Sprite] = []
    for c, owner in enumerate(state.owners):
        if owner == MOUNTAIN:
            continue
        x, z = (v / PIXELS_PER_UNIT for v in grab_map.centres[c])
        anchor = (x, float(heights[c]) + 0.02, z)
        armies = state.armies[c]
        capacity = state.board.capacity[c]
        text = str(int(armies))
        prefix = "b" if armies > 0.9 * capacity else ""
        scale = LABEL_SCALE * (1.15 if c == hover else 1.0)
        for i, ch in enumerate(text):
            dx = (i - (len(text) - 1) / 2) * advance
            sprites.append(Sprite(anchor, prefix + ch, dx, 0.55, scale, (1.0, 1.0, 1.0, 1.0)))
        # The capacity bar: a dark track, filled to armies / capacity (gold when full).
        fill = min(1.0, armies / capacity) if capacity > 0 else 1.0
        track = (0.12, 0.12, 0.14, 0.85)
        sprites.append(Sprite(anchor, "block", 0.0, -0.1, scale, track, 0.8, 0.14))
        if fill > 0:
            colour = (1.0, 0.8, 0.25, 1.0) if armies >= capacity else (0.97, 0.97, 0.97, 1.0)
            left = -0.8 * 1.2 / 2 * (1 - fill)  # the cell is 1.2 em wide: keep it left-aligned
            sprites.append(Sprite(anchor, "block", left, -0.1, scale, colour, 0.8 * fill, 0.14))
        mark = marks.states[c]
        if mark in RING_SIZE:
            size = LABEL_SCALE * RING_SIZE[mark]
            sprites.append(Sprite(anchor, "ring", 0.0, 0.35, size, ring_colour[mark](c)))
        if c == hint_target:
            sprites.append(Sprite(anchor, "ring", 0.0, 0.35, LABEL_SCALE * 2.1, HINT_COLOUR))
    return sprites


def _arrow(grab_map: GrabMap, source: int, target: int, fill: Colour, outline: Colour) -> Arrow:
    """From the source's centre to the target's by the shortest way round the torus: an
    arrow across the wrap pokes out of this copy of the map into the next one."""
    w, h = grab_map.width, grab_map.height
    sx, sy = grab_map.centres[source]
    tx, ty = grab_map.centres[target]
    dx = (tx - sx + w // 2) % w - w // 2
    dy = (ty - sy + h // 2) % h - h // 2
    u = PIXELS_PER_UNIT
    return Arrow((sx / u, sy / u), ((sx + dx) / u, (sy + dy) / u), fill, outline)
