"""Probe gamehall as a hostile user would, and count what misbehaves.

Six categories; each is a list of cases made from ``--seed`` (the same seed makes the same
cases; ``--case N`` runs case N of the category named by ``--only`` again, as a repro):

- ``cli``: about 170 hostile command lines for every command and game, each run as a
  subprocess. Misbehaving: a traceback, an exit status other than 0 or 2 (``play`` may say in
  one line that there is no display and exit 1), no answer within 60 s, a ``--do`` item the
  program refused (or that must be refused) with exit status 0, more than 100 KB on stdout, a
  file written outside GAMEHALL_HOME and the ``--out``/``save-to:`` paths, processes left
  running after it ended.
- ``files``: 45 damaged ``settings.toml`` and ``statistics.toml`` files, then
  ``shot river``, ``shot reversi`` and a small script that loads, saves and records through
  ``game.settings.Store`` as ``play`` does. Misbehaving: an exit status other than 0, a
  traceback, a hang, a file the program complained about without a ``*.bad-*`` copy of its
  original bytes, a temp file left behind, a file it wrote that does not load cleanly.
- ``kills``: 20 child processes saving both files in a loop through ``Store``, SIGKILLed at
  seeded moments. Misbehaving: a file that does not load whole, a temp file left after the
  next load.
- ``robots``: about 40 robot files in ``$GAMEHALL_HOME/robots`` that raise, hang, exit,
  print, allocate 3 GB, spawn a process (at import, in ``__init__``, in ``plan``), return
  junk, cheat or send a pickle up their pipe, run in ``shot grab`` and ``tournament grab``.
  Misbehaving: an exit status other than 0 or 2, a traceback, no answer within 120 s, more
  than 100 KB of output, a failing robot not named on stderr, robot code run in the game's
  own process, processes left running, and any effect of a broken robot that was not picked
  (or of a cheating one) on the game.
- ``input``: 506 sequences of 50 random actions (commands, keys, typed text, clicks, moves in
  notation, legal and not, waits, undo/redo spam, resizes, frames) on a headless Director,
  starting in each game and the menu; half of them wait for the scene to settle after each
  action, the others act in the middle of animations and thinking. Misbehaving: an
  exception (in the scene or a thread, or an error logged), a match whose record does not
  replay to its states, a rule broken (Reversi: discs appear one per move and never vanish;
  river: crossings counted, nothing after the end; MasterGrab: see ``games``), a status line
  that disagrees with the match, a scene that does not settle within 60 s.
- ``games``: 390 robots-only MasterGrab games with random options (10 to 200 countries, 2 to
  6 seats, every distribution, factors at and between their limits) through the tournament
  runner, each replayed from its record; every fourth may run to the game's own step cap,
  the others stop after 150 rounds. Misbehaving: an exception, a move that does not
  replay, a rule broken (negative or non-finite armies, a country owned by no player of the
  game, a mountain that changed, a country the move did not touch that changed other than by
  growth, growth past the capacity, an end not called or called wrongly), a game past its
  step cap or stopped without being counted as capped.

The command-line categories run ``--gamehall CMD`` (default: this interpreter with ``-m game``
and the repository root on PYTHONPATH, so the working tree); ``kills``, ``input``, ``games``
and the files category's script use the working tree's ``game`` package. Every run gets a
fresh GAMEHALL_HOME and working folder under one temporary folder, with the XDG config and
data folders pointed at empty ones (which must stay empty), so nothing touches the user's own
config. Output: ``category=NAME tried=N misbehaved=M`` per category, an indented line per
misbehaviour (the first 10 of each category, ``#N`` naming the case), ``misbehaved_total=K``
last; exit status 0 when nothing misbehaved, else 1.

    .venv/bin/python tools/probe.py [--only cli,files] [--seed 1] [--quick] [--jobs 2]
    .venv/bin/python tools/probe.py --only input --seed 1 --case 17     # one case again

The ``cli`` fixtures a command line names are made in its working folder first:
``garbage.txt`` (text), ``binary.bin`` (random bytes), ``fifo`` (a named pipe), ``folder`` (a
folder), ``big.txt`` (10 MB of a transcript), ``illegal.txt`` (``a1``), ``long.txt`` (``f5``
1000 times).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import itertools
import json
import math
import os
import random
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CATEGORIES = ("cli", "files", "kills", "robots", "input", "games")
SHOWN = 10
OUTPUT_CAP = 100_000
TRACEBACK = "Traceback (most recent call last)"
CLI_TIMEOUT_S = 60.0
ROBOT_TIMEOUT_S = 120.0
INPUT_TIMEOUT_S = 180.0
GAME_TIMEOUT_S = 300.0
SETTLE_S = 60.0
#: The rounds after which most probe games stop (the game's own cap is 1000).
SHORT_ROUNDS = 150
SMALL = ("--size", "160x120")
#: Flags that keep a shot of each scene cheap (a later flag of the same name wins).
CHEAP = {
    "river": (),
    "reversi": ("--time", "0.05"),
    "grab": ("--countries", "20", "--seed", "5"),
    "menu": (),
}
INPUT_SCENES = ("river", "reversi", "grab", "menu")
#: The options every input sequence starts with: quick computer moves, small maps.
INPUT_OPTIONS: dict[str, dict[str, Any]] = {
    "reversi": {"time_per_move": 0.05},
    "grab": {"countries": 30},
}


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    if args.worker:
        return _worker_main(args)
    only = args.only.split(",") if args.only else list(CATEGORIES)
    unknown = [c for c in only if c not in CATEGORIES]
    if unknown:
        print(f"probe: no category {', '.join(unknown)}; they are {', '.join(CATEGORIES)}")
        return 2
    if args.case is not None and len(only) != 1:
        print("probe: --case needs --only with one category")
        return 2
    total = 0
    with tempfile.TemporaryDirectory(prefix="gamehall-probe-") as scratch:
        probe = Probe(args, Path(scratch))
        for name in only:
            started = time.perf_counter()
            tally = getattr(probe, f"category_{name}")()
            seconds = time.perf_counter() - started
            print(f"category={name} tried={tally.tried} misbehaved={tally.misbehaved}")
            for line in tally.lines[:SHOWN]:
                print(f"    {_clip(line, 400)}")
            if len(tally.lines) > SHOWN:
                print(f"    ... and {len(tally.lines) - SHOWN} more")
            sys.stdout.flush()
            print(f"    ({seconds:.0f} s)", file=sys.stderr, flush=True)
            total += tally.misbehaved
    print(f"misbehaved_total={total}")
    return 1 if total else 0


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", help=f"categories, comma-separated: {','.join(CATEGORIES)}")
    p.add_argument("--seed", type=int, default=1, help="makes every case (default 1)")
    p.add_argument("--quick", action="store_true", help="a few cases of each (a smoke run)")
    p.add_argument("--case", type=int, help="run only this case of the one --only category")
    p.add_argument("--jobs", type=int, default=2, help="cases at once (default 2)")
    p.add_argument("--gamehall", help="the command to probe (default: python -m game here)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--steps", type=int, default=50, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.jobs = max(1, args.jobs)
    return args


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


def execute(argv: Sequence[str], *, env: dict[str, str], cwd: Path, timeout: float) -> Ran:
    """Run ``argv`` in a session of its own; kill the whole group at ``timeout``, and any
    process of the group still there a moment after the first one ended."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    chunks: dict[str, list[bytes]] = {"out": [], "err": []}
    readers = [
        threading.Thread(target=_drain, args=(stream, chunks[name]), daemon=True)
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    rc: int | None
    try:
        rc = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        proc.wait()
        rc = None
    left = rc is not None and _group_alive(proc.pid, grace=3.0)
    _kill_group(proc.pid)
    for reader in readers:
        reader.join(5.0)
    return Ran(
        rc,
        b"".join(chunks["out"]).decode("utf-8", "replace"),
        b"".join(chunks["err"]).decode("utf-8", "replace"),
        proc.pid,
        time.perf_counter() - started,
        left,
    )


def _drain(stream: Any, into: list[bytes]) -> None:
    while chunk := stream.read(65536):
        into.append(chunk)
    stream.close()


def _kill_group(pgid: int) -> None:
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
    processes left behind."""
    problems = []
    if ran.rc is None:
        problems.append(f"no answer within {timeout:g} s (killed)")
    elif ran.rc not in allowed:
        problems.append(f"exit status {ran.rc}: {_last_line(ran.err)}")
    if TRACEBACK in ran.err:
        problems.append(f"traceback: {_last_line(ran.err)}")
    if len(ran.out) > OUTPUT_CAP:
        problems.append(f"{len(ran.out)} characters on stdout")
    if ran.left_running:
        problems.append("left processes running after it ended")
    return problems


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return _clip(lines[-1].strip(), 160) if lines else "(nothing on stderr)"


def _clip(text: str, n: int) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= n else text[: n - 3] + "..."


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in folder.rglob("*"):
        try:
            st = path.lstat()
        except OSError:
            continue
        rel = str(path.relative_to(folder))
        out[rel] = (st.st_size, st.st_mtime_ns) if not path.is_dir() else (-1, 0)
    return out


def _parallel(fn: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any]:
    if jobs == 1 or len(items) <= 1:
        return [fn(item) for item in items]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(fn, items))


class Probe:
    """The categories; each returns its :class:`Tally`."""

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

    def pick(self, n: int, quick_n: int) -> list[int]:
        """The case indices to run: all, a spread of ``quick_n`` with --quick, or --case."""
        if self.args.case is not None:
            return [self.args.case] if 0 <= self.args.case < n else []
        if not self.quick or quick_n >= n:
            return list(range(n))
        step = n / quick_n
        return sorted({int(i * step) for i in range(quick_n)})

    def gamehall(self, args: Sequence[str], place: Place, timeout: float) -> Ran:
        return execute(
            [*self.command, *args], env=place.env(self.base_env), cwd=place.cwd, timeout=timeout
        )

    # --- 1. command lines ------------------------------------------------------------------

    def category_cli(self) -> Tally:
        cases = cli_cases(random.Random(f"{self.seed}:cli"))
        indices = self.pick(len(cases), 25)
        results = _parallel(lambda i: self._cli_case(cases[i]), indices, self.jobs)
        tally = Tally()
        for i, problems in zip(indices, results, strict=True):
            tally.add(i, problems)
        return tally

    def _cli_case(self, case: CliCase) -> list[str]:
        place = self.place()
        try:
            _make_fixtures(place.cwd, case.args)
            before = _snapshot(place.cwd)
            ran = self.gamehall(case.args, place, case.timeout)
            after = _snapshot(place.cwd)
            what = _clip(shlex.join(case.args), 150)
            problems = cli_problems(case, ran, before, after, place)
            return [f"{what}: {p}" for p in problems]
        finally:
            self.done(place)

    # --- 2. damaged files ------------------------------------------------------------------

    def category_files(self) -> Tally:
        cases = file_cases()
        indices = self.pick(len(cases), 10)
        results = _parallel(lambda i: self._file_case(cases[i]), indices, self.jobs)
        tally = Tally()
        for i, problems in zip(indices, results, strict=True):
            tally.add(i, problems)
        return tally

    def _file_case(self, case: FileCase) -> list[str]:
        place = self.place()
        try:
            originals = case.make(place.home)
            problems: list[str] = []
            said = ""
            runs = (
                ("shot river", ["shot", "river", "--out", "out.png", *SMALL]),
                ("shot reversi", ["shot", "reversi", "--out", "out.png", *SMALL]),
                ("store script", None),
            )
            second: list[str] = []
            for name, argv in runs:
                if argv is None:
                    ran = execute(
                        [sys.executable, "-c", STORE_SCRIPT], env=self._store_env(place),
                        cwd=place.cwd, timeout=CLI_TIMEOUT_S,
                    )  # fmt: skip
                    try:
                        reply = json.loads(ran.out.strip().splitlines()[-1])
                        said += " ".join(reply["first"])
                        second = reply["second"]
                    except (ValueError, IndexError, KeyError):
                        pass
                else:
                    ran = self.gamehall(argv, place, CLI_TIMEOUT_S)
                said += ran.err
                problems.extend(
                    f"{name}: {p}" for p in common_problems(ran, CLI_TIMEOUT_S, allowed=(0,))
                )
                if ran.rc is None:
                    break  # a hang: the next runs would hang too
            problems.extend(_aside_problems(place.home, originals, said))
            problems.extend(
                f"store script: the file it wrote does not load cleanly: {_clip(m, 160)}"
                for m in second
                if any(m.startswith(f) for f in _regular(place.home))
            )
            leftovers = sorted(p.name for p in place.home.glob(".*.tmp"))
            if leftovers:
                problems.append(f"temp files left in GAMEHALL_HOME: {', '.join(leftovers)}")
            return [f"{case.name}: {p}" for p in problems]
        finally:
            self.done(place)

    def _store_env(self, place: Place) -> dict[str, str]:
        env = place.env(self.base_env)
        env["PYTHONPATH"] = str(ROOT)
        return env

    # --- 3. kills in the middle of a write --------------------------------------------------

    def category_kills(self) -> Tally:
        indices = self.pick(20, 5)
        results = _parallel(self._kill_case, indices, self.jobs)
        tally = Tally()
        for i, problems in zip(indices, results, strict=True):
            tally.add(i, problems)
        return tally

    def _kill_case(self, index: int) -> list[str]:
        delay = random.Random(f"{self.seed}:kills:{index}").uniform(0.0, 0.4)
        place = self.place()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", SAVER_SCRIPT, str(place.home)], cwd=place.cwd,
                env=self._store_env(place), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
            )  # fmt: skip
            out, err = proc.stdout, proc.stderr
            assert out is not None and err is not None
            with out, err:
                if not out.readline().startswith(b"ready"):
                    proc.wait(10)
                    return [f"the saving child did not start: {_last_line(err.read().decode())}"]
                time.sleep(delay)
                _kill_group(proc.pid)
                proc.wait()
                saves = 1 + sum(1 for _ in out)
            return [
                f"killed {delay:.3f} s after its first save (after {saves} saves): {p}"
                for p in _load_whole(place.home)
            ]
        finally:
            self.done(place)

    # --- 4. misbehaving robots ---------------------------------------------------------------

    def category_robots(self) -> Tally:
        cases = robot_cases()
        indices = self.pick(len(cases), 6)
        tally = Tally()
        base_place = self.place()
        try:
            plain = self.gamehall(_robot_shot("basic,basic"), base_place, ROBOT_TIMEOUT_S)
            baseline = _status(plain.out)
            _write_robot(base_place.home, "passer", robot_source("plan", "pass"))
            passer = self.gamehall(_robot_shot("passer,basic"), base_place, ROBOT_TIMEOUT_S)
            passing = _status(passer.out)
        finally:
            self.done(base_place)
        for what, ran in (("baseline basic,basic", plain), ("baseline passer,basic", passer)):
            problems = common_problems(ran, ROBOT_TIMEOUT_S, allowed=(0,))
            if problems:
                tally.lines.extend(f"{what}: {p}" for p in problems)
        results = _parallel(
            lambda i: self._robot_case(cases[i], baseline, passing), indices, self.jobs
        )
        for i, problems in zip(indices, results, strict=True):
            tally.add(i, problems)
        return tally

    def _robot_case(self, case: RobotCase, baseline: str, passing: str) -> list[str]:
        problems: list[str] = []
        for run in case.runs:
            place = self.place()
            try:
                _write_robot(place.home, case.stem, case.source)
                if run == "unpicked":
                    argv = _robot_shot("basic,basic")
                elif run == "tournament":
                    argv = [
                        "tournament", "grab", "--agents", f"{case.stem},basic", "--games", "1",
                        "--countries", "20", "--max-steps", "12", "--jobs", "1",
                    ]  # fmt: skip
                else:
                    argv = _robot_shot(f"{case.stem},basic")
                ran = self.gamehall(argv, place, ROBOT_TIMEOUT_S)
                found = [
                    f"{run}: {p}" for p in _robot_problems(case, run, ran, place, baseline, passing)
                ]
                problems.extend(found)
            finally:
                self.done(place)
        return [f"robot {case.stem} ({case.about}): {p}" for p in problems]

    # --- 5. random input, 6. robots-only games: in worker processes ---------------------------

    def category_input(self) -> Tally:
        steps = 20 if self.quick else 50
        indices = self.pick(506, 24)
        # One lane more than --jobs: a scene waiting for a thinking thread leaves a core idle.
        lanes = self.jobs + 1
        return self._workers("input", indices, ["--steps", str(steps)], INPUT_TIMEOUT_S, lanes)

    def category_games(self) -> Tally:
        indices = self.pick(390, 30)
        # The games that may run to the game's own cap go first, so none of them is last.
        indices.sort(key=lambda i: (i % 4 != 0, i))
        return self._workers("games", indices, [], GAME_TIMEOUT_S)

    def _workers(
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
        for lane in _parallel(
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
            sys.executable, str(Path(__file__).resolve()), "--worker", category,
            "--seed", str(probe.seed), *extra,
        ]  # fmt: skip
        with self.errors.open("wb") as err:
            self.proc = subprocess.Popen(
                argv, cwd=self.place.cwd, env=probe._store_env(self.place),
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
        return f"the worker died (exit status {self.proc.returncode}): {_last_line(tail)}"

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(30 if not self.timed_out else 0.1)
        _kill_group(self.proc.pid)
        self.proc.wait()
        self.probe.done(self.place)


# --- 1. command lines: cases and checks ------------------------------------------------------


@dataclass(frozen=True)
class CliCase:
    """One command line; ``refused``: it holds a ``--do`` item that must be refused."""

    args: tuple[str, ...]
    refused: bool = False
    timeout: float = CLI_TIMEOUT_S


FIXTURES: dict[str, Callable[[Path], object]] = {
    "garbage.txt": lambda p: p.write_text("this is not a saved game\n\x01\x02 {[("),
    "binary.bin": lambda p: p.write_bytes(random.Random(7).randbytes(4096)),
    "fifo": lambda p: os.mkfifo(p),
    "folder": lambda p: p.mkdir(),
    "big.txt": lambda p: p.write_bytes(b"f5d6c3" * (10_000_000 // 6)),
    "illegal.txt": lambda p: p.write_text("a1\n"),
    "long.txt": lambda p: p.write_text("f5" * 1000),
}


def _make_fixtures(cwd: Path, args: Sequence[str]) -> None:
    text = " ".join(args)
    for name, make in FIXTURES.items():
        if re.search(rf"(^|[\s:=/,]){re.escape(name)}($|[\s,/])", text):
            make(cwd / name)


def _shot(game: str, *extra: str, refused: bool = False, timeout: float = CLI_TIMEOUT_S) -> CliCase:
    return CliCase(
        ("shot", game, "--out", "out.png", *SMALL, *CHEAP[game], *extra), refused, timeout
    )


def _do(game: str, items: str, *extra: str, refused: bool = False) -> CliCase:
    return _shot(game, "--do", items, *extra, refused=refused)


START = "-" * 27 + "OX------XO" + "-" * 27
BAD_TIMES = ("0", "-1", "nan", "inf", "-inf", "1e309", "1e-300", "abc", "", "0x10")
BAD_INTS = ("0", "-1", "100000000", "abc", "", "1.5", "1e3", "99999999999999999999999", " 3")
BAD_SIZES = (
    "0x0", "abc", "99999x99999", "1x1", "-160x120", "160x", "x", "160x120x3", "", "64x8192",
)  # fmt: skip


def cli_cases(rng: random.Random) -> list[CliCase]:
    """About 170 hostile command lines: about 160 written out, then 10 generated from ``rng``."""
    c: list[CliCase] = [
        CliCase(()), CliCase(("nosuch",)), CliCase(("--help",)), CliCase(("-v",)),
        CliCase(("shot",)), CliCase(("shot", "river")), CliCase(("solve",)),
        CliCase(("solve", "grab")), CliCase(("bench",)), CliCase(("bench", "river")),
        CliCase(("tournament", "nosuch")), CliCase(("play", "nosuch")),
        CliCase(("shot", "grab", "--help")), CliCase(("shot", "\udcff", "--out", "out.png")),
        CliCase(("shot", "river", "--out", "out.png", "--do", "x" * 100_000)),
        CliCase(("play", "river", "--size")), CliCase(("shot", "river", "--out")),
    ]  # fmt: skip
    # play: no display here, so one line and exit status 1 (or 2 for a bad flag)
    c += [CliCase(("play", *a)) for a in (
        (), ("river",), ("reversi",), ("grab",), ("menu",), ("river", "--size", "0x0"),
        ("reversi", "--load", "garbage.txt"), ("reversi", "--load", "fifo"),
        ("grab", "--countries", "100000000"), ("reversi", "--time", "nan"),
    )]  # fmt: skip
    c += [_shot("river", "--size", s) for s in BAD_SIZES[:6]]
    c += [
        CliCase(("shot", "river", "--out", out, *SMALL))
        for out in (".", "nosuch/out.png", "/dev/full", "fifo", "out.txt")
    ]
    c += [_shot("reversi", "--time", t) for t in BAD_TIMES[1:6]]
    c += [_shot("reversi", "--load", f) for f in (
        "garbage.txt", "binary.bin", "missing.txt", "folder", "fifo", "big.txt",
        "illegal.txt", "long.txt",
    )]  # fmt: skip
    c += [_shot("reversi", *a) for a in (
        ("--black", "nosuch"), ("--time-per-move", "3601"),
        ("--black", "master", "--white", "master", "--do", "wait,wait"),
    )]  # fmt: skip
    c += [_shot("river", *a) for a in (
        ("--priests", "201"), ("--devils", "nan"), ("--capacity", "0"), ("--capacity", "1"),
        ("--priests", "0", "--devils", "0"),
        ("--priests", "200", "--devils", "200", "--capacity", "12", "--do", "solve"),
    )]  # fmt: skip
    c += [_shot("grab", *a) for a in (
        ("--countries", "100000000"), ("--countries", "9"), ("--countries", "777"),
        ("--robots", "nosuch"), ("--robots", ""),
        ("--robots", ",".join(["basic"] * 16)), ("--robots", "x" * 1000), ("--seed", "-1"),
        ("--seed", "18446744073709551616"), ("--distribution", "nosuch"),
        ("--attack-factor", "0"), ("--attack-factor", "nan"), ("--armies-in-biggest", "1e309"),
        ("--countries", "10", "--mountains-percent", "50"), ("--robot-memory-mb", "0"),
        ("--no-human-playing", "--robots", "basic"),
    )]  # fmt: skip
    # --do items the scene must refuse: exit status 2, never 0
    c += [_do("reversi", d, refused=True) for d in (
        "a1", "f5,f5", "move:zz", "goto:-1", "goto:99999", "goto:abc",
        "load-from:missing.txt", "load-from:folder", "load-from:garbage.txt",
    )]  # fmt: skip
    c += [_do("river", d, refused=True) for d in (
        "click:nosuch", "board:dragon", "unboard:priest", "move:fly",
    )]  # fmt: skip
    c += [_do("grab", d, refused=True) for d in (
        "country:99999", "country:abc", "move:attack 99999>1", "move:attack 1>1",
    )]  # fmt: skip
    c += [_do("menu", d, refused=True) for d in ("play:nosuch",)]
    # --do lists that are odd but may be fine
    c += [_do(g, d) for g, d in (
        ("river", "nosuch"), ("river", ",,,"), ("river", ",".join(["undo"] * 50)),
        ("river", ",".join(["hint", "next"] * 10)), ("river", "overlay,overlay,overlay"),
        ("river", ",".join(["priests+"] * 250)), ("grab", ",".join(["countries+"] * 100)),
        ("reversi", "save-to:saved.txt"), ("reversi", "save-to:nosuch/x.txt"),
        ("reversi", ",".join(["hint", "next"] * 30)),
        ("menu", "quit"), ("menu", "river,menu,reversi,menu,grab"),
        ("grab", "options,countries+,apply"),
    )]  # fmt: skip
    # solve
    c += [CliCase(("solve", "river", *a)) for a in (
        ("--priests", "200", "--devils", "200", "--capacity", "12"), ("--capacity", "1"),
        ("--priests", "0", "--devils", "0"), ("--priests", "4", "--devils", "4"),
        ("--devils", "-1"),
    )]  # fmt: skip
    c += [CliCase(("solve", "reversi", *a)) for a in (
        (), (START + " X",), (START + " X", "--exact", "--time", "1"), (START[:63] + " X",),
        (START.replace("O", "Q") + " X",), (START + " Z",), (START,),
        ("X" * 64 + " O",), ("-" * 64 + " X",), ("X" * 63 + "- O",), (START + " X", "--all"),
        ("X" * 27 + "O" + "X" * 26 + "-" * 10 + " O", "--exact"), (START + " X", "junk"),
    )]  # fmt: skip
    c += [CliCase(("solve", "reversi", START + " X", "--time", t)) for t in BAD_TIMES[:5]]
    # bench
    c += [CliCase(("bench", "render", *a)) for a in (
        ("--frames", "0"), ("--frames", "-1"),
        ("--frames", "1000000000", *SMALL, "--scene", "river"), ("--size", "0x0"),
        ("--size", "99999x99999"), ("--scene", "nosuch"),
        ("--scene", "river", "--frames", "2", *SMALL),
    )]  # fmt: skip
    c += [CliCase(("bench", "reversi", "--perft-depth", d)) for d in ("0", "-1", "1000", "abc")]
    c += [CliCase(("bench", "grab", "--strength", *a)) for a in (
        ("--games", "0"), ("--jobs", "0"), ("--games", "-1"),
    )]  # fmt: skip
    # tournament
    t_river = ("tournament", "river")
    t_grab = ("tournament", "grab", "--countries", "20")
    c += [CliCase((*t_river, *a)) for a in (
        ("--agents", "nosuch"), ("--agents", "solver,solver"),
        ("--agents", "solver", "--games", "0"),
        ("--agents", "solver", "--games", "1000000000"), ("--agents", "solver", "--jobs", "0"),
        ("--agents", "solver", "--seed", "18446744073709551616"),
        ("--agents", "solver", "--max-steps", "0"), ("--agents", "solver", "--max-steps", "1"),
        ("--agents", "solver", "--scheduler", "tcp://127.0.0.1:1"),
        ("--agents", "solver", "--scheduler", "nosuch"),
    )]  # fmt: skip
    c += [CliCase(("tournament", "reversi", *a)) for a in (
        ("--agents", "beginner,nosuch"), ("--agents", ""),
        *(("--agents", "beginner,beginner", "--games", "2", "--time", t) for t in BAD_TIMES[2:4]),
    )]  # fmt: skip
    c += [CliCase((*t_grab, *a)) for a in (
        ("--agents", "basic"), ("--agents", "basic,basic", "--countries", "9"),
        ("--agents", ",".join(["basic"] * 16)), ("--agents", "strategic,basic", "--games", "2"),
        ("--agents", "basic,basic", "--human-playing", "--games", "2"),
        ("--agents", "basic,basic", "--games", "2", "--jobs", "1000"),
    )]  # fmt: skip
    c += _generated_cli(rng, 10)
    return c


#: For generated lines: the flags of each command and game that take a value.
GENERATED_FLAGS = {
    ("shot", "river"): "--priests --devils --capacity --size --do",
    ("shot", "reversi"): "--black --white --time --time-per-move --load --do",
    ("shot", "grab"): "--countries --robots --distribution --mountains-percent --seed "
    "--armies-in-biggest --growth-factor --protection-factor --attack-factor "
    "--attack-benefit-factor --robot-memory-mb --do",
    ("shot", "menu"): "--size --do",
    ("solve", "river"): "--priests --devils --capacity",
    ("solve", "reversi"): "--time",
    ("tournament", "river"): "--games --seed --time --max-steps --priests",
    ("tournament", "reversi"): "--games --seed --time --max-steps --jobs",
    ("tournament", "grab"): "--games --seed --max-steps --countries --attack-factor",
}
DO_ITEMS = {
    "river": ("hint", "next", "solve", "undo", "redo", "new", "boat", "board:priest",
              "unboard:devil", "click:devil2", "priests+", "devils-", "capacity+", "wait"),
    "reversi": ("d3", "c4", "a1", "hint", "next", "undo", "redo", "swap", "goto:1", "pass",
                "black", "white", "undo-all", "redo-all", "wait"),
    "grab": ("country:3", "next", "hint", "pass", "undo", "redo", "new", "replay", "options",
             "apply", "countries+", "robots-", "zoom-in", "pan-left", "info", "wait"),
    "menu": ("river", "reversi", "grab", "continue", "play:river", "menu", "wait"),
}  # fmt: skip
JUNK = ("", "-", "--", "nan", "-1", "0", "1e309", "x" * 300, "é", "1,2", "'", "%s", "\t")


def _generated_cli(rng: random.Random, n: int) -> list[CliCase]:
    values = (*BAD_INTS, *BAD_TIMES, *BAD_SIZES, *JUNK, "human", "master", "basic,simple")
    out = []
    keys = sorted(GENERATED_FLAGS)
    for _ in range(max(0, n)):
        command, game = rng.choice(keys)
        args: list[str] = [command, game]
        if command == "shot":
            args += ["--out", "out.png", *SMALL, *CHEAP[game]]
        elif command == "solve" and game == "reversi":
            args.append(START + " X")
        elif command == "tournament":
            agents = {"river": "solver", "reversi": "beginner,beginner", "grab": "basic,basic"}
            args += ["--agents", agents[game], "--games", "2", "--time", "0.05"]
            if game == "grab":
                args += ["--countries", "20"]
        flags = GENERATED_FLAGS[command, game].split()
        for flag in rng.sample(flags, min(len(flags), rng.randint(1, 2))):
            if flag == "--do":
                items = [rng.choice(DO_ITEMS[game] + JUNK[:6]) for _ in range(rng.randint(1, 8))]
                args += [flag, ",".join(items)]
            else:
                args += [flag, rng.choice(values)]
        out.append(CliCase(tuple(args)))
    return out


def cli_problems(
    case: CliCase, ran: Ran, before: dict[str, Any], after: dict[str, Any], place: Place
) -> list[str]:
    args = case.args
    command = args[0] if args else ""
    allowed = (0, 1, 2) if command == "play" else (0, 2)
    problems = common_problems(ran, case.timeout, allowed=allowed)
    if command == "play" and ran.rc == 1 and "display" not in ran.err.lower():
        problems.append(f"exit status 1 without the no-display line: {_last_line(ran.err)}")
    if command == "play" and ran.rc == 0 and "--help" not in args:
        problems.append("play exited 0 with no display")
    if ran.rc == 0 and command == "shot":
        items = _do_items(args)
        refusals = [
            line for line in ran.err.splitlines() if line.startswith("gamehall shot: ")
            and any(line.startswith(f"gamehall shot: {i}: ") or f"'{i}'" in line for i in items)
        ]  # fmt: skip
        if refusals:
            problems.append(f"exit status 0 after refusing a --do item: {_clip(refusals[0], 160)}")
        elif case.refused:
            problems.append("exit status 0 and no word for a --do item that must be refused")
        if "did not settle" in ran.err:
            problems.append("the animation did not settle")
    asked = [v for k, v in itertools.pairwise(args) if k == "--out"]
    asked += [m.group(1) for m in re.finditer(r"save-to:([^,]+)", " ".join(args))]
    allowed_files = set()
    for path in asked:  # the files asked for, and the folders that lead to them
        parts = Path(os.path.normpath(path)).parts
        allowed_files |= {str(Path(*parts[: i + 1])) for i in range(len(parts))}
    written = [
        name for name, stamp in after.items()
        if before.get(name) != stamp and stamp[0] >= 0 and name not in allowed_files
    ]  # fmt: skip
    written += [n for n in after if n not in before and after[n][0] < 0 and n not in allowed_files]
    if written:
        problems.append(f"wrote {', '.join(sorted(written)[:5])} in its working folder")
    stray = place.xdg_files()
    if stray:
        problems.append(f"wrote {', '.join(stray[:5])} under XDG_CONFIG_HOME/XDG_DATA_HOME")
    return problems


def _do_items(args: Sequence[str]) -> list[str]:
    items: list[str] = []
    for i, arg in enumerate(args[:-1]):
        if arg == "--do":
            text = args[i + 1]
            items += [s.strip() for s in re.split(r",(?!\s*\d)", text) if s.strip()]
    return items


# --- 2. damaged files -------------------------------------------------------------------------

SETTINGS = """last_game = "river"
shadows = true
show_fps = false

[window]
width = 1280
height = 720

[river]
priests = 3
devils = 3
capacity = 2

[reversi]
black = "human"
white = "intermediate"
time_per_move = 1.0

[grab]
countries = 140
robots = "basic,basic,basic"
"""
STATISTICS = """[games.river]
played = 3
won = 2
lost = 1
drawn = 0

[games.river.best]
"3/3/2" = 11

[games."reversi:master"]
played = 2
won = 0
lost = 2
"""
DIR, FIFO, LOOP, DANGLING = "<dir>", "<fifo>", "<loop>", "<dangling>"

#: What ``play`` does with the files: load both, save the options, record a result, load
#: again. Prints the messages of the first and the second load as JSON.
STORE_SCRIPT = """
import json
from game.registry import all_entries
from game.session import Session
from game.settings import Store
store = Store()
entries = {e.id: e for e in all_entries()}
settings, first = store.load_settings({k: e.options for k, e in entries.items()})
first += store.load_statistics()[1]
session = Session("river", entries["river"].options, settings, store)
session.save_options(session.options)
session.record("river", won=True, setting="3/3/2", score=11)
second = store.load_settings({k: e.options for k, e in entries.items()})[1]
second += store.load_statistics()[1]
print(json.dumps({"first": first, "second": second}))
"""


@dataclass(frozen=True)
class FileCase:
    """What ``settings.toml`` and ``statistics.toml`` hold (bytes, or DIR, FIFO, LOOP,
    DANGLING; None: no such file), and other files to put in GAMEHALL_HOME."""

    name: str
    settings: bytes | str | None = SETTINGS.encode()
    statistics: bytes | str | None = STATISTICS.encode()
    extra: tuple[tuple[str, bytes], ...] = ()

    def make(self, home: Path) -> dict[str, bytes]:
        """Write the files; returns the regular ones' bytes by name."""
        originals = {}
        for name, content in (
            ("settings.toml", self.settings),
            ("statistics.toml", self.statistics),
        ):
            path = home / name
            if content is None:
                continue
            if content == DIR:
                path.mkdir()
            elif content == FIFO:
                os.mkfifo(path)
            elif content == LOOP:
                path.symlink_to(path)
            elif content == DANGLING:
                path.symlink_to(home / "nowhere" / name)
            else:
                assert isinstance(content, bytes)
                path.write_bytes(content)
                originals[name] = content
        for name, data in self.extra:
            (home / name).write_bytes(data)
        return originals


def file_cases() -> list[FileCase]:
    s, t = SETTINGS.encode(), STATISTICS.encode()
    deep = b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"
    huge_junk = random.Random(5).randbytes(1 << 20) * 50
    huge_valid = b"# a comment line to make the file big\n" * (50_000_000 // 38) + s
    cases = [
        FileCase("settings truncated", settings=s[: len(s) // 2 + 3]),
        FileCase("settings binary", settings=random.Random(1).randbytes(3000)),
        FileCase("settings UTF-16", settings=SETTINGS.encode("utf-16")),
        FileCase("settings UTF-8 BOM", settings=b"\xef\xbb\xbf" + s),
        FileCase("settings 50 MB junk", settings=huge_junk),
        FileCase("settings 50 MB of comments", settings=huge_valid),
        FileCase("settings a folder", settings=DIR),
        FileCase("settings a named pipe", settings=FIFO),
        FileCase("settings a symlink loop", settings=LOOP),
        FileCase("settings a dangling symlink", settings=DANGLING),
        FileCase("settings nested 100000 deep", settings=deep),
        FileCase("settings width text", settings=s.replace(b"width = 1280", b'width = "1600"')),
        FileCase("settings shadows text", settings=s.replace(b"= true", b'= "no"')),
        FileCase("settings width nan", settings=s.replace(b"width = 1280", b"width = nan")),
        FileCase("settings width inf", settings=s.replace(b"width = 1280", b"width = inf")),
        FileCase("settings width 0", settings=s.replace(b"width = 1280", b"width = 0")),
        FileCase("settings huge width", settings=s.replace(b"1280", b"99999999999999999999999")),
        FileCase("settings unknown keys", settings=s + b"\n[window.extra]\nx = 1\n"),
        FileCase("settings unknown game", settings=s + b"\n[nosuch]\nlevel = 3\n"),
        FileCase("settings reversi black nosuch", settings=s.replace(b'"human"', b'"nosuch"')),
        FileCase("settings time_per_move nan", settings=s.replace(b"= 1.0", b"= nan")),
        FileCase("settings priests -1", settings=s.replace(b"priests = 3", b"priests = -1")),
        FileCase("settings no river solution", settings=s.replace(b"city = 2", b"city = 1")),
        FileCase("settings robots nosuch", settings=s.replace(b"basic,basic,basic", b"nosuch")),
        FileCase("settings grab countries 1e8", settings=s.replace(b"= 140", b"= 100000000")),
        FileCase("settings window not a table", settings=b"window = 5\n"),
        FileCase("settings reversi not a table", settings=b'reversi = "x"\n'),
        FileCase("settings [[river]] array", settings=b"[[river]]\npriests = 3\n"),
        FileCase("settings last_game nosuch", settings=s.replace(b'"river"', b'"nosuch"', 1)),
        FileCase("settings duplicate key", settings=s + b"\n[window]\nwidth = 5\n"),
        FileCase("settings NUL byte", settings=s[:40] + b"\x00" + s[40:]),
        FileCase("settings empty", settings=b""),
        FileCase("settings stray temp", extra=((".settings.toml.x.tmp", s[:30]),)),
        FileCase("statistics truncated", statistics=t[: len(t) // 2]),
        FileCase("statistics binary", statistics=random.Random(2).randbytes(3000)),
        FileCase("statistics won as text", statistics=t.replace(b"won = 2", b'won = "x"')),
        FileCase("statistics played -5", statistics=t.replace(b"played = 3", b"played = -5")),
        FileCase("statistics best not a table", statistics=b"[games.river]\nbest = 5\n"),
        FileCase("statistics best text", statistics=t.replace(b"= 11", b'= "x"')),
        FileCase("statistics huge int", statistics=t.replace(b"= 11", b"= 99999999999999999999")),
        FileCase("statistics won nan", statistics=t.replace(b"won = 2", b"won = nan")),
        FileCase("statistics a folder", statistics=DIR),
        FileCase("statistics a named pipe", statistics=FIFO),
        FileCase("statistics nested 100000 deep", statistics=deep),
        FileCase("statistics stray temp", extra=((".statistics.toml.y.tmp", t[:20]),)),
    ]  # fmt: skip
    return cases


def _regular(home: Path) -> list[str]:
    return [n for n in ("settings.toml", "statistics.toml") if (home / n).is_file()]


def _aside_problems(home: Path, originals: dict[str, bytes], said: str) -> list[str]:
    """A file the program complained about (or that changed) must be kept aside as
    ``NAME.bad-*`` with its original bytes."""
    problems = []
    for name, data in originals.items():
        path = home / name
        if name not in said:
            continue  # loaded without complaint: rewriting it is fine
        kept = any(
            p.is_file() and p.stat().st_size == len(data) and p.read_bytes() == data
            for p in home.glob(f"{name}.bad-*")
        )
        if not kept:
            now = "gone" if not path.exists() else "still there" if path.is_file() else "odd"
            problems.append(
                f"{name} was reported but no {name}.bad-* holds its original "
                f"{len(data)} bytes (the file is {now})"
            )
    return problems


# --- 3. kills -----------------------------------------------------------------------------------

#: Saves settings and statistics in a loop (a big statistics file: the writes take a while);
#: prints "ready" after the first pair and a line after each pair.
SAVER_SCRIPT = """
import sys
from game.settings import Settings, Statistics, Store
store = Store(sys.argv[1])
settings, stats = Settings(), Statistics()
for g in range(300):
    stats.record(f"game{g}", won=True, setting=f"setting{g}", score=g)
i = 0
while True:
    i += 1
    settings.window.width = 100 + i
    stats.record("counter", won=True)
    store.save_settings(settings)
    store.save_statistics(stats)
    print("ready" if i == 1 else i, flush=True)
"""


def _load_whole(folder: Path) -> list[str]:
    """Load both files the way the game does; what is wrong with them."""
    sys.path.insert(0, str(ROOT))
    from game.settings import Store  # the working tree's

    store = Store(folder)
    problems = []
    settings, messages = store.load_settings({})
    stats, more = store.load_statistics()
    problems += [f"load: {_clip(m, 160)}" for m in messages + more]
    if (folder / "settings.toml").exists() and settings.window.width <= 100:
        problems.append(f"settings.toml loaded with width {settings.window.width}")
    if (folder / "statistics.toml").exists() and len(stats.games) != 301:
        problems.append(f"statistics.toml loaded with {len(stats.games)} of 301 games")
    leftovers = sorted(p.name for p in folder.glob(".*.tmp"))
    if leftovers:
        problems.append(f"temp files left after the next load: {', '.join(leftovers)}")
    return problems


# --- 4. robots ------------------------------------------------------------------------------------

#: The top of every robot file: it notes the id of each process that imports it.
ROBOT_HEAD = """import os, sys, time
from game.logic.grab.robot import Robot
from game.logic.grab.state import NO_MOVE, Move, MoveKind
with open(os.path.join(os.environ.get("GAMEHALL_HOME", "."), "robot-pids.txt"), "a") as _f:
    _f.write(f"{os.getpid()}\\n")
"""
#: Code that notes the process it runs in (the game's must never run a robot's code).
PICKLE_CODE = (
    "import os; open(os.environ['GAMEHALL_HOME'] + '/robot-pids.txt', 'a')"
    ".write(str(os.getpid()) + chr(10))"
)
#: What a robot does wrong, as code (an indented body).
DEEDS = {
    "raise": 'raise RuntimeError("hostile robot")',
    "spin": "while True:\n    pass",
    "sleep": "time.sleep(1e6)",
    "os_exit": "os._exit(3)",
    "sys_exit": "sys.exit(0)",
    "systemexit": "raise SystemExit",
    "interrupt": "raise KeyboardInterrupt",
    "print": 'print("x" * 2_000_000)\nprint("y" * 2_000_000, file=sys.stderr)',
    "alloc": 'blob = b"x" * (3 * 1024 ** 3)',
    "pass": "pass",
    "slow": "time.sleep(3)",
    "spawn": 'import subprocess\nsubprocess.Popen(["sleep", "1000"])',
    "junk_text": 'return "attack 1>2"',
    "junk_none": "return None",
    "junk_int": "return 42",
    "illegal": "return Move(MoveKind.ATTACK, 10 ** 20, (0,))",
    "list_sources": "return Move(MoveKind.ATTACK, 1, [0, 2])",
    "subclass": (
        "class Evil(Move):\n    def __str__(self):\n        return 'none' * 100000\n"
        "return Evil(MoveKind.GATHER, game.my_countries[0], ())"
    ),
    "cheat": (
        "st = game.state\n"
        "object.__setattr__(st, 'armies', tuple(1e9 for _ in st.armies))\n"
        "object.__setattr__(st, 'owners', tuple(game.player if o >= 0 else o for o in st.owners))\n"
        "import gc\n"
        "for obj in gc.get_objects():\n"
        "    if type(obj).__name__ == 'GrabState':\n"
        "        object.__setattr__(obj, 'armies', tuple(1e9 for _ in obj.armies))\n"
        "return NO_MOVE"
    ),
    # A pickle sent up the robot's own pipe: unpickled by the game, it would run code there.
    "pickle": (
        "import gc\n"
        "from multiprocessing.connection import Connection\n"
        f"code = {PICKLE_CODE!r}\n"
        "class Payload:\n"
        "    def __reduce__(self):\n"
        "        return (exec, (code,))\n"
        "for obj in gc.get_objects():\n"
        "    if isinstance(obj, Connection):\n"
        "        try:\n"
        "            obj.send(Payload())\n"
        "        except Exception:\n"
        "            pass\n"
        "return NO_MOVE"
    ),
}


def robot_source(where: str, deed: str, *, attrs: str = "") -> str:
    """A robot file that does ``deed`` at ``where`` (``import``, ``init`` or ``plan``)."""
    body = DEEDS[deed]
    if where != "plan":  # only plan returns
        body = "\n".join(line for line in body.splitlines() if not line.startswith("return"))
    top = body if where == "import" else ""
    init = _indent(body, 8) if where == "init" else "        pass"
    plan = _indent(body, 8) if where == "plan" else ""
    attrs = attrs or '    name = "Hostile"\n    description = "misbehaves on purpose"\n'
    return (
        f"{ROBOT_HEAD}\n{top}\n\nclass Hostile(Robot):\n{attrs}\n"
        f"    def __init__(self):\n{init}\n\n"
        f"    def plan(self, game):\n{plan}\n        return NO_MOVE\n"
    )


def _indent(code: str, n: int) -> str:
    return "\n".join(" " * n + line for line in code.splitlines())


@dataclass(frozen=True)
class RobotCase:
    """A robot file ``stem``.py with ``source``; ``runs``: ``pick`` (a shot with it),
    ``unpicked`` (a shot without it), ``tournament``; ``named``: it must be named on stderr
    when picked; ``same``: a pick must end like the passing robot's game."""

    stem: str
    about: str
    source: str
    runs: tuple[str, ...] = ("pick",)
    named: bool = True
    same: bool = False


#: Each place a robot can misbehave, and what it does wrong there.
ROBOT_DEEDS = {
    "import": (
        "raise", "spin", "sleep", "os_exit", "sys_exit", "interrupt", "print", "alloc", "pickle",
    ),
    "init": ("raise", "spin", "os_exit", "systemexit", "print", "alloc", "spawn"),
    "plan": (
        "raise", "spin", "sleep", "os_exit", "sys_exit", "interrupt", "print", "alloc", "slow",
        "junk_text", "junk_none", "junk_int", "illegal", "list_sources", "subclass", "cheat",
        "pickle",
    ),
}  # fmt: skip
#: Deeds that need not fail (so the robot need not be named), and those that must not change
#: the game at all (it must end as the passing robot's game does).
QUIET = {"print", "spawn", "cheat", "pickle", "pass"}
HARMLESS = {"cheat", "pickle", "pass"}


def robot_cases() -> list[RobotCase]:
    """A robot file per deed and place, and a few odd files."""
    cases = []
    for where, deeds in ROBOT_DEEDS.items():
        for deed in deeds:
            runs: tuple[str, ...] = ("pick",)
            if where == "import":
                runs = ("pick", "unpicked")
            elif where == "plan" and deed in ("raise", "spin", "os_exit", "junk_text"):
                runs = ("pick", "tournament")
            source = robot_source(where, deed)
            compile(source, f"{where}_{deed}.py", "exec")  # a mistake of the probe's own
            quiet, same = deed in QUIET, deed in HARMLESS
            if where == "import" and deed == "pickle":
                # Its discovery reply is refused, so the file is listed as broken and another
                # robot plays its seat: it must be named, and the game is not the passer's.
                quiet = same = False
            cases.append(
                RobotCase(f"{where}_{deed}", f"{deed} in {where}", source, runs, not quiet, same)
            )
    big = '    name = "n" * 100000\n    description = "d" * 1000000\n'
    odd = "    name = None\n    description = 5\n    default = 'yes'\n"
    both = ("pick", "unpicked")
    cases += [
        RobotCase("syntax", "a syntax error", ROBOT_HEAD + "def (:\n", both),
        RobotCase("norobot", "no Robot subclass", ROBOT_HEAD + "X = 1\n", both),
        RobotCase("bignames", "a 1 MB description", robot_source("plan", "pass", attrs=big),
                  named=False, same=True),
        RobotCase("oddattrs", "attributes of odd types", robot_source("plan", "pass", attrs=odd),
                  named=False, same=True),
        RobotCase("basic", "a file that shadows the built-in basic",
                  robot_source("plan", "raise"), ("unpicked",)),
    ]  # fmt: skip
    return cases


def _write_robot(home: Path, stem: str, source: str) -> None:
    folder = home / "robots"
    folder.mkdir(exist_ok=True)
    (folder / f"{stem}.py").write_text(source)


def _robot_shot(robots: str) -> list[str]:
    return [
        "shot", "grab", "--out", "out.png", *SMALL, "--countries", "20", "--seed", "5",
        "--robots", robots, "--no-human-playing", "--do", "pass,pass,pass,pass",
    ]  # fmt: skip


def _status(out: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith("status=")]
    return lines[-1] if lines else ""


def _robot_problems(
    case: RobotCase, run: str, ran: Ran, place: Place, baseline: str, passing: str
) -> list[str]:
    unpicked = run == "unpicked"
    problems = common_problems(ran, ROBOT_TIMEOUT_S, allowed=(0,) if unpicked else (0, 2))
    if len(ran.err) > OUTPUT_CAP:
        problems.append(f"{len(ran.err)} characters on stderr")
    if unpicked and ran.rc == 0 and _status(ran.out) != baseline:
        problems.append(f"changed a game without it: {_status(ran.out)!r}, not {baseline!r}")
    if run == "pick" and case.same and ran.rc == 0 and _status(ran.out) != passing:
        problems.append(f"it changed the game: {_status(ran.out)!r}, not {passing!r}")
    if not unpicked and case.named and case.stem not in ran.err.lower():
        problems.append(f"failed without being named on stderr ({_last_line(ran.err)})")
    pids = place.home / "robot-pids.txt"
    if pids.exists() and str(ran.pid) in pids.read_text().split():
        problems.append("robot code ran in the game's own process")
    return problems


# --- worker processes: 5. input and 6. games --------------------------------------------------


def _worker_main(args: argparse.Namespace) -> int:
    """Read case numbers from stdin, one a line, and write one JSON line per case on stdout
    (the program's own printing goes to stderr)."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.path.insert(0, str(ROOT))
    run = _input_worker(args) if args.worker == "input" else _games_worker(args)
    for line in sys.stdin:
        case = int(line)
        started = time.perf_counter()
        problems = run(case)
        reply = {"case": case, "problems": problems, "seconds": time.perf_counter() - started}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


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
                              f"{_describe(info.exc_value)}")  # fmt: skip

        threading.excepthook = hook

    def take(self) -> str | None:
        if not self.seen:
            return None
        first, self.seen = self.seen[0], []
        return first


def _describe(exc: BaseException | None) -> str:
    if exc is None:
        return "?"
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for frame in reversed(frames):
        path = Path(frame.filename)
        if ROOT in path.parents:
            where = f" at {path.relative_to(ROOT)}:{frame.lineno}"
            break
    return _clip(f"{type(exc).__name__}: {exc}{where}", 300)


# --- 5. input ------------------------------------------------------------------------------------


def _input_worker(args: argparse.Namespace) -> Callable[[int], list[str]]:
    from game.engine.window import configure_pyglet

    configure_pyglet(headless=True)
    from game.cli_play import build_director

    watch = ErrorWatch()
    folder = Path(tempfile.mkdtemp(prefix="input-", dir=os.getcwd()))
    (folder / "garbage.txt").write_text("not a game {[(")
    state: dict[str, Any] = {"director": None}

    def run(index: int) -> list[str]:
        if state["director"] is None:
            state["director"] = build_director(headless=True, size=(320, 240))
        director = state["director"]
        scene = INPUT_SCENES[index % len(INPUT_SCENES)]
        where = f"input {scene} seed {args.seed}"
        try:
            problems = input_sequence(director, index, args.seed, args.steps, watch, folder)
        except Exception as exc:  # the set-up itself failed
            problems = [f"setting up: {_describe(exc)}"]
        if problems:
            try:
                director.close()
            except Exception as exc:
                problems.append(f"closing the Director: {_describe(exc)}")
            state["director"] = None
        return [f"{where}: {p}" for p in problems]

    return run


@dataclass
class Act:
    """One input action: how it reads in a report, and what it does."""

    text: str
    run: Callable[[], object]


def input_sequence(
    director: Any, index: int, seed: int, steps: int, watch: ErrorWatch, folder: Path
) -> list[str]:
    """Play one sequence on ``director``; its problems (the first ends it). Half the
    sequences of each scene are patient: each action waits until the scene has settled, so
    play goes deeper; the others hurry, acting in the middle of animations and thinking."""
    from game.cli_play import make_sessions, register_games
    from game.settings import Settings

    rng = random.Random(f"{seed}:input:{index}")
    patient = (index // len(INPUT_SCENES)) % 2 == 1
    register_games(director, make_sessions(Settings(), None, INPUT_OPTIONS))
    if director.overlay.visible:
        director.overlay.toggle()
    director.show_help = False
    director.last_game = None  # the menu's Continue must not depend on an earlier sequence
    director.on_resize(320, 240)
    director.switch(INPUT_SCENES[index % len(INPUT_SCENES)])
    watch.take()
    checker = Consistency()
    done: list[str] = []
    for step in range(steps + 1):
        last = step == steps
        act = (
            Act("(settle at the end)", lambda: None) if last else choose_act(rng, director, folder)
        )
        done.append(act.text)
        try:
            act.run()
            if (patient or last) and not settle(director):
                return [f"did not settle within {SETTLE_S:g} s after: {_recent(done)}"]
            problem = watch.take() or checker.check(director)
            if last and not problem:
                director.capture()
                problem = watch.take() or status_problem(director)
        except Exception as exc:
            problem = f"raised {_describe(exc)}"
        if problem:
            return [f"step {step} ({_clip(act.text, 60)}; before: {_recent(done)}): {problem}"]
    return []


def settle(d: Any) -> bool:
    """Run the scene until nothing moves or thinks; False after SETTLE_S seconds. Like
    ``Director.settle`` in frames of 0.1 s, but it sleeps 10 ms a frame while only a thread
    works, since every frame costs a HUD update."""
    deadline = time.monotonic() + SETTLE_S
    while d.busy():
        if time.monotonic() > deadline:
            return False
        if not d.tweens.busy:
            time.sleep(0.01)
        d.update(0.1)
    d.update(0.1)
    return True


def _recent(done: list[str]) -> str:
    return _clip(" | ".join(done[-6:]), 200)


SIZES = ((320, 240), (64, 48), (1, 1), (800, 600), (1280, 200), (200, 900), (0, 0), (640, 400))
KEYS_EXTRA = ("F1", "F3", "A", "Z", "_0", "_9", "BACKSPACE", "TAB", "DELETE")
TEXTS = ("d3", "c", "4", "h8", "z9", "\r", "é", " ", "f5d6", "a")
NOTATION = ("d3", "a1", "pass", "boat", "board:priest", "unboard:devil", "none", "attack 3,5>12",
            "gather 1>2", "attack 99999>1", "", "zz", "-1", "board:dragon")  # fmt: skip


def choose_act(rng: random.Random, d: Any, folder: Path) -> Act:
    """A random input action on the current scene."""
    from pyglet.window import key, mouse

    table = d.commands()
    commands = list(table) if table is not None else []
    w, h = d.window_size()
    r = rng.random()
    if r < 0.25 and commands:
        command = rng.choice(commands)
        text = command.name
        if command.parse is not None:
            text = f"{command.name}:{_argument(rng, command.name, d, folder)}"
        if rng.random() < 0.05:
            text = rng.choice(("help", "overlay", "menu", "nosuch", text + ":junk"))
        return Act(f"perform {text}", lambda: d.perform(text))
    if r < 0.35:
        names = [*(table.keys() if table is not None else ()), *KEYS_EXTRA]
        if rng.random() < 0.03:  # Esc leaves the game; F12 writes a file: now and then
            names = ["ESCAPE", "F12"]
        name = rng.choice(names)
        symbol = getattr(key, name, None)
        if symbol is None:
            return Act(f"key {name} (none)", lambda: None)
        return Act(f"key {name}", lambda: d.on_key_press(symbol, 0))
    if r < 0.39:
        text = rng.choice(TEXTS)
        return Act(f"text {text!r}", lambda: d.on_text(text))
    if r < 0.54:
        x, y = rng.uniform(-5, w + 5), rng.uniform(-5, h + 5)
        button = rng.choice((mouse.LEFT, mouse.LEFT, mouse.LEFT, mouse.RIGHT))

        def click() -> None:
            d.on_mouse_motion(x, y, 0, 0)
            d.click(x, y, button)

        return Act(f"click {x:.0f},{y:.0f} button {button}", click)
    if r < 0.72:
        return _notation_act(rng, d)
    if r < 0.84:
        seconds = rng.choice((1 / 60, 0.1, 0.5, 1.0, 3.0))
        # Frames of MAX_DT (0.1 s), as a slow machine has them: fewer HUD updates to pay for.
        return Act(f"wait {seconds:.2f}", lambda: d.advance(seconds, dt=0.1))
    if r < 0.90:
        spam = [rng.choice(("undo", "redo")) for _ in range(rng.randint(2, 12))]

        def run_spam() -> None:
            for name in spam:
                d.perform(name)

        return Act(f"spam {','.join(spam)}", run_spam)
    if r < 0.95:
        size = rng.choice(SIZES)
        return Act(f"resize {size[0]}x{size[1]}", lambda: d.on_resize(*size))
    if r < 0.97:
        return Act("frame", d.capture)
    x, y = rng.uniform(0, w), rng.uniform(0, h)
    return Act(f"hover {x:.0f},{y:.0f}", lambda: d.on_mouse_motion(x, y, 0, 0))


def _argument(rng: random.Random, name: str, d: Any, folder: Path) -> str:
    if name == "goto":
        return rng.choice((str(rng.randint(-3, 70)), "abc", "1e9", "99999999999999999999"))
    if name in ("save-to", "load-from"):
        return str(rng.choice((
            folder / "saved.txt", folder / "missing.txt", folder / "garbage.txt", folder,
            folder / "nosuch" / "x.txt",
        )))  # fmt: skip
    if name == "country":
        return rng.choice((str(rng.randint(-2, 250)), "abc", ""))
    if name == "move":
        return _notation_text(rng, d)
    if name == "click":
        return rng.choice(("priest1", "devil2", "boat", "priest9", "nosuch"))
    if name in ("board", "unboard"):
        return rng.choice(("priest", "devil", "dragon"))
    if name == "play":
        return rng.choice(("river", "reversi", "grab", "menu", "nosuch"))
    return rng.choice(("x", "1", "-1"))


def _notation_text(rng: random.Random, d: Any) -> str:
    match = getattr(d.controller, "match", None)
    if match is not None and rng.random() < 0.75:
        legal = list(match.state.legal_actions())
        if legal:
            return str(match.state.action_text(rng.choice(legal)))
    return rng.choice(NOTATION)


def _notation_act(rng: random.Random, d: Any) -> Act:
    text = _notation_text(rng, d)

    def play() -> None:
        match = getattr(d.controller, "match", None)
        if match is None:
            return
        try:
            action = match.state.parse_action(text)
        except ValueError:
            return  # refused, as gamehall shot refuses it
        d.play(action)

    return Act(f"move {text!r}", play)


class Consistency:
    """Checks a scene's match after each action: every step of its record replays to the
    state after it (each transition checked once), and the game's rules hold."""

    def __init__(self) -> None:
        self.checked: dict[tuple[int, int, int], tuple[Any, Any, Any]] = {}

    def check(self, d: Any) -> str | None:
        controller = d.controller
        if controller is None:
            return "no scene"
        controller.status_line()
        match = getattr(controller, "match", None)
        if match is None:
            return None
        record = match.full_record
        if not 0 <= match.cursor <= len(record):
            return f"cursor {match.cursor} outside a record of {len(record)}"
        for i, step in enumerate(record):
            before, after = match.state_at(i), match.state_at(i + 1)
            k = (id(before), id(step), id(after))
            if k in self.checked:
                continue
            self.checked[k] = (before, step, after)
            problem = transition_problem(match.game, before, step, after)
            if problem:
                return f"step {i + 1} of the record ({_clip(step.text, 40)}): {problem}"
        return None


def transition_problem(game: Any, before: Any, step: Any, after: Any) -> str | None:
    """What is wrong with ``before`` --step--> ``after``, or None."""
    if before.is_terminal():
        return "a step after the end of the game"
    if step.forfeit is None:
        expected = before.apply(step.action)
        text = before.action_text(step.action)
        if text != step.text:
            return f"recorded as {step.text!r} but written {text!r}"
        if before.parse_action(text) != step.action:
            return f"{text!r} does not read back as the action it names"
        action = step.action
    else:
        expected = game.forfeit(before, step.action, step.forfeit)
        action = None
    if expected.key() != after.key():
        gives, holds = _clip(repr(expected.key()), 80), _clip(repr(after.key()), 80)
        return f"replaying it gives {gives}, the match holds {holds}"
    return rule_problem(before, action, after, forfeit=step.forfeit is not None)


def rule_problem(before: Any, action: Any, after: Any, *, forfeit: bool = False) -> str | None:
    kind = type(before).__name__
    if kind == "GrabState":
        return grab_problem(before, action, after, forfeit=forfeit)
    if kind == "Position":  # Reversi
        placed = (before.black | before.white) & ~(after.black | after.white)
        if placed:
            return "a disc vanished"
        gained = (after.black | after.white).bit_count() - (before.black | before.white).bit_count()
        if gained != (0 if action == 64 or forfeit else 1):
            return f"{gained} discs appeared with one move"
        return None
    if kind == "RiverState":
        from game.logic.river_rules import Outcome, Side
        from game.logic.river_state import Cross

        crossed = 1 if isinstance(action, Cross) else 0
        if after.crossings != before.crossings + crossed:
            return f"crossings went from {before.crossings} to {after.crossings}"
        for side in Side:
            counts = after.counts(side)
            if 0 < counts.priests < counts.devils and after.outcome() is not Outcome.LOST:
                return f"devils outnumber priests on the {side.value} bank, and it is not lost"
    return None


def status_problem(d: Any) -> str | None:
    """The status line agrees with the match (checked once the scene has settled)."""
    controller = d.controller
    match = getattr(controller, "match", None)
    if match is None:
        return None
    line = controller.status_line()
    fields = dict(part.split("=", 1) for part in line.split() if "=" in part)
    state = match.state
    kind = type(state).__name__
    if kind == "Position":
        black, white = state.disc_count()
        if (fields.get("black"), fields.get("white")) != (str(black), str(white)):
            return f"status line {line!r} but the match has {black}-{white}"
    if kind == "RiverState" and fields.get("status") != state.outcome().value:
        return f"status line {line!r} but the match is {state.outcome().value}"
    return None


# --- 6. games ---------------------------------------------------------------------------------


def grab_problem(before: Any, move: Any, after: Any, *, forfeit: bool = False) -> str | None:
    """MasterGrab's rules between two states (the move's ``kind``, ``target``, ``sources``;
    None for a forfeit): see the module docstring."""
    from game.logic.grab.rules import MOUNTAIN
    from game.logic.grab.state import MoveKind

    board = before.board
    players = board.players
    if after.turn != before.turn + 1 or after.to_move != (before.to_move + 1) % players:
        return f"turn {before.turn}->{after.turn}, to move {before.to_move}->{after.to_move}"
    touched: set[int] = set()
    if move is not None and move.kind is not MoveKind.NONE:
        touched = {move.target, *move.sources}
    for c, (owner, army) in enumerate(zip(after.owners, after.armies, strict=True)):
        if c in board.mountains:
            if owner != MOUNTAIN or army != 0:
                return f"mountain {c} now has owner {owner} and {army} armies"
            continue
        if not 0 <= owner < players:
            return f"country {c} is owned by {owner}, not a player of {players}"
        if not math.isfinite(army) or army < -1e-9:
            return f"country {c} has {army} armies"
        if c == getattr(move, "target", None) and move.kind is MoveKind.ATTACK:
            continue
        if owner != before.owners[c]:
            return f"country {c} changed owner though the move did not attack it"
        if c in touched:
            continue
        old, cap = before.armies[c], board.capacity[c]
        grown = old if forfeit or old >= cap else min(old + board.growth[c], float(cap))
        if abs(army - grown) > 1e-9 * max(1.0, cap):
            return f"country {c} went from {old} to {army} armies; growth gives {grown}"
    if not forfeit and before.to_move == players - 1:
        land = {o for o in after.owners if o != MOUNTAIN}
        should = len(land) == 1 or (board.human_playing and 0 not in after.owners)
        if after.finished != should:
            return f"finished={after.finished} with land owners {sorted(land)[:8]}"
        if after.finished and len(land) == 1 and after.winner != next(iter(land)):
            return f"winner {after.winner}, but {next(iter(land))} owns all the land"
    elif after.finished != before.finished:
        return "the game ended outside the end of a round"
    return None


def _games_worker(args: argparse.Namespace) -> Callable[[int], list[str]]:
    from game.registry import all_entries

    entry = {e.id: e for e in all_entries()}["grab"]
    watch = ErrorWatch()

    def run(index: int) -> list[str]:
        rng = random.Random(f"{args.seed}:games:{index}")
        seats, options = _game_options(rng)
        seed = rng.randrange(2**31)
        # Every fourth game may run to the game's own step cap; the others stop sooner.
        cap = None if index % 4 == 0 else SHORT_ROUNDS * len(seats)
        what = f"grab {','.join(seats)} seed {seed} cap {cap} {_options_text(options)}"
        try:
            problems = grab_game(entry, seats, options, seed, cap)
        except Exception as exc:
            problems = [f"raised {_describe(exc)}"]
        problems += [p for p in (watch.take(),) if p]
        return [f"{what}: {p}" for p in problems]

    return run


def _game_options(rng: random.Random) -> tuple[list[str], dict[str, Any]]:
    seats = rng.randint(2, 6)
    agents = [rng.choice(("basic", "basic", "simple")) for _ in range(seats)]
    if rng.random() < 0.4:  # the strategic robot thinks longest: one at most
        agents[rng.randrange(seats)] = "strategic"
    low = 5 * seats
    countries = round(math.exp(rng.uniform(math.log(max(10, low)), math.log(200))))

    def pick(lo: float, hi: float, whole: bool = False) -> float:
        r = rng.random()
        value = lo if r < 0.15 else hi if r < 0.3 else rng.uniform(lo, hi)
        return round(value) if whole else value

    options = {
        "countries": max(low, countries),
        "distribution": rng.choice(("random", "compact", "diagonal", "vertical", "horizontal")),
        "mountains_percent": pick(0, 50, True),
        "armies_in_biggest": pick(10.0, 200.0),
        "growth_factor": pick(0.01, 1.0),
        "protection_factor": pick(0.0, 10.0),
        "attack_factor": max(pick(0.0, 1.0), 0.001),
        "attack_benefit_factor": pick(0.1, 10.0),
    }
    return agents, options


def _options_text(options: dict[str, Any]) -> str:
    return " ".join(
        f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in options.items()
    )


def grab_game(
    entry: Any, seats: list[str], options: dict[str, Any], seed: int, cap: int | None
) -> list[str]:
    """Play one robots-only game through the tournament runner, then replay its record."""
    from game.logic.tournament import play_unit, work_units

    try:
        unit = work_units(entry, seats, 1, options=options, seed=seed, max_steps=cap)[0]
    except ValueError as exc:  # refused with a reason: not a misbehaviour
        if type(exc).__name__ in ("TournamentError", "GrabOptionsError", "OptionError"):
            return []
        raise
    record = play_unit(unit)
    game = entry.game(unit.options)
    state = game.tournament_start(random.Random(unit.seed))
    problems = []
    if record.steps != len(record.actions):
        problems.append(f"{record.steps} steps but {len(record.actions)} actions recorded")
    moves = 0  # agent moves; the cap counts these, not forced ones
    for i, text in enumerate(record.actions):
        if state.is_terminal():
            problems.append(f"step {i + 1}: a step after the end of the game")
            break
        forced = game.forced_action(state)
        moves += forced is None
        if text == "-":
            after, move = game.forfeit(state, None, "lost"), None
        else:
            try:
                move = state.parse_action(text)
                after = state.apply(move)
            except ValueError as exc:
                problems.append(f"step {i + 1} ({text}) does not replay: {_describe(exc)}")
                break
        problem = grab_problem(state, move, after, forfeit=move is None)
        if forced is not None and move != forced:
            problem = f"{text} played where {forced} was forced"
        if problem:
            problems.append(f"step {i + 1} ({_clip(text, 30)}): {problem}")
            break
        state = after
    else:
        if moves > unit.max_steps:
            problems.append(f"{moves} agent moves, past the cap of {unit.max_steps}")
        if record.capped == state.is_terminal():
            over = state.is_terminal()
            problems.append(f"capped={record.capped} but the replayed game over={over}")
        if record.capped and moves != unit.max_steps:
            problems.append(f"counted as capped after {moves} of {unit.max_steps} agent moves")
        if not record.capped and tuple(record.returns) != tuple(state.returns()):
            problems.append(f"returns {record.returns}, the replay gives {state.returns()}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
