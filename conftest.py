"""pytest settings for every run from the repository root, the doctests in game/ included.

pyglet opens a hidden "shadow" window on a real display the moment ``pyglet.window`` is
imported (``pyglet.text`` imports it too); collecting ``game/engine/hud.py`` for its doctests
would then fail on a machine without a display. Headless (EGL) is set here, before any module
is collected; ``tests/conftest.py`` sets the same for the tests.
"""

from __future__ import annotations

from game.engine.window import configure_pyglet

configure_pyglet(headless=True)
