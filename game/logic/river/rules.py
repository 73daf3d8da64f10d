"""Priests and Devils: the rules of a game and the nodes of its state graph.

A :class:`Crossing` is a node of the state graph: the priests and devils on the left side and
the boat's side. By default passengers count for the bank where the boat is docked, so only a
crossing can lose (the player's click by click view, :class:`~game.logic.river.state.
RiverState`, judges with the same rule).

:class:`RiverRules` also carries the published variants of the puzzle: passengers that count for no
bank (``boat_counts=False``: the boat is a place of its own, so boarding or landing can lose),
who may row (:class:`Rowers`: anyone, or the boat needs a priest, or a devil, aboard to
cross; a boat stranded where nobody may row it loses), and the goal (:class:`Goal`: everyone
across, or every priest across).

>>> RiverRules().key(), Crossing(3, 3, Side.LEFT).after(Load(0, 2))
('3/3/2', Crossing(left_priests=3, left_devils=1, boat=<Side.RIGHT: 'right'>))
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, NamedTuple

from game.logic.contract import IllegalActionError, NotationError
from game.logic.opposed import Opposed
from game.logic.options import Option, OptionError, OptionsSchema

__all__ = [
    "MAX_CAPACITY",
    "MAX_CHARACTERS",
    "RULE_OPTIONS",
    "Crossing",
    "Goal",
    "IllegalRiverActionError",
    "InvalidActionError",
    "Kind",
    "Load",
    "Outcome",
    "RiverError",
    "RiverRules",
    "RiverSettingError",
    "Rowers",
    "Side",
    "people",
]


MAX_CHARACTERS = 200
"""The most priests (and, separately, devils) a game may have."""

MAX_CAPACITY = 12
"""The most seats a boat may have."""

#: The word earlier versions wrote in a rules key for ``boat_counts=no`` (statistics files
#: keep it); it is still read.
_OLD_BOAT_WORD = "boat-apart"


class RiverError(ValueError):
    """Base class for the errors of this module."""


class RiverSettingError(RiverError):
    """Options that are out of range, start lost, or cannot be solved; or a state that does
    not fit its rules."""


class IllegalRiverActionError(RiverError, IllegalActionError):
    """An action that is not legal in the current state; the message says why."""


class InvalidActionError(IllegalRiverActionError, NotationError):
    """Text that names no action (see :func:`parse_action`)."""


class Side(Opposed):
    """A bank of the river (``other``: the opposite bank); the game starts on the left."""

    LEFT = "left"
    RIGHT = "right"


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


#: The options a game's rules are made of, declared once: each one's type, default and range
#: (the puzzle's :data:`~game.logic.river.game.OPTIONS` adds its cross-check; :class:`RiverRules`
#: takes its defaults from here and is checked by it).
RULE_OPTIONS: Final = OptionsSchema(
    (
        Option("priests", int, 3, minimum=0, maximum=MAX_CHARACTERS, help="number of priests"),
        Option("devils", int, 3, minimum=0, maximum=MAX_CHARACTERS, help="number of devils"),
        Option("capacity", int, 2, minimum=1, maximum=MAX_CAPACITY, help="seats in the boat"),
        Option("boat_counts", bool, True, help="passengers in a docked boat count for its bank "
               "(off: only those ashore count)"),
        Option("rowers", str, Rowers.ANYONE.value, choices=tuple(r.value for r in Rowers),
               help="who may row: anyone, or the boat needs a priest (or a devil) aboard to cross"),
        Option("goal", str, Goal.EVERYONE.value, choices=tuple(g.value for g in Goal),
               help="what wins: everyone across, or every priest across"),
    )
)  # fmt: skip
_DEFAULT: Final = RULE_OPTIONS.defaults()
#: The options :class:`RiverRules` holds as they are (the others are enums of their names).
_PLAIN: Final = ("priests", "devils", "capacity", "boat_counts")


@dataclass(frozen=True, slots=True)
class RiverRules:
    """The options of a game: team sizes, boat seats and the rule variants, typed; the
    defaults and ranges are :data:`RULE_OPTIONS`'.

    ``boat_counts``: passengers of a docked boat count for its bank (the classic rule) or
    for no bank; ``rowers``: who may row; ``goal``: what wins. Raises
    :class:`RiverSettingError` naming the value when a count is out of range (0 to
    :data:`MAX_CHARACTERS` of each kind, at least one person, 1 to :data:`MAX_CAPACITY`
    seats), a variant is not one of its kind, the start would already be lost (more devils
    than priests, with priests present) or the goal is every priest across with no priest.
    RiverRules that are valid may still have no solution: see :meth:`RiverPuzzle.check`.
    """

    priests: int = _DEFAULT["priests"]
    devils: int = _DEFAULT["devils"]
    capacity: int = _DEFAULT["capacity"]
    boat_counts: bool = _DEFAULT["boat_counts"]
    rowers: Rowers = Rowers.ANYONE
    goal: Goal = Goal.EVERYONE

    def __post_init__(self) -> None:
        try:
            for name in _PLAIN:  # of their own type, no text read as a number
                RULE_OPTIONS[name].check(getattr(self, name), strict=True)
        except OptionError as exc:
            raise RiverSettingError(str(exc)) from None
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
        not the classic one: ``boat_counts=no``, ``rowers=priests``, ``goal=priests``.

        >>> RiverRules().key(), RiverRules(3, 3, 2, False, Rowers.PRIESTS, Goal.PRIESTS).key()
        ('3/3/2', '3/3/2 boat_counts=no rowers=priests goal=priests')
        """
        variants = self._variants(
            "boat_counts=no",
            lambda rowers: f"rowers={rowers.value}",
            lambda goal: f"goal={goal.value}",
        )
        return " ".join([f"{self.priests}/{self.devils}/{self.capacity}", *variants])

    def describe(self) -> str:
        """The rules in words, for the statistics and the help.

        >>> RiverRules(3, 3, 2, False, Rowers.PRIESTS).describe()
        '3 priests, 3 devils, a boat for 2; passengers count for no bank; only priests row'
        """
        text = (
            f"{people(self.priests, Kind.PRIEST)}, {people(self.devils, Kind.DEVIL)}, "
            f"a boat for {self.capacity}"
        )
        variants = self._variants(
            "passengers count for no bank", Rowers.describe, lambda goal: f"goal: {goal.describe()}"
        )
        return "; ".join([text, *variants])

    def short(self) -> str:
        """A compact form for a table: ``"3P 3D 2 seats"``, then ``boat counts no``,
        ``priests row`` or ``devils row``, ``goal priests``.

        >>> RiverRules(3, 3, 2, False, Rowers.DEVILS, Goal.PRIESTS).short()
        '3P 3D 2 seats, boat counts no, devils row, goal priests'
        """
        seats = f"{self.priests}P {self.devils}D {self.capacity} seat{'s' * (self.capacity > 1)}"
        variants = self._variants(
            "boat counts no",
            lambda rowers: f"{rowers.value} row",
            lambda goal: f"goal {goal.value}",
        )
        return ", ".join([seats, *variants])

    def _variants(
        self, boat: str, rowers: Callable[[Rowers], str], goal: Callable[[Goal], str]
    ) -> list[str]:
        """One word per variant that is not the classic one, in the order boat, rowers, goal:
        ``boat`` where passengers do not count, ``rowers(...)`` and ``goal(...)`` of the
        others."""
        words = [] if self.boat_counts else [boat]
        if self.rowers is not Rowers.ANYONE:
            words.append(rowers(self.rowers))
        if self.goal is not Goal.EVERYONE:
            words.append(goal(self.goal))
        return words

    @classmethod
    def from_key(cls, text: str) -> RiverRules:
        """Read the form :meth:`key` writes (and ``boat-apart``, what statistics saved by
        earlier versions hold for ``boat_counts=no``); raises :class:`RiverSettingError` on bad
        text.

        >>> RiverRules.from_key("5/4/2")
        RiverRules(priests=5, devils=4, capacity=2, boat_counts=True, rowers=<Rowers.ANYONE: 'anyone'>, goal=<Goal.EVERYONE: 'everyone'>)
        >>> RiverRules.from_key("3/3/2 goal=priests").goal
        <Goal.PRIESTS: 'priests'>
        >>> RiverRules.from_key("3/3/2 boat-apart").key()
        '3/3/2 boat_counts=no'
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
                if word in ("boat_counts=no", _OLD_BOAT_WORD):
                    boat_counts = False
                elif word == "boat_counts=yes":
                    boat_counts = True
                elif name == "rowers":
                    rowers = Rowers(value)
                elif name == "goal":
                    goal = Goal(value)
                else:
                    raise ValueError(word)
            except ValueError:
                raise RiverSettingError(
                    f"unknown rule {word!r} in {text!r}; expected boat_counts=yes|no, "
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
