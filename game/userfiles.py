"""Reading a file a person named (``--load FILE``, ``load-from:FILE``): a regular file only, of
a bounded size, as UTF-8 text, with every problem one line that names the file and the reason.

A folder, a pipe or a device is refused before anything is read (opening a pipe to read waits
for a writer; reading a device may never end), and so is a file too big for what it claims to
be, so a wrong path can neither hang the program nor fill its memory.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "game.txt").write_bytes(b"f5\\x88d6")
5
>>> read_text(folder / "game.txt", "Reversi transcript")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
game.userfiles.UserFileError: .../game.txt: not a Reversi transcript: not UTF-8 text (byte 3)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

from game.errors import GamehallError

__all__ = ["MAX_TEXT_BYTES", "UserFileError", "read_text"]

#: What a text file a person names may hold at most (a transcript is a few hundred bytes).
MAX_TEXT_BYTES: Final = 1 << 20


class UserFileError(GamehallError, ValueError):
    """A file that cannot be read as what it was named for; the message names the file."""


def read_text(path: str | Path, what: str, limit: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of ``path``, which should be a ``what`` (``"Reversi transcript"``).

    Raises :class:`UserFileError` ("FILE: REASON") for a missing or unreadable file, a folder,
    a pipe or device, a file over ``limit`` bytes, or bytes that are not UTF-8.
    """
    name = os.fspath(path)
    try:
        # O_NONBLOCK: opening a pipe returns at once instead of waiting for a writer; the
        # descriptor is checked to be a regular file before anything is read from it.
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise UserFileError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise UserFileError(f"{name}: is a folder, not a {what}") from None
    except ValueError:  # a NUL character in the name
        raise UserFileError(f"{name!r}: not a usable file name") from None
    except OSError as exc:
        raise UserFileError(f"{name}: cannot read it: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserFileError(f"{name}: is a folder, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise UserFileError(f"{name}: not a regular file (a pipe or a device), not read")
        if info.st_size > limit:
            raise UserFileError(
                f"{name}: {info.st_size} bytes is too big for a {what} (at most {limit})"
            )
        with os.fdopen(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError as exc:
        raise UserFileError(f"{name}: cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew while we looked
        raise UserFileError(f"{name}: too big for a {what} (at most {limit} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte {exc.start + 1}"
        raise UserFileError(f"{name}: not a {what}: not UTF-8 text ({where})") from None
