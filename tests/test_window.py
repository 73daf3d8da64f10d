"""The product is the real window: open ``gamehall play`` on Xvfb (the menu), press keys to
start a game, go back to the menu and quit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

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
        timeout=60,
        check=False,
    )


def test_play_opens_a_window_takes_keys_and_exits_cleanly(tmp_path, _private_home):
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.fail("this test needs Xvfb and xdotool (.ci/run installs them with apt-get)")
    xvfb, display = _start_xvfb()
    try:
        venv_bin = os.environ.get("GAMEHALL_VENV_BIN")
        exe = shutil.which("gamehall", path=venv_bin) if venv_bin else None
        cmd = [exe, "play"] if exe else [sys.executable, "-m", "game", "play"]
        env = {**os.environ, "DISPLAY": display}
        env.pop("WAYLAND_DISPLAY", None)
        if not exe:
            env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
        game = subprocess.Popen(
            cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        try:
            found = _xdotool(display, "search", "--sync", "--onlyvisible", "--name", "Gamehall")
            assert found.returncode == 0, found.stderr
            wid = found.stdout.split()[0]
            time.sleep(1.0)  # a few frames
            assert game.poll() is None, game.stderr.read() if game.stderr else ""
            # Enter: the menu's selected game (the first, river); H: a hint; Esc: the menu;
            # Esc: quit.
            for keys in (["Return"], ["h"], ["Escape"], ["Escape"]):
                _xdotool(display, "windowfocus", "--sync", wid)
                _xdotool(display, "key", "--window", wid, *keys)
                time.sleep(0.8)
            _, err = game.communicate(timeout=60)
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
        xvfb.wait(timeout=10)
