"""The HUD: buttons with hover and disabled states, a status banner, a title and a counter.

Drawn with pyglet shapes and labels in one Batch after the 3D pass. Sizes follow the window
height so text stays readable from 640x400 to 4K. The HUD knows nothing of any game: it shows
a controller's :class:`Status` and :class:`Button` list and reports which button was hit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pyglet
from pyglet import shapes
from pyglet.text import Label

from game.engine.controller import Button, Sheet, Status, Tone
from game.engine.glyphs import FONT
from game.engine.sheet import SheetView

TONE_COLORS: dict[Tone, tuple[int, int, int]] = {
    Tone.INFO: (32, 44, 66),
    Tone.HINT: (150, 104, 12),
    Tone.WARN: (160, 72, 20),
    Tone.WON: (26, 120, 62),
    Tone.LOST: (150, 30, 36),
}


@dataclass
class _ButtonView:
    spec: Button
    rect: shapes.RoundedRectangle
    label: Label
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    enabled: bool = True

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h


class Hud:
    """Lays out and draws the HUD for a window of ``size`` (pixels, origin bottom-left)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.batch = pyglet.graphics.Batch()
        self.back = pyglet.graphics.Group(order=0)
        self.front = pyglet.graphics.Group(order=1)
        self.size = size
        self.hover: str | None = None
        self._buttons: list[_ButtonView] = []
        self._bar_rows = 1  # rows of the bottom button bar (it wraps in narrow windows)
        self._specs: list[Button] = []
        self._world: list[Label] = []
        self._status = Status(title="")
        self.panel = shapes.RoundedRectangle(
            0, 0, 10, 10, radius=10, color=(20, 26, 40, 238), batch=self.batch, group=self.back
        )
        self.title = self._label(bold=True)
        self.counter = self._label()
        self.help = self._label(color=(220, 228, 240, 230), wrap=True)
        self.banner_box = shapes.RoundedRectangle(
            0, 0, 10, 10, radius=12, color=(32, 44, 66, 240), batch=self.batch, group=self.back
        )
        self.banner = self._label(anchor_x="center", bold=True, wrap=True)
        self.sheet = SheetView(self.batch, self.back, self.front)
        # A tooltip beside the mouse (or a point the game names): a solid box, its own
        # groups so it lies over every other HUD element.
        self.tip_back = pyglet.graphics.Group(order=2)
        self.tip_front = pyglet.graphics.Group(order=3)
        self.tip_box = shapes.RoundedRectangle(
            0, 0, 10, 10, radius=8, color=(14, 18, 28, 245), batch=self.batch, group=self.tip_back
        )
        self.tip = Label("", font_name=FONT, font_size=12, color=(236, 240, 248, 255),
                         anchor_y="top", multiline=True, width=300, batch=self.batch,
                         group=self.tip_front)  # fmt: skip
        self.tip_box.visible = self.tip.visible = False
        self.layout(size)

    # -- public -----------------------------------------------------------------------------

    def font_size(self) -> int:
        return max(10, min(22, round(self.size[1] / 50)))

    def layout(self, size: tuple[int, int]) -> None:
        """Place everything for a new window size."""
        self.size = size
        self._rebuild_buttons()
        self._place_texts()

    def set_buttons(self, specs: list[Button]) -> None:
        if [(b.label, b.command, b.group) for b in specs] != [
            (b.label, b.command, b.group) for b in self._specs
        ]:
            self._specs = list(specs)
            self._rebuild_buttons()
            self._place_texts()  # the bar may have gained or lost a row
        else:  # same buttons: keep the layout, take the new predicates
            self._specs = list(specs)
            fresh = {(s.command, s.group): s for s in specs}
            for view in self._buttons:
                view.spec = fresh[(view.spec.command, view.spec.group)]

    def set_world_labels(self, items: list[tuple[str, float, float]]) -> None:
        """Small labels at window positions (text, x, y): e.g. a board's coordinates, which
        the Director projects from the scene every frame."""
        while len(self._world) < len(items):
            self._world.append(
                Label(
                    "",
                    font_name=FONT,
                    font_size=10,
                    color=(235, 225, 200, 220),
                    anchor_x="center",
                    anchor_y="center",
                    batch=self.batch,
                    group=self.front,
                )
            )
        size = max(9, round(self.font_size() * 0.85))
        # A label never shows through a panel, the banner or a button.
        items = [item for item in items if not self._covered(item[1], item[2], size)]
        for label, (text, x, y) in zip(self._world, items, strict=False):
            if label.text != text:
                label.text = text
            if label.font_size != size:
                label.font_size = size
            label.position = (x, y, 0)
            label.visible = True
        for label in self._world[len(items) :]:
            label.visible = False

    def _covered(self, x: float, y: float, margin: float) -> bool:
        boxes = [self.panel, self.banner_box] if self.banner_box.visible else [self.panel]
        for box in boxes:
            if (box.x - margin <= x <= box.x + box.width + margin
                    and box.y - margin <= y <= box.y + box.height + margin):  # fmt: skip
                return True
        return self.sheet.contains(x, y) or self.button_at(x, y) is not None

    def set_tooltip(self, text: str, at: tuple[float, float] | None) -> None:
        """Show ``text`` (lines) in a solid box beside window point ``at``; "" hides it. The
        box stays inside the window."""
        if not text or at is None:
            self.tip_box.visible = self.tip.visible = False
            return
        fs = max(9, round(self.font_size() * 0.8))
        if self.tip.text != text or self.tip.font_size != fs:
            self.tip.font_size = fs
            self.tip.width = round(fs * 26)
            self.tip.text = text
            self.tip.width = round(min(fs * 26, self.tip.content_width + 2))
        w, h = self.size
        pad = fs * 0.7
        bw, bh = self.tip.content_width + 2 * pad, self.tip.content_height + 2 * pad
        x = at[0] + fs * 1.5
        if x + bw > w - 4:
            x = at[0] - fs * 1.5 - bw  # left of the point near the right edge
        y = at[1] - fs
        y = min(max(y, bh + 4), h - 4)
        x = max(4.0, x)
        self.tip_box.position = (x, y - bh)
        self.tip_box.width, self.tip_box.height = bw, bh
        self.tip.position = (x + pad, y - pad, 0)
        self.tip_box.visible = self.tip.visible = True

    def set_sheet(self, sheet: Sheet | None) -> None:
        """Dock ``sheet`` at the left edge under the title panel (None: no sheet)."""
        before = (self.sheet.visible, self.sheet.width)
        self.sheet.set(sheet)
        if (self.sheet.visible, self.sheet.width) != before:
            self._place_texts()  # the banner moves with the sheet's edge

    def set_status(self, status: Status) -> None:
        """Show a controller's status; labels change only when their text does."""
        old, self._status = self._status, status
        if status == old:
            self._refresh_buttons()
            return
        self.title.text = status.title
        self.counter.text = status.counter
        self.help.text = status.help
        self.banner.text = status.banner
        r, g, b = TONE_COLORS[status.tone]
        self.banner_box.color = (r, g, b, 240)
        self._place_texts()
        self._refresh_buttons()

    def button_at(self, x: float, y: float) -> Button | None:
        for view in self._buttons:
            if view.contains(x, y):
                return view.spec
        return None

    def contains(self, x: float, y: float) -> bool:
        """True over any HUD element that should swallow a click (buttons, panels)."""
        return self.button_at(x, y) is not None or self.sheet.contains(x, y)

    def on_mouse_motion(self, x: float, y: float) -> None:
        self.sheet.on_mouse_motion(x, y)
        spec = self.button_at(x, y)
        hover = spec.command if spec else None
        if hover != self.hover:
            self.hover = hover
            self._refresh_buttons()

    def draw(self) -> None:
        self.batch.draw()

    def is_enabled(self, command: str) -> bool:
        return any(v.enabled for v in self._buttons if v.spec.command == command)

    # -- helpers ----------------------------------------------------------------------------

    def _label(
        self,
        *,
        bold: bool = False,
        anchor_x: Literal["left", "center", "right"] = "left",
        color: tuple[int, int, int, int] = (255, 255, 255, 255),
        wrap: bool = False,
    ) -> Label:
        """A HUD label; ``wrap`` ones break into lines at their width (set by the layout) and
        are placed by their bottom edge."""
        return Label(
            "",
            font_name=FONT,
            font_size=12,
            weight="bold" if bold else "normal",
            color=color,
            anchor_x=anchor_x,
            anchor_y="bottom" if wrap else "baseline",
            multiline=wrap,
            width=400 if wrap else None,
            align=anchor_x,
            batch=self.batch,
            group=self.front,
        )

    def _place_texts(self) -> None:
        w, h = self.size
        fs = self.font_size()
        pad = fs
        left = pad * 1.6
        # The title panel stops short of the option buttons in the top-right corner.
        options = [v.x for v in self._buttons if v.spec.group == "options"]
        right = (min(options) if options else w) - pad
        self.title.font_size = round(fs * 1.5)
        self.counter.font_size = fs
        self.help.font_size = max(9, round(fs * 0.8))
        self.help.width = round(max(fs * 10, right - left - pad * 0.8))
        self.title.position = (left, h - pad * 1.2 - self.title.font_size * 1.3, 0)
        self.counter.position = (left, self.title.y - fs * 2.0, 0)
        self.help.position = (left, self.counter.y - fs * 0.8 - self.help.content_height, 0)
        lines = [self.title, self.counter] + ([self.help] if self.help.text else [])
        width = max(lb.content_width for lb in lines) + pad * 1.6
        bottom_line = self.help.y if self.help.text else self.counter.y - fs * 0.5
        self.panel.position = (pad * 0.8, bottom_line - fs * 0.7)
        self.panel.width = width
        self.panel.height = h - pad * 0.6 - self.panel.y
        bar = max(1, self._bar_rows)
        bottom = fs * 0.9 + bar * fs * 2.6 + (bar - 1) * fs * 0.36 + fs * 0.9
        # The sheet fills the left edge from under the title panel down to the button bar.
        self.sheet.layout(
            pad * 0.8, self.panel.y - pad * 0.5, bottom + pad * 0.3, round(fs * 0.8), w * 0.55
        )
        # The banner sits centred just above the bottom button bar, like a subtitle, so it
        # never covers the title panel or the option buttons at the top; long messages wrap.
        # With a sheet docked, it is centred in the room right of it.
        x0 = self.sheet.x + self.sheet.width + pad * 0.5 if self.sheet.visible else 0.0
        room = w - x0
        self.banner.font_size = round(fs * 1.15)
        self.banner.width = round(max(fs * 10, room - fs * 4))
        margin = self.banner.font_size * 0.8
        middle = x0 + room / 2
        self.banner.position = (middle, bottom + margin, 0)
        bw = min(self.banner.content_width + fs * 2.4, room - fs)
        bh = self.banner.content_height + 2 * margin
        self.banner_box.width = bw
        self.banner_box.height = bh
        self.banner_box.position = (middle - bw / 2, bottom)
        visible = bool(self.banner.text)
        self.banner_box.visible = visible
        self.banner.visible = visible

    def _rebuild_buttons(self) -> None:
        for view in self._buttons:
            view.rect.delete()
            view.label.delete()
        self._buttons = []
        self._bar_rows = 1
        w, h = self.size
        fs = self.font_size()
        bh = fs * 2.6
        gap = fs * 0.6
        options_bottom = float(h)
        for group in ("main", "options", "list"):
            specs = [s for s in self._specs if s.group == group]
            if not specs:
                continue
            views = []
            for spec in specs:
                text = f"{spec.label}  {spec.key}" if spec.key else spec.label
                label = Label(
                    text,
                    font_name=FONT,
                    font_size={"main": fs, "options": fs * 0.9}.get(group, fs * 0.8),
                    anchor_x="center",
                    anchor_y="center",
                    batch=self.batch,
                    group=self.front,
                )
                bw = label.content_width + fs * 2.0
                rect = shapes.RoundedRectangle(
                    0, 0, bw, bh, radius=bh * 0.3, batch=self.batch, group=self.back
                )
                views.append(_ButtonView(spec, rect, label, w=bw, h=bh))
            if group == "main":
                # Centred rows from the bottom up: as many buttons a row as the window holds.
                rows = _rows([v.w for v in views], w - 2 * gap, gap)
                self._bar_rows = len(rows)
                first = 0
                for r, count in enumerate(rows):
                    line = views[first : first + count]
                    first += count
                    total = sum(v.w for v in line) + gap * (len(line) - 1)
                    x = max(gap, (w - total) / 2)
                    y = gap * 1.5 + (len(rows) - 1 - r) * (bh + gap * 0.6)
                    for v in line:
                        v.x, v.y = x, y
                        x += v.w + gap
            elif group == "list":
                # A column on the right under the options: a move list, newest at the bottom.
                lw = max(v.w for v in views)
                lh = fs * 1.9
                y = options_bottom - gap - lh
                for v in views:
                    v.w, v.h = lw, lh
                    v.rect.width, v.rect.height = lw, lh
                    v.x, v.y = w - gap - lw, y
                    y -= lh + gap * 0.35
            else:
                # Options: a grid of two columns in the top-right corner ("Priests −",
                # "Priests +" side by side), each column as wide as its widest button.
                cols = 2
                col_w = [max(v.w for v in views[c::cols]) for c in range(min(cols, len(views)))]
                x0 = w - gap - sum(col_w) - gap * (len(col_w) - 1)
                for i, v in enumerate(views):
                    row, col = divmod(i, cols)
                    v.w = col_w[col]
                    v.rect.width = v.w
                    v.x = x0 + sum(col_w[:col]) + gap * col
                    v.y = h - gap - bh - row * (bh + gap * 0.6)
                    options_bottom = min(options_bottom, v.y)
            for v in views:
                v.rect.position = (v.x, v.y)
                v.label.position = (v.x + v.w / 2, v.y + v.h / 2, 0)
            self._buttons.extend(views)
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        for view in self._buttons:
            try:
                view.enabled = bool(view.spec.enabled())
            except Exception:  # a broken predicate disables its button, never the HUD
                view.enabled = False
            hovered = view.spec.command == self.hover
            if not view.enabled:
                view.rect.color = (70, 74, 84, 150)
                view.label.color = (170, 174, 182, 200)
            elif hovered:
                view.rect.color = (246, 190, 70, 240)
                view.label.color = (30, 24, 10, 255)
            else:
                view.rect.color = (28, 38, 58, 238)
                view.label.color = (255, 255, 255, 255)


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
