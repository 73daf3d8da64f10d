"""Thinking in a process of its own, so that neither a search written in Python nor an engine
that compiles holds up the window.

A search in pure Python, or numba compiling an engine's kernels, holds the interpreter's lock:
on a worker thread it takes it from the drawing thread for milliseconds to half a second at a
time, and frames stall. A :class:`WorkerAgent` wraps an agent: its :meth:`~WorkerAgent.choose`
sends the agent, the state, the limits and the random generator (pickled) to a worker process
and waits for the answer without holding the lock, polling the
:class:`~game.logic.contract.Stop` flag and passing it on through a byte of shared memory (the
worker's agent sees it as its own stop flag). With ``bring_back`` the agent comes back too,
with what it remembers of its choice (a level's depth, score and principal variation).

An agent whose engine must be readied first names a *preparation*: ``"module:function"``,
called in the worker as ``function(report)`` before its first search of that kind (numba
compiling the kernels, or loading them from its disk cache; ``report(fraction)`` says how far
it got), at a lower priority than the window (nice +10). :func:`prepare` starts it and returns
its :class:`Preparation`, which the window reads each frame to show the progress; a search
that needs it waits for it (its time counts from the end of it) on the worker that prepared.
Only one worker prepares a kind at a time: another loads what the first compiled.

What can go wrong stays inside the call:

- an agent that raises: the same exception is raised here (the match reports it);
- an agent that ignores its stop flag or its time: once it has thought ``grace`` seconds of
  processor time past them, or nothing at all for ``grace`` seconds past them, the worker is
  killed and :class:`ThinkingLost` is raised. Time past the search's own counts as processor
  time, not the clock's: on a busy machine a worker answers late and its answer is awaited
  (the computer never loses its move because the machine is busy), and a new worker's start
  (its imports, seconds on a busy machine, before it first notes its processor time) is not
  "nothing at all";
- a worker that dies while it thinks: :class:`ThinkingLost`; the next call starts a new one.
  One that died idle is found when the job is sent, or comes back unread: nothing started, so
  the job goes to a new worker instead, once (if that one cannot take it either, as above);
- a preparation that fails: its :class:`Preparation` says why, and the searches that waited
  for it raise :class:`ThinkingLost`; the next search tries it again;
- an agent or a state that cannot be pickled: it thinks on the calling thread, as before.

Workers are started with ``spawn`` (the same start on every platform), at most
:data:`MAX_WORKERS` at a time (a hint and the computer's move may think together), and kept
for the next call; none is started once the program is ending.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import concurrent.futures.thread  # imported here, not by the first call (a drawing thread's)
import contextlib
import enum
import importlib
import logging
import os
import pickle
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import KW_ONLY, dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import numpy as np

from game.logic.contract import Limits, Stop, ThinkingStopped, explain
from game.logic.workers.process import SPAWN, Worker, WorkerGone, WorkerLost

__all__ = [
    "MAX_WORKERS",
    "Preparation",
    "Stage",
    "ThinkingLost",
    "WorkerAgent",
    "preparation",
    "prepare",
    "stop_workers",
    "submit",
]

LOG = logging.getLogger(__name__)
_T = TypeVar("_T")

MAX_WORKERS = 2
POLL_SECONDS = 0.01
#: Seconds of processor time a search may think past its time, or past being stopped, before
#: its worker is killed (and the clock's seconds it may think nothing at all past them).
GRACE_SECONDS = 5.0
#: The clock's seconds a new worker may take to start (its imports, before it first notes
#: its processor time) before the grace above counts: seconds on a busy machine, never a minute.
START_SECONDS = 60.0
#: How often a worker notes how much processor time it has spent (for the grace above).
BEAT_SECONDS = 0.05
#: How much lower a worker's priority is while it prepares (compiles).
PREPARE_NICENESS = 10


class ThinkingLost(WorkerLost):
    """The worker process did not answer: it died, or it was killed for thinking too long."""


class _Gone(ThinkingLost):
    """The worker was gone before it took the job (its pipe was broken): nothing started."""


class Stage(enum.Enum):
    """Where the readying of an engine stands."""

    LOADING = "loading"  # starting the worker, importing, loading what the disk cache holds
    COMPILING = "compiling"  # numba compiling (the first start, or after an upgrade)
    READY = "ready"
    FAILED = "failed"


class Preparation:
    """How far the readying of one kind of engine has got here: its :class:`Stage`, the
    :attr:`fraction` compiled, the :attr:`error` if it failed; :attr:`done` set at the end."""

    def __init__(self, task: str) -> None:
        self.task = task
        self.stage = Stage.LOADING
        self.fraction = 0.0
        self.error = ""
        #: The worker process that prepared (None before it is ready).
        self.pid: int | None = None
        self.done = threading.Event()

    @property
    def ready(self) -> bool:
        return self.stage is Stage.READY

    def describe(self) -> str:
        """What the window says while it waits for the engine (``"Loading the engine…"``,
        ``"Preparing the engine (first start only): 40%"``, ``"The engine is ready."``...)."""
        if self.stage is Stage.COMPILING:
            return f"Preparing the engine (first start only): {int(self.fraction * 100)}%"
        if self.stage is Stage.READY:
            return "The engine is ready."
        if self.stage is Stage.FAILED:
            return f"The engine could not be prepared: {self.error}"
        return "Loading the engine…"

    def _progress(self, fraction: float) -> None:
        self.stage = Stage.COMPILING
        self.fraction = min(1.0, max(self.fraction, fraction))

    def _finish(self, error: str = "", pid: int | None = None) -> None:
        self.error, self.pid = error, pid
        self.stage = Stage.FAILED if error else Stage.READY
        self.done.set()


def preparation(task: str) -> Preparation | None:
    """The :class:`Preparation` of ``task`` in this process as it stands (None: never started)."""
    with _PREPARING:
        return _PREPARATIONS.get(task)


def prepare(task: str) -> Preparation:
    """The :class:`Preparation` of ``task`` (``"module:function"``) in this process, started in
    a worker now unless it is under way or done (one that failed starts again)."""
    with _PREPARING:
        prep = _PREPARATIONS.get(task)
        if prep is not None and prep.stage is not Stage.FAILED:
            return prep
        prep = _PREPARATIONS[task] = Preparation(task)
    threading.Thread(
        target=_prepare_worker, args=(prep,), name="gamehall-prepare", daemon=True
    ).start()
    return prep


@dataclass(eq=False)
class WorkerAgent:
    """``agent``, thinking in a worker process; see the module docstring.

    ``grace``: the seconds it may think past its time or its stop (see the module docstring).
    ``prepare``: the preparation (``"module:function"``) the worker runs once before the
    agent's first search there. ``bring_back``: after each choice :attr:`agent` is the agent
    as it came back from the worker (what it remembers of the choice)."""

    agent: Any
    _: KW_ONLY
    grace: float = GRACE_SECONDS
    prepare: str = ""
    bring_back: bool = False
    #: The worker process that made the last choice.
    worker_pid: int | None = field(default=None, init=False)
    _said: str = field(default="", init=False, repr=False)

    @property
    def name(self) -> str:
        return str(self.agent.name)

    @property
    def description(self) -> str:
        return str(self.agent.description)

    def explain(self) -> str:
        return self._said

    def preparation(self, *, start: bool = False) -> Preparation | None:
        """The preparation this agent's searches wait for (None: none, or not started yet;
        ``start``: started now unless it is under way or done)."""
        if not self.prepare:
            return None
        return prepare(self.prepare) if start else preparation(self.prepare)

    def choose(self, state: Any, limits: Any, rng: Any, stop: Stop) -> Any:
        try:
            job = pickle.dumps(
                ("choose", self.agent, state, limits, rng, self.bring_back),
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        except Exception as exc:  # whatever pickling raises: think here instead
            LOG.debug("%s thinks on this thread: %s", self.name, exc)
            action = self.agent.choose(state, limits, rng, stop)
            self._said = explain(self.agent)
            return action
        (kind, value, said, back), self.worker_pid = _run(
            self.prepare, job, limits, stop, self.grace
        )
        if kind == "error":
            raise value
        self._said = said
        if back is not None:
            self.agent = back
        return value


def submit(task: str, function: str, *args: Any) -> concurrent.futures.Future[Any]:
    """``function(*args)`` run in a worker readied by the preparation ``task`` (a short
    computation with the engine, as an evaluation for the debug overlay); ``function`` is
    ``"module:name"``, imported there (not here). The future's result is its value, or the
    exception it raised; the arguments travel pickled."""
    global _CALLS
    with _PREPARING:
        if _CALLS is None:
            _CALLS = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="gamehall-call")
    return _CALLS.submit(_call, task, function, args)


def stop_workers() -> None:
    """End every idle worker (a busy one ends when its search is over and it is released)."""
    _POOL.close()


# -- the worker side ---------------------------------------------------------------------------


def _serve(conn: Connection, flag_memory: Any, work_memory: Any = None) -> None:
    """A worker's loop until the pipe closes: a pickled job in, then ("progress", fraction)
    messages while a preparation compiles, then ("ok", value, explanation, agent or None) or
    ("error", exception, "", None). A thread of its own keeps ``work_memory`` (a shared
    double) at the processor seconds the worker has spent (its own beats left out)."""
    flag = np.frombuffer(flag_memory, dtype=np.uint8)
    if work_memory is not None:
        threading.Thread(target=_beat, args=(work_memory,), name="beat", daemon=True).start()
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            answer = _work(pickle.loads(data), conn, flag)
        except Exception as exc:  # every failure goes back to the caller
            answer = ("error", exc, "", None)
        try:
            reply = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer that cannot travel is a failure
            lost = ThinkingLost(f"the answer could not be sent: {exc}")
            reply = pickle.dumps(("error", lost, "", None))
        try:
            conn.send_bytes(reply)
        except (EOFError, OSError):
            return


def _beat(work_memory: Any) -> None:
    """Note, every :data:`BEAT_SECONDS`, the processor time the worker has spent but for this
    thread's own."""
    while True:
        work_memory.value = time.process_time() - time.thread_time()
        time.sleep(BEAT_SECONDS)


