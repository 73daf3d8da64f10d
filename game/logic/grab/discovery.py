"""Finding MasterGrab robots: the built-in ones, a folder of robot files and entry points.

:class:`RobotRegistry` knows every robot a game may seat, by key, and makes its agent
(:meth:`RobotRegistry.agent`): built-ins run in this process, robots found on disk in a
process of their own (:mod:`game.logic.grab.sandbox`). Robot files and entry points are
imported only in a confined child process (:func:`discover`), one at a time with a time limit,
so a file whose top-level code exits, hangs, prints or allocates cannot touch the game. A file
or entry point that cannot be loaded is described in :attr:`RobotRegistry.problems` and its key
in :attr:`RobotRegistry.broken`, never raised.

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
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

from game.logic.grab.robot import Robot, UnknownRobotError
from game.logic.grab.sandbox import (
    CONSTRUCT_S,
    DEFAULT_BUDGET_S,
    DEFAULT_MEMORY_MB,
    STARTUP_S,
    InProcessRunner,
    ProcessRunner,
    RobotAgent,
    RobotRunner,
    describe_error,
)
from game.logic.workers.confine import Captured, plain_text
from game.logic.workers.jail import JailedProcess
from game.logic.workers.process import MessageTooLong, NotPlainData, WorkerLost

#: Problems with finding robots are logged here.
LOG: Final = logging.getLogger("gamehall.grab")

#: The entry-point group through which installed packages offer robots.
ENTRY_POINT_GROUP: Final = "gamehall.robots"

#: How long importing one robot file or entry point may take while robots are found.
IMPORT_S: Final = 5.0

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


@dataclass(frozen=True, slots=True)
class Found:
    """One robot class the discovery process found: its ``origin``, the ``key`` it asks for,
    and its class attributes as plain text (``name``, ``description``, ``default``)."""

    key: str
    origin: RobotOrigin
    name: str
    description: str
    default: bool


@dataclass(frozen=True, slots=True)
class Broken:
    """A robot file or entry point that could not be loaded: the ``key`` its robot would
    have had, where it is (``source``) and ``reason``."""

    key: str
    source: str
    reason: str


@dataclass(frozen=True, slots=True)
class _Job:
    """One thing for the discovery process to import: a file (``attribute`` empty: every
    Robot subclass defined in it) or a module's class; ``key`` and ``source`` name it."""

    kind: str
    target: str
    attribute: str
    key: str
    source: str


def discover(
    folder: Path | None,
    *,
    entry_points: bool = True,
    import_s: float = IMPORT_S,
    start_s: float = STARTUP_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
) -> tuple[list[Found], list[Broken]]:
    """The robots of the ``*.py`` files in ``folder`` and of the ``gamehall.robots`` entry
    points, found without importing any of them in this process.

    A child process in the robot jail (:mod:`game.logic.workers.jail`: no Ctrl-C, output
    captured, ``memory_mb`` MiB more than it starts with, and on Linux the namespaces, limits,
    Landlock and seccomp a robot's own process has) imports them one at a time. One that
    raises, defines no robot, takes longer than ``import_s`` seconds (the child itself has
    ``start_s`` seconds to start) or ends the process is described in the second list,
    and a new child goes on with the ones after it. With nothing to import no process starts.
    """
    jobs: list[_Job] = []
    broken: list[Broken] = []
    if folder is not None and Path(folder).is_dir():
        for path in sorted(Path(folder).glob("*.py")):
            if path.is_file():
                jobs.append(_Job("file", str(path), "", path.stem.lower(), str(path)))
    if entry_points:
        try:
            points = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
        except Exception as error:
            broken.append(Broken("", f"entry points {ENTRY_POINT_GROUP}", describe_error(error)))
            points = []
        for point in points:
            source = f"entry point {point.name} = {point.value}"
            if not point.attr:
                broken.append(Broken(point.name.lower(), source, "names no class"))
                continue
            jobs.append(_Job("module", point.module, point.attr, point.name.lower(), source))
    found: list[Found] = []
    first = 0
    while first < len(jobs):
        results, failure = _discover_some(jobs[first:], import_s, start_s, memory_mb)
        for job, result in zip(jobs[first:], results, strict=False):
            if isinstance(result, str):
                broken.append(Broken(job.key, job.source, result))
            else:
                found.extend(_founds(job, result))
        first += len(results)
        if failure is not None and first < len(jobs):
            job = jobs[first]
            broken.append(Broken(job.key, job.source, failure))
            first += 1
    return found, broken


