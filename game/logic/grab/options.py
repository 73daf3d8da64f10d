"""The options of a MasterGrab game: spec section 2's defaults, limits and presets.

:data:`SCHEMA` declares them, once (:mod:`game.logic.options`): each option's type, default and
range, read by the settings file's ``[grab]`` table, the command line's flags
(``--countries``, ``--robots``, ...) and the options panel. Its values are plain (``robots`` is
one text, ``"basic,basic,basic"``; ``distribution`` a name). :class:`GrabOptions` is the same
options typed (``robots`` a tuple, ``distribution`` a :class:`Distribution`): its defaults are
the schema's and it is checked by the schema when made, so a bad value raises
:class:`GrabOptionsError` (an :class:`~game.logic.options.OptionError`) in the schema's words.
:meth:`GrabOptions.from_values` / :meth:`GrabOptions.values` convert both ways.

``GrabOptions()`` is spec 2.1's default game: 140 countries, 5 % mountains, 20 armies in the
biggest country, the human against three ``basic`` robots.

>>> GrabOptions().players
4
>>> GrabOptions(countries=5)
Traceback (most recent call last):
...
game.logic.grab.options.GrabOptionsError: countries must be at least 10, not 5
>>> GrabOptions.from_values(SCHEMA.validate({"robots": "strategic,basic"})).robots
('strategic', 'basic')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from game.logic.grab.palette import COLOUR_NAMES, DEFAULT_COLOUR
from game.logic.options import Option, OptionError, OptionsSchema

#: How many robots a game may have (with a human; one more without): spec 2.1.
ROBOTS_RANGE: Final = (1, 15)
#: The apply check of spec 6.6's options window: countries >= 5 x players.
COUNTRIES_PER_PLAYER: Final = 5
DEFAULT_ROBOT: Final = "basic"
#: How fast the robots' moves are shown: seconds a move's animation takes (0: at once).
ROBOT_SPEEDS: Final[dict[str, float]] = {"instant": 0.0, "fast": 0.45, "normal": 0.9, "slow": 1.8}


class GrabOptionsError(OptionError):
    """An option is outside its allowed range, or a combination the game refuses; the message
    names the value and the range."""


class Distribution(enum.Enum):
    """How the starting owners are placed on the map (spec 1.3)."""

    RANDOM = "random"
    COMPACT = "compact"
    DIAGONAL = "diagonal"
    VERTICAL = "vertical"
    HORIZONTAL = "horizontal"


def _robot_names(text: str) -> list[str]:
    """The robot names in ``robots``' plain value: comma-separated, blanks left out."""
    return [name.strip() for name in text.split(",") if name.strip()]


def _cross_check(values: Mapping[str, Any]) -> None:
    """What no single range refuses: 1..15 robots with a human (2..15 without), and spec
    6.6's apply check, at least :data:`COUNTRIES_PER_PLAYER` countries per player."""
    robots = len(_robot_names(values["robots"]))
    low = ROBOTS_RANGE[0] if values["human_playing"] else ROBOTS_RANGE[0] + 1
    if not low <= robots <= ROBOTS_RANGE[1]:
        who = "with" if values["human_playing"] else "without"
        raise GrabOptionsError(
            f"robots: {robots} robots is outside {low}..{ROBOTS_RANGE[1]} {who} a human player"
        )
    players = robots + int(values["human_playing"])
    least = COUNTRIES_PER_PLAYER * players
    if values["countries"] < least:
        raise GrabOptionsError(
            f"countries={values['countries']} is below {least} "
            f"({COUNTRIES_PER_PLAYER} per player for {players} players)"
        )


