"""One small TOML file on disk, read and written so that nothing in it can crash, hang or
lose data: the layer under :mod:`game.settings`.

:func:`read_document` takes a regular file (or a link to one) of at most
:data:`MAX_FILE_BYTES`, looked at before it is opened and opened without blocking, so a named
pipe, a device or a folder in its place is refused at once; a UTF-8 byte order mark is skipped.
Anything it cannot use raises :class:`UnusableFile`, whose ``why`` completes the file's name
for a message; :func:`set_aside` then renames the file to ``NAME.bad-YYYYmmdd-HHMMSS`` and
:func:`keep_copy` keeps a copy of a file that is about to be rewritten (a copy that cannot be
written whole, on a full disk, is not left behind). :func:`write_atomic` writes through
:mod:`game.safewrite`, the one writer of every file: a locked temp file, fsynced and renamed
over the file, so a killed write leaves the old file or the new one, and anything but a
regular file at the file's place (a link, a pipe, a device, a folder) is refused;
:func:`remove_stray_temps` removes what a killed write left, never a temp file a running
write holds.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import sys
import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import tomli_w

from game.safewrite import temp_pattern, try_lock, write_bytes_atomic, write_new

__all__ = [
    "MAX_FILE_BYTES",
    "UnusableFile",
    "encode",
    "keep_copy",
    "one_line",
    "read_document",
    "remove_stray_temps",
    "set_aside",
    "write_atomic",
    "write_bytes_atomic",
]

logger = logging.getLogger(__name__)

#: The most bytes such a file may hold; a bigger one is not read.
MAX_FILE_BYTES: Final = 1 << 20

#: Opening a pipe to read waits for a writer unless non-blocking; where there is no such flag
#: (Windows) there are no pipes in the file system either.
_O_NONBLOCK: Final = getattr(os, "O_NONBLOCK", 0)
_O_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_O_BINARY: Final = getattr(os, "O_BINARY", 0)
_BOM: Final = b"\xef\xbb\xbf"
#: The longest line a message may be.
_MAX_MESSAGE: Final = 300


class UnusableFile(Exception):
    """A file that is not a small regular file, cannot be read, or is not TOML: ``why``
    completes its name ("is a named pipe, not a regular file")."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def read_document(path: Path) -> tuple[dict[str, Any], bytes] | None:
    """The TOML document in ``path`` and the file's bytes; None when there is no such file (a
    link to nothing included). Raises :class:`UnusableFile` for any other file it cannot
    use, without waiting on it."""
    try:
        raw = read_small_file(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UnusableFile(f"could not be read ({exc.strerror or exc})") from None
    return parse(raw), raw


def read_small_file(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file (or a link to one) of at most
    :data:`MAX_FILE_BYTES`; raises :class:`UnusableFile` for anything else, without waiting."""
    _check_small_file(os.stat(path))  # before opening: opening a device can do something
    fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_BINARY)
    try:
        _check_small_file(os.fstat(fd))  # what was opened, should it have changed meanwhile
        data = b""
        while len(data) <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:  # it grew while being read
        raise UnusableFile(f"is more than the {MAX_FILE_BYTES} bytes such a file may hold")
    return data


def parse(raw: bytes) -> dict[str, Any]:
    """The TOML document in ``raw`` (a UTF-8 byte order mark skipped); raises
    :class:`UnusableFile` saying why it is not one."""
    try:
        return tomllib.loads(raw.removeprefix(_BOM).decode("utf-8"))
    except UnicodeDecodeError as exc:
        start = exc.start + (len(_BOM) if raw.startswith(_BOM) else 0)
        raise UnusableFile(f"is not valid TOML (byte {start}): not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise UnusableFile(f"is not valid TOML {_where_and_why(exc)}") from None
    except RecursionError:
        raise UnusableFile("is not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as exc:  # Python's limit on the digits of an int read from text
        raise UnusableFile(f"is not valid TOML: a value cannot be read ({exc})") from None


def set_aside(path: Path, why: str) -> str:
    """Rename ``path`` to ``NAME.bad-YYYYmmdd-HHMMSS`` (a free name) and return the message
    for the person: the file's name, ``why``, and where it is kept."""
    aside = _aside_name(path)
    try:
        path.rename(aside)
    except OSError as exc:
        message = (
            f"{path.name} {why}; could not be set aside ({exc.strerror or exc}), "
            "starting with defaults"
        )
    else:
        message = f"{path.name} {why}; kept as {aside.name}, starting with defaults"
    message = one_line(message)
    logger.info("%s", message)  # returned: the caller shows it to the person
    return message


def keep_copy(path: Path, raw: bytes) -> str:
    """Keep ``raw``, the bytes of a file with rejected values, before anything rewrites it
    (once: a copy with the same bytes already there is named instead)."""
    try:
        for old in sorted(path.parent.glob(f"{path.name}.bad-*")):
            if _holds(old, raw):
                return f"{path.name}: the file as it was is kept as {old.name}"
        aside = _aside_name(path)
        write_new(aside, raw)  # a full disk leaves no empty copy behind
    except OSError as exc:
        return f"{path.name}: a copy could not be kept aside ({exc.strerror or exc})"
    return f"{path.name}: the file as it was is kept as {aside.name}"


def encode(data: dict[str, Any]) -> bytes:
    """``data`` as the bytes of a TOML file (TypeError, ValueError: it is not TOML-ready)."""
    return tomli_w.dumps(data).encode("utf-8")


def write_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as TOML to ``path`` with :func:`game.safewrite.write_bytes_atomic` (the
    folder is made if missing); raises OSError when it cannot be written (RefusedTarget: not
    a regular file there), leaving the old file as it was."""
    write_bytes_atomic(path, encode(data))


def remove_stray_temps(path: Path) -> None:
    """Remove the temp files a killed write of ``path`` left; one a write in another process
    still holds (locked, or open on Windows) is left alone."""
    try:
        strays = list(path.parent.glob(temp_pattern(path)))
    except OSError:
        return
    for tmp in strays:
        if sys.platform == "win32":  # Windows refuses to remove a file another process has open
            try:
                tmp.unlink()
            except OSError:
                continue
        else:
            try:
                fd = os.open(tmp, os.O_RDONLY | _O_NONBLOCK | _O_NOFOLLOW)
            except OSError:  # gone already, a link, or not ours to read
                continue
            try:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode) or not try_lock(fd):
                    continue
                now = os.lstat(tmp)  # still the same file: not renamed away and made anew
                if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
                    continue
                tmp.unlink()
            except OSError:
                continue
            finally:
                os.close(fd)
        logger.info("removed %s, left by a write that did not finish", tmp)


def one_line(text: str) -> str:
    """``text`` with control characters escaped (a key may hold a newline or a terminal
    escape) and cut to :data:`_MAX_MESSAGE` characters."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


# --- private helpers: they trust their input -------------------------------------------------


def _check_small_file(info: os.stat_result) -> None:
    mode = info.st_mode
    if stat.S_ISREG(mode):
        if info.st_size > MAX_FILE_BYTES:
            raise UnusableFile(
                f"is {info.st_size} bytes, more than the {MAX_FILE_BYTES} such a file may hold"
            )
        return
    if stat.S_ISDIR(mode):
        kind = "a folder"
    elif stat.S_ISFIFO(mode):
        kind = "a named pipe"
    elif stat.S_ISSOCK(mode):
        kind = "a socket"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a device"
    else:
        kind = "something else"
    raise UnusableFile(f"is {kind}, not a regular file")


def _holds(path: Path, raw: bytes) -> bool:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(raw):
            return False
        return read_small_file(path) == raw
    except (OSError, UnusableFile):
        return False


def _where_and_why(exc: tomllib.TOMLDecodeError) -> str:
    # Python 3.11's TOMLDecodeError carries the place only in its text: "... (at line 3, column 9)".
    text = str(exc)
    match = re.fullmatch(r"(.*) \(at (.+)\)", text, flags=re.DOTALL)
    if match is None:
        return f"({text})"
    return f"({match.group(2)}): {match.group(1)}"


def _aside_name(path: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = path.with_name(f"{path.name}.bad-{stamp}-{n}")
    return aside
