"""A ZRF ``(board ...)``: its grids (``dimensions``, ``directions``, ``start-rectangle``), its
``positions`` (rectangles in the picture's pixels), one-way ``links``, ``kill-positions``,
``symmetry`` and ``zone``s, turned into positions with centres and one-way links.

Pixels run down the picture; the engine's board units run up. A board's unit is its first
grid's step (or its positions' usual width), so a square grid lands on whole numbers.
"""

from __future__ import annotations

import itertools
import statistics
from dataclasses import dataclass, field
from typing import Final

from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item

__all__ = ["Geometry", "read_geometry"]

#: Board forms that only say how Zillions draws the board (a picture of it): not read.
PICTURE_FORMS: Final = frozenset({"image", "unlink-image", "dummy"})
#: Board forms read once every position is known.
_LATER: Final = frozenset({"links", "kill-positions", "symmetry", "zone", "unlink"})


@dataclass
class Geometry:
    """Positions (in the file's order), their centres in board units, the directions in
    the order first met, one-way links, zones (name -> player -> positions) and each
    player's direction map (only the directions a ``symmetry`` changes)."""

    names: list[str] = field(default_factory=list)
    xy: list[tuple[float, float]] = field(default_factory=list)
    directions: list[str] = field(default_factory=list)
    links: dict[str, dict[str, str]] = field(default_factory=dict)
    zones: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    symmetry: dict[str, dict[str, str]] = field(default_factory=dict)
    #: "square" when the board is one two-dimensional grid of squares, else "points".
    kind: str = "points"
    #: The grids' cells (for drawing squares), as (column, row) per position name.
    cells: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: Each position's width in the picture (its rectangle's larger side), in board units
    #: (0 where the file gives a point): cells touch, points are small.
    sizes: list[float] = field(default_factory=list)

    def link(self, direction: str, a: str, b: str) -> None:
        if direction not in self.links:
            self.directions.append(direction)
            self.links[direction] = {}
        self.links[direction][a] = b


def _number(item: Item) -> float:
    if isinstance(item, Atom) and isinstance(item.value, int):
        return float(item.value)
    raise _error(item, "expected a whole number")


def _error(item: Item, message: str) -> DescriptionError:
    return item.error(message)


def _word(item: Item) -> str:
    if isinstance(item, Atom):
        return str(item.value)
    raise item.error("expected a name")


