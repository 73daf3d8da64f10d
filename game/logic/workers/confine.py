"""A robot's process, walled off from the game: what confines it (:func:`confine`: no Ctrl-C,
a process group of its own, printing captured, memory capped).

The robot jail (:mod:`game.logic.workers.jail`) calls :func:`confine` last, after its own
layers, in every process that runs robot code (a robot's own, robot discovery); the game reads
those processes' messages as plain data only
(:class:`~game.logic.workers.process.Worker` with ``plain``).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
from typing import Final

#: The most characters of a robot's printing kept from one move (the rest is counted).
OUTPUT_CAP: Final = 2000


class Captured(io.TextIOBase):
    """A text stream that keeps the first :data:`OUTPUT_CAP` characters written to it since
    the last :meth:`take` and counts the rest."""

    def __init__(self, cap: int = OUTPUT_CAP) -> None:
        super().__init__()
        self.cap = cap
        self._parts: list[str] = []
        self._kept = 0
        self._dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = self.cap - self._kept
        if room > 0:
            self._parts.append(text[:room])
            self._kept += min(room, len(text))
        self._dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def take(self) -> str:
        """What was written since the last call (with a note of what was dropped)."""
        text = "".join(self._parts)
        if self._dropped:
            text += f"\n[{self._dropped} more characters not kept]\n"
        self._parts, self._kept, self._dropped = [], 0, 0
        return text


def confine(memory_mb: int | None) -> Captured:
    """Confine the current process as a robot's: ignore Ctrl-C (the game stops it), lead a
    process group of its own (so :func:`end_group` also stops what the robot started), send
    file descriptors 1 and 2 to the null device, capture ``print`` and ``sys.stderr`` in the
    returned :class:`Captured`, and cap the address space at ``memory_mb`` MiB more than it
    is now, for good (where the system has ``resource``; None: no cap)."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "setsid"):
        # A group of its own: what the robot starts is stopped with it (end_group).
        with contextlib.suppress(OSError):
            os.setsid()
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
    printed = Captured()
    sys.stdout = sys.stderr = printed
    if memory_mb is not None:
        _cap_memory(memory_mb)
    return printed


def _cap_memory(memory_mb: int) -> None:
    try:
        import resource

        with open("/proc/self/statm") as f:
            now = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = now + memory_mb * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        # The hard limit too: a robot could raise a soft one back.
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, ValueError, AttributeError):
        pass  # no address-space limit on this system: the robot runs uncapped


def plain_text(value: object) -> str:
    """``str(value)`` as an exact ``str`` (a robot's str subclass would not unpickle here)."""
    return str.__str__(str(value))


def end_group(pid: int | None) -> None:
    """Kill what is left of the process group ``pid`` led (what a robot started)."""
    if pid is None or not hasattr(os, "killpg"):
        return
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)


__all__ = [
    "OUTPUT_CAP",
    "Captured",
    "confine",
    "end_group",
    "plain_text",
]
