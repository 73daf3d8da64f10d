"""The game contract: what every game's state, every game and every computer player offer.

A :class:`Game` makes states (``initial_state(rng)``); a :class:`State` says whose turn it is,
which actions are legal (in a fixed order), what a given action leads to (a new state; the old
one is unchanged), whether the game is over and what each seat scored. Actions have a text
form that reads back (``action_text`` / ``parse_action``): saved games, ``gamehall shot --do``,
move lists and the command line all use it.

Chance (a deal, a dice roll) is a state whose ``current_player()`` is :data:`CHANCE`; its
``chance_outcomes()`` lists the actions with their probabilities. Hidden information is what
``observation(seat)`` leaves out. An :class:`Agent` chooses an action for the seat to move;
the hint is the same agent the computer plays with.

>>> from game.logic.contract import Limits, Stop
>>> Limits(time=0.5).time
0.5
>>> stop = Stop()
>>> stop.is_set(), stop.set(), stop.is_set()
(False, None, True)
"""

from __future__ import annotations

import abc
import math
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = [
    "CHANCE",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_TIME",
    "TERMINAL",
    "Agent",
    "Game",
    "GameError",
    "IllegalActionError",
    "Limits",
    "LimitsError",
    "NotationError",
    "State",
    "Stop",
    "ThinkingStopped",
    "explain",
    "sample_chance",
]

#: ``current_player()`` of a state where chance acts (a deal, a roll).
CHANCE: Final = -1
#: ``current_player()`` of a finished game.
TERMINAL: Final = -4
#: The caps of :class:`Limits`: an hour a choice, a thousand plies, 10**12 positions.
MAX_TIME: Final = 3600.0
MAX_DEPTH: Final = 1000
MAX_NODES: Final = 10**12

A = TypeVar("A", bound=Hashable)


class GameError(ValueError):
    """Something a game refuses: an illegal action, text that is not an action."""


