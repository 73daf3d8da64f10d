"""Priests and Devils: the rules, the judge and the actions.

Two levels describe a game. :class:`RiverState` is what the player sees, click by click: who
stands ashore on each bank, who sits in the boat, and where the boat is docked. A
:class:`Crossing` is a node of the state graph: the priests and devils on the left side and the
boat's side. Both use the same counting rule: by default passengers count for the bank where
the boat is docked. Boarding and unboarding then never change the counts and never lose a
game; only a crossing can. The win needs everyone *ashore* on the right bank, so it comes with
the last passenger stepping off there: judge after every action.

:class:`Rules` also carries the published variants of the puzzle: passengers that count for no
bank (``boat_counts=False``: the boat is a place of its own, so boarding or landing can lose),
who may row (:class:`Rowers`: anyone, or the boat needs a priest, or a devil, aboard to
cross; a boat stranded where nobody may row it loses), and the goal (:class:`Goal`: everyone
across, or every priest across).

:class:`RiverState` is the game contract's state (:class:`game.logic.game.State`): one seat,
actions :class:`Board`, :class:`Unboard` and :class:`Cross` with the text forms
``board:priest``, ``unboard:devil`` and ``boat``.

>>> state = RiverState.start(Rules())
>>> [state.action_text(a) for a in state.legal_actions()]
['board:priest', 'board:devil']
>>> state = state.apply(state.parse_action("board:devil")).apply(Cross())
>>> str(state), state.crossings, state.current_player()
('PPPDD ~~~ [D] -', 1, 0)
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from game.logic.game import TERMINAL, IllegalActionError, NotationError

__all__ = [
    "MAX_CAPACITY",
    "MAX_CHARACTERS",
    "Action",
    "Board",
    "Cross",
    "Crossing",
    "Goal",
    "IllegalMoveError",
    "InvalidActionError",
    "Kind",
    "Load",
    "Outcome",
    "RiverError",
    "RiverSettingError",
    "RiverState",
    "Rowers",
    "Rules",
    "Side",
    "Unboard",
    "Verdict",
    "parse_action",
    "people",
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


class IllegalMoveError(RiverError, IllegalActionError):
    """An action that is not legal in the current state; the message says why."""


class InvalidActionError(IllegalMoveError, NotationError):
    """Text that names no action (see :func:`parse_action`)."""


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


class Rowers(enum.Enum):
    """Who may row the boat across: anyone, or only priests (a priest must be aboard), or
    only devils (a devil must be aboard)."""

    ANYONE = "anyone"
    PRIESTS = "priests"
    DEVILS = "devils"

    def can_row(self, load: Load) -> bool:
        """Whether the boat with ``load`` aboard may cross (never an empty boat).

        >>> Rowers.PRIESTS.can_row(Load(0, 2)), Rowers.DEVILS.can_row(Load(0, 2))
        (False, True)
        """
        if self is Rowers.PRIESTS:
            return load.priests > 0
        if self is Rowers.DEVILS:
            return load.devils > 0
        return load.size > 0

    def describe(self) -> str:
        """In words: "anyone rows", "only priests row"."""
        return "anyone rows" if self is Rowers.ANYONE else f"only {self.value} row"


class Goal(enum.Enum):
    """What wins: everyone ashore on the right bank, or every priest ashore there (the devils
    may stay behind)."""

    EVERYONE = "everyone"
    PRIESTS = "priests"

    def describe(self) -> str:
        """In words: "everyone across", "every priest across"."""
        return "everyone across" if self is Goal.EVERYONE else "every priest across"


def people(count: int, kind: Kind) -> str:
    """``count`` characters of ``kind`` in words: "1 priest", "3 devils".

    >>> people(1, Kind.PRIEST), people(0, Kind.DEVIL)
    ('1 priest', '0 devils')
    """
    return f"{count} {kind.value}{'' if count == 1 else 's'}"


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

    def of(self, kind: Kind) -> int:
        """How many of ``kind``."""
        return self.priests if kind is Kind.PRIEST else self.devils

    def __str__(self) -> str:
        parts = [people(n, kind) for n, kind in zip(self, Kind, strict=True) if n]
        return " + ".join(parts) if parts else "nobody"


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of a game: team sizes, boat seats and the rule variants.

    ``boat_counts``: passengers of a docked boat count for its bank (the classic rule) or
    for no bank; ``rowers``: who may row; ``goal``: what wins. Raises
    :class:`RiverSettingError` naming the value when a count is out of range (0 to
    :data:`MAX_CHARACTERS` of each kind, at least one person, 1 to :data:`MAX_CAPACITY`
    seats), a variant is not one of its kind, the start would already be lost (more devils
    than priests, with priests present) or the goal is every priest across with no priest.
    Rules that are valid may still have no solution: see :meth:`RiverPuzzle.check`.
    """

    priests: int = 3
    devils: int = 3
    capacity: int = 2
    boat_counts: bool = True
    rowers: Rowers = Rowers.ANYONE
    goal: Goal = Goal.EVERYONE

    def __post_init__(self) -> None:
        _check_count("priests", self.priests, 0, MAX_CHARACTERS)
        _check_count("devils", self.devils, 0, MAX_CHARACTERS)
        _check_count("capacity", self.capacity, 1, MAX_CAPACITY)
        if type(self.boat_counts) is not bool:
            raise RiverSettingError(f"boat_counts must be true or false, got {self.boat_counts!r}")
        if not isinstance(self.rowers, Rowers):
            raise RiverSettingError(f"rowers must be a Rowers, got {self.rowers!r}")
        if not isinstance(self.goal, Goal):
            raise RiverSettingError(f"goal must be a Goal, got {self.goal!r}")
        if self.priests + self.devils == 0:
            raise RiverSettingError("a game needs at least one priest or devil, got none")
        if self.devils > self.priests > 0:
            raise RiverSettingError(
                f"devils={self.devils} outnumber priests={self.priests}: the start would be lost"
            )
        if self.goal is Goal.PRIESTS and self.priests == 0:
            raise RiverSettingError("the goal is every priest across, but there are no priests")

    @property
    def start_load(self) -> Load:
        """Everyone: the people ashore on the left bank at the start."""
        return Load(self.priests, self.devils)

    @property
    def classic(self) -> bool:
        """Whether the variants are the classic ones (passengers count, anyone rows, everyone
        across)."""
        return self.boat_counts and self.rowers is Rowers.ANYONE and self.goal is Goal.EVERYONE

    def key(self) -> str:
        """The text form: ``"priests/devils/capacity"``, then one word per variant that is
        not the classic one: ``boat-apart``, ``rowers=priests``, ``goal=priests``.

        >>> Rules().key(), Rules(3, 3, 2, False, Rowers.PRIESTS, Goal.PRIESTS).key()
        ('3/3/2', '3/3/2 boat-apart rowers=priests goal=priests')
        """
        words = [f"{self.priests}/{self.devils}/{self.capacity}"]
        if not self.boat_counts:
            words.append("boat-apart")
        if self.rowers is not Rowers.ANYONE:
            words.append(f"rowers={self.rowers.value}")
        if self.goal is not Goal.EVERYONE:
            words.append(f"goal={self.goal.value}")
        return " ".join(words)

    def describe(self) -> str:
        """The rules in words, for the statistics and the help.

        >>> Rules(3, 3, 2, False, Rowers.PRIESTS).describe()
        '3 priests, 3 devils, a boat for 2; passengers count for no bank; only priests row'
        """
        text = (
            f"{people(self.priests, Kind.PRIEST)}, {people(self.devils, Kind.DEVIL)}, "
            f"a boat for {self.capacity}"
        )
        if not self.boat_counts:
            text += "; passengers count for no bank"
        if self.rowers is not Rowers.ANYONE:
            text += f"; {self.rowers.describe()}"
        if self.goal is not Goal.EVERYONE:
            text += f"; goal: {self.goal.describe()}"
        return text

    def short(self) -> str:
        """A compact form for a table: ``"3P 3D 2 seats"``, then ``boat apart``,
        ``priests row`` or ``devils row``, ``goal priests``.

        >>> Rules(3, 3, 2, False, Rowers.DEVILS, Goal.PRIESTS).short()
        '3P 3D 2 seats, boat apart, devils row, goal priests'
        """
        words = [f"{self.priests}P {self.devils}D {self.capacity} seat{'s' * (self.capacity > 1)}"]
        if not self.boat_counts:
            words.append("boat apart")
        if self.rowers is not Rowers.ANYONE:
            words.append(f"{self.rowers.value} row")
        if self.goal is not Goal.EVERYONE:
            words.append(f"goal {self.goal.value}")
        return ", ".join(words)

    @classmethod
    def from_key(cls, text: str) -> Rules:
        """Read the form :meth:`key` writes; raises :class:`RiverSettingError` on bad text.

        >>> Rules.from_key("5/4/2")
        Rules(priests=5, devils=4, capacity=2, boat_counts=True, rowers=<Rowers.ANYONE: 'anyone'>, goal=<Goal.EVERYONE: 'everyone'>)
        >>> Rules.from_key("3/3/2 goal=priests").goal
        <Goal.PRIESTS: 'priests'>
        """  # noqa: E501
        words = text.split()
        parts = words[0].split("/") if words else []
        if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
            raise RiverSettingError(
                f"rules must look like 'priests/devils/capacity', then variants, got {text!r}"
            )
        priests, devils, capacity = (int(part) for part in parts)
        boat_counts, rowers, goal = True, Rowers.ANYONE, Goal.EVERYONE
        for word in words[1:]:
            name, _, value = word.partition("=")
            try:
                if word == "boat-apart":
                    boat_counts = False
                elif name == "rowers":
                    rowers = Rowers(value)
                elif name == "goal":
                    goal = Goal(value)
                else:
                    raise ValueError(word)
            except ValueError:
                raise RiverSettingError(
                    f"unknown rule {word!r} in {text!r}; expected boat-apart, "
                    "rowers=anyone|priests|devils or goal=everyone|priests"
                ) from None
        return cls(priests, devils, capacity, boat_counts, rowers, goal)


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
        """The characters that count for ``side``: ashore, plus passengers if docked there
        (when the rules count passengers for the bank; otherwise only those ashore)."""
        ashore = self.ashore(side)
        if side is not self.boat_side or not self.rules.boat_counts:
            return ashore
        return Load(ashore.priests + self.boat.priests, ashore.devils + self.boat.devils)

    def crossing(self) -> Crossing:
        """The graph node of this state: who is on the left side, passengers of a boat docked
        there included (whatever the rules count for safety), and the boat's side."""
        left = self.left
        if self.boat_side is Side.LEFT:
            left = Load(left.priests + self.boat.priests, left.devils + self.boat.devils)
        return Crossing(left.priests, left.devils, self.boat_side)

    def verdict(self) -> Verdict:
        """Judge the state.

        Lost when some bank has at least one priest and more devils than priests (counting
        passengers for the bank where the boat is docked, if the rules say so), or when the
        boat is stranded: nobody at its bank (ashore or aboard) may row it. Won when the goal
        is met: everyone (or every priest) stands ashore on the right bank; passengers still
        aboard there do not count yet. The message says which bank and why.
        """
        outcome, side = self._judge()
        if outcome is Outcome.PLAYING or side is None:
            return Verdict(Outcome.PLAYING, None, 0, 0, "")
        counts = self.counts(side)
        if outcome is Outcome.WON:
            won = counts if self.rules.goal is Goal.EVERYONE else Load(counts.priests, 0)
            return Verdict(outcome, side, counts.priests, counts.devils, _win_message(won))
        if 0 < counts.priests < counts.devils:
            where = (
                ""
                if self.rules.boat_counts
                else " (ashore; the boat's passengers count for no bank)"
            )
            message = (
                f"Devils outnumber priests on the {side.value} bank{where}: "
                f"{people(counts.devils, Kind.DEVIL)}, {people(counts.priests, Kind.PRIEST)}."
            )
        else:
            rowers = self.rules.rowers
            message = (
                f"The boat is stranded on the {side.value} bank: {rowers.describe()}, and "
                f"there are no {rowers.value} there to row it, so nobody can cross again."
            )
        return Verdict(outcome, side, counts.priests, counts.devils, message)

    def outcome(self) -> Outcome:
        """Where the game stands: what :meth:`verdict` says, without the message."""
        return self._judge()[0]

    def is_terminal(self) -> bool:
        """Whether the game is over (won or lost)."""
        return self._judge()[0] is not Outcome.PLAYING

    def returns(self) -> tuple[float]:
        """The player's score, OpenSpiel style: 1 won, -1 lost, 0 still playing."""
        outcome = self._judge()[0]
        return (1.0 if outcome is Outcome.WON else -1.0 if outcome is Outcome.LOST else 0.0,)

    def current_player(self) -> int:
        """0, the only seat, while playing; :data:`~game.logic.game.TERMINAL` once over."""
        return TERMINAL if self.is_terminal() else 0

    def legal_actions(self) -> list[Action]:
        """The actions allowed now, in the order: board priest, board devil, unboard priest,
        unboard devil, boat. Empty once the game is over."""
        if self.is_terminal():
            return []
        ashore = self.ashore(self.boat_side)
        actions: list[Action] = []
        if self.boat.size < self.rules.capacity:
            actions.extend(Board(kind) for kind in Kind if ashore.of(kind))
        actions.extend(Unboard(kind) for kind in Kind if self.boat.of(kind))
        if self.rules.rowers.can_row(self.boat):
            actions.append(Cross())
        return actions

    def apply(self, action: Action) -> RiverState:
        """The state after ``action``; this state is unchanged.

        Raises :class:`IllegalMoveError` with the reason: "the game is over", "the boat is
        full", "no priest ashore on the left bank", "no devil in the boat", "the boat is
        empty", "only priests row: put a priest in the boat". A crossing adds one to
        ``crossings``.
        """
        if self.is_terminal():
            raise IllegalMoveError("the game is over")
        side = self.boat_side
        if isinstance(action, Board):
            if self.boat.size >= self.rules.capacity:
                raise IllegalMoveError("the boat is full")
            ashore = self.ashore(side)
            if not ashore.of(action.kind):
                raise IllegalMoveError(f"no {action.kind.value} ashore on the {side.value} bank")
            return self._moved(side, _minus(ashore, action.kind), _plus(self.boat, action.kind))
        if isinstance(action, Unboard):
            if not self.boat.size:
                raise IllegalMoveError("the boat is empty")
            if not self.boat.of(action.kind):
                raise IllegalMoveError(f"no {action.kind.value} in the boat")
            ashore = _plus(self.ashore(side), action.kind)
            return self._moved(side, ashore, _minus(self.boat, action.kind))
        if isinstance(action, Cross):
            if not self.boat.size:
                raise IllegalMoveError("the boat is empty")
            rowers = self.rules.rowers
            if not rowers.can_row(self.boat):
                kind = rowers.value[:-1]
                raise IllegalMoveError(f"{rowers.describe()}: put a {kind} in the boat")
            return RiverState(
                self.rules, self.left, self.right, self.boat, side.other, self.crossings + 1
            )
        raise InvalidActionError(f"not a river action: {action!r}")

    def key(self) -> tuple[str, int, int, int, int, str]:
        """A hashable form of the position: the rules' key, left ashore, passengers, boat side.

        The ``crossings`` counter is left out, so the same position reached by different
        routes has the same key.
        """
        return (
            self.rules.key(),
            self.left.priests,
            self.left.devils,
            self.boat.priests,
            self.boat.devils,
            self.boat_side.value,
        )

    def action_text(self, action: Action) -> str:
        """The notation of ``action``: ``board:priest``, ``unboard:devil`` or ``boat``.

        Raises :class:`InvalidActionError` for anything that is not a river action.
        """
        if not isinstance(action, Board | Unboard | Cross):
            raise InvalidActionError(f"not a river action: {action!r}")
        return str(action)

    def parse_action(self, text: str) -> Action:
        """The action ``text`` names (see :func:`parse_action`); legal or not in this state."""
        return parse_action(text)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Nothing in this game is left to chance: always empty."""
        return []

    def observation(self, seat: int) -> Hashable:
        """Nothing is hidden: the :meth:`key`."""
        return self.key()

    def __str__(self) -> str:
        left, right = _short(self.left), _short(self.right)
        boat = f"[{_short(self.boat)}]"
        if self.boat_side is Side.LEFT:
            return f"{left} {boat} ~~~ {right}"
        return f"{left} ~~~ {boat} {right}"

    def _judge(self) -> tuple[Outcome, Side | None]:
        rules = self.rules
        for side in Side:
            counts = self.counts(side)
            if 0 < counts.priests < counts.devils:
                return Outcome.LOST, side
        if rules.goal is Goal.EVERYONE:
            if self.right == rules.start_load:
                return Outcome.WON, Side.RIGHT
        elif self.right.priests == rules.priests:
            return Outcome.WON, Side.RIGHT
        side = self.boat_side
        if rules.rowers is not Rowers.ANYONE:
            here = self.ashore(side)
            if not rules.rowers.can_row(
                Load(here.priests + self.boat.priests, here.devils + self.boat.devils)
            ):
                return Outcome.LOST, side
        return Outcome.PLAYING, None

    def _moved(self, side: Side, ashore: Load, boat: Load) -> RiverState:
        if side is Side.LEFT:
            return RiverState(self.rules, ashore, self.right, boat, side, self.crossings)
        return RiverState(self.rules, self.left, ashore, boat, side, self.crossings)


def _check_count(name: str, value: object, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise RiverSettingError(
            f"{name} must be a whole number from {low} to {high}, got {value!r}"
        )


def _win_message(counts: Load) -> str:
    if counts.size == 1:
        kind = Kind.PRIEST if counts.priests else Kind.DEVIL
        return f"The {kind.value} reached the right bank."
    parts = [people(n, kind) for n, kind in zip(counts, Kind, strict=True) if n]
    return f"All {' and '.join(parts)} reached the right bank."


def _short(load: Load) -> str:
    return "P" * load.priests + "D" * load.devils or "-"


def _plus(load: Load, kind: Kind) -> Load:
    if kind is Kind.PRIEST:
        return Load(load.priests + 1, load.devils)
    return Load(load.priests, load.devils + 1)


def _minus(load: Load, kind: Kind) -> Load:
    if kind is Kind.PRIEST:
        return Load(load.priests - 1, load.devils)
    return Load(load.priests, load.devils - 1)


_EVERY_ACTION: tuple[Action, ...] = (
    Board(Kind.PRIEST),
    Board(Kind.DEVIL),
    Unboard(Kind.PRIEST),
    Unboard(Kind.DEVIL),
    Cross(),
)
_ACTIONS_BY_TEXT: dict[str, Action] = {str(action): action for action in _EVERY_ACTION}
