"""What every ``gamehall`` command shares: argument types that refuse impossible values while
the command line is parsed (before any work starts), and a way to run long work so that
Ctrl-C stops it cleanly and a progress line shows on a terminal.

Each type is an ``argparse`` ``type=``: a refused value becomes one line naming the flag,
``gamehall bench: argument --frames: must be a whole number from 1 to 10000, not '0'``.

>>> size("1280x720")
(1280, 720)
>>> whole(1, 10)("11")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number from 1 to 10, not '11'
>>> seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a finite number of seconds above 0 and at most 3600, not 'nan'
"""

from __future__ import annotations

import argparse
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

from game.logic.contract import MAX_TIME, Limits, Stop
from game.logic.numbers import NumberError, decimal, parse_decimal, whole_number
from game.logic.quoting import excerpt
from game.progress import status_line

__all__ = [
    "MAX_FRAMES",
    "MAX_SECONDS",
    "MAX_SIDE",
    "MIN_SIDE",
    "output_file",
    "run_stoppable",
    "scale",
    "seconds",
    "size",
    "whole",
]

#: The smallest and largest window or picture side, in pixels.
MIN_SIDE: Final = 64
MAX_SIDE: Final = 8192
#: The most seconds a thinking time may be (an hour: a longer one is a mistake, and
#: ``--time 9223372036854775808`` ran for ever).
MAX_SECONDS: Final = MAX_TIME
#: The most frames ``bench render`` times a scene.
MAX_FRAMES: Final = 10_000
#: Seconds of work before a progress line appears (on a terminal).
QUIET_S: Final = 3.0

_SIZE = re.compile(r"\s*(\d{1,9})\s*[xX]\s*(\d{1,9})\s*", re.ASCII)
_T = TypeVar("_T")


def size(text: str) -> tuple[int, int]:
    """``WIDTHxHEIGHT`` in pixels, each side 64..8192: the one reader of every ``--size``."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"should look like 1280x720, not {excerpt(text)}")
    w, h = int(match[1]), int(match[2])
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise argparse.ArgumentTypeError(
            f"{w}x{h} is out of range ({MIN_SIDE}..{MAX_SIDE} pixels each way)"
        )
    return w, h


def scale(text: str) -> float:
    """A HUD scale for a screen denser than 96 dpi: a finite number from 1 to 4 (2: a
    Retina or 200% screen).

    >>> scale("1.5")
    1.5
    """
    try:
        return decimal(text, 1.0, 4.0)
    except NumberError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def whole(minimum: int, maximum: int) -> Callable[[str], int]:
    """A type for a whole number from ``minimum`` to ``maximum``, read by the one number
    reader (:func:`game.logic.numbers.whole_number`): ASCII digits only, so no ``1e3``,
    ``1_0``, ``١٢`` or ``１２``."""

    def check(text: str) -> int:
        try:
            return whole_number(text, minimum, maximum)
        except NumberError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    check.__name__ = "whole number"
    return check


def seconds(text: str) -> float:
    """A thinking time: a number of seconds above 0 and at most :data:`MAX_SECONDS` (what
    :class:`Limits` takes), read by the one number reader."""
    value = parse_decimal(text)
    if value is None or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds above 0 and at most {MAX_SECONDS:g}, "
            f"not {excerpt(text)}"
        )
    return float(Limits(time=value).time or value)


def output_file(path: Path, flag: str = "--out") -> Path:
    """``path`` if a file can be written there: its folder exists and is writable, and it is
    not a symbolic link, a folder, a pipe or a device (writing to a pipe waits for a reader;
    the one safe writer refuses the others). Raises
    ``ValueError`` naming ``flag`` and the reason."""
    import os

    from game.safewrite import RefusedTarget, check_target

    if "\x00" in str(path):
        raise ValueError(f"{flag} {str(path)!r}: not a usable file name")
    where = f"{flag} {path}"
    try:
        if not path.parent.is_dir():
            raise ValueError(f"{where}: there is no folder {path.parent}")
        check_target(path)  # a link, a folder, a pipe or a device is refused unfollowed
        if os.path.lexists(path):
            if not os.access(path, os.W_OK):
                raise ValueError(f"{where}: the file is not writable")
        elif not os.access(path.parent, os.W_OK | os.X_OK):
            raise ValueError(f"{where}: the folder {path.parent} is not writable")
    except RefusedTarget as exc:
        raise ValueError(f"{flag} {exc}") from None
    except OSError as exc:  # a name too long, no permission to look
        raise ValueError(f"{where}: {exc.strerror or exc}") from None
    return path


def run_stoppable(
    work: Callable[[Stop], _T],
    progress: Callable[[float], str] | None = None,
    *,
    quiet_s: float = QUIET_S,
) -> _T:
    """``work(stop)`` on a worker thread while this thread waits for it.

    Ctrl-C (KeyboardInterrupt here) sets ``stop``, waits a moment for the work to notice, and
    raises KeyboardInterrupt again, so the command ends cleanly (``work`` must check ``stop``:
    compiled kernels read ``stop.flag``). After ``quiet_s`` seconds, when stderr is a
    terminal, ``progress(elapsed)`` is redrawn there as one line; scripts reading stdout see
    nothing of it. What ``work`` raises is raised here.
    """
    stop = Stop()
    box: list[_T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            box.append(work(stop))
        except BaseException as exc:  # handed to the waiting thread
            errors.append(exc)

    worker = threading.Thread(target=target, name="gamehall-work", daemon=True)
    started = time.monotonic()
    with status_line() as show:
        try:
            worker.start()  # inside: a Ctrl-C from here on stops the work
            while worker.is_alive():
                worker.join(0.5 if show and progress else 0.1)
                elapsed = time.monotonic() - started
                if show and progress and worker.is_alive() and elapsed >= quiet_s:
                    show(progress(elapsed))
        except KeyboardInterrupt:
            stop.set()
            if worker.is_alive():  # the kernels look at the flag every few thousand positions
                worker.join(10.0)
            raise
    if errors:
        raise errors[0]
    return box[0]
