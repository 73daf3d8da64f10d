"""What a jailed robot may read on Linux (Landlock's read rules, :mod:`game.logic.grab.jail`):
its Python installation, its own folder, the system files a Python process and its C libraries
need, and its private temp folder and /proc; nothing else. Your home folder, the game's
settings, statistics and saved games, other folders beside the robot's, and (as root)
``/etc/shadow`` or ``/root`` are not on the list.

>>> robot_folders(["/srv/robots/grabby.py"])[0]
'/srv/robots'
>>> holds_a_home("/home", ["/home/ann"]), holds_a_home("/home/ann/venv", ["/home/ann"])
(True, False)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from typing import Final

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


def _unique(paths: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(paths))


__all__ = [
    "HOME_VARIABLES",
    "SYSTEM_FILES",
    "SYSTEM_FOLDERS",
    "allowed",
    "holds_a_home",
    "homes",
    "python_paths",
    "robot_folders",
]
