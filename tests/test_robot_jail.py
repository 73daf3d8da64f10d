"""Hostile robots against the robot jail (issue 25): robots that write outside their temp
folder, read the game's /proc entries and environment, write into the game's stdout, connect
to a local TCP port and an abstract unix socket, double-fork and ``setsid`` at import, in
their constructor and in ``plan``, fork-bomb, fill their temp folder, clear their
parent-death signal, ``kill(-1)`` and signal the game. One game of two such robots
(:func:`hostile`, shared by the tests) is played through :class:`RobotRegistry` and
:class:`Match`; each test checks one promise of the README's "What a robot can and cannot do",
and is skipped, naming the layer, only where the kernel refused the layer behind it.

The robots' processes are found on the host by a mark in their name (``comm``), looked for
after :meth:`Match.close` returns: the close waits for the robot process's end, and the
kernel has ended every process of its PID namespace by then, so nothing is waited for here.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from game.logic.contract import Limits
from game.logic.grab.discovery import RobotRegistry
from game.logic.grab.game import GrabGame, play_rounds
from game.logic.grab.options import GrabOptions
from game.logic.match import Match
from game.logic.workers import jail, jail_linux, jail_reads
from tests.waiting import HANG_S, wait_for_exit

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="the robot jail's layers are Linux's"),
]

#: Shared by both robot files: the deeds, each reported as one printed line.
DEEDS = r'''
import ctypes, errno, os, re, resource, signal, socket, sys
from game.logic.grab.robot import Robot
from game.logic.grab.robots.basic import BasicRobot

GAME, MARK, OUTSIDE, PORT, ABSTRACT, NAMED, SECRETS = (
    {game}, {mark!r}, {outside!r}, {port}, {abstract!r}, {named!r}, {secrets!r}
)
SECRET = re.compile(rb"ghsecret[0-9a-f]{{32}}")


def linger(tag, ready):
    """Take the name MARK + tag, say so on the pipe ``ready``, and wait for ever."""
    ctypes.CDLL(None).prctl(15, (MARK + tag).encode(), 0, 0, 0)  # PR_SET_NAME
    os.write(ready, b"!")
    while True:
        signal.pause()


def escape(tag):
    """Double fork and setsid: a grandchild that is nobody's child and leads its own session."""
    ready, told = os.pipe()
    first = os.fork()
    if first == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                linger(tag, told)
        finally:
            os._exit(0)
    os.waitpid(first, 0)
    os.read(ready, 1)
    os.close(ready)
    os.close(told)
    return "escaped"


def attempt(label, action):
    try:
        result = action()
    except BaseException as error:
        number = getattr(error, "errno", 0) or 0
        result = type(error).__name__ + " " + errno.errorcode.get(number, "")
    print(label + ": " + str(result))


def secrets_in(data):
    return "found " + b",".join(SECRET.findall(data)).decode() if SECRET.search(data) else "none"


def write_outside():
    with open(os.path.join(OUTSIDE, "written.txt"), "w") as f:
        f.write("a robot was here")
    return "wrote"


def read_file(path):
    with open(path, "rb") as f:
        return secrets_in(f.read())


def python_at_work():
    """What a robot may do: the standard library and numpy, its temp folder."""
    import collections, dataclasses, itertools, json, math, random, typing
    import numpy

    @dataclasses.dataclass
    class Note:
        values: typing.List[int]

    note = Note([random.Random(1).randrange(9) for _ in range(4)])
    text = json.dumps(collections.Counter(itertools.chain(note.values, [math.isqrt(16)])))
    path = os.path.join(os.environ["TMPDIR"], "note.json")
    with open(path, "w") as f:
        f.write(text)
    with open(path) as f:
        same = json.loads(f.read()) == json.loads(text)
    return "works" if same and numpy.arange(4).sum() == 6 else "differs"


def capabilities():
    with open("/proc/self/status") as f:
        return [line.split()[1] for line in f if line.startswith("CapEff:")][0]


def read_environ():
    with open(f"/proc/{{GAME}}/environ", "rb") as f:
        return secrets_in(f.read())


