"""Finding MasterGrab robots: the built-in ones, a folder of robot files and entry points.

:class:`RobotRegistry` knows every robot a game may seat, by key, and makes its agent
(:meth:`RobotRegistry.agent`): built-ins run in this process, robots found on disk in a
process of their own (:mod:`game.logic.grab.sandbox`). A file or entry point that cannot be
loaded is described in :attr:`RobotRegistry.problems`, never raised.

>>> registry = RobotRegistry.builtins()
>>> registry.names(), registry.defaults()
(['simple', 'basic', 'strategic'], ['basic'])
>>> registry.agent("basic").name
'basic'
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import logging
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from game.logic.grab.robot import Robot, UnknownRobotError
from game.logic.grab.sandbox import (
    DEFAULT_BUDGET_S,
    InProcessRunner,
    ProcessRunner,
    RobotAgent,
    RobotRunner,
    describe_error,
)

#: Problems with finding robots are logged here.
LOG: Final = logging.getLogger("gamehall.grab")

#: The entry-point group through which installed packages offer robots.
ENTRY_POINT_GROUP: Final = "gamehall.robots"

#: The built-in robots: registry key -> (module, class name). Imported when a registry is
#: made, so one that is missing or broken does not stop the others.
BUILTIN_ROBOTS: Final[dict[str, tuple[str, str]]] = {
    "simple": ("game.logic.grab.robots.simple", "SimpleRobot"),
    "basic": ("game.logic.grab.robots.basic", "BasicRobot"),
    "strategic": ("game.logic.grab.robots.strategic", "StrategicRobot"),
}


@dataclass(frozen=True, slots=True)
class RobotOrigin:
    """Where a robot class comes from, so that a child process can load it again: a module
    (``kind="module"``, importable by name) or a Python file (``kind="file"``, a path)."""

    kind: str
    target: str
    attribute: str

    def load(self) -> type[Robot]:
        """The robot class; raises whatever importing it raises."""
        if self.kind == "file":
            module = _import_file(Path(self.target))
        else:
            module = importlib.import_module(self.target)
        value: object = module
        for part in self.attribute.split("."):
            value = getattr(value, part)
        if not (isinstance(value, type) and issubclass(value, Robot)):
            raise TypeError(f"{self.describe()} is not a Robot subclass")
        return value

    def describe(self) -> str:
        return f"{self.target}:{self.attribute}"


@dataclass(frozen=True, slots=True)
class RobotInfo:
    """One registered robot: its registry ``key`` (short, lowercase), display ``name``,
    ``description``, ``default`` flag, whether it is ``builtin`` (runs in-process), and its
    ``origin``."""

    key: str
    name: str
    description: str
    default: bool
    builtin: bool
    origin: RobotOrigin


class RobotRegistry:
    """The robots a game can use, by key.

    Keys: the built-ins are ``simple``, ``basic`` and ``strategic`` (see
    :data:`BUILTIN_ROBOTS`); a Python file in ``folder`` gives its robot the file's stem
    lowercased (``grabby.py`` -> ``grabby``; a file that defines several Robot subclasses
    gives ``stem.classname`` for each); an entry point in the group ``gamehall.robots`` gives
    its entry-point name lowercased. Only classes defined in the file (not imported into it)
    count. A file or entry point that fails to import, defines no robot, or whose key is
    taken is described in :attr:`problems` (never raised). Built-ins run in this process,
    everything else in a child process of its own.

    Importing a file runs its top-level code in this process once, to find its robots.
    """

    def __init__(self, folder: Path | None = None, *, entry_points: bool = True) -> None:
        self.problems: list[str] = []
        self._robots: dict[str, tuple[RobotInfo, type[Robot]]] = {}
        for key, (module, attribute) in BUILTIN_ROBOTS.items():
            self._load(key, RobotOrigin("module", module, attribute), builtin=True)
        if folder is not None:
            self._scan_folder(Path(folder))
        if entry_points:
            self._scan_entry_points()

    @classmethod
    def builtins(cls) -> RobotRegistry:
        """A registry of the built-in robots only."""
        return cls(None, entry_points=False)

    def names(self) -> list[str]:
        """Every key: built-ins first, then the folder's, then entry points'."""
        return list(self._robots)

    def defaults(self) -> list[str]:
        """The keys of robots with ``default`` set (used for default and random games)."""
        return [key for key, (info, _) in self._robots.items() if info.default]

    def __contains__(self, key: object) -> bool:
        return key in self._robots

    def info(self, key: str) -> RobotInfo:
        return self._entry(key)[0]

    def robot_class(self, key: str) -> type[Robot]:
        return self._entry(key)[1]

    def is_builtin(self, key: str) -> bool:
        return self._entry(key)[0].builtin

    def register(
        self, robot_class: type[Robot], key: str | None = None, *, builtin: bool = True
    ) -> str:
        """Add a robot class made in code (tests, tools) under ``key`` (default: the class
        name lowercased) and return the key; raises ValueError if the key is taken. With
        ``builtin`` false it runs in a child process, which must be able to import it by
        its module and qualified name."""
        if not (isinstance(robot_class, type) and issubclass(robot_class, Robot)):
            raise ValueError(f"{robot_class!r} is not a Robot subclass")
        key = key if key is not None else robot_class.__name__.lower()
        if key in self._robots:
            raise ValueError(f"robot key {key!r} is taken")
        origin = RobotOrigin("module", robot_class.__module__, robot_class.__qualname__)
        self._add(key, origin, robot_class, builtin)
        return key

    def runner(self, key: str) -> RobotRunner:
        """A runner for a new robot of kind ``key``: in-process for built-ins, else a child
        process (started on the first move). Raises :class:`UnknownRobotError`."""
        info, robot_class = self._entry(key)
        if info.builtin:
            return InProcessRunner(robot_class)
        return ProcessRunner(key, info.origin)

    def agent(self, key: str, budget_s: float = DEFAULT_BUDGET_S) -> RobotAgent:
        """The agent that plays robot ``key`` (a new robot instance in its sandbox), with
        ``budget_s`` seconds a move (more when the match's limits give more). Raises
        :class:`UnknownRobotError` for a key this registry does not know."""
        info = self.info(key)
        return RobotAgent(key, self.runner(key), description=info.description, budget_s=budget_s)

    def describe(self) -> dict[str, str]:
        """Every key with its robot's name and description, for menus and ``--help``."""
        out = {}
        for key, (info, _) in self._robots.items():
            where = "" if info.builtin else f" (from {info.origin.describe()})"
            text = f"{info.name}: {info.description}" if info.description else info.name
            out[key] = text + where
        return out

    def _entry(self, key: str) -> tuple[RobotInfo, type[Robot]]:
        try:
            return self._robots[key]
        except KeyError:
            known = ", ".join(self._robots) or "none"
            raise UnknownRobotError(f"no robot {key!r}; known robots: {known}") from None

    def _add(self, key: str, origin: RobotOrigin, robot_class: type[Robot], builtin: bool) -> None:
        if key in self._robots:
            other = self._robots[key][0]
            where = "the built-in robot" if other.builtin else other.origin.describe()
            self._problem(f"{origin.describe()}: robot key {key!r} is taken by {where}; skipped")
            return
        info = RobotInfo(
            key,
            str(robot_class.name),
            str(robot_class.description),
            bool(robot_class.default),
            builtin,
            origin,
        )
        self._robots[key] = (info, robot_class)

    def _load(self, key: str, origin: RobotOrigin, builtin: bool) -> None:
        try:
            robot_class = origin.load()
        except Exception as error:
            self._problem(f"{origin.describe()}: {describe_error(error)}")
            return
        self._add(key, origin, robot_class, builtin)

    def _scan_folder(self, folder: Path) -> None:
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.py")):
            try:
                module = _import_file(path)
            except BaseException as error:  # a SystemExit in a robot file must not end us
                self._problem(f"{path}: {describe_error(error)}")
                continue
            classes = [
                value
                for value in vars(module).values()
                if isinstance(value, type)
                and issubclass(value, Robot)
                and value is not Robot
                and value.__module__ == module.__name__
            ]
            if not classes:
                self._problem(f"{path}: defines no Robot subclass")
            stem = path.stem.lower()
            for robot_class in classes:
                key = stem if len(classes) == 1 else f"{stem}.{robot_class.__name__.lower()}"
                origin = RobotOrigin("file", str(path), robot_class.__name__)
                self._add(key, origin, robot_class, builtin=False)

    def _scan_entry_points(self) -> None:
        try:
            found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        except Exception as error:
            self._problem(f"entry points {ENTRY_POINT_GROUP}: {describe_error(error)}")
            return
        for entry in found:
            if not entry.attr:
                self._problem(f"entry point {entry.name} = {entry.value}: names no class")
                continue
            origin = RobotOrigin("module", entry.module, entry.attr)
            try:
                robot_class = origin.load()
            except BaseException as error:
                self._problem(f"entry point {entry.name} = {entry.value}: {describe_error(error)}")
                continue
            self._add(entry.name.lower(), origin, robot_class, builtin=False)

    def _problem(self, text: str) -> None:
        LOG.warning("robots: %s", text)
        self.problems.append(text)


# --- Helpers ---------------------------------------------------------------------------------


_MODULE_NAME = re.compile(r"[^0-9a-zA-Z_]")


def _import_file(path: Path) -> Any:
    """Import a robot file as a module of its own (registered in sys.modules, as dataclasses
    and pickling need); the same name in a child process, so classes match."""
    name = "gamehall_robots." + _MODULE_NAME.sub("_", path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


__all__ = [
    "BUILTIN_ROBOTS",
    "ENTRY_POINT_GROUP",
    "RobotInfo",
    "RobotOrigin",
    "RobotRegistry",
]
