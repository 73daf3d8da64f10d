"""What every probe category shares: running a command in a process group of its own with a
time limit, fresh places (GAMEHALL_HOME, working folder, XDG folders) per case, the tally of
cases and misbehaviours, and worker processes that take cases one at a time."""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
#: The runner; ``--worker CATEGORY`` makes it a worker process of that category.
PROBE_SCRIPT = ROOT / "tools" / "probe.py"
SHOWN = 10
OUTPUT_CAP = 100_000
TRACEBACK = "Traceback (most recent call last)"
#: Sets RLIMIT_AS to argv[1] bytes, then becomes the command that follows.
LIMIT_AS = (
    "import os, resource, sys; n = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_AS, (n, n)); os.execvp(sys.argv[2], sys.argv[2:])"
)
#: The address space a run of a hostile description or case file may use (2 GiB).
MEMORY_CAP = 2 << 30
CLI_TIMEOUT_S = 60.0
ROBOT_TIMEOUT_S = 120.0
SMALL = ("--size", "160x120")
#: Flags that keep a shot of each scene cheap (a later flag of the same name wins).
CHEAP = {
    "river": (),
    "reversi": ("--time", "0.05"),
    "grab": ("--countries", "20", "--seed", "5"),
    "menu": (),
}


# --- running things --------------------------------------------------------------------------


@dataclass
class Tally:
    """One category's count: cases tried, cases that misbehaved, a line per misbehaviour."""

    tried: int = 0
    misbehaved: int = 0
    lines: list[str] = field(default_factory=list)

    def add(self, index: int, problems: Sequence[str]) -> None:
        self.tried += 1
        if problems:
            self.misbehaved += 1
            self.lines.extend(f"#{index} {p}" for p in problems)


@dataclass
class Ran:
    """One finished (or killed) subprocess."""

    rc: int | None  # None: killed at its time limit
    out: str
    err: str
    pid: int
    seconds: float
    left_running: bool  # processes of its group still there after it ended
    stdout_held: bool = False  # its stdout still open (by some process) 5 s after it ended


@dataclass
class Place:
    """A fresh GAMEHALL_HOME, working folder and XDG folders for one case."""

    home: Path
    cwd: Path
    xdg: Path

    def env(self, base: dict[str, str]) -> dict[str, str]:
        env = dict(base)
        env["GAMEHALL_HOME"] = str(self.home)
        env["XDG_CONFIG_HOME"] = str(self.xdg / "config")
        env["XDG_DATA_HOME"] = str(self.xdg / "data")
        env["XDG_STATE_HOME"] = str(self.xdg / "state")
        return env

    def xdg_files(self) -> list[str]:
        return [str(p.relative_to(self.xdg)) for p in self.xdg.rglob("*")]


def execute(
    argv: Sequence[str],
    *,
    env: dict[str, str],
    cwd: Path,
    timeout: float,
    memory: int | None = None,
    stdin: bytes | None = None,
) -> Ran:
    """Run ``argv`` in a session of its own; kill the whole group at ``timeout``, and any
    process of the group still there a moment after the first one ended. ``memory``: an
    address-space limit in bytes (RLIMIT_AS, set by a small wrapper that then execs
    ``argv``, so no code runs between fork and exec in this threaded process); ``stdin``:
    bytes to feed it (default: nothing, /dev/null)."""
    started = time.perf_counter()
    if memory is not None:
        argv = [sys.executable, "-c", LIMIT_AS, str(memory), *argv]
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=env,
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}
    readers = [
        threading.Thread(target=_drain, args=(stream, chunks[name]), daemon=True)
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    if stdin is not None:
        threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True).start()
    rc: int | None
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        proc.wait()
        rc = None
    left = rc is not None and _group_alive(proc.pid, grace=3.0)
    kill_group(proc.pid)
    for reader in readers:
        reader.join(5.0)
    held = readers[0].is_alive()
    return Ran(
        rc,
        b"".join(chunks["out"]).decode("utf-8", "replace"),
        b"".join(chunks["err"]).decode("utf-8", "replace"),
        proc.pid,
        time.perf_counter() - started,
        left,
        held,
    )


def _feed(stream: Any, data: bytes) -> None:
    with contextlib.suppress(OSError):
        stream.write(data)
    with contextlib.suppress(OSError):
        stream.close()


