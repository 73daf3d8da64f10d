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
other robot has) with no capability, root's folders on the way to what it may read mounted
over so that it reaches only that (:func:`~game.logic.workers.jail_reads.make_reachable`; it
keeps the capability to read past file modes only for its own files closed to others, or
when those mounts fail); it gets resource limits (processes, file size, open files, no core
files), forgets the game's environment, then no-new-privileges, Landlock (read only its
Python installation, its own folder and the system files of
:mod:`game.logic.workers.jail_reads`; write only in its temp folder and /dev/null; no TCP, no
abstract unix sockets or signals outside; where Landlock is refused a robot user drops any
capability) and a seccomp filter (:mod:`game.logic.workers.jail_linux`). Each layer the kernel
refuses is named, with the errno's words, in the process's first message; the game says once
per process which protections are missing (:func:`report`) and plays on. Elsewhere the robot
runs as before: a process of its own with a memory cap.

The game kills the robot process itself (its host pid comes in that first message), so the
whole namespace goes even when robot code cleared its parent-death signal; the keeper kills it
too when the game dies, then ends with the robot's exit status.
"""

from __future__ import annotations

import contextlib
import errno
import logging
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
from typing import Any, Final

from game.logic.workers import jail_fork, jail_reads
from game.logic.workers import jail_linux as linux
from game.logic.workers.confine import Captured, confine, end_group
from game.logic.workers.process import PLAIN_BYTES, NotPlainData, Worker, WorkerLost

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
    "folder mounts": "robots (as root) read past file modes within what they may read",
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
    (``printed`` is the :class:`~game.logic.workers.confine.Captured` of its printing); it must
    be a module-level function (it is pickled by name). ``robot_files`` are the robot files it
    loads: their folders are the only ones it may read besides its Python installation and
    the system's (:func:`~game.logic.workers.jail_reads.allowed`).
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
        #: The keeper, as the game holds it (None before :meth:`start` and after :meth:`stop`).
        self.worker: Worker | None = None
        self.folder: str | None = None
        self._pidfd = -1
        self._remove_folder: weakref.finalize[..., Any] | None = None

    def start(self) -> Worker:
        """Start the keeper (the jail is built in it); the worker whose pipe reaches the robot
        process (it reads plain data only, at most :data:`~.process.PLAIN_BYTES` a message)."""
        self.folder = tempfile.mkdtemp(prefix="gamehall-robot-")
        # Removed by stop(), or when this object goes or the game exits without stop().
        self._remove_folder = weakref.finalize(self, shutil.rmtree, self.folder, True)
        self.worker = Worker(
            self.name,
            jailed_main,
            (self.folder, self.memory_mb, self.body, self.args, self.robot_files),
            what="its process",
            limit=PLAIN_BYTES,
            plain=True,
        )
        return self.worker

    def wait_jailed(self, seconds: float) -> str | None:
        """Read the jail's first message (within ``seconds``) and report its missing layers;
        the reason when it did not come."""
        worker = self.worker
        assert worker is not None
        try:
            if not worker.wait(seconds):
                return f"it did not start: its process took more than {seconds:g} s"
            message = worker.receive()
        except WorkerLost:
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
        return None if self.worker is None else self.worker.pid

    @property
    def alive(self) -> bool:
        """Whether the keeper (and so, as far as the game knows, the robot) still runs."""
        return self.worker is not None and self.worker.alive

    def exit_words(self, wait_s: float = 1.0) -> str:
        """How the robot process ended, in words (the keeper ends with its status)."""
        return "no process" if self.worker is None else self.worker.exit_words(wait_s)

    def stop(self, politely: bool = False) -> None:
        """End the robot process and everything it started, then the keeper; ``politely``
        first asks the robot loop to stop (a second at most). Removes the temp folder."""
        worker, self.worker = self.worker, None
        if worker is not None and politely and worker.alive:
            with contextlib.suppress(WorkerLost):
                worker.send(("stop",))
            worker.process.join(1.0)
        self._kill_robot()
        if worker is not None:
            worker.end()

    def _hold(self, pid: int) -> None:
        """Keep a pidfd on the robot process, if it is the keeper's (or the keeper itself)."""
        keeper = self.keeper_pid
        if keeper is None or not hasattr(os, "pidfd_open"):
            return
        if pid != keeper and linux.host_parent(pid) != keeper:
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
    robot_files: tuple[str, ...],
) -> None:  # pragma: no cover - runs in the keeper and the robot process
    """The keeper's target: build the jail (:func:`enter`; the robot may read the folders of
    ``robot_files``), then run ``body`` in the robot process and end it with exit code 0 (1
    if ``body`` raised). A jail that cannot be built (a failed fork, say) is said as
    ``("error", reason, "")`` and the process ends."""
    try:
        printed = enter(connection, folder, memory_mb, robot_files)
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
    connection: Connection, folder: str, memory_mb: int, robot_files: tuple[str, ...]
) -> Captured:
    """Build the jail around the robot process (see the module docstring; it may read the
    folders of ``robot_files``) and send its first message, ``("jailed", robot pid, missing layers,
    printed)``; returns, in the robot process only, what
    :func:`~game.logic.workers.confine.confine` returns."""
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the game's business
    missing: list[tuple[str, str]] = []
    if sys.platform.startswith("linux") and hasattr(os, "fork"):
        # Loaded now: in a user namespace the Python installation may be out of reach.
        import resource  # noqa: F401

        linux.libc()
        pid, made, missing = jail_fork.split(connection)
        missing += layers(connection, folder, pid, made, robot_files)
    else:
        pid = os.getpid()
        missing.append(("Linux sandbox", f"on {sys.platform}"))
    printed = confine(memory_mb)
    text = "\n".join(f"{layer}: {reason}" for layer, reason in missing)
    connection.send(("jailed", pid, text, printed.take()))
    return printed


