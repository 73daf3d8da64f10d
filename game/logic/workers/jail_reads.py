"""What a jailed robot may read on Linux (Landlock's read rules, :mod:`game.logic.workers.jail`):
its Python installation, its own folder, the system files a Python process and its C libraries
need, and its private temp folder and /proc; nothing else. Your home folder, the game's
settings, statistics and saved games, other folders beside the robot's, and (as root)
``/etc/shadow`` or ``/root`` are not on the list.

As root the robot process runs as a user of its own, for whom some of these paths sit in
folders it may not pass (``/root``, a 0700 temp folder): :func:`make_reachable` mounts, in the
robot's own mount namespace, a small tmpfs over each such folder and puts back beneath it, by
bind mounts, only the paths the robot may read (read-only) and its temp folder. The rest of
that folder is out of sight, and the robot needs no capability to read past file modes unless
its own files are closed to other users (:func:`closed_to_others`).

>>> robot_folders(["/srv/robots/grabby.py"])[0]
'/srv/robots'
>>> holds_a_home("/home", ["/home/ann"]), holds_a_home("/home/ann/venv", ["/home/ann"])
(True, False)
>>> closed = {"/root", "/root/.pyenv", "/tmp/a"}
>>> reach_plan(["/root/.pyenv/lib", "/root/.pyenv/lib/zip", "/usr", "/tmp/a/b"],
...            lambda folder: folder not in closed)
{'/root': ['/root/.pyenv/lib'], '/tmp/a': ['/tmp/a/b']}
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from game.logic.workers import jail_linux as linux

#: Folders of the system a Python process and its C libraries read (those missing are left
#: out): programs and libraries, certificates (not ``/etc/ssl/private``, which holds keys),
#: time zones.
SYSTEM_FOLDERS: Final = (
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/bin",
    "/sbin",
    "/etc/ssl/certs",
    "/usr/share/zoneinfo",
)
#: Single files of the system: the dynamic linker's cache, the local time zone, OpenSSL's
#: settings, and the devices that only give bytes (``/dev/null`` is writable besides).
SYSTEM_FILES: Final = (
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/etc/ssl/openssl.cnf",
    "/dev/zero",
    "/dev/urandom",
    "/dev/random",
)
#: The environment variables that name folders of a person's own (the game's settings and
#: data among them): a folder of the Python installation that holds one is left out.
HOME_VARIABLES: Final = ("HOME", "GAMEHALL_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")


def python_paths(homes: Sequence[str]) -> list[str]:
    """The Python installation as this process sees it: ``sys.prefix``, ``sys.base_prefix``,
    ``sys.exec_prefix``, ``sys.base_exec_prefix``, every ``sys.path`` entry that is a path
    (folders and zip files) and the folder of the game's own package (an editable install
    reaches it through an import hook, not ``sys.path``). An empty entry (the working folder:
    the robot's temp folder) and one that is ``/`` or holds one of ``homes`` (``python -m``
    run in your home folder puts it on ``sys.path``) are left out."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    candidates = [
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *sys.path,
        package,
    ]
    return _unique(
        os.path.abspath(path)
        for path in candidates
        if path and os.path.isabs(path) and not holds_a_home(path, homes)
    )


def robot_folders(files: Iterable[str]) -> list[str]:
    """The folders of the robot ``files`` (each as named and, for a link, its target's), which
    the robot process may read whole: sibling modules and data files load."""
    found = []
    for path in files:
        found.append(os.path.dirname(os.path.abspath(path)))
        found.append(os.path.dirname(os.path.realpath(path)))
    return _unique(found)


def homes(environ: dict[str, str] | os._Environ[str]) -> list[str]:
    """The folders of a person's own named in ``environ`` (:data:`HOME_VARIABLES`), as
    absolute paths."""
    found = []
    for name in HOME_VARIABLES:
        value = environ.get(name, "")
        if value:
            found.append(os.path.abspath(os.path.expanduser(value)))
    return found


def holds_a_home(path: str, homes: Sequence[str]) -> bool:
    """Whether ``path`` is ``/``, or one of ``homes`` or a folder above one."""
    path = os.path.abspath(path)
    if path == "/":
        return True
    for home in homes:
        for form in (home, os.path.realpath(home)):
            if form == path or form.startswith(path.rstrip("/") + "/"):
                return True
    return False


