"""Small files written on a thread of their own, so that a frame never waits for the disk, and
changed under a lock, so that two processes changing one file both get their change in.

A safe write (:func:`game.safewrite.write_bytes_atomic`) flushes the file and its folder to
the disk: tens of milliseconds on a quiet machine, hundreds on a busy one, and all of it a
frame's when the drawing thread writes (the settings written half a second after the window
first shows held that frame for 0.2 s). A :class:`Writer` takes what to write at once and
writes it on its thread. There are two kinds of write:

- :meth:`Writer.write`: a whole new text (a kept game). The text is taken when the write is
  asked, so what is written is what the caller had then; a file asked for again before its
  last text was written is written once, with the newest text.
- :meth:`Writer.update`: a change of the document on disk (the settings a window changed, one
  more game counted in the statistics). It is applied to the file as it is when the write
  happens, read while holding the lock beside it (:func:`game.safewrite.locked`), so a change
  another process made since this one loaded the file is kept. Changes asked for before the
  last was written are applied in order and written once.

Reading or removing a file first waits for its write (:meth:`Writer.wait`), so what was saved
is what is read back. A write that fails is handed to ``on_error`` (the window prints it) and
the others go on. :meth:`Writer.close` writes what is left and ends the thread; a write asked
for after it is done at once, on the caller's thread. :func:`save` and :func:`update` do the
same with or without a writer.

>>> import tempfile, tomllib
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> writer = Writer(on_error=lambda path, exc: print(path.name, exc))
>>> writer.write(folder / "a.toml", {"n": 1}); writer.write(folder / "a.toml", {"n": 2})
>>> def more(document): return {"n": document.get("n", 0) + 10}
>>> def read(path): return tomllib.loads(path.read_text())  # what is there when it writes
>>> writer.update(folder / "a.toml", read, more)
>>> writer.wait(folder / "a.toml"); (folder / "a.toml").read_text()
'n = 12\\n'
>>> writer.close()
"""

from __future__ import annotations

import errno
import logging
import threading
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from game.safewrite import locked, write_bytes_atomic
from game.tomlfile import encode

__all__ = ["Change", "Reader", "Writer", "save", "settled", "update"]

log = logging.getLogger(__name__)

#: A change of a document: the document as it is on disk now in, the document to write out.
Change: TypeAlias = Callable[[dict[str, Any]], dict[str, Any]]
#: What reads the document in a file as it is on disk now (``{}`` when there is none).
Reader: TypeAlias = Callable[[Path], dict[str, Any]]


@dataclass
class _Pending:
    """What is owed to one file: a whole text, changes to apply on top of it (or on top of
    what ``read`` finds on disk when there is no text), or both."""

    text: bytes | None = None
    read: Reader | None = None
    changes: list[Change] = field(default_factory=list)


class Writer:
    """Writes TOML files in the background (see the module)."""

    def __init__(self, on_error: Callable[[Path, OSError], None]) -> None:
        self.on_error = on_error
        self._changed = threading.Condition()
        self._pending: dict[Path, _Pending] = {}  # file -> what to write, oldest file first
        self._writing: Path | None = None
        self._thread: threading.Thread | None = None
        self._closed = False

    def write(self, path: Path, data: dict[str, Any]) -> None:
        """Write ``data`` (TOML-ready) to ``path`` soon, in place of what is there; data that
        is not TOML raises here (TypeError, ValueError), as the caller's mistake."""
        self._ask(path, _Pending(text=encode(data)))

    def update(self, path: Path, read: Reader, change: Change) -> None:
        """Apply ``change`` to the document in ``path`` soon: to what ``read`` finds there
        when the write happens (under the lock beside the file), after the changes asked for
        before it."""
        self._ask(path, _Pending(read=read, changes=[change]))

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

    def _ask(self, path: Path, new: _Pending) -> None:
        with self._changed:
            if not self._closed:
                old = self._pending.pop(path, None)
                if old is not None and new.text is None:  # changes go on top of what is owed
                    new = _Pending(old.text, old.read or new.read, old.changes + new.changes)
                self._pending[path] = new
                self._start()
                self._changed.notify_all()
                return
        self._write(path, new)

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
                pending = self._pending.pop(path)
                self._writing = path
            try:
                self._write(path, pending)
            finally:
                with self._changed:
                    self._writing = None
                    self._changed.notify_all()

    def _write(self, path: Path, pending: _Pending) -> None:
        try:
            _apply(path, pending)
        except Exception as exc:  # a write that fails never stops the others
            if not isinstance(exc, OSError):  # a change that raised: a bug, said as one
                log.error("could not write %s", path, exc_info=True)
                exc = OSError(errno.EIO, f"could not be written ({type(exc).__name__}: {exc})")
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
        _apply(path, _Pending(text=encode(data)))


def update(writer: Writer | None, path: Path, read: Reader, change: Change) -> None:
    """Apply ``change`` to the document in ``path`` as :meth:`Writer.update` does: by
    ``writer``, or at once where there is none (raises OSError when it cannot be written)."""
    if writer is not None:
        writer.update(path, read, change)
    else:
        _apply(path, _Pending(read=read, changes=[change]))


def settled(writer: Writer | None, path: Path) -> Path:
    """``path``, once ``writer`` (if any) has no write of it pending or under way."""
    if writer is not None:
        writer.wait(path)
    return path


def _apply(path: Path, pending: _Pending) -> None:
    """Write what ``pending`` owes ``path``: its text, or the document read, changed and
    written while holding the lock beside the file."""
    if not pending.changes:
        assert pending.text is not None
        write_bytes_atomic(path, pending.text)
        return
    with locked(path):
        if pending.text is not None:
            document = tomllib.loads(pending.text.decode("utf-8"))
        else:
            assert pending.read is not None
            document = pending.read(path)
        for change in pending.changes:
            document = change(document)
        write_bytes_atomic(path, encode(document))
