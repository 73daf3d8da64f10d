"""A match: one game played from its start by people and agents, with its record.

The :class:`Match` owns what every game's window needs and no game should write again: the
seats (a person, or an :class:`~game.logic.contract.Agent`), the record of steps, undo, redo and a
jump to any point of the record, actions the game forces (a pass with no other move), a seat
that loses its turn when its agent fails (where the game has that rule), thinking in the
background, and the hint. It never touches a window; a controller calls :meth:`Match.poll`
once a frame and animates the steps it returns.

Thinking runs on a worker thread when the match is made with ``background=True`` (compiled
search kernels release the interpreter lock; robots in processes wait on a pipe). Undo, redo,
jump, restart and :meth:`Match.close` set the thinker's stop flag and drop what it returns.
Without ``background`` a poll thinks in place: tests and tournaments stay deterministic.

>>> from game.logic.contract import Game
>>> class Count(Game):  # a tiny game: say 1 or 2, the one who reaches 4 wins
...     id, seats, returns_sum = "count", 2, 0.0
...     def initial_state(self, rng): return CountState(0, 0)
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class CountState:
...     total: int
...     seat: int
...     def current_player(self): return -4 if self.is_terminal() else self.seat
...     def legal_actions(self): return [] if self.is_terminal() else [1, 2]
...     def apply(self, a): return CountState(self.total + a, 1 - self.seat)
...     def is_terminal(self): return self.total >= 4
...     def returns(self):
...         if not self.is_terminal(): return (0.0, 0.0)
...         return (-1.0, 1.0) if self.seat == 0 else (1.0, -1.0)
...     def key(self): return (self.total, self.seat)
...     def action_text(self, a): return str(a)
...     def parse_action(self, t): return int(t)
...     def chance_outcomes(self): return []
...     def observation(self, seat): return self.key()
>>> match = Match(Count(), [None, None])
>>> step = match.play(2)
>>> match.play(1).text, match.state.total
('1', 3)
>>> match.undo(); match.state.total, match.can_redo()
(2, True)
>>> match.redo()
>>> match.play_text("1").seat, match.over, match.state.returns()
(0, True, (1.0, -1.0))
"""

from __future__ import annotations

import concurrent.futures
import logging
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any, Generic, TypeVar

from game.logic.contract import (
    CHANCE,
    Agent,
    Game,
    IllegalActionError,
    Limits,
    State,
    Stop,
    ThinkingStopped,
    explain,
    sample_chance,
)
from game.logic.match_steps import Hint, MatchError, ReplayError, Step
from game.logic.thinking import Job, SeatSeconds, choose, describe, text_of

__all__ = ["Hint", "Match", "MatchError", "ReplayError", "Step"]

LOG = logging.getLogger(__name__)

A = TypeVar("A", bound=Hashable)