def _work(job: tuple[Any, ...], conn: Connection, flag: Any) -> tuple[str, Any, str, Any]:
    if job[0] == "call":
        return ("ok", _named(job[1])(*job[2]), "", None)
    if job[0] == "prepare":
        function = _named(job[1])
        sent = [-1]

        def report(fraction: float) -> None:
            percent = int(fraction * 100)
            if percent != sent[0]:  # a message per percent is plenty
                sent[0] = percent
                conn.send_bytes(pickle.dumps(("progress", float(fraction))))

        with _lower_priority():
            function(report)
        return ("ok", None, "", None)
    _, agent, state, limits, rng, bring_back = job
    action = agent.choose(state, limits, rng, Stop(flag=flag))
    return ("ok", action, explain(agent), agent if bring_back else None)


@contextlib.contextmanager
def _lower_priority() -> Iterator[None]:
    """Run the block at a lower scheduling priority (nice +10): a compile must not take the
    processor from the window's frames. The priority comes back after, where the system lets
    a process raise its own again (not every user may); it never fails the block."""
    try:
        before = os.getpriority(os.PRIO_PROCESS, 0)
        os.setpriority(os.PRIO_PROCESS, 0, min(before + PREPARE_NICENESS, 19))
    except (AttributeError, OSError):  # a system without priorities
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, before)


