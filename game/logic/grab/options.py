"""The options of a MasterGrab game: spec section 2's defaults, limits and presets.

``GrabOptions()`` is spec 2.1's default game: 140 countries, 5 % mountains, 20 armies in the
biggest country, the human against three ``basic`` robots. Every value is checked when the
options are made; a bad one raises :class:`GrabOptionsError` naming the value and its range.

:data:`SCHEMA` declares the same options for the settings file, the command line and the
options panel (:mod:`game.logic.options`): its values are plain (``robots`` is one text,
``"basic,basic,basic"``; ``distribution`` a name) and :meth:`GrabOptions.from_values` /
:meth:`GrabOptions.values` convert both ways; its cross-check is this class's own check.

>>> GrabOptions().players
4
>>> GrabOptions(countries=5)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
game.logic.grab.options.GrabOptionsError: countries=5 is outside 10..777
>>> GrabOptions.from_values(SCHEMA.validate({"robots": "strategic,basic"})).robots
('strategic', 'basic')
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from game.logic.grab.palette import COLOUR_NAMES, DEFAULT_COLOUR
from game.logic.options import Option, OptionsSchema

#: Limits of spec 2.1's option table (shown there in tooltips only), enforced here.
COUNTRIES_RANGE: Final = (10, 777)
MOUNTAINS_PERCENT_RANGE: Final = (0, 50)
ARMIES_IN_BIGGEST_RANGE: Final = (10.0, 200.0)
GROWTH_FACTOR_RANGE: Final = (0.01, 1.0)
PROTECTION_FACTOR_RANGE: Final = (0.0, 10.0)
# Spec 2.1's tooltip allows 0, but the conquering attacker keeps 1 + (s - D) / AF armies:
# AF = 0 would divide by zero, so the lower limit is exclusive here.
ATTACK_FACTOR_RANGE: Final = (0.0, 1.0)
ATTACK_BENEFIT_FACTOR_RANGE: Final = (0.1, 10.0)
ROBOTS_RANGE: Final = (1, 15)
#: The memory (MiB) each robot found on disk may take in its own process.
ROBOT_MEMORY_MB_RANGE: Final = (64, 65536)
ROBOT_MEMORY_MB_DEFAULT: Final = 512
#: The apply check of spec 6.6's options window: countries >= 5 x players.
COUNTRIES_PER_PLAYER: Final = 5
DEFAULT_ROBOT: Final = "basic"
#: How fast the robots' moves are shown: seconds a move's animation takes (0: at once).
ROBOT_SPEEDS: Final[dict[str, float]] = {"instant": 0.0, "fast": 0.45, "normal": 0.9, "slow": 1.8}


class GrabOptionsError(ValueError):
    """An option is outside its allowed range; the message names the value and the range."""


class Distribution(enum.Enum):
    """How the starting owners are placed on the map (spec 1.3)."""

    RANDOM = "random"
    COMPACT = "compact"
    DIAGONAL = "diagonal"
    VERTICAL = "vertical"
    HORIZONTAL = "horizontal"


@dataclass(frozen=True, slots=True)
class GrabOptions:
    """Everything that defines a game before the map is drawn (spec section 2).

    ``robots`` names one robot type per robot player (1 to 15 of them); with
    ``human_playing`` false at least two robots are needed. ``random_options`` asks New Game
    to draw fresh options with :func:`random_options` each time. ``robot_memory_mb`` is what
    each robot found on disk may allocate in its process (over it, it loses that move).
    ``colour`` is the person's colour (a :data:`~game.logic.grab.palette.PALETTE` name) and
    ``robot_speed`` how fast the robots' moves are shown (:data:`ROBOT_SPEEDS`); neither
    changes the game itself.
    """

    countries: int = 140
    mountains_percent: int = 5
    armies_in_biggest: float = 20.0
    growth_factor: float = 0.1
    protection_factor: float = 2 / 3
    attack_factor: float = 0.5
    attack_benefit_factor: float = 1.0
    distribution: Distribution = Distribution.RANDOM
    robots: tuple[str, ...] = field(default=(DEFAULT_ROBOT,) * 3)
    human_playing: bool = True
    random_options: bool = False
    robot_memory_mb: int = ROBOT_MEMORY_MB_DEFAULT
    colour: str = DEFAULT_COLOUR
    robot_speed: str = "normal"

    def __post_init__(self) -> None:
        _check_int("countries", self.countries, *COUNTRIES_RANGE)
        _check_int("robot_memory_mb", self.robot_memory_mb, *ROBOT_MEMORY_MB_RANGE)
        _check_int("mountains_percent", self.mountains_percent, *MOUNTAINS_PERCENT_RANGE)
        _check_float("armies_in_biggest", self.armies_in_biggest, *ARMIES_IN_BIGGEST_RANGE)
        _check_float("growth_factor", self.growth_factor, *GROWTH_FACTOR_RANGE)
        _check_float("protection_factor", self.protection_factor, *PROTECTION_FACTOR_RANGE)
        _check_float("attack_factor", self.attack_factor, *ATTACK_FACTOR_RANGE, low_inclusive=False)
        _check_float(
            "attack_benefit_factor", self.attack_benefit_factor, *ATTACK_BENEFIT_FACTOR_RANGE
        )
        if not isinstance(self.distribution, Distribution):
            raise GrabOptionsError(
                f"distribution={self.distribution!r} is not one of "
                + ", ".join(d.value for d in Distribution)
            )
        if self.colour not in COLOUR_NAMES:
            raise GrabOptionsError(
                f"colour={self.colour!r} is not one of {', '.join(COLOUR_NAMES)}"
            )
        if self.robot_speed not in ROBOT_SPEEDS:
            raise GrabOptionsError(
                f"robot_speed={self.robot_speed!r} is not one of {', '.join(ROBOT_SPEEDS)}"
            )
        if not isinstance(self.human_playing, bool):
            raise GrabOptionsError(f"human_playing={self.human_playing!r} is not a bool")
        if not isinstance(self.random_options, bool):
            raise GrabOptionsError(f"random_options={self.random_options!r} is not a bool")
        if not isinstance(self.robots, tuple):
            raise GrabOptionsError(f"robots={self.robots!r} is not a tuple of robot names")
        for name in self.robots:
            if not isinstance(name, str) or not name:
                raise GrabOptionsError(f"robot name {name!r} is not a non-empty string")
        low = ROBOTS_RANGE[0] if self.human_playing else ROBOTS_RANGE[0] + 1
        if not low <= len(self.robots) <= ROBOTS_RANGE[1]:
            who = "with" if self.human_playing else "without"
            raise GrabOptionsError(
                f"robots: {len(self.robots)} robots is outside {low}..{ROBOTS_RANGE[1]} "
                f"{who} a human player"
            )
        least = COUNTRIES_PER_PLAYER * self.players
        if self.countries < least:
            raise GrabOptionsError(
                f"countries={self.countries} is below {least} "
                f"({COUNTRIES_PER_PLAYER} per player for {self.players} players)"
            )

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> GrabOptions:
        """Options from :data:`SCHEMA`'s plain values (missing ones default); raises
        :class:`GrabOptionsError` for a bad value or combination."""
        out: dict[str, Any] = {}
        for name, value in values.items():
            if name not in _FIELDS:
                raise GrabOptionsError(f"unknown option {name!r}")
            if name == "robots" and isinstance(value, str):
                value = tuple(r.strip() for r in value.split(",") if r.strip())
            elif name == "distribution" and isinstance(value, str):
                try:
                    value = Distribution(value)
                except ValueError:
                    raise GrabOptionsError(
                        f"distribution={value!r} is not one of "
                        + ", ".join(d.value for d in Distribution)
                    ) from None
            out[name] = value
        return cls(**out)

    def values(self) -> dict[str, Any]:
        """The plain values :data:`SCHEMA` checks and the settings file stores."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["robots"] = ",".join(self.robots)
        out["distribution"] = self.distribution.value
        return out

    @property
    def players(self) -> int:
        """P: the human (if playing) plus every robot."""
        return len(self.robots) + int(self.human_playing)

    @property
    def mountains(self) -> int:
        """How many countries become mountains: ``pct * countries // 100`` (spec 1.2)."""
        return self.mountains_percent * self.countries // 100


