"""The HUD's sheet: a grid panel docked at the left edge (a detective's notebook).

The HUD hands it a :class:`~game.engine.controller.Sheet` and the room it has (below the
title panel, above the banner); the sheet sizes its text to fit that height, draws a solid
backdrop, a title, a header row, the rows (a one-cell row is a heading across the grid) and
the footer lines, and answers which cell's command a click at a window position runs. The
hovered cell is outlined and its tip replaces the last footer line. Labels are kept and only
their text and colour change while the grid keeps its shape, so a new game state costs no
new labels.

A window's sheet is ``gradual``: a new grid's labels are made a few milliseconds' worth a
frame (:data:`STEP_S`), each with its text, size and place at once, while its backdrop, title
and cells' places are there from the first frame (a Cluedo notebook's 150-odd labels made in
one frame held it up for a large fraction of a second). Headless (tests, pictures) every
label is made at once.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

import pyglet
from pyglet import shapes
from pyglet.text import Label

from game.engine.controller import Cell, Sheet
from game.engine.glyphs import FONT, label_width
from game.engine.text import restyle

__all__ = ["SheetView"]

BACKDROP = (16, 21, 33, 255)  # opaque: nothing of the scene shows through the sheet
HEADING = (200, 206, 220, 255)
MIN_FONT = 7
#: A gradual sheet's labels are made for about this long a frame ...
STEP_S = 0.008
#: ... and at least this many.
STEP_LABELS = 6


@dataclass
class _CellView:
    cell: Cell
    box: shapes.Rectangle | None  # only a cell with a fill has one
    label: Label | None  # None: a gradual sheet has not made it yet
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


class SheetView:
    """Draws one :class:`Sheet` into the HUD's batch; see the module docstring."""

    def __init__(
        self,
        batch: pyglet.graphics.Batch,
        back: pyglet.graphics.Group,
        front: pyglet.graphics.Group,
    ) -> None:
        self.batch, self.back, self.front = batch, back, front
        self.sheet: Sheet | None = None
        self.visible = False
        self.x = self.y = self.width = self.height = 0.0
        self.hover: _CellView | None = None
        self.panel = shapes.Rectangle(0, 0, 1, 1, color=BACKDROP, batch=batch, group=back)
        self.panel.visible = False
        self.outline = shapes.Box(0, 0, 1, 1, thickness=2, color=(246, 190, 70, 255),
                                  batch=batch, group=front)  # fmt: skip
        self.outline.visible = False
        self.title = self._label(bold=True)
        self._cells: list[list[_CellView]] = []
        self._footer: list[Label] = []
        self._room: tuple[float, float, float, int, float] = (0.0, 0.0, 0.0, 12, 1e9)
        self._laid: tuple[object, ...] | None = None  # the room and sheet last laid out
        #: Make labels a step a frame (a window), or all at once (see the module docstring).
        self.gradual = False
        self._font_size = 10.0  # the cells' text size, as last laid out

    # -- public -----------------------------------------------------------------------------

    def set(self, sheet: Sheet | None) -> None:
        """Show ``sheet`` (None hides it); nothing is redone when it did not change but
        a step of a gradual sheet's labels (it is called every frame)."""
        if sheet == self.sheet:
            self.make_labels()
            return
        old, self.sheet = self.sheet, sheet
        self._laid = None
        if sheet is None:
            self._show(False)
            return
        rows = [sheet.header, *sheet.rows]
        shape = [len(r) for r in rows]
        if old is None or [len(r) for r in (old.header, *old.rows)] != shape:
            self._rebuild(rows)
        else:
            for views, cells in zip(self._cells, rows, strict=True):
                for view, cell in zip(views, cells, strict=True):
                    view.cell = cell
        if len(self._footer) != len(sheet.footer) + 1:
            for label in self._footer:
                label.delete()
            self._footer = [self._label() for _ in range(len(sheet.footer) + 1)]
        self.title.text = sheet.title
        self.layout(*self._room)
        self.make_labels()

    def layout(
        self, left: float, top: float, bottom: float, font_size: int, widest: float = 1e9
    ) -> None:
        """Fit the sheet between ``top`` and ``bottom`` (window pixels from the bottom) at
        ``left``, at most ``widest`` wide; text shrinks to fit, and a sheet that cannot fit
        at all is hidden."""
        self._room = (left, top, bottom, font_size, widest)
        sheet = self.sheet
        # The HUD places its texts on every status change: the same sheet in the same room
        # is not laid out again (it costs milliseconds).
        if self._laid == (self._room, sheet):
            return
        self._laid = (self._room, sheet)
        if sheet is None:
            self._show(False)
            return
        lines = 2 + len(sheet.rows) + len(self._footer)
        fs = min(float(font_size), (top - bottom) / (lines * 1.62 + 1.2))
        if fs < MIN_FONT:
            self._show(False)
            return
        fs = round(fs * 2) / 2
        widths = self._widths(fs)
        grid_w = sum(widths) + fs * 1.2
        if grid_w > widest:  # narrower text, then hide if still too wide
            fs = math.floor(fs * widest / grid_w * 2) / 2
            widths = self._widths(fs)
            grid_w = sum(widths) + fs * 1.2
            # Text is drawn at whole pixel sizes, so the width does not shrink in proportion:
            # a size or two smaller until it fits.
            for _ in range(2):
                if grid_w <= widest or fs - 0.5 < MIN_FONT:
                    break
                fs -= 0.5
                widths = self._widths(fs)
                grid_w = sum(widths) + fs * 1.2
            if fs < MIN_FONT or grid_w > widest:
                self._show(False)
                return
        grid_w -= fs * 1.2
        self._font_size = fs
        self._paint(fs)
        row_h = fs * 1.62
        pad = fs * 0.6
        self.title.position = (left + pad, top - pad - fs * 0.9, 0)
        self.width = max(grid_w, self.title.content_width) + 2 * pad
        y = self.title.y - fs * 1.0 - row_h
        for views in self._cells:
            x = left + pad
            for i, view in enumerate(views):
                w = grid_w if len(views) == 1 else widths[i]
                view.x, view.y, view.w, view.h = x, y, w, row_h
                if view.box is not None:
                    _fit_box(view)
                if view.label is not None:
                    view.label.anchor_x, view.label.position = _place(view, i, fs)
                x += w
            y -= row_h
        for label in self._footer:
            label.position = (left + pad, y + row_h * 0.25, 0)
            y -= row_h
        self.x, self.y = left, y + row_h - pad * 0.6
        self.height = top - self.y
        self.panel.position = (self.x, self.y)
        self.panel.width, self.panel.height = self.width, self.height
        self._show(True)
        self._paint()  # the hover outline, at the cells' new places

    def make_labels(self, all_now: bool = False) -> int:
        """Make the labels still missing, for about :data:`STEP_S` (at least
        :data:`STEP_LABELS`; ``all_now``: every one), each with its style and place at once;
        how many it made."""
        made = 0
        ends = time.perf_counter() + STEP_S
        fs = self._font_size
        for r, views in enumerate(self._cells):
            for i, view in enumerate(views):
                if view.label is not None:
                    continue
                if not all_now and made >= STEP_LABELS and time.perf_counter() >= ends:
                    return made
                cell = view.cell
                anchor_x, position = _place(view, i, fs)
                view.label = Label(
                    cell.text,
                    font_name=FONT,
                    font_size=fs,
                    weight=_weight(cell, r, len(views)),
                    color=_color(cell, r, len(views)),
                    x=position[0],
                    y=position[1],
                    anchor_x=anchor_x,
                    anchor_y="center",
                    batch=self.batch,
                    group=self.front,
                )
                view.label.visible = self.visible
                made += 1
        return made

    def _widths(self, fs: float) -> list[float]:
        """Each column's width with text of size ``fs``, measured from the font's glyphs
        (:func:`~game.engine.glyphs.label_width`): the labels are styled once, at the size
        chosen, not at each size tried (a notebook's hundred and more labels laid out two
        or three times over held up the frame it first showed in for 0.3-1.4 s)."""
        columns = max(len(r) for r in self._cells)
        widths = [0.0] * columns
        for r, views in enumerate(self._cells):
            if len(views) == 1 and columns > 1:
                continue  # a heading spans the grid
            for i, view in enumerate(views):
                bold = _weight(view.cell, r, len(views)) == "bold"
                widths[i] = max(widths[i], label_width(view.cell.text, fs, bold) + fs * 1.1)
        return widths

    def contains(self, x: float, y: float) -> bool:
        return (
            self.visible
            and self.x <= x <= self.x + self.width
            and self.y <= y <= self.y + self.height
        )

    def command_at(self, x: float, y: float) -> str | None:
        """The command of the cell under (x, y), if it has one."""
        view = self._cell_at(x, y)
        return view.cell.command or None if view is not None else None

    def on_mouse_motion(self, x: float, y: float) -> None:
        view = self._cell_at(x, y)
        if view is not self.hover:
            self.hover = view
            self._paint()

    # -- inside -----------------------------------------------------------------------------

    def _cell_at(self, x: float, y: float) -> _CellView | None:
        if not self.contains(x, y):
            return None
        for views in self._cells:
            for view in views:
                if view.contains(x, y):
                    return view
        return None

    def _rebuild(self, rows: list[tuple[Cell, ...]]) -> None:
        for views in self._cells:
            for view in views:
                if view.box is not None:
                    view.box.delete()
                if view.label is not None:
                    view.label.delete()
        self.hover = None
        self._cells = [
            [_CellView(cell, None, None if self.gradual else self._label()) for cell in cells]
            for cells in rows
        ]

    def _paint(self, font_size: float | None = None) -> None:
        """Texts, colours and the hover outline from the cells (and every text's size, when
        ``font_size`` is given)."""
        sheet = self.sheet
        size = {} if font_size is None else {"font_size": font_size}
        if font_size is not None:
            restyle(self.title, **size)
        for r, views in enumerate(self._cells):
            for view in views:
                cell = view.cell
                if view.label is not None:
                    # Each change lays the label out again: what changed is set, all at once.
                    color, weight = _color(cell, r, len(views)), _weight(cell, r, len(views))
                    restyle(view.label, text=cell.text, color=color, weight=weight, **size)
                if cell.fill is not None and view.box is None:
                    view.box = self._box()  # the cell's first fill
                    _fit_box(view)
                if view.box is not None:
                    fill = cell.fill or (0, 0, 0, 0)
                    if tuple(view.box.color) != fill:
                        view.box.color = fill
                    view.box.visible = self.visible and cell.fill is not None
        if sheet is not None:
            texts = [*sheet.footer, ""]
            hover = self.hover
            if hover is not None and hover.cell.tip:
                texts[-1] = hover.cell.tip
            for label, text in zip(self._footer, texts, strict=False):
                restyle(label, text=text, **size)
        hover = self.hover
        self.outline.visible = self.visible and hover is not None and bool(hover.cell.command)
        if hover is not None:
            self.outline.position = (hover.x, hover.y)
            self.outline.width, self.outline.height = hover.w, hover.h

    def hide(self) -> None:
        """Hide the sheet until its next layout (the HUD gives its room to a message)."""
        self._show(False)

    def _show(self, on: bool) -> None:
        self.visible = on
        if not on:
            self.width = self.height = 0.0
        self.panel.visible = on
        self.title.visible = on
        for label in self._footer:
            label.visible = on
        for views in self._cells:
            for view in views:
                if view.label is not None:
                    view.label.visible = on
                if view.box is not None:
                    view.box.visible = on and view.cell.fill is not None
        if not on:
            self.outline.visible = False

    def _box(self) -> shapes.Rectangle:
        return shapes.Rectangle(0, 0, 1, 1, color=(0, 0, 0, 0), batch=self.batch, group=self.back)

    def _label(self, *, bold: bool = False) -> Label:
        return Label(
            "",
            font_name=FONT,
            font_size=10,
            weight="bold" if bold else "normal",
            color=(232, 236, 244, 255),
            anchor_y="center",
            batch=self.batch,
            group=self.front,
        )


def _weight(cell: Cell, row: int, cells: int) -> str:
    """The weight of a cell's text: bold in the header row, in a heading across the grid
    (a row of ``cells`` = 1) and where the cell asks for it."""
    return "bold" if cell.bold or row == 0 or cells == 1 else "normal"


def _color(cell: Cell, row: int, cells: int) -> tuple[int, int, int, int]:
    """The colour of a cell's text: a heading's (see :func:`_weight`) unless it has its own."""
    heading = row == 0 or cells == 1
    return HEADING if heading and cell.color == Cell("").color else cell.color


def _place(
    view: _CellView, column: int, fs: float
) -> tuple[Literal["left", "center"], tuple[float, float, float]]:
    """Where a cell's label goes in its cell: its ``anchor_x`` and position."""
    if column == 0 or view.cell.left:
        return "left", (view.x + fs * 0.45, view.y + view.h / 2, 0.0)
    return "center", (view.x + view.w / 2, view.y + view.h / 2, 0.0)


def _fit_box(view: _CellView) -> None:
    """A cell's fill box to the cell's place (a pixel in from its edges)."""
    assert view.box is not None
    view.box.position = (view.x + 0.5, view.y + 0.5)
    view.box.width, view.box.height = view.w - 1, view.h - 1
