"""Hostile settings and statistics files: nothing in them crashes, hangs or loses data (pipes,
sockets, folders, huge or deeply nested files, wrong types, stray temp files, messages)."""

from __future__ import annotations

import logging
import os
import socket
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from game.logic.options import Option, OptionsSchema
from game.settings import (
    GameStats,
    Settings,
    Statistics,
    Store,
    WindowSettings,
)
from game.tomlfile import MAX_FILE_BYTES
from tests.settings_data import SCHEMAS, custom_settings
from tests.waiting import HANG_S

# --- hostile files: nothing in them crashes, hangs or loses data ------------------------------


def _load_both(store: Store) -> tuple[list[str], list[str]]:
    return store.load_settings(SCHEMAS)[1], store.load_statistics()[1]


def _kept_aside(home: Path, name: str) -> Path:
    (kept,) = home.glob(f"{name}.bad-*")
    return kept


@pytest.mark.parametrize("name", ["settings.toml", "statistics.toml"])
def test_deeply_nested_file_is_set_aside(home: Path, name: str) -> None:
    store = Store()
    deep = b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"
    (home / name).write_bytes(deep)
    messages = _load_both(store)[name == "statistics.toml"]
    assert messages == [
        f"{name} is not valid TOML: arrays or tables nested too deeply; "
        f"kept as {_kept_aside(home, name).name}, starting with defaults"
    ]
    assert not (home / name).exists()
    assert _kept_aside(home, name).read_bytes() == deep
    assert _load_both(store) == ([], [])


