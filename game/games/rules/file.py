"""A person's game description being written while it is played: the file is looked at
about once a second, and read again when it changes.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.txt"
>>> _ = path.write_text("(game x)")
>>> watch = DescriptionFile(path)
>>> watch.changed()
False
>>> _ = path.write_text("(game x) ; longer")
>>> watch.changed(), watch.changed()
(True, False)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["DescriptionFile", "read_rulebook", "zrf_file"]

#: Seconds between two looks at the file.
POLL_SECONDS = 1.0


class DescriptionFile:
    """The description at ``path`` and the stamp (modification time, size) it was last read
    with."""

    def __init__(self, path: Path, variant: int = 0) -> None:
        self.path = Path(path)
        self.variant = variant
        self.seen = self._stamp()

    def changed(self) -> bool:
        """Whether the file changed (or appeared, or went) since the last call."""
        stamp = self._stamp()
        if stamp == self.seen:
            return False
        self.seen = stamp
        return True

    def read(self, values: Mapping[str, int] | None = None) -> Any:
        """A compiled rulebook for the file (:func:`read_rulebook`)."""
        return read_rulebook(self.path, values, self.variant)

    def _stamp(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)


def read_rulebook(path: Path, values: Mapping[str, int] | None = None, variant: int = 0) -> Any:
    """A compiled rulebook for the description at ``path``, its parameters set to ``values``:
    our own language, or game ``variant`` of a Zillions file (``.zrf``, whose
    ``(include "NAME")`` reads a file of the same folder). Raises ValueError: a
    DescriptionError or a RulesError (a start position past the rulebook's bounds), whose
    message starts with ``file:line:column:``, or a UserFileError naming the file (a pipe, a
    device or a file over the size cap is refused unread)."""
    from game.logic.rules.catalogue import rulebook_for_text, rulebook_for_zrf
    from game.logic.rules.sexpr import DescriptionError
    from game.userfiles import read_text

    path = Path(path)
    if path.suffix.lower() != ".zrf":
        if variant:
            raise DescriptionError("only a .zrf file has variants (--variant)", str(path))
        return rulebook_for_text(read_text(path, "game description"), str(path), values)
    return rulebook_for_zrf(*zrf_file(path, variant))


def zrf_file(path: Path, variant: int = 0) -> tuple[str, str, int, Callable[[str], str]]:
    """What :func:`game.logic.rules.catalogue.rulebook_for_zrf` reads of a ``.zrf`` file:
    its text (UTF-8 or Windows-1252), its name, ``variant``, and the reader of a file of the
    same folder that an ``(include "NAME")`` names; raises UserFileError."""
    from game.logic.zrf.load import decode
    from game.userfiles import read_bytes

    path = Path(path)

    def include(name: str) -> str:
        return decode(read_bytes(path.with_name(name)))

    return decode(read_bytes(path)), str(path), variant, include