def _named(name: str) -> Any:
    """The object ``"module:name"`` names (its module imported)."""
    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(module), attribute)


# -- the calling side --------------------------------------------------------------------------


class _Worker(Worker):
    """A thinking worker: a :class:`~game.logic.workers.process.Worker` running
    :func:`_serve`, with its stop flag and its processor seconds in shared memory."""

    def __init__(self) -> None:
        self.flag_memory = SPAWN.RawArray("B", 1)
        self.flag = np.frombuffer(self.flag_memory, dtype=np.uint8)
        #: The processor seconds the worker has spent (see _beat).
        self.work = SPAWN.RawValue("d", 0.0)
        super().__init__(
            "gamehall-think",
            _serve,
            (self.flag_memory, self.work),
            what="the thinking process",
        )
        #: The preparations this worker has run.
        self.prepared: set[str] = set()

    def prepare(self, task: str, progress: Callable[[float], None] | None) -> None:
        """Run the preparation ``task`` here; no time limit (a compile takes what it takes),
        but a worker that dies is :class:`ThinkingLost`. Raises what the preparation raised."""
        self.flag[0] = 0
        self._send(pickle.dumps(("prepare", task)))
        kind, value, _, _ = self._answer(None, progress)
        if kind == "error":
            raise value
        self.prepared.add(task)

    def run(
        self, job: bytes, limits: Limits, stop: Stop, grace: float
    ) -> tuple[str, Any, str, Any]:
        """Send ``job`` and return the answer; :class:`ThinkingLost` when the search thinks
        past its time (or past ``stop``) by ``grace`` seconds of processor time, or thinks
        nothing for ``grace`` seconds of the clock past them (see the module docstring)."""
        self.flag[0] = 0
        started = time.monotonic()
        spent = self.work.value
        self._send(job)
        allowed = (limits.time or 3600.0) + grace  # processor seconds, from ``spent``
        due = started + allowed  # the clock's: past it, the worker must keep thinking
        moved = (started, spent)  # when the worker's processor time last grew, and to what

        def check() -> None:
            nonlocal allowed, due, moved
            now, work = time.monotonic(), self.work.value
            if stop.is_set() and not self.flag[0]:
                self.flag[0] = 1
                allowed = min(allowed, work - spent + grace)
                due = min(due, now + grace)
            if work > moved[1] or (work == 0.0 and now - started < START_SECONDS):
                moved = (now, work)  # 0.0: a new worker still starting up
            if work - spent > allowed:
                raise ThinkingLost(
                    f"no answer after {work - spent:.1f} s of thinking "
                    f"({now - started:.1f} s on the clock): the search was ended"
                )
            if now > due and now - moved[0] > grace:
                raise ThinkingLost(
                    f"no answer after {now - started:.1f} s, and no thinking for the last "
                    f"{now - moved[0]:.1f} s: the search was ended"
                )

        return self._answer(check, None)

    def _send(self, data: bytes) -> None:
        """Send a job; :class:`_Gone` when the worker's end of the pipe is closed."""
        try:
            self.send_bytes(data)
        except WorkerGone as exc:
            raise _Gone(str(exc)) from None

    def _answer(
        self, check: Callable[[], None] | None, progress: Callable[[float], None] | None
    ) -> tuple[str, Any, str, Any]:
        """The final answer to the job sent, passing progress messages on; ``check`` runs
        between polls of the pipe (every :data:`POLL_SECONDS`)."""
        while True:
            try:
                self.wait(None, check, POLL_SECONDS)
                message = self.receive()
            except WorkerGone as exc:  # it ended with the job unread (dying as it came)
                raise _Gone(str(exc)) from None
            except ThinkingLost:
                raise
            except WorkerLost as exc:
                raise ThinkingLost(str(exc)) from None
            if message[0] == "progress":
                if progress is not None:
                    progress(message[1])
                continue
            kind, value, said, back = message
            return str(kind), value, str(said), back