def _load_in_thread(store: Store) -> tuple[list[str], list[str]]:
    """Both loads, in a thread, so that a load that blocks fails the test instead of hanging
    it; the limit is far beyond what a load takes."""
    result: list[tuple[list[str], list[str]]] = []
    worker = threading.Thread(target=lambda: result.append(_load_both(store)), daemon=True)
    worker.start()
    worker.join(HANG_S)
    assert result, "loading blocked"
    return result[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_named_pipe_and_folder_are_set_aside_without_blocking(home: Path) -> None:
    store = Store()
    os.mkfifo(store.settings_path)
    store.statistics_path.mkdir()
    (store.statistics_path / "inside").write_text("kept", encoding="utf-8")
    settings_messages, statistics_messages = _load_in_thread(store)
    pipe, folder = _kept_aside(home, "settings.toml"), _kept_aside(home, "statistics.toml")
    assert settings_messages == [
        f"settings.toml is a named pipe, not a regular file; kept as {pipe.name}, "
        "starting with defaults"
    ]
    assert statistics_messages[0].startswith("statistics.toml is a folder, not a regular file")
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert (folder / "inside").read_text(encoding="utf-8") == "kept"
    # The names are free again: saving and loading work as usual.
    store.save_settings(custom_settings())
    store.save_statistics(Statistics())
    assert _load_both(store) == ([], [])


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no unix sockets here")
def test_socket_and_device_are_set_aside(home: Path) -> None:
    store = Store()
    with socket.socket(socket.AF_UNIX) as server:
        try:
            server.bind(str(store.settings_path))
        except OSError:  # a path too long for a socket name
            pytest.skip("the temp folder's path is too long for a socket")
        os.symlink(os.devnull, store.statistics_path)  # a link to a device
        settings_messages, statistics_messages = _load_in_thread(store)
    assert "settings.toml is a socket, not a regular file" in settings_messages[0]
    assert "statistics.toml is a device, not a regular file" in statistics_messages[0]
    assert os.readlink(_kept_aside(home, "statistics.toml")) == os.devnull


def test_oversized_file_is_set_aside_unread(home: Path) -> None:
    store = Store()
    big = b"show_fps = true\n" + b"# padding\n" * (MAX_FILE_BYTES // 10)
    assert len(big) > MAX_FILE_BYTES
    store.settings_path.write_bytes(big)
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded == Settings()
    assert messages[0].startswith(
        f"settings.toml is {len(big)} bytes, more than the {MAX_FILE_BYTES} such a file may hold"
    )
    assert _kept_aside(home, "settings.toml").read_bytes() == big
    # One byte less than the limit is read as usual.
    store.settings_path.write_bytes(big[: MAX_FILE_BYTES - 1])
    assert store.load_settings(SCHEMAS) == (Settings(show_fps=True), [])


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_links_to_a_file_are_read_and_links_to_nothing_are_missing(home: Path) -> None:
    store = Store()
    real = home / "real-settings.toml"
    real.write_text("show_fps = true\n", encoding="utf-8")
    os.symlink(real, store.settings_path)
    os.symlink(home / "nowhere", store.statistics_path)
    assert store.load_settings(SCHEMAS) == (Settings(show_fps=True), [])
    assert store.load_statistics() == (Statistics(), [])
    assert real.read_text(encoding="utf-8") == "show_fps = true\n"


def test_unreadable_file_is_set_aside_so_no_save_writes_over_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store()
    store.settings_path.write_text("show_fps = true\n", encoding="utf-8")
    real_open = os.open

    def refusing_open(path: Any, flags: int, *args: Any) -> int:
        if Path(path) == store.settings_path:  # as for a file of another user's, mode 600
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refusing_open)
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded == Settings()
    kept = _kept_aside(home, "settings.toml")
    assert messages == [
        "settings.toml could not be read (Permission denied); "
        f"kept as {kept.name}, starting with defaults"
    ]
    store.save_settings(loaded)
    assert kept.read_text(encoding="utf-8") == "show_fps = true\n"


def test_byte_order_mark_is_accepted(home: Path) -> None:
    store = Store()
    store.settings_path.write_bytes(b"\xef\xbb\xbfshow_fps = true\n[window]\nwidth = 800\n")
    store.statistics_path.write_bytes(b"\xef\xbb\xbf[games.river]\nplayed = 2\nwon = 1\n")
    loaded, messages = store.load_settings(SCHEMAS)
    assert (loaded.show_fps, loaded.window.width, messages) == (True, 800, [])
    assert store.load_statistics() == (Statistics({"river": GameStats(played=2, won=1)}), [])
    assert sorted(os.listdir(home)) == ["settings.toml", "statistics.toml"]
    # A bad byte after the mark is counted from the start of the file (from 0).
    store.settings_path.write_bytes(b"\xef\xbb\xbfshow_fps = true\n\xff\n")
    assert "is not valid TOML (byte 19): not UTF-8 text" in store.load_settings(SCHEMAS)[1][0]
    # A UTF-16 file (its mark says so) is not UTF-8 text and is set aside.
    store.statistics_path.write_bytes("played = 1\n".encode("utf-16"))
    assert "is not valid TOML (byte 0): not UTF-8 text" in store.load_statistics()[1][0]


def test_temp_files_of_a_killed_write_are_removed_quietly(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store()
    store.save_settings(custom_settings())
    strays = [home / ".settings.toml.k1ll3d.tmp", home / ".statistics.toml.xyz_12.tmp"]
    for stray in strays:
        stray.write_bytes(b"half a fi")
    other = home / ".settings.toml.notes"  # not a temp file of ours
    other.write_bytes(b"keep")
    with caplog.at_level(logging.INFO, logger="game.tomlfile"):
        assert store.load_settings(SCHEMAS) == (custom_settings(), [])
        assert store.load_statistics() == (Statistics(), [])
    assert sorted(os.listdir(home)) == [".settings.toml.notes", "settings.toml"]
    assert "k1ll3d.tmp" in caplog.text and "xyz_12.tmp" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.skipif(sys.platform == "win32", reason="Windows does not lock; an open file stays")
def test_temp_file_of_a_running_write_is_left_alone(home: Path) -> None:
    import fcntl

    store = Store()
    busy = home / ".settings.toml.busy01.tmp"
    busy.write_bytes(b"being written")
    with busy.open("rb") as held:  # a write in progress holds its lock on the temp file
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        store.load_settings(SCHEMAS)
        assert busy.exists()
    store.load_settings(SCHEMAS)
    assert not busy.exists()


@pytest.mark.parametrize(
    ("name", "text", "good", "bad_keys"),
    [
        (
            "settings.toml",
            'last_game = "river"\nshadows = "no"\nshow_fps = true\n'
            '[window]\nwidth = "1600"\nheight = 900\nx = 10\n'
            "[river]\npriests = 5\ndevils = 1e400\n",
            lambda s: (
                (s.last_game, s.show_fps, s.window.height, s.window.x, s.games["river"])
                == ("river", True, 900, 10, {"priests": 5, "devils": 3, "capacity": 2})
            ),
            ["shadows = 'no'", "window.width = '1600'", "[river]: devils"],
        ),
        (
            "statistics.toml",
            '[games.river]\nplayed = 7\nwon = "x"\nlost = 3\n[games.river.best]\n"3/3/2" = 11\n'
            "[games.reversi]\nplayed = -1\ndrawn = 2\n",
            lambda s: (
                s.games
                == {
                    "river": GameStats(played=7, lost=3, best={"3/3/2": 11}),
                    "reversi": GameStats(drawn=2),
                }
            ),
            ["games.river.won = 'x'", "games.reversi.played = -1 is below 0"],
        ),
    ],
)
def test_wrong_types_keep_the_good_values_and_a_copy_before_any_rewrite(
    home: Path, name: str, text: str, good: Any, bad_keys: list[str]
) -> None:
    store = Store()
    (home / name).write_text(text, encoding="utf-8")
    loaded, messages = _load_named(store, name)
    assert good(loaded)
    for key in bad_keys:
        assert any(m.startswith(f"{name}: {key}") for m in messages), (key, messages)
    kept = _kept_aside(home, name)
    assert kept.read_text(encoding="utf-8") == text
    assert messages[-1] == f"{name}: the file as it was is kept as {kept.name}"
    # Rewritten, the file holds the good values and the copy stays as it was.
    if isinstance(loaded, Settings):
        store.save_settings(loaded)
    else:
        store.save_statistics(loaded)
    again, messages = _load_named(store, name)
    assert good(again) and messages == []
    assert kept.read_text(encoding="utf-8") == text


def _load_named(store: Store, name: str) -> tuple[Settings | Statistics, list[str]]:
    if name == "settings.toml":
        return store.load_settings(SCHEMAS)
    return store.load_statistics()


def test_huge_and_out_of_range_numbers_fall_back_by_key(home: Path) -> None:
    store = Store()
    huge = "0x" + "f" * 5000  # more digits than Python writes in decimal
    store.settings_path.write_text(
        f"show_fps = true\n[window]\nwidth = {10**30}\nheight = 16385\nx = {huge}\ny = -5\n"
        f"[river]\npriests = {huge}\ndevils = 4\n",
        encoding="utf-8",
    )
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded.show_fps and loaded.window == WindowSettings(y=-5)
    assert loaded.games["river"] == {"priests": 3, "devils": 4, "capacity": 2}
    assert any(f"window.width = {10**30} is above 16384" in m for m in messages)
    assert any("window.height = 16385 is above 16384" in m for m in messages)
    assert any("window.x = a 20000-bit number is above 32767" in m for m in messages)
    assert any("[river]: priests is out of range: a number of 20000 bits" in m for m in messages)
    store.statistics_path.write_text(
        f"[games.river]\nplayed = {2**53 + 1}\nwon = {2**53}\n"
        f'[games.river.best]\n"a" = {2**64}\n"b" = 3\n"c" = -1\n',
        encoding="utf-8",
    )
    stats, messages = store.load_statistics()
    assert stats.games["river"] == GameStats(won=2**53, best={"b": 3})
    assert any(f"games.river.played = {2**53 + 1} is above {2**53}" in m for m in messages)
    assert any(f"games.river.best.a = {2**64} is above" in m and "left out" in m for m in messages)
    assert any("games.river.best.c = -1 is below 0; left out" in m for m in messages)


def test_messages_are_single_short_lines_and_few(home: Path) -> None:
    store = Store()
    keys = "".join(f'"key\\n{i}\\u001b[31m" = 1\n' for i in range(30))
    store.settings_path.write_text(keys + f'last_game = "{"x" * 5000}"\nwindow = "{"y" * 500}"\n')
    loaded, messages = store.load_settings(SCHEMAS)
    assert len(loaded.last_game) == 5000  # a long string is a string, not a problem
    assert len(messages) == 12  # ten problems, a count of the rest, and the copy kept
    assert messages[10] == "settings.toml: and 21 more problems like these"
    assert messages[0] == "settings.toml: unknown key 'key\\n0\\x1b[31m' ignored"
    for message in messages:
        assert message.isprintable() and len(message) <= 300


def test_a_flaw_in_a_games_checks_does_not_stop_loading(home: Path) -> None:
    def flawed(values: Any) -> None:
        raise TypeError("a bug in the game's cross-check")

    schema = OptionsSchema((Option("a", int, 1, minimum=0, maximum=9),), cross_check=flawed)
    store = Store()
    store.settings_path.write_text("show_fps = true\n[g]\na = 2\n", encoding="utf-8")
    loaded, messages = store.load_settings({"g": schema})
    assert loaded.show_fps and loaded.games["g"] == {"a": 1}
    assert messages[0].startswith("settings.toml: [g]: could not be checked (TypeError(")
    assert "kept as settings.toml.bad-" in messages[1]
