"""The hostile robots of the ``robots`` category (issue 25 items 1 and 2): robot files that
play no worse than passing but reach outside their seat, run in ``tournament grab`` (and some
in ``shot grab``). Their case numbers follow the other robot cases'.

Each robot tries one thing: write a file outside GAMEHALL_HOME, read the game's environment or
memory through ``/proc/<parent>``, use its own environment's copy of a secret the game was
given, open the game's stdout through ``/proc/<parent>/fd/1`` and write a status line into it,
connect to a TCP port the probe listens on, double-fork and ``setsid`` (at import, in
``__init__``, in ``plan``), fork 200 processes, leave 100 MB in the system temp folder, append
to ``$GAMEHALL_HOME/statistics.toml``. A robot that succeeds at reading says so by raising
``LEAK ...`` (which the game names on stderr).

Misbehaving: anything ``common_problems`` finds (the game must finish, and its stdout must be
closed by every process when it ends, so ``| cat`` ends), ``LEAK`` in the output, the file
written outside, the status line in stdout, a connection accepted, a process of the robot's
still running after the game ended, the temp file left in the system temp folder, a changed
statistics file.
"""

from __future__ import annotations

import contextlib
import os
import random
import shlex
import signal
import socket
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from probing.base import ROBOT_TIMEOUT_S, Place, Probe, Ran, Tally, clip, common_problems, execute

SECRET_NAME = "GAMEHALL_PROBE_SECRET"
FD_LINE = "winrates=stdio:1.00"
STATISTICS = "[games.river]\nplayed = 1\nwon = 1\nlost = 0\ndrawn = 0\n"
HEAD = """import os, sys, time
from game.logic.grab.robot import Robot
from game.logic.grab.state import NO_MOVE
OUTSIDE, HOME, PORT, MARK, SECRET = {outside!r}, {home!r}, {port!r}, {mark!r}, {secret!r}
DONE = []
"""
#: What each robot does (``once`` runs the body the first time only).
DEEDS = {
    "write_outside": 'open(os.path.join(OUTSIDE, "written-by-robot.txt"), "w").write("x")',
    "read_environ": (
        'data = open(f"/proc/{os.getppid()}/environ", "rb").read()\n'
        'if SECRET.encode() in data:\n    raise RuntimeError("LEAK: the game\'s environment")'
    ),
    "own_environ": (
        "if SECRET in os.environ.values():\n"
        "    raise RuntimeError(\"LEAK: the game's secret in the robot's environment\")"
    ),
    "read_memory": (
        "ppid = os.getppid()\n"
        "got = 0\n"
        'with open(f"/proc/{ppid}/maps") as maps, open(f"/proc/{ppid}/mem", "rb") as mem:\n'
        "    for line in maps:\n"
        "        span, perms = line.split()[:2]\n"
        '        if perms.startswith("rw"):\n'
        '            start = int(span.split("-")[0], 16)\n'
        "            try:\n"
        "                mem.seek(start)\n"
        "                got += len(mem.read(1 << 20))\n"
        "            except OSError:\n"
        "                continue\n"
        "            if got:\n"
        "                break\n"
        "if got:\n"
        '    raise RuntimeError(f"LEAK: {got} bytes of the game\'s memory")'
    ),
    "parent_fd": (
        f'with open(f"/proc/{{os.getppid()}}/fd/1", "w") as out:\n    out.write("\\n{FD_LINE}\\n")'
    ),
    "connect": (
        'import socket\nsocket.create_connection(("127.0.0.1", PORT), timeout=5).sendall(b"robot")'
    ),
    "setsid": (
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        '        os.execv("/bin/sleep", ["sleep", "300", MARK])\n'
        "    os._exit(0)\n"
        "else:\n"
        "    os.wait()"
    ),
    "fork_bomb": (
        "for _ in range(200):\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        '            os.execv("/bin/sleep", ["sleep", "120", MARK])\n'
        "    except OSError:\n"
        "        break"
    ),
    "fill_temp": (
        "import tempfile\n"
        'name = os.path.join(tempfile.gettempdir(), "gamehall-probe-fill-" + MARK)\n'
        'with open(name, "wb") as f:\n'
        "    for _ in range(100):\n"
        '        f.write(b"x" * (1 << 20))'
    ),
    "append_statistics": (
        'with open(os.path.join(HOME, "statistics.toml"), "a") as f:\n'
        '    f.write("\\n[games.hacked]\\nplayed = 1\\n")'
    ),
}


@dataclass(frozen=True)
class HostileCase:
    """A robot that does ``deed`` at ``where`` (``import``, ``init`` or ``plan``), run in
    each of ``runs`` (``tournament``, ``pick``: a shot with it)."""

    deed: str
    where: str = "plan"
    runs: tuple[str, ...] = ("tournament",)

    @property
    def stem(self) -> str:
        return f"hostile_{self.where}_{self.deed}"


def hostile_cases() -> list[HostileCase]:
    both = ("tournament", "pick")
    return [
        HostileCase("write_outside"),
        HostileCase("read_environ"),
        HostileCase("own_environ"),
        HostileCase("read_memory"),
        HostileCase("parent_fd", runs=both),
        HostileCase("connect"),
        HostileCase("setsid", "import"),
        HostileCase("setsid", "init"),
        HostileCase("setsid", "plan", runs=both),
        HostileCase("fork_bomb"),
        HostileCase("fill_temp"),
        HostileCase("append_statistics"),
    ]


