"""Where Gamehall keeps what it makes for itself: the compiled engines' cache.

The settings, statistics and screenshots live in :mod:`game.settings`'s folders; the machine
code that numba compiles for the engines (Reversi's search kernels, MasterGrab's map) lives in
:func:`cache_dir` ``/numba``: ``$GAMEHALL_HOME/cache/numba`` when ``GAMEHALL_HOME`` is set
(tests, a portable install), else the platform's user cache folder (``~/.cache/gamehall`` on
Linux). Numba would otherwise keep it in ``__pycache__`` beside the installed package, where
every reinstall (and every new virtual environment) throws it away and the first computer
move then waits a minute or more for a compile.

:func:`use_numba_cache` points numba there. Numba reads ``NUMBA_CACHE_DIR`` once, when it is
imported, so the package itself calls it (``game/__init__.py``): every way in (the
``gamehall`` command, ``python -m game``, the worker processes, a test, a tool) imports the
package before any module that imports numba. A ``NUMBA_CACHE_DIR`` set by the person is
kept. A folder that cannot be made or written is logged and left to numba's own choice, which
is what it did before; nothing fails for it.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Mapping, MutableMapping
from pathlib import Path

import platformdirs

from game.errors import GamehallError

__all__ = [
    "APP_NAME",
    "HOME_ENV",
    "NUMBA_CACHE_ENV",
    "HomeError",
    "cache_dir",
    "home_from_env",
    "use_numba_cache",
]

log = logging.getLogger(__name__)

#: The name of the platform folders ("gamehall").
APP_NAME = "gamehall"
#: The environment variable that moves every folder Gamehall writes to.
HOME_ENV = "GAMEHALL_HOME"
#: Numba's own variable for its cache folder.
NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"


class HomeError(GamehallError, ValueError):
    """``GAMEHALL_HOME`` names no folder Gamehall can use; the message says why."""


def home_from_env(environ: Mapping[str, str] | None = None) -> Path | None:
    """``$GAMEHALL_HOME`` with a leading ``~`` or ``~user`` expanded; None when it is unset or
    empty. Raises :class:`HomeError` when the ``~`` cannot be expanded (no such user, no
    home folder known).

    >>> home_from_env({HOME_ENV: "/tmp/gh"}).name
    'gh'
    >>> home_from_env({HOME_ENV: "~nosuchuser/x"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    game.places.HomeError: GAMEHALL_HOME='~nosuchuser/x': cannot expand '~nosuchuser' (no such ...
    """
    env = os.environ if environ is None else environ
    home = env.get(HOME_ENV)
    if not home:
        return None
    try:
        return Path(home).expanduser()
    except RuntimeError:  # pathlib: "Could not determine home directory."
        user = home.split("/", 1)[0].split(os.sep, 1)[0]
        shown = home if len(home) <= 80 else home[:77] + "..."
        raise HomeError(
            f"{HOME_ENV}={shown!r}: cannot expand {user!r} (no such user or home folder); "
            "set it to a folder"
        ) from None


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder for caches: ``$GAMEHALL_HOME/cache`` when that is set and non-empty, else
    the platform's user cache folder for "gamehall" (not created here); raises
    :class:`HomeError` as :func:`home_from_env` does."""
    home = home_from_env(environ)
    if home is not None:
        return home / "cache"
    return Path(platformdirs.user_cache_dir(APP_NAME))


def use_numba_cache(environ: MutableMapping[str, str] | None = None) -> Path | None:
    """Set ``NUMBA_CACHE_DIR`` in ``environ`` (default: this process's environment, which
    child processes inherit) to ``cache_dir()/numba``, made if missing, and return it.

    A ``NUMBA_CACHE_DIR`` already set is kept and returned. When the folder cannot be made or
    written (a read-only home, a file in its place), the reason is logged, nothing is set and
    None is returned: numba then caches where it did before (beside the package, or its own
    user folder), or compiles every time."""
    env = os.environ if environ is None else environ
    if env.get(NUMBA_CACHE_ENV):
        return Path(env[NUMBA_CACHE_ENV])
    try:
        folder = cache_dir(env) / "numba"
    except HomeError as exc:  # said by the command that needs the home folder, exit status 2
        log.debug("%s", exc)
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()  # writable, as numba will need it
    except OSError as exc:
        log.warning(
            "cannot keep compiled code in %s (%s); numba caches where it can",
            folder,
            exc.strerror or exc,
        )
        return None
    env[NUMBA_CACHE_ENV] = str(folder)
    return folder
