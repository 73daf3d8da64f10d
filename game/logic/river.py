"""Priests and Devils: the rules, the judge and the optimal hint (spec ``priests_devils.md``).

Two levels describe a game. :class:`RiverState` is what the player sees, click by click: who
stands ashore on each bank, who sits in the boat, and where the boat is docked. A
:class:`Crossing` is a node of the state graph: the priests and devils on the left side and the
boat's side. Both use the same counting rule (spec 2.1 rule 3): passengers count for the bank
where the boat is docked. Boarding and unboarding therefore never change the counts and never
lose a game; only a crossing can. The win (spec 2.1 rule 5) needs everyone *ashore* on the right
bank, so it comes with the last passenger stepping off there: judge after every action, or at
least after each landing and each unboarding.

>>> state = RiverState.start(Rules())
>>> puzzle = RiverPuzzle(state.rules)
>>> puzzle.optimal_crossings(), [str(load) for load in puzzle.hint(state).loads]
(11, ['2 devils', '1 priest + 1 devil'])
>>> [str(action) for action in puzzle.plan(state)]
['board:devil', 'board:devil', 'boat']
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

from game.logic.search import StateGraph

__all__ = [
    "MAX_CAPACITY",
    "MAX_CHARACTERS",
    "Action",
    "Board",
    "Cross",
    "Crossing",
    "Hint",
    "IllegalMoveError",
    "InvalidActionError",
    "Kind",
    "Load",
    "NoSolutionError",
    "Outcome",
    "RiverError",
    "RiverPuzzle",
    "RiverSettingError",
    "RiverState",
    "Rules",
    "Side",
    "Unboard",
    "Verdict",
    "parse_action",
]

MAX_CHARACTERS = 200
"""The most priests (and, separately, devils) a game may have."""

MAX_CAPACITY = 12
"""The most seats a boat may have."""


class RiverError(ValueError):
    """Base class for the errors of this module."""


class RiverSettingError(RiverError):
    """Options that are out of range, start lost, or cannot be solved; or a state that does
    not fit its rules."""


class IllegalMoveError(RiverError):
    """An action that is not legal in the current state; the message says why."""


class InvalidActionError(IllegalMoveError):
    """Text that names no action (see :func:`parse_action`)."""


class NoSolutionError(RiverError):
    """A solution was asked for from a state that has none (lost, or no way across)."""


class Side(enum.Enum):
    """A bank of the river; the game starts on the left."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Side:
        """The opposite bank."""
        return Side.RIGHT if self is Side.LEFT else Side.LEFT


class Kind(enum.Enum):
    """What a character is."""

    PRIEST = "priest"
    DEVIL = "devil"