def read_geometry(board: Form, players: tuple[str, ...]) -> Geometry:
    """The positions, links and zones of ``board``; raises DescriptionError at a form it
    cannot read."""
    geo = Geometry()
    pixels: list[tuple[float, float]] = []
    unit = 0.0
    grids = 0
    square = True
    sized: dict[str, float] = {}
    for item in board.args:
        if not isinstance(item, Form):
            raise _error(item, "expected (grid ...), (positions ...), (links ...) ...")
        head = item.head
        if head == "grid":
            grids += 1
            step, flat = _grid(item, geo, pixels, sized)
            unit = unit or step
            square = square and flat
        elif head == "positions":
            for p in item.args:
                if not isinstance(p, Form) or len(p) < 3:
                    raise _error(p, "a position is (NAME X1 Y1 X2 Y2)")
                corners = [_number(v) for v in p.items[1:5]]
                if len(corners) == 4:
                    x, y = (corners[0] + corners[2]) / 2, (corners[1] + corners[3]) / 2
                    unit = unit or 0.0
                else:
                    x, y = corners[0], corners[1]
                _add(geo, pixels, _word(p[0]), x, y, p)
                wide = (
                    max(corners[2] - corners[0], corners[3] - corners[1])
                    if len(corners) == 4
                    else 0
                )
                sized[_word(p[0])] = abs(wide)
        elif head in _LATER or head in PICTURE_FORMS:
            continue
        else:
            raise item.error(f"the board form ({head} ...) is not read yet")
    if not geo.names:
        raise board.error("the board has no positions")
    index = set(geo.names)
    for item in board.args:
        assert isinstance(item, Form)
        if item.head == "links":
            if len(item) < 2:
                raise item.error("(links DIRECTION (A B)...)")
            d = _word(item[1])
            for pair in item.items[2:]:
                if not isinstance(pair, Form) or len(pair) != 2:
                    raise _error(pair, "a link is (FROM TO)")
                a, b = _word(pair[0]), _word(pair[1])
                for n, at in ((a, pair[0]), (b, pair[1])):
                    if n not in index:
                        raise at.error(f"no position {n!r}")
                geo.link(d, a, b)
    _unlink(board, geo, index)
    killed = set()
    for item in board.args:
        assert isinstance(item, Form)
        if item.head == "kill-positions":
            killed |= {_word(a) for a in item.args}
    if killed:
        keep = [i for i, n in enumerate(geo.names) if n not in killed]
        geo.names = [geo.names[i] for i in keep]
        pixels = [pixels[i] for i in keep]
        for table in geo.links.values():
            for a in [a for a, b in table.items() if a in killed or b in killed]:
                del table[a]
        square = False
    if not geo.names:
        raise board.error("kill-positions leaves the board no position")
    if not unit:
        widths = [abs(b[0] - a[0]) for a, b in itertools.pairwise(sorted(pixels)) if b[0] != a[0]]
        unit = statistics.median(widths) if widths else 1.0
    left = min(x for x, _ in pixels)
    bottom = max(y for _, y in pixels)
    geo.xy = [((x - left) / unit, (bottom - y) / unit) for x, y in pixels]
    geo.sizes = [sized.get(n, 0.0) / unit for n in geo.names]
    geo.kind = "square" if grids == 1 and square and len(geo.cells) == len(geo.names) else "points"
    _zones_and_symmetry(board, geo, players)
    return geo


def _unlink(board: Form, geo: Geometry, index: set[str]) -> None:
    """``(unlink (A B)...)`` takes away every link from A to B; ``(unlink A...)`` every link
    from and to A."""
    for item in board.args:
        assert isinstance(item, Form)
        if item.head != "unlink":
            continue
        for part in item.args:
            named = list(part.items) if isinstance(part, Form) else [part]
            pair = tuple(_word(p) for p in named)
            if len(pair) not in (1, 2):
                raise part.error("(unlink (FROM TO)...) or (unlink POSITION...)")
            for n, at in zip(pair, named, strict=True):
                if n not in index:
                    raise at.error(f"no position {n!r}")
            for table in geo.links.values():
                for a in [a for a, b in table.items() if (a, b) == pair or pair in ((a,), (b,))]:
                    del table[a]


def _add(
    geo: Geometry, pixels: list[tuple[float, float]], name: str, x: float, y: float, at: Item
) -> None:
    if name in geo.cells or name in geo.names:
        # A position given again (a grid and a positions list naming it) moves it.
        i = geo.names.index(name)
        pixels[i] = (x, y)
        return
    geo.names.append(name)
    pixels.append((x, y))


