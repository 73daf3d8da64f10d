"""Robots as agents: the sandbox that asks a robot for its move (spec 5.1).

A :class:`RobotAgent` is a robot as the match sees every computer player
(:class:`~game.logic.contract.Agent`): ``choose(state, limits, rng, stop)`` returns the move of the
player to move. It asks its robot through a runner: an :class:`InProcessRunner` for the
built-in robots (trusted, fast), a :class:`ProcessRunner` for robots found on disk (their own
process, so one that hangs or crashes costs only its move).

Whatever goes wrong is the robot's loss, never the game's: ``choose`` raises the robot's own
exception (or one that names it), :class:`TimeoutError` for a move over the budget (the
agent's ``budget_s``, or ``limits.time`` when that is longer: a robot does not search, so a
shorter limit would only cost it moves) and :class:`TypeError` for an answer that is
not a :class:`~game.logic.grab.state.Move`; an illegal move is returned as sent (and
``explain()`` says why it is illegal). The match then plays the robot's turn as lost
(:meth:`~game.logic.grab.game.GrabGame.forfeit`: nothing moves or grows).

Each robot instance plays one game (spec 5.1): the agent makes a fresh one when it is asked
about another map or an earlier move than the last (a new game, a replay, an undo), so a
game replayed from its start plays the same.

>>> from game.logic.contract import Limits, Stop
>>> from game.logic.grab.robots.simple import SimpleRobot
>>> from game.logic.grab.state import GrabBoard, GrabState
>>> board = GrabBoard(sizes=(100, 100), neighbours=((1,), (0,)), players=2)
>>> agent = RobotAgent("simple", InProcessRunner(SimpleRobot))
>>> import random
>>> str(agent.choose(GrabState(board, (0, 1), (9.0, 2.0)), Limits(), random.Random(1), Stop()))
'attack 0>1'
"""

from __future__ import annotations

import abc
import builtins
import contextlib
import logging
import random
import threading
import time
from collections import deque
from dataclasses import KW_ONLY, dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, Final

from game.logic.contract import Limits, Stop, ThinkingStopped
from game.logic.grab.options import ROBOT_MEMORY_MB_DEFAULT
from game.logic.grab.robot import Robot, RobotGame
from game.logic.grab.state import GrabBoard, GrabMoveError, GrabState, Move
from game.logic.workers.confine import Captured, plain_text
from game.logic.workers.jail import JailedProcess
from game.logic.workers.process import MessageTooLong, NotPlainData, Worker, WorkerLost

if TYPE_CHECKING:
    from game.logic.grab.discovery import RobotOrigin

#: Failures of robots and their processes are logged here.
LOG: Final = logging.getLogger("gamehall.grab")

#: A robot's seconds per move when the limits name none.
DEFAULT_BUDGET_S: Final = 1.0
#: How long a robot process may take to start and import its robot before it counts as broken.
STARTUP_S: Final = 60.0
#: How long a robot's constructor may take before the robot counts as broken.
CONSTRUCT_S: Final = 10.0
#: The memory (MiB) a robot process may take on top of what it holds once started.
DEFAULT_MEMORY_MB: Final = ROBOT_MEMORY_MB_DEFAULT
#: The lines of a robot's printing an agent keeps for the overlay.
OUTPUT_LINES: Final = 40
#: How often a robot process's answer is polled for while the stop flag is watched.
_POLL_S: Final = 0.05


class RobotError(Exception):
    """A robot's failure that no built-in exception names: its process could not start or
    died, or it raised an exception of its own type (the message starts with the type)."""


class RobotDisabledError(RobotError):
    """A robot that could not start (its import or constructor failed or hung): it is
    disabled for the rest of the game, and every turn of its seat passes."""


