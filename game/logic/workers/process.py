"""One worker process and the game's end of its pipe: how every process the game spawns is
started, spoken to, waited for and ended.

A :class:`Worker` starts ``target(connection, *args)`` in a process of its own with the
``spawn`` start method (the same start on every platform, and never a fork of a process that
may hold threads and a GL context), the worker's end of a duplex pipe first. Then:

- :meth:`Worker.send` pickles a message to it; :class:`WorkerGone` when it had ended (its end
  of the pipe is closed): nothing was started there;
- :meth:`Worker.wait` waits for its next message, up to a time limit, on the pipe and the
  process's sentinel together (an event, not a sleep), running a ``check`` between polls for
  what the caller watches meanwhile (a stop flag, a processor-time budget);
- :meth:`Worker.receive` reads that message: at most ``limit`` bytes (a longer one ends the
  worker: the rest of it would be read as the next message) and, with ``plain``, only plain
  data (text, numbers, tuples, lists, dicts): a message that names a class or a function
  would import a stranger's module here, so it is refused (:class:`NotPlainData`); a process
  that ended with nothing more to say is :class:`WorkerLost`;
- :meth:`Worker.end` kills it and waits for it; :meth:`Worker.exit_words` says how it ended.

A worker's target reads and writes its end of the pipe with
:meth:`~multiprocessing.connection.Connection.recv` and ``send`` (or ``recv_bytes`` and
``send_bytes``, whichever the caller's protocol uses); what it sends is pickled.

>>> worker = Worker("gamehall-doctest", _echo)
>>> worker.send(("hello", 1))
>>> worker.wait(30.0) and worker.receive()
('hello', 1)
>>> worker.end()
>>> worker.alive, worker.exit_words()
(False, 'killed by SIGKILL')
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import multiprocessing.connection
import pickle
import signal
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final

__all__ = [
    "PLAIN_BYTES",
    "POLL_SECONDS",
    "SPAWN",
    "MessageTooLong",
    "NotPlainData",
    "Worker",
    "WorkerGone",
    "WorkerLost",
    "exit_words",
]

#: The start method of every worker, and the context that makes their shared memory.
SPAWN: Final = multiprocessing.get_context("spawn")
#: How often :meth:`Worker.wait` runs its ``check`` while no message comes.
POLL_SECONDS: Final = 0.01
#: The largest message read from a process that runs strangers' code (bytes): a robot's
#: answer, its printing (capped at 2,000 characters a move) and discovery's class facts fit
#: many times over.
PLAIN_BYTES: Final = 1 << 20


class WorkerLost(RuntimeError):
    """The worker process ended (or was ended) without the answer; the message says how."""


class WorkerGone(WorkerLost):
    """The worker process had ended before it took the message: nothing was started there."""


class MessageTooLong(WorkerLost):
    """The worker sent a message longer than its limit; it was ended (the rest of the message
    would have been read as the next one)."""


class NotPlainData(ValueError):
    """A worker that runs strangers' code sent something other than plain data."""


