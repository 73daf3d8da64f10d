"""The window's files are written on a thread of their own: a save returns while the disk is
held, the newest text of a file is the one written, changes are applied in order to the file as
it is when written, a read waits for its file's write, a failed write is reported and the
others go on, and closing writes what is left."""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import game.writer as writer_module
from game.kept import KeptGames
from game.settings import Settings, Store, WindowSettings
from game.writer import Writer
from tests.waiting import HANG_S


class Disk:
    """Every write the writer makes, in order; ``hold`` keeps the next ones waiting until
    ``release``."""

    def __init__(self) -> None:
        self.written: list[tuple[str, dict[str, Any]]] = []
        self.entered = threading.Event()
        self.open = threading.Event()
        self.open.set()

    def hold(self) -> None:
        self.open.clear()
        self.entered.clear()

    def release(self) -> None:
        self.open.set()


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    seen = Disk()
    real = writer_module.write_bytes_atomic

    def write(path: Path, text: bytes) -> None:
        seen.entered.set()
        assert seen.open.wait(HANG_S)
        seen.written.append((path.name, tomllib.loads(text.decode())))
        real(path, text)

    monkeypatch.setattr(writer_module, "write_bytes_atomic", write)
    return seen


@pytest.fixture
def writer() -> Iterator[Writer]:
    errors: list[tuple[Path, OSError]] = []
    made = Writer(on_error=lambda path, exc: errors.append((path, exc)))
    made.errors = errors  # type: ignore[attr-defined]
    yield made
    made.close()


def test_a_save_returns_while_the_disk_is_busy_and_the_newest_text_is_written(
    tmp_path: Path, writer: Writer, disk: Disk
) -> None:
    path = tmp_path / "a.toml"
    disk.hold()
    writer.write(path, {"n": 1})  # returns: the thread waits for the disk, not the caller
    assert disk.entered.wait(HANG_S)
    assert not path.exists()
    writer.write(path, {"n": 2})
    writer.write(tmp_path / "b.toml", {"m": 1})
    writer.write(path, {"n": 3})  # asked again before the last was written: only the newest
    disk.release()
    writer.wait()
    assert disk.written == [("a.toml", {"n": 1}), ("b.toml", {"m": 1}), ("a.toml", {"n": 3})]
    assert tomllib.loads(path.read_text()) == {"n": 3}
    assert writer.errors == []  # type: ignore[attr-defined]


def test_the_text_is_taken_when_the_save_is_asked(tmp_path: Path, writer: Writer, disk: Disk):
    data = {"games": {"river": {"devils": 3}}}
    disk.hold()
    writer.write(tmp_path / "first.toml", {})
    assert disk.entered.wait(HANG_S)
    writer.write(tmp_path / "s.toml", data)
    data["games"]["river"]["devils"] = 6  # changed after the save was asked
    disk.release()
    writer.wait()
    assert tomllib.loads((tmp_path / "s.toml").read_text()) == {"games": {"river": {"devils": 3}}}


def test_a_load_waits_for_its_files_write(tmp_path: Path, writer: Writer, disk: Disk) -> None:
    store = Store(tmp_path, writer=writer)
    disk.hold()
    store.save_settings(Settings(window=WindowSettings(width=1234), last_game="chess"))
    assert disk.entered.wait(HANG_S)
    loaded: list[Settings] = []
    reader = threading.Thread(target=lambda: loaded.append(store.load_settings({})[0]))
    reader.start()
    disk.release()  # a load that did not wait would have read no file: the defaults
    reader.join(HANG_S)
    assert loaded[0].window.width == 1234 and loaded[0].last_game == "chess"


def test_a_kept_game_saved_then_forgotten_is_gone(tmp_path: Path, writer: Writer, disk: Disk):
    kept = KeptGames(tmp_path / "games", writer)
    data = {"game": "chess", "options": {}, "record": {"moves": ["e2e4"]}, "extra": {}}
    disk.hold()
    kept.save("chess", data)
    assert disk.entered.wait(HANG_S)
    gone = threading.Thread(target=kept.forget, args=("chess",))
    gone.start()
    disk.release()
    gone.join(HANG_S)
    assert not kept.exists("chess")
    kept.save("chess", data)
    assert kept.load("chess") == data