class RobotAgent:
    """A robot as an :class:`~game.logic.contract.Agent` (see the module docstring).

    ``name`` is the robot's registry key (``basic``), ``description`` its sentence,
    ``budget_s`` its seconds a move (see the module docstring). Call
    :meth:`close` when done (the match does): it stops a robot process. Thread-safe: one
    choice at a time.
    """

    def __init__(
        self,
        name: str,
        runner: RobotRunner,
        *,
        description: str = "",
        budget_s: float = DEFAULT_BUDGET_S,
    ) -> None:
        Limits(time=budget_s)  # raises LimitsError unless finite and positive
        self.name = name
        self.description = description
        self.runner = runner
        self.budget_s = budget_s
        self._lock = threading.Lock()
        self._last: tuple[GrabBoard, int] | None = None
        self._asked: tuple[GrabState, Move] | None = None

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Stop) -> Move:
        """The robot's move for the player to move in ``state`` (a GrabState); raises
        ValueError for a finished game, and what the robot's failure raises (see the module
        docstring)."""
        if not isinstance(state, GrabState):
            raise TypeError(f"{self.name} plays MasterGrab states, not {type(state).__name__}")
        if state.finished:
            raise ValueError("the game is over: there is no move to choose")
        budget = max(self.budget_s, limits.time or 0.0)
        player = state.to_move
        with self._lock:
            stop.check()
            self._asked = None
            last = self._last
            if last is not None and (last[0] is not state.board or state.turn <= last[1]):
                self.runner.reset()
            self._last = (state.board, state.turn)
            move = self.runner.ask(state, player, budget, stop)
            self._asked = (state, move)
        return move

    def explain(self) -> str:
        """Why the last move was illegal, or "" (checked here, after the move's time)."""
        asked = self._asked
        if asked is None:
            return ""
        state, move = asked
        try:
            state.check(move, state.to_move)
        except GrabMoveError as error:
            return f"illegal: {error}"
        return ""

    @property
    def printed(self) -> list[str]:
        """The robot's latest printed lines, oldest first (robots in a process of their own;
        a built-in robot's printing is not captured)."""
        return list(getattr(self.runner, "output", ()))

    @property
    def disabled(self) -> str | None:
        """Why the robot is disabled for this game (it could not start), or None."""
        return getattr(self.runner, "disabled", None)

    def close(self) -> None:
        self.runner.close()

    def __repr__(self) -> str:
        return f"RobotAgent({self.name!r}, {type(self.runner).__name__})"


# --- Runners ---------------------------------------------------------------------------------


class RobotRunner(abc.ABC):
    """Asks one robot instance for its moves; see the module docstring for what it raises."""

    @abc.abstractmethod
    def ask(self, state: GrabState, player: int, budget_s: float | None, stop: Stop) -> Move:
        """The robot's move for ``player`` (the player to move in ``state``), as a plain Move
        (legal or not); raises on the robot's failure or :class:`ThinkingStopped`."""

    @abc.abstractmethod
    def reset(self) -> None:
        """Start over with a fresh robot instance (a new game, a replay, an undo)."""

    def close(self) -> None:  # noqa: B027 - nothing to release by default
        """Release what the runner holds; it may not be asked again."""


class InProcessRunner(RobotRunner):
    """Runs a robot in this process on a fresh :class:`RobotGame` copy each move.

    For trusted (built-in) robots: the robot's exception passes through and a move that
    comes back after the budget is discarded (:class:`TimeoutError`); a robot that never
    returns cannot be stopped here (robots found on disk run in a :class:`ProcessRunner`).
    """

    def __init__(self, robot_class: type[Robot]) -> None:
        self.robot_class = robot_class
        self._robot: Robot | None = None

    def reset(self) -> None:
        self._robot = None

    def ask(self, state: GrabState, player: int, budget_s: float | None, stop: Stop) -> Move:
        started = time.perf_counter()
        if self._robot is None:
            self._robot = self.robot_class()
        move: object = self._robot.plan(RobotGame(state, player))
        seconds = time.perf_counter() - started
        if budget_s is not None and seconds > budget_s:
            raise TimeoutError(f"took {seconds:.2f} s, over its {budget_s:.2f} s budget")
        return _clean(move)