class _Pool:
    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._busy = 0
        self._all: list[_Worker] = []  # idle and busy
        self.shut = False  # the program is ending: no new worker (its start would be cut off)
        self._starting = 0  # workers being started (see shut_down)

    def acquire(self, task: str = "") -> _Worker:
        """A worker for a job that needs the preparation ``task`` ("": none): an idle one that
        has run it; while a busy one has, that one when it is free (the same worker thinks
        on, rather than a second loading the engine again); else any idle one, or a new one
        while fewer than :data:`MAX_WORKERS` are busy."""
        with self._lock:
            while True:
                if self.shut:
                    raise ThinkingLost("the program is ending: no new thinking process")
                ready = [w for w in self._idle if task and task in w.prepared]
                if ready:
                    return self._take(ready[-1])
                if not (task and any(task in w.prepared for w in self._all)):
                    if self._idle:
                        return self._take(self._idle[-1])
                    if self._busy < MAX_WORKERS:
                        self._busy += 1
                        self._starting += 1
                        break
                self._lock.wait()
        worker = None
        try:
            worker = _Worker()
        finally:
            with self._lock:
                self._starting -= 1
                if worker is None:  # its start failed
                    self._busy -= 1
                else:
                    self._all.append(worker)
                self._lock.notify_all()
        return worker

    def shut_down(self) -> None:
        """No new worker from now on; the starts under way finish first (at most 10 s)."""
        with self._lock:
            self.shut = True
            self._lock.wait_for(lambda: self._starting == 0, timeout=10.0)

    def _take(self, worker: _Worker) -> _Worker:
        self._idle.remove(worker)
        self._busy += 1
        return worker

    def release(self, worker: _Worker) -> None:
        with self._lock:
            self._busy -= 1
            self._idle.append(worker)
            self._lock.notify_all()

    def discard(self, worker: _Worker) -> None:
        worker.end()
        with self._lock:
            self._busy -= 1
            if worker in self._all:
                self._all.remove(worker)
            self._lock.notify_all()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            self._all = [w for w in self._all if w not in idle]
        for worker in idle:
            worker.end()


