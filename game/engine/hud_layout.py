"""Where the HUD's buttons go: pure arithmetic on their text widths, so it is tested without
a window.

Three groups (see :class:`~game.engine.controller.Button`): ``main``, centred rows at the
bottom that wrap into as few rows as the width allows; ``options``, a two-column grid in the
top-right corner; ``list``, a column under the options (a move list, newest last). When they
do not fit (a button wider than the window, an options grid that reaches down into the bar
and the banner's line above it), every button's text is made smaller, step by step, down to a
readable least; a move list that still does not fit keeps its newest entries.

>>> placed = place_buttons({"main": [60.0] * 12}, (800, 600), 12)
>>> placed.rows, placed.scale
(2, 1.0)
>>> all(0 <= x and x + w <= 800 for x, _y, w, _h in placed.rects["main"])
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["GROUP_FONT", "Placed", "place_buttons"]

Rect = tuple[float, float, float, float]  # x, y, width, height; window units from bottom-left

#: Each group's text size as a share of the HUD's body text.
GROUP_FONT: dict[str, float] = {"main": 1.0, "options": 0.9, "list": 0.8}
#: The smaller text sizes tried, in turn, when the buttons do not fit.
_SCALES = (1.0, 0.9, 0.8, 0.7, 0.62, 0.55, 0.5)
#: Below this text size (window units) nothing shrinks further.
_LEAST_FONT = 7.0


@dataclass
class Placed:
    """The buttons' rectangles by group, in their order (``list``: only the newest
    ``len(rects["list"])``), the text scale used, the bar's rows and where the bar ends."""

    rects: dict[str, list[Rect]] = field(default_factory=dict)
    scale: float = 1.0
    rows: int = 1
    bar_top: float = 0.0
    fits: bool = True


def place_buttons(
    widths: Mapping[str, Sequence[float]], size: tuple[float, float], font: float
) -> Placed:
    """Place buttons whose texts are ``widths`` wide (window units, at the group's
    :data:`GROUP_FONT` share of ``font``) in a window of ``size``; see the module docstring.
    The result's ``fits`` is False when even the smallest text did not fit (then the
    smallest layout is returned, and the move list keeps what it can)."""
    placed = _place(widths, size, font, 1.0)
    for scale in _SCALES[1:]:
        if placed.fits or font * scale < _LEAST_FONT:
            break
        placed = _place(widths, size, font, scale)
    return placed


def _place(
    widths: Mapping[str, Sequence[float]], size: tuple[float, float], font: float, scale: float
) -> Placed:
    w, h = float(size[0]), float(size[1])
    fs = font * scale
    bh = fs * 2.6
    gap = fs * 0.6
    out = Placed(scale=scale)
    # The bar: rows from the bottom up.
    # A button never runs past the window (its text may, in a window far too narrow).
    wanted = [t * scale + fs * 2.0 for t in widths.get("main", ())]
    main = [min(bw, w - 2 * gap) for bw in wanted]
    fits = wanted == main
    rows = _rows(main, w - 2 * gap, gap) if main else []
    out.rows = max(1, len(rows))
    rects: list[Rect] = []
    first = 0
    for r, count in enumerate(rows):
        line = main[first : first + count]
        first += count
        total = sum(line) + gap * (len(line) - 1)
        fits = fits and total <= w - 2 * gap + 1e-6
        x = max(gap, (w - total) / 2)
        y = gap * 1.5 + (len(rows) - 1 - r) * (bh + gap * 0.6)
        for bw in line:
            rects.append((x, y, bw, bh))
            x += bw + gap
    out.rects["main"] = rects
    out.bar_top = gap * 1.5 + out.rows * bh + (out.rows - 1) * gap * 0.6 + gap * 1.5
    # What the top-right groups must stay above: the bar and a line of banner over it.
    floor = out.bar_top + fs * 1.15 * 3.2
    # Options: a grid of two columns (side by side pairs: "Priests -", "Priests +"), each
    # as wide as its widest button; four or six columns where two reach too far down.
    options = [t * scale + fs * 2.0 for t in widths.get("options", ())]
    top = h
    grid: list[Rect] = []
    if options:
        for cols in (2, 4, 6):
            cols = min(cols, len(options))
            grid, top = _grid(options, cols, w, h, gap, bh)
            if grid[0][0] >= gap and top >= floor:
                break
        fits = fits and grid[0][0] >= gap and top >= floor
    out.rects["options"] = grid
    # The list: a column under the options, as many of the newest entries as fit.
    entries = [t * scale + fs * 2.0 for t in widths.get("list", ())]
    column: list[Rect] = []
    if entries:
        lw = min(max(entries), w - 2 * gap)
        lh = fs * 1.9
        step = lh + gap * 0.35
        room = max(0, int((top - gap - floor) // step))
        kept = entries[len(entries) - min(len(entries), room) :]
        fits = fits and len(kept) == len(entries)
        y = top - gap - lh
        for _ in kept:
            column.append((w - gap - lw, y, lw, lh))
            y -= step
    out.rects["list"] = column
    out.fits = fits
    return out


def _grid(
    widths: list[float], cols: int, w: float, h: float, gap: float, bh: float
) -> tuple[list[Rect], float]:
    """A grid of ``cols`` columns in the top-right corner, and its lowest edge."""
    col_w = [max(widths[c::cols]) for c in range(cols)]
    x0 = w - gap - sum(col_w) - gap * (cols - 1)
    rects = []
    for i in range(len(widths)):
        row, col = divmod(i, cols)
        y = h - gap - bh - row * (bh + gap * 0.6)
        rects.append((x0 + sum(col_w[:col]) + gap * col, y, col_w[col], bh))
    return rects, min(r[1] for r in rects)


def _rows(widths: list[float], room: float, gap: float) -> list[int]:
    """How many buttons go in each row of the bottom bar, top row first: the fewest rows
    that fit ``room``, filled evenly so the last row is not a lone button."""
    for count in range(1, len(widths) + 1):
        per_row = -(-len(widths) // count)
        rows = [per_row] * (len(widths) // per_row)
        if len(widths) % per_row:
            rows.append(len(widths) % per_row)
        start, fits = 0, True
        for n in rows:
            row = widths[start : start + n]
            start += n
            if sum(row) + gap * (len(row) - 1) > room and n > 1:
                fits = False
                break
        if fits:
            return rows
    return [1] * len(widths)