@dataclass(eq=False)
class ProcessRunner(RobotRunner):
    """Runs a robot in a child process (the "spawn" start method: never fork a process that
    may hold threads and a GL context), started on the first move.

    The child runs in the robot jail (:mod:`game.logic.workers.jail`: on Linux its own
    namespaces, user, temp folder, limits, Landlock and seccomp; the layers the kernel
    refused are in :attr:`missing`, and said once per process in the log): Ctrl-C is the
    parent's business, its printing is captured (at most
    :data:`~game.logic.workers.confine.OUTPUT_CAP` characters a move come back with the answer, kept
    in :attr:`output`; nothing reaches this process's stdout or stderr) and, where the system
    allows it, its memory is capped at ``memory_mb`` MiB more than it holds once started (a
    robot over it gets a MemoryError and loses that move).

    Each move the state goes over a pipe (pickled, so the child has its own copy) and the move
    comes back as text. An answer that does not come within the budget loses the move: the
    child is killed and a new one (with a new robot instance: its memory is lost) starts on
    the next move; so does a child that died. A robot whose import does not finish within
    ``start_s`` seconds, or whose constructor fails or does not finish within ``construct_s``,
    is disabled: every later move fails at once with :class:`RobotDisabledError` and the same
    reason, and nothing is started again. A choice stopped while the child thinks leaves the
    child running; its late answer is recognised and dropped. Call :meth:`close` when done.
    """

    key: str
    origin: RobotOrigin
    _: KW_ONLY
    memory_mb: int = DEFAULT_MEMORY_MB
    start_s: float = STARTUP_S
    construct_s: float = CONSTRUCT_S
    #: The robot's latest printed lines, oldest first (see :meth:`heard`).
    output: deque[str] = field(
        init=False, repr=False, default_factory=lambda: deque(maxlen=OUTPUT_LINES)
    )
    #: Why the robot is disabled for this game, or None.
    disabled: str | None = field(init=False, default=None)
    #: The layers of the robot sandbox its process lacks, as ``(layer, reason)`` (known once it
    #: has started; see :mod:`game.logic.workers.jail`).
    missing: list[tuple[str, str]] = field(init=False, repr=False, default_factory=list)
    _jail: JailedProcess | None = field(init=False, repr=False, default=None)
    _worker: Worker | None = field(init=False, repr=False, default=None)
    #: The number of the last question, which the answer repeats.
    _asked: int = field(init=False, repr=False, default=0)

    def reset(self) -> None:
        if self._worker is not None and self._alive():
            try:
                self._worker.send(("reset",))
            except WorkerLost:
                self._stop()

    def ask(self, state: GrabState, player: int, budget_s: float | None, stop: Stop) -> Move:
        if self.disabled is not None:
            raise RobotDisabledError(self.disabled)
        if not self._alive():
            problem = self._start()
            if problem is not None:
                self.disabled = f"disabled for this game: {problem}"
                LOG.warning("robot %s: %s", self.key, self.disabled)
                raise RobotDisabledError(self.disabled)
        worker = self._worker
        assert worker is not None
        self._asked += 1
        asked = self._asked
        started = time.perf_counter()
        try:
            worker.send(("plan", asked, state, player))
            reply = self._answer(worker, asked, started, budget_s, stop)
        except WorkerLost as lost:
            why = str(lost) if isinstance(lost, MessageTooLong) else None
            why = why or f"its process ended ({self._exit_code()})"
            self._stop()
            raise RobotError(f"{why}; it restarts on its next move") from None
        seconds = time.perf_counter() - started
        if reply is None:
            self._stop()
            reason = (
                f"did not answer within its {budget_s:.2f} s budget; its process was stopped "
                "and restarts on its next move (its memory is lost)"
            )
            LOG.warning("robot %s: %s", self.key, reason)
            raise TimeoutError(reason)
        self.heard(reply[-1])
        kind = reply[0]
        if kind == "raised":
            raise _robot_exception(reply[2], reply[3])
        if kind == "not a move":
            raise TypeError(reply[2])
        if budget_s is not None and seconds > budget_s:
            raise TimeoutError(f"took {seconds:.2f} s, over its {budget_s:.2f} s budget")
        try:
            return Move.parse(str(reply[2]))
        except GrabMoveError:
            raise TypeError("returned a broken Move") from None

    def heard(self, text: str) -> None:
        """Keep what the robot printed (its last lines in :attr:`output`) and log it."""
        if not text:
            return
        LOG.info("robot %s printed: %s", self.key, text.rstrip())
        for line in text.splitlines():
            self.output.append(line[:200])

    def close(self) -> None:
        self._stop(politely=True)

    @property
    def running(self) -> bool:
        """True while the robot's process is alive."""
        return self._alive()

    def _answer(
        self,
        worker: Worker,
        asked: int,
        started: float,
        budget_s: float | None,
        stop: Stop,
    ) -> tuple[Any, ...] | None:
        """The child's answer to question ``asked``, or None when the budget ran out; late
        answers to earlier questions are dropped. The stop flag is looked at every
        :data:`_POLL_S` seconds while the child thinks."""

        def check() -> None:
            if stop.is_set():
                raise ThinkingStopped("stopped while the robot thought")

        while True:
            left = None
            if budget_s is not None:
                left = budget_s - (time.perf_counter() - started)
                if left <= 0:
                    return None
            if not worker.wait(left, check, every=_POLL_S):
                return None
            reply = _shaped(worker.receive(), answer=True)
            if reply[1] == asked:
                return reply

    def _alive(self) -> bool:
        return self._jail is not None and self._jail.alive

    def _exit_code(self) -> str:
        """How the child ended, in words (it is given a moment to finish dying)."""
        return "no process" if self._jail is None else self._jail.exit_words()

    def _start(self) -> str | None:
        """Start the child and wait until its robot is made; the reason when that failed."""
        self._stop()
        origin = self.origin
        jail = JailedProcess(
            f"robot-{self.key}",
            _robot_main,
            (origin, self.memory_mb),
            self.memory_mb,
            robot_files=(origin.target,) if origin.kind == "file" else (),
        )
        worker = jail.start()
        self._jail, self._worker = jail, worker
        problem = jail.wait_jailed(self.start_s)
        self.missing = jail.missing
        stages = (
            () if problem is not None else (("loaded", self.start_s), ("ready", self.construct_s))
        )
        for stage, seconds in stages:
            try:
                if not worker.wait(seconds):
                    what = "to load" if stage == "loaded" else "for its constructor"
                    problem = f"it did not start: more than {seconds:g} s {what}"
                    break
                reply = _shaped(worker.receive(), answer=False)
            except WorkerLost:
                problem = f"its process ended while starting ({self._exit_code()})"
                break
            except NotPlainData as error:
                problem = f"it did not start: {error}"
                break
            self.heard(reply[-1])
            if reply[0] != stage:
                problem = f"it did not start: {reply[1]}"
                break
        if problem is not None:
            self._stop()
            return problem
        return None

    def _stop(self, politely: bool = False) -> None:
        jail = self._jail
        self._jail = self._worker = None
        if jail is not None:
            jail.stop(politely)


