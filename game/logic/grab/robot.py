"""Robots for MasterGrab: the API a robot writer codes against, the sandbox that runs robots,
and the registry that finds them (spec 5.1).

Writing a robot: subclass :class:`Robot`, give it a ``name`` and override :meth:`Robot.plan`,
which gets a :class:`RobotGame` (a private copy of the game seen from the robot's player) and
returns a :class:`~game.logic.grab.state.Move`::

    from game.logic.grab.robot import Robot, RobotGame
    from game.logic.grab.state import NO_MOVE, Move, MoveKind

    class Grabby(Robot):
        name = "Grabby"
        description = "Attacks the weakest enemy next to it with everything it has."

        def plan(self, game: RobotGame) -> Move:
            targets = [
                n for c in game.my_countries for n in game.neighbours(c)
                if game.owner(n) != game.player
            ]
            if not targets:
                return NO_MOVE
            weakest = min(targets, key=lambda n: (game.armies(n), n))
            attackers = tuple(a for a in game.neighbours(weakest) if game.owner(a) == game.player)
            return Move(MoveKind.ATTACK, weakest, attackers)

Put the file in the ``robots`` folder of the gamehall config directory (or publish it under
the entry-point group ``gamehall.robots``); :class:`RobotRegistry` finds it. Robots found
there run in their own process (:class:`ProcessRunner`), the built-in ones in the game's
(:class:`InProcessRunner`). Either way a robot that raises, answers with an illegal move or
thinks longer than its budget loses that move, and the game goes on.
"""

from __future__ import annotations

import abc
import contextlib
import importlib
import importlib.metadata
import importlib.util
import logging
import multiprocessing
import re
import sys
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ClassVar, Final

from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import (
    NO_MOVE,
    GrabBoard,
    GrabMoveError,
    GrabState,
    Move,
    PlayerStats,
    Result,
    player_statistics,
)

#: Failures of robots and of robot discovery are logged here.
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

#: How long a robot process may take to start (imports included) before it counts as broken.
STARTUP_S: Final = 60.0


class UnknownRobotError(ValueError):
    """A robot name that the registry does not know."""