def layers(
    connection: Connection, folder: str, pid: int, made: set[int], robot_files: tuple[str, ...]
) -> list[tuple[str, str]]:
    """Put every layer but the namespaces on this process, the robot process whose pid the
    game sees as ``pid``, in the namespaces ``made`` (``CLONE_NEW*`` flags), reading only the
    folders of ``robot_files`` besides its Python installation and the system's; the ones
    refused, as ``(layer, reason)``."""
    missing: list[tuple[str, str]] = []
    root = os.geteuid() == 0
    uid, gid = (ROBOT_UID_BASE + pid, ROBOT_UID_BASE + pid) if root else (os.getuid(), os.getgid())
    private = temp = proc = False
    if linux.CLONE_NEWNS in made:
        try:
            # First, or a mount made here could spread to the game's namespace.
            linux.private_mounts()
            private = True
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
    # Before the environment goes: the folders it names are never read whole.
    robot = jail_reads.robot_folders(robot_files)
    read = jail_reads.allowed(robot, jail_reads.homes(os.environ), proc)
    if root:
        # Its own user may not pass root's folders: what it may read there is mounted where
        # it can. Failing that, or for its own files closed to others, it keeps the
        # capability to read past file modes (Landlock keeps it to ``read``).
        capabilities = 1 << linux.CAP_DAC_READ_SEARCH
        try:
            if not private:
                raise OSError(errno.EPERM, "no private mount namespace")
            jail_reads.make_reachable(read, folder)
            python = jail_reads.python_paths(jail_reads.homes(os.environ))
            if not jail_reads.closed_to_others([*robot, *python], robot_files):
                capabilities = 0
        except OSError as error:
            missing.append(("folder mounts", linux.errno_words(error)))
        try:
            if not temp:
                os.chown(folder, uid, gid)
            linux.become_user(uid, gid, capabilities)
        except OSError as error:
            missing.append(("own user", linux.errno_words(error)))
    elif linux.CLONE_NEWUSER in made:
        # The user namespace gave it every capability inside; it needs none.
        with contextlib.suppress(OSError):
            linux.set_capabilities(0)
    os.chdir(folder)
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