def _robot_main(
    connection: Connection, printed: Captured, origin: RobotOrigin, memory_mb: int
) -> None:  # pragma: no cover
    """The robot process, in its jail (:func:`~game.logic.workers.jail.jailed_main`): load the
    robot, then answer ``plan`` messages until told to stop.

    Start-up messages (after the jail's own): ``("loaded", output)`` once the robot's module
    is imported, then ``("ready", output)`` once the robot is made, or ``("error", reason,
    output)`` instead of either. Answers repeat the question's number and end with what the
    robot printed: ``("move", n, text, output)``, ``("raised", n, type name, message,
    output)`` or ``("not a move", n, reason, output)``.
    """
    try:
        robot_class = origin.load()
    except BaseException as error:
        connection.send(("error", f"importing it {describe_error(error)}", printed.take()))
        return
    connection.send(("loaded", printed.take()))
    try:
        robot = robot_class()
    except BaseException as error:
        connection.send(("error", f"its constructor {describe_error(error)}", printed.take()))
        return
    connection.send(("ready", printed.take()))
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
        _, asked, state, player = message
        reply: tuple[Any, ...]
        try:
            move: object = robot.plan(RobotGame(state, player))
            if type(move) is Move:
                reply = ("move", asked, plain_text(move))
            else:
                reply = ("not a move", asked, _not_a_move(move))
        except BaseException as error:  # SystemExit too: the robot loses its move, not its process
            text = _one_line(error)
            if isinstance(error, MemoryError) and not text:
                text = f"over its memory limit of {memory_mb} MiB"
            reply = ("raised", asked, type(error).__name__, text)
        connection.send((*reply, printed.take()))


# --- Messages from a robot's process ----------------------------------------------------


def _shaped(reply: Any, *, answer: bool) -> tuple[Any, ...]:
    """``reply`` if it has the shape of a start-up message (``answer`` False) or an answer:
    a tuple of text and whole numbers, a kind first, the question's number second (an
    answer) and the printed text last; raises :class:`NotPlainData` otherwise."""
    if (
        isinstance(reply, tuple)
        and 2 + answer <= len(reply) <= 5
        and all(type(item) in (str, int) for item in reply)
        and type(reply[0]) is str
        and type(reply[-1]) is str
        and (not answer or type(reply[1]) is int)
        and all(type(item) is str for item in reply[2 if answer else 1 :])
    ):
        return reply
    raise NotPlainData("its process sent a message of the wrong shape")


# --- Helpers ---------------------------------------------------------------------------------


def describe_error(error: BaseException) -> str:
    """``raised TypeError: text`` on one line, for problems with loading a robot."""
    text = _one_line(error)
    return f"raised {type(error).__name__}: {text}" if text else f"raised {type(error).__name__}"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _not_a_move(value: object) -> str:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"returned {shown}, not a Move"


def _clean(move: object) -> Move:
    """``move`` as a plain Move; the text round trip drops whatever a robot may have done to
    the object (a subclass, odd field types). Raises TypeError for anything else."""
    if type(move) is not Move:
        raise TypeError(_not_a_move(move))
    try:
        return Move.parse(str(move))
    except Exception:
        raise TypeError("returned a broken Move") from None


def _robot_exception(type_name: str, text: str) -> Exception:
    """The exception a robot raised in its process, as this process raises it: the built-in
    type of that name when there is one, so the reason reads as for an in-process robot;
    else a :class:`RobotError` that names the type."""
    kind = getattr(builtins, type_name, None)
    if isinstance(kind, type) and issubclass(kind, Exception):
        with contextlib.suppress(Exception):
            return kind(text)
    return RobotError(f"{type_name}: {text}" if text else type_name)


__all__ = [
    "CONSTRUCT_S",
    "DEFAULT_BUDGET_S",
    "DEFAULT_MEMORY_MB",
    "STARTUP_S",
    "InProcessRunner",
    "ProcessRunner",
    "RobotAgent",
    "RobotDisabledError",
    "RobotError",
    "RobotRunner",
    "describe_error",
]
