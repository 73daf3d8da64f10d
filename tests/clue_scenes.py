"""What the Cluedo scene tests share: the shared headless Director lent to a Cluedo scene
(in a window of a given size) and given back as it was, and a scene opened on it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from game.engine.director import Director
from game.games.clue.controller import open_table
from game.registry import MemorySession


@contextmanager
def lent(director: Director, size: tuple[int, int] | None = None) -> Iterator[None]:
    """The Director for a test of the Cluedo scene: resized to ``size`` when given, then its
    size, its tweens and its registered Cluedo scene as they were."""
    before = director.factories.get("clue")
    old = director.window_size()
    if size is not None:
        director.on_resize(*size)
    try:
        yield
    finally:
        director.tweens.cancel_all()
        director.on_resize(*old)
        if before is not None:
            director.register("clue", before)


def open_clue(director: Director, options: dict[str, Any], **overrides: Any) -> Any:
    """The Cluedo scene (the game, or the assistant with ``assistant=True``) entered on
    ``director`` with these option values, the overlay closed."""
    session = MemorySession(options=options)
    director.register("clue", lambda: open_table(session, **overrides))
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("clue")
    return director.controller
