"""The product is the real window: open ``gamehall play`` on Xvfb (the menu), press keys to
start a game, go back to the menu and quit."""

from __future__ import annotations

import shutil
import subprocess
import tomllib

import pytest

from tests.waiting import HANG_S
from tests.xwindows import Lines, gamehall, start_xvfb, window_env, xdotool

pytestmark = [pytest.mark.window, pytest.mark.gl]


def test_play_opens_a_window_takes_keys_and_exits_cleanly(tmp_path, _private_home):
    if not (shutil.which("Xvfb") and shutil.which("xdotool")):
        pytest.fail("this test needs Xvfb and xdotool (.ci/run installs them with apt-get)")
    xvfb, display = start_xvfb()
    try:
        game = subprocess.Popen(
            gamehall("-v", "play"),
            cwd=tmp_path,
            env=window_env(display),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert game.stderr is not None
        lines = Lines(game.stderr)
        try:
            lines.wait_for("entered scene menu")
            found = xdotool(display, "search", "--sync", "--onlyvisible", "--name", "Gamehall")
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
                xdotool(display, "windowfocus", "--sync", wid)
                xdotool(display, "key", "--window", wid, *keys)
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
