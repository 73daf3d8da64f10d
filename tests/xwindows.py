"""Real windows for the tests: an Xvfb display, xdotool to find windows and press keys in
them, and a program's output read line by line on a thread, so that a test waits for the line
that says something happened, never for a length of time."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from tests.waiting import HANG_S, drain_until


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb server and its display name (``:N``, the number it picked itself)."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1366x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        pytest.fail("Xvfb did not start")
    return proc, f":{number}"


def gamehall(*args: str) -> list[str]:
    """The command line of ``gamehall ARGS``: the virtual environment's program where
    ``GAMEHALL_VENV_BIN`` names its folder, else this Python with ``-m game``."""
    venv_bin = os.environ.get("GAMEHALL_VENV_BIN")
    exe = shutil.which("gamehall", path=venv_bin) if venv_bin else None
    return [exe, *args] if exe else [sys.executable, "-m", "game", *args]


def window_env(display: str, **more: str) -> dict[str, str]:
    """The environment of a program that opens its window on ``display`` and imports this
    checkout's ``game``."""
    env = {**os.environ, "DISPLAY": display, **more}
    env.pop("WAYLAND_DISPLAY", None)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


def xdotool(display: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdotool", *args],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )


def visible_windows(display: str, name: str = "Gamehall") -> set[str]:
    """The ids of the windows shown on ``display`` whose title holds ``name``."""
    found = xdotool(display, "search", "--onlyvisible", "--name", name)
    return set(found.stdout.split())


class Lines:
    """A program's output, line by line, read on a thread: the test waits for the line that
    says a key was handled (``-v`` logs each scene entered and each command run), not for a
    length of time. ``news``, when given, is told of every line (``(tag, line)``), None at
    the end of the stream: one queue can then follow several programs at once."""

    def __init__(
        self, stream: IO[str], news: queue.Queue[object] | None = None, tag: str = ""
    ) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self.all: list[str] = []  # every line read so far, waited for or not
        self.ended = False
        self._news, self._tag = news, tag
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.all.append(line)
            self.lines.put(line)
            if self._news is not None:
                self._news.put((self._tag, line))
        self.ended = True
        self.lines.put(None)
        if self._news is not None:
            self._news.put((self._tag, None))

    def wait_for(self, text: str) -> str:
        """The next line that holds ``text`` (fails the test when the stream ends first)."""
        while True:
            try:
                line = self.lines.get(timeout=HANG_S)
            except queue.Empty:
                pytest.fail(f"no line with {text!r} within {HANG_S:.0f} s: {self.seen}")
            if line is None:
                pytest.fail(f"the program ended before {text!r}: {''.join(self.seen)}")
            self.seen.append(line)
            if text in line:
                return line

    def rest(self) -> str:
        """Everything after the last line waited for, up to the end of the stream."""
        while (line := self.lines.get(timeout=HANG_S)) is not None:
            self.seen.append(line)
        return "".join(self.seen)


def wait_until(news: queue.Queue[object], done: Callable[[], bool], what: str) -> None:
    """Take what comes on ``news`` (lines of programs, messages of a server) until
    ``done()``; fails the test when it is not true within :data:`HANG_S`."""
    if not drain_until(news, done):
        pytest.fail(f"never: {what}")