def allowed(robot: Sequence[str], homes: Sequence[str], private_proc: bool) -> list[str]:
    """Every path a robot process may read and run (beside its temp folder, where it may do
    anything): :func:`python_paths`, the ``robot`` folders, :data:`SYSTEM_FOLDERS`,
    :data:`SYSTEM_FILES`, and /proc when it is the robot's own (``private_proc``), else only
    its own process's entries."""
    proc = ["/proc"] if private_proc else [f"/proc/{os.getpid()}"]
    return _unique([*python_paths(homes), *robot, *SYSTEM_FOLDERS, *SYSTEM_FILES, *proc])


def reach_plan(paths: Iterable[str], passable: Callable[[str], bool]) -> dict[str, list[str]]:
    """For the ``paths`` (absolute, existing) beneath a folder that ``passable`` says others
    may not pass: that topmost folder, with the paths beneath it to put back (one beneath
    another is left out: it comes with it). A path with none is left out."""
    plan: dict[str, list[str]] = {}
    for path in paths:
        parts = path.strip("/").split("/")
        for depth in range(1, len(parts)):
            folder = "/" + "/".join(parts[:depth])
            if not passable(folder):
                plan.setdefault(folder, []).append(path)
                break
    return {
        top: [p for p in sorted(set(group)) if not any(p.startswith(q + "/") for q in group)]
        for top, group in plan.items()
    }


def make_reachable(read: Sequence[str], temp: str) -> int:
    """Make each path of ``read`` (each as named and as its link's target, where it exists)
    and the temp folder ``temp`` reachable by any user (see the module docstring): in a
    mount namespace of this process's own, as root. Returns the number of folders covered;
    raises OSError (the namespace may then be half done)."""
    wanted = _unique(
        form
        for path in [*read, temp]
        for form in (os.path.abspath(path), os.path.realpath(path))
        if os.path.lexists(form)
    )
    plan = reach_plan(wanted, _passable)
    temps = {os.path.abspath(temp), os.path.realpath(temp)}
    mask = os.umask(0o022)
    try:
        for top, paths in plan.items():
            _cover(top, paths, temps)
    finally:
        os.umask(mask)
    return len(plan)


def closed_to_others(folders: Iterable[str], files: Iterable[str]) -> list[str]:
    """Those of ``folders`` that other users may not list and pass (mode ``o+rx``) and of
    ``files`` they may not read (``o+r``): a robot user needs a capability to read them. A
    missing one is left out."""
    closed = []
    for paths, needed in ((folders, stat.S_IROTH | stat.S_IXOTH), (files, stat.S_IROTH)):
        for path in paths:
            try:
                if os.stat(path).st_mode & needed != needed:
                    closed.append(path)
            except OSError:
                continue
    return closed


def _cover(top: str, paths: list[str], temps: set[str]) -> None:
    """A tmpfs on ``top`` with ``paths`` (beneath it) bound back, read-only but ``temps``."""
    opened = []
    try:
        for path in paths:  # before the tmpfs hides them
            opened.append((path, os.open(path, os.O_PATH | os.O_CLOEXEC)))
        options = "size=1m,nr_inodes=4096,mode=0755"
        linux.mount("tmpfs", top, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV, options)
        for path, fd in opened:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if stat.S_ISDIR(os.fstat(fd).st_mode):
                os.makedirs(path, exist_ok=True)
            else:
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))
            linux.bind(fd, path, read_only=path not in temps)
    finally:
        for _, fd in opened:
            os.close(fd)


def _passable(folder: str) -> bool:
    """Whether a user with no claim on ``folder`` may pass through it (a missing one: yes)."""
    try:
        return bool(os.stat(folder).st_mode & stat.S_IXOTH)
    except OSError:
        return True


def _unique(paths: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(paths))


__all__ = [
    "HOME_VARIABLES",
    "SYSTEM_FILES",
    "SYSTEM_FOLDERS",
    "allowed",
    "closed_to_others",
    "holds_a_home",
    "homes",
    "make_reachable",
    "python_paths",
    "reach_plan",
    "robot_folders",
]
