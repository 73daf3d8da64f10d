"""Columns of positions, stack layers and the board's look options, read from ``(board ...)``.

``(column (FIRST...) COUNT (step DX DY) [(fold N)] [(track UP DOWN)])`` gives each named
position (already placed by ``(positions ...)``) COUNT - 1 more above it, ``FIRST.2`` to
``FIRST.COUNT``: the k-th (from 1) stands ``(k - 1) mod N`` steps from the first and on the
stack layer ``(k - 1) div N`` (N is COUNT without ``fold``), so a column of fifteen folded
by five is five positions in a row with two more layers of five on top of them. With
``(track UP DOWN)`` each column is a track in those directions, first to last.

A position's layer (also ``(positions (NAME X Y LAYER))``) says only how high a piece there
is drawn: on top of the pieces of the layers below, which stand on the same spot; the
drawing sizes pieces by the positions of layer 0 alone.

The look options: ``(point-shape triangle)`` draws each column as a long filled triangle
from its first position to its fold's end, in two alternating colours (Backgammon's points);
``(dice-at X Y)`` lays the dice on the board at that spot; ``(hand-at ZONE)`` stands each
player's pieces in hand on their position of the zone (Backgammon's bar); ``(checkered
[dark|light])`` draws a board of positions as checkered squares, its bottom-left square dark
(or light), as a grid is; ``(tint ZONE...)`` tints each player's part of the zones with
that player's colour (promotion rows, goals, palaces).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from game.logic.rules.sexpr import Form, Item
from game.logic.rules.words import arg, err, real_number, text_or_word, whole_number, word_of

__all__ = [
    "MAX_LAYER",
    "BoardLook",
    "Column",
    "link_columns",
    "read_columns",
    "read_layer",
    "read_look",
]

#: The highest stack layer a position may stand on.
MAX_LAYER = 15

#: The shapes ``(point-shape ...)`` names.
POINT_SHAPES = ("dot", "triangle")


@dataclass(frozen=True)
class Column:
    """A column's positions, first to last; the step between neighbours on one layer (board
    units); how many stand on a layer."""

    positions: tuple[int, ...]
    step: tuple[float, float]
    fold: int


@dataclass(frozen=True)
class BoardLook:
    """How a board is drawn beyond its positions: the columns, each position's stack layer
    (empty: all on layer 0), the shape of a column (``dot`` or ``triangle``), where the dice
    lie (None: beside the board) and each player's position for the pieces in hand (empty:
    a shelf beside the board); the colour of the bottom-left square of a checkered board
    of positions (0 dark, 1 light, -1 none asked) and the positions tinted with each
    player's colour."""

    columns: tuple[Column, ...] = ()
    layer: tuple[int, ...] = ()
    point_shape: str = "dot"
    dice_at: tuple[float, float] | None = None
    hand_at: tuple[int, ...] = ()
    checkered: int = -1
    tinted: tuple[frozenset[int], ...] = ()