def _discover_some(
    jobs: Sequence[_Job], import_s: float, start_s: float, memory_mb: int
) -> tuple[list[Any], str | None]:
    """Run one discovery process over ``jobs``: the results of those it finished (each a list
    of class facts, or a reason), and why it stopped early (the next job's fault) or None."""
    files = tuple(job.target for job in jobs if job.kind == "file")
    jail = JailedProcess(
        "robot-discovery", _discovery_main, (list(jobs),), memory_mb, robot_files=files
    )
    worker = jail.start()
    results: list[Any] = []
    failure: str | None = None
    try:
        problem = jail.wait_jailed(start_s)
        if problem is not None:
            return results, f"the discovery process failed: {problem}"
        while len(results) < len(jobs):
            try:
                if not worker.wait(import_s):
                    failure = f"importing it took more than {import_s:g} s"
                    break
                reply = _checked(worker.receive())
            except MessageTooLong as lost:
                failure = f"importing it: {lost}"
                break
            except WorkerLost:
                failure = f"importing it ended its process ({jail.exit_words()})"
                break
            except NotPlainData as error:
                reply = f"importing it: {error}"
            results.append(reply)
    finally:
        jail.stop()
    return results, failure


def _discovery_main(
    connection: Connection, printed: Captured, jobs: list[_Job]
) -> None:  # pragma: no cover - runs in the discovery process
    """In the jail (:func:`~game.logic.workers.jail.jailed_main`): import each job's robots and
    send, per job, a list of ``(attribute, name, description, default)`` for its classes, or
    the reason it has none as text."""
    for job in jobs:
        reply: object
        try:
            if job.kind == "file":
                module = _import_file(Path(job.target))
                classes = [
                    value
                    for value in vars(module).values()
                    if isinstance(value, type)
                    and issubclass(value, Robot)
                    and value is not Robot
                    and value.__module__ == module.__name__
                ]
                reply = [_facts(c.__name__, c) for c in classes] or "defines no Robot subclass"
            else:
                origin = RobotOrigin("module", job.target, job.attribute)
                reply = [_facts(job.attribute, origin.load())]
        except BaseException as error:  # a SystemExit at import must not end the others
            reply = f"importing it {describe_error(error)}"
        printed.take()
        connection.send(reply)


def _facts(attribute: str, robot_class: type[Robot]) -> tuple[str, str, str, bool]:
    """What the registry needs of a class, as plain values (a robot's odd ``name``
    property cannot reach the game)."""
    return (
        plain_text(attribute),
        plain_text(robot_class.name),
        plain_text(robot_class.description),
        bool(robot_class.default),
    )


def _checked(reply: Any) -> Any:
    """A discovery reply if it is a reason (text) or a list of class facts; raises
    :class:`~game.logic.workers.process.NotPlainData` otherwise (robot code at import can
    change what the discovery process sends)."""
    if type(reply) is str:
        return reply
    if (
        type(reply) is list
        and reply
        and all(
            type(facts) is tuple
            and len(facts) == 4
            and all(type(text) is str for text in facts[:3])
            and type(facts[3]) is bool
            and all(part.isidentifier() for part in facts[0].split("."))
            for facts in reply
        )
    ):
        return reply
    raise NotPlainData("its process sent a reply of the wrong shape")


def _founds(job: _Job, facts: list[tuple[str, str, str, bool]]) -> list[Found]:
    out = []
    for attribute, name, description, default in facts:
        several = job.kind == "file" and len(facts) > 1
        key = f"{job.key}.{attribute.lower()}" if several else job.key
        out.append(
            Found(key, RobotOrigin(job.kind, job.target, attribute), name, description, default)
        )
    return out


