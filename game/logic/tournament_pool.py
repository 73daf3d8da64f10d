"""Where a tournament's games are played: a local pool of worker processes that replaces a lost
worker, or any :class:`concurrent.futures.Executor` (a Dask cluster's, a thread pool).

:func:`play_all` hands work units to ``play`` (a module-level function, so that it travels by
name) and yields each unit's outcome in the order they finish: ``(index, value)`` for a
played unit, ``(index, Lost(...))`` for one that could not be played where it was sent. What
``play`` raises for a unit of its own (its ``failure`` type) is raised here, as it is.

The local pool (``jobs`` processes, started with ``spawn``) gives each worker one unit at a
time, so it always knows which unit a worker had in hand. When a worker process ends (killed,
out of memory, an agent that calls ``os._exit``), a new one is started in its place and the
unit is played again from the start: a unit is seeded, so the replay gives what the first
try would have. A unit whose worker is lost ``tries`` times is :class:`Lost`; the other units
still finish. A worker ignores Ctrl-C: the caller's ``KeyboardInterrupt`` ends every worker.

On an executor, what the executor raises instead of a unit's value (Dask's ``KilledWorker``
after its own retries, a lost connection) makes that unit :class:`Lost`; a unit the executor
cancels, or ``watch()`` (asked every :data:`WATCH_SECONDS` while no unit finishes) naming a
problem, raises :class:`ExecutorLost`: the units still out are not played.
"""

from __future__ import annotations

import collections
import concurrent.futures
import contextlib
import multiprocessing
import multiprocessing.connection
import pickle
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Final, Protocol

from game.logic.workers.process import Worker, WorkerGone, WorkerLost

__all__ = ["TRIES", "WATCH_SECONDS", "ExecutorLost", "Lost", "play_all"]

#: How many times a unit is played where its worker process is lost before it is given up.
TRIES: Final = 3
#: How often (seconds) an executor's ``watch`` is asked while no unit finishes.
WATCH_SECONDS: Final = 1.0


