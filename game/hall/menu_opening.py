"""A game opened from the menu before its scene module is imported (the window's warm-up has
not got to it yet, or is importing it now): the module is imported on a thread of its own, and
the menu opens the game once it is in, so that the drawing thread never waits for an import
(MasterGrab's took 0.5-2 s of the frame it opened in on a busy machine)."""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading

__all__ = ["Opening", "imported"]


class Opening:
    """The game ``game`` being opened: its scene module ``module`` imported on a thread."""

    def __init__(self, game: str, module: str) -> None:
        self.game = game
        self.thread = threading.Thread(
            target=_import, args=(module,), name=f"open-{game}", daemon=True
        )
        self.thread.start()

    def done(self) -> bool:
        """Whether the import has ended (the game may open now)."""
        return not self.thread.is_alive()


def imported(module: str) -> bool:
    """Whether ``module`` is imported, all of it: one that another thread (the warm-up) is
    importing now is in ``sys.modules`` already, and an import of it waits for that one."""
    found = sys.modules.get(module)
    spec = getattr(found, "__spec__", None)
    return found is not None and not getattr(spec, "_initializing", False)


def _import(module: str) -> None:
    """Import ``module`` (a thread's work). A failure is left to the switch, which imports it
    again on the drawing thread and says why."""
    with contextlib.suppress(Exception):
        importlib.import_module(module)
