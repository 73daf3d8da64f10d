"""The games' numba kernels compiled once a test run, in one process, before the tests use them.

On a clean clone numba's cache (``.pytest_cache/numba``, see the root ``conftest.py``) is
empty, and every process that reaches a kernel first compiles it: each pytest-xdist worker,
and each ``gamehall`` the tests start. That was the same minute and more of compiling (the
endgame solver alone is about 40 CPU seconds) paid three or four times over, by whichever
tests came first.

So a parallel run starts one process (``python -m tests.warm_kernels``) that compiles the
kernels every player and map maker runs (:func:`game.logic.reversi.players.prepare`,
:func:`game.logic.grab.making.prepare`) into the cache, holding an exclusive lock on a file
(:data:`LOCK_ENV` names it) until it is done. A test process that is about to compile a
kernel (:func:`install`), or a test about to start a program (:func:`wait_until_warm`),
first waits for that lock, and then loads what it needs from the cache. The wait is for an
event (the warm-up's end), never for a time; with a full cache the warm-up only loads, in a
few seconds. If the warm-up fails, the tests compile for themselves, as before.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

#: The environment variable naming the lock file the warm-up holds while it compiles.
LOCK_ENV = "GAMEHALL_TEST_WARM_LOCK"

_waited = threading.Event()
_waiting = threading.Lock()


def start(cache: Path) -> subprocess.Popen[bytes]:
    """Start the warm-up beside this process, the lock already held (no test can slip in
    before it), and name the lock in the environment that workers and programs inherit."""
    cache.mkdir(parents=True, exist_ok=True)
    lock = cache / "warm-up.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # the child's copy of fd keeps it until it exits
        log = open(cache / "warm-up.log", "wb")  # noqa: SIM115 - the child writes it
        env = {**os.environ, "GAMEHALL_HOME": tempfile.mkdtemp(prefix="gamehall-warm-")}
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.warm_kernels", str(fd)],
            cwd=Path(__file__).resolve().parents[1],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(fd,),
        )
        log.close()
    finally:
        os.close(fd)
    os.environ[LOCK_ENV] = str(lock)
    return process


def wait_until_warm() -> None:
    """Return once no warm-up holds the lock (at once when none was started, or after the
    first wait of this process)."""
    if _waited.is_set():
        return
    path = os.environ.get(LOCK_ENV)
    with _waiting:
        if path and not _waited.is_set():
            fd = os.open(path, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)  # blocks while the warm-up compiles
            finally:
                os.close(fd)  # releases it
        _waited.set()


def install() -> None:
    """Make numba wait for the warm-up before it compiles or loads a kernel in this process
    (its first look in the cache comes after the wait, so it finds what the warm-up put
    there)."""
    if not os.environ.get(LOCK_ENV):
        return
    from numba.core.dispatcher import Dispatcher

    original = Dispatcher.compile
    if getattr(original, "_waits_for_warm_up", False):
        return

    def compile_after_the_warm_up(self: Any, sig: Any) -> Any:
        wait_until_warm()
        return original(self, sig)

    compile_after_the_warm_up._waits_for_warm_up = True  # type: ignore[attr-defined]
    Dispatcher.compile = compile_after_the_warm_up  # type: ignore[method-assign]


def main(fd: int) -> int:
    """Compile (or load) the kernels; the inherited lock ``fd`` is released when this
    process ends, however it ends."""
    from game.logic.grab import making
    from game.logic.reversi import players

    players.prepare()
    making.prepare()
    del fd
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
