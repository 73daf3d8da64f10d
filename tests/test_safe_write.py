"""Every file the program writes goes through one safe writer (game.safewrite): a symbolic link,
a folder, a named pipe, a socket or a device at the file's place is refused with one line naming
the file, nothing there changes (a link's target included) and no temp file is left; a pipe is
never opened, so nothing hangs. Reversi's Save, the Cluedo console's save, screenshots and the
window's settings all refuse alike."""

from __future__ import annotations

import io
import os
import socket
import stat
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from game.engine.png import write_png
from game.games.clue.console import assistant
from game.safewrite import RefusedTarget, locked, write_bytes_atomic
from game.settings import Settings, Store
from game.writer import Writer
from tests.waiting import HANG_S

PRECIOUS = b"root:x:0:0:root:/root:/bin/bash\n"


class Place:
    """Something that is not a regular file, put at ``path``; ``unchanged()`` says whether it
    (and what a link points to) is as it was."""

    def __init__(self, kind: str, path: Path) -> None:
        self.kind, self.path = kind, path
        self.target = path.with_name("target.txt")
        self._closing: Callable[[], None] = lambda: None
        if kind == "a symbolic link":
            self.target.write_bytes(PRECIOUS)
            path.symlink_to(self.target)
        elif kind == "a folder":
            path.mkdir()
            (path / "inside").write_bytes(PRECIOUS)
        elif kind == "a named pipe":
            os.mkfifo(path)
        elif kind == "a socket":
            server = socket.socket(socket.AF_UNIX)
            server.bind(str(path))
            self._closing = server.close
        elif kind == "a device":  # /dev/null's numbers: writing to it would do no harm
            os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
        self.mode = os.lstat(path).st_mode

    def unchanged(self) -> bool:
        if os.lstat(self.path).st_mode != self.mode:
            return False
        if self.kind == "a symbolic link":
            return self.target.read_bytes() == PRECIOUS
        if self.kind == "a folder":
            return sorted(os.listdir(self.path)) == ["inside"]
        return True

    def close(self) -> None:
        self._closing()


KINDS = [
    "a symbolic link",
    "a folder",
    "a named pipe",
    "a socket",
    pytest.param(
        "a device",
        marks=pytest.mark.skipif(
            not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device takes root"
        ),
    ),
]


@pytest.fixture(params=KINDS)
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    folder = tmp_path / "files"
    folder.mkdir()
    made = Place(request.param, folder / "saved.txt")
    yield made
    made.close()


def in_thread(work: Callable[[], object]) -> BaseException | None:
    """What ``work`` raised (None: nothing), run in a thread so that a write that blocks on a
    pipe fails the test instead of hanging it."""
    raised: list[BaseException | None] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # handed to the test
            raised.append(exc)
        else:
            raised.append(None)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(HANG_S)
    assert raised, "the write blocked"
    return raised[0]


def only_the_place_is_left(place: Place) -> bool:
    """No temp file beside the place (nor anything else new)."""
    expected = {place.path.name} | ({place.target.name} if place.target.exists() else set())
    return set(os.listdir(place.path.parent)) == expected


def test_the_writer_refuses_what_is_not_a_regular_file(place: Place) -> None:
    raised = in_thread(lambda: write_bytes_atomic(place.path, b"f5\n"))
    assert isinstance(raised, RefusedTarget)
    assert str(raised) == (f"{place.path} is {place.kind}, not a regular file; nothing was written")
    assert place.unchanged() and only_the_place_is_left(place)


def test_a_regular_file_is_replaced_and_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_bytes(b"old")
    path.chmod(0o640)
    hard = tmp_path / "hard.txt"
    os.link(path, hard)  # another name of the same file: renamed over, never written through
    write_bytes_atomic(path, b"f5\n")
    assert path.read_bytes() == b"f5\n" and hard.read_bytes() == b"old"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["game.txt", "hard.txt"]


def test_a_name_with_a_nul_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RefusedTarget, match="not a usable file name"):
        write_bytes_atomic(tmp_path / "a\0b", b"x")


def test_the_cluedo_console_save_refuses_and_keeps_the_session(place: Place) -> None:
    out = io.StringIO()
    good = place.path.with_name("case.txt")
    lines = [
        "deck classic", "seats 4", "dealer 3", "me 0",
        "hand Scarlett, Mustard, Candlestick, Kitchen, Ballroom",
        "suggest 1: Plum, Rope, Hall; passed 2; showed 3",
        f"save {place.path}",
        f"save {good}",
        "quit",
    ]  # fmt: skip
    assert in_thread(lambda: assistant(iter(lines), out)) is None
    said = out.getvalue()
    assert (
        f"could not save {place.path}: is {place.kind}, not a regular file; nothing was written"
        in said
    )
    assert place.unchanged()
    assert "suggest 1: Professor Plum, Rope, Hall" in good.read_text()  # nothing was lost
    good.unlink()
    assert only_the_place_is_left(place)


def test_a_screenshot_refuses(place: Place) -> None:
    pixels = np.zeros((2, 2, 3), dtype=np.uint8)
    raised = in_thread(lambda: write_png(place.path, pixels))
    assert isinstance(raised, RefusedTarget)
    assert place.unchanged() and only_the_place_is_left(place)