def read_memory():
    with open(f"/proc/{{GAME}}/maps") as maps, open(f"/proc/{{GAME}}/mem", "rb", 0) as mem:
        for line in maps:
            span, mode = line.split()[:2]
            low, high = (int(part, 16) for part in span.split("-"))
            if mode.startswith("rw") and high - low <= 1 << 26:
                try:
                    mem.seek(low)
                    found = secrets_in(mem.read(high - low))
                except OSError:
                    continue
                if found != "none":
                    return found
    return "read, none"


def own_environment():
    with open("/proc/self/environ", "rb") as f:
        block = f.read()
    return secrets_in(block + "\0".join(os.environ.values()).encode())


def write_stdout():
    fd = os.open(f"/proc/{{GAME}}/fd/1", os.O_WRONLY | os.O_APPEND)
    os.write(fd, ("winrates=stdio:1.00 " + MARK + "\n").encode())
    os.close(fd)
    return "wrote"


def connect_tcp():
    socket.create_connection(("127.0.0.1", PORT), timeout=10).close()
    return "connected"


def connect_unix(address):
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(10)
        s.connect(address)
    return "connected"


def lift(kind):
    resource.setrlimit(kind, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return "lifted"


def bomb():
    made, (ready, told) = 0, os.pipe()
    try:
        for _ in range(200):
            try:
                pid = os.fork()
            except OSError as error:
                return f"made {{made}}, then {{errno.errorcode[error.errno]}}"
            if pid == 0:
                linger("b", told)
            os.read(ready, 1)
            made += 1
        return f"made {{made}}, never refused"
    finally:
        os.close(ready)
        os.close(told)


def fill():
    folder, chunk, made = os.environ["TMPDIR"], b"x" * (1 << 20), 0
    try:
        while made < 100:
            with open(os.path.join(folder, f"fill-{{made}}"), "wb") as f:
                f.write(chunk)
            made += 1
    except OSError as error:
        return f"{{made}} MiB, then {{errno.errorcode[error.errno]}}"
    return f"{{made}} MiB, never refused"


class Made(Robot):
    def __init__(self):
        self.inner = BasicRobot()
        self.first = True
        {init}

    def plan(self, game):
        if self.first:
            self.first = False
            {plan}
        return self.inner.plan(game)
'''

HOSTILE_INIT = 'attempt("escape in init", lambda: escape("c"))'
HOSTILE_PLAN = """for label, action in (
                ("write outside", write_outside),
                ("python at work", python_at_work),
                ("capabilities", capabilities),
                *[("read " + name, lambda path=path: read_file(path)) for name, path in SECRETS],
                ("game environ", read_environ),
                ("game memory", read_memory),
                ("own environment", own_environment),
                ("game stdout", write_stdout),
                ("tcp", connect_tcp),
                ("abstract", lambda: connect_unix(ABSTRACT)),
                ("named socket", lambda: connect_unix(NAMED)),
                ("fill", fill),
                ("lift memory limit", lambda: lift(resource.RLIMIT_AS)),
                ("lift process limit", lambda: lift(resource.RLIMIT_NPROC)),
                ("escape in plan", lambda: escape("p")),
                ("bomb", bomb),
            ):
                attempt(label, action)"""
ROGUE_INIT = 'attempt("escape in init", lambda: escape("k"))'  # for its kill(-1) to hit
ROGUE_PLAN = """attempt("pdeathsig", lambda: ctypes.CDLL(None).prctl(1, 0, 0, 0, 0))
            if os.getpid() == 1:  # only inside its PID namespace: elsewhere it hits everything
                attempt("kill -1", lambda: os.kill(-1, signal.SIGKILL))
            attempt("signal the game", lambda: os.kill(GAME, signal.SIGUSR2))
            attempt("escape in plan", lambda: escape("r"))"""


@dataclass
class Outcome:
    """What one game of the hostile robots left behind."""

    printed: dict[str, list[str]]
    missing: dict[str, str]
    secret: str
    marked_after_discovery: list[str]
    marked_during: list[str]
    marked_after: list[str]
    stdout: str
    tcp_connected: bool
    abstract_connected: bool
    named_connected: bool
    signals: int
    outside: list[str]
    temp_left: list[str]
    moves: int

    def said(self, robot: str, label: str) -> str:
        """What ``robot`` printed for the deed ``label`` (after ``label: ``)."""
        for line in self.printed[robot]:
            if line.startswith(label + ": "):
                return line[len(label) + 2 :]
        raise AssertionError(f"{robot} printed nothing for {label!r}: {self.printed[robot]}")

    def needs(self, *layers: str) -> None:
        """Skip unless one of ``layers`` (each alone keeps the promise) was put in place."""
        self.needs_layers(self.missing, *layers)

    @staticmethod
    def needs_layers(missing: dict[str, str], *layers: str) -> None:
        """Skip unless one of ``layers`` is not in ``missing`` (layer: reason)."""
        if layers and all(layer in missing for layer in layers):
            refused = "; ".join(f"{layer}: {missing[layer]}" for layer in layers)
            pytest.skip(f"the kernel refused {refused}")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outcome]:
    token = secrets.token_hex(4)
    mark = f"gj{token}"
    secret = "ghsecret" + secrets.token_hex(16)
    root = tmp_path_factory.mktemp("jail")
    robots, game_temp = root / "robots", root / "temp"
    robots.mkdir()
    game_temp.mkdir()
    outside = Path(tempfile.mkdtemp(prefix="gh-jail-outside-"))
    outside.chmod(0o1777)  # anyone may write here: only the jail stops a robot
    # Files a robot must not read, each readable by anyone: one in the gamehall home folder
    # the robots folder sits in, one beside that folder, one in another temp folder.
    readable = {
        "settings": root / "settings.toml",
        "beside": root / "secret.txt",
        "elsewhere": outside / "secret.txt",
    }
    for path in readable.values():
        path.write_text(secret)
        path.chmod(0o644)
    if os.path.exists("/etc/shadow"):
        readable["shadow"] = Path("/etc/shadow")  # only root (or a capability) reads it
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    tcp.setblocking(False)
    abstract = f"\0gh-jail-{token}"
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(abstract)
    unix.listen()
    unix.setblocking(False)
    # A unix socket with a name anyone may connect to, as an SSH agent's is to its user.
    named = socket.socket(socket.AF_UNIX)
    named.bind(str(outside / "named.sock"))
    (outside / "named.sock").chmod(0o777)
    named.listen()
    named.setblocking(False)
    values = dict(
        game=os.getpid(),
        mark=mark,
        outside=str(outside),
        port=tcp.getsockname()[1],
        abstract=abstract,
        named=str(outside / "named.sock"),
        secrets=[(name, str(path)) for name, path in readable.items()],
    )
    (robots / "hostile.py").write_text(
        DEEDS.format(**values, init=HOSTILE_INIT, plan=HOSTILE_PLAN) + '\nescape("i")\n'
    )
    (robots / "rogue.py").write_text(DEEDS.format(**values, init=ROGUE_INIT, plan=ROGUE_PLAN))
    signals: list[int] = []
    old_handler = signal.signal(signal.SIGUSR2, lambda number, frame: signals.append(number))
    old_environ = dict(os.environ)
    old_tempdir = tempfile.tempdir
    os.environ["GH_JAIL_SECRET"] = secret
    os.environ["GAMEHALL_HOME"] = str(root)
    os.environ["TMPDIR"] = tempfile.tempdir = str(game_temp)
    stdout_path = root / "stdout"
    stdout_fd = os.open(stdout_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    saved_stdout = os.dup(1)
    os.dup2(stdout_fd, 1)  # what reaches this process's fd 1 during the game lands here
    try:
        registry = RobotRegistry(robots, entry_points=False, import_s=60.0, construct_s=60.0)
        marked_after_discovery = _marked(mark)
        game = GrabGame(
            GrabOptions(countries=20, robots=("hostile", "rogue"), human_playing=False),
            size=(240, 160),
        )
        agents = [registry.agent(key, budget_s=60.0) for key in ("hostile", "rogue")]
        match = Match(game, agents, seed=3, limits=Limits())
        try:
            play_rounds(match, 2)
            marked_during = _marked(mark)
            moves = len(match.record)
        finally:
            match.close()
        marked_after = _marked(mark)
        missing = {
            layer: reason
            for agent in agents
            for layer, reason in getattr(agent.runner, "missing", [])
        }
        outcome = Outcome(
            printed={agent.name: agent.printed for agent in agents},
            missing=missing,
            secret=secret,
            marked_after_discovery=marked_after_discovery,
            marked_during=marked_during,
            marked_after=marked_after,
            stdout=stdout_path.read_text(errors="replace"),
            tcp_connected=_accepts(tcp),
            abstract_connected=_accepts(unix),
            named_connected=_accepts(named),
            signals=len(signals),
            outside=sorted(
                p.name for p in outside.iterdir() if p.name not in ("named.sock", "secret.txt")
            ),
            temp_left=sorted(p.name for p in game_temp.iterdir()),
            moves=moves,
        )
    finally:
        os.dup2(saved_stdout, 1)
        os.close(saved_stdout)
        os.close(stdout_fd)
        os.environ.clear()
        os.environ.update(old_environ)
        tempfile.tempdir = old_tempdir
        signal.signal(signal.SIGUSR2, old_handler)
        for pid in _marked(mark, pids=True):  # anything that escaped a broken jail
            _kill(int(pid))
        tcp.close()
        unix.close()
        named.close()
        shutil.rmtree(outside, ignore_errors=True)
    yield outcome


def test_the_game_finishes(hostile: Outcome) -> None:
    assert hostile.moves >= 4  # two rounds of two robots
    assert hostile.temp_left == []  # each robot's temp folder went with it


def test_a_robot_cannot_write_outside_its_temp_folder(hostile: Outcome) -> None:
    hostile.needs("Landlock")
    assert hostile.outside == []
    assert hostile.said("hostile", "write outside").startswith("PermissionError")


def test_a_robot_reads_only_what_it_needs(hostile: Outcome) -> None:
    # Its Python installation, numpy and its temp folder are there ...
    assert hostile.said("hostile", "python at work") == "works"
    hostile.needs("Landlock")
    # ... the game's settings, a file beside its folder or in another, /etc/shadow are not.
    names = ["settings", "beside", "elsewhere"] + ["shadow"] * os.path.exists("/etc/shadow")
    for name in names:
        # Refused (Landlock), or out of sight (as root: beneath a folder mounted over).
        said = hostile.said("hostile", "read " + name)
        assert said.split()[0] in ("PermissionError", "FileNotFoundError"), (name, said)
    assert hostile.secret not in "\n".join(hostile.printed["hostile"])


def test_a_robot_run_by_root_keeps_no_capability(hostile: Outcome) -> None:
    if os.geteuid() != 0:
        assert hostile.said("hostile", "capabilities") == "0" * 16  # its user namespace's
        return
    hostile.needs("own user")
    hostile.needs("folder mounts")
    # Its Python installation sits in /root (0700) here; it still reads it, as above.
    assert hostile.said("hostile", "capabilities") == "0" * 16


def test_a_robot_cannot_read_the_games_environment_or_memory(hostile: Outcome) -> None:
    # The game's /proc entries are out of sight (private /proc), or out of reach (Landlock
    # keeps a robot from any process outside its domain; its own uid, as root, too).
    hostile.needs("private /proc", "Landlock", "own user")
    printed = "\n".join(hostile.printed["hostile"])
    assert hostile.secret not in printed
    assert hostile.said("hostile", "game environ").split()[0] in (
        "FileNotFoundError",
        "PermissionError",
    )
    assert hostile.said("hostile", "game memory").split()[0] in (
        "FileNotFoundError",
        "PermissionError",
    )
    # The robot process forgot the environment it inherited from the game.
    assert hostile.said("hostile", "own environment") == "none"


def test_a_robot_cannot_write_into_the_games_output(hostile: Outcome) -> None:
    hostile.needs("private /proc", "Landlock", "own user")
    assert "winrates=stdio" not in hostile.stdout
    assert hostile.said("hostile", "game stdout").split()[0] in (
        "FileNotFoundError",
        "PermissionError",
    )


def test_a_robot_has_no_network(hostile: Outcome) -> None:
    hostile.needs("network namespace", "Landlock network rules", "seccomp")
    assert not hostile.tcp_connected
    assert hostile.said("hostile", "tcp") != "connected"


def test_a_robot_cannot_reach_an_abstract_unix_socket(hostile: Outcome) -> None:
    hostile.needs("network namespace", "Landlock scopes")
    assert not hostile.abstract_connected
    assert hostile.said("hostile", "abstract") != "connected"


def test_a_robot_cannot_connect_to_a_named_unix_socket(hostile: Outcome) -> None:
    hostile.needs("seccomp")
    assert not hostile.named_connected
    assert hostile.said("hostile", "named socket").startswith("PermissionError")


def test_what_a_robot_starts_ends_with_it(hostile: Outcome) -> None:
    hostile.needs("PID namespace")
    # The discovery process's robot escaped at import; it is gone with its process.
    assert hostile.marked_after_discovery == []
    # While the robots played, their escaped grandchildren ran (so the test saw them) ...
    tags = {mark[-1] for mark in hostile.marked_during}
    assert {"i", "c", "p", "r", "b"} <= tags, hostile.marked_during
    assert hostile.said("hostile", "escape in plan") == "escaped"
    # ... and none outlived the game.
    assert hostile.marked_after == []


def test_a_fork_bomb_meets_the_process_limit(hostile: Outcome) -> None:
    hostile.needs("resource limits")
    said = hostile.said("hostile", "bomb")
    made = int(said.split()[1].rstrip(","))
    assert made < jail.PROCESSES and said.endswith("then EAGAIN"), said
    assert not [mark for mark in hostile.marked_after if mark.endswith("b")]


def test_a_robot_cannot_lift_its_limits(hostile: Outcome) -> None:
    assert hostile.said("hostile", "lift memory limit").startswith("ValueError")
    hostile.needs("resource limits")
    assert hostile.said("hostile", "lift process limit").startswith("ValueError")


def test_filling_the_temp_folder_stops_at_its_size(hostile: Outcome) -> None:
    hostile.needs("private temp folder")
    said = hostile.said("hostile", "fill")
    assert int(said.split()[0]) <= jail.TEMP_MB and said.endswith("then ENOSPC"), said
    assert hostile.temp_left == [] and hostile.outside == []


def test_a_robot_cannot_signal_the_game_or_keep_its_processes(hostile: Outcome) -> None:
    hostile.needs("PID namespace")
    assert hostile.said("rogue", "pdeathsig") == "0"  # it cleared its parent-death signal
    # Its kill(-1) hit what it had started (inside its namespace only) ...
    assert hostile.said("rogue", "kill -1") == "None"
    assert not [mark for mark in hostile.marked_during if mark.endswith("k")]
    assert hostile.said("rogue", "signal the game").split()[0] in (
        "ProcessLookupError",
        "PermissionError",
    )
    assert hostile.signals == 0
    assert not [mark for mark in hostile.marked_after if mark.endswith("r")]


def _stubborn(connection: Connection, printed: object, mark: str) -> None:  # pragma: no cover
    """A robot process (run by :class:`jail.JailedProcess`) that clears its parent-death
    signal, leaves a double-forked grandchild named ``mark``, says "ready" and never ends."""
    libc = ctypes.CDLL(None)
    libc.prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG 0
    ready, told = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            libc.prctl(15, mark.encode(), 0, 0, 0)  # PR_SET_NAME
            os.write(told, b"!")
            while True:
                signal.pause()
        os._exit(0)
    os.read(ready, 1)
    connection.send("ready")
    while True:
        signal.pause()


def test_a_robot_dies_with_its_keeper_when_the_game_exits(tmp_path: Path) -> None:
    mark = f"gk{secrets.token_hex(4)}"
    process = jail.JailedProcess("robot-stubborn", _stubborn, (mark,), 512)
    worker = process.start()
    try:
        assert process.wait_jailed(HANG_S) is None
        Outcome.needs_layers(dict(process.missing), "PID namespace")
        assert worker.wait(HANG_S) and worker.receive() == "ready"
        assert len(_marked(mark)) == 1
        keeper = process.keeper_pid
        assert keeper is not None
        # What multiprocessing does to its daemonic children when the game exits.
        os.kill(keeper, signal.SIGTERM)
        assert wait_for_exit(keeper)
        assert _marked(mark) == []
    finally:
        for pid in _marked(mark, pids=True):
            _kill(int(pid))
        process.stop()


def test_a_refused_layer_is_named_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse() -> int:
        raise OSError(errno.ENOSYS, "landlock_create_ruleset: Function not implemented")

    # Nothing may land on this process: no-new-privileges and seccomp are only pretended.
    monkeypatch.setattr(jail_linux, "prctl", lambda *values: None)
    monkeypatch.setattr(jail_linux, "seccomp", lambda machine=None: None)
    dropped: list[int] = []  # what a robot user (not root) would drop without Landlock
    monkeypatch.setattr(jail_linux, "set_capabilities", dropped.append)
    monkeypatch.setattr(jail_linux, "landlock_abi", refuse)
    missing = jail.walls(str(tmp_path), [])
    assert missing == [("Landlock", "ENOSYS: Function not implemented")]
    assert dropped == ([] if os.geteuid() == 0 else [0])
    monkeypatch.setattr(jail, "_warned", set())
    with caplog.at_level("WARNING", logger="gamehall.grab"):
        first = jail.report(missing)
        again = jail.report(missing)
    assert first == (
        "robot sandbox: no Landlock (ENOSYS: Function not implemented): "
        "robots can read and write files you can"
    )
    assert again is None
    assert [r.getMessage() for r in caplog.records] == [first]


@pytest.mark.skipif(os.geteuid() != 0, reason="a robot user exists only when root runs it")
def test_without_landlock_a_robot_user_keeps_no_capability(tmp_path: Path) -> None:
    def refuse() -> int:
        raise OSError(errno.EOPNOTSUPP, "landlock_create_ruleset: Operation not supported")

    ready, told = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child, ended by os._exit
        try:
            uid = jail.ROBOT_UID_BASE + os.getpid()
            jail_linux.become_user(uid, uid, 1 << jail_linux.CAP_DAC_READ_SEARCH)
            jail_linux.landlock_abi = refuse
            missing = jail.walls(str(tmp_path), [])
            with open("/proc/self/status") as f:
                caps = next(line.split()[1] for line in f if line.startswith("CapEff:"))
            os.write(told, f"{caps} {[layer for layer, _ in missing]}".encode())
        finally:
            os._exit(0)
    os.close(told)
    with os.fdopen(ready, "rb") as f:
        said = f.read().decode()
    os.waitpid(child, 0)
    assert said == "0000000000000000 ['Landlock']"


def test_the_python_installation_is_readable_but_not_a_folder_holding_a_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    packages = tmp_path / "packages"
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(packages), "", "/", "hook"])
    paths = jail_reads.python_paths([str(home)])
    assert str(packages) in paths and sys.base_prefix in paths
    assert str(tmp_path) not in paths and "/" not in paths and "hook" not in paths
    assert str(Path(jail.__file__).parents[2]) in paths  # the game's own package


def test_own_files_closed_to_others_are_named(tmp_path: Path) -> None:
    shut, open_ = tmp_path / "shut", tmp_path / "open"
    for folder, folder_mode, file_mode in ((shut, 0o700, 0o600), (open_, 0o755, 0o644)):
        folder.mkdir()
        (folder / "robot.py").write_text("")
        (folder / "robot.py").chmod(file_mode)
        folder.chmod(folder_mode)
    files = [str(shut / "robot.py"), str(open_ / "robot.py"), str(tmp_path / "gone.py")]
    assert jail_reads.closed_to_others([str(shut), str(open_)], files) == [
        str(shut),
        str(shut / "robot.py"),
    ]


# --- Helpers ---------------------------------------------------------------------------------


def _marked(mark: str, pids: bool = False) -> list[str]:
    """The names (or, with ``pids``, the pids) of the living processes (not zombies, which
    are dead and only wait for their parent to read their status) whose name starts with
    ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            name, state = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2]
            if name.startswith(mark) and state != "Z":
                found.append(entry.name if pids else name)
    return sorted(found)


def _accepts(listener: socket.socket) -> bool:
    """Whether a connection is waiting on ``listener`` (non-blocking)."""
    try:
        connection, _ = listener.accept()
    except BlockingIOError:
        return False
    connection.close()
    return True


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
