"""The one way Gamehall writes a file: settings, statistics, kept games, Reversi's saved
transcripts, the Cluedo case files and screenshots all go through :func:`write_bytes_atomic`.

Before anything is written it looks at what is at the file's place without following a link
(``os.lstat``) and refuses a symbolic link, a folder, a named pipe, a socket or a device with
:class:`RefusedTarget`, an ``OSError`` whose text names the file and what is there. Nothing is
ever opened at the file's place: a pipe cannot hang the program, a device is neither written
to nor replaced, and a link's target is left as it was. A regular file (or none) is replaced by
a temp file written in the same folder, fsynced and renamed over it, so a killed write leaves
the old file or the new one, and a full disk leaves the old file and no temp file.

:func:`locked` holds a lock on a lock file beside a file (``statistics.toml.lock``) while a
process reads the file, changes it and writes it, so that two processes changing it at once
both get their change in. It never locks the file itself, which each write replaces.
:func:`write_new` writes a file under a name that must not exist yet (the copy of a rejected
settings file kept aside) and leaves nothing behind when it fails.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_bytes_atomic(folder / "a.txt", b"f5")
>>> (folder / "link.txt").symlink_to(folder / "a.txt")
>>> write_bytes_atomic(folder / "link.txt", b"d6")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
game.safewrite.RefusedTarget: .../link.txt is a symbolic link, not a regular file; nothing ...
>>> (folder / "a.txt").read_bytes()
b'f5'
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Final

__all__ = [
    "LOCK_WAIT_S",
    "RefusedTarget",
    "check_target",
    "locked",
    "temp_pattern",
    "try_lock",
    "write_bytes_atomic",
    "write_new",
]

log = logging.getLogger(__name__)

#: How long :func:`locked` waits for another process to let go of a lock file.
LOCK_WAIT_S: Final = 30.0

_O_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)
_O_CLOEXEC: Final = getattr(os, "O_CLOEXEC", 0)
_O_BINARY: Final = getattr(os, "O_BINARY", 0)
#: The most characters of a file's name its temp file's name repeats (a name is at most 255).
_NAME_IN_TEMP: Final = 64


class RefusedTarget(OSError):
    """What is at a file's place is not a regular file (or the name is not a usable one),
    so nothing was written there; the text names the file and what is there."""

    def __str__(self) -> str:
        return f"{self.filename} {self.strerror}"


def check_target(path: Path) -> None:
    """Raise :class:`RefusedTarget` if something other than a regular file is at ``path``
    (a symbolic link, a folder, a named pipe, a socket, a device) or the name cannot be one
    (a NUL character in it); nothing there, or a regular file, passes. Looks without
    following a link or opening anything."""
    _look(path)


def write_bytes_atomic(path: Path, data: bytes, *, make_folder: bool = True) -> None:
    """Write ``data`` to ``path``: refused (:class:`RefusedTarget`) when anything but a
    regular file is there, else a temp file in the same folder, written, fsynced and renamed
    over it. The folder is made if missing unless ``make_folder`` is False. Raises OSError when
    it cannot be written, leaving the old file as it was and no temp file."""
    path = Path(path)
    before = _look(path)
    folder = path.parent
    if make_folder:
        folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(3):
        fd, tmp = _make_temp(path)
        try:
            try:
                if before is not None and hasattr(os, "fchmod"):  # the file keeps its mode
                    os.fchmod(fd, stat.S_IMODE(before.st_mode) & 0o777)
                # Held until renamed, so that a load in another process meanwhile does not
                # take this for a killed write's leftover (game.tomlfile.remove_stray_temps);
                # Windows keeps an open file from being removed without it.
                if sys.platform != "win32":
                    try_lock(fd)
                _write_all(fd, data)
                os.fsync(fd)
                if sys.platform != "win32":  # Windows cannot rename a file that is open
                    _replace(tmp, path)
            finally:
                os.close(fd)
            if sys.platform == "win32":
                _replace(tmp, path)
        except FileNotFoundError:
            # Removed by a load in another process between its making and its locking.
            tmp.unlink(missing_ok=True)
            if attempt == 2:
                raise
            continue
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        break
    _fsync_dir(folder)
    log.debug("wrote %s", path)


def write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, which must not exist (FileExistsError, a link included);
    on any failure (a full disk) nothing is left at ``path``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
    fd = os.open(path, flags, 0o666)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with suppress(OSError):
            os.unlink(path)
        raise


def temp_pattern(path: Path) -> str:
    """The glob pattern of the temp files :func:`write_bytes_atomic` makes for ``path``."""
    return f".{path.name[:_NAME_IN_TEMP]}.*.tmp"


@contextmanager
def locked(path: Path, wait_s: float = LOCK_WAIT_S) -> Iterator[None]:
    """Hold the lock on ``PATH.lock`` (made if missing, with its folder) for this process
    alone, waiting up to ``wait_s`` seconds for another process to let go of it. Raises
    :class:`RefusedTarget` when the lock file's place holds something else, and OSError when
    it cannot be made or is still held after the wait. The lock goes with the process, so one
    killed while holding it frees it."""
    lock = path.with_name(f"{path.name}.lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    check_target(lock)
    # Not following a link and not waiting on a pipe, should one be put there meanwhile.
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC, 0o644)
    try:
        found = _not_a_file(os.fstat(fd).st_mode)
        if found is not None:
            kind, code = found
            raise RefusedTarget(
                code, f"is {kind}, not a regular file; nothing was written", str(lock)
            )
        deadline = time.monotonic() + wait_s
        pause = 0.001
        while not try_lock(fd):
            if time.monotonic() >= deadline:
                raise OSError(
                    errno.ETIMEDOUT,
                    f"another process has held {lock.name} for {wait_s:g} s; nothing was written",
                    str(path),
                )
            time.sleep(pause)  # flock has no timeout of its own
            pause = min(pause * 2, 0.05)
        yield
    finally:
        os.close(fd)  # lets go of the lock


def try_lock(fd: int) -> bool:
    """Lock the file open as ``fd`` for this process alone, without waiting; False when
    another process (or another open file in this one) holds it."""
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


# --- private helpers: they trust their input -------------------------------------------------


def _look(path: Path) -> os.stat_result | None:
    """What is at ``path`` if it is a regular file, None if nothing is; raises
    :class:`RefusedTarget` for anything else."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except ValueError:  # a NUL character in the name
        raise RefusedTarget(
            errno.EINVAL, "is not a usable file name; nothing was written", repr(str(path))
        ) from None
    found = _not_a_file(info.st_mode)
    if found is not None:
        kind, code = found
        raise RefusedTarget(code, f"is {kind}, not a regular file; nothing was written", str(path))
    return info


def _make_temp(path: Path) -> tuple[int, Path]:
    """A new temp file beside ``path``, open to write; made as a new file is (the umask
    applies), where tempfile.mkstemp would make it readable by its owner alone."""
    prefix = f".{path.name[:_NAME_IN_TEMP]}."
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
    for _ in range(100):
        tmp = path.with_name(f"{prefix}{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temp file", str(path))


def _not_a_file(mode: int) -> tuple[str, int] | None:
    """What ``mode`` is when it is not a regular file, and the errno that goes with it."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link", errno.ELOOP
    if stat.S_ISDIR(mode):
        return "a folder", errno.EISDIR
    if stat.S_ISFIFO(mode):
        return "a named pipe", errno.EEXIST
    if stat.S_ISSOCK(mode):
        return "a socket", errno.EEXIST
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device", errno.EEXIST
    return "something else", errno.EEXIST


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _replace(tmp: Path, path: Path) -> None:
    # Looked at again just before: what was put there since the first look is refused too.
    # (What is put there after this look is replaced, never written through: a rename
    # replaces the name, not what a link points to.)
    _look(path)
    os.replace(tmp, path)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; not possible on Windows, where it does not matter.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
