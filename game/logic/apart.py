"""Thinking in a process of its own, so that a search written in Python never holds up the
window.

A search in pure Python holds the interpreter's lock while it runs; on a worker thread it still
takes that lock from the drawing thread for milliseconds at a time, and frames stall. An
:class:`ApartAgent` wraps an agent whose search is Python: its :meth:`~ApartAgent.choose`
sends the agent, the state, the limits and the random generator (pickled) to a worker process
and waits for the answer without holding the lock. The thread that called it (the match's
thinking thread) polls the :class:`~game.logic.game.Stop` flag meanwhile and passes it on
through a byte of shared memory, which the worker's agent sees as its own stop flag.

What can go wrong stays inside the call:

- an agent that raises: the same exception is raised here (the match reports it);
- an agent that ignores its stop flag or its time: after ``grace`` seconds beyond its time (or
  beyond the stop) the worker is killed and :class:`ThinkingLost` is raised;
- a worker that dies: :class:`ThinkingLost`; the next call starts a new one;
- an agent or a state that cannot be pickled: it thinks on the calling thread, as before.

Workers are started with ``spawn`` (the same start on every platform), at most
:data:`MAX_WORKERS` at a time (a hint and the computer's move may think together), and kept
for the next call; :func:`start_worker` starts one ahead of time (while the menu shows).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import pickle
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from game.logic.game import Limits, Stop, explain

__all__ = ["MAX_WORKERS", "ApartAgent", "ThinkingLost", "start_worker", "stop_workers"]

LOG = logging.getLogger(__name__)

MAX_WORKERS = 2
POLL_SECONDS = 0.01
#: Seconds a search may run past its time, or past being stopped, before its worker is killed.
GRACE_SECONDS = 5.0


class ThinkingLost(RuntimeError):
    """The worker process did not answer: it died, or it was killed for thinking too long."""


class ApartAgent:
    """``agent``, thinking in a worker process; see the module docstring."""

    def __init__(self, agent: Any, *, grace: float = GRACE_SECONDS) -> None:
        self.agent = agent
        self.grace = grace
        self._said = ""
        self._details: dict[str, Any] = {}

    @property
    def name(self) -> str:
        return str(self.agent.name)

    @property
    def description(self) -> str:
        return str(self.agent.description)

    def explain(self) -> str:
        return self._said

    def details(self) -> dict[str, Any]:
        """What the agent's ``details()`` said of its last choice (depth, positions, line),
        when it has one."""
        return dict(self._details)

    def choose(self, state: Any, limits: Limits, rng: Any, stop: Stop) -> Any:
        try:
            job = pickle.dumps((self.agent, state, limits, rng), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # whatever pickling raises: think here instead
            LOG.debug("%s thinks on this thread: %s", self.name, exc)
            action = self.agent.choose(state, limits, rng, stop)
            self._said = explain(self.agent)
            self._details = _details(self.agent)
            return action
        worker = _POOL.acquire()
        try:
            kind, value, said, details = worker.run(job, limits, stop, self.grace)
        except BaseException:
            _POOL.discard(worker)
            raise
        _POOL.release(worker)
        if kind == "error":
            raise value
        self._said = said
        self._details = details
        return value


def start_worker() -> None:
    """Start a worker now (if none is idle), so the first search does not wait for one."""
    _POOL.release(_POOL.acquire())


def stop_workers() -> None:
    """End every idle worker (a busy one ends when its search is over and it is released)."""
    _POOL.close()


def _details(agent: Any) -> dict[str, Any]:
    """The agent's ``details()`` (a dict of plain values), or {} when it has none."""
    method = getattr(agent, "details", None)
    return dict(method()) if callable(method) else {}


# -- the worker side ---------------------------------------------------------------------------


def _serve(conn: Connection, flag_memory: Any) -> None:
    """A worker's loop: a pickled job in, ("ok", action, explanation) or ("error", exception,
    "") out, until the pipe closes."""
    flag = np.frombuffer(flag_memory, dtype=np.uint8)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            agent, state, limits, rng = pickle.loads(data)
            action = agent.choose(state, limits, rng, Stop(flag=flag))
            answer = ("ok", action, explain(agent), _details(agent))
        except Exception as exc:  # every failure goes back to the caller
            answer = ("error", exc, "", {})
        try:
            reply = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer that cannot travel is a failure
            lost = ThinkingLost(f"the answer could not be sent: {exc}")
            reply = pickle.dumps(("error", lost, "", {}))
        try:
            conn.send_bytes(reply)
        except (EOFError, OSError):
            return


# -- the calling side --------------------------------------------------------------------------


class _Worker:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.flag_memory = context.RawArray("B", 1)
        self.flag = np.frombuffer(self.flag_memory, dtype=np.uint8)
        self.conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(child, self.flag_memory), name="gamehall-think", daemon=True
        )
        self.process.start()
        child.close()

    def run(
        self, job: bytes, limits: Limits, stop: Stop, grace: float
    ) -> tuple[str, Any, str, dict[str, Any]]:
        self.flag[0] = 0
        self.conn.send_bytes(job)
        started = time.monotonic()
        give_up = started + (limits.time or 3600.0) + grace
        while not self.conn.poll(POLL_SECONDS):
            now = time.monotonic()
            if stop.is_set() and not self.flag[0]:
                self.flag[0] = 1
                give_up = min(give_up, now + grace)
            if not self.process.is_alive():
                code = self.process.exitcode
                raise ThinkingLost(f"the thinking process ended (exit code {code})")
            if now > give_up:
                raise ThinkingLost(f"no answer after {now - started:.1f} s: the search was ended")
        try:
            kind, value, said, details = pickle.loads(self.conn.recv_bytes())
        except (EOFError, OSError) as exc:
            raise ThinkingLost(f"the thinking process ended: {exc}") from None
        return str(kind), value, str(said), dict(details)

    def end(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(timeout=2.0)


class _Pool:
    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._busy = 0

    def acquire(self) -> _Worker:
        with self._lock:
            while not self._idle and self._busy >= MAX_WORKERS:
                self._lock.wait()
            self._busy += 1
            if self._idle:
                return self._idle.pop()
        try:
            return _Worker()
        except BaseException:
            with self._lock:
                self._busy -= 1
                self._lock.notify()
            raise

    def release(self, worker: _Worker) -> None:
        with self._lock:
            self._busy -= 1
            self._idle.append(worker)
            self._lock.notify()

    def discard(self, worker: _Worker) -> None:
        worker.end()
        with self._lock:
            self._busy -= 1
            self._lock.notify()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.end()


_POOL = _Pool()
