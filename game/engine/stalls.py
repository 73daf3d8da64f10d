"""The stall watch: which frames took too long, and what the drawing thread was doing then.

A frame that takes longer than :data:`STALL_MS` is a stall: the window ignores input and
animations jump for that long. :class:`StallWatch` is told when each frame ends
(:meth:`~StallWatch.frame`); a daemon thread of its own (:meth:`~StallWatch.start`) looks at
the drawing thread every :data:`SAMPLE_SECONDS` while a frame is overdue and notes where it is
(:func:`where`: the innermost lines of the program's own code, and the innermost line of all)
and which other threads ran Python meanwhile (a thread that holds the interpreter's lock
stalls the drawing thread as surely as its own work). When the overdue frame ends, it becomes
a :class:`Stall` with the place seen most often. The F3 overlay shows the longest stall of the
last seconds (:meth:`~StallWatch.longest`); the benchmarks read every one
(:meth:`~StallWatch.recent`).

The sampler only reads the threads' frames (``sys._current_frames``), and only while a frame
is late, so it costs nothing the rest of the time. Without :meth:`~StallWatch.start` (a
headless window, a test) no thread runs and :meth:`~StallWatch.sample` may be called by hand.
"""

from __future__ import annotations

import collections
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

__all__ = ["SAMPLE_SECONDS", "STALL_MS", "Stall", "StallWatch", "where"]

#: A frame longer than this is a stall.
STALL_MS = 100.0
#: How often the sampler looks at the drawing thread while a frame is late.
SAMPLE_SECONDS = 0.02
#: How many stalls are kept (the oldest go first).
KEEP = 200
#: The package whose lines :func:`where` names first.
OWN = "game"


@dataclass(frozen=True)
class Stall:
    """A frame that took ``ms`` milliseconds, ending ``at`` (the watch's clock, seconds);
    ``doing``: where the drawing thread was seen most often meanwhile ("" when it was not
    seen); ``others``: the other threads seen running Python meanwhile, by name."""

    at: float
    ms: float
    doing: str
    others: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: ``"476 ms in freetype.py:80 render, from hud.py:342 _rebuild_buttons"``,
        with the other threads seen running Python meanwhile after it."""
        text = f"{self.ms:.0f} ms"
        if self.doing:
            text += f" in {self.doing}"
        if self.others:
            text += f" (also running: {', '.join(self.others)})"
        return text


class StallWatch:
    """The frames of one drawing thread; see the module docstring. ``clock`` gives seconds
    (``time.perf_counter``; tests pass their own)."""

    def __init__(
        self,
        threshold_ms: float = STALL_MS,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.threshold = threshold_ms / 1000.0
        self.clock = clock
        #: The thread that draws: the one that made the watch.
        self.thread_id = threading.get_ident()
        self.stalls: collections.deque[Stall] = collections.deque(maxlen=KEEP)
        self._lock = threading.Lock()
        self._frame_start = clock()
        self._seen: collections.Counter[str] = collections.Counter()
        self._others: dict[str, int] = {}  # thread name -> times seen running
        self._last_other: dict[int, tuple[int, int]] = {}  # thread id -> (frame id, line)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Look at the drawing thread from a daemon thread while frames are late."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="stall-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)

    def frame(self) -> Stall | None:
        """A frame has ended (call it once per frame drawn, on the drawing thread): the
        :class:`Stall` it was, if it was one."""
        now = self.clock()
        with self._lock:
            took = now - self._frame_start
            self._frame_start = now
            seen, self._seen = self._seen, collections.Counter()
            others, self._others = self._others, {}
            self._last_other = {}
        if took <= self.threshold:
            return None
        doing = seen.most_common(1)[0][0] if seen else ""
        running = tuple(sorted(others, key=lambda name: (-others[name], name)))
        stall = Stall(at=now, ms=took * 1000.0, doing=doing, others=running)
        self.stalls.append(stall)
        return stall

    def sample(self) -> bool:
        """Look at the threads once if the current frame is late (half the threshold); True
        when it did."""
        if self.clock() - self._frame_start < self.threshold / 2:
            return False
        frames = sys._current_frames()
        names = {t.ident: t.name for t in threading.enumerate()}
        with self._lock:
            drawing = frames.get(self.thread_id)
            if drawing is not None:
                self._seen[where(drawing)] += 1
            for ident, top in frames.items():
                if ident in (self.thread_id, threading.get_ident()):
                    continue
                spot = (id(top.f_code), top.f_lineno)
                if self._last_other.get(ident, spot) != spot:  # it moved: it ran Python
                    name = names.get(ident, str(ident))
                    self._others[name] = self._others.get(name, 0) + 1
                self._last_other[ident] = spot
        return True

    def recent(self, seconds: float) -> list[Stall]:
        """The stalls that ended in the last ``seconds``, oldest first."""
        since = self.clock() - seconds
        return [s for s in list(self.stalls) if s.at >= since]

    def longest(self, seconds: float) -> Stall | None:
        """The longest stall that ended in the last ``seconds`` (None: none)."""
        return max(self.recent(seconds), key=lambda s: s.ms, default=None)

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            self.sample()


def where(frame: FrameType, depth: int = 2) -> str:
    """Where a thread is: its innermost ``depth`` lines in the program's own code
    (``file.py:line function``, each called by the next), after the innermost line of all
    when that is in a library: ``"freetype.py:80 render, from hud.py:342 _rebuild_buttons <
    director.py:120 switch"``.

    >>> import sys
    >>> where(sys._getframe()).startswith("<doctest")
    True
    """
    own: list[str] = []
    current: FrameType | None = frame
    while current is not None and len(own) < depth:
        if _is_own(current):
            own.append(_line(current))
        current = current.f_back
    if not own:
        return _line(frame)
    if _is_own(frame):
        return " < ".join(own)
    return f"{_line(frame)}, from {' < '.join(own)}"


def _is_own(frame: FrameType) -> bool:
    name = str(frame.f_globals.get("__name__", ""))
    return name == OWN or name.startswith(OWN + ".")


def _line(frame: FrameType) -> str:
    return f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {frame.f_code.co_name}"