class Unit(Protocol):
    """What the pool needs of a work unit: its place in the tournament."""

    @property
    def index(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Lost:
    """A unit that could not be played where it was sent; ``reason`` says why, in words that
    follow "failed: " (``"its worker process ended 3 times (killed by SIGKILL the last
    time)"``)."""

    reason: str


class ExecutorLost(RuntimeError):
    """The executor stopped playing the units (its message says why); the units it still had
    are not played."""


def play_all(
    units: Sequence[Unit],
    play: Callable[[Any], Any],
    *,
    executor: concurrent.futures.Executor | None = None,
    jobs: int = 1,
    tries: int = TRIES,
    failure: type[Exception] = Exception,
    watch: Callable[[], str | None] | None = None,
) -> Generator[tuple[int, Any], None, None]:
    """``(unit.index, play(unit) or Lost)`` for each unit, in the order they finish: on
    ``executor`` when one is given (left running), else in a pool of ``jobs`` worker
    processes, or here (one after the other) when ``jobs`` is 1. See the module docstring for
    what is lost, replayed and raised."""
    if executor is not None:
        yield from _on_executor(units, play, executor, failure, watch)
    elif jobs == 1:
        for unit in units:
            yield unit.index, play(unit)
    else:
        yield from _Pool(play, min(jobs, len(units)), tries).run(units)


# --------------------------------------------------------------------------- private helpers


def _on_executor(
    units: Sequence[Unit],
    play: Callable[[Any], Any],
    executor: concurrent.futures.Executor,
    failure: type[Exception],
    watch: Callable[[], str | None] | None,
) -> Iterator[tuple[int, Any]]:
    futures = {executor.submit(play, unit): unit.index for unit in units}
    pending = set(futures)
    try:
        while pending:
            done, pending = concurrent.futures.wait(
                pending,
                timeout=WATCH_SECONDS if watch is not None else None,
                return_when=concurrent.futures.FIRST_COMPLETED,
            )
            failed: BaseException | None = None  # raised once the others are yielded
            for future in sorted(done, key=futures.__getitem__):
                if future.cancelled():  # not by us: the executor's doing; said below
                    continue
                error = future.exception()
                if error is None:
                    yield futures[future], future.result()
                elif isinstance(error, failure):
                    failed = failed or error
                else:  # where it ran, not the game: a worker lost
                    yield futures[future], Lost(f"where it ran: {_one_line(error)}")
            if failed is not None:
                raise failed
            cancelled = any(future.cancelled() for future in done)
            if cancelled or (not done and watch is not None):
                problem = watch() if watch is not None else None
                if problem or cancelled:
                    # What finished meanwhile is kept; the rest is not waited for.
                    for future in sorted(pending, key=futures.__getitem__):
                        if future.done() and not future.cancelled() and not future.exception():
                            yield futures[future], future.result()
                    raise ExecutorLost(problem or "the games still out were cancelled")
    finally:
        for future in futures:
            future.cancel()


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _Worker(Worker):
    """One worker process of the pool (:func:`_serve`); ``unit`` is the unit it has in hand."""

    def __init__(self) -> None:
        # Not a daemon: a unit's agents may start processes of their own (a robot's).
        super().__init__("gamehall-tournament", _serve, what="its worker process", daemon=False)
        self.unit: Any = None


class _Pool:
    def __init__(self, play: Callable[[Any], Any], size: int, tries: int) -> None:
        self.play = play
        self.size = max(1, size)
        self.tries = max(1, tries)

    def run(self, units: Sequence[Unit]) -> Iterator[tuple[int, Any]]:
        waiting = collections.deque(units)
        tried: collections.Counter[int] = collections.Counter()
        busy: list[_Worker] = []
        idle: list[_Worker] = []
        try:
            while waiting or busy:
                while waiting and len(busy) < self.size:
                    data = pickle.dumps((self.play, waiting[0]), pickle.HIGHEST_PROTOCOL)
                    worker = idle.pop() if idle else _Worker()
                    busy.append(worker)
                    worker.unit = waiting.popleft()
                    tried[worker.unit.index] += 1
                    with contextlib.suppress(WorkerGone):  # a worker gone: its sentinel says so
                        worker.send_bytes(data)
                ready = set(
                    multiprocessing.connection.wait(
                        [w.connection for w in busy] + [w.sentinel for w in busy]
                    )
                )
                for worker in [w for w in busy if w.connection in ready or w.sentinel in ready]:
                    unit, answer = worker.unit, self._answer(worker)
                    busy.remove(worker)
                    if answer is None:  # the worker was lost with the unit in hand
                        worker.end()
                        why = worker.exit_words()
                        if tried[unit.index] < self.tries:
                            waiting.appendleft(unit)
                        else:
                            yield unit.index, Lost(self._lost(tried[unit.index], why))
                        continue
                    worker.unit = None
                    idle.append(worker)
                    kind, value = answer
                    if kind == "error":
                        raise value
                    yield unit.index, value
        finally:
            for worker in busy + idle:
                worker.end()

    @staticmethod
    def _answer(worker: _Worker) -> tuple[str, Any] | None:
        """The worker's answer (its pipe or its sentinel is ready), or None when it ended
        without one."""
        try:
            kind, value = worker.receive()
        except WorkerLost:
            return None
        return str(kind), value

    @staticmethod
    def _lost(times: int, why: str) -> str:
        if times == 1:
            return f"its worker process ended ({why})"
        return f"its worker process ended {times} times ({why} the last time)"


def _serve(conn: Connection) -> None:
    """A worker's loop until the pipe closes: ``(play, unit)`` in, ``("ok", value)`` or
    ``("error", exception)`` out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller ends its workers on Ctrl-C
    while True:
        try:
            play, unit = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", play(unit))
        except Exception as error:  # goes back to the caller, which raises it
            answer = ("error", error)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer that cannot travel
            data = pickle.dumps(("error", RuntimeError(_one_line(error))))
        try:
            conn.send_bytes(data)
        except (EOFError, OSError):
            return
