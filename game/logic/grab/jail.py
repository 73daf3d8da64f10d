"""The robot jail: every process that runs robot code (a robot's own, and robot discovery) is
started by :class:`JailedProcess` and walled in by :func:`jailed_main` before any robot code
is imported.

On Linux the spawned process (the *keeper*) stays outside and forks the robot process into
new PID, network, mount and IPC namespaces (and a user namespace when not root), where it is
PID 1: when it dies the kernel kills everything it started, however it was started. (A middle
process makes the namespaces and exits, as ``unshare`` wants a single-threaded caller and the
keeper may hold numpy's threads; the keeper is a subreaper, so the robot process becomes its
child.) There it mounts a size-capped tmpfs as its temp folder (its cwd, HOME and TMPDIR) and
a /proc that shows only its own processes; as root it becomes a user of its own (a uid no
other robot has) keeping one capability, reading past file modes (robot files and the Python
installation may sit in root's own folders), which Landlock confines to what it may read; it
gets resource limits (processes, file size, open files, no core files), forgets the game's
environment, then no-new-privileges, Landlock (read only its Python installation, its own
folder and the system files of :mod:`game.logic.grab.jail_reads`; write only in its temp
folder and /dev/null; no TCP, no abstract unix sockets or signals outside; where Landlock is
refused it drops that capability too) and a seccomp filter
(:mod:`game.logic.grab.jail_linux`). Each layer the kernel refuses is named, with the
errno's words, in the process's first message; the game says once per process which
protections are missing (:func:`report`) and plays on. Elsewhere the robot runs as before: a
process of its own with a memory cap.

The game kills the robot process itself (its host pid comes in that first message), so the
whole namespace goes even when robot code cleared its parent-death signal; the keeper kills it
too when the game dies, then ends with the robot's exit status.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import select
import shutil
import signal
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Final, NoReturn

from game.logic.grab import jail_linux as linux
from game.logic.grab import jail_reads
from game.logic.grab.confine import (
    Captured,
    NotPlainData,
    confine,
    end_group,
    exit_words,
    receive,
)

#: Where the sandbox says which protections are missing.
LOG: Final = logging.getLogger("gamehall.grab")

#: The most processes (and threads) a robot may have at once.
PROCESSES: Final = 64
#: The size of a robot's temp folder (MiB) and the most files in it.
TEMP_MB: Final = 64
TEMP_FILES: Final = 4096
#: The largest file a robot may write (MiB).
FILE_MB: Final = 64
#: The most files a robot may hold open.
OPEN_FILES: Final = 256
#: A robot user's uid (and gid) as root: this plus its process's pid, so no two robots share
#: one (process limits and signals go by uid).
ROBOT_UID_BASE: Final = 2_000_000_000
#: The environment a robot keeps from the game's (besides its HOME and TMPDIR).
KEPT_ENVIRONMENT: Final = ("PATH", "LANG", "LANGUAGE", "TZ", "PYTHONPATH", "PYTHONHOME")

#: What each missing protection lets a robot do, in the game's warning.
CONSEQUENCES: Final = {
    "Linux sandbox": "robots can read and write files you can, use the network and leave "
    "processes running",
    "user namespace": "no namespaces without it",
    "PID namespace": "processes a robot starts can outlive the game",
    "network namespace": "robots are not cut off from the network",
    "mount namespace": "no private temp folder or /proc without it",
    "IPC namespace": "robots share System V IPC with the game",
    "private temp folder": "a robot's temp files are bounded only by the file size limit",
    "private /proc": "robots can see the game's processes",
    "own user": "robots run as root",
    "resource limits": "robots are not bounded in those",
    "no-new-privileges": "no Landlock or seccomp without it",
    "Landlock": "robots can read and write files you can",
    "Landlock network rules": "robots can use TCP where a network namespace is missing",
    "Landlock scopes": "robots can reach abstract unix sockets and signal processes outside "
    "where a namespace is missing",
    "seccomp": "robots can call ptrace, open network sockets, connect to unix sockets and "
    "the like where the kernel's other checks allow it",
}

_warned: set[str] = set()
_warned_lock = threading.Lock()


def report(missing: list[tuple[str, str]]) -> str | None:
    """Log, once per process, the protections in ``missing`` (``(layer, reason)`` pairs) not
    reported before, as one warning line; returns that line, or None when there was nothing
    new to say."""
    with _warned_lock:
        new = [(layer, reason) for layer, reason in missing if layer not in _warned]
        _warned.update(layer for layer, _ in new)
    if not new:
        return None
    parts = [f"no {layer} ({reason}): {CONSEQUENCES.get(layer, '')}" for layer, reason in new]
    line = "robot sandbox: " + "; ".join(parts)
    LOG.warning("%s", line)
    return line


class JailedProcess:
    """A process that runs robot code, as the game holds it: started by :meth:`start`, its
    jail's first message read by :meth:`wait_jailed`, ended by :meth:`stop` (which also
    removes its temp folder).

    ``body(connection, printed, *args)`` runs in the jailed process, after the jail is built
    (``printed`` is the :class:`~game.logic.grab.confine.Captured` of its printing); it must
    be a module-level function (it is pickled by name). ``robot_files`` are the robot files it
    loads: their folders are the only ones it may read besides its Python installation and
    the system's (:func:`~game.logic.grab.jail_reads.allowed`).
    """

    def __init__(
        self,
        name: str,
        body: Callable[..., None],
        args: tuple[Any, ...],
        memory_mb: int,
        robot_files: tuple[str, ...] = (),
    ):
        self.name = name
        self.body = body
        self.args = args
        self.memory_mb = memory_mb
        self.robot_files = robot_files
        #: The layers its jail lacks, as ``(layer, reason)`` (known after :meth:`wait_jailed`).
        self.missing: list[tuple[str, str]] = []
        #: The robot process's pid as this process sees it (None until :meth:`wait_jailed`).
        self.robot_pid: int | None = None
        self.connection: Connection | None = None
        self.folder: str | None = None
        self._process: Any = None
        self._pidfd = -1
        self._remove_folder: weakref.finalize[..., Any] | None = None

    def start(self) -> Connection:
        """Start the keeper (the jail is built in it); the connection to the robot process."""
        self.folder = tempfile.mkdtemp(prefix="gamehall-robot-")
        # Removed by stop(), or when this object goes or the game exits without stop().
        self._remove_folder = weakref.finalize(self, shutil.rmtree, self.folder, True)
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._process = context.Process(
            target=jailed_main,
            args=(
                child,
                self.folder,
                self.memory_mb,
                self.body,
                self.args,
                jail_reads.robot_folders(self.robot_files),
            ),
            name=self.name,
            daemon=True,
        )
        self._process.start()
        child.close()
        self.connection = parent
        return parent

    def wait_jailed(self, seconds: float) -> str | None:
        """Read the jail's first message (within ``seconds``) and report its missing layers;
        the reason when it did not come."""
        connection = self.connection
        assert connection is not None
        try:
            if not connection.poll(seconds):
                return f"it did not start: its process took more than {seconds:g} s"
            message = receive(connection)
        except (OSError, EOFError):
            return f"its process ended while starting ({self.exit_words()})"
        except NotPlainData as error:
            return f"it did not start: {error}"
        if (
            isinstance(message, tuple)
            and len(message) == 3
            and message[0] == "error"
            and type(message[1]) is str
        ):
            return f"it did not start: {message[1]}"
        if not (
            isinstance(message, tuple)
            and len(message) == 4
            and message[0] == "jailed"
            and type(message[1]) is int
            and type(message[2]) is str
        ):
            return "it did not start: its process sent a message of the wrong shape"
        self.robot_pid = message[1]
        self.missing = [
            (layer, reason)
            for layer, _, reason in (line.partition(": ") for line in message[2].splitlines())
        ]
        self._hold(message[1])
        report(self.missing)
        return None

    @property
    def keeper_pid(self) -> int | None:
        """The pid of the keeper (the process :meth:`start` started), or None."""
        return None if self._process is None else int(self._process.pid)

    @property
    def alive(self) -> bool:
        """Whether the keeper (and so, as far as the game knows, the robot) still runs."""
        return self._process is not None and bool(self._process.is_alive())

    def exit_words(self, wait_s: float = 1.0) -> str:
        """How the robot process ended, in words (the keeper ends with its status)."""
        process = self._process
        if process is None:
            return "no process"
        process.join(wait_s)
        return exit_words(process.exitcode)

    def stop(self, politely: bool = False) -> None:
        """End the robot process and everything it started, then the keeper; ``politely``
        first asks the robot loop to stop (a second at most). Removes the temp folder."""
        process, connection = self._process, self.connection
        self._process = self.connection = None
        if connection is not None:
            if politely and process is not None and process.is_alive():
                with contextlib.suppress(OSError):
                    connection.send(("stop",))
                process.join(1.0)
            connection.close()
        self._kill_robot()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(5.0)
            process.close()
        if self._remove_folder is not None:
            self._remove_folder()
            self.folder = self._remove_folder = None

    def _hold(self, pid: int) -> None:
        """Keep a pidfd on the robot process, if it is the keeper's (or the keeper itself)."""
        process = self._process
        if process is None or not hasattr(os, "pidfd_open"):
            return
        if pid != process.pid and linux.host_parent(pid) != process.pid:
            return  # not the keeper's child: never signal a stranger
        with contextlib.suppress(OSError):
            self._pidfd = os.pidfd_open(pid)

    def _kill_robot(self) -> None:
        """SIGKILL the robot process (in a PID namespace: everything in it) and wait for it;
        outside one, its process group too."""
        fd, self._pidfd = self._pidfd, -1
        if fd >= 0:
            try:
                with contextlib.suppress(OSError):
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
                select.select([fd], [], [], 5.0)
            finally:
                os.close(fd)
        if any(layer in ("PID namespace", "Linux sandbox") for layer, _ in self.missing):
            end_group(self.robot_pid)