class IllegalActionError(GameError):
    """An action that is not legal in the state it was applied to; the state is unchanged.

    ``reason`` is the rules' own words for the refusal (the message, unless given apart) and
    ``action`` the action's text where the refusing code knows it (:meth:`Match.play
    <game.logic.match.Match.play>` fills both in).
    """

    def __init__(self, message: str, *, action: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason or message


class NotationError(GameError):
    """Text that does not name an action of the game."""


class LimitsError(ValueError):
    """A thinking limit that is not a finite positive number."""


class ThinkingStopped(Exception):
    """Raised by an agent that noticed its :class:`Stop` flag and gave up."""


@runtime_checkable
class State(Protocol[A]):
    """One position of a game. Implementations are immutable or behave as if they were."""

    def current_player(self) -> int:
        """The seat to act (0, 1, ...), :data:`CHANCE`, or :data:`TERMINAL` once over."""
        ...

    def legal_actions(self) -> Sequence[A]:
        """Every legal action, in the same order every time; empty once the game is over."""
        ...

    def apply(self, action: A) -> State[A]:
        """The state after ``action``; raises :class:`IllegalActionError` (or a subclass of
        ``ValueError`` of the game's own) when it is not legal. ``self`` is unchanged."""
        ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, ...]:
        """One number per seat: the result once the game is over, 0 for each seat before."""
        ...

    def key(self) -> Hashable:
        """Equal for equal positions (whatever the route), hashable."""
        ...

    def action_text(self, action: A) -> str:
        """The action's notation; ``parse_action`` reads it back to an equal action."""
        ...

    def parse_action(self, text: str) -> A:
        """The action ``text`` names in this state; raises :class:`NotationError` (or a
        ``ValueError`` of the game's own) for text that names none."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """At a chance node: each outcome with its probability (they sum to 1); else empty."""
        ...

    def observation(self, seat: int) -> Hashable:
        """What ``seat`` may see of this state; for a game with nothing hidden, the key."""
        ...


class Game(abc.ABC, Generic[A]):
    """A game with its options fixed: it makes initial states and says how results add up.

    Subclasses set ``id`` (the registry's and the command line's name), ``title`` and
    ``seats`` and implement :meth:`initial_state`. ``options`` holds the option values the
    game was made with (validated by the game's options schema).
    """

    id: str = ""
    title: str = ""
    seats: int = 1
    #: What ``returns()`` of every finished game adds up to; None when it is not constant
    #: (a one-seat puzzle scores +1 or -1).
    returns_sum: float | None = None
    #: Whether chance deals what the players must not see (Cluedo's envelope): a kept game's
    #: file then holds its chance steps sealed, not as readable text (:mod:`game.logic.saved`).
    hidden_chance: bool = False

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options: dict[str, Any] = dict(options or {})

    @abc.abstractmethod
    def initial_state(self, rng: random.Random) -> State[A]:
        """The position a game starts from; any randomness is drawn from ``rng``."""

    def forced_action(self, state: State[A]) -> A | None:
        """An action the match plays by itself for whoever is to move (a forced pass), if any."""
        return None

    def stand_in(self, view: Any, seat: int, rng: random.Random) -> State[A] | None:
        """A state made from what ``seat`` may know alone, for a window that plays a hiding
        match on a server: ``view`` is ``observation(seat)`` of the true state as plain JSON
        values (objects for dataclasses and named tuples, lists for tuples and sets, enums
        by name). The state's ``observation(seat)`` equals the one ``view`` came from, its
        legal actions for ``seat`` are the true ones, and whatever else it holds (the others'
        cards, a concealed piece's type) is drawn with ``rng`` to agree with the view: it
        stands in for the true state, and what it invents must never be shown. None: the
        game cannot make one (the default)."""
        return None

    def forfeit(self, state: State[A], action: object, reason: str) -> State[A] | None:
        """The state after the seat to move lost its turn (its agent failed or sent an illegal
        ``action``), or None when the game has no such rule and the agent's error stands."""
        return None

    def tournament_start(self, rng: random.Random) -> State[A]:
        """The start of a game between agents (tournaments): varied with ``rng`` where the
        game's own start never changes (Reversi plays a few random opening moves), so agents
        that choose deterministically still meet different positions. Default: the start."""
        return self.initial_state(rng)

    def unfinished_returns(self, state: State[A]) -> tuple[float, ...] | None:
        """The result of a game stopped before its end (a tournament's step cap) by the
        game's own rule (MasterGrab ranks the players), or None: no rule, it counts a draw."""
        return None

    def step_cap(self) -> int | None:
        """Agent moves after which a game between agents (a tournament's) is stopped, for a
        game that may never end (MasterGrab's robots can trade countries forever); None:
        the tournament runner's own, generous cap."""
        return None

    def result_text(self, state: State[A]) -> str:
        """A short sentence about the result of a finished game, for banners and logs."""
        scores = state.returns()
        best = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == best]
        if len(winners) == len(scores):
            return "a draw"
        return " and ".join(f"seat {seat}" for seat in winners) + " won"

    def seat_name(self, seat: int) -> str:
        """The seat's name in the game's own words (Black, White, You, Robot 2)."""
        return f"seat {seat}"

    def ready_engine(self) -> str:
        """Start readying, in a worker process, a faster engine the game's searches use once it
        is ready (they play on without it meanwhile); calling again starts nothing more. Says
        how far it got, for the window's banner (``"Compiling the rules (first start only):
        40%"``); "" when nothing is under way. Default: the game has no such engine."""
        return ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"


@dataclass(frozen=True, slots=True)
class Limits:
    """How long an agent may think: seconds, plies, positions. None: no limit of that kind.

    Raises :class:`LimitsError` for a value that is not finite and positive, or above its
    cap (:data:`MAX_TIME`, :data:`MAX_DEPTH`, :data:`MAX_NODES`: a limit beyond them is a
    mistake that would think for ever).
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        for name, cap in (("time", MAX_TIME), ("depth", MAX_DEPTH), ("nodes", MAX_NODES)):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise LimitsError(f"{name} must be a number, not {value!r}")
            if not math.isfinite(value) or value <= 0:
                raise LimitsError(f"{name} must be finite and positive, not {value!r}")
            if value > cap:
                raise LimitsError(f"{name} must be at most {cap:g}, not {value:g}")


@dataclass(eq=False)
class Stop:
    """A flag a thinking agent checks; set it to make the agent give up soon.

    It lives in a one-byte numpy array so compiled search kernels can read it too.
    """

    flag: npt.NDArray[np.uint8] = field(default_factory=lambda: np.zeros(1, dtype=np.uint8))

    def set(self) -> None:
        self.flag[0] = 1

    def is_set(self) -> bool:
        return bool(self.flag[0])

    def check(self) -> None:
        """Raise :class:`ThinkingStopped` if the flag is set."""
        if self.flag[0]:
            raise ThinkingStopped("stopped")


class Agent(Protocol[A]):
    """A computer player: a name, one line about it, and a way to choose an action.

    ``choose`` raises ``ValueError`` for a state with no choice to make (over, chance) and
    :class:`ThinkingStopped` when ``stop`` was set while it thought. It may set what
    :func:`explain` reports about its last choice.
    """

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def choose(self, state: State[A], limits: Limits, rng: random.Random, stop: Stop) -> A: ...


def explain(agent: object) -> str:
    """What the agent says about its last choice (its optional ``explain()``), or ""."""
    method = getattr(agent, "explain", None)
    return str(method()) if callable(method) else ""


def sample_chance(state: State[A], rng: random.Random) -> A:
    """One outcome of a chance node, drawn with its probability."""
    outcomes = list(state.chance_outcomes())
    if not outcomes:
        raise GameError("not a chance node: there are no chance outcomes")
    actions = [action for action, _ in outcomes]
    weights = [p for _, p in outcomes]
    return rng.choices(actions, weights=weights, k=1)[0]
