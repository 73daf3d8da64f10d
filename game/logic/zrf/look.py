"""How a ZRF game looks, chosen from its description (a ZRF file's pictures are bitmaps the
player may not have): the board's kind (squares, points with lines, hex cells), its checks
and tinted zones, each piece's shape and each player's colour, written as the engine's own
board and piece forms.

- The board: a square grid of cells stays squares, checkered unless its pieces are shogi's
  tokens or stones placed on it; a grid whose cells are small in the picture (Go's
  crossings, Alquerque's points) or a stone game of 9 x 9 or more is points on lines;
  positions whose short links run at 60 degrees to each other are hex cells (snapped to an
  exact lattice); other points boards draw their links as lines. Grids drawn over one
  another (a 3D board's levels at the same pixels) are spread side by side, and positions
  off the lattice of a board of cells (dice, reserves) stand in a column beside it.
- The zones: promotion rows, goals and palaces (by their names), the zones a goal names and
  a race's (or Hex's) start and stop zones are tinted with their owner's colour.
- The pieces: chess's names and their older spellings as chess models, draughts' men and
  kings, stones and discs, and every other piece (shogi's among them) a token with its
  letter.
- The colours: a player named by a colour (``White``, ``SouthBlack``, ``Red``) gets it; the
  others the first free colours.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Final

from game.logic.rules.sexpr import Atom, Form, Item
from game.logic.zrf.geometry import Geometry
from game.logic.zrf.macros import piece_name
from game.logic.zrf.made import form as _form
from game.logic.zrf.made import text as _text

if TYPE_CHECKING:
    from game.logic.zrf.translate import Translation

__all__ = ["ZrfLook"]

#: Chess's pieces under their names and older spellings (shatranj, chaturanga, sittuyin).
CHESS: Final = {
    "pawn": ("pawn", "sarbaz", "baidaq", "bhata", "ne", "pedone", "peon"),
    "knight": ("knight", "asb", "asp", "faras", "ashva", "myin", "kt"),
    "bishop": ("bishop", "alfil", "fil", "pil", "sin", "aufin"),
    "rook": ("rook", "castle", "rokh", "rukh", "roq", "ratha", "yahhta"),
    "queen": ("queen", "fers", "ferz", "firzan", "sitke", "vizier"),
    "king": ("king", "shah", "raja", "rajah", "mingyi"),
}
#: Xiangqi's names, read as chess's in a game with a cannon (advisors and cannons: tokens).
XIANGQI: Final = {
    "general": "king",
    "chariot": "rook",
    "horse": "knight",
    "elephant": "bishop",
    "soldier": "pawn",
}
#: Shogi's pieces: a game with any of them (or "shogi" in its title) draws every piece as a
#: lettered token.
SHOGI: Final = frozenset({"gold", "silver", "lance", "goldgeneral", "silvergeneral", "tokin"})
#: Pieces placed and left: stones (or discs where the game turns them over).
STONES: Final = frozenset({"stone", "stones", "piece", "seed", "bead", "marble", "counter", "disc"})
#: Draughts: a man, and the king it becomes.
MEN: Final = frozenset({"man", "men", "checker", "draught", "pion"})
KINGS: Final = frozenset({"king", "dama", "dame", "queen", "kings"})
#: Colours a player's name may hold, as "#rrggbb".
COLOURS: Final = {
    "white": "#ede6d1",
    "black": "#292629",
    "red": "#cc3329",
    "blue": "#2e61cc",
    "yellow": "#e6bf26",
    "green": "#339947",
    "gold": "#d9ad33",
    "silver": "#bfc4cc",
    "purple": "#8040a6",
    "violet": "#8a4fd9",
    "orange": "#ed801f",
    "brown": "#8c5a2e",
    "pink": "#e68cb3",
    "cyan": "#33b3cc",
    "grey": "#80808a",
    "gray": "#80808a",
    "navy": "#1f2f73",
    "ash": "#b8b5aa",
    "slate": "#5a6676",
    "light": "#ede6d1",
    "dark": "#292629",
}
#: The colours given, in turn, to players whose names hold none.
FREE: Final = ("white", "black", "red", "blue", "yellow", "green", "purple", "orange")
#: Zones worth tinting: where pieces promote, goals, palaces (and any zone a goal names).
TINTED: Final = re.compile(r"promot|last-rank|goal|throne|target|palace|castle|fortress")
#: A board of cells: positions at least this wide (in steps) touch their neighbours.
CELL: Final = 0.6
#: Stones on a lattice of this many lines or more are played on the crossings (Go's board).
GO_LINES: Final = 9
#: How many lines one ``(lines ...)`` form takes.
LINES_PER_FORM: Final = 256


def _key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.lower())


class ZrfLook:
    """The look of the game ``t`` translates (built after its geometry is read)."""

    def __init__(self, t: Translation) -> None:
        self.t = t
        self.geo: Geometry = t.geometry
        self.pieces = [piece_name(piece) for piece in t.parts.get("piece", [])]
        keys = {_key(p) for p in self.pieces}
        chess = {k for k in keys if _chess(k)}
        title = t.texts.get("title", "").lower()
        self.shogi = bool(keys & SHOGI) or "shogi" in title  # Tori's, Doubutsu's birds, beasts
        self.xiangqi = "cannon" in keys and bool(keys & {"general", "chariot"})
        self.draughts = bool(keys & MEN) and not chess - {"king", "queen"}
        self.stones = bool(keys) and keys <= STONES
        self.chesslike = bool(chess) or self.draughts
        self.flips = _mentions(t.parts.get("piece", []), {"flip", "change-owner"}) or any(
            w in title for w in ("reversi", "othello")
        )
        self.drops_only = not _mentions(t.parts.get("piece", []), {"moves"})

    # -- the board ------------------------------------------------------------------------

    def arrange(self) -> None:
        """Places the positions for drawing and chooses the board's kind (``geo.kind``)."""
        geo = self.geo
        _spread_sheets(geo)
        if geo.kind == "points" and _hex(geo):
            geo.kind = "hex"
            return
        _square_up(geo)
        lattice = _on_lattice(geo)
        sizes = sorted(s for s in geo.sizes if s > 0)
        cells = bool(sizes) and sizes[len(sizes) // 2] >= CELL
        holed = _holed([p for p, on in zip(geo.xy, lattice, strict=True) if on] or geo.xy)
        if sum(lattice) >= 0.8 * len(geo.xy) and cells:
            _aside(geo, lattice)
            geo.kind = "square"
        if geo.kind == "square" and (
            self.xiangqi or (not self.chesslike and (holed or _some_diagonals(geo)))
        ):
            geo.kind = "points"  # lines between points: Xiangqi's, Alquerque's, Asalto's
        if geo.kind == "square" and self.stones and self.drops_only and not self.flips:
            lines = len({round(x) for x, _ in geo.xy})
            if lines >= GO_LINES or not cells:
                geo.kind = "points"  # Go's board: stones on the crossings
        elif geo.kind == "square" and not cells and sizes:
            geo.kind = "points"  # the grid's cells are small: points (Alquerque's)

    def board(self, at: Item) -> list[Form]:
        """The look forms of the board: checks, lines, tints."""
        geo = self.geo
        out: list[Form] = []
        if geo.kind == "square" and not self.shogi and not (self.drops_only and self.stones):
            out.append(_form(at, "checkered", self.bottom_left()))
        if geo.kind == "points" and not (self.stones and self.drops_only):
            pairs = self.lines()
            for k in range(0, len(pairs), LINES_PER_FORM):
                chunk = pairs[k : k + LINES_PER_FORM]
                out.append(_form(at, "lines", *(_pair(at, a, b) for a, b in chunk)))
        goals = [f for h in ("win-condition", "loss-condition") for f in self.t.parts.get(h, [])]
        ends = {z for z in geo.zones if _mentions(goals, {z})}
        if "stop-zone" in geo.zones:  # a race's (or Hex's) start and end: its two sides
            ends |= {"start-zone", "stop-zone"} & set(geo.zones)
        tints = [
            z
            for z in geo.zones
            if (TINTED.search(z.lower()) or z in ends) and self._worth_tinting(z)
        ]
        if tints:
            out.append(_form(at, "tint", *(self.t.name(z) for z in tints)))
        return out

    def bottom_left(self) -> str:
        """``dark`` or ``light``: the bottom-left square's colour, chosen so that draughts'
        men stand on the dark squares."""
        if not self.draughts:
            return "dark"
        index = {n: i for i, n in enumerate(self.geo.names)}
        parities = {
            (round(self.geo.xy[index[p]][0]) + round(self.geo.xy[index[p]][1])) % 2
            for p in _setup_positions(self.t)
            if p in index
        }
        return "light" if parities == {1} else "dark"

    def lines(self) -> list[tuple[str, str]]:
        """The links to draw: each pair of linked positions once, the short ones only (a
        step to a neighbour, not a jump across the board); on a xiangqi board only the files
        and ranks, and the diagonals of its palaces."""
        geo = self.geo
        xy = geo.xy
        index = {n: i for i, n in enumerate(geo.names)}
        near = _nearest(xy)
        palace = set()
        for zname, per in geo.zones.items():
            if re.search(r"palace|castle|fortress", zname.lower()):
                for where in per.values():
                    palace.update(where)
        seen: set[tuple[str, str]] = set()
        out: list[tuple[str, str]] = []
        for links in geo.links.values():
            for a, b in links.items():
                if a == b or (b, a) in seen or (a, b) in seen:
                    continue
                (ax, ay), (bx, by) = xy[index[a]], xy[index[b]]
                length = math.hypot(bx - ax, by - ay)
                if length > 1.5 * min(near[index[a]], near[index[b]]) + 1e-6:
                    continue
                diagonal = abs(bx - ax) > 1e-6 and abs(by - ay) > 1e-6
                if self.xiangqi and diagonal and not {a, b} <= palace:
                    continue
                seen.add((a, b))
                out.append((a, b))
        return out

    def _worth_tinting(self, zone: str) -> bool:
        """A zone is tinted when it is a part of the board (half of it at most) and the players'
        parts differ (a shared zone would be tinted with every colour at once)."""
        per = self.geo.zones[zone]
        parts = [frozenset(v) for v in per.values()]
        cover = set().union(*parts) if parts else set()
        return 0 < len(cover) <= 0.5 * len(self.geo.names) and len(set(parts)) == len(parts)

    # -- pieces and players -------------------------------------------------------------------

    def shape(self, name: str) -> str:
        """The shape a piece is drawn as (``pentagon``: a token with its letter)."""
        key = _key(name)
        if self.shogi or key.startswith(("unknown", "hidden", "anti")):
            return "pentagon"
        if key in STONES or key.endswith("piece"):
            return "disc" if self.flips or key in ("disc", "counter") else "stone"
        if self.draughts and (key in MEN or key.endswith("man")):
            return "man"
        if self.draughts and (key in KINGS or key.endswith("king")):
            return "king"
        if self.xiangqi and key in XIANGQI:
            return XIANGQI[key]
        return _chess(key) or "pentagon"

    def piece(self, name: str, at: Item) -> list[Form]:
        return [_form(at, "shape", self.shape(name))]

    def colours(self, at: Item) -> list[Form]:
        """``(colours ...)`` where a player's name holds a colour; none otherwise."""
        named = [_named_colour(p) for p in self.t.players]
        if not any(named):
            return []
        free = [COLOURS[c] for c in FREE if COLOURS[c] not in named]
        free += [_shade(COLOURS[c]) for c in FREE]  # more players than colours: second tones
        out: list[str] = []
        for colour in named:
            if colour and colour in out:  # two players of one colour (partners): a shade
                colour = _shade(colour)
            out.append(colour or free.pop(0))
        return [_form(at, "colours", *(_text(at, c) for c in out))]


def _chess(key: str) -> str:
    for shape, names in CHESS.items():
        if key in names or key.endswith(shape):
            return shape
    return ""


def _named_colour(player: str) -> str:
    low = player.lower()
    found = [(low.find(w), c) for w, c in COLOURS.items() if w in low]
    return min(found)[1] if found else ""


def _shade(colour: str) -> str:
    """A second tone of ``colour``: darker for a light one, lighter for a dark one."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    light = r + g + b > 384
    mixed = [int(v * 0.72) if light else int(v + (255 - v) * 0.35) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mixed)


def _mentions(forms: Iterable[Item], words: set[str]) -> bool:
    """Whether any of ``words`` stands in ``forms`` (as a word or a form's head)."""
    stack = list(forms)
    while stack:
        item = stack.pop()
        if isinstance(item, Atom):
            if str(item.value) in words:
                return True
        else:
            stack.extend(item.items)
    return False


def _setup_positions(t: Translation) -> list[str]:
    out: list[str] = []
    for form in t.parts.get("board-setup", []):
        for side in form.args:
            for group in side.args if isinstance(side, Form) else ():
                if isinstance(group, Form):
                    out.extend(str(a.value) for a in group.args if isinstance(a, Atom))
    return out


def _nearest(xy: Sequence[tuple[float, float]]) -> list[float]:
    """Each position's distance to its nearest other position (inf when alone)."""
    out = []
    for i, (x, y) in enumerate(xy):
        best = math.inf
        for j, (u, v) in enumerate(xy):
            if i != j:
                d = math.hypot(u - x, v - y)
                if 1e-9 < d < best:
                    best = d
        out.append(best)
    return out


def _spread_sheets(geo: Geometry) -> None:
    """Grids drawn over one another (positions at the same spot: a 3D board's levels) are
    set side by side, each a board's width and a step to the right of the one before, in
    rows of about the square root of their number past three (later levels in rows above)."""
    seen: dict[tuple[float, float], int] = {}
    sheet = []
    for x, y in geo.xy:
        spot = (round(x, 3), round(y, 3))
        sheet.append(seen.get(spot, 0))
        seen[spot] = seen.get(spot, 0) + 1
    if max(sheet, default=0) == 0:
        return
    width = max(x for x, _ in geo.xy) - min(x for x, _ in geo.xy) + 2
    height = max(y for _, y in geo.xy) - min(y for _, y in geo.xy) + 2
    count = max(sheet) + 1
    across = count if count <= 3 else math.ceil(math.sqrt(count))  # more rows above
    geo.xy = [
        (x + (k % across) * width, y + (k // across) * height)
        for (x, y), k in zip(geo.xy, sheet, strict=True)
    ]
    geo.kind = "points"


def _square_up(geo: Geometry) -> None:
    """Rows a little farther apart than columns (a picture's oblong cells: Heian shogi's
    41 x 46 pixels) are brought to the columns' step, so that the cells are square."""
    ys = sorted({round(y, 3) for _, y in geo.xy})
    steps = [b - a for a, b in pairwise(ys) if b - a > 0.05]
    if not steps:
        return
    step = sorted(steps)[len(steps) // 2]
    if 0.7 < step < 1.45 and abs(step - 1) > 0.02:
        scaled = [(x, y / step) for x, y in geo.xy]
        if sum(abs(y - round(y)) < 0.05 for _, y in scaled) >= 0.8 * len(scaled):
            geo.xy = scaled


def _on_lattice(geo: Geometry) -> list[bool]:
    """Which positions lie on the board's lattice of unit steps (the one most positions lie
    on: the board moved so that it runs through whole numbers)."""
    offsets = Counter((round(x % 1, 2) % 1, round(y % 1, 2) % 1) for x, y in geo.xy)
    (dx, dy), _ = offsets.most_common(1)[0]
    geo.xy = [(x - dx, y - dy) for x, y in geo.xy]
    return [abs(x - round(x)) < 0.05 and abs(y - round(y)) < 0.05 for x, y in geo.xy]


def _holed(xy: Sequence[tuple[float, float]]) -> bool:
    """Whether the positions fill less than three quarters of the rectangle around them (a
    cross, a star: a board of points, unless its pieces are chess's)."""
    xs = [x for x, _ in xy]
    ys = [y for _, y in xy]
    area = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
    return len(xy) < 0.75 * area


def _some_diagonals(geo: Geometry) -> bool:
    """Whether diagonal links join some neighbouring points and not others, as on
    Alquerque's board (a chess board links every square diagonally, or none; a draughts
    board only its dark squares, but its men say it is one)."""
    index = {n: i for i, n in enumerate(geo.names)}
    xy = geo.xy
    diagonal = set()
    for links in geo.links.values():
        for a, b in links.items():
            dx, dy = (abs(xy[index[b]][k] - xy[index[a]][k]) for k in (0, 1))
            if abs(dx - 1) < 0.05 and abs(dy - 1) < 0.05:
                diagonal.add(a)
    return 0.2 * len(xy) < len(diagonal) < 0.75 * len(xy)


def _aside(geo: Geometry, lattice: list[bool]) -> None:
    """Positions off a board of cells' lattice (dice, reserves) go in a column a step to its
    right, in the file's order; the board's own positions snap to whole numbers."""
    on = [p for p, ok in zip(geo.xy, lattice, strict=True) if ok]
    right = max(round(x) for x, _ in on) + 2
    bottom = min(round(y) for _, y in on)
    k = 0
    placed = []
    for (x, y), ok in zip(geo.xy, lattice, strict=True):
        if ok:
            placed.append((float(round(x)), float(round(y))))
        else:
            placed.append((float(right), float(bottom + k)))
            k += 1
    geo.xy = placed


def _hex(geo: Geometry) -> bool:
    """Whether the positions are hex cells: nearly every short link (nine in ten: a reserve
    beside the board may zigzag) runs at a multiple of 60 degrees from the others, as a hex
    lattice's neighbours do; if so their places snap to an exact lattice of unit steps (a
    position whose spot is taken already takes the nearest free one)."""
    xy = geo.xy
    index = {n: i for i, n in enumerate(geo.names)}
    near = _nearest(xy)
    angles: list[tuple[float, int]] = []
    for links in geo.links.values():
        for a, b in links.items():
            i, j = index[a], index[b]
            dx, dy = xy[j][0] - xy[i][0], xy[j][1] - xy[i][1]
            length = math.hypot(dx, dy)
            if 1e-9 < length <= 1.15 * min(near[i], near[j]):
                angles.append((math.degrees(math.atan2(dy, dx)) % 180, i))
    if len(angles) < 6:
        return False
    base = Counter(round(a) % 60 for a, _ in angles).most_common(1)[0][0]

    def fits(angle: float) -> bool:
        off = (angle - base) % 60
        return min(off, 60 - off) <= 4

    fitting = [(a, i) for a, i in angles if fits(a)]
    if len(fitting) < 0.9 * len(angles):
        return False
    if len({round((a - base) / 60) % 3 for a, _ in fitting}) < 2:
        return False
    step = sorted(near)[len(near) // 2]
    u = (math.cos(math.radians(base)), math.sin(math.radians(base)))
    v = (math.cos(math.radians(base + 60)), math.sin(math.radians(base + 60)))
    det = u[0] * v[1] - u[1] * v[0]
    x0, y0 = xy[fitting[0][1]]
    placed: list[tuple[float, float]] = []
    for x, y in xy:
        px, py = (x - x0) / step, (y - y0) / step
        q = round((px * v[1] - py * v[0]) / det)
        r = round((u[0] * py - u[1] * px) / det)
        # A spot taken already (a reserve's zigzag): the nearest free one.
        spots = [
            (
                round((q + dq) * u[0] + (r + dr) * v[0], 4),
                round((q + dq) * u[1] + (r + dr) * v[1], 4),
            )
            for dq in range(-3, 4)
            for dr in range(-3, 4)
        ]
        spots.sort(key=lambda s: math.hypot(s[0] - px, s[1] - py))
        taken = set(placed)
        placed.append(next((s for s in spots if s not in taken), (px, py)))
    lo_x = min(x for x, _ in placed)
    lo_y = min(y for _, y in placed)
    geo.xy = [(round(x - lo_x, 4), round(y - lo_y, 4)) for x, y in placed]
    return True


def _pair(at: Item, a: str, b: str) -> Form:
    return Form((_text(at, a), _text(at, b)), at.line, at.column, at.source)
