"""The tests' kernel warm-up (tests/warm_kernels.py): a test process waits for it before numba
compiles (while collecting, for its first part only), and the wait ends when the warm-up
does."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests import warm_kernels
from tests.waiting import HANG_S


def test_numba_waits_for_the_warm_up_before_it_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the tests are collected, for the warm-up's first part only (the kernels that run
    as their module is imported): the test process can then run the tests that need no
    kernel while the warm-up compiles the rest. After the collection, for all of it."""
    from numba import njit
    from numba.core import event
    from numba.core.dispatcher import Dispatcher

    monkeypatch.setattr(Dispatcher, "compile", Dispatcher.compile)  # put back afterwards
    monkeypatch.setattr(warm_kernels, "_collected", threading.Event())
    seen: list[str] = []
    monkeypatch.setattr(warm_kernels, "_wait", seen.append)
    monkeypatch.setenv(warm_kernels.LOCK_ENV, str(tmp_path / "warm-up.lock"))
    warm_kernels.install()

    class Compiles(event.Listener):
        def on_start(self, ev: Any) -> None:
            seen.append("compiled")

        def on_end(self, ev: Any) -> None:
            pass

    with event.install_listener("numba:compile", Compiles()):
        assert njit(lambda x: x + 1)(1) == 2
        collecting = len(seen)
        warm_kernels.collected()
        assert njit(lambda x: x + 2)(1) == 3
    assert seen[:2] == [warm_kernels.IMPORT_LOCK_ENV, "compiled"], seen
    assert seen[collecting : collecting + 2] == [warm_kernels.LOCK_ENV, "compiled"], seen


def test_the_wait_ends_when_the_warm_up_ends_not_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stand-in warm-up holds the lock until told to end, and writes a file just before it
    does: the waiter comes back only after that file is there."""
    lock, ended = tmp_path / "warm-up.lock", tmp_path / "ended"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(lock), str(ended)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "holding"
    monkeypatch.setenv(warm_kernels.LOCK_ENV, str(lock))
    monkeypatch.setitem(warm_kernels._waited, warm_kernels.LOCK_ENV, threading.Event())
    found: list[bool] = []

    def wait() -> None:
        warm_kernels.wait_until_warm()
        found.append(ended.exists())

    waiter = threading.Thread(target=wait)
    waiter.start()
    # Still waiting a moment later: a waiter that did not wait has returned by then. (A slow
    # machine can only make this pass when it should not, never fail when it should pass.)
    waiter.join(0.5)
    assert waiter.is_alive() and not found
    holder.stdin.write("end\n")
    holder.stdin.close()
    waiter.join(HANG_S)
    assert holder.wait(HANG_S) == 0
    assert found == [True]
    warm_kernels.wait_until_warm()  # once waited, never again: no lock is opened
    lock.unlink()
    warm_kernels.wait_until_warm()


HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("holding", flush=True)
sys.stdin.readline()
open(sys.argv[2], "w").close()
"""
