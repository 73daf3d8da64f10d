"""Changing a pyglet label cheaply.

pyglet lays a label out again (its glyphs placed, its vertex lists made anew: about a
millisecond, more on a busy machine) at each change of its text (twice: the old text taken
out, then the new one put in), its size, width, weight or colour, even to the value it has.
The HUD changes several of them at a time whenever a status line or the window changes, and
its frames stalled for that. :func:`restyle` sets only what differs, and lays the label out
once for all of it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["restyle"]


def restyle(label: Any, **changes: Any) -> bool:
    """Give ``label`` (a pyglet ``Label``) the values in ``changes`` (its properties: text,
    font_size, width, weight, color, ...), laid out at most once; nothing is done for those
    it has already. Returns whether anything changed."""
    differ = {name: value for name, value in changes.items() if not _same(label, name, value)}
    if not differ:
        return False
    label.begin_update()
    try:
        for name, value in differ.items():
            setattr(label, name, value)
    finally:
        label.end_update()
    return True


def _same(label: Any, name: str, value: Any) -> bool:
    now = getattr(label, name)
    if isinstance(now, list | tuple) and isinstance(value, list | tuple):
        return tuple(now) == tuple(value)
    return bool(now == value)
