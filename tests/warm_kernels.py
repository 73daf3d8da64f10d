"""The games' numba kernels compiled once a test run, in one process, before the tests use them.

On a clean clone numba's cache (``.pytest_cache/numba``, see the root ``conftest.py``) is
empty, and every process that reaches a kernel first compiles it: each pytest-xdist worker,
and each ``gamehall`` the tests start. That was the same minute and more of compiling (the
endgame solver alone is about 40 CPU seconds) paid three or four times over, by whichever
tests came first. (The cache ``.ci/run`` keeps for every clone on the machine is full after
its first run with the same kernels: the warm-up then only loads them.)

So a parallel run starts one process (``python -m tests.warm_kernels``) that compiles the
kernels every player and map maker runs (:func:`game.logic.reversi.players.prepare`,
:func:`game.logic.grab.making.prepare`) into the cache, holding an exclusive lock on a file
(:data:`LOCK_ENV` names it) until it is done. A test process that is about to compile a
kernel (:func:`install`), or a test about to start a program (:func:`wait_until_warm`),
first waits for that lock, and then loads what it needs from the cache. The wait is for an
event (the warm-up's end), never for a time; with a full cache the warm-up only loads, in a
few seconds. If the warm-up fails, the tests compile for themselves, as before.

Collecting the tests imports Reversi's kernels module, which runs a kernel as it is imported
(the edge stability table). The warm-up compiles that one first and then releases a second
lock (:data:`IMPORT_LOCK_ENV`): a test process waits only for that one while it collects,
and then runs the tests that need no kernel while the warm-up compiles the rest, instead of
leaving its core idle for the whole warm-up (a minute and a half on 2 cores).
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
#: The one naming the lock released once the kernels that run on import are compiled.
IMPORT_LOCK_ENV = "GAMEHALL_TEST_WARM_IMPORT_LOCK"

_waited = {LOCK_ENV: threading.Event(), IMPORT_LOCK_ENV: threading.Event()}
_waiting = threading.Lock()
_collected = threading.Event()


def start(folder: Path) -> subprocess.Popen[bytes]:
    """Start the warm-up beside this process, both locks already held (no test can slip in
    before it), and name the locks in the environment that workers and programs inherit.
    The locks and the warm-up's log are made in ``folder``, which must be this run's own."""
    folder.mkdir(parents=True, exist_ok=True)
    locks = {LOCK_ENV: folder / "warm-up.lock", IMPORT_LOCK_ENV: folder / "warm-up-imports.lock"}
    fds = [os.open(lock, os.O_RDWR | os.O_CREAT, 0o644) for lock in locks.values()]
    try:
        for fd in fds:  # the child's copies keep them until it releases them or exits
            fcntl.flock(fd, fcntl.LOCK_EX)
        log = open(folder / "warm-up.log", "wb")  # noqa: SIM115 - the child writes it
        env = {**os.environ, "GAMEHALL_HOME": tempfile.mkdtemp(prefix="gamehall-warm-")}
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.warm_kernels", *map(str, fds)],
            cwd=Path(__file__).resolve().parents[1],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=fds,
        )
        log.close()
    finally:
        for fd in fds:
            os.close(fd)
    for name, lock in locks.items():
        os.environ[name] = str(lock)
    return process


def _wait(name: str) -> None:
    """Return once no warm-up holds the lock the variable ``name`` names (at once when none
    was started, or after the first wait of this process)."""
    if _waited[name].is_set():
        return
    path = os.environ.get(name)
    with _waiting:
        if path and not _waited[name].is_set():
            fd = os.open(path, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)  # blocks while the warm-up compiles
            finally:
                os.close(fd)  # releases it
        _waited[name].set()


def wait_until_warm() -> None:
    """Return once the warm-up has compiled every kernel (at once when none was started, or
    after the first wait of this process)."""
    _wait(LOCK_ENV)


def collected() -> None:
    """This test process has collected its tests: a compile from now on waits for the whole
    warm-up."""
    _collected.set()


def install() -> None:
    """Make numba wait for the warm-up before it compiles or loads a kernel in this process
    (its first look in the cache comes after the wait, so it finds what the warm-up put
    there): for its first part while the tests are collected, for all of it after."""
    if not os.environ.get(LOCK_ENV):
        return
    from numba.core.dispatcher import Dispatcher

    original = Dispatcher.compile
    if getattr(original, "_waits_for_warm_up", False):
        return

    def compile_after_the_warm_up(self: Any, sig: Any) -> Any:
        _wait(LOCK_ENV if _collected.is_set() else IMPORT_LOCK_ENV)
        return original(self, sig)

    compile_after_the_warm_up._waits_for_warm_up = True  # type: ignore[attr-defined]
    Dispatcher.compile = compile_after_the_warm_up  # type: ignore[method-assign]


def main(fd: int, imports_fd: int) -> int:
    """Compile (or load) the kernels that run on import, release ``imports_fd``, then the
    rest; the inherited lock ``fd`` is released when this process ends, however it ends."""
    from game.logic.reversi import kernels  # noqa: F401 - runs its table kernel on import

    os.close(imports_fd)
    from game.logic.grab import making
    from game.logic.reversi import players

    players.prepare()
    making.prepare()
    del fd
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