def _drain(stream: Any, into: list[bytes]) -> None:
    while chunk := stream.read(65536):
        into.append(chunk)
    stream.close()


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _group_alive(pgid: int, grace: float) -> bool:
    deadline = time.monotonic() + grace
    while True:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        if time.monotonic() > deadline:
            return True
        time.sleep(0.1)


def common_problems(ran: Ran, timeout: float, *, allowed: Iterable[int] = (0, 2)) -> list[str]:
    """What is wrong with any run: a hang, a traceback, a bad exit status, a flood of output,
    processes left behind, ``internal error`` said."""
    allowed = tuple(allowed)
    problems = []
    if ran.rc is None:
        problems.append(f"no answer within {timeout:g} s (killed)")
    elif ran.rc not in allowed:
        problems.append(f"exit status {ran.rc}: {last_line(ran.err)}")
    if TRACEBACK in ran.err:
        problems.append(f"traceback: {last_line(ran.err)}")
    if len(ran.out) > OUTPUT_CAP:
        problems.append(f"{len(ran.out)} characters on stdout")
    if ran.left_running:
        problems.append("left processes running after it ended")
    if ran.stdout_held:
        problems.append("its stdout stayed open after it ended (a pipe to it would not end)")
    internal = [line for line in ran.err.splitlines() if "internal error" in line]
    if internal and TRACEBACK not in ran.err and ran.rc is not None and ran.rc in allowed:
        problems.append(f"said {clip(internal[-1], 160)}")
    return problems


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return clip(lines[-1].strip(), 160) if lines else "(nothing on stderr)"


def clip(text: str, n: int) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= n else text[: n - 3] + "..."


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in folder.rglob("*"):
        try:
            st = path.lstat()
        except OSError:
            continue
        rel = str(path.relative_to(folder))
        out[rel] = (st.st_size, st.st_mtime_ns) if not path.is_dir() else (-1, 0)
    return out


def parallel(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any]:
    if jobs == 1 or len(items) <= 1:
        return [fn(item) for item in items]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(fn, items))


class Probe:
    """What every category works with: the options, fresh places, the command to probe."""

    def __init__(self, args: argparse.Namespace, scratch: Path) -> None:
        self.args = args
        self.scratch = scratch
        self.seed: int = args.seed
        self.quick: bool = args.quick
        self.jobs: int = args.jobs
        base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        if args.gamehall:
            self.command = shlex.split(args.gamehall)
        else:
            self.command = [sys.executable, "-m", "game"]
            base["PYTHONPATH"] = str(ROOT)
        base["PYTHONDONTWRITEBYTECODE"] = "1"
        self.base_env = base
        self._counter = 0
        self._lock = threading.Lock()

    def place(self) -> Place:
        with self._lock:
            self._counter += 1
            n = self._counter
        root = self.scratch / f"case{n}"
        place = Place(root / "home", root / "cwd", root / "xdg")
        for folder in (place.home, place.cwd, place.xdg):
            folder.mkdir(parents=True)
        return place

    def done(self, place: Place) -> None:
        shutil.rmtree(place.home.parent, ignore_errors=True)

    def pick(self, n: int, quick_n: int, *, offset: int = 0) -> list[int]:
        """The case indices to run: all, a spread of ``quick_n`` with --quick, or --case
        (the case numbered ``offset`` in the category is index 0 here)."""
        if self.args.case is not None:
            case = self.args.case - offset
            return [case] if 0 <= case < n else []
        if not self.quick or quick_n >= n:
            return list(range(n))
        step = n / quick_n
        return sorted({int(i * step) for i in range(quick_n)})

    def gamehall(self, args: Sequence[str], place: Place, timeout: float) -> Ran:
        return execute(
            [*self.command, *args], env=place.env(self.base_env), cwd=place.cwd, timeout=timeout
        )

    def store_env(self, place: Place) -> dict[str, str]:
        """The environment of a script that imports the working tree's ``game``."""
        env = place.env(self.base_env)
        env["PYTHONPATH"] = str(ROOT)
        return env

    def cases(self, fn: Callable[[int], list[str]], indices: Sequence[int]) -> Tally:
        """Run ``fn`` on each case index, ``jobs`` at once; their tally."""
        results = parallel(fn, indices, self.jobs)
        tally = Tally()
        for i, problems in zip(indices, results, strict=True):
            tally.add(i, problems)
        return tally

    def workers(
        self,
        category: str,
        indices: list[int],
        extra: list[str],
        timeout: float,
        lanes: int | None = None,
    ) -> Tally:
        """Run the cases in ``lanes`` (default ``jobs``) worker processes, each taking the next
        case when done."""
        todo = list(indices)
        lock = threading.Lock()

        def take() -> int | None:
            with lock:
                return todo.pop(0) if todo else None

        results: dict[int, list[str]] = {}
        lanes = min(lanes or self.jobs, len(indices))
        for lane in parallel(
            lambda _: self._lane(category, take, extra, timeout), range(lanes), lanes
        ):
            results.update(lane)
        tally = Tally()
        for i in sorted(indices):
            tally.add(i, results.get(i, ["no result"]))
        return tally

    def _lane(
        self, category: str, take: Callable[[], int | None], extra: list[str], timeout: float
    ) -> dict[int, list[str]]:
        """Hand cases to a worker process one at a time (a line with the case number in, a
        JSON line out); a worker that hangs on a case or dies is killed, the case gets the
        reason, and a new worker goes on with the next."""
        results: dict[int, list[str]] = {}
        worker: Worker | None = None
        try:
            while (case := take()) is not None:
                if worker is None:
                    worker = Worker(self, category, extra)
                reply = worker.ask(case, timeout)
                if reply is None:
                    results[case] = [worker.failure(timeout)]
                    worker.close()
                    worker = None
                else:
                    results[case] = reply
        finally:
            if worker is not None:
                worker.close()
        return results


