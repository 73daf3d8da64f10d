"""A full disk and a home folder that cannot be named: a rejected settings file whose copy
cannot be written leaves no empty copy behind (the message says none was kept), a write that
does not fit leaves the old file and no temp file, and ``GAMEHALL_HOME='~nosuchuser/x'`` is
one line and exit status 2."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import game.safewrite
from game.cli import main
from game.places import use_numba_cache
from game.settings import Settings, Store
from tests.settings_data import SCHEMAS
from tests.waiting import HANG_S

BAD = b"volume = 500\nshow_fps = true\n"  # a volume out of range: a copy is kept aside


def test_a_copy_that_does_not_fit_is_not_left_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "settings.toml").write_bytes(BAD)
    real = game.safewrite._write_all

    def full(fd: int, data: bytes) -> None:  # the disk fills halfway through
        real(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(game.safewrite, "_write_all", full)
    settings, messages = Store(tmp_path).load_settings(SCHEMAS)
    assert settings == Settings(show_fps=True)
    assert messages[-1] == (
        "settings.toml: a copy could not be kept aside (No space left on device)"
    )
    assert sorted(os.listdir(tmp_path)) == ["settings.toml"]
    assert (tmp_path / "settings.toml").read_bytes() == BAD


FULL = textwrap.dedent(
    """
    import os, subprocess, sys
    from pathlib import Path

    home = Path(sys.argv[1])
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(home)], check=True)
    (home / "settings.toml").write_bytes(b"volume = 500\\nshow_fps = true\\n")
    try:
        with open(home / "filler", "wb") as f:  # fill the disk
            while True:
                f.write(b"x" * 4096)
                f.flush()
    except OSError:
        pass

    from game.settings import Settings, Store
    from tests.settings_data import SCHEMAS

    store = Store(home)
    settings, messages = store.load_settings(SCHEMAS)
    print(messages[-1])
    print(sorted(os.listdir(home)))
    settings.volume = 10
    try:
        store.save_settings(settings)
    except OSError as exc:
        print("not saved:", exc.strerror)
    kept = (home / "settings.toml").read_bytes() == b"volume = 500\\nshow_fps = true\\n"
    print(sorted(os.listdir(home)), kept)
    """
)


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare(1) to mount a tmpfs")
def test_a_real_full_disk_in_a_tmpfs_of_its_own(tmp_path: Path) -> None:
    """A tmpfs of 64 KiB, mounted in a mount namespace of the test's own (so nothing outside
    sees it), filled up."""
    home = tmp_path / "home"
    home.mkdir()
    command = ["unshare", "--user", "--map-root-user", "--mount", sys.executable, "-c", FULL]
    done = subprocess.run(
        [*command, str(home)], capture_output=True, text=True, timeout=HANG_S, check=False
    )
    if done.returncode != 0 and "unshare failed" in done.stderr:
        pytest.skip(f"this kernel refuses a mount namespace: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "settings.toml: a copy could not be kept aside (No space left on device)",
        "['filler', 'settings.toml']",
        "not saved: No space left on device",
        "['filler', 'settings.toml', 'settings.toml.lock'] True",
    ]


def test_a_home_folder_that_cannot_be_named_is_one_line_and_exit_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    environ = {"GAMEHALL_HOME": "~nosuchuser/x"}
    assert use_numba_cache(environ) is None  # on import: said by the command that needs it
    assert "NUMBA_CACHE_DIR" not in environ
    monkeypatch.setenv("GAMEHALL_HOME", "~nosuchuser/x")
    assert main(["shot", "river", "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err == (
        "gamehall shot: GAMEHALL_HOME='~nosuchuser/x': cannot expand '~nosuchuser' "
        "(no such user or home folder); set it to a folder\n"
    )
    assert list(tmp_path.iterdir()) == []