class Match(Generic[A]):
    """One game from its start; see the module docstring.

    ``seats[i]`` is the agent that plays seat i, or None for a person. ``hint_agent`` answers
    :meth:`hint` (default: the first agent seated, else None). ``limits`` bound every choice.
    """

    def __init__(
        self,
        game: Game[A],
        seats: Sequence[Agent[A] | None],
        *,
        seed: int | None = None,
        limits: Limits | None = None,
        hint_agent: Agent[A] | None = None,
        background: bool = False,
        start: State[A] | None = None,
    ) -> None:
        if len(seats) != game.seats:
            raise MatchError(f"{game.id or 'the game'} has {game.seats} seats, not {len(seats)}")
        self.game = game
        self.seats: list[Agent[A] | None] = list(seats)
        self.seed = random.randrange(2**31) if seed is None else seed
        self.limits = limits or Limits(time=1.0)
        self.hint_agent = hint_agent or next((a for a in self.seats if a is not None), None)
        self.background = background
        self.paused = False  # agents wait (a person watching steps through, options open)
        self.hint_result: Hint | None = None
        self.seconds: list[SeatSeconds] = [SeatSeconds() for _ in self.seats]
        self.on_step: Callable[[Step], None] | None = None
        self._start = start
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._generation = 0
        self._lost: dict[int, str] = {}  # the last reason each seat lost a turn for
        self._job: Job | None = None
        self._hint_job: Job | None = None
        self._begin()

    # -- what is there ----------------------------------------------------------------------

    @property
    def state(self) -> State[A]:
        """The position at the current point of the record."""
        return self._states[self._cursor]

    @property
    def record(self) -> list[Step]:
        """The steps up to the current point (redo steps left out)."""
        return self._steps[: self._cursor]

    @property
    def full_record(self) -> list[Step]:
        """Every step, the ones undone (that redo would replay) included."""
        return list(self._steps)

    @property
    def cursor(self) -> int:
        """How many steps of the record lead to the current state."""
        return self._cursor

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    def to_move(self) -> int:
        return self.state.current_player()

    def agent_to_move(self) -> Agent[A] | None:
        seat = self.to_move()
        return self.seats[seat] if 0 <= seat < len(self.seats) else None

    def person_to_move(self) -> bool:
        seat = self.to_move()
        return 0 <= seat < len(self.seats) and self.seats[seat] is None

    def has_person(self) -> bool:
        return any(agent is None for agent in self.seats)

    def thinking(self) -> bool:
        """Whether an agent is choosing a move now."""
        return self._job is not None

    def hinting(self) -> bool:
        return self._hint_job is not None

    def state_at(self, index: int) -> State[A]:
        return self._states[index]

    def can_undo(self) -> bool:
        return self._undo_target() is not None

    def can_redo(self) -> bool:
        return self._cursor < len(self._steps)

    def actions(self) -> list[A]:
        """The actions of the record up to the current point, forfeits left out."""
        return [s.action for s in self.record if s.forfeit is None]

    def transcript(self) -> str:
        """The record as action texts separated by spaces (forfeits as ``-``)."""
        return " ".join("-" if s.forfeit is not None else s.text for s in self.record)

    # -- acting -----------------------------------------------------------------------------

    def play(self, action: A, *, detail: str = "") -> Step:
        """A person's action for the seat to move; raises :class:`IllegalActionError` (the
        game's own ValueError) when it is not legal and :class:`MatchError` on an agent's
        turn. Drops the redo steps, then plays any forced actions that follow. ``detail``
        goes with the step (:attr:`Step.detail`)."""
        seat = self.to_move()
        if not 0 <= seat < len(self.seats):
            raise MatchError("the game is over" if self.over else "it is not a seat's turn")
        if self.seats[seat] is not None:
            raise MatchError(f"it is {self.game.seat_name(seat)}'s turn, not yours")
        return self._push_action(seat, action, detail)

    def play_text(self, text: str) -> Step:
        """:meth:`play` the action written as ``text`` (the game's notation)."""
        return self.play(self.state.parse_action(text))

    def play_any(self, action: A) -> Step:
        """Play ``action`` for whoever is to move, agent or person (scripts, replays)."""
        seat = self.to_move()
        if self.over:
            raise MatchError("the game is over")
        return self._push_action(seat, action)

    def undo(self, *, to_person: bool = True) -> None:
        """Back one step; with ``to_person`` (and a person seated) back to the last point
        where a person was to move. Thinking and hints are cancelled."""
        target = self._undo_target(to_person=to_person)
        if target is None:
            raise MatchError("nothing to undo")
        self._goto(target)

    def redo(self, *, to_person: bool = True) -> None:
        """Forward one step; with ``to_person`` (and a person seated) on to the next point
        where a person is to move or the game ends."""
        if not self.can_redo():
            raise MatchError("nothing to redo")
        target = self._cursor + 1
        if to_person and self.has_person():
            while target < len(self._steps) and not self._person_at(target):
                target += 1
        self._goto(target)

    def jump(self, index: int) -> None:
        """Go to the point after ``index`` steps of the record (0: the start)."""
        if not 0 <= index <= len(self._steps):
            raise MatchError(f"no point {index} in a record of {len(self._steps)} steps")
        self._goto(index)

    def restart(self, seed: int | None = None, *, start: State[A] | None = None) -> None:
        """A new game: the same seed unless one is given (a replay of the same deal/map)."""
        self._cancel()
        if seed is not None:
            self.seed = seed
        if start is not None:
            self._start = start
        self._begin()

    def replay(self, steps: Sequence[Step], cursor: int | None = None) -> None:
        """Start again from the seed and play ``steps`` as recorded (a saved game), each
        action read back from its text, forced steps, chance outcomes and lost turns
        included, then go to the point after ``cursor`` steps (default: the last). Nothing
        thinks meanwhile and :attr:`on_step` is not called. Raises :class:`ReplayError`
        naming the first step that does not fit; the match is then at its start."""
        self.restart()
        hook, self.on_step = self.on_step, None
        try:
            for number, step in enumerate(steps, 1):
                self._replay_step(number, step)
            if len(self._steps) != len(steps):
                raise ReplayError(
                    f"the record ends after step {len(steps)}, but the game plays on by itself"
                )
            end = len(steps) if cursor is None else cursor
            if not 0 <= end <= len(steps):
                raise ReplayError(f"no point {end} in a record of {len(steps)} steps")
        except (ValueError, TypeError, KeyError) as exc:
            self.restart()
            if isinstance(exc, ReplayError):
                raise
            raise ReplayError(str(exc)) from None
        finally:
            self.on_step = hook
        self._goto(end)

    def set_seat(self, seat: int, agent: Agent[A] | None) -> None:
        """Give ``seat`` to ``agent`` (None: a person); thinking for it starts on the next poll."""
        self._cancel()
        self.seats[seat] = agent
        if self.hint_agent is None:
            self.hint_agent = agent

    def hint(self) -> None:
        """Ask the hint agent for the current state; :attr:`hint_result` holds the answer when
        a poll collects it (at once without ``background``)."""
        if self.hint_agent is None:
            raise MatchError("this game has no hint")
        if self.over:
            raise MatchError("the game is over")
        if self.state.current_player() < 0:
            raise MatchError("there is nothing to choose here")
        key = self.state.key()
        if self.hint_result is not None and self.hint_result.key == key:
            return
        if self._hint_job is not None:
            return
        self._hint_job = self._start_job("hint", self.to_move(), self.hint_agent)
        self._finish_hint()

    def current_hint(self) -> Hint | None:
        """The hint for the current state, if one has been found."""
        hint = self.hint_result
        return hint if hint is not None and hint.key == self.state.key() else None

    def poll(self, *, apply: bool = True, limit: int | None = None) -> list[Step]:
        """Collect finished thinking and start what is due; returns the steps played (at
        most ``limit`` agent moves, when given).

        With ``apply`` False (the controller is still animating) an agent's choice waits;
        thinking may start. Plays forced actions and chance outcomes as they come.
        """
        self._finish_hint()
        played: list[Step] = []
        while True:
            if self.over:
                return played
            seat = self.to_move()
            if seat == CHANCE:
                if not apply:
                    return played
                action = sample_chance(self.state, self._rng)
                played.append(self._push(seat, action, forced=True))
                continue
            if not 0 <= seat < len(self.seats):
                return played
            agent = self.seats[seat]
            if agent is None or self.paused:
                return played
            if self._job is None:
                self._job = self._start_job("move", seat, agent)
            job = self._job
            if not self._ready(job) or not apply:
                return played
            self._job = None
            played.append(self._collect(job))
            if limit is not None and len(played) >= limit:
                return played

    def run(self, max_steps: int | None = None) -> list[Step]:
        """Let the agents play (in place) until a person is to move, the game ends or
        ``max_steps`` were played; raises :class:`MatchError` in a background match."""
        if self.background:
            raise MatchError("run() thinks in place; this match thinks in the background")
        played: list[Step] = []
        while not self.over and (max_steps is None or len(played) < max_steps):
            left = None if max_steps is None else max_steps - len(played)
            new = self.poll(limit=left)
            if not new:
                break
            played.extend(new)
        return played

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current thinking (if any) is done; False on timeout."""
        job = self._job or self._hint_job
        if job is None or job.future is None:
            return True
        done, _ = concurrent.futures.wait([job.future], timeout=timeout)
        return bool(done)

    def returns(self) -> tuple[float, ...]:
        return self.state.returns()

    def result_text(self) -> str:
        return self.game.result_text(self.state) if self.over else ""

    def close(self) -> None:
        """Stop thinking and release the worker thread."""
        self._cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        for agent in {id(a): a for a in self.seats if a is not None}.values():
            closer = getattr(agent, "close", None)
            if callable(closer):
                closer()

    def __enter__(self) -> Match[A]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the inside -------------------------------------------------------------------------

    def _begin(self) -> None:
        self._rng = random.Random(self.seed)
        self._agent_rng = random.Random(self.seed ^ 0x5EED)
        start = self._start if self._start is not None else self.game.initial_state(self._rng)
        self._states: list[State[A]] = [start]
        self._steps: list[Step] = []
        self._cursor = 0
        self.hint_result = None
        self._play_forced()

    def _push_action(self, seat: int, action: A, detail: str = "") -> Step:
        """Apply ``action`` once: the rules' refusal comes back as an
        :class:`IllegalActionError` that carries their reason."""
        before = self.state
        try:
            step = self._push(seat, action, detail=detail)
        except ValueError as exc:  # the rules' refusal, in their words
            raise IllegalActionError(
                str(exc), action=text_of(before, action), reason=str(exc)
            ) from exc
        except (TypeError, KeyError, AttributeError):
            # Not an action of this game at all (a caller's wrong type): refused alike,
            # unless it is legal, where the failure is the rules' bug and propagates.
            if action in before.legal_actions():
                raise
            text = text_of(before, action)
            raise IllegalActionError(
                f"{text} is not legal now", action=text, reason="not an action of this game"
            ) from None
        self._play_forced()
        return step

    def _push(
        self,
        seat: int,
        action: A,
        *,
        forced: bool = False,
        seconds: float = 0.0,
        note: str = "",
        detail: str = "",
    ) -> Step:
        state = self.state
        new = state.apply(action)
        step = Step(seat, action, state.action_text(action), forced, None, seconds, note, detail)
        self._append(step, new)
        return step

    def _append(self, step: Step, new: State[A]) -> None:
        self._cancel()
        del self._states[self._cursor + 1 :]
        del self._steps[self._cursor :]
        self._states.append(new)
        self._steps.append(step)
        self._cursor += 1
        if self.on_step is not None:
            self.on_step(step)

    def _play_forced(self) -> None:
        while not self.over:
            seat = self.to_move()
            if seat < 0:
                return
            action = self.game.forced_action(self.state)
            if action is None:
                return
            self._push(seat, action, forced=True)

    def _replay_step(self, number: int, step: Step) -> None:
        """Step ``number`` of a record being replayed: checked against the one the game
        played by itself there (a forced action), or played as recorded."""
        where = f"step {number} ({step.text!r})"
        if number <= len(self._steps):  # played by itself already: it must be this one
            done = self._steps[number - 1]
            if (done.seat, done.text) != (step.seat, step.text):
                raise ReplayError(f"{where}: the game played {done.text!r} by itself there")
            return
        state = self.state
        if state.is_terminal():
            raise ReplayError(f"{where}: the game is over by then")
        if step.seat != state.current_player():
            raise ReplayError(f"{where}: seat {step.seat} acts, but it is not its turn")
        if step.forfeit is not None:
            try:  # what the failing agent sent, when it reads as an action at all
                action: Any = state.parse_action(step.text)
            except (ValueError, TypeError, KeyError):
                action = None
            forfeited = self.game.forfeit(state, action, step.forfeit)
            if forfeited is None:
                raise ReplayError(f"{where}: this game has no lost turns")
            self._append(replace(step, action=action), forfeited)
        else:
            try:
                action = state.parse_action(step.text)
            except (ValueError, TypeError, KeyError) as exc:
                raise ReplayError(f"{where}: {exc}") from None
            if step.seat == CHANCE:
                legal = [a for a, _ in state.chance_outcomes()]
            else:
                legal = list(state.legal_actions())
            if action not in legal:
                raise ReplayError(f"{where}: not a legal action there")
            self._push(
                step.seat,
                action,
                forced=step.forced,
                seconds=step.seconds,
                note=step.note,
                detail=step.detail,
            )
        self._play_forced()

    def _start_job(self, purpose: str, seat: int, agent: Any) -> Job:
        job = Job(self._generation, purpose, seat, agent, self.state, Stop(), time.perf_counter())
        rng = random.Random(self._agent_rng.getrandbits(64))
        if self.background:
            if self._executor is None:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=2, thread_name_prefix="gamehall-think"
                )
            job.future = self._executor.submit(choose, agent, job.state, self.limits, rng, job.stop)
        else:
            job.done = choose(agent, job.state, self.limits, rng, job.stop)
        return job

    def _ready(self, job: Job) -> bool:
        if job.done is None and job.future is not None and job.future.done():
            job.done = job.future.result()
        return job.done is not None

    def _collect(self, job: Job) -> Step:
        assert job.done is not None
        action, error, seconds = job.done
        self.seconds[job.seat].moves.append(seconds)
        note = explain(job.agent)
        reason: str | None = None
        if error is not None:
            reason = f"{job.agent.name}: {describe(error)}"
        else:
            try:
                step = self._push(job.seat, action, seconds=seconds, note=note)
            except (ValueError, TypeError, KeyError, AttributeError):
                reason = f"{job.agent.name}: {text_of(self.state, action)} is not legal now"
            else:
                self._play_forced()
                return step
        # Said once while it repeats: a seat whose agent is disabled loses every turn alike.
        level = logging.DEBUG if self._lost.get(job.seat) == reason else logging.WARNING
        self._lost[job.seat] = reason
        LOG.log(level, "%s loses its turn: %s", self.game.seat_name(job.seat), reason)
        forfeited = self.game.forfeit(self.state, action, reason)
        if forfeited is None:
            self.paused = True  # the game has no rule for it: wait for a person to act
            raise MatchError(reason)
        step = Step(job.seat, action, text_of(self.state, action), False, reason, seconds, note)
        self._append(step, forfeited)
        self._play_forced()
        return step

    def _finish_hint(self) -> None:
        job = self._hint_job
        if job is None or not self._ready(job):
            return
        self._hint_job = None
        action, error, _ = job.done  # type: ignore[misc]
        if job.generation != self._generation or error is not None:
            if error is not None and not isinstance(error, ThinkingStopped):
                LOG.warning("the hint failed: %s", describe(error))
            return
        self.hint_result = Hint(
            job.state.key(), action, text_of(job.state, action), explain(job.agent)
        )

    def _cancel(self) -> None:
        self._generation += 1
        for job in (self._job, self._hint_job):
            if job is not None:
                job.stop.set()
        self._job = None
        self._hint_job = None

    def _goto(self, index: int) -> None:
        self._cancel()
        self._cursor = index

    def _person_at(self, index: int) -> bool:
        seat = self._states[index].current_player()
        return 0 <= seat < len(self.seats) and self.seats[seat] is None

    def _undo_target(self, *, to_person: bool = True) -> int | None:
        target = self._cursor
        while target > 0:
            target -= 1
            if self._steps[target].forced:
                continue
            if not (to_person and self.has_person()) or self._person_at(target):
                return target
        return None
