"""The board of a description: its positions, the links between them in named directions,
each player's view of the directions, zones, and how it is drawn; read from ``(board ...)``."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from game.logic.rules.columns import BoardLook, link_columns, read_columns, read_layer, read_look
from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.rules.words import (
    RESERVED,
    arg,
    err,
    real_number,
    text_or_word,
    whole_number,
    word_of,
)

__all__ = ["MAX_POSITIONS", "Board", "positions", "positions_named", "read_board"]

#: The most positions a board may have.
MAX_POSITIONS: Final = 1024


@dataclass(frozen=True)
class Board:
    """The positions (names, centres in board units), the named links between them, the
    zones, and how it is drawn (``kind``: "square", "hex" or "points")."""

    names: tuple[str, ...]
    xy: tuple[tuple[float, float], ...]
    directions: tuple[str, ...]
    #: links[d][p]: the position one step in direction d from p, or -1.
    links: tuple[tuple[int, ...], ...]
    #: symmetry[player][d]: the direction d means for that player.
    symmetry: tuple[tuple[int, ...], ...]
    #: zones[name][player]: the positions of the zone for that player.
    zones: dict[str, tuple[frozenset[int], ...]]
    kind: str
    #: Links drawn as lines (free-form boards); grid lines are not listed.
    drawn: tuple[tuple[int, int], ...]
    #: Positions coloured dark (checkered boards), for the scene.
    dark: frozenset[int]
    size: tuple[int, int]
    #: Positions that are part of the graph but never hold a piece (Surakarta's loop arcs).
    off_board: frozenset[int] = frozenset()
    #: (direction, position) -> direction: a walk arriving at the position in the first
    #: direction goes on in the second (a loop turns a horizontal walk into a vertical one).
    turns: dict[tuple[int, int], int] = field(default_factory=dict)
    #: The straight lines the board shows between two positions, when the description
    #: gives them (Xiangqi's files broken by the river); else the drawing decides.
    lines: tuple[tuple[int, int], ...] = ()
    #: Positions drawn with a mark, from ``(marked ZONE...)`` (Ur's rosettes).
    marked: frozenset[int] = frozenset()
    #: Positions drawn as water, from ``(water ZONE...)`` (Barrage's lakes).
    water: frozenset[int] = frozenset()
    #: Columns, stack layers and where the dice and the hands are drawn (``columns.py``).
    look: BoardLook = field(default_factory=BoardLook)

    def index(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise ValueError(f"no position {name!r} on this board") from None

    @property
    def _index(self) -> dict[str, int]:
        cache = self.__dict__.get("_index_cache")
        if cache is None:
            cache = {n: i for i, n in enumerate(self.names)}
            object.__setattr__(self, "_index_cache", cache)
        return cache


def read_board(form: Form, players: tuple[str, ...]) -> Board:
    names: list[str] = []
    xy: list[tuple[float, float]] = []
    directions: list[str] = []
    vectors: list[tuple[int, int]] = []
    kind = "square"
    keep: str | None = None
    numbered: str | None = None
    cols = rows = shade = 0
    grid_form: Form | None = None
    layer: dict[int, int] = {}  # positions above the first stack layer
    for item in form.args:
        if not isinstance(item, Form) or not item.head:
            raise err(item, "expected (grid ..), (directions ..), (zone ..)...")
        if item.head == "grid":
            grid_form = item
            for part in item.args:
                if not isinstance(part, Form):
                    raise err(part, "(grid (columns ..) (rows ..) (keep dark))")
                if part.head == "size":  # columns a, b, ... and rows 1, 2, ...
                    across, up = (whole_number(a, 1, 26) for a in arg(part, 2, 2))
                    col_names = [chr(ord("a") + i) for i in range(across)]
                    row_names = [str(i + 1) for i in range(up)]
                elif part.head == "columns":
                    col_names = [text_or_word(a) for a in arg(part, 1, 32)]
                elif part.head == "rows":
                    row_names = [text_or_word(a) for a in arg(part, 1, 32)]
                elif part.head == "keep":
                    keep = word_of(arg(part, 1, 1)[0])
                    if keep not in ("dark", "light"):
                        raise err(part[1], "keep dark or keep light")
                elif part.head == "numbered":
                    numbered = word_of(arg(part, 1, 1)[0])
                    if numbered != "top-left":
                        raise err(part[1], "numbered top-left")
                elif part.head == "hex":
                    arg(part, 0, 0)
                    kind = "hex"
                elif part.head == "bottom-left":  # Italian draughts: a1 is a light square
                    if word_of(arg(part, 1, 1)[0]) != "light":
                        raise err(part[1], "(bottom-left light)")
                    shade = 1
                else:
                    raise part.error(f"unknown grid property ({part.head} ...)")
        elif item.head == "directions":
            for d in item.args:
                if not isinstance(d, Form) or len(d) != 3:
                    raise err(d, "a direction is (NAME DX DY)")
                name = word_of(d[0])
                if name in directions:
                    raise err(d, f"direction {name!r} is given twice")
                if name in RESERVED:
                    raise err(d[0], f"{name!r} is a word of the language, not a direction name")
                directions.append(name)
                vectors.append((whole_number(d[1], -32, 32), whole_number(d[2], -32, 32)))
        elif item.head in (
            "positions",
            "link",
            "arrows",
            "symmetry",
            "direction-map",
            "zone",
            "kind",
            "off-board",
            "track",
            "turn",
            "lines",
            "marked",
            "water",
            "column",
            "point-shape",
            "dice-at",
            "hand-at",
            "checkered",
            "tint",
        ):
            pass
        else:
            raise item.error(f"unknown board property ({item.head} ...)")
    if grid_form is not None:
        try:
            cols, rows = len(col_names), len(row_names)
        except NameError:
            raise grid_form.error("a grid needs (columns ...) and (rows ...)") from None
        cells: list[tuple[int, int]] = []
        for r in range(rows):
            for c in range(cols):
                is_dark = (c + r + shade) % 2 == 0
                if (keep == "dark" and not is_dark) or (keep == "light" and is_dark):
                    continue
                cells.append((c, r))
        if numbered:
            ordered = sorted(cells, key=lambda cr: (-cr[1], cr[0]))
            number = {cr: str(i + 1) for i, cr in enumerate(ordered)}
        for c, r in cells:
            names.append(number[(c, r)] if numbered else f"{col_names[c]}{row_names[r]}")
            xy.append((float(c), float(r)))
    for item in form.args:
        if isinstance(item, Form) and item.head == "positions":
            for p in item.args:
                if not isinstance(p, Form) or len(p) not in (3, 4):
                    raise err(p, "a position is (NAME X Y) or (NAME X Y LAYER)")
                if len(p) == 4 and read_layer(p[3]):
                    layer[len(names)] = read_layer(p[3])
                names.append(text_or_word(p[0]))
                xy.append((real_number(p[1]), real_number(p[2])))
            kind = "points" if grid_form is None else kind
        if isinstance(item, Form) and item.head == "kind":
            kind = word_of(arg(item, 1, 1)[0])
            if kind not in ("square", "hex", "points"):
                raise err(item[1], "kind is square, hex or points")
    columns, column_tracks = read_columns(form, names, xy, layer)
    if not names:
        raise form.error("the board has no positions: give (grid ...) or (positions ...)")
    if len(names) > MAX_POSITIONS:
        raise form.error(f"more than {MAX_POSITIONS} positions")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise form.error(f"position {dup!r} is named twice")
    index = {n: i for i, n in enumerate(names)}
    off_board: set[int] = set()
    for item in form.args:
        if isinstance(item, Form) and item.head == "off-board":
            off_board |= set(positions_named(names, xy, item.args))
    # Grid links from the direction vectors (none for a (0 0) direction, none to or from a
    # position off the board); explicit links and tracks added to them.
    by_xy = {
        (round(x * 2), round(y * 2)): i
        for i, (x, y) in enumerate(xy)
        if i not in off_board and i not in layer
    }
    links = []
    for dx, dy in vectors:
        row = []
        for i, (x, y) in enumerate(xy):
            if (dx, dy) == (0, 0) or i in off_board or i in layer:
                row.append(-1)
            else:
                row.append(by_xy.get((round((x + dx) * 2), round((y + dy) * 2)), -1))
        links.append(row)
    drawn: list[tuple[int, int]] = []
    turns: dict[tuple[int, int], int] = {}
    for item in form.args:
        if isinstance(item, Form) and item.head == "track":
            if len(item) < 4 or not isinstance(item[1], Form) or len(item[1]) != 2:
                raise item.error("(track (FORWARD BACKWARD) POSITION POSITION...)")
            ways = []
            for d in item[1].items:
                word = word_of(d)
                if word not in directions:
                    raise err(d, f"unknown direction {word!r}")
                ways.append(directions.index(word))
            points = []  # names in order, a name again where the track comes back to it
            for at in item.items[2:]:
                word = text_or_word(at)
                if word not in index:
                    raise err(at, f"no position {word!r}")
                points.append(index[word])
            for here, there in itertools.pairwise(points):
                links[ways[0]][here] = there
                links[ways[1]][there] = here
                if (there, here) not in drawn and (here, there) not in drawn:
                    drawn.append((here, there))
        if isinstance(item, Form) and item.head == "turn":
            if len(item) < 4:
                raise item.error("(turn ARRIVING LEAVING POSITION...)")
            ways = []
            for d in item.items[1:3]:
                word = word_of(d)
                if word not in directions:
                    raise err(d, f"unknown direction {word!r}")
                ways.append(directions.index(word))
            for where in positions_named(names, xy, item.items[3:]):
                turns[(ways[0], where)] = ways[1]
    link_columns(column_tracks, directions, links)
    for item in form.args:
        if isinstance(item, Form) and item.head == "arrows":  # one way: no link back
            dname = _first(item, "(arrows DIRECTION (A B)...)", directions, "unknown direction")
            for a, b in _pairs(item, "an arrow is (FROM TO)", text_or_word, index, "no position"):
                links[directions.index(dname)][index[a]] = index[b]
        if isinstance(item, Form) and item.head == "link":
            dname = _first(item, "(link DIRECTION (A B)...)", directions, "unknown direction")
            for a, b in _pairs(item, "a link is (FROM TO)", text_or_word, index, "no position"):
                links[directions.index(dname)][index[a]] = index[b]
                dx, dy = vectors[directions.index(dname)]
                if (-dx, -dy) in vectors and (dx, dy) != (0, 0):
                    links[vectors.index((-dx, -dy))][index[b]] = index[a]
                if (index[b], index[a]) not in drawn:
                    drawn.append((index[a], index[b]))
    symmetry = [list(range(len(directions))) for _ in players]
    zones: dict[str, list[set[int]]] = {}
    for item in form.args:
        if isinstance(item, Form) and item.head == "symmetry":
            who = _first(item, "(symmetry PLAYER (A B)...)", players, "no player")
            table = symmetry[players.index(who)]
            swaps = _pairs(
                item, "a swap is (DIRECTION DIRECTION)", word_of, directions, "unknown direction"
            )
            for a, b in swaps:
                ia, ib = directions.index(a), directions.index(b)
                table[ia], table[ib] = ib, ia
        if isinstance(item, Form) and item.head == "direction-map":  # A means B, one way
            who = _first(item, "(direction-map PLAYER (A B)...)", players, "no player")
            table = symmetry[players.index(who)]
            for a, b in _pairs(item, "(A B)", word_of, directions, "unknown direction"):
                table[directions.index(a)] = directions.index(b)
        if isinstance(item, Form) and item.head == "zone":
            if len(item) < 3:
                raise item.error("(zone NAME (PLAYER POSITION...)...) or (zone NAME POSITION...)")
            zname = word_of(item[1])
            if zname in zones:
                raise err(item[1], f"zone {zname!r} is given twice")
            per: list[set[int]] = [set() for _ in players]
            groups = item.items[2:]
            if all(isinstance(g, Form) and g.head in players for g in groups):
                for g in groups:
                    assert isinstance(g, Form)
                    per[players.index(g.head)] |= set(positions_named(names, xy, g.args, off_board))
            else:
                cells_ = set(positions_named(names, xy, groups, off_board))
                per = [set(cells_) for _ in players]
            zones[zname] = per
    lines: list[tuple[int, int]] = []
    for item in form.args:
        if isinstance(item, Form) and item.head == "lines":
            for pair in arg(item, 1, 256):
                if not isinstance(pair, Form) or len(pair) != 2:
                    raise err(pair, "a line is (FROM TO): two positions")
                ends = []
                for at in pair.items:
                    word = text_or_word(at)
                    if word not in index:
                        raise err(at, f"no position {word!r}")
                    ends.append(index[word])
                lines.append((ends[0], ends[1]))
    marked: set[int] = set()
    water: set[int] = set()
    for item in form.args:  # (marked ZONE...), (water ZONE...): how the zones are drawn
        if isinstance(item, Form) and item.head in ("marked", "water"):
            for z in arg(item, 1, 16):
                if word_of(z) not in zones:
                    raise err(z, f"no zone {word_of(z)!r}")
                (marked if item.head == "marked" else water).update(*zones[word_of(z)])
    look = read_look(form, len(names), columns, layer, zones)
    shade = shade if look.checkered < 0 else look.checkered  # (checkered): a board of positions
    dark = frozenset(i for i, (x, y) in enumerate(xy) if (round(x) + round(y) + shade) % 2 == 0)
    width = int(max(x for x, _ in xy) - min(x for x, _ in xy)) + 1
    height = int(max(y for _, y in xy) - min(y for _, y in xy)) + 1
    return Board(
        names=tuple(names),
        xy=tuple(xy),
        directions=tuple(directions),
        links=tuple(tuple(r) for r in links),
        symmetry=tuple(tuple(t) for t in symmetry),
        zones={k: tuple(frozenset(s) for s in v) for k, v in zones.items()},
        kind=kind,
        drawn=tuple(drawn),
        dark=dark if (grid_form or look.checkered >= 0) and kind == "square" else frozenset(),
        size=(width, height),
        off_board=frozenset(off_board),
        turns=turns,
        lines=tuple(lines),
        marked=frozenset(marked),
        water=frozenset(water),
        look=look,
    )


def positions(board: Board, items: Iterable[Item]) -> list[int]:
    return positions_named(list(board.names), list(board.xy), items, board.off_board)


def positions_named(
    names: list[str],
    xy: list[tuple[float, float]],
    items: Iterable[Item],
    off_board: Collection[int] = (),
) -> list[int]:
    """Position names, ``(row N...)`` (rows counted from 1 at the bottom), ``(column N...)``
    (from 1 at the left) and ``all``; rows, columns and ``all`` leave out positions off the
    board."""
    index = {n: i for i, n in enumerate(names)}
    out: list[int] = []
    on = [(i, p) for i, p in enumerate(xy) if i not in off_board]
    ys = sorted({round(y) for _, (_, y) in on})
    xs = sorted({round(x) for _, (x, _) in on})
    for item in items:
        if isinstance(item, Form) and item.head in ("row", "column"):
            for a in arg(item, 1, 32):
                n = whole_number(a, 1, 64)
                axis = ys if item.head == "row" else xs
                if n > len(axis):
                    raise err(a, f"the board has {len(axis)} {item.head}s")
                want = axis[n - 1]
                for i, (x, y) in on:
                    if round(y if item.head == "row" else x) == want and i not in out:
                        out.append(i)
        elif isinstance(item, Atom) and item.value == "all" and not item.quoted:
            out.extend(i for i, _ in on if i not in out)
        elif isinstance(item, Atom):
            name = str(item.value)
            if name not in index:
                raise err(item, f"no position {name!r}")
            if index[name] not in out:
                out.append(index[name])
        else:
            raise err(item, "a position, (row N...), (column N...) or all")
    return out


def _first(item: Form, usage: str, known: Collection[str], unknown: str) -> str:
    """The first word of ``item``, a list of pairs (refused with ``usage`` when it has none);
    a word not in ``known`` is refused with ``unknown`` and the word."""
    if len(item) < 3:
        raise item.error(usage)
    word = word_of(item[1])
    if word not in known:
        raise err(item[1], f"{unknown} {word!r}")
    return word


def _pairs(
    item: Form, usage: str, read: Callable[[Item], str], known: Collection[str], unknown: str
) -> Iterator[tuple[str, str]]:
    """The ``(A B)`` lists after ``item``'s first two words, each word read by ``read``: a
    list that is not two words is refused with ``usage``, a word not in ``known`` with
    ``unknown`` and the word."""
    for pair in item.items[2:]:
        if not isinstance(pair, Form) or len(pair) != 2:
            raise err(pair, usage)
        a, b = (read(x) for x in pair.items)
        for n, at in ((a, pair[0]), (b, pair[1])):
            if n not in known:
                raise err(at, f"{unknown} {n!r}")
        yield a, b