def read_columns(
    form: Form, names: list[str], xy: list[tuple[float, float]], layer: dict[int, int]
) -> tuple[list[Column], list[tuple[Form, tuple[int, ...]]]]:
    """Add the positions of every ``(column ...)`` of ``form`` to ``names``, ``xy`` and
    ``layer`` (position -> layer, for those above 0); the columns, and the ``(track UP
    DOWN)`` forms with the chain each asks for (linked by :func:`link_columns`)."""
    columns: list[Column] = []
    tracks: list[tuple[Form, tuple[int, ...]]] = []
    usage = "(column (FIRST...) COUNT (step DX DY) [(fold N)] [(track UP DOWN)])"
    for item in form.args:
        if not (isinstance(item, Form) and item.head == "column"):
            continue
        if len(item) < 4 or not isinstance(item[1], Form):
            raise item.error(usage)
        count = whole_number(item[2], 1, 64)
        step: tuple[float, float] | None = None
        fold = count
        track: Form | None = None
        for part in item.items[3:]:
            if not isinstance(part, Form) or part.head not in ("step", "fold", "track"):
                raise err(part, f"expected (step DX DY), (fold N) or (track UP DOWN): {usage}")
            if part.head == "step":
                dx, dy = arg(part, 2, 2)
                step = (real_number(dx), real_number(dy))
            elif part.head == "fold":
                fold = whole_number(arg(part, 1, 1)[0], 1, count)
            else:
                arg(part, 2, 2)
                track = part
        if step is None:
            raise item.error(f"a column needs its (step DX DY): {usage}")
        if count > fold * (MAX_LAYER + 1):
            raise err(item[2], f"more than {MAX_LAYER + 1} layers of {fold}")
        index = {n: i for i, n in enumerate(names)}
        for at in item[1].items:
            first = text_or_word(at)
            if first not in index:
                raise err(at, f"no position {first!r} (place it with (positions ...) first)")
            start = index[first]
            chain = [start]
            x, y = xy[start]
            for k in range(1, count):
                along, up = k % fold, k // fold + layer.get(start, 0)
                chain.append(len(names))
                names.append(f"{first}.{k + 1}")
                xy.append((x + along * step[0], y + along * step[1]))
                if up:
                    layer[chain[-1]] = up
            columns.append(Column(tuple(chain), step, fold))
            if track is not None:
                tracks.append((track, tuple(chain)))
    return columns, tracks


def link_columns(
    tracks: list[tuple[Form, tuple[int, ...]]], directions: list[str], links: list[list[int]]
) -> None:
    """Link each column's chain forward and back in its ``(track UP DOWN)``'s directions."""
    for track, chain in tracks:
        ways = []
        for d in track.args:
            if word_of(d) not in directions:
                raise err(d, f"unknown direction {word_of(d)!r}")
            ways.append(directions.index(word_of(d)))
        for here, there in pairwise(chain):
            links[ways[0]][here] = there
            links[ways[1]][there] = here


def read_look(
    form: Form,
    count: int,
    columns: list[Column],
    layer: dict[int, int],
    zones: dict[str, list[set[int]]],
) -> BoardLook:
    """The look of a board of ``count`` positions from the options of ``form``."""
    shape = "dot"
    dice_at: tuple[float, float] | None = None
    hand_at: tuple[int, ...] = ()
    checkered = -1
    tinted: list[set[int]] = []  # for each player
    for item in form.args:
        if not isinstance(item, Form):
            continue
        if item.head == "point-shape":
            shape = word_of(arg(item, 1, 1)[0])
            if shape not in POINT_SHAPES:
                raise err(item[1], f"a point's shape is {' or '.join(POINT_SHAPES)}")
            if not columns:
                raise item.error("(point-shape ...) draws columns: give (column ...) first")
        elif item.head == "dice-at":
            x, y = arg(item, 2, 2)
            dice_at = (real_number(x), real_number(y))
        elif item.head == "hand-at":
            zone = _zone(arg(item, 1, 1)[0], zones)
            if any(len(part) != 1 for part in zone):
                raise err(item[1], "(hand-at ZONE): a zone of one position for each player")
            hand_at = tuple(min(part) for part in zone)
        elif item.head == "checkered":
            given = [word_of(a) for a in arg(item, 0, 1)] or ["dark"]
            if given[0] not in ("dark", "light"):
                raise err(item[1], "(checkered dark) or (checkered light): the bottom-left square")
            checkered = ("dark", "light").index(given[0])
        elif item.head == "tint":
            for z in arg(item, 1, 16):
                parts = _zone(z, zones)
                tinted = tinted or [set() for _ in parts]
                for mine, part in zip(tinted, parts, strict=True):
                    mine |= part
    layers = tuple(layer.get(p, 0) for p in range(count)) if layer else ()
    tints = tuple(frozenset(t) for t in tinted) if any(tinted) else ()
    return BoardLook(tuple(columns), layers, shape, dice_at, hand_at, checkered, tints)


def read_layer(item: Item) -> int:
    """A position's stack layer (its fourth number)."""
    return whole_number(item, 0, MAX_LAYER)


def _zone(item: Item, zones: dict[str, list[set[int]]]) -> list[set[int]]:
    name = word_of(item)
    if name not in zones:
        raise err(item, f"no zone {name!r}")
    return zones[name]
