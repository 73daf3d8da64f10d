"""Where the window opens: its size and place remembered per monitor, and brought back onto
the monitor it opens on.

A :class:`Monitor` is a rectangle of the virtual desktop (pyglet's screens: x and y from the
desktop's top-left, as ``Window.set_location`` takes them) with a name made from it. The
settings keep the window's size and place on each monitor (:class:`~game.settings.
WindowSettings`): :func:`record` notes them (on close, resize and move), :func:`restore`
picks the monitor to open on (the one the window was on last, when it is still there, else
the first) and that monitor's size and place, shrunk and moved so the whole window lies on
it. Pure arithmetic: :func:`monitors` alone asks pyglet.

>>> from game.settings import WindowSettings
>>> small = Monitor(0, 0, 1024, 768)
>>> saved = WindowSettings(width=1920, height=1200, x=3000, y=900)
>>> restore(saved, [small])
((1024, 768), (0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.settings import WindowPlace, WindowSettings

__all__ = ["Monitor", "monitors", "record", "restore"]

#: The smallest window the Director opens (pyglet's minimum size is set to it too).
MIN_SIZE = (640, 400)


@dataclass(frozen=True)
class Monitor:
    """One monitor's rectangle on the virtual desktop (x, y from its top-left)."""

    x: int
    y: int
    width: int
    height: int

    @property
    def name(self) -> str:
        """The key the settings keep the window's place under: ``WxH+X+Y``."""
        return f"{self.width}x{self.height}+{self.x}+{self.y}"

    def overlap(self, x: int, y: int, w: int, h: int) -> int:
        """How many pixels of the rectangle (x, y, w, h) lie on this monitor."""
        dx = min(x + w, self.x + self.width) - max(x, self.x)
        dy = min(y + h, self.y + self.height) - max(y, self.y)
        return max(0, dx) * max(0, dy)


def monitors(display: Any = None) -> list[Monitor]:
    """pyglet's screens as monitors (the default screen first); empty when none can be
    asked (headless)."""
    try:
        import pyglet

        display = display or pyglet.display.get_display()
        screens = list(display.get_screens())
        default = display.get_default_screen()
    except Exception:  # no display server, or a platform that cannot tell
        return []
    ordered = [default, *(s for s in screens if s is not default)]
    return [Monitor(int(s.x), int(s.y), int(s.width), int(s.height)) for s in ordered]


def restore(
    saved: WindowSettings, screens: Sequence[Monitor]
) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """The size and place (None: the system's choice) to open the window with."""
    size = (saved.width, saved.height)
    place = (saved.x, saved.y) if saved.x is not None and saved.y is not None else None
    if not screens:
        return _at_least(size), place
    by_name = {m.name: m for m in screens}
    monitor = by_name.get(saved.monitor)
    if monitor is None and place is not None:
        # No name saved (an older file), or that monitor is gone: the one under the place.
        px, py = place
        monitor = max(screens, key=lambda m: m.overlap(px, py, *size))
        if monitor.overlap(px, py, *size) == 0:
            monitor = None
    monitor = monitor or screens[0]
    kept = saved.monitors.get(monitor.name)
    if kept is not None:
        size, place = (kept.width, kept.height), (kept.x, kept.y)
    elif place is not None and monitor.overlap(*place, *size) == 0:
        place = None  # saved on a monitor that is not there: centre it on this one
    return _clamp(size, place, monitor)


def record(
    saved: WindowSettings,
    size: tuple[int, int],
    place: tuple[int, int] | None,
    screens: Sequence[Monitor],
) -> None:
    """Note the window's ``size`` and ``place`` in ``saved``: as the last ones, and as its
    size and place on the monitor that holds most of it."""
    width, height = max(1, int(size[0])), max(1, int(size[1]))
    saved.width, saved.height = width, height
    if place is None:
        return
    x, y = int(place[0]), int(place[1])
    saved.x, saved.y = x, y
    if not screens:
        return
    monitor = max(screens, key=lambda m: m.overlap(x, y, width, height))
    if monitor.overlap(x, y, width, height) == 0:
        return
    saved.monitor = monitor.name
    saved.monitors[monitor.name] = WindowPlace(width, height, x, y)


def _at_least(size: tuple[int, int]) -> tuple[int, int]:
    return max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1])


def _clamp(
    size: tuple[int, int], place: tuple[int, int] | None, monitor: Monitor
) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """``size`` no larger than ``monitor`` (nor smaller than :data:`MIN_SIZE` where it
    has room) and ``place`` moved so the whole window lies on it (None: centred)."""
    w = min(max(size[0], MIN_SIZE[0]), monitor.width)
    h = min(max(size[1], MIN_SIZE[1]), monitor.height)
    if place is None:
        place = (monitor.x + (monitor.width - w) // 2, monitor.y + (monitor.height - h) // 2)
    x = min(max(place[0], monitor.x), monitor.x + monitor.width - w)
    y = min(max(place[1], monitor.y), monitor.y + monitor.height - h)
    return (w, h), (x, y)