class Worker:
    """A ``--worker`` process of this script, in a place of its own."""

    def __init__(self, probe: Probe, category: str, extra: list[str]) -> None:
        self.probe = probe
        self.place = probe.place()
        self.errors = self.place.cwd / "worker-stderr.txt"
        argv = [
            sys.executable, str(PROBE_SCRIPT), "--worker", category,
            "--seed", str(probe.seed), *extra,
        ]  # fmt: skip
        with self.errors.open("wb") as err:
            self.proc = subprocess.Popen(
                argv, cwd=self.place.cwd, env=probe.store_env(self.place),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                start_new_session=True,
            )  # fmt: skip
        self.buffer = b""
        self.timed_out = False

    def ask(self, case: int, timeout: float) -> list[str] | None:
        """The problems of ``case``, or None when the worker died or gave no answer in time."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(f"{case}\n".encode())
            stdin.flush()
        except OSError:
            return None
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.timed_out = True
                    return None
                if selector.select(min(left, 1.0)):
                    chunk = os.read(stdout.fileno(), 65536)
                    if not chunk:
                        return None
                    self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        reply = json.loads(line)
        return list(reply["problems"]) if reply["case"] == case else None

    def failure(self, timeout: float) -> str:
        if self.timed_out:
            return f"no result within {timeout:g} s (killed)"
        self.proc.wait(10)
        tail = self.errors.read_text("utf-8", "replace")[-3000:]
        return f"the worker died (exit status {self.proc.returncode}): {last_line(tail)}"

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(30 if not self.timed_out else 0.1)
        kill_group(self.proc.pid)
        self.proc.wait()
        self.probe.done(self.place)


class ErrorWatch:
    """Errors that did not reach the caller: uncaught in a thread, or logged at ERROR."""

    def __init__(self) -> None:
        import logging

        self.seen: list[str] = []
        watch = self

        class Handler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                watch.seen.append(f"logged {record.levelname}: {record.getMessage()}")

        logging.getLogger().addHandler(Handler(logging.ERROR))

        def hook(info: Any) -> None:
            watch.seen.append(f"thread {info.thread.name if info.thread else '?'} raised "
                              f"{describe(info.exc_value)}")  # fmt: skip

        threading.excepthook = hook

    def take(self) -> str | None:
        if not self.seen:
            return None
        first, self.seen = self.seen[0], []
        return first


def describe(exc: BaseException | None) -> str:
    if exc is None:
        return "?"
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for frame in reversed(frames):
        path = Path(frame.filename)
        if ROOT in path.parents:
            where = f" at {path.relative_to(ROOT)}:{frame.lineno}"
            break
    return clip(f"{type(exc).__name__}: {exc}{where}", 300)
