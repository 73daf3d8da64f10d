"""Small files written on a thread of their own, so that a frame never waits for the disk.

A safe write (:func:`game.tomlfile.write_atomic`) flushes the file and its folder to the disk:
tens of milliseconds on a quiet machine, hundreds on a busy one, and all of it a frame's when
the drawing thread writes (the settings written half a second after the window first shows
held that frame for 0.2 s). A :class:`Writer` takes the file's text at once, so what is
written is what the caller had when it asked, and writes it on its thread. A file asked for
again before its last text was written is written once, with the newest text. Reading or
removing a file first waits for its write (:meth:`Writer.wait`), so what was saved is what is
read back. A write that fails is handed to ``on_error`` (the window prints it) and the others go
on. :meth:`Writer.close` writes what is left and ends the thread; a write asked for after it is
done at once, on the caller's thread.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> writer = Writer(on_error=lambda path, exc: print(path.name, exc))
>>> writer.write(folder / "a.toml", {"n": 1}); writer.write(folder / "a.toml", {"n": 2})
>>> writer.wait(folder / "a.toml"); (folder / "a.toml").read_text()
'n = 2\\n'
>>> writer.close()
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.tomlfile import encode, write_atomic, write_bytes_atomic

__all__ = ["Writer", "save", "settled"]

log = logging.getLogger(__name__)


class Writer:
    """Writes TOML files in the background, the newest text of each (see the module)."""

    def __init__(self, on_error: Callable[[Path, OSError], None]) -> None:
        self.on_error = on_error
        self._changed = threading.Condition()
        self._pending: dict[Path, bytes] = {}  # file -> the text to write, oldest first
        self._writing: Path | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def write(self, path: Path, data: dict[str, Any]) -> None:
        """Write ``data`` (TOML-ready) to ``path`` soon; data that is not TOML raises here
        (TypeError, ValueError), as the caller's mistake."""
        text = encode(data)
        with self._changed:
            if not self._closed:
                self._pending.pop(path, None)
                self._pending[path] = text
                self._start()
                self._changed.notify_all()
                return
        self._write(path, text)

    def wait(self, path: Path | None = None) -> None:
        """Return once ``path`` (None: every file) has no write pending or under way."""
        with self._changed:
            self._changed.wait_for(lambda: not self._owes(path))

    def close(self) -> None:
        """Write what is pending, then end the thread."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join()

    def _owes(self, path: Path | None) -> bool:
        if path is None:
            return bool(self._pending) or self._writing is not None
        return path in self._pending or self._writing == path

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="file writer", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._pending or self._closed)
                if not self._pending:
                    return
                path = next(iter(self._pending))
                text = self._pending.pop(path)
                self._writing = path
            try:
                self._write(path, text)
            finally:
                with self._changed:
                    self._writing = None
                    self._changed.notify_all()

    def _write(self, path: Path, text: bytes) -> None:
        try:
            write_bytes_atomic(path, text)
        except OSError as exc:
            try:
                self.on_error(path, exc)
            except Exception:  # a report that fails never stops the writing
                log.exception("could not report that %s was not written", path)


def save(writer: Writer | None, path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path``: by ``writer`` (which reports a failure), or at once where
    there is none (raises OSError when it cannot be written)."""
    if writer is not None:
        writer.write(path, data)
    else:
        write_atomic(path, data)


def settled(writer: Writer | None, path: Path) -> Path:
    """``path``, once ``writer`` (if any) has no write of it pending or under way."""
    if writer is not None:
        writer.wait(path)
    return path