class Robot:
    """The base class of every robot: subclass it and override :meth:`plan`.

    One instance plays one game: it is made with no arguments when the game starts (and again
    on replay) and may keep what it likes between its moves, as long as it is plain data
    such as country ids (the game it sees is a new copy every move).

    Class attributes: ``name`` is shown to players (it defaults to the class name),
    ``description`` is a sentence about how it plays, and ``default`` says whether it may be
    picked for default and random games.
    """

    name: ClassVar[str] = "Robot"
    description: ClassVar[str] = ""
    default: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__:
            cls.name = cls.__name__

    def plan(self, game: RobotGame) -> Move:
        """This robot's move in ``game``, where it is the player to move (``game.player``).

        Return :data:`~game.logic.grab.state.NO_MOVE`, a gather or an attack by
        ``game.player``. Anything else, an exception, or taking too long loses the move.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement plan()")


class RobotGame:
    """What a robot sees: a private copy of the game from ``player``'s point of view.

    Nothing done to it (or to its ``state`` and ``board``, even with ``object.__setattr__``)
    reaches the real game; the robot's only influence is the move it returns. All country
    arguments are country ids (0 .. ``countries`` - 1). Mountains have no owner
    (:data:`~game.logic.grab.rules.MOUNTAIN`), no neighbours and are nobody's neighbour.

    >>> board = GrabBoard(sizes=(100, 50, 50), neighbours=((1, 2), (0,), (0,)), players=2)
    >>> game = RobotGame(GrabState(board, (0, 0, 1), (8.0, 4.0, 2.0)), player=0)
    >>> game.my_countries, game.is_inland(1), game.has_enemies(0), game.defence_needed(0)
    ((0, 1), True, True, 1.3333333333333333)
    >>> game.can_be_attacked(2, [0]), game.apply(Move.parse("attack 0>2")).owner(2)
    (True, 0)
    """

    __slots__ = ("_inland", "_mine", "_player", "_spendable", "_state")

    def __init__(self, state: GrabState, player: int) -> None:
        if not 0 <= player < state.board.players:
            raise ValueError(f"player={player} is not a player of this game")
        self._state = _detached(state)
        self._player = player
        self._mine: tuple[int, ...] | None = None
        self._inland: tuple[bool, ...] | None = None
        self._spendable: dict[int, float] = {}

    @classmethod
    def _wrap(cls, state: GrabState, player: int) -> RobotGame:
        """A view of a state that is already private (made by this copy's ``apply``)."""
        game = cls.__new__(cls)
        game._state = state
        game._player = player
        game._mine = None
        game._inland = None
        game._spendable = {}
        return game

    # --- The game ---------------------------------------------------------------------------

    @property
    def state(self) -> GrabState:
        """This copy's state (the robot's own; changing it changes nothing else)."""
        return self._state

    @property
    def board(self) -> GrabBoard:
        """This copy's fixed data: sizes, neighbours, capacities, the factors."""
        return self._state.board

    @property
    def player(self) -> int:
        """The robot's player id."""
        return self._player

    @property
    def players(self) -> int:
        """P: how many players, eliminated ones included; ids are 0 .. P - 1."""
        return self._state.board.players

    @property
    def to_move(self) -> int:
        """The player to move (``player`` when :meth:`Robot.plan` is called)."""
        return self._state.to_move

    @property
    def turn(self) -> int:
        """How many moves have been played since the start."""
        return self._state.turn

    @property
    def countries(self) -> int:
        """How many countries, mountains included."""
        return len(self._state.owners)

    @property
    def owners(self) -> tuple[int, ...]:
        """The owner of every country (MOUNTAIN for mountains), by id."""
        return self._state.owners

    @property
    def army_sizes(self) -> tuple[float, ...]:
        """The armies of every country (real numbers; shown truncated), by id."""
        return self._state.armies

    @property
    def results(self) -> tuple[Result, ...]:
        """Every player's last result (spec 4.3), by player id."""
        return self._state.results

    @property
    def finished(self) -> bool:
        return self._state.finished

    @property
    def winner(self) -> int | None:
        """The winner once the game is finished; None before, or when the human lost."""
        return self._state.winner

    @property
    def human_playing(self) -> bool:
        """True when player 0 is a human."""
        return self._state.board.human_playing

    @property
    def attack_factor(self) -> float:
        return self._state.board.attack_factor

    @property
    def protection_factor(self) -> float:
        return self._state.board.protection_factor

    @property
    def attack_benefit_factor(self) -> float:
        return self._state.board.attack_benefit_factor

    @property
    def growth_factor(self) -> float:
        return self._state.board.growth_factor

    @property
    def mountains(self) -> frozenset[int]:
        return self._state.board.mountains

    @property
    def min_country_size(self) -> int:
        """The smallest country's pixel count, mountains included."""
        return min(self._state.board.sizes)

    @property
    def max_country_size(self) -> int:
        """The biggest country's pixel count."""
        return max(self._state.board.sizes)

    @property
    def my_countries(self) -> tuple[int, ...]:
        """The robot's countries in the original's ``CountryIds`` order (spec 5.1): the
        starting ones by ascending id, then those won later in the order they were won."""
        if self._mine is None:
            self._mine = tuple(self._state.countries_of(self._player))
        return self._mine

    def countries_of(self, player: int) -> tuple[int, ...]:
        """``player``'s countries, in the same order as :attr:`my_countries`."""
        if player == self._player:
            return self.my_countries
        return tuple(self._state.countries_of(player))

    def statistics(self) -> list[PlayerStats]:
        """The ranking (spec 4.5), in rank order."""
        return player_statistics(self._state)

    def legal_moves(self) -> list[Move]:
        """The moves a click sends for the player to move, as GrabState.legal_moves."""
        return self._state.legal_moves(self._state.to_move)

    def apply(self, move: Move) -> RobotGame:
        """This copy one move later: the player to move plays ``move`` (growth and end check
        included, spec 4.1), seen by the same player. Raises GrabMoveError if illegal."""
        return RobotGame._wrap(self._state.apply(move), self._player)

    # --- One country ------------------------------------------------------------------------

    def owner(self, country: int) -> int:
        return self._state.owners[country]

    def armies(self, country: int) -> float:
        return self._state.armies[country]

    def size(self, country: int) -> int:
        """The country's pixel count."""
        return self._state.board.sizes[country]

    def capacity(self, country: int) -> int:
        """The armies the country grows to (spec 3.1)."""
        return self._state.board.capacity[country]

    def neighbours(self, country: int) -> tuple[int, ...]:
        """The country's neighbours by ascending id (never mountains)."""
        return self._state.board.neighbours[country]

    def is_mountain(self, country: int) -> bool:
        return self._state.owners[country] == MOUNTAIN

    def is_neighbour(self, country: int, other: int) -> bool:
        return other in self._state.board.neighbours[country]

    def has_enemies(self, country: int) -> bool:
        """True when a neighbour has another owner."""
        owners = self._state.owners
        own = owners[country]
        return any(owners[n] != own for n in self._state.board.neighbours[country])

    def is_inland(self, country: int, ignoring: int | None = None) -> bool:
        """True when every neighbour (but ``ignoring``) has the country's owner."""
        if ignoring is None:
            return self._inland_table()[country]
        owners = self._state.owners
        own = owners[country]
        return all(owners[n] == own for n in self._state.board.neighbours[country] if n != ignoring)

    def defence_needed(self, country: int) -> float:
        """PF x the biggest per-enemy-owner total of adjacent armies (spec 3.5), 0 inland."""
        state = self._state
        owners, armies = state.owners, state.armies
        own = owners[country]
        totals: dict[int, float] = {}
        for n in state.board.neighbours[country]:
            owner = owners[n]
            if owner != own:
                totals[owner] = totals.get(owner, 0.0) + armies[n]
        return state.board.protection_factor * max(totals.values()) if totals else 0.0

    def spendable(self, country: int) -> float:
        """The armies a gather may take from the country: ``max(0, armies - need)`` (3.6)."""
        value = self._spendable.get(country)
        if value is None:
            value = max(0.0, self._state.armies[country] - self.defence_needed(country))
            self._spendable[country] = value
        return value

    def can_be_attacked(self, country: int, attackers: Iterable[int]) -> bool:
        """True when attacking ``country`` with ``attackers`` would take it (spec 3.4): they
        are one other owner's neighbours of it and ``sum((a - 1) * AF)`` over those with at
        least 1 army reaches its armies (a tie wins). (The original's ``CanBeAttacked``
        checks only ownership and adjacency.)"""
        state = self._state
        owners, armies = state.owners, state.armies
        sources = list(attackers)
        if not sources or owners[country] == MOUNTAIN:
            return False
        by = owners[sources[0]]
        neighbours = state.board.neighbours[country]
        if by == owners[country] or len(set(sources)) != len(sources):
            return False
        if any(owners[a] != by or a not in neighbours for a in sources):
            return False
        strength = sum(
            (armies[a] - 1.0) * state.board.attack_factor for a in sources if armies[a] >= 1.0
        )
        return strength >= armies[country]

    def neighbour_to_nearest_enemy(self, country: int) -> int | None:
        """The first step from ``country`` towards the nearest enemy front (spec 5.1), or None
        unless every neighbour of ``country`` has its owner.

        A breadth-first search through the owner's countries (neighbours by ascending id);
        each path adds up the truncated armies of its countries after the start. Among the
        nearest countries that touch another owner it takes the one whose path holds the
        most armies (the first found on a tie) and returns that path's first country.
        """
        state = self._state
        owners, armies = state.owners, state.armies
        table = state.board.neighbours
        own = owners[country]
        if any(owners[n] != own for n in table[country]):
            return None
        seen = {country}
        # Entries: (country, depth, path armies, first step).
        queue: deque[tuple[int, int, int, int]] = deque()
        for n in table[country]:
            if n not in seen:
                seen.add(n)
                queue.append((n, 1, int(armies[n]), n))
        best: int | None = None
        best_total = -1
        best_depth = sys.maxsize
        while queue:
            c, depth, total, first = queue.popleft()
            if best_depth < depth:
                break
            for n in table[c]:
                if owners[n] != own:
                    if best_total < total:
                        best_total, best_depth, best = total, depth, first
                elif n not in seen:
                    seen.add(n)
                    queue.append((n, depth + 1, total + int(armies[n]), first))
        return best

    def _inland_table(self) -> tuple[bool, ...]:
        if self._inland is None:
            owners = self._state.owners
            self._inland = tuple(
                all(owners[n] == owners[c] for n in ns)
                for c, ns in enumerate(self._state.board.neighbours)
            )
        return self._inland


# --- Running robots ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RobotAnswer:
    """What a runner got from a robot: the move to play, how long it took, and ``error``, a
    one-line reason when the move is lost (``move`` is then the illegal move the robot sent,
    or ``none`` when it sent nothing usable); the game rejects it (GrabState.reject)."""

    move: Move
    seconds: float
    error: str | None = None


class RobotRunner(abc.ABC):
    """Asks one robot (one player's) for its moves; never raises because of the robot."""

    def __init__(self, key: str, budget_s: float) -> None:
        if not budget_s > 0:
            raise ValueError(f"budget_s={budget_s!r} is not a positive number of seconds")
        self.key = key
        self.budget_s = budget_s

    @abc.abstractmethod
    def ask(self, state: GrabState, player: int) -> RobotAnswer:
        """The robot's move for ``player`` (the player to move in ``state``)."""

    @abc.abstractmethod
    def reset(self) -> None:
        """Start over with a fresh robot instance (new game or replay)."""

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release what the runner holds; it may not be asked again."""

    def _over_budget(self, seconds: float) -> str:
        return f"took {seconds:.2f} s, over its {self.budget_s:.2f} s budget"


class InProcessRunner(RobotRunner):
    """Runs a robot in this process on a fresh :class:`RobotGame` copy each move.

    For trusted (built-in) robots: an exception or an illegal move loses the move, and a
    move that comes back after the budget is discarded; a robot that never returns cannot be
    stopped here (use :class:`ProcessRunner` for that).
    """

    def __init__(self, key: str, robot_class: type[Robot], budget_s: float = 1.0) -> None:
        super().__init__(key, budget_s)
        self.robot_class = robot_class
        self._robot: Robot | None = None
        self._broken: str | None = None

    def reset(self) -> None:
        self._robot = None

    def ask(self, state: GrabState, player: int) -> RobotAnswer:
        started = time.perf_counter()
        try:
            if self._robot is None:
                self._robot = self.robot_class()
            move: object = self._robot.plan(RobotGame(state, player))
        except Exception as error:
            return RobotAnswer(NO_MOVE, time.perf_counter() - started, _raised(error))
        seconds = time.perf_counter() - started
        if seconds > self.budget_s:
            return RobotAnswer(NO_MOVE, seconds, self._over_budget(seconds))
        checked, error_text = _checked(move, state, player)
        return RobotAnswer(checked, seconds, error_text)


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


class ProcessRunner(RobotRunner):
    """Runs a robot in a child process (the "spawn" start method: never fork a process that
    may hold threads and a GL context).

    Each move the state is sent over a pipe (pickled, so the child has its own copy) and the
    move comes back as text. An answer that does not come within the budget loses the move:
    the child is killed and a new one (with a new robot instance: its memory is lost) starts
    on the next move. So does a child that died. Call :meth:`close` when done.
    """

    def __init__(self, key: str, origin: RobotOrigin, budget_s: float = 1.0) -> None:
        super().__init__(key, budget_s)
        self.origin = origin
        self._process: Any = None
        self._connection: Connection | None = None

    def reset(self) -> None:
        if self._connection is not None and self._alive():
            try:
                self._connection.send(("reset",))
            except OSError:
                self._stop()

    def ask(self, state: GrabState, player: int) -> RobotAnswer:
        started = time.perf_counter()
        if not self._alive():
            problem = self._start()
            if problem is not None:
                return RobotAnswer(NO_MOVE, time.perf_counter() - started, problem)
        assert self._connection is not None
        started = time.perf_counter()
        try:
            self._connection.send(("plan", state, player))
            answered = self._connection.poll(self.budget_s)
            reply = self._connection.recv() if answered else None
        except (OSError, EOFError):
            code = self._process.exitcode if self._process is not None else None
            self._stop()
            reason = f"its process ended (exit code {code}); it restarts on its next move"
            return RobotAnswer(NO_MOVE, time.perf_counter() - started, reason)
        seconds = time.perf_counter() - started
        if reply is None:
            self._stop()
            reason = (
                f"did not answer within its {self.budget_s:.2f} s budget; its process was "
                "stopped and restarts on its next move (its memory is lost)"
            )
            LOG.warning("robot %s: %s", self.key, reason)
            return RobotAnswer(NO_MOVE, seconds, reason)
        kind, payload = reply
        if kind == "error":
            return RobotAnswer(NO_MOVE, seconds, str(payload))
        if seconds > self.budget_s:
            return RobotAnswer(NO_MOVE, seconds, self._over_budget(seconds))
        try:
            move = Move.parse(str(payload))
        except GrabMoveError as error:
            return RobotAnswer(NO_MOVE, seconds, f"returned an illegal move: {error}")
        checked, error_text = _checked(move, state, player)
        return RobotAnswer(checked, seconds, error_text)

    def close(self) -> None:
        self._stop(politely=True)

    @property
    def running(self) -> bool:
        """True while the robot's process is alive."""
        return self._alive()

    def _alive(self) -> bool:
        return self._process is not None and bool(self._process.is_alive())

    def _start(self) -> str | None:
        self._stop()
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(
            target=_child_main, args=(child, self.origin), name=f"robot-{self.key}", daemon=True
        )
        process.start()
        child.close()
        self._process, self._connection = process, parent
        try:
            ready = parent.poll(STARTUP_S)
            kind, payload = parent.recv() if ready else ("error", "did not start in time")
        except (OSError, EOFError):
            kind, payload = (
                "error",
                f"its process ended while starting (exit code {process.exitcode})",
            )
        if kind != "ready":
            self._stop()
            reason = f"could not start: {payload}"
            LOG.warning("robot %s: %s", self.key, reason)
            return reason
        return None

    def _stop(self, politely: bool = False) -> None:
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if connection is not None:
            if politely and process is not None and process.is_alive():
                with contextlib.suppress(OSError):
                    connection.send(("stop",))
            connection.close()
        if process is not None:
            if politely:
                process.join(1.0)
            if process.is_alive():
                process.kill()
            process.join(5.0)
            process.close()


def _child_main(connection: Connection, origin: RobotOrigin) -> None:  # pragma: no cover
    """The robot process: load the robot, then answer ``plan`` messages until told to stop."""
    try:
        robot_class = origin.load()
        robot = robot_class()
    except BaseException as error:
        connection.send(("error", _raised(error)))
        return
    connection.send(("ready", None))
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message[0] == "stop":
            return
        if message[0] == "reset":
            # No answer is awaited; a robot that cannot be made again ends the process,
            # and the parent reports that when it restarts it.
            robot = robot_class()
            continue
        try:
            _, state, player = message
            move: object = robot.plan(RobotGame(state, player))
            if type(move) is not Move:
                reply: tuple[str, str] = ("error", _not_a_move(move))
            else:
                reply = ("move", str(move))
        except Exception as error:
            reply = ("error", _raised(error))
        connection.send(reply)


# --- Finding robots ----------------------------------------------------------------------------


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

    def runner(self, key: str, budget_s: float = 1.0) -> RobotRunner:
        """A runner for a new robot of kind ``key``: in-process for built-ins, else a child
        process (started on the first move)."""
        info, robot_class = self._entry(key)
        if info.builtin:
            return InProcessRunner(key, robot_class, budget_s)
        return ProcessRunner(key, info.origin, budget_s)

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
            self._problem(f"{origin.describe()}: {_raised(error)}")
            return
        self._add(key, origin, robot_class, builtin)

    def _scan_folder(self, folder: Path) -> None:
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.py")):
            try:
                module = _import_file(path)
            except BaseException as error:  # a SystemExit in a robot file must not end us
                self._problem(f"{path}: {_raised(error)}")
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
            self._problem(f"entry points {ENTRY_POINT_GROUP}: {_raised(error)}")
            return
        for entry in found:
            if not entry.attr:
                self._problem(f"entry point {entry.name} = {entry.value}: names no class")
                continue
            origin = RobotOrigin("module", entry.module, entry.attr)
            try:
                robot_class = origin.load()
            except BaseException as error:
                self._problem(f"entry point {entry.name} = {entry.value}: {_raised(error)}")
                continue
            self._add(entry.name.lower(), origin, robot_class, builtin=False)

    def _problem(self, text: str) -> None:
        LOG.warning("robots: %s", text)
        self.problems.append(text)


# --- Helpers ---------------------------------------------------------------------------------


def _detached(state: GrabState) -> GrabState:
    """A copy of ``state`` and its board (and results) sharing only immutable values, so that
    even ``object.__setattr__`` on the copy cannot reach the original. Much cheaper than
    copy.deepcopy: the fields are tuples, ints, floats and frozensets."""
    board = _shallow(state.board)
    copy: GrabState = _shallow(state)
    object.__setattr__(copy, "board", board)
    object.__setattr__(copy, "results", tuple(_shallow(r) for r in state.results))
    return copy


def _shallow(value: Any) -> Any:
    cls = type(value)
    copy = object.__new__(cls)
    for name in cls.__slots__:
        object.__setattr__(copy, name, getattr(value, name))
    return copy


def _raised(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"raised {type(error).__name__}: {text}" if text else f"raised {type(error).__name__}"


def _not_a_move(value: object) -> str:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"returned {shown}, not a Move"


def _checked(move: object, state: GrabState, player: int) -> tuple[Move, str | None]:
    """``move`` as a clean Move if ``player`` may play it in ``state``, else (the move or
    none, the reason). The text round trip drops whatever a robot may have done to the
    object (a subclass, odd field types)."""
    if type(move) is not Move:
        return NO_MOVE, _not_a_move(move)
    try:
        clean = Move.parse(str(move))
    except Exception:
        return NO_MOVE, "returned a broken Move"
    try:
        state.check(clean, player)
    except GrabMoveError as error:
        return clean, f"returned an illegal move: {error}"
    return clean, None


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
    "InProcessRunner",
    "ProcessRunner",
    "Robot",
    "RobotAnswer",
    "RobotGame",
    "RobotInfo",
    "RobotOrigin",
    "RobotRegistry",
    "RobotRunner",
    "UnknownRobotError",
]