def test_the_windows_settings_file_refuses_and_the_writer_says_so(place: Place) -> None:
    errors: list[str] = []
    writer = Writer(on_error=lambda path, exc: errors.append(f"{path.name}: {exc}"))
    os.rename(place.path, place.path.with_name("settings.toml"))
    place.path = place.path.with_name("settings.toml")
    store = Store(place.path.parent, writer=writer)
    try:
        settings = Settings(last_game="river")
        store.save_settings(settings)
        writer.wait()
    finally:
        writer.close()
    assert errors == [
        f"settings.toml: {place.path} is {place.kind}, not a regular file; nothing was written"
    ]
    assert place.unchanged() and only_the_place_is_left(place)


# --- the lock beside a file ------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX locks and pipes")
def test_a_lock_held_elsewhere_is_waited_for_then_said_and_a_hostile_lock_file_is_refused(
    tmp_path: Path,
) -> None:
    import fcntl

    path = tmp_path / "statistics.toml"
    with locked(path):
        assert (tmp_path / "statistics.toml.lock").is_file()
    with open(tmp_path / "statistics.toml.lock", "rb") as other:  # another holder of the lock
        fcntl.flock(other.fileno(), fcntl.LOCK_EX)
        with pytest.raises(OSError) as caught, locked(path, wait_s=0):
            pass
    assert caught.value.strerror == (
        "another process has held statistics.toml.lock for 0 s; nothing was written"
    )
    (tmp_path / "statistics.toml.lock").unlink()
    os.mkfifo(tmp_path / "statistics.toml.lock")  # never opened: it would wait for a reader
    raised = in_thread(lambda: locked(path).__enter__())
    assert isinstance(raised, RefusedTarget) and "is a named pipe" in str(raised)


# --- no other way to write a file ------------------------------------------------------------

GAME = Path(__file__).resolve().parents[1] / "game"
#: Modules that may open a file to write, and why.
ALLOWED = {
    "game/safewrite.py": "the one writer",
    "game/logic/workers/confine.py": "a robot's stdout and stderr sent to os.devnull",
    "game/logic/workers/jail_linux.py": "a robot jail's id maps, the kernel's /proc/self files",
    "game/logic/workers/jail_reads.py": "empty mount points made in a robot's private tmpfs",
    "game/logic/rules/compiled/cache.py": (
        "a described game's generated numba module and the files beside it in the cache "
        "folder, written whole and renamed (the logic layer imports only the standard library, "
        "not the one writer)"
    ),
    "game/logic/rules/compiled/worker.py": (
        "the lock (made only if missing) and the error log of the process that compiles a "
        "described game's module"
    ),
}
WRITING_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}


def writes_in(path: Path) -> list[str]:
    """Each call in ``path`` that writes a file by another way than game.safewrite."""
    import ast

    text = path.read_text(encoding="utf-8")
    if not any(w in text for w in ("write_", "mkstemp", "TemporaryFile", "os.replace", "open(")):
        return []  # nothing to look for: saves parsing most of the package
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        method = isinstance(func, ast.Attribute)
        if (
            (name in ("write_text", "write_bytes") and method)  # Path's (not a function's)
            or name in ("mkstemp", "NamedTemporaryFile")
            or (name == "replace" and ast.unparse(func) == "os.replace")
        ):
            found.append(f"{ast.unparse(func)} at line {node.lineno}")
        elif name == "open":
            modes = [a for a in node.args[1:2] if isinstance(a, ast.Constant)]
            modes += [k.value for k in node.keywords if k.arg == "mode"]
            flags = {
                n.attr for a in node.args[1:2] for n in ast.walk(a) if isinstance(n, ast.Attribute)
            }
            texts = [
                m.value for m in modes if isinstance(m, ast.Constant) and isinstance(m.value, str)
            ]
            if any(set(t) & set("wax+") for t in texts) or flags & WRITING_FLAGS:
                found.append(f"{ast.unparse(func)} at line {node.lineno}")
    return found


def test_no_module_writes_a_file_but_through_the_one_writer() -> None:
    offending = {}
    for path in sorted(GAME.rglob("*.py")):
        where = path.relative_to(GAME.parent).as_posix()
        if where not in ALLOWED and (calls := writes_in(path)):
            offending[where] = calls
    assert offending == {}


def test_the_check_sees_each_way_of_writing(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "import os, tempfile\n"
        "def f(p):\n"
        "    p.write_text('x')\n"
        "    open(p, 'a')\n"
        "    p.open(mode='wb')\n"
        "    os.open(p, os.O_WRONLY | os.O_CREAT)\n"
        "    tempfile.mkstemp()\n"
        "    os.replace(p, p)\n"
        "    open(p, 'rb'); os.open(p, os.O_RDONLY); 'a b'.replace('a', 'b')\n"
    )
    assert [call.split(" at ")[0] for call in writes_in(source)] == [
        "p.write_text", "open", "p.open", "os.open", "tempfile.mkstemp", "os.replace"
    ]  # fmt: skip


def test_a_screenshot_place_is_refused_before_anything_is_drawn(place: Place) -> None:
    from game.arguments import output_file

    with pytest.raises(ValueError, match=f"--out .*{place.kind}, not a regular file"):
        output_file(place.path)
    assert place.unchanged()
