"""pytest settings for every run from the repository root, the doctests in game/ included.

pyglet opens a hidden "shadow" window on a real display the moment ``pyglet.window`` is
imported (``pyglet.text`` imports it too); collecting ``game/engine/hud.py`` for its doctests
would then fail on a machine without a display. Headless (EGL) is set here, before any module
is collected; ``tests/conftest.py`` sets the same for the tests.

The compiled kernels of the tests (and of the programs they start, which inherit the
variable) are kept in ``.pytest_cache/numba``, in the checkout: private to the tests, and
kept from one run to the next, as numba's cache was when it lived beside the sources. The
person's own cache folder (:mod:`game.places`) is left alone. Set before ``game`` is imported,
since that is when numba's folder is chosen.

The programs the tests start (``gamehall`` from the virtual environment) import ``game`` from
this checkout too, as pytest does: numba keys its cache by the source file's path, and the
installed copy beside it cost a second compile of every kernel on a clean clone (about 100
CPU seconds). What the wheel holds is checked by ``tests/test_packaging.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).parent / ".pytest_cache" / "numba"))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(Path(__file__).resolve().parent), os.environ.get("PYTHONPATH", "")) if p
)

from game.engine.window import configure_pyglet

configure_pyglet(headless=True)
