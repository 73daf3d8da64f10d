"""Where a design's compiled module lives, and what the files beside it say.

Nothing here loads numba (the window reads these files each frame it shows the progress).

The folder is ``$GAMEHALL_COMPILED_DIR`` when that is set (tests, benchmarks), else
``compiled-rules`` in numba's cache folder, ``$NUMBA_CACHE_DIR``: the ``game`` package sets
that variable in every process before anything imports numba (``game.places.use_numba_cache``:
``cache_dir()/numba``, under ``$GAMEHALL_HOME`` or the person's cache folder), and the logic
layer reads it from there rather than import the application's ``game.places``. So the module
and numba's machine code for it sit side by side under the user's cache folder. Where the
variable is unset (``game.places`` could not make that folder, and said so) the modules go to a
folder of this process's own in the temporary folder: nothing is kept, as numba keeps nothing.

A module is named by :func:`stem`: the design's id and a digest of what decides the module's
text (the description's forms with the parameters bound, the sources of the description's
reader and of the generator, numba's version), so that a process that finds the file imports
it without generating its text again. Beside it (each written whole, then renamed):

- ``STEM.ready``: every function of the module has been compiled and numba holds its machine
  code (the next import loads it);
- ``STEM.refused``: the generator cannot express the design; the file holds the reason;
- ``STEM.design``: the design, pickled, for the worker process that compiles it (:mod:`worker`);
- ``STEM.progress``: how far that process got, a fraction; ``STEM.lock``: its process id while
  it compiles;
- ``STEM.compiling``: locked (:func:`compiling`) by the process importing the module, so that a
  second process waits for the first one's machine code rather than compile it beside it.

A module is used when it is imported (``STEM.ready`` is written again: the module's own file is
never touched, since numba's index of its machine code is keyed by the file's stamp). Modules
none of whose files changed for :data:`KEEP_DAYS` days (an older version's) are removed, with
numba's cache files for them, when a module is next written.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

if sys.platform != "win32":  # a module only Unix has: on Windows no process waits
    import fcntl

from game.logic.rules.compiled.module import VERSION
from game.logic.rules.design import Design

__all__ = [
    "COMPILED_ENV",
    "KEEP_DAYS",
    "compiling",
    "folder",
    "marker",
    "prune",
    "read_marker",
    "stem",
    "write_whole",
]

#: The variable that names the modules' folder outright (tests and benchmarks).
COMPILED_ENV = "GAMEHALL_COMPILED_DIR"
#: A module and the files beside it unused for this many days are removed.
KEEP_DAYS = 30
#: The folders whose sources decide a module's text: the description's reader and the rules
#: the generator shares with the Python back end, and the generator itself.
RULES = Path(__file__).resolve().parents[1]
GENERATOR = Path(__file__).resolve().parent


def folder() -> Path:
    """The folder of the compiled modules (see the module docstring); made if missing."""
    named = os.environ.get(COMPILED_ENV)
    if named:
        found = Path(named)
    elif os.environ.get("NUMBA_CACHE_DIR"):
        found = Path(os.environ["NUMBA_CACHE_DIR"]) / "compiled-rules"
    else:
        found = _own_folder()
    found.mkdir(parents=True, exist_ok=True)
    return found


def stem(design: Design) -> str:
    """The file name (without ``.py``) of ``design``'s module: ``rules_<id>_<digest>``. A design
    not read from forms (made another way: no :attr:`Design.digest`) has no name ahead of its
    text: "" (the caller names it by its text)."""
    if not design.digest:
        return ""
    key = "\0".join((_sources(), design.id, design.digest))
    return f"rules_{ident(design.id)}_{hashlib.sha256(key.encode()).hexdigest()[:20]}"


def marker(name: str, kind: str) -> Path:
    """The file ``<name>.<kind>`` beside the module ``name``."""
    return folder() / f"{name}.{kind}"


def read_marker(name: str, kind: str) -> str | None:
    """The text of ``<name>.<kind>`` (None when there is none)."""
    try:
        return marker(name, kind).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def write_whole(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` under another name first, then rename it: a reader never
    sees half a file."""
    raw = data.encode() if isinstance(data, str) else data
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as handle:
        handle.write(raw)
    os.replace(handle.name, path)


@contextlib.contextmanager
def compiling(name: str) -> Iterator[None]:
    """Hold the lock ``STEM.compiling`` of the module ``name`` while this process imports it
    (compiling it the first time): a process that imports the same module meanwhile (a second
    test process, the window beside a command line) waits here, then loads the machine code
    numba kept instead of compiling the module again. Where the system has no ``fcntl``
    (Windows) or the lock's file cannot be opened, nothing waits."""
    fd = -1
    if sys.platform != "win32":
        with contextlib.suppress(OSError):
            fd = os.open(marker(name, "compiling"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if fd >= 0 and sys.platform != "win32":
            fcntl.flock(fd, fcntl.LOCK_EX)  # released when the file is closed
        yield
    finally:
        if fd >= 0:
            os.close(fd)


def prune(where: Path, now: float | None = None) -> list[str]:
    """Remove the modules in ``where`` (and the files beside them, and numba's cache files for
    them) that no process has used for :data:`KEEP_DAYS` days; the names removed."""
    old = (time.time() if now is None else now) - KEEP_DAYS * 86400
    gone = []
    for path in where.glob("rules_*.py"):
        with contextlib.suppress(OSError):
            name = path.stem
            beside = list(where.glob(f"{name}.*"))
            if max(p.stat().st_mtime for p in beside) >= old:
                continue
            for other in (*beside, *_numba_files(path)):
                other.unlink(missing_ok=True)
            gone.append(name)
    return gone


def ident(word: str) -> str:
    """``word`` with every character that is not a letter or a digit as ``_``."""
    return "".join(ch if ch.isalnum() else "_" for ch in word)


@functools.cache
def _sources() -> str:
    """A digest of the generator's version, numba's, and the reader's and the generator's
    modules (read once a process)."""
    digest = hashlib.sha256(f"{VERSION}\0{version('numba')}\0".encode())
    for path in (*sorted(RULES.glob("*.py")), *sorted(GENERATOR.glob("*.py"))):
        digest.update(f"{path.parent.name}/{path.name}\0".encode() + path.read_bytes())
    return digest.hexdigest()


@functools.cache
def _own_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="gamehall-compiled-rules-"))


def _numba_files(path: Path) -> list[Path]:
    """numba's cache files for the module at ``path`` (its index and machine code)."""
    from numba.core import caching, config  # only where a module is written: numba is loaded

    subpath = getattr(caching._CacheLocator, "get_suitable_cache_subpath", None)
    cache_dir = str(getattr(config, "CACHE_DIR", "") or "")
    if subpath is None or not cache_dir:
        return []
    return list(Path(cache_dir, subpath(str(path))).glob(f"{path.stem}.*"))
