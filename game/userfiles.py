"""Reading a file a person named (``--load FILE``, ``load-from:FILE``, a game description given
to ``play``, ``shot``, ``tournament`` or ``rules`` and read again by the window as it is
edited, a Cluedo case file): a regular file only, of a bounded size, as UTF-8 text, with every
problem one line that names the file and the reason. No other code opens such a file.

A folder, a pipe or a device is refused before anything is read (opening a pipe to read waits
for a writer; reading a device may never end), and so is a file over 1 MiB, so a wrong path
can neither hang the program nor fill its memory.

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
from pathlib import Path

from game.errors import GamehallError
from game.logic.quoting import excerpt
from game.tomlfile import UnusableFile, read_small_file

__all__ = ["NAME_SHOWN", "UserFileError", "read_bytes", "read_text", "shown"]

#: The longest file name a message shows whole.
NAME_SHOWN = 240


class UserFileError(GamehallError, ValueError):
    """A file that cannot be read as what it was named for; the message names the file."""


def read_text(path: str | Path, what: str) -> str:
    """The UTF-8 text of ``path``, which should be a ``what`` (``"Reversi transcript"``).

    Raises :class:`UserFileError` ("FILE: REASON") for a missing or unreadable file, a folder,
    a pipe or device, a file over :data:`~game.tomlfile.MAX_FILE_BYTES`, or bytes that are
    not UTF-8. The checks are the settings store's (:func:`game.tomlfile.read_small_file`).
    """
    name = os.fspath(path)
    data = read_bytes(name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte {exc.start + 1}"
        raise UserFileError(f"{shown(name)}: not a {what}: not UTF-8 text ({where})") from None


def read_bytes(path: str | Path) -> bytes:
    """The bytes of ``path`` (a file whose text comes in more than one encoding, a ``.zrf``
    file: its reader decodes them), with :func:`read_text`'s checks and refusals."""
    name = os.fspath(path)
    try:
        return read_small_file(Path(name))
    except (OSError, ValueError, UnusableFile) as exc:
        raise _refusal(name, exc) from None


def shown(name: str) -> str:
    """``name`` as a message shows it: whole when it is short and printable, else an excerpt
    (a 100 KB argument is not echoed whole)."""
    return name if len(name) <= NAME_SHOWN and name.isprintable() else excerpt(name)


def _refusal(name: str, error: OSError | ValueError | UnusableFile) -> UserFileError:
    """The one-line refusal of ``name`` for what reading it raised."""
    if isinstance(error, FileNotFoundError):
        return UserFileError(f"{shown(name)}: no such file")
    if isinstance(error, UnusableFile):
        return UserFileError(f"{shown(name)}: {error.why}")
    if isinstance(error, ValueError):  # a NUL character in the name
        return UserFileError(f"{excerpt(name)}: not a usable file name")
    return UserFileError(f"{shown(name)}: cannot read it: {error.strerror or error}")
