"""Pause points: where long work in Python may let another thread of the process go first.

A window's process readies the games on a thread of its own while the menu shows (the
descriptions compile in Python, a hundred milliseconds or more for chess), and that thread
holds the interpreter's lock while it works: the drawing thread, which gives the lock up at
every call into the GL or the window system, then waits for it back each time, and its frames
stalled. Long work calls :func:`pause` between its small steps (a generated function compiled,
a piece's program written); on a thread that runs under :func:`paced`, each call runs the
hook given there (the window's: wait until the current frame is drawn), elsewhere it does
nothing, so the same work done on the drawing thread itself, or by a tool, never waits.

>>> seen = []
>>> pause()  # not paced: nothing happens
>>> with paced(lambda: seen.append("waited")):
...     pause()
>>> seen
['waited']
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

__all__ = ["paced", "pause"]

_LOCAL = threading.local()


def pause() -> None:
    """A point where the work may wait: runs the hook of :func:`paced` on this thread, if any."""
    hook: Callable[[], None] | None = getattr(_LOCAL, "hook", None)
    if hook is not None:
        hook()


@contextlib.contextmanager
def paced(hook: Callable[[], None]) -> Iterator[None]:
    """Run ``hook`` at every :func:`pause` reached on this thread inside the block."""
    before = getattr(_LOCAL, "hook", None)
    _LOCAL.hook = hook
    try:
        yield
    finally:
        _LOCAL.hook = before
