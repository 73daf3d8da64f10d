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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["DescriptionFile"]

#: Seconds between two looks at the file.
POLL_SECONDS = 1.0


class DescriptionFile:
    """The description at ``path`` and the stamp (modification time, size) it was last read
    with."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.seen = self._stamp()

    def changed(self) -> bool:
        """Whether the file changed (or appeared, or went) since the last call."""
        stamp = self._stamp()
        if stamp == self.seen:
            return False
        self.seen = stamp
        return True

    def read(self, values: Mapping[str, int] | None = None) -> Any:
        """A compiled rulebook for the file's text, its parameters set to ``values``; raises
        ValueError: a DescriptionError or a RulesError (a start position past the rulebook's
        bounds), whose message starts with ``file:line:column:``, or a UserFileError naming
        the file (a pipe, a device or a file over the size cap is refused unread)."""
        from game.logic.rules.catalogue import rulebook_for_text
        from game.userfiles import read_text

        text = read_text(self.path, "game description")
        return rulebook_for_text(text, str(self.path), values)

    def _stamp(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)