_POOL = _Pool()
# Runs before multiprocessing's exit hook ends the workers: no new one while the program ends.
atexit.register(_POOL.shut_down)
_PREPARATIONS: dict[str, Preparation] = {}
_PREPARING = threading.Lock()
#: One lock per preparation, held while a worker runs it: two workers never compile the same
#: kernels side by side (another preparation runs meanwhile: MasterGrab's map kernels do not
#: wait minutes for Reversi's engine).
_ONE_AT_A_TIME: dict[str, threading.Lock] = {}
_CALLS: concurrent.futures.ThreadPoolExecutor | None = None
#: Seconds a :func:`submit` call may take.
_CALL_SECONDS = 10.0


def _task_lock(task: str) -> threading.Lock:
    with _PREPARING:
        return _ONE_AT_A_TIME.setdefault(task, threading.Lock())


def _prepare_worker(prep: Preparation) -> None:
    """The preparation thread: a worker runs ``prep``'s task, then goes back to the pool (so
    the search waiting for it gets it) before ``prep`` says it is done."""

    def ready(worker: _Worker) -> None:
        with _task_lock(prep.task):
            if prep.task not in worker.prepared:
                worker.prepare(prep.task, prep._progress)

    try:
        _, pid = _on_a_worker(prep.task, ready)
    except Exception as exc:  # no process, its own failure, the worker's death (INFO: at exit)
        LOG.log(20 if _POOL.shut else 30, "preparing %s failed: %s", prep.task, exc)
        prep._finish(str(exc) or type(exc).__name__)
        return
    prep._finish(pid=pid)


def _run(
    task: str, job: bytes, limits: Limits, stop: Stop, grace: float
) -> tuple[tuple[str, Any, str, Any], int | None]:
    """Run ``job`` in a worker readied by ``task`` ("": any worker); the worker's answer and
    its process id."""
    if task:
        _wait_for(prepare(task), stop)

    def think(worker: _Worker) -> tuple[str, Any, str, Any]:
        if task and task not in worker.prepared:
            with _task_lock(task):  # what the first compiled, this one loads
                worker.prepare(task, None)
        if stop.is_set():
            return ("error", ThinkingStopped("stopped"), "", None)
        return worker.run(job, limits, stop, grace)

    return _on_a_worker(task, think)


def _on_a_worker(task: str, work: Callable[[_Worker], _T]) -> tuple[_T, int | None]:
    """``work(worker)`` on a worker of the pool for ``task``, and the worker's process id;
    the worker goes back to the pool after, or is ended when ``work`` raises. A worker found
    dead when the job is sent to it (:class:`_Gone`) is replaced once."""
    for attempt in (1, 2):
        worker = _POOL.acquire(task)
        try:
            value = work(worker)
        except BaseException as exc:
            _POOL.discard(worker)
            if not isinstance(exc, _Gone) or attempt == 2:
                raise
            LOG.info("a thinking process had ended; the job goes to a new one: %s", exc)
            continue
        _POOL.release(worker)
        return value, worker.pid
    raise AssertionError("unreachable")  # the second try returns or raises


def _call(task: str, function: str, args: tuple[Any, ...]) -> Any:
    job = pickle.dumps(("call", function, args), protocol=pickle.HIGHEST_PROTOCOL)
    (kind, value, _, _), _ = _run(task, job, Limits(time=_CALL_SECONDS), Stop(), GRACE_SECONDS)
    if kind == "error":
        raise value
    return value


def _wait_for(prep: Preparation, stop: Stop) -> None:
    """Wait until ``prep`` is done; :class:`ThinkingStopped` when ``stop`` is set meanwhile,
    :class:`ThinkingLost` when the preparation failed."""
    while not prep.done.wait(POLL_SECONDS * 5):
        stop.check()
    if prep.stage is Stage.FAILED:
        raise ThinkingLost(f"the engine could not be prepared: {prep.error}")
