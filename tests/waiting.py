"""How the tests wait: for an event the code under test reports (a line it prints, a file it
writes, a future that completes, a flag it sets), never for a length of time.

A busy machine (the whole suite in parallel beside other jobs) makes everything slower, so a
test that gives a process "60 s" or asserts "under 1 s" fails there for no fault of the code.
:data:`HANG_S` bounds every wait only so that a real hang ends the run with a message instead
of never; it never decides a result.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

#: The longest any wait in the tests may last: a guard against a hang, not a measurement.
HANG_S = 600.0


def read_until(fd: int, needle: bytes, seen: bytes = b"") -> bytes:
    """What ``fd`` (a pipe or a pseudo-terminal) gives until ``needle`` is in it, the end of
    the stream, or :data:`HANG_S`; returns all that was read, ``seen`` first."""
    deadline = time.monotonic() + HANG_S
    while needle not in seen and time.monotonic() < deadline:
        if not select.select([fd], [], [], 1.0)[0]:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # a pseudo-terminal whose other end closed
            break
        if not chunk:
            break
        seen += chunk
    return seen


def read_line_with(stream: IO[str], needle: str) -> list[str]:
    """Lines of a text pipe up to and including the first that holds ``needle`` (all the
    lines, when the stream ends without one); the caller's timeout guards the process."""
    lines: list[str] = []
    for line in stream:
        lines.append(line)
        if needle in line:
            break
    return lines


def wait_for_file(path: Path) -> bool:
    """Whether ``path`` exists within :data:`HANG_S` (another process writes it as its sign
    that it got somewhere); looked for every hundredth of a second."""
    deadline = time.monotonic() + HANG_S
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def write_to_reader(fifo: Path, data: bytes) -> bool:
    """Write ``data`` to the named pipe ``fifo`` once another process has it open for reading
    (until then an open for writing finds no reader and the data would be lost), within
    :data:`HANG_S`; whether a reader came. Looked for every hundredth of a second."""
    deadline = time.monotonic() + HANG_S
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: nobody reads it yet
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
            continue
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        return True


def wait_for_exit(pid: int) -> bool:
    """Whether process ``pid`` (not necessarily our child) ended within :data:`HANG_S`: a
    pidfd becomes readable at its exit; without pidfds (not Linux), its /proc entry or a
    signal 0 is looked at every tenth of a second."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except (AttributeError, OSError):
        fd = -1
    if fd >= 0:
        try:
            return bool(select.select([fd], [], [], HANG_S)[0])
        finally:
            os.close(fd)
    deadline = time.monotonic() + HANG_S
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def frames_until(director: Any, done: Callable[[], bool]) -> bool:
    """Whether ``done()`` came true within :data:`HANG_S` while the ``director``'s frames
    passed, one every 5 ms of wall time (another thread, a server or the network, makes it
    true meanwhile)."""
    deadline = time.monotonic() + HANG_S
    while not done():
        if time.monotonic() > deadline:
            return False
        director.update(1 / 60)
        time.sleep(0.005)
    return True


def looked_until(found: Callable[[], Any]) -> Any:
    """The first true thing ``found()`` gives, looked for every hundredth of a second, for
    a state no event announces (a window another program maps on a display); None after
    :data:`HANG_S`."""
    deadline = time.monotonic() + HANG_S
    while not (result := found()):
        if time.monotonic() > deadline:
            return None
        time.sleep(0.01)
    return result


def drain_until(news: Any, done: Callable[[], bool]) -> bool:
    """Whether ``done()`` came true within :data:`HANG_S`, checked each time something comes
    on the queue ``news`` (the lines of programs, the messages of a server: whatever can make
    it true), and at least every second."""
    deadline = time.monotonic() + HANG_S
    while not done():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with contextlib.suppress(queue.Empty):
            news.get(timeout=min(left, 1.0))
    return True
