"""The HUD: buttons with hover and disabled states, a status banner, a title and a counter.

Drawn with pyglet shapes and labels in one Batch after the 3D pass. Sizes follow the window
(:func:`font_size`: its height, and its width in a narrow one) and the screen's pixel density
(``scale``, see :func:`ui_scale`), so text stays readable and everything fits from 640x400 to
4K: button rows that do not fit wrap, and every panel stays inside the window. The HUD knows
nothing of any game: it shows a controller's :class:`Status` and :class:`Button` list and
reports which button was hit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import pyglet
from pyglet import shapes
from pyglet.text import Label

from game.engine.controller import Button, Sheet, Status, Tone
from game.engine.glyphs import FONT, label_width
from game.engine.hud_layout import GROUP_FONT, place_buttons
from game.engine.sheet import SheetView
from game.engine.text import restyle

TONE_COLORS: dict[Tone, tuple[int, int, int]] = {
    Tone.INFO: (32, 44, 66),
    Tone.HINT: (150, 104, 12),
    Tone.WARN: (160, 72, 20),
    Tone.WON: (26, 120, 62),
    Tone.LOST: (150, 30, 36),
}

#: Every box of the HUD is opaque: nothing of the scene shows through a panel or a button
#: (MasterGrab's map numbers did, through the ranking and the disabled buttons).
OPAQUE = 255
#: A disabled button: a flat grey box and dim text, over anything.
DISABLED_BOX = (62, 66, 76, OPAQUE)
DISABLED_TEXT = (160, 164, 172, 255)

#: The colour of the labels at scene positions (a board's coordinates), and of callouts.
LABEL_COLOR = (235, 225, 200, 220)
CALLOUT_COLOR = (255, 222, 110, 255)


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
    #: The box's and the label's colours as last set (None: not yet).
    look: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h


class Hud:
    """Lays out and draws the HUD for a window of ``size`` (pixels, origin bottom-left)."""

    def __init__(self, size: tuple[int, int], scale: float = 1.0) -> None:
        self.scale = _finite_scale(scale)
        self.batch = pyglet.graphics.Batch()
        self.back = pyglet.graphics.Group(order=0)
        self.front = pyglet.graphics.Group(order=1)
        self.size = size
        #: The window the text is sized for (:func:`font_size`); the HUD itself may get only
        #: a part of it (``size``: beside the F3 overlay), its text staying the same size.
        self.text_for = size
        self.hover: str | None = None
        self._buttons: list[_ButtonView] = []
        self._bar_rows = 1  # rows of the bottom button bar (it wraps in narrow windows)
        self._bar_height = 0.0  # the bottom button bar's height, margins included
        self._title_bottom = 0.0  # the title panel's lower edge, without F1's help
        self.f1_help = False  # the help line is F1's command list (the Director sets it)
        self._bar_top = 0.0  # where the bar (and the banner over it) begins
        self._banner_line = 0.0  # the height of a one-line banner
        self._specs: list[Button] = []
        self._world: list[Label] = []
        self._world_styles: list[tuple[str, int, bool] | None] = []  # (text, size, bold)
        self._callouts: list[shapes.RoundedRectangle] = []  # the backdrops of callouts
        self._status = Status(title="")
        #: The help's last fitting: (its text, width, height and largest size), the size found.
        self._help_fit: tuple[tuple[str, int, float, int] | None, int] = (None, 0)
        self.panel = shapes.RoundedRectangle(
            0, 0, 10, 10, radius=10, color=(20, 26, 40, OPAQUE), batch=self.batch, group=self.back
        )
        self.title = self._label(bold=True)
        self.counter = self._label()
        self.help = self._label(color=(220, 228, 240, 230), wrap=True)
        self.banner_box = shapes.RoundedRectangle(
            0, 0, 10, 10, radius=12, color=(32, 44, 66, OPAQUE), batch=self.batch, group=self.back
        )
        self.banner = self._label(anchor_x="center", bold=True, wrap=True)
        self.sheet = SheetView(self.batch, self.back, self.front)
        # A tooltip beside the mouse (or a point the game names): a solid box, its own
        # groups so it lies over every other HUD element.
        self.tip_back = pyglet.graphics.Group(order=2)
        self.tip_front = pyglet.graphics.Group(order=3)
        self.tip_box = shapes.RoundedRectangle(0, 0, 10, 10, radius=8, color=(14, 18, 28, OPAQUE),
                                               batch=self.batch, group=self.tip_back)  # fmt: skip
        self.tip = Label("", font_name=FONT, font_size=12, color=(236, 240, 248, 255),
                         anchor_y="top", multiline=True, width=300, batch=self.batch,
                         group=self.tip_front)  # fmt: skip
        self.tip_box.visible = self.tip.visible = False
        self.layout(size)

    # -- public -----------------------------------------------------------------------------

    def font_size(self) -> int:
        """The body text size for the window's size and scale (see :func:`font_size`)."""
        return font_size(self.text_for, self.scale)

    def label_size(self) -> int:
        """The text size of the labels at scene positions (:meth:`set_world_labels`)."""
        return max(9, round(self.font_size() * 0.85))

    def layout(
        self,
        size: tuple[int, int],
        scale: float | None = None,
        text_for: tuple[int, int] | None = None,
    ) -> None:
        """Place everything in a HUD of ``size`` (window units; its bottom-left is the
        HUD's 0, 0), with the text sized for a window of ``text_for`` (default: ``size``)
        and the pixel density ``scale`` (when given)."""
        self.size = (max(1, int(size[0])), max(1, int(size[1])))
        self.text_for = self.size if text_for is None else (max(1, int(text_for[0])),
                                                             max(1, int(text_for[1])))  # fmt: skip
        if scale is not None:
            self.scale = _finite_scale(scale)
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

    def set_world_labels(self, items: list[tuple[Any, ...]]) -> None:
        """Small labels at window positions (text, x, y): e.g. a board's coordinates, which
        the Director projects from the scene every frame. ``(text, x, y, size)`` with a size
        above 1 is a callout: that many times larger, bold and gold (a hint's score).

        A label that showed the same text in the same style last frame shows it again, so
        only a text that is new is laid out (about a millisecond each), not every one after
        a label that came or went under a panel."""
        size = self.label_size()
        covered = self._covering(size)  # a label never shows through a panel or a button
        shown = []
        for text, x, y, *scale in items:
            if not covered(x, y):
                grow = float(scale[0]) if scale else 1.0
                bold = grow > 1.0
                shown.append(((text, round(size * grow), bold), x, y))
        while len(self._world) < len(shown):
            self._world.append(Label("", font_name=FONT, font_size=10, color=LABEL_COLOR,
                                     anchor_x="center", anchor_y="center", batch=self.batch,
                                     group=self.front))  # fmt: skip
            self._world_styles.append(None)
        while len(self._callouts) < sum(1 for key, _x, _y in shown if key[2]):
            box = shapes.RoundedRectangle(0, 0, 10, 10, radius=6, color=(16, 20, 30, OPAQUE),
                                          batch=self.batch, group=self.back)  # fmt: skip
            self._callouts.append(box)
        kept: dict[Any, list[int]] = {}
        for index, style in enumerate(self._world_styles):
            kept.setdefault(style, []).append(index)
        slots = [kept[key].pop() if kept.get(key) else -1 for key, _x, _y in shown]
        spare = iter(sorted(i for left in kept.values() for i in left))
        boxes = iter(self._callouts)
        for slot, (key, x, y) in zip(slots, shown, strict=True):
            index = slot if slot >= 0 else next(spare)
            label = self._world[index]
            text, font_size, bold = key
            if self._world_styles[index] != key:
                self._world_styles[index] = key
                restyle(label, text=text, font_size=font_size, weight="bold" if bold else
                        "normal", color=CALLOUT_COLOR if bold else LABEL_COLOR)  # fmt: skip
            if tuple(label.position) != _pixel(x, y):
                label.position = _pixel(x, y)
            label.visible = True
            if bold:  # a callout stands on a dark backdrop, readable over anything
                box = next(boxes)
                pad = font_size * 0.45
                box.width = label.content_width + 2 * pad
                box.height = label.content_height + pad * 0.6
                box.position = (x - box.width / 2, y - box.height / 2)
                box.visible = True
        for index in spare:
            self._world[index].visible = False
        for box in boxes:
            box.visible = False

    def _covering(self, margin: float) -> Callable[[float, float], bool]:
        """Whether a window point is under a panel or the banner (within ``margin``), the
        sheet or a button, as they stand now (one frame's labels are all tested at once)."""
        boxes = [self.panel, self.banner_box] if self.banner_box.visible else [self.panel]
        rects = [
            (box.x - margin, box.y - margin, box.x + box.width + margin,
             box.y + box.height + margin)
            for box in boxes
        ] + [(b.x, b.y, b.x + b.w, b.y + b.h) for b in self._buttons]  # fmt: skip
        sheet = self.sheet

        def covered(x: float, y: float) -> bool:
            for x0, y0, x1, y1 in rects:
                if x0 <= x <= x1 and y0 <= y <= y1:
                    return True
            return sheet.contains(x, y)

        return covered

    def set_tooltip(self, text: str, at: tuple[float, float] | None) -> None:
        """Show ``text`` (lines) in a solid box beside window point ``at``; "" hides it. The
        box stays inside the window."""
        if not text or at is None:
            self.tip_box.visible = self.tip.visible = False
            return
        fs = max(9, round(self.font_size() * 0.8))
        if self.tip.text != text or self.tip.font_size != fs:
            restyle(self.tip, font_size=fs, width=round(fs * 26), text=text)
            restyle(self.tip, width=round(min(fs * 26, self.tip.content_width + 2)))
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
        self.tip.position = _pixel(x + pad, y - pad)
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
        r, g, b = TONE_COLORS[status.tone]
        self.banner_box.color = (r, g, b, OPAQUE)
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

    def free_rect(self) -> tuple[float, float, float, float]:
        """The part of the window (left, bottom, right, top) the scene's pieces should keep
        to: right of a docked sheet, left of a move list, above the button bar and a line of
        banner, below the title panel and the option buttons. It does not depend on the
        banner's text, so the scene keeps still while messages come and go."""
        w = self.size[0]
        pad = self.font_size() * 0.4
        left = self.sheet.x + self.sheet.width + pad if self.sheet.visible else 0.0
        lists = [v.x for v in self._buttons if v.spec.group == "list"]
        right = min(lists) - pad if lists else float(w)
        tops = [v.y for v in self._buttons if v.spec.group == "options"]
        top = min([self._title_bottom, *tops]) - pad
        return left, self._bar_top + self._banner_line, right, top

    def rects(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        """Every element the HUD draws now, named, with its rectangle (x, y from the HUD's
        bottom-left, width, height): the buttons, the title panel, the banner, the sheet, the
        labels at scene positions and their callouts, the tooltip."""
        out: list[tuple[str, tuple[float, float, float, float]]] = [
            (f"button {v.spec.label!r}", (v.x, v.y, v.w, v.h)) for v in self._buttons
        ]
        boxes = [("title panel", self.panel), ("banner", self.banner_box)]
        boxes += [("tooltip", self.tip_box)] + [("callout", box) for box in self._callouts]
        for name, box in boxes:
            if box.visible:
                out.append((name, (box.x, box.y, box.width, box.height)))
        if self.sheet.visible:
            out.append(("sheet", (self.sheet.x, self.sheet.y, self.sheet.width, self.sheet.height)))
        for label in self._world:
            if label.visible:
                w, h = label.content_width, label.content_height
                out.append((f"label {label.text!r}", (label.x - w / 2, label.y - h / 2, w, h)))
        return out

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
        # The title panel stops short of the option buttons in the top-right corner and of
        # the list under them, which reaches up beside it.
        corner = [v.x for v in self._buttons if v.spec.group in ("options", "list")]
        right = (min(corner) if corner else w) - pad
        room = max(fs * 4.0, right - left - pad * 0.8)
        # Title and counter keep one line each: smaller text where the room is short. Each is
        # measured from the font and laid out once, with its text and size together (a new
        # game's title was laid out at the old size, at the full size, then at the size that
        # fits: three layouts in its first frame, two at every F3).
        status = self._status
        for label, text, size, bold in (
            (self.title, status.title, fs * 1.5, True),
            (self.counter, status.counter, float(fs), False),
        ):
            fitted = round(size)
            wide = label_width(text, fitted, bold)
            if wide > room:
                fitted = max(7, int(size * room / wide))
            restyle(label, text=text, font_size=fitted)
        self.title.position = _pixel(left, h - pad * 1.2 - self.title.font_size * 1.3)
        self.counter.position = _pixel(left, self.title.y - self.counter.font_size * 2.0)
        # The help (F1) reaches down at most to the bar: smaller text while it is longer.
        below = self.counter.y - fs * 0.8 - (self._bar_height + fs)
        help_size = max(9, round(fs * 0.8))
        # The size found for the same text, room and height is taken again: trying the sizes
        # anew laid the help out once a size at every new banner.
        fit = (status.help, round(room), below, help_size)
        # No help (most of the time): its label keeps its width, and is not laid out again
        # for a new room (the first F3).
        help_width = round(room) if status.help or self.help.width is None else self.help.width
        if self._help_fit[0] == fit:
            restyle(self.help, text=status.help, width=help_width, font_size=self._help_fit[1])
        else:
            restyle(self.help, text=status.help, width=help_width, font_size=help_size)
            while self.help.text and self.help.content_height > below and help_size > 6:
                help_size -= 1
                restyle(self.help, font_size=help_size)
            self._help_fit = (fit, help_size)
        self.help.position = _pixel(left, self.counter.y - fs * 0.8 - self.help.content_height)
        lines = [self.title, self.counter] + ([self.help] if self.help.text else [])
        width = min(max(lb.content_width for lb in lines), room) + pad * 1.6
        bottom_line = self.help.y if self.help.text else self.counter.y - fs * 0.5
        # The scene keeps below the title panel; F1's long help may cover it for a while.
        self._title_bottom = self.counter.y - fs * 1.2 if self.f1_help else bottom_line - fs
        self.panel.position = (pad * 0.8, bottom_line - fs * 0.7)
        self.panel.width = width
        self.panel.height = h - pad * 0.6 - self.panel.y
        bottom = self._bar_height
        # The sheet fills the left edge from under the title panel down to the button bar.
        self.sheet.layout(
            pad * 0.8, self.panel.y - pad * 0.5, bottom + pad * 0.3, round(fs * 0.8), w * 0.55
        )
        # The banner sits centred just above the bottom button bar, like a subtitle, so it
        # never covers the title panel or the option buttons at the top; long messages wrap.
        # With a sheet docked, it is centred in the room right of it.
        x0 = self.sheet.x + self.sheet.width + pad * 0.5 if self.sheet.visible else 0.0
        self._place_banner(x0, bottom, fs)
        panel_right = self.panel.x + self.panel.width
        box = self.banner_box
        if self.panel.y < box.y + box.height and box.x < panel_right and self.banner.text:
            # A tall title panel (a long help) reaches the banner: the banner moves right of it,
            # or, with no room there (a small window with a sheet docked), the sheet gives way
            # to the message for as long as it shows.
            beside = panel_right + pad * 0.5
            if w - beside >= w * 0.3 or not self.sheet.visible:
                self._place_banner(max(x0, beside), bottom, fs)
            else:
                self.sheet.hide()
                self._place_banner(0.0, bottom, fs)
        listed = [v for v in self._buttons if v.spec.group == "list"]
        edge = min((v.x for v in listed), default=w)
        if listed and box.x + box.width > edge and box.y + box.height > min(v.y for v in listed):
            # A message tall enough to reach the move list keeps left of it (elsewhere
            # nothing moves), from where it started (a sheet's edge, or the title panel's).
            self._place_banner(self._banner_from, bottom, fs, edge)
        self._bar_top = bottom
        self._banner_line = self.banner.font_size * 3.1  # one line and its margins
        visible = bool(self.banner.text)
        self.banner_box.visible = visible
        self.banner.visible = visible

    def _place_banner(self, x0: float, bottom: float, fs: int, right: float = 0.0) -> None:
        """The banner centred in the room right of ``x0`` (and left of ``right``: default the
        window's edge), its box's bottom at ``bottom``; long messages wrap."""
        w, self._banner_from = right or self.size[0], x0
        room = max(fs * 6.0, w - x0)
        text, size = self._status.banner, round(fs * 1.15)
        width = round(max(fs * 5, room - fs * 4))
        kept = self.banner.width
        if kept is not None and width != kept and _one_line(text, size, width, kept):
            # A line that fits both widths is drawn the same in either (centred): the label
            # keeps its width, and is not laid out again (F3's column narrows the room).
            width = kept
        restyle(self.banner, text=text, font_size=size, width=width)
        margin = self.banner.font_size * 0.8
        middle = x0 + room / 2
        self.banner.position = _pixel(middle, bottom + margin)
        bw = min(self.banner.content_width + fs * 2.4, room - fs)
        bh = self.banner.content_height + 2 * margin
        self.banner_box.width = bw
        self.banner_box.height = bh
        self.banner_box.position = (middle - bw / 2, bottom)

    def _rebuild_buttons(self) -> None:
        """Button views for the specs, placed by :func:`place_buttons` (a move list that does
        not fit keeps its newest entries). The views made before are used again, their text,
        size and place changed only where they differ: a new label (and its glyphs, laid out
        again) for every button at every change of the bar held up a frame each time a move
        or the overlay changed it."""
        fs = self.font_size()
        groups = {g: [s for s in self._specs if s.group == g] for g in GROUP_FONT}
        texts = {
            g: [f"{s.label}  {s.key}" if s.key else s.label for s in specs]
            for g, specs in groups.items()
        }
        widths = {
            g: [self.text_width(t, fs * GROUP_FONT[g]) for t in ts] for g, ts in texts.items()
        }
        placed = place_buttons(widths, self.size, fs)
        self._bar_rows = placed.rows
        self._bar_height = placed.bar_top
        old, self._buttons = self._buttons, []
        # A label of the same text is the cheapest to use again (nothing to lay out).
        spare: dict[str, list[_ButtonView]] = {}
        for view in old:
            spare.setdefault(view.label.text, []).append(view)
        wanted: list[tuple[Button, str, float, tuple[float, float, float, float]]] = []
        for group, specs in groups.items():
            rects = placed.rects.get(group, [])
            first = len(specs) - len(rects)  # a list keeps its newest entries
            size = fs * GROUP_FONT[group] * placed.scale
            for spec, text, where in zip(specs[first:], texts[group][first:], rects, strict=True):
                wanted.append((spec, text, size, where))
        fresh: list[_ButtonView | None] = [
            spare[text].pop() if spare.get(text) else None for _spec, text, _size, _rect in wanted
        ]
        leftover = [view for views in spare.values() for view in views]
        for (spec, text, size, (x, y, bw, bh)), found in zip(wanted, fresh, strict=True):
            if found is None and leftover:
                found = leftover.pop()
            if found is None:
                label = Label(text, font_name=FONT, font_size=size, anchor_x="center",
                              anchor_y="center", batch=self.batch, group=self.front)  # fmt: skip
                box = shapes.RoundedRectangle(
                    x, y, bw, bh, radius=min(bh, bw) * 0.3, batch=self.batch, group=self.back
                )
                view = _ButtonView(spec, box, label)
            else:
                view = found
                view.spec = spec
                restyle(view.label, text=text, font_size=size)
                box = view.rect
                if (box.x, box.y, box.width, box.height) != (x, y, bw, bh):
                    box.position = (x, y)
                    box.width, box.height = bw, bh
                    box.radius = min(bh, bw) * 0.3
            view.x, view.y, view.w, view.h = x, y, bw, bh
            place = _pixel(x + bw / 2, y + bh / 2)
            if tuple(view.label.position) != place:
                view.label.position = place
            self._buttons.append(view)
        for view in leftover:
            view.rect.delete()
            view.label.delete()
        self._refresh_buttons()

    def text_width(self, text: str, size: float) -> float:
        """How wide a label of ``text`` at ``size`` is, from the font's glyphs: a label laid
        out again for each text measured held up the frames the button bar changed in (the
        first F3, a game's first frame: 0.1-0.3 s with the menu's and a game's buttons)."""
        return float(label_width(text, size))

    def _refresh_buttons(self) -> None:
        for view in self._buttons:
            try:
                view.enabled = bool(view.spec.enabled())
            except Exception:  # a broken predicate disables its button, never the HUD
                view.enabled = False
            hovered = view.spec.command == self.hover
            if not view.enabled:
                look = (DISABLED_BOX, DISABLED_TEXT)
            elif hovered:
                look = ((246, 190, 70, OPAQUE), (30, 24, 10, 255))
            else:
                look = ((28, 38, 58, OPAQUE), (255, 255, 255, 255))
            # Only a change is set: pyglet recolours every letter of a label at each set,
            # and the HUD refreshes its buttons every frame.
            if view.look != look:
                view.rect.color, view.label.color = look
                view.look = look


def font_size(size: tuple[int, int], scale: float = 1.0) -> int:
    """The HUD's body text size in window units for a window of ``size`` (window units) on
    a screen ``scale`` times denser than 96 dpi (:func:`ui_scale`): a fiftieth of the height,
    less in a window narrower than 4:3, and between 10 and 44 times ``scale``.

    >>> font_size((800, 600)), font_size((1920, 1080)), font_size((3840, 2160))
    (12, 22, 43)
    >>> font_size((3840, 2160), 2.0), font_size((640, 400), 2.0)
    (43, 20)
    """
    w, h = max(1, size[0]), max(1, size[1])
    s = _finite_scale(scale)
    return round(min(44.0 * s, max(10.0 * s, min(h / 50.0, w / 64.0))))


def ui_scale(window_size: tuple[int, int], framebuffer_size: tuple[int, int], dpi: float) -> float:
    """How much larger than at 96 dpi the HUD should be, in window units: the screen's
    ``dpi`` over 96, less what the framebuffer already gives (a HiDPI window whose window
    units are several pixels each, as on macOS, needs no more). Never below 1.

    >>> ui_scale((800, 600), (800, 600), 192.0)   # X11, Windows at 200%
    2.0
    >>> ui_scale((800, 600), (1600, 1200), 192.0)  # macOS Retina
    1.0
    """
    ratio = max(1.0, framebuffer_size[0] / max(1, window_size[0]))
    density = dpi / 96.0 if math.isfinite(dpi) and dpi > 0 else 1.0
    return _finite_scale(density / ratio)


def _one_line(text: str, size: int, *widths: float) -> bool:
    """Whether ``text`` in the banner's bold font at ``size`` stands on one line in a label
    as wide as each of ``widths`` (with a pixel to spare)."""
    return "\n" not in text and label_width(text, size, True) + 1 < min(widths)


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    """A label's place on whole pixels: a glyph one pixel thin (a hyphen, a full stop) drawn
    half a pixel off is sampled away ("1. e2-e4" read "1. e2 e4")."""
    return round(x), round(y), 0


def _finite_scale(scale: float) -> float:
    """``scale`` within 1..4 (a bad value: 1)."""
    if not isinstance(scale, int | float) or not math.isfinite(scale):
        return 1.0
    return min(4.0, max(1.0, float(scale)))