#: The options, declared once: the limits of spec 2.1's option table (shown there in
#: tooltips only). Spec 2.1's tooltip allows an attack factor of 0, but the conquering
#: attacker keeps 1 + (s - D) / AF armies: AF = 0 would divide by zero, so it must be above 0.
SCHEMA: Final = OptionsSchema(
    (
        Option("countries", int, 140, 10, 777, step=10,
               help="countries on the map, mountains included"),
        Option("robots", str, ",".join([DEFAULT_ROBOT] * 3),
               help="one robot name per robot player, e.g. strategic,basic,basic"),
        Option("human_playing", bool, True,
               help="you play against the robots (off: the robots play alone)"),
        Option("distribution", str, Distribution.RANDOM.value,
               choices=tuple(d.value for d in Distribution),
               help="how the starting countries are placed"),
        Option("mountains_percent", int, 5, 0, 50,
               help="the share of countries that are mountains"),
        Option("armies_in_biggest", float, 20.0, 10.0, 200.0, step=5.0,
               help="the capacity of the biggest country"),
        Option("growth_factor", float, 0.1, 0.01, 1.0, step=0.01,
               help="the share of its capacity a country regrows per round"),
        Option("protection_factor", float, 2 / 3, 0.0, 10.0, step=0.05,
               help="armies kept home per army of the strongest enemy next door"),
        Option("attack_factor", float, 0.5, 0.0, 1.0, open_minimum=True, step=0.05,
               help="what an attacking army is worth against a defending one (> 0)"),
        Option("attack_benefit_factor", float, 1.0, 0.1, 10.0, step=0.1,
               help="armies won with a conquest, per army of the country's capacity"),
        Option("random_options", bool, False,
               help="every new game draws its options at random"),
        Option("robot_memory_mb", int, 512, 64, 65536, step=64,
               help="the memory (MiB) each robot found on disk may use"),
        Option("colour", str, DEFAULT_COLOUR, choices=COLOUR_NAMES,
               help="your colour on the map (the robots take the others)"),
        Option("robot_speed", str, "normal", choices=tuple(ROBOT_SPEEDS),
               help="how fast the robots' moves are shown (instant: no animation)"),
    ),
    cross_check=_cross_check,
)  # fmt: skip

#: The memory (MiB) each robot found on disk may take in its own process, unless set.
ROBOT_MEMORY_MB_DEFAULT: Final[int] = SCHEMA["robot_memory_mb"].default
_D: Final = SCHEMA.defaults()
_DISTRIBUTION: Final = Distribution(_D["distribution"])
_ROBOTS: Final = tuple(_robot_names(_D["robots"]))


@dataclass(frozen=True, slots=True)
class GrabOptions:
    """Everything that defines a game before the map is drawn (spec section 2), typed; the
    defaults, ranges and checks are :data:`SCHEMA`'s.

    ``robots`` names one robot type per robot player (1 to 15 of them); with
    ``human_playing`` false at least two robots are needed. ``random_options`` asks New Game
    to draw fresh options with :func:`random_options` each time. ``robot_memory_mb`` is what
    each robot found on disk may allocate in its process (over it, it loses that move).
    ``colour`` is the person's colour (a :data:`~game.logic.grab.palette.PALETTE` name) and
    ``robot_speed`` how fast the robots' moves are shown (:data:`ROBOT_SPEEDS`); neither
    changes the game itself.
    """

    countries: int = _D["countries"]
    mountains_percent: int = _D["mountains_percent"]
    armies_in_biggest: float = _D["armies_in_biggest"]
    growth_factor: float = _D["growth_factor"]
    protection_factor: float = _D["protection_factor"]
    attack_factor: float = _D["attack_factor"]
    attack_benefit_factor: float = _D["attack_benefit_factor"]
    distribution: Distribution = _DISTRIBUTION
    robots: tuple[str, ...] = _ROBOTS
    human_playing: bool = _D["human_playing"]
    random_options: bool = _D["random_options"]
    robot_memory_mb: int = _D["robot_memory_mb"]
    colour: str = _D["colour"]
    robot_speed: str = _D["robot_speed"]

    def __post_init__(self) -> None:
        # The two fields whose type the schema's plain values do not carry, then the schema.
        if not isinstance(self.distribution, Distribution):
            raise GrabOptionsError(
                f"distribution={self.distribution!r} is not one of "
                + ", ".join(d.value for d in Distribution)
            )
        if not isinstance(self.robots, tuple):
            raise GrabOptionsError(f"robots={self.robots!r} is not a tuple of robot names")
        for name in self.robots:
            if not isinstance(name, str) or not name.strip() or "," in name:
                raise GrabOptionsError(f"robot name {name!r} is not a non-empty string")
        try:
            SCHEMA.validate(self.values(), strict=True)
        except GrabOptionsError:
            raise
        except OptionError as exc:
            raise GrabOptionsError(str(exc)) from None

    @classmethod
    def from_values(cls, values: Mapping[str, Any]) -> GrabOptions:
        """Options from :data:`SCHEMA`'s plain values (missing ones default); raises
        :class:`GrabOptionsError` for a bad value or combination."""
        out: dict[str, Any] = {}
        for name, value in values.items():
            if name not in _FIELDS:
                raise GrabOptionsError(f"unknown option {name!r}")
            if name == "robots" and isinstance(value, str):
                value = tuple(_robot_names(value))
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
