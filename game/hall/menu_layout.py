"""Where the menu's cards go: pure arithmetic in window units, so it is tested without a window.

:func:`lay_out` puts ``n`` cards (4:3, the shape of their pictures) in a grid inside the part
of the window the HUD leaves free, as large as they can be up to a cap, each with its title
under it, wrapped to at most two lines no wider than the card's column: titles side by side
never meet. :func:`groups_of` orders the games into the menu's groups, and :func:`matches`
filters them by a search.

>>> cards = lay_out(["Chess", "Hex"], (0, 0, 800, 600), 12, lambda t: 7.0 * len(t))
>>> [c.lines for c in cards]
[('Chess',), ('Hex',)]
>>> cards[0].x + cards[0].w < cards[1].x
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

__all__ = ["ASPECT", "Card", "columns_of", "groups_of", "lay_out", "matches"]

#: A card's width over its height: the pictures' shape.
ASPECT = 4 / 3
#: A card is at most this many times the labels' text size wide (a group of one game does not
#: fill the window with one picture).
MOST_WIDE = 26.0
#: A title's line height, in the labels' text size (pyglet's sizes are points: a line of
#: DejaVu Sans is 1.7 of them high at 96 dots an inch).
LINE = 1.75


@dataclass(frozen=True)
class Card:
    """One card's place (x, y of its bottom-left corner, width, height; window units from the
    bottom-left of the free part's window), its grid cell (row, column) and its title's lines,
    the first centred at ``(x + w / 2, line_y[0])``."""

    x: float
    y: float
    w: float
    h: float
    row: int
    column: int
    lines: tuple[str, ...]
    line_y: tuple[float, ...]


def lay_out(
    titles: Sequence[str],
    free: tuple[float, float, float, float],
    font: float,
    measure: Callable[[str], float],
) -> list[Card]:
    """Cards for ``titles`` in ``free`` (left, bottom, right, top), their titles in text of
    ``font`` size whose width ``measure`` tells: the grid (columns, rows) that makes the
    cards largest (on a tie, the fewer rows), centred in ``free``; the last row centred
    under the others."""
    n = len(titles)
    if n == 0:
        return []
    left, bottom, right, top = free
    room_w, room_h = max(1.0, right - left), max(1.0, top - bottom)
    gap = font * 1.2
    line = font * LINE
    best: tuple[float, int, list[tuple[str, ...]]] | None = None
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        width = min((room_w - gap * (cols - 1)) / cols, font * MOST_WIDE)
        wrapped = [_wrap(t, width + gap * 0.6, measure) for t in titles]
        band = max(len(w) for w in wrapped) * line + font * 0.5
        height = (room_h - gap * (rows - 1) - rows * band) / rows
        width = min(width, height * ASPECT)
        if width <= 0:
            continue
        if best is None or width >= best[0] * 0.9999:  # a tie: the fewer rows
            best = (width, cols, [_wrap(t, width + gap * 0.6, measure) for t in titles])
    if best is None:  # no room at all: one tiny row, so that something shows
        best = (max(1.0, room_w / n), n, [(t,) for t in titles])
    width, cols, wrapped = best
    height = width / ASPECT
    rows = math.ceil(n / cols)
    band = max(len(w) for w in wrapped) * line + font * 0.5
    pitch_x = width + gap
    pitch_y = height + band + gap
    grid_h = rows * (height + band) + (rows - 1) * gap
    y_top = bottom + (room_h + grid_h) / 2  # the grid centred up and down
    cards = []
    for i, lines in enumerate(wrapped):
        row, col = divmod(i, cols)
        in_row = min(cols, n - row * cols)
        row_w = in_row * width + (in_row - 1) * gap
        x = left + (room_w - row_w) / 2 + col * pitch_x
        y = y_top - row * pitch_y - height
        first = y - font * 0.25 - line / 2
        line_y = tuple(first - k * line for k in range(len(lines)))
        cards.append(Card(x, y, width, height, row, col, lines, line_y))
    return cards


def columns_of(cards: Sequence[Card]) -> int:
    """How many cards the grid's first row holds."""
    return sum(1 for c in cards if c.row == 0)


class _Game(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def menu_group(self) -> str: ...


G = TypeVar("G", bound=_Game)


def groups_of(games: Iterable[G]) -> dict[str, list[G]]:
    """The games by their menu group, the groups in the order their first game comes."""
    out: dict[str, list[G]] = {}
    for game in games:
        out.setdefault(game.menu_group, []).append(game)
    return out


def matches(games: Iterable[G], query: str) -> list[G]:
    """The games whose title, group, id or summary holds every word of ``query`` (any case),
    those whose title does first."""
    words = query.casefold().split()
    if not words:
        return list(games)
    found = []
    for game in games:
        title = game.title.casefold()
        text = " ".join((title, game.menu_group, game.id, game.summary)).casefold()
        if all(w in text for w in words):
            found.append((not all(w in title for w in words), game))
    return [game for _rank, game in sorted(found, key=lambda pair: pair[0])]


# -- helpers: they trust their input ------------------------------------------------------------


def _wrap(title: str, width: float, measure: Callable[[str], float]) -> tuple[str, ...]:
    """``title`` in at most two lines no wider than ``width``: words kept whole where they fit;
    a line still too wide is cut short with an ellipsis."""
    if measure(title) <= width:
        return (title,)
    words = title.split()
    for cut in range(len(words) - 1, 0, -1):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if measure(first) <= width and measure(second) <= width:
            return first, second
    first, rest = words[0], " ".join(words[1:])
    return tuple(_fit(part, width, measure) for part in (first, rest) if part)


def _fit(text: str, width: float, measure: Callable[[str], float]) -> str:
    if measure(text) <= width:
        return text
    while len(text) > 1 and measure(text + "…") > width:
        text = text[:-1]
    return text + "…"