class RobotRegistry:
    """The robots a game can use, by key.

    Keys: the built-ins are ``simple``, ``basic`` and ``strategic`` (see
    :data:`BUILTIN_ROBOTS`); a Python file in ``folder`` gives its robot the file's stem
    lowercased (``grabby.py`` -> ``grabby``; a file that defines several Robot subclasses
    gives ``stem.classname`` for each); an entry point in the group ``gamehall.robots`` gives
    its entry-point name lowercased. Only classes defined in the file (not imported into it)
    count. Files and entry points are imported only in a discovery process (:func:`discover`,
    with ``import_s`` seconds each); one that fails to import, hangs, defines no robot, or
    whose key is taken is described in :attr:`problems` and, by key, in :attr:`broken`
    (never raised). Built-ins run in this process, everything else in a child process of its
    own with ``memory_mb`` MiB and ``construct_s`` seconds to make its robot (see
    :class:`~game.logic.grab.sandbox.ProcessRunner`).
    """

    def __init__(
        self,
        folder: Path | None = None,
        *,
        entry_points: bool = True,
        import_s: float = IMPORT_S,
        construct_s: float = CONSTRUCT_S,
        memory_mb: int = DEFAULT_MEMORY_MB,
    ) -> None:
        self.problems: list[str] = []
        #: Robot keys that could not be loaded, with the reason.
        self.broken: dict[str, str] = {}
        self.memory_mb = memory_mb
        self.construct_s = construct_s
        self._robots: dict[str, tuple[RobotInfo, type[Robot] | None]] = {}
        for key, (module, attribute) in BUILTIN_ROBOTS.items():
            self._load_builtin(key, RobotOrigin("module", module, attribute))
        if folder is not None or entry_points:
            found, broken = discover(
                folder, entry_points=entry_points, import_s=import_s, memory_mb=memory_mb
            )
            for item in broken:
                self._problem(f"{item.source}: {item.reason}", item.key, item.reason)
            for robot in found:
                info = RobotInfo(
                    robot.key, robot.name, robot.description, robot.default, False, robot.origin
                )
                self._add(info, None)

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

    def robot_class(self, key: str) -> type[Robot] | None:
        """The class of a robot that runs in this process (built-ins, classes registered in
        code); None for robots found on disk, which are never imported here."""
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
        self._add(_info(key, origin, robot_class, builtin), robot_class)
        return key

    def runner(self, key: str, memory_mb: int | None = None) -> RobotRunner:
        """A runner for a new robot of kind ``key``: in-process for built-ins, else a child
        process (started on the first move) with ``memory_mb`` MiB (default: the
        registry's). Raises :class:`UnknownRobotError`."""
        info, robot_class = self._entry(key)
        if info.builtin and robot_class is not None:
            return InProcessRunner(robot_class)
        memory = self.memory_mb if memory_mb is None else memory_mb
        return ProcessRunner(key, info.origin, memory_mb=memory, construct_s=self.construct_s)

    def agent(
        self, key: str, budget_s: float = DEFAULT_BUDGET_S, memory_mb: int | None = None
    ) -> RobotAgent:
        """The agent that plays robot ``key`` (a new robot instance in its sandbox), with
        ``budget_s`` seconds a move (more when the match's limits give more) and, for a robot
        found on disk, ``memory_mb`` MiB. Raises :class:`UnknownRobotError` for a key this
        registry does not know (naming why, for a broken one)."""
        info = self.info(key)
        runner = self.runner(key, memory_mb)
        return RobotAgent(key, runner, description=info.description, budget_s=budget_s)

    def describe(self) -> dict[str, str]:
        """Every key with its robot's name and description, for menus and ``--help``."""
        out = {}
        for key, (info, _) in self._robots.items():
            where = "" if info.builtin else f" (from {info.origin.describe()})"
            text = f"{info.name}: {info.description}" if info.description else info.name
            out[key] = text + where
        return out

    def _entry(self, key: str) -> tuple[RobotInfo, type[Robot] | None]:
        try:
            return self._robots[key]
        except KeyError:
            known = ", ".join(self._robots) or "none"
            if key in self.broken:
                raise UnknownRobotError(
                    f"robot {key!r} is broken: {self.broken[key]}; known robots: {known}"
                ) from None
            raise UnknownRobotError(f"no robot {key!r}; known robots: {known}") from None

    def _add(self, info: RobotInfo, robot_class: type[Robot] | None) -> None:
        if info.key in self._robots:
            other = self._robots[info.key][0]
            where = "the built-in robot" if other.builtin else other.origin.describe()
            self._problem(
                f"{info.origin.describe()}: robot key {info.key!r} is taken by {where}; skipped"
            )
            return
        self._robots[info.key] = (info, robot_class)

    def _load_builtin(self, key: str, origin: RobotOrigin) -> None:
        try:
            robot_class = origin.load()
        except Exception as error:
            self._problem(
                f"{origin.describe()}: {describe_error(error)}", key, describe_error(error)
            )
            return
        self._add(_info(key, origin, robot_class, True), robot_class)

    def _problem(self, text: str, key: str = "", reason: str = "") -> None:
        LOG.warning("robots: %s", text)
        self.problems.append(text)
        if key and reason:
            self.broken.setdefault(key, reason)


def _info(key: str, origin: RobotOrigin, robot_class: type[Robot], builtin: bool) -> RobotInfo:
    return RobotInfo(
        key,
        str(robot_class.name),
        str(robot_class.description),
        bool(robot_class.default),
        builtin,
        origin,
    )


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