def random_options(base: GrabOptions, rng: random.Random) -> GrabOptions:
    """Options drawn as spec 2.3's "Random Options" does.

    ``human_playing`` is kept from ``base``; every robot is a :data:`DEFAULT_ROBOT`; the result
    keeps ``random_options=True``. Rounding is Python's ``round`` (banker's, like .NET's).
    Each value is drawn from [offset, offset + range), as spec 2.1's table gives it.
    """
    robots = rng.randint(1, 5) + (0 if base.human_playing else 1)
    countries = rng.randrange(20, 300)
    # A draw can give fewer countries than the apply check allows (spec 6.6); raise to it.
    countries = max(countries, COUNTRIES_PER_PLAYER * (robots + int(base.human_playing)))
    kinds = [Distribution.RANDOM] * 6 + [Distribution.COMPACT] * 6
    kinds += [Distribution.DIAGONAL, Distribution.VERTICAL, Distribution.HORIZONTAL]
    return replace(
        base,
        countries=countries,
        mountains_percent=rng.randrange(0, 30),
        armies_in_biggest=float(round(10 + 90 * rng.random())),
        growth_factor=round(0.03 + 0.27 * rng.random(), 2),
        protection_factor=round(0.2 + 0.4 * rng.random(), 2),
        attack_factor=round(0.2 + 0.4 * rng.random(), 2),
        attack_benefit_factor=round(0.5 + 0.5 * rng.random(), 2),
        distribution=rng.choice(kinds),
        robots=(DEFAULT_ROBOT,) * robots,
        random_options=True,
    )


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GrabOptionsError(f"{name}={value!r} is not an integer in {low}..{high}")
    if not low <= value <= high:
        raise GrabOptionsError(f"{name}={value} is outside {low}..{high}")


