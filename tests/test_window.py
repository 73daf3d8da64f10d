"""The product is the real window: open ``gamehall play`` on Xvfb (the menu), press keys to
start a game, go back to the menu and quit."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
import tomllib
from pathlib import Path
from typing import IO

import pytest

from tests.waiting import HANG_S

pytestmark = [pytest.mark.window, pytest.mark.gl]


def _start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
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


def _xdotool(display: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdotool", *args],
        env={**os.environ, "DISPLAY": display},
        capture_output=True,
        text=True,
        timeout=HANG_S,
        check=False,
    )


class _Lines:
    """The game's stderr, line by line, read on a thread: the test waits for the line that
    says a key was handled (``-v`` logs each scene entered and each command run), not for a
    length of time."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text: str) -> None:
        while True:
            try:
                line = self.lines.get(timeout=HANG_S)
            except queue.Empty:
                pytest.fail(f"no line with {text!r} within {HANG_S:.0f} s: {self.seen}")
            if line is None:
                pytest.fail(f"the game ended before {text!r}: {''.join(self.seen)}")
            self.seen.append(line)
            if text in line:
                return

    def rest(self) -> str:
        """Everything after the last line waited for, up to the end of the stream."""
        while (line := self.lines.get(timeout=HANG_S)) is not None:
            self.seen.append(line)
        return "".join(self.seen)


def test_play_opens_a_window_takes_keys_and_exits_cleanly(tmp_path, _private_home):
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.fail("this test needs Xvfb and xdotool (.ci/run installs them with apt-get)")
    xvfb, display = _start_xvfb()
    try:
        venv_bin = os.environ.get("GAMEHALL_VENV_BIN")
        exe = shutil.which("gamehall", path=venv_bin) if venv_bin else None
        cmd = [exe, "-v", "play"] if exe else [sys.executable, "-m", "game", "-v", "play"]
        env = {**os.environ, "DISPLAY": display}
        env.pop("WAYLAND_DISPLAY", None)
        if not exe:
            env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
        game = subprocess.Popen(
            cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        assert game.stderr is not None
        lines = _Lines(game.stderr)
        try:
            lines.wait_for("entered scene menu")
            found = _xdotool(display, "search", "--sync", "--onlyvisible", "--name", "Gamehall")
            assert found.returncode == 0, found.stderr
            wid = found.stdout.split()[0]
            assert game.poll() is None, lines.rest()
            # Enter: the menu's selected game (the first, river); H: a hint; Esc: the menu;
            # Esc: quit. Each key is sent once the line saying the one before was handled came.
            for keys, handled in (
                (["Return"], "entered scene river"),
                (["h"], "ran hint"),
                (["Escape"], "entered scene menu"),
                (["Escape"], None),
            ):
                _xdotool(display, "windowfocus", "--sync", wid)
                _xdotool(display, "key", "--window", wid, *keys)
                if handled is not None:
                    lines.wait_for(handled)
            game.wait(timeout=HANG_S)
            err = lines.rest()
        finally:
            if game.poll() is None:
                game.kill()
        assert game.returncode == 0, err
        assert "Traceback" not in err
        settings = tomllib.loads((_private_home / "settings.toml").read_text())
        assert settings["last_game"] == "river"
        assert settings["window"]["width"] >= 640
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=HANG_S)