class Worker:
    """One spawned worker process running ``target(connection, *args)``; see the module
    docstring. ``what`` names it in messages (``"the thinking process"``); ``daemon``: ended
    by multiprocessing when the program exits (a worker that must be able to start processes
    of its own is not a daemon); ``limit``: the largest message read (bytes, None: no limit);
    ``plain``: read plain data only."""

    def __init__(
        self,
        name: str,
        target: Callable[..., None],
        args: tuple[Any, ...] = (),
        *,
        what: str = "the worker process",
        daemon: bool = True,
        limit: int | None = None,
        plain: bool = False,
    ) -> None:
        self.what = what
        self.limit = limit
        self.plain = plain
        self.connection, child = SPAWN.Pipe()
        self.process: Any = SPAWN.Process(
            target=target, args=(child, *args), name=name, daemon=daemon
        )
        try:
            self.process.start()
        finally:
            child.close()

    @property
    def pid(self) -> int:
        return int(self.process.pid)

    @property
    def alive(self) -> bool:
        return bool(self.process.is_alive())

    @property
    def sentinel(self) -> int:
        """Ready (for :func:`multiprocessing.connection.wait`) once the process has ended."""
        return int(self.process.sentinel)

    def send(self, message: Any) -> None:
        """Send ``message`` (pickled); :class:`WorkerGone` when the worker had ended."""
        self.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def send_bytes(self, data: bytes) -> None:
        """Send ``data`` as one message; :class:`WorkerGone` when the worker had ended."""
        try:
            self.connection.send_bytes(data)
        except (EOFError, OSError) as exc:
            raise WorkerGone(f"{self.what} had ended: {exc}") from None

    def wait(
        self,
        timeout: float | None = None,
        check: Callable[[], None] | None = None,
        every: float = POLL_SECONDS,
    ) -> bool:
        """Wait until :meth:`receive` has something to say (True): a message, or that the
        process ended; False when ``timeout`` seconds (None: no limit) pass first.
        ``check()`` runs every ``every`` seconds meanwhile (what it raises ends the wait)."""
        due = None if timeout is None else time.monotonic() + timeout
        while True:
            step = every if check is not None else None
            if due is not None:
                left = max(0.0, due - time.monotonic())
                step = left if step is None else min(step, left)
            if multiprocessing.connection.wait([self.connection, self.sentinel], step):
                return True
            if due is not None and time.monotonic() >= due:
                return False
            if check is not None:
                check()

    def receive(self) -> Any:
        """The next message (waiting for it; see :meth:`wait` for a time limit). Raises
        :class:`WorkerLost` when the process ended with nothing more sent, or sent more than
        ``limit`` bytes (:class:`MessageTooLong`: it is ended then), :class:`WorkerGone` when
        it ended with the message sent to it unread (its pipe was reset), and (``plain``)
        :class:`NotPlainData` for anything but plain data."""
        try:
            if not self.connection.poll() and not self.alive:
                # Ended, and someone else (a process it started) still holds its pipe open.
                raise WorkerLost(f"{self.what} ended ({self.exit_words()})")
            data = self.connection.recv_bytes(self.limit)
        except ConnectionResetError:
            raise WorkerGone(f"{self.what} had ended before it read the message") from None
        except EOFError:
            raise WorkerLost(f"{self.what} ended ({self.exit_words()})") from None
        except OSError as exc:
            if self.limit is not None and "bad message length" in str(exc):
                self.end()
                raise MessageTooLong(
                    f"{self.what} sent a message of more than {self.limit:,} bytes; it was ended"
                ) from None
            raise WorkerLost(f"{self.what} ended: {exc}") from None
        if not self.plain:
            return pickle.loads(data)
        try:
            return _PlainUnpickler(io.BytesIO(data)).load()
        except Exception as error:
            raise NotPlainData(
                f"its process sent something that is not plain data ({error})"
            ) from None

    def exit_words(self, wait_s: float = 1.0) -> str:
        """How the process ended, in words (given ``wait_s`` seconds to finish ending)."""
        with contextlib.suppress(Exception):
            self.process.join(wait_s)
        return exit_words(self.process.exitcode)

    def end(self, wait_s: float = 5.0) -> None:
        """Kill the process (SIGKILL), close the pipe and wait for the process (``wait_s`` at
        most); its exit code stays readable."""
        with contextlib.suppress(Exception):
            if self.process.is_alive():
                self.process.kill()
        with contextlib.suppress(Exception):
            self.connection.close()
        with contextlib.suppress(Exception):
            self.process.join(wait_s)


def exit_words(code: int | None) -> str:
    """A process's exit code in words.

    >>> exit_words(3), exit_words(-9), exit_words(None)
    ('exit code 3', 'killed by SIGKILL', 'it had not ended yet')
    """
    if code is None:
        return "it had not ended yet"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
        return f"killed by signal {-code}"
    return f"exit code {code}"


class _PlainUnpickler(pickle.Unpickler):
    """Unpickles plain data only: a message that names any class or function (a robot's own
    str subclass, say) would import the robot's module here, so it is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not plain data")


def _echo(connection: Connection) -> None:  # pragma: no cover - runs in the doctest's worker
    """Send back every message until the pipe closes."""
    while True:
        try:
            connection.send(connection.recv())
        except (EOFError, OSError):
            return