def _check_float(
    name: str, value: object, low: float, high: float, *, low_inclusive: bool = True
) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GrabOptionsError(f"{name}={value!r} is not a number in {low:g}..{high:g}")
    opening = "[" if low_inclusive else "("
    inside = (low <= value if low_inclusive else low < value) and value <= high
    if not math.isfinite(value) or not inside:
        raise GrabOptionsError(f"{name}={value!r} is outside {opening}{low:g}, {high:g}]")


# Built after the helpers above, which validate it.
#: Spec 2.4's three preset configurations; all other values are the defaults.
PRESETS: Final[dict[str, GrabOptions]] = {
    "simple": GrabOptions(countries=33, robots=(DEFAULT_ROBOT,)),
    "9 robots compact": GrabOptions(
        countries=220, robots=(DEFAULT_ROBOT,) * 9, distribution=Distribution.COMPACT
    ),
    "9 robots mountains compact": GrabOptions(
        countries=330,
        mountains_percent=33,
        robots=(DEFAULT_ROBOT,) * 9,
        distribution=Distribution.COMPACT,
    ),
}


_FIELDS: Final = frozenset(f.name for f in fields(GrabOptions))
_DEFAULTS: Final = GrabOptions()


def _cross_check(values: Mapping[str, Any]) -> None:
    GrabOptions.from_values(values)


#: The options as :mod:`game.logic.options` declares them: the settings file's ``[grab]``
#: table, the command line's flags (``--countries``, ``--robots``, ...) and the options panel.
#: Ranges and defaults are :class:`GrabOptions`'; the cross-check is its own check.
SCHEMA: Final = OptionsSchema(
    (
        Option("countries", int, _DEFAULTS.countries, *COUNTRIES_RANGE, step=10,
               help="countries on the map, mountains included"),
        Option("robots", str, _DEFAULTS.values()["robots"],
               help="one robot name per robot player, e.g. strategic,basic,basic"),
        Option("human_playing", bool, _DEFAULTS.human_playing,
               help="you play against the robots (off: the robots play alone)"),
        Option("distribution", str, _DEFAULTS.distribution.value,
               choices=tuple(d.value for d in Distribution),
               help="how the starting countries are placed"),
        Option("mountains_percent", int, _DEFAULTS.mountains_percent, *MOUNTAINS_PERCENT_RANGE,
               help="the share of countries that are mountains"),
        Option("armies_in_biggest", float, _DEFAULTS.armies_in_biggest,
               *ARMIES_IN_BIGGEST_RANGE, step=5.0, help="the capacity of the biggest country"),
        Option("growth_factor", float, _DEFAULTS.growth_factor, *GROWTH_FACTOR_RANGE,
               step=0.01, help="the share of its capacity a country regrows per round"),
        Option("protection_factor", float, _DEFAULTS.protection_factor,
               *PROTECTION_FACTOR_RANGE, step=0.05,
               help="armies kept home per army of the strongest enemy next door"),
        Option("attack_factor", float, _DEFAULTS.attack_factor, *ATTACK_FACTOR_RANGE,
               step=0.05, help="what an attacking army is worth against a defending one (> 0)"),
        Option("attack_benefit_factor", float, _DEFAULTS.attack_benefit_factor,
               *ATTACK_BENEFIT_FACTOR_RANGE, step=0.1,
               help="armies won with a conquest, per army of the country's capacity"),
        Option("random_options", bool, _DEFAULTS.random_options,
               help="every new game draws its options at random"),
        Option("robot_memory_mb", int, _DEFAULTS.robot_memory_mb, *ROBOT_MEMORY_MB_RANGE,
               step=64, help="the memory (MiB) each robot found on disk may use"),
        Option("colour", str, _DEFAULTS.colour, choices=COLOUR_NAMES,
               help="your colour on the map (the robots take the others)"),
        Option("robot_speed", str, _DEFAULTS.robot_speed, choices=tuple(ROBOT_SPEEDS),
               help="how fast the robots' moves are shown (instant: no animation)"),
    ),
    cross_check=_cross_check,
)  # fmt: skip