def test_a_failed_write_is_reported_and_the_others_go_on(tmp_path: Path, writer: Writer):
    (tmp_path / "file").write_text("not a folder")
    bad = tmp_path / "file" / "settings.toml"
    writer.write(bad, {"n": 1})
    writer.write(tmp_path / "good.toml", {"n": 2})
    writer.wait()
    assert [path for path, _exc in writer.errors] == [bad]  # type: ignore[attr-defined]
    assert tomllib.loads((tmp_path / "good.toml").read_text()) == {"n": 2}


def test_closing_writes_what_is_left_and_a_later_save_is_written_at_once(
    tmp_path: Path, disk: Disk
) -> None:
    writer = Writer(on_error=lambda path, exc: None)
    disk.hold()
    writer.write(tmp_path / "a.toml", {"n": 1})
    assert disk.entered.wait(HANG_S)
    writer.write(tmp_path / "b.toml", {"n": 2})
    closing = threading.Thread(target=writer.close)
    closing.start()
    disk.release()
    closing.join(HANG_S)
    assert not closing.is_alive()
    assert [name for name, _data in disk.written] == ["a.toml", "b.toml"]
    writer.write(tmp_path / "c.toml", {"n": 3})  # after closing: on the caller's thread
    assert (tmp_path / "c.toml").exists()


def test_data_that_is_not_toml_is_refused_when_the_save_is_asked(writer: Writer, tmp_path):
    with pytest.raises(TypeError):
        writer.write(tmp_path / "a.toml", {"n": object()})


def _plus(key: str, n: int):
    def change(document: dict[str, Any]) -> dict[str, Any]:
        return {**document, key: document.get(key, 0) + n}

    return change


def test_changes_are_applied_in_order_to_the_file_as_it_is_when_written(
    tmp_path: Path, writer: Writer, disk: Disk
) -> None:
    path = tmp_path / "a.toml"
    path.write_text("n = 100\n")

    def on_disk(at: Path) -> dict[str, Any]:
        return tomllib.loads(at.read_text())

    disk.hold()
    writer.write(tmp_path / "first.toml", {})
    assert disk.entered.wait(HANG_S)
    writer.update(path, on_disk, _plus("n", 1))
    writer.update(path, on_disk, _plus("n", 10))
    path.write_text("n = 200\nm = 1\n")  # another process wrote meanwhile: kept
    disk.release()
    writer.wait()
    assert disk.written == [("first.toml", {}), ("a.toml", {"n": 211, "m": 1})]  # once
    writer.write(path, {"n": 5})  # a whole text, then a change on top of it
    writer.update(path, on_disk, _plus("n", 1))
    writer.wait()
    assert tomllib.loads(path.read_text()) == {"n": 6}
    writer.update(path, on_disk, _plus("n", 1))  # a change, then a whole text in its place
    writer.write(path, {"n": 0})
    writer.wait()
    assert tomllib.loads(path.read_text()) == {"n": 0}
    assert writer.errors == []  # type: ignore[attr-defined]


def test_a_change_that_raises_is_reported_and_the_others_go_on(tmp_path: Path, writer: Writer):
    def broken(document: dict[str, Any]) -> dict[str, Any]:
        raise KeyError("a bug")

    writer.update(tmp_path / "bad.toml", lambda at: {}, broken)
    writer.write(tmp_path / "good.toml", {"n": 2})
    writer.wait()
    ((path, exc),) = writer.errors  # type: ignore[attr-defined]
    assert path == tmp_path / "bad.toml" and "KeyError" in str(exc)
    assert not (tmp_path / "bad.toml").exists()
    assert tomllib.loads((tmp_path / "good.toml").read_text()) == {"n": 2}