class Outcome(enum.Enum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class Load(NamedTuple):
    """A number of priests and devils: a boat load, or the people on a bank.

    >>> str(Load(1, 1)), str(Load(2, 0)), Load(0, 2).size
    ('1 priest + 1 devil', '2 priests', 2)
    """

    priests: int
    devils: int

    @property
    def size(self) -> int:
        """How many people in all."""
        return self.priests + self.devils

    def __str__(self) -> str:
        parts = [_people(n, kind) for n, kind in zip(self, Kind, strict=True) if n]
        return " + ".join(parts) if parts else "nobody"


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of a game: team sizes and boat seats.

    Raises :class:`RiverSettingError` naming the value when a count is out of range (0 to
    :data:`MAX_CHARACTERS` of each kind, at least one person, 1 to :data:`MAX_CAPACITY` seats)
    or when the start would already be lost (more devils than priests, with priests present).
    Rules that are valid may still have no solution: see :meth:`RiverPuzzle.check`.
    """

    priests: int = 3
    devils: int = 3
    capacity: int = 2

    def __post_init__(self) -> None:
        _check_count("priests", self.priests, 0, MAX_CHARACTERS)
        _check_count("devils", self.devils, 0, MAX_CHARACTERS)
        _check_count("capacity", self.capacity, 1, MAX_CAPACITY)
        if self.priests + self.devils == 0:
            raise RiverSettingError("a game needs at least one priest or devil, got none")
        if self.devils > self.priests > 0:
            raise RiverSettingError(
                f"devils={self.devils} outnumber priests={self.priests}: the start would be lost"
            )

    @property
    def start_load(self) -> Load:
        """Everyone: the people ashore on the left bank at the start."""
        return Load(self.priests, self.devils)

    def key(self) -> str:
        """The text form ``"priests/devils/capacity"``, e.g. ``"3/3/2"``."""
        return f"{self.priests}/{self.devils}/{self.capacity}"

    @classmethod
    def from_key(cls, text: str) -> Rules:
        """Read the form :meth:`key` writes; raises :class:`RiverSettingError` on bad text.

        >>> Rules.from_key("5/4/2")
        Rules(priests=5, devils=4, capacity=2)
        """
        parts = text.strip().split("/")
        if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
            raise RiverSettingError(f"rules must look like 'priests/devils/capacity', got {text!r}")
        priests, devils, capacity = (int(part) for part in parts)
        return cls(priests, devils, capacity)


@dataclass(frozen=True, slots=True)
class Crossing:
    """A node of the state graph: who is on the left side, and where the boat is.

    The counts include passengers while the boat is docked on the left. The right side holds
    the rest of the rules' people.

    >>> str(Crossing(3, 3, Side.LEFT))
    '3P3D|L'
    """

    left_priests: int
    left_devils: int
    boat: Side

    def __post_init__(self) -> None:
        if self.left_priests < 0 or self.left_devils < 0:
            raise RiverSettingError(
                f"a crossing needs counts of at least 0, got {self.left_priests} priests "
                f"and {self.left_devils} devils"
            )

    def __str__(self) -> str:
        side = "L" if self.boat is Side.LEFT else "R"
        return f"{self.left_priests}P{self.left_devils}D|{side}"

    def key(self) -> tuple[int, int, str]:
        """A plain hashable form: ``(left_priests, left_devils, boat side value)``."""
        return (self.left_priests, self.left_devils, self.boat.value)

    def after(self, load: Load) -> Crossing:
        """The node reached by rowing ``load`` across (no safety or capacity check).

        >>> str(Crossing(3, 3, Side.LEFT).after(Load(1, 1)))
        '2P2D|R'
        """
        sign = -1 if self.boat is Side.LEFT else 1
        return Crossing(
            self.left_priests + sign * load.priests,
            self.left_devils + sign * load.devils,
            self.boat.other,
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's answer: the outcome, and for a win or loss the bank and its counts.

    While playing, ``side`` is ``None``, the counts are 0 and the message is empty.
    """

    outcome: Outcome
    side: Side | None
    priests: int
    devils: int
    message: str

    def __str__(self) -> str:
        return self.message or self.outcome.value


@dataclass(frozen=True, slots=True)
class Board:
    """Put one character of ``kind``, ashore where the boat is docked, into the boat."""

    kind: Kind

    def __str__(self) -> str:
        return f"board:{self.kind.value}"


@dataclass(frozen=True, slots=True)
class Unboard:
    """Put one passenger of ``kind`` ashore on the bank where the boat is docked."""

    kind: Kind

    def __str__(self) -> str:
        return f"unboard:{self.kind.value}"


@dataclass(frozen=True, slots=True)
class Cross:
    """Row the boat, with its passengers, to the other bank."""

    def __str__(self) -> str:
        return "boat"


Action: TypeAlias = Board | Unboard | Cross


def parse_action(text: str) -> Action:
    """Read an action from the text ``str(action)`` gives; case and outer spaces are ignored.

    Raises :class:`InvalidActionError` (an :class:`IllegalMoveError`) for any other text.

    >>> parse_action(" Board:Priest "), parse_action("boat")
    (Board(kind=<Kind.PRIEST: 'priest'>), Cross())
    """
    action = _ACTIONS_BY_TEXT.get(text.strip().lower())
    if action is None:
        raise InvalidActionError(
            f"unknown action {text!r}; expected one of {', '.join(_ACTIONS_BY_TEXT)}"
        )
    return action


@dataclass(frozen=True, slots=True)
class RiverState:
    """What the player sees: who is ashore on each bank, who is in the boat, and where it is.

    ``left`` and ``right`` count the characters standing ashore; ``boat`` counts passengers;
    ``crossings`` counts the trips made so far. Plain ``(priests, devils)`` tuples are accepted
    and stored as :class:`Load`. Raises :class:`RiverSettingError` when the counts do not add
    up to the rules' teams or the boat holds more than its seats. A state may be lost; it
    just accepts no more actions.
    """

    rules: Rules
    left: Load
    right: Load
    boat: Load
    boat_side: Side
    crossings: int = 0

    def __post_init__(self) -> None:
        for name in ("left", "right", "boat"):
            load = Load(*getattr(self, name))
            if load.priests < 0 or load.devils < 0:
                raise RiverSettingError(f"{name} must not be negative, got {tuple(load)}")
            object.__setattr__(self, name, load)  # frozen: the documented way to normalise
        total = Load(
            self.left.priests + self.right.priests + self.boat.priests,
            self.left.devils + self.right.devils + self.boat.devils,
        )
        if total != self.rules.start_load:
            raise RiverSettingError(
                f"the state holds {total}, the rules {self.rules.key()} need "
                f"{self.rules.start_load}"
            )
        if self.boat.size > self.rules.capacity:
            raise RiverSettingError(
                f"boat holds {self.boat.size} but has {self.rules.capacity} seats"
            )
        if self.crossings < 0:
            raise RiverSettingError(f"crossings must not be negative, got {self.crossings}")

    @classmethod
    def start(cls, rules: Rules) -> RiverState:
        """Everyone ashore on the left bank; the boat docked there, empty."""
        return cls(rules, rules.start_load, Load(0, 0), Load(0, 0), Side.LEFT)

    @classmethod
    def from_crossing(cls, rules: Rules, node: Crossing, crossings: int = 0) -> RiverState:
        """The state of graph node ``node`` with everyone ashore and the boat empty.

        Raises :class:`RiverSettingError` if ``node`` has more people than the rules.
        """
        left = Load(node.left_priests, node.left_devils)
        right = Load(rules.priests - left.priests, rules.devils - left.devils)
        if right.priests < 0 or right.devils < 0:
            raise RiverSettingError(f"crossing {node} does not fit the rules {rules.key()}")
        return cls(rules, left, right, Load(0, 0), node.boat, crossings)

    def ashore(self, side: Side) -> Load:
        """The characters standing ashore on ``side`` (passengers not included)."""
        return self.left if side is Side.LEFT else self.right

    def counts(self, side: Side) -> Load:
        """The characters that count for ``side``: ashore, plus passengers if docked there."""
        ashore = self.ashore(side)
        if side is not self.boat_side:
            return ashore
        return Load(ashore.priests + self.boat.priests, ashore.devils + self.boat.devils)

    def crossing(self) -> Crossing:
        """The graph node of this state (passengers at the docked bank included)."""
        left = self.counts(Side.LEFT)
        return Crossing(left.priests, left.devils, self.boat_side)

    def verdict(self) -> Verdict:
        """Judge the state (spec 2.1 rules 3 and 5).

        Lost when some bank has at least one priest and more devils than priests, counting
        passengers for the bank where the boat is docked. Won when every character stands
        ashore on the right bank (passengers still aboard there do not count yet).
        """
        outcome, side = self._judge()
        if outcome is Outcome.PLAYING or side is None:
            return Verdict(Outcome.PLAYING, None, 0, 0, "")
        counts = self.counts(side)
        if outcome is Outcome.LOST:
            message = (
                f"Devils outnumber priests on the {side.value} bank: "
                f"{_people(counts.devils, Kind.DEVIL)}, {_people(counts.priests, Kind.PRIEST)}."
            )
        else:
            message = _win_message(counts)
        return Verdict(outcome, side, counts.priests, counts.devils, message)

    def is_terminal(self) -> bool:
        """Whether the game is over (won or lost)."""
        return self._judge()[0] is not Outcome.PLAYING

    def returns(self) -> tuple[float]:
        """The player's score, OpenSpiel style: 1 won, -1 lost, 0 still playing."""
        outcome = self._judge()[0]
        return (1.0 if outcome is Outcome.WON else -1.0 if outcome is Outcome.LOST else 0.0,)

    def current_player(self) -> int:
        """0, the only player, while playing; -1 once the game is over."""
        return -1 if self.is_terminal() else 0

    def legal_actions(self) -> list[Action]:
        """The actions allowed now, in the order: board priest, board devil, unboard priest,
        unboard devil, boat. Empty once the game is over."""
        if self.is_terminal():
            return []
        ashore = self.ashore(self.boat_side)
        actions: list[Action] = []
        if self.boat.size < self.rules.capacity:
            actions.extend(Board(kind) for kind in Kind if _of(ashore, kind))
        actions.extend(Unboard(kind) for kind in Kind if _of(self.boat, kind))
        if self.boat.size:
            actions.append(Cross())
        return actions

    def apply(self, action: Action) -> RiverState:
        """The state after ``action``; this state is unchanged.

        Raises :class:`IllegalMoveError` with the reason: "the game is over", "the boat is
        full", "no priest ashore on the left bank", "no devil in the boat", "the boat is
        empty". A crossing adds one to ``crossings``.
        """
        if self.is_terminal():
            raise IllegalMoveError("the game is over")
        side = self.boat_side
        if isinstance(action, Board):
            if self.boat.size >= self.rules.capacity:
                raise IllegalMoveError("the boat is full")
            ashore = self.ashore(side)
            if not _of(ashore, action.kind):
                raise IllegalMoveError(f"no {action.kind.value} ashore on the {side.value} bank")
            return self._moved(side, _minus(ashore, action.kind), _plus(self.boat, action.kind))
        if isinstance(action, Unboard):
            if not self.boat.size:
                raise IllegalMoveError("the boat is empty")
            if not _of(self.boat, action.kind):
                raise IllegalMoveError(f"no {action.kind.value} in the boat")
            ashore = _plus(self.ashore(side), action.kind)
            return self._moved(side, ashore, _minus(self.boat, action.kind))
        if isinstance(action, Cross):
            if not self.boat.size:
                raise IllegalMoveError("the boat is empty")
            return RiverState(
                self.rules, self.left, self.right, self.boat, side.other, self.crossings + 1
            )
        raise InvalidActionError(f"not a river action: {action!r}")

    def key(self) -> tuple[int, int, int, int, int, int, int, str]:
        """A hashable form of the position: rules, left ashore, passengers, boat side.

        The ``crossings`` counter is left out, so the same position reached by different
        routes has the same key.
        """
        rules = self.rules
        return (
            rules.priests,
            rules.devils,
            rules.capacity,
            self.left.priests,
            self.left.devils,
            self.boat.priests,
            self.boat.devils,
            self.boat_side.value,
        )

    def __str__(self) -> str:
        left, right = _short(self.left), _short(self.right)
        boat = f"[{_short(self.boat)}]"
        if self.boat_side is Side.LEFT:
            return f"{left} {boat} ~~~ {right}"
        return f"{left} ~~~ {boat} {right}"

    def _judge(self) -> tuple[Outcome, Side | None]:
        for side in Side:
            counts = self.counts(side)
            if 0 < counts.priests < counts.devils:
                return Outcome.LOST, side
        if self.right == self.rules.start_load:
            return Outcome.WON, Side.RIGHT
        return Outcome.PLAYING, None

    def _moved(self, side: Side, ashore: Load, boat: Load) -> RiverState:
        if side is Side.LEFT:
            return RiverState(self.rules, ashore, self.right, boat, side, self.crossings)
        return RiverState(self.rules, self.left, ashore, boat, side, self.crossings)


@dataclass(frozen=True, slots=True)
class Hint:
    """The optimal next crossing(s) from a state.

    ``loads`` lists every load that starts a shortest way to the win, ordered by priests
    then devils, ascending (``(0, 2)`` before ``(1, 1)``). ``distance`` is the fewest
    crossings left (``None`` when the win cannot be reached). When ``loads`` is empty,
    ``reason`` says why: "the game is lost", "already won", "no way across from here", or
    "everyone is across: unload the boat" (the boat is docked right with the last passengers
    still aboard).
    """

    loads: tuple[Load, ...]
    distance: int | None
    reason: str | None = None


class RiverPuzzle:
    """The solver for one set of rules: distances, hints, plans and full solutions.

    The state graph has a node for every safe :class:`Crossing` (reachable from the start or
    not), so a hint works from any safe state. It is built on first use and cached per
    :class:`Rules`, so puzzles for the same rules share it and a hint is a table look-up. The
    click table behind :meth:`next_load` is built and cached the same way on its first use.
    Building both for the largest rules (200 priests, 100 devils, 12 seats) takes a couple of
    seconds; for the rules a player picks, milliseconds. Methods taking a :class:`RiverState`
    raise :class:`RiverSettingError` if it was made for other rules. Nothing here changes a
    state.
    """

    __slots__ = ("rules",)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"RiverPuzzle({self.rules!r})"

    @property
    def graph(self) -> StateGraph[Crossing, Load]:
        """The state graph over :class:`Crossing` nodes; edge actions are :class:`Load` s."""
        return _graph_for(self.rules)

    @property
    def start(self) -> Crossing:
        """The start node: everyone on the left, boat on the left."""
        return Crossing(self.rules.priests, self.rules.devils, Side.LEFT)

    @property
    def goal(self) -> Crossing:
        """The goal node: nobody on the left, boat on the right."""
        return Crossing(0, 0, Side.RIGHT)

    @staticmethod
    def check(rules: Rules) -> None:
        """Raise :class:`RiverSettingError` if ``rules`` cannot be solved from the start.

        The message reads like "4 priests and 4 devils cannot cross in a boat for 2".
        """
        if not RiverPuzzle(rules).solvable():
            raise RiverSettingError(_unsolvable_message(rules))

    def solvable(self) -> bool:
        """Whether the start can reach the win."""
        return self.graph.distance(self.start) is not None

    def optimal_crossings(self) -> int | None:
        """The fewest crossings from the start to the win; ``None`` if there is no way."""
        return self.graph.distance(self.start)

    def reachable(self) -> set[Crossing]:
        """Every node the start can reach (the start included)."""
        return self.graph.reachable_from(self.start)

    def distance(self, state: RiverState | Crossing) -> int | None:
        """The fewest crossings left to the win; ``None`` if lost or there is no way.

        A state won, or one docked right with the last passengers aboard, is at 0. (A won
        state is at 0 even with the boat left on the left bank, which no real game reaches:
        the judge decides, and its node ``0P0D|L`` has no distance.)
        """
        if isinstance(state, RiverState):
            self._require(state)
            outcome = state._judge()[0]
            if outcome is not Outcome.PLAYING:
                return 0 if outcome is Outcome.WON else None
            state = state.crossing()
        return self.graph.distance(state)

    def hint(self, state: RiverState) -> Hint:
        """Every optimal next load from ``state`` (see :class:`Hint` for order and reasons).

        Passengers of a half-loaded boat count for the bank where it is docked.
        """
        self._require(state)
        outcome = state._judge()[0]
        if outcome is Outcome.LOST:
            return Hint((), None, "the game is lost")
        if outcome is Outcome.WON:
            return Hint((), 0, "already won")
        node = state.crossing()
        graph = self.graph
        distance = graph.distance(node)
        if distance is None:
            return Hint((), None, "no way across from here")
        if distance == 0:
            return Hint((), 0, "everyone is across: unload the boat")
        return Hint(tuple(graph.best_actions(node)), distance, None)

    def next_load(self, state: RiverState) -> Load | None:
        """The one optimal load to send next, or ``None`` when :meth:`hint` has none.

        Among optimal loads the one that leaves the fewest board and unboard clicks to the win
        is chosen: this step's clicks from the current passengers plus those of the best
        continuation (see :meth:`optimal_clicks`). Ties go to the load needing the fewest
        clicks now (it keeps what the player already boarded), then to the first in
        :attr:`Hint.loads`. Following it from the start gives the click oracle of spec 5.5
        (3/3/2: 11 crossings and 20 clicks).
        """
        loads = self.hint(state).loads
        if not loads:
            return None
        return _cheapest(_clicks_table(self.rules), state.crossing(), state.boat, loads)

    def optimal_clicks(self, state: RiverState | None = None) -> int | None:
        """The fewest board and unboard clicks from ``state`` (default: the start) to the win,
        among the ways with the fewest crossings; ``None`` when lost or there is no way.

        >>> RiverPuzzle(Rules()).optimal_clicks()
        20
        """
        state = RiverState.start(self.rules) if state is None else state
        self._require(state)
        if state.is_terminal():
            return 0 if state._judge()[0] is Outcome.WON else None
        node = state.crossing()
        if self.graph.distance(node) is None:
            return None
        return _clicks_from(self.graph, _clicks_table(self.rules), node, state.boat)

    def plan(self, state: RiverState) -> list[Action]:
        """The clicks that make the next optimal crossing from ``state``.

        Unboard the passengers not in :meth:`next_load` (priests first), board the missing
        ones (priests first), then :class:`Cross`. With the boat docked right and the last
        passengers aboard, only the unboarding. Empty when the game is over or there is no way
        across.
        """
        load = self.next_load(state)
        if load is None:
            if not state.is_terminal() and self.distance(state) == 0:
                return _unboard_all(state.boat)
            return []
        actions: list[Action] = []
        for kind in Kind:
            actions.extend(Unboard(kind) for _ in range(_of(state.boat, kind) - _of(load, kind)))
        for kind in Kind:
            actions.extend(Board(kind) for _ in range(_of(load, kind) - _of(state.boat, kind)))
        actions.append(Cross())
        return actions

    def solution(self, state: RiverState | None = None) -> list[Load]:
        """The optimal loads, one per crossing, from ``state`` (default: the start) to the win.

        Each load is the one :meth:`next_load` would pick, the passengers being the previous
        load. Empty when already won or only unloading is left. Raises
        :class:`NoSolutionError` when the game is lost or there is no way across.
        """
        state = RiverState.start(self.rules) if state is None else state
        self._require(state)
        hint = self.hint(state)
        if hint.distance is None:
            raise NoSolutionError(self._no_solution(state, hint))
        if not hint.loads:  # won, or only the unloading is left
            return []
        graph, table = self.graph, _clicks_table(self.rules)
        node, passengers = state.crossing(), state.boat
        loads: list[Load] = []
        while not graph.is_goal(node):
            load = _cheapest(table, node, passengers, graph.best_actions(node))
            loads.append(load)
            node, passengers = node.after(load), load
        return loads

    def solve_actions(self, state: RiverState | None = None) -> list[Action]:
        """Every click from ``state`` (default: the start) to the win, following :meth:`plan`.

        The win takes exactly :meth:`distance` crossings. Raises :class:`NoSolutionError`
        when the game is lost or there is no way across.
        """
        state = RiverState.start(self.rules) if state is None else state
        self._require(state)
        actions: list[Action] = []
        while state._judge()[0] is not Outcome.WON:
            step = self.plan(state)
            if not step:
                raise NoSolutionError(self._no_solution(state, self.hint(state)))
            for action in step:
                state = state.apply(action)
            actions.extend(step)
        return actions

    def _require(self, state: RiverState) -> None:
        if state.rules != self.rules:
            raise RiverSettingError(
                f"the state is for rules {state.rules.key()}, the puzzle for {self.rules.key()}"
            )

    def _no_solution(self, state: RiverState, hint: Hint) -> str:
        if state.key() == RiverState.start(self.rules).key():
            return _unsolvable_message(self.rules)
        return f"{hint.reason} ({state.crossing()})"


def _check_count(name: str, value: object, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise RiverSettingError(
            f"{name} must be a whole number from {low} to {high}, got {value!r}"
        )


def _people(count: int, kind: Kind) -> str:
    return f"{count} {kind.value}{'' if count == 1 else 's'}"


def _win_message(counts: Load) -> str:
    if counts.size == 1:
        kind = Kind.PRIEST if counts.priests else Kind.DEVIL
        return f"The {kind.value} reached the right bank."
    parts = [_people(n, kind) for n, kind in zip(counts, Kind, strict=True) if n]
    return f"All {' and '.join(parts)} reached the right bank."


def _unsolvable_message(rules: Rules) -> str:
    parts = [_people(n, kind) for n, kind in zip(rules.start_load, Kind, strict=True) if n]
    seats = "a boat for 1" if rules.capacity == 1 else f"a boat for {rules.capacity}"
    return f"{' and '.join(parts)} cannot cross in {seats}"


def _short(load: Load) -> str:
    return "P" * load.priests + "D" * load.devils or "-"


def _of(load: Load, kind: Kind) -> int:
    return load.priests if kind is Kind.PRIEST else load.devils


def _plus(load: Load, kind: Kind) -> Load:
    if kind is Kind.PRIEST:
        return Load(load.priests + 1, load.devils)
    return Load(load.priests, load.devils + 1)


def _minus(load: Load, kind: Kind) -> Load:
    if kind is Kind.PRIEST:
        return Load(load.priests - 1, load.devils)
    return Load(load.priests, load.devils - 1)


def _unboard_all(boat: Load) -> list[Action]:
    return [Unboard(kind) for kind in Kind for _ in range(_of(boat, kind))]


def _clicks(passengers: Load, load: Load) -> int:
    return abs(passengers.priests - load.priests) + abs(passengers.devils - load.devils)


@dataclass(frozen=True, slots=True)
class _ClickTable:
    """The fewest board and unboard clicks to the win after each optimal crossing.

    ``after[offsets[node] + j]`` belongs to the crossing from ``node`` with the ``j``-th load of
    ``graph.best_actions(node)``; the passengers on landing are that load.
    """

    offsets: dict[Crossing, int]
    after: list[int]


def _cheapest(table: _ClickTable, node: Crossing, passengers: Load, loads: Sequence[Load]) -> Load:
    """The optimal load from ``node`` that leaves the fewest clicks to the win.

    Ties go to the load needing the fewest clicks now, then to the first.
    """
    base = table.offsets[node]
    costs = []
    for j, load in enumerate(loads):
        now = _clicks(passengers, load)
        costs.append((now + table.after[base + j], now))
    return loads[costs.index(min(costs))]


def _clicks_from(
    graph: StateGraph[Crossing, Load], table: _ClickTable, node: Crossing, passengers: Load
) -> int:
    """Fewest clicks to the win from solvable ``node`` with ``passengers`` aboard."""
    loads = graph.best_actions(node)
    if not loads:  # at the goal: only the unloading is left
        return passengers.size
    base = table.offsets[node]
    return min(_clicks(passengers, load) + table.after[base + j] for j, load in enumerate(loads))


@functools.lru_cache(maxsize=16)
def _clicks_table(rules: Rules) -> _ClickTable:
    """Fill the click table layer by layer, from the goal outwards.

    With the load ``L`` just landed at node ``t``, the fewest clicks left are the minimum over
    the optimal loads ``L'`` from ``t`` of ``|L - L'|`` (priests and devils apart) plus the
    entry of ``(t, L')``; at the goal they are ``|L|``, the unloading. Big rule sets have tens
    of optimal loads per node, so that minimum is an L1 distance transform over the grid of
    loads, done with numpy for all nodes of a distance layer at once.
    """
    graph = _graph_for(rules)
    nodes = graph.nodes
    offsets: dict[Crossing, int] = {}
    per_node: list[int] = []
    flat: list[Load] = []
    distances: list[int] = []
    for node in nodes:
        offsets[node] = len(flat)
        loads = graph.best_actions(node)
        per_node.append(len(loads))
        flat.extend(loads)
        distance = graph.distance(node)
        distances.append(-1 if distance is None else distance)
    if not flat:
        return _ClickTable(offsets, [])

    dist = np.array(distances, dtype=np.int64)
    src = np.repeat(np.arange(len(nodes)), per_node)
    load_p, load_d = np.array(flat, dtype=np.int64).reshape(-1, 2).T
    node_p = np.array([node.left_priests for node in nodes], dtype=np.int64)
    node_d = np.array([node.left_devils for node in nodes], dtype=np.int64)
    node_left = np.array([node.boat is Side.LEFT for node in nodes], dtype=np.int64)
    grid = np.full((2, rules.priests + 1, rules.devils + 1), -1, dtype=np.int64)
    grid[node_left, node_p, node_d] = np.arange(len(nodes))
    sign = 1 - 2 * node_left[src]  # a crossing from the left takes people off the left
    target = grid[1 - node_left[src], node_p[src] + sign * load_p, node_d[src] + sign * load_d]

    # nodes and edges grouped by distance; local[i]: the place of node i in its layer
    top = int(dist.max())
    node_order = np.argsort(dist, kind="stable")
    node_bounds = np.searchsorted(dist[node_order], np.arange(top + 2))
    local = np.empty(len(nodes), dtype=np.int64)
    local[node_order] = np.arange(len(nodes)) - node_bounds[np.maximum(dist[node_order], 0)]
    edge_dist = dist[src]
    edge_order = np.argsort(edge_dist, kind="stable")
    edge_bounds = np.searchsorted(edge_dist[edge_order], np.arange(top + 2))

    after = np.zeros(len(flat), dtype=np.float64)
    seats = rules.capacity + 1
    for k in range(1, top + 1):
        below = np.full((node_bounds[k] - node_bounds[k - 1], seats, seats), np.inf)
        if k == 1:
            below[:, 0, 0] = 0.0  # the goal: every passenger still has to get off
        else:
            edges = edge_order[edge_bounds[k - 1] : edge_bounds[k]]
            below[local[src[edges]], load_p[edges], load_d[edges]] = after[edges]
        left = _l1_transform(_l1_transform(below, 1), 2)
        edges = edge_order[edge_bounds[k] : edge_bounds[k + 1]]
        after[edges] = left[local[target[edges]], load_p[edges], load_d[edges]]
    return _ClickTable(offsets, [int(value) for value in after.tolist()])


def _l1_transform(values: npt.NDArray[np.float64], axis: int) -> npt.NDArray[np.float64]:
    """``out[x] = min over y of values[y] + |x - y|`` along ``axis``."""
    shape = [1] * values.ndim
    shape[axis] = values.shape[axis]
    x = np.arange(values.shape[axis], dtype=np.float64).reshape(shape)
    rising = np.minimum.accumulate(values - x, axis=axis) + x
    falling = np.flip(np.minimum.accumulate(np.flip(values + x, axis), axis=axis), axis) - x
    result: npt.NDArray[np.float64] = np.minimum(rising, falling)
    return result


@functools.lru_cache(maxsize=16)
def _graph_for(rules: Rules) -> StateGraph[Crossing, Load]:
    """Build the graph over every safe node; edges are the loads whose landing is safe."""
    total_p, total_d = rules.priests, rules.devils
    loads = [
        Load(p, d)
        for p in range(rules.capacity + 1)
        for d in range(rules.capacity + 1 - p)
        if p + d
    ]  # ascending (priests, devils): the documented order of Hint.loads

    def safe(p: int, d: int) -> bool:
        return (p == 0 or p >= d) and (total_p == p or total_p - p >= total_d - d)

    # nodes[side][p][d] is the one Crossing instance for that node, or None if unsafe
    nodes: dict[Side, list[list[Crossing | None]]] = {
        side: [
            [Crossing(p, d, side) if safe(p, d) else None for d in range(total_d + 1)]
            for p in range(total_p + 1)
        ]
        for side in Side
    }
    start = nodes[Side.LEFT][total_p][total_d]
    starts = [start] if start is not None else []
    starts += [node for side in Side for row in nodes[side] for node in row if node is not None]

    def moves(node: Crossing) -> Iterator[tuple[Load, Crossing]]:
        p, d = node.left_priests, node.left_devils
        if node.boat is Side.LEFT:
            avail_p, avail_d, sign = p, d, -1
        else:
            avail_p, avail_d, sign = total_p - p, total_d - d, 1
        landing = nodes[node.boat.other]
        for load in loads:
            if load.priests > avail_p:
                break  # loads are sorted by priests: the rest need even more
            if load.devils <= avail_d:
                target = landing[p + sign * load.priests][d + sign * load.devils]
                if target is not None:
                    yield load, target

    goal = nodes[Side.RIGHT][0][0]
    return StateGraph.explore(starts, moves, lambda node: node is goal)


_EVERY_ACTION: tuple[Action, ...] = (
    Board(Kind.PRIEST),
    Board(Kind.DEVIL),
    Unboard(Kind.PRIEST),
    Unboard(Kind.DEVIL),
    Cross(),
)
_ACTIONS_BY_TEXT: dict[str, Action] = {str(action): action for action in _EVERY_ACTION}