# --- In the jailed process -------------------------------------------------------------------


def jailed_main(
    connection: Connection,
    folder: str,
    memory_mb: int,
    body: Callable[..., None],
    args: tuple[Any, ...],
    robot_folders: list[str],
) -> None:  # pragma: no cover - runs in the keeper and the robot process
    """The keeper's target: build the jail (:func:`enter`; the robot may read
    ``robot_folders``), then run ``body`` in the robot process and end it with exit code 0 (1
    if ``body`` raised). A jail that cannot be built (a failed fork, say) is said as
    ``("error", reason, "")`` and the process ends."""
    try:
        printed = enter(connection, folder, memory_mb, robot_folders)
    except BaseException as error:
        with contextlib.suppress(BaseException):
            words = " ".join(str(error).split())
            reason = f"its sandbox could not be built: {type(error).__name__}: {words}"
            connection.send(("error", reason, ""))
        os._exit(1)
    code = 0
    try:
        body(connection, printed, *args)
    except BaseException:
        code = 1
    os._exit(code)


def enter(
    connection: Connection, folder: str, memory_mb: int, robot_folders: list[str]
) -> Captured:
    """Build the jail around the robot process (see the module docstring; it may read
    ``robot_folders``) and send its first message, ``("jailed", robot pid, missing layers,
    printed)``; returns, in the robot process only, what
    :func:`~game.logic.grab.confine.confine` returns."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the game's business
    missing: list[tuple[str, str]] = []
    if sys.platform.startswith("linux") and hasattr(os, "fork"):
        # Loaded now: in a user namespace the Python installation may be out of reach.
        import resource  # noqa: F401

        linux.libc()
        pid, made, missing = _split(connection)
        missing += layers(connection, folder, pid, made, robot_folders)
    else:
        pid = os.getpid()
        missing.append(("Linux sandbox", f"on {sys.platform}"))
    printed = confine(memory_mb)
    text = "\n".join(f"{layer}: {reason}" for layer, reason in missing)
    connection.send(("jailed", pid, text, printed.take()))
    return printed


def layers(
    connection: Connection, folder: str, pid: int, made: set[int], robot_folders: list[str]
) -> list[tuple[str, str]]:
    """Put every layer but the namespaces on this process, the robot process whose pid the
    game sees as ``pid``, in the namespaces ``made`` (``CLONE_NEW*`` flags), reading only
    ``robot_folders`` besides its Python installation and the system's; the ones refused, as
    ``(layer, reason)``."""
    missing: list[tuple[str, str]] = []
    root = os.geteuid() == 0
    uid, gid = (ROBOT_UID_BASE + pid, ROBOT_UID_BASE + pid) if root else (os.getuid(), os.getgid())
    temp = proc = False
    if linux.CLONE_NEWNS in made:
        try:
            # First, or a mount made here could spread to the game's namespace.
            linux.private_mounts()
        except OSError as error:
            missing.append(("private temp folder", f"private mounts: {linux.errno_words(error)}"))
            missing.append(("private /proc", f"private mounts: {linux.errno_words(error)}"))
        else:
            try:
                linux.mount_temp(folder, uid, gid, TEMP_MB, TEMP_FILES)
                temp = True
            except OSError as error:
                missing.append(("private temp folder", linux.errno_words(error)))
            if linux.CLONE_NEWPID not in made:
                missing.append(("private /proc", "no PID namespace"))
            else:
                try:
                    linux.mount_proc()
                    proc = True
                except OSError as error:
                    missing.append(("private /proc", linux.errno_words(error)))
    else:
        missing.append(("private temp folder", "no mount namespace"))
        missing.append(("private /proc", "no mount namespace"))
    if root:
        try:
            if not temp:
                os.chown(folder, uid, gid)
            linux.become_user(uid, gid, 1 << linux.CAP_DAC_READ_SEARCH)
        except OSError as error:
            missing.append(("own user", linux.errno_words(error)))
    elif linux.CLONE_NEWUSER in made:
        # The user namespace gave it every capability inside; it needs none.
        with contextlib.suppress(OSError):
            linux.set_capabilities(0)
    os.chdir(folder)
    # Before the environment goes: the folders it names are never read whole.
    read = jail_reads.allowed(robot_folders, jail_reads.homes(os.environ), proc)
    keep = {key: value for key, value in os.environ.items() if _kept(key)}
    keep.update(HOME=folder, TMPDIR=folder, TMP=folder, TEMP=folder)
    linux.forget_environment(keep)
    tempfile.tempdir = None
    missing += file_and_process_limits()
    _close_other_files(connection.fileno())
    missing += walls(folder, read)
    return missing


def file_and_process_limits() -> list[tuple[str, str]]:
    """The robot's resource limits (:data:`PROCESSES`, :data:`FILE_MB`, :data:`OPEN_FILES`,
    no core files); a too-big write fails with EFBIG. The refused ones as a layer."""
    linux.ignore_file_size_signal()
    refused = linux.set_limits(
        [
            ("RLIMIT_NPROC", PROCESSES),
            ("RLIMIT_FSIZE", FILE_MB * 1024 * 1024),
            ("RLIMIT_NOFILE", OPEN_FILES),
            ("RLIMIT_CORE", 0),
        ]
    )
    return [("resource limits", ", ".join(refused))] if refused else []


def walls(folder: str, read: list[str]) -> list[tuple[str, str]]:
    """No-new-privileges, Landlock (read and run only beneath ``read``, write only beneath
    ``folder`` and to /dev/null) and the seccomp filter on this process; the refused ones, as
    ``(layer, reason)``. Without Landlock, a robot user (as root) loses the capability to read
    past file modes: it then reads what any user may."""
    missing: list[tuple[str, str]] = []
    try:
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
    except OSError as error:
        missing.append(("no-new-privileges", linux.errno_words(error)))
    try:
        abi = linux.landlock(read, [folder], [os.devnull])
    except OSError as error:
        missing.append(("Landlock", linux.errno_words(error)))
        if os.geteuid() != 0:
            with contextlib.suppress(OSError):
                linux.set_capabilities(0)
    else:
        if abi < 4:
            missing.append(("Landlock network rules", f"Landlock ABI {abi}"))
        if abi < 6:
            missing.append(("Landlock scopes", f"Landlock ABI {abi}"))
    try:
        linux.seccomp()
    except KeyError as error:
        missing.append(("seccomp", f"no filter for the {error.args[0]} processor"))
    except OSError as error:
        missing.append(("seccomp", linux.errno_words(error)))
    return missing


# --- Helpers ---------------------------------------------------------------------------------


_NAMESPACES: Final = (
    (linux.CLONE_NEWPID, "PID namespace"),
    (linux.CLONE_NEWNET, "network namespace"),
    (linux.CLONE_NEWNS, "mount namespace"),
    (linux.CLONE_NEWIPC, "IPC namespace"),
)


def _split(connection: Connection) -> tuple[int, set[int], list[tuple[str, str]]]:
    """Fork the robot process (see the module docstring); returns, in it only, its pid as the
    game sees it, the namespaces made and the ones refused. The keeper never returns."""
    with contextlib.suppress(OSError):
        # Orphans come to the keeper, so the robot (the middle process's child) becomes its own.
        linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)
    report_r, report_w = os.pipe()
    go_r, go_w = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            return _middle(report_r, report_w, go_r, go_w)
        except BaseException:
            os._exit(1)
    os.close(report_w)
    os.close(go_r)
    said = b""
    while chunk := os.read(report_r, 32):
        said += chunk
    os.close(report_r)
    robot = middle
    if said:
        robot = int(said)
        os.waitpid(middle, 0)  # the robot, its child, is ours now (we are a subreaper)
    os.write(go_w, f"{robot}\n".encode())
    connection.close()
    _keep(robot)


def _middle(
    report_r: int, report_w: int, go_r: int, go_w: int
) -> tuple[int, set[int], list[tuple[str, str]]]:
    """The keeper's child: make the namespaces, then fork the robot process into them and
    say its pid on ``report_w`` (or, without a PID namespace, be the robot process itself);
    returns in the robot process once the keeper says its pid on ``go_r``."""
    os.close(report_r)
    os.close(go_w)
    made, missing = _unshare()
    robot = 0
    if linux.CLONE_NEWPID in made:
        try:
            robot = os.fork()
        except OSError as error:
            made.discard(linux.CLONE_NEWPID)
            missing.append(("PID namespace", f"fork: {linux.errno_words(error)}"))
        if robot > 0:
            os.write(report_w, str(robot).encode())
            os._exit(0)
    os.close(report_w)
    seen = b""
    while not seen.endswith(b"\n"):
        chunk = os.read(go_r, 32)
        if not chunk:
            os._exit(1)  # the keeper died
        seen += chunk
    with contextlib.suppress(OSError):
        linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)
    if select.select([go_r], [], [], 0)[0]:
        os._exit(1)  # the keeper died before the signal was set
    os.close(go_r)
    return int(seen), made, missing


def _unshare() -> tuple[set[int], list[tuple[str, str]]]:
    """New namespaces for this process (its children for the PID one), one at a time, a user
    namespace first when not root; the flags made and the refusals."""
    made: set[int] = set()
    missing: list[tuple[str, str]] = []
    if os.geteuid() != 0:
        uid, gid = os.getuid(), os.getgid()
        try:
            linux.unshare(linux.CLONE_NEWUSER)
            made.add(linux.CLONE_NEWUSER)  # its capabilities are dropped later, mapped or not
            linux.map_own_ids(uid, gid)
        except OSError as error:
            missing.append(("user namespace", linux.errno_words(error)))
    for flag, layer in _NAMESPACES:
        try:
            linux.unshare(flag)
            made.add(flag)
        except OSError as error:
            missing.append((layer, linux.errno_words(error)))
    return made, missing


def _keep(robot: int) -> NoReturn:  # pragma: no cover - the keeper's last act
    """Wait for the robot process, killing it first if the game dies or this keeper is told to
    end (multiprocessing terminates daemonic children at exit), then end with its status: the
    same exit code, or killed by the same signal."""
    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    try:
        pidfd = os.pidfd_open(robot)
    except (AttributeError, OSError):
        pidfd = -1

    def kill_robot(*_: object) -> None:
        with contextlib.suppress(OSError):
            if pidfd >= 0:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            else:
                os.kill(robot, signal.SIGKILL)

    for ending in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(ending, kill_robot)
    if (
        pidfd >= 0
        and sentinel is not None
        and pidfd not in select.select([pidfd, sentinel], [], [])[0]
    ):
        kill_robot()
    try:
        _, status = os.waitpid(robot, 0)
    except ChildProcessError:
        os._exit(1)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))


def _kept(key: str) -> bool:
    return key in KEPT_ENVIRONMENT or key.startswith("LC_")


def _close_other_files(keep: int) -> None:
    """Close every file descriptor but 0, 1, 2 and ``keep`` (the keeper's pipes, the
    multiprocessing resource tracker's, anything else inherited)."""
    top = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 65536
    os.closerange(3, keep)
    os.closerange(keep + 1, max(top, keep + 2))


__all__ = [
    "CONSEQUENCES",
    "FILE_MB",
    "OPEN_FILES",
    "PROCESSES",
    "TEMP_FILES",
    "TEMP_MB",
    "JailedProcess",
    "enter",
    "jailed_main",
    "layers",
    "report",
    "walls",
]