def _grid(
    form: Form, geo: Geometry, pixels: list[tuple[float, float]], sized: dict[str, float]
) -> tuple[float, bool]:
    """Adds the grid's positions and links; its unit (first dimension's step) and whether
    it is a plain two-dimensional grid of squares."""
    start = (0.0, 0.0, 0.0, 0.0)
    dims: list[tuple[list[str], tuple[float, float]]] = []
    directions: list[tuple[str, tuple[int, ...]]] = []
    for part in form.args:
        if not isinstance(part, Form):
            raise _error(part, "expected (dimensions ...), (directions ...) ...")
        if part.head == "start-rectangle":
            values = [_number(v) for v in part.args]
            if len(values) != 4:
                raise part.error("(start-rectangle X1 Y1 X2 Y2)")
            start = (values[0], values[1], values[2], values[3])
        elif part.head == "dimensions":
            for dim in part.args:
                if not isinstance(dim, Form) or len(dim) != 2 or not isinstance(dim[1], Form):
                    raise _error(dim, 'a dimension is ("a/b/c" (DX DY))')
                names = str(dim[0].value if isinstance(dim[0], Atom) else "").split("/")
                step = [_number(v) for v in dim[1].items]
                if len(step) != 2:
                    raise dim[1].error("a dimension's step is (DX DY)")
                dims.append((names, (step[0], step[1])))
        elif part.head == "directions":
            for d in part.args:
                if not isinstance(d, Form) or len(d) < 2:
                    raise _error(d, "a direction is (NAME D1 D2 ...)")
                deltas = tuple(int(_number(v)) for v in d.items[1:])
                directions.append((_word(d[0]), deltas))
        elif part.head in PICTURE_FORMS:
            continue
        else:
            raise part.error(f"the grid form ({part.head} ...) is not read yet")
    if not dims:
        raise form.error("a grid needs (dimensions ...)")
    cx, cy = (start[0] + start[2]) / 2, (start[1] + start[3]) / 2
    sizes = [len(names) for names, _ in dims]
    name_of: dict[tuple[int, ...], str] = {}
    for idx in itertools.product(*(range(n) for n in sizes)):
        name = "".join(dims[k][0][i] for k, i in enumerate(idx))
        x = cx + sum(dims[k][1][0] * i for k, i in enumerate(idx))
        y = cy + sum(dims[k][1][1] * i for k, i in enumerate(idx))
        name_of[idx] = name
        _add(geo, pixels, name, x, y, form)
        sized[name] = max(abs(start[2] - start[0]), abs(start[3] - start[1]))
        if len(idx) == 2:
            geo.cells[name] = (idx[0], idx[1])
    for dname, deltas in directions:
        if len(deltas) > len(dims):
            raise form.error(
                f"direction {dname!r} has {len(deltas)} steps for {len(dims)} dimensions"
            )
        deltas = deltas + (0,) * (len(dims) - len(deltas))  # the steps not given are 0
        if dname not in geo.links:
            geo.directions.append(dname)
            geo.links[dname] = {}
        for idx, name in name_of.items():
            there = tuple(i + d for i, d in zip(idx, deltas, strict=True))
            if all(0 <= t < n for t, n in zip(there, sizes, strict=True)):
                geo.links[dname][name] = name_of[there]
    steps = [s for _, s in dims]
    flat = (
        len(dims) == 2
        and steps[0][1] == 0
        and steps[1][0] == 0
        and abs(steps[0][0]) == abs(steps[1][1])
    )
    unit = max(abs(steps[0][0]), abs(steps[0][1])) or 1.0
    return unit, flat


def _zones_and_symmetry(board: Form, geo: Geometry, players: tuple[str, ...]) -> None:
    names = set(geo.names)
    for item in board.args:
        assert isinstance(item, Form)
        if item.head == "symmetry":
            if len(item) < 2:
                raise item.error("(symmetry PLAYER (A B)...)")
            who = _word(item[1])
            if who not in players:
                continue  # a player of another game of the file: no one here
            table = geo.symmetry.setdefault(who, {})
            for pair in item.items[2:]:
                if not isinstance(pair, Form) or len(pair) != 2:
                    raise _error(pair, "a symmetry pair is (A B)")
                table[_word(pair[0])] = _word(pair[1])
        elif item.head == "zone":
            zname, owners, where = "", list(players), []
            for part in item.args:
                if not isinstance(part, Form) or len(part) < 1:
                    raise _error(part, "(zone (name N) (players P...) (positions ...))")
                if part.head == "name":
                    zname = _word(part[1])
                elif part.head == "players":
                    owners = [_word(p) for p in part.args]
                elif part.head == "positions":
                    where = [_word(p) for p in part.args]
            if not zname:
                raise item.error("a zone needs (name ...)")
            zone = geo.zones.setdefault(zname, {})
            for who in owners:
                if who not in players:
                    continue  # a player of another game of the file: no one here
                zone.setdefault(who, []).extend(p for p in where if p in names)
