"""A design's first compile in a worker process, so that no window, search or hint waits for it.

:func:`start` writes the design beside its module (``STEM.design``, pickled) and starts a new
Python process, at a lower priority (nice +10), that compiles it
(:func:`game.logic.rules.compiled.searcher.compile_all`: the rules module, then the
search's) and notes how far it got in
``STEM.progress``; ``STEM.lock`` holds its process id meanwhile, so that no second process
compiles the same module (one whose process has died is started again). Any process reads the
progress with :func:`progress`: the window, the worker a search runs in, the command line.
It is a plain process started with :mod:`subprocess`, not a thread (numba holds the
interpreter's lock while it compiles) nor one of the pool's workers
(:mod:`game.logic.workers.pool`: a search that asks for the back end runs in one of those,
which may not start processes of the pool's kind); it lives on when the one that started it
ends, so the next start finds the module compiled.

At most :data:`AT_ONCE` compiles run at once on the machine (each takes a processor and a
quarter of a gigabyte): a player who opens one described game after another, or a server
whose matches name many, starts the next compile when one ends (the window asks again every
few seconds and says meanwhile that its compile waits).

``GAMEHALL_COMPILE_WORKER=0`` starts none (the tests: a compile they did not ask for would take
the processor from the rest of the run; they build what they test with ``compiled_rules``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable

from game.logic.rules.compiled.cache import folder, marker, read_marker, stem, write_whole
from game.logic.rules.design import Design

__all__ = [
    "AT_ONCE",
    "WAITING",
    "WORKER_ENV",
    "progress",
    "readying",
    "reporter",
    "standing",
    "start",
    "under_way",
]

log = logging.getLogger(__name__)

#: ``0`` here: no compile is started in a worker process.
WORKER_ENV = "GAMEHALL_COMPILE_WORKER"
#: Compiles under way at once, counted by their live locks in the modules' folder.
AT_ONCE = max(1, (os.cpu_count() or 2) // 2)
#: The banner's words while a compile waits for one of the others to end.
WAITING = "Compiling the rules (first start only): waiting for another game's compile"
#: A lock with no process id yet (being written) counts as held for this many seconds.
YOUNG_S = 30.0
#: Where a lock's process cannot be asked after (Windows), it is held for this many seconds.
STALE_S = 3600.0
#: What the new process runs: the compile of the module named by its last argument.
CHILD = "import sys; from game.logic.rules.compiled.searcher import compile_all; "
CHILD += "sys.exit(compile_all(sys.argv[1]))"
#: The processes started here, by module: polled, so that one that ended is not kept a zombie.
_STARTED: dict[str, subprocess.Popen[bytes]] = {}
#: The modules whose compile could not be started here (their design does not pickle...).
_UNSTARTABLE: set[str] = set()


def start(design: Design, name: str) -> bool:
    """Start compiling ``design``'s module ``name`` in a new process, unless one is under way,
    an earlier one failed (``STEM.failed``), :data:`AT_ONCE` others are under way, or starting
    is switched off (see the module docstring); True when one was started."""
    if os.environ.get(WORKER_ENV) == "0" or name in _UNSTARTABLE:
        return False
    if marker(name, "failed").is_file() or under_way() >= AT_ONCE:
        return False
    lock = marker(name, "lock")
    for _ in range(2):
        try:
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            if _held(name):
                return False
            lock.unlink(missing_ok=True)  # its process died: start again
    else:
        return False
    try:
        write_whole(marker(name, "design"), pickle.dumps(design, pickle.HIGHEST_PROTOCOL))
        with open(marker(name, "log"), "ab") as errors:
            child = subprocess.Popen(
                [sys.executable, "-c", CHILD, name],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
            )
        os.write(handle, str(child.pid).encode())
        _STARTED[name] = child
    except Exception as exc:  # a design that cannot travel, no process: it plays on Python
        log.warning("cannot compile %s in a worker process: %s", design.id, exc)
        lock.unlink(missing_ok=True)
        _UNSTARTABLE.add(name)  # said once: not tried again in this process
        return False
    finally:
        os.close(handle)
    log.info("compiling %s in a worker process (%d) in %s", design.id, child.pid, folder())
    return True


def readying(design: Design) -> str:
    """For the window, which never loads the compiled code itself (its searches think in
    worker processes): start ``design``'s first compile in a worker where it is needed, and say how
    far it got (``"Compiling the rules (first start only): 40%"``); "" when nothing is under
    way (compiled, refused, not startable here). Reads a few files; loads no numba."""
    name = stem(design)
    try:
        if not name or any(marker(name, k).is_file() for k in ("ready", "refused", "failed")):
            return ""
        done = progress(name)
        if done is None and start(design, name):
            done = 0.0
        elif done is None and os.environ.get(WORKER_ENV) != "0" and under_way() >= AT_ONCE:
            return WAITING
    except OSError as exc:  # a cache folder that cannot be made or written: Python it is
        log.debug("cannot compile %s: %s", design.id, exc)
        return ""
    return "" if done is None else f"Compiling the rules (first start only): {int(done * 100)}%"


def standing(name: str, unknown: str | None = None) -> str | None:
    """What the files of module ``name`` say of the back end its design plays on:
    "compiled", "python: " and the form the generator refused, "python: compiling, 40% (first
    start only)", "python: the compile failed (...)"; ``unknown`` when they say nothing yet."""
    if marker(name, "ready").is_file():
        return "compiled"
    for kind, words in (("refused", "{}"), ("failed", "the compile failed ({})")):
        text = read_marker(name, kind)
        if text is not None:
            return "python: " + words.format(text.strip())
    done = progress(name)
    if done is not None:
        return f"python: compiling, {int(done * 100)}% (first start only)"
    return unknown


def progress(name: str) -> float | None:
    """How far the compile of module ``name`` under way got (0 to 1); None when none is."""
    if not _held(name):
        return None
    text = read_marker(name, "progress")
    try:
        return min(1.0, max(0.0, float(text or 0.0)))
    except ValueError:
        return 0.0


def under_way() -> int:
    """How many compiles are under way in the modules' folder (their locks held)."""
    return sum(_held(lock.name.removesuffix(".lock")) for lock in folder().glob("*.lock"))


def _held(name: str) -> bool:
    """Whether the lock of ``name`` is held: its process lives (or it is being written)."""
    child = _STARTED.get(name)
    if child is not None and child.poll() is not None:
        del _STARTED[name]
        return False
    lock = marker(name, "lock")
    try:
        text = lock.read_text(encoding="ascii").strip()
        age = time.time() - lock.stat().st_mtime
        if not text or sys.platform == "win32":  # there os.kill(pid, 0) would end it
            return age < (YOUNG_S if not text else STALE_S)
        os.kill(int(text), 0)
    except (OSError, ValueError):
        return False
    return True


def reporter(name: str) -> Callable[[float], None]:
    """The ``report(fraction)`` of the compiling process: ``STEM.progress`` written anew at
    each whole percent."""
    said = [-1]

    def report(fraction: float) -> None:
        percent = int(fraction * 100)
        if percent != said[0]:
            said[0] = percent
            with contextlib.suppress(OSError):
                write_whole(marker(name, "progress"), f"{fraction:.3f}")

    return report
