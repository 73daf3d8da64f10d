"""How the robot jail (:mod:`game.logic.workers.jail`) forks the robot process into its
namespaces: the keeper (the process the game spawned) forks a middle process, which makes the
namespaces (``unshare`` wants a single-threaded caller, and the keeper may hold numpy's
threads) and forks the robot process into them, then exits; the keeper, a subreaper, adopts
the robot process and waits for it (:func:`split`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import select
import signal
from multiprocessing.connection import Connection
from typing import Final, NoReturn

from game.logic.workers import jail_linux as linux

_NAMESPACES: Final = (
    (linux.CLONE_NEWPID, "PID namespace"),
    (linux.CLONE_NEWNET, "network namespace"),
    (linux.CLONE_NEWNS, "mount namespace"),
    (linux.CLONE_NEWIPC, "IPC namespace"),
)


def split(connection: Connection) -> tuple[int, set[int], list[tuple[str, str]]]:
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


__all__ = ["split"]