def source(case: HostileCase, place: Place, port: int, mark: str, secret: str) -> str:
    """The robot file of ``case``: the deed runs once, then it passes."""
    head = HEAD.format(
        outside=str(place.home.parent), home=str(place.home), port=port, mark=mark,
        secret=secret,
    )  # fmt: skip
    once = "if not DONE:\n    DONE.append(1)\n" + _indent(DEEDS[case.deed], 4)
    top = once if case.where == "import" else ""
    init = _indent(once, 8) if case.where == "init" else "        pass"
    plan = _indent(once, 8) if case.where == "plan" else ""
    return (
        f"{head}\n{top}\n\nclass Hostile(Robot):\n"
        '    name = "Hostile"\n    description = "reaches outside its seat on purpose"\n\n'
        f"    def __init__(self):\n{init}\n\n"
        f"    def plan(self, game):\n{plan}\n        return NO_MOVE\n"
    )


def _indent(code: str, n: int) -> str:
    return "\n".join(" " * n + line for line in code.splitlines())


def run_hostile(probe: Probe, offset: int, tally: Tally) -> None:
    """Add the hostile cases, numbered from ``offset``, to ``tally``."""
    cases = hostile_cases()
    indices = probe.pick(len(cases), 4, offset=offset)
    found = probe.cases(lambda i: _case(probe, cases[i], i), indices)
    tally.tried += found.tried
    tally.misbehaved += found.misbehaved
    tally.lines += [_renumber(line, offset) for line in found.lines]


def _renumber(line: str, offset: int) -> str:
    number, _, rest = line.partition(" ")
    return f"#{int(number[1:]) + offset} {rest}"


def _case(probe: Probe, case: HostileCase, index: int) -> list[str]:
    problems: list[str] = []
    for run in case.runs:
        place = probe.place()
        listener = Listener()
        rng = random.Random(f"{probe.seed}:hostile:{index}:{run}")
        mark = f"0.{rng.randrange(10**12):012d}"
        secret = f"s{rng.randrange(10**18):018d}"
        try:
            (place.home / "statistics.toml").write_text(STATISTICS)
            robots = place.home / "robots"
            robots.mkdir()
            text = source(case, place, listener.port, mark, secret)
            (robots / f"{case.stem}.py").write_text(text)
            if run == "tournament":
                argv = [
                    "tournament", "grab", "--agents", f"{case.stem},basic", "--games", "1",
                    "--countries", "20", "--max-steps", "10", "--jobs", "1",
                ]  # fmt: skip
            else:
                argv = [
                    "shot", "grab", "--out", "out.png", "--size", "160x120", "--countries",
                    "20", "--seed", "5", "--robots", f"{case.stem},basic",
                    "--no-human-playing", "--do", "pass,pass,pass,pass",
                ]  # fmt: skip
            env = place.env(probe.base_env)
            env[SECRET_NAME] = secret
            ran = execute([*probe.command, *argv], env=env, cwd=place.cwd,
                          timeout=ROBOT_TIMEOUT_S)  # fmt: skip
            found = hostile_problems(ran, place, listener, mark)
            what = f"robot {case.stem}: {clip(shlex.join(argv[:4]), 60)}"
            problems += [f"{what}: {p}" for p in found]
        finally:
            listener.close()
            _kill_marked(mark)
            probe.done(place)
    return problems


def hostile_problems(ran: Ran, place: Place, listener: Listener, mark: str) -> list[str]:
    problems = common_problems(ran, ROBOT_TIMEOUT_S)
    leaks = [line for line in (ran.out + ran.err).splitlines() if "LEAK" in line]
    if leaks:
        problems.append(f"read what it must not: {clip(leaks[0], 160)}")
    if (place.home.parent / "written-by-robot.txt").exists():
        problems.append("wrote a file outside GAMEHALL_HOME")
    if FD_LINE in ran.out:
        problems.append(f"wrote {FD_LINE!r} into the game's stdout")
    if listener.accepted:
        problems.append(f"connected to a local TCP port ({listener.accepted} connections)")
    left = _marked(mark)
    if left:
        problems.append(f"{len(left)} of its processes still running after the game ended")
    fill = Path(tempfile.gettempdir()) / f"gamehall-probe-fill-{mark}"
    if fill.exists():
        problems.append(f"left {fill.stat().st_size >> 20} MB in the system temp folder")
        fill.unlink()
    stats = place.home / "statistics.toml"
    if stats.is_file() and "hacked" in stats.read_text("utf-8", "replace"):
        problems.append("appended to statistics.toml")
    return problems


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port: int = self.sock.getsockname()[1]
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2.0)
        self.sock.close()


def _marked(mark: str) -> list[int]:
    """The processes whose command line holds ``mark`` (the robot's ``sleep`` children)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if mark.encode() in (entry / "cmdline").read_bytes().split(b"\0"):
                pids.append(int(entry.name))
    return pids


def _kill_marked(mark: str) -> None:
    for pid in _marked(mark):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
