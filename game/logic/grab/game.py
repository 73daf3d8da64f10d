"""MasterGrab as a :class:`~game.logic.contract.Game`: options in, a map and starting armies out.

:class:`GrabGame` makes the starting state of a game from the options and a random generator
(the map, the owners and the armies all come from it, so one seed replays one game), names
the seats (spec 2.2: "You", then "Robot1" ...; robots only: "Robot1" ...), plays the turn of
a player who owns nothing as ``none`` by itself, and turns a robot's failed move into a lost
turn (spec 4.1, 4.2: nothing moves or grows). Played through a
:class:`~game.logic.match.Match` with a :class:`~game.logic.grab.sandbox.RobotAgent` in every
robot's seat.

>>> import random
>>> from game.logic.grab.options import GrabOptions
>>> game = GrabGame(GrabOptions(countries=20, robots=("basic",)), size=(200, 120))
>>> state = game.initial_state(random.Random(1))
>>> game.seats, [game.seat_name(s) for s in range(game.seats)], state.current_player()
(2, ['You', 'Robot1'], 0)
>>> state.key() == game.initial_state(random.Random(1)).key()
True
>>> game.map_of(state).countries
20
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from game.logic.contract import Game, Limits
from game.logic.grab.discovery import RobotRegistry
from game.logic.grab.map import GrabMap, generate_map
from game.logic.grab.names import country_names
from game.logic.grab.options import GrabOptions
from game.logic.grab.record import grab_state
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import (
    NO_MOVE,
    GrabBoard,
    GrabState,
    Move,
    click_move,
    player_statistics,
)
from game.logic.match import Match, Step

#: The human's seat name (player 0 when a human plays).
HUMAN_NAME: Final = "You"
#: The smallest map: the default game's 1280 x 720 pixels (spec 1.1 sizes it to the window).
MIN_MAP: Final = (1280, 720)
#: Pixels per country of the default game (140 countries on 1280 x 720).
PIXELS_PER_COUNTRY: Final = MIN_MAP[0] * MIN_MAP[1] / 140
#: Rounds after which a game between robots (a tournament's) is stopped and decided by the
#: ranking: four basic robots finish a 140-country game in 150 to 600 rounds; a few never do.
TOURNAMENT_ROUNDS: Final = 1000
#: How many recent maps a game keeps for :meth:`GrabGame.map_of` (a replay and a new game).
_MAPS_KEPT: Final = 4


def map_seed_of(seed: int) -> int:
    """The seed of the map that a game started from ``random.Random(seed)`` is played on (a
    :class:`~game.logic.match.Match` seeded with ``seed`` starts so): the generator's first
    draw. The window asks a worker for that map before it starts the match
    (:meth:`GrabGame.premake`).

    >>> game = GrabGame(GrabOptions(countries=20), size=(200, 120))
    >>> state = game.initial_state(random.Random(7))
    >>> options, width, height, map_seed, countries = game.map_arguments(map_seed_of(7))
    >>> made = generate_map(options, width, height, map_seed, countries=countries)
    >>> game.map_of(state).owner.tobytes() == made.owner.tobytes()
    True
    """
    return random.Random(seed).getrandbits(32)


def map_size(countries: int) -> tuple[int, int]:
    """A 16:9 map with about as many pixels per country as the default game, at least
    :data:`MIN_MAP`.

    >>> map_size(140), map_size(1000)
    ((1280, 720), (3421, 1924))
    """
    area = countries * PIXELS_PER_COUNTRY
    width = max(MIN_MAP[0], round(math.sqrt(area * 16 / 9)))
    height = max(MIN_MAP[1], round(width * 9 / 16))
    return width, height


class GrabGame(Game[Move]):
    """A MasterGrab game with fixed options (a :class:`GrabOptions` or :data:`SCHEMA
    <game.logic.grab.options.SCHEMA>` values).

    ``seats`` is P, the human (if playing) and every robot. ``size`` is the map in pixels
    (default :func:`map_size`); ``countries`` overrides the options' count (the options stop at
    777; the benchmark draws 1000). ``returns()`` of a finished game gives the winner 1 and
    everyone else 0 (:meth:`GrabState.decided_winner
    <game.logic.grab.state.GrabState.decided_winner>`).
    """

    id = "grab"
    title = "MasterGrab"
    returns_sum = 1.0

    def __init__(
        self,
        options: GrabOptions | Mapping[str, Any] | None = None,
        *,
        size: tuple[int, int] | None = None,
        countries: int | None = None,
    ) -> None:
        if not isinstance(options, GrabOptions):
            options = GrabOptions.from_values(options or {})
        super().__init__(options.values())
        self.grab_options = options
        self.seats = options.players
        self.countries = countries if countries is not None else options.countries
        self.size = size if size is not None else map_size(self.countries)
        self._maps: dict[GrabBoard, GrabMap] = {}
        self._premade: dict[tuple[Any, ...], GrabMap] = {}  # map arguments -> a map made
        self._names: dict[int, tuple[str, ...]] = {}  # id of a map -> its countries' names

    @property
    def human_playing(self) -> bool:
        return self.grab_options.human_playing

    def map_arguments(self, map_seed: int) -> tuple[GrabOptions, int, int, int, int | None]:
        """The arguments of :func:`~game.logic.grab.map.generate_map` for this game's map of
        ``map_seed``: options, width, height, seed and the countries' override (None: the
        options' count)."""
        width, height = self.size
        override = self.countries if self.countries != self.grab_options.countries else None
        return self.grab_options, width, height, map_seed, override

    def premake(self, map_seed: int, grab_map: GrabMap) -> None:
        """Use ``grab_map`` (made elsewhere from :meth:`map_arguments` of ``map_seed``: a
        worker process) for the next state that draws ``map_seed``, instead of making it
        here."""
        grab_map.owner.setflags(write=False)  # an unpickled array comes back writable
        grab_map.sizes.setflags(write=False)
        self._premade[self.map_arguments(map_seed)[1:]] = grab_map

    def initial_state(self, rng: random.Random) -> GrabState:
        """A new map (its seed drawn from ``rng``; one :meth:`premake` gave, or made now),
        then owners and armies (spec 1.2, 1.3)."""
        arguments = self.map_arguments(rng.getrandbits(32))
        grab_map = self._premade.pop(arguments[1:], None)
        if grab_map is None:
            options, width, height, map_seed, override = arguments
            grab_map = generate_map(options, width, height, map_seed, countries=override)
        state = GrabState.new(grab_map, self.grab_options, rng)
        self._maps[state.board] = grab_map
        while len(self._maps) > _MAPS_KEPT:
            del self._maps[next(iter(self._maps))]
        return state

    def map_of(self, state: GrabState) -> GrabMap:
        """The pixel map ``state`` is played on (one of the last few this game made)."""
        try:
            return self._maps[state.board]
        except KeyError:
            raise ValueError("this state's map was not made by this game (or long ago)") from None

    def country_names(self, state: GrabState) -> tuple[str, ...]:
        """Every country's name on ``state``'s map (:func:`~game.logic.grab.names.
        country_names`: the same map always has the same names)."""
        grab_map = self.map_of(state)
        names = self._names.get(id(grab_map))
        if names is None:
            names = country_names(grab_map)
            self._names = {
                key: value
                for key, value in self._names.items()
                if any(id(m) == key for m in self._maps.values())
            }
            self._names[id(grab_map)] = names
        return names

    def country_name(self, state: GrabState, country: int) -> str:
        """Country ``country``'s name on ``state``'s map ("country N" when the map is not
        one of this game's)."""
        try:
            return self.country_names(state)[country]
        except (ValueError, IndexError):
            return f"country {country}"

    def forced_action(self, state: Any) -> Move | None:
        """``none`` for a player who owns no country (an eliminated robot is not asked)."""
        if state.finished or state.to_move in state.owners:
            return None
        return NO_MOVE

    def forfeit(self, state: Any, action: object, reason: str) -> GrabState:
        """The turn is lost (spec 4.1, 4.2): the result records the error, nothing moves or
        grows (:meth:`GrabState.reject <game.logic.grab.state.GrabState.reject>`)."""
        move = action if type(action) is Move else NO_MOVE
        rejected: GrabState = state.reject(move)
        return rejected

    def seat_name(self, seat: int) -> str:
        """Spec 2.2: "You" for the human, "Robot1" ... for the robots."""
        if self.human_playing:
            return HUMAN_NAME if seat == 0 else f"Robot{seat}"
        return f"Robot{seat + 1}"

    def result_text(self, state: Any) -> str:
        """``You won: ...``, ``You lost: ...`` or ``Robot2 won.`` (spec 4.4); "" before the
        end. A human who lost every country ends the game (no robot has won yet): the text
        names the robot leading the ranking, which :meth:`GrabState.returns` counts as the
        winner."""
        winner = state.decided_winner()
        if winner is None:
            return ""
        if not self.human_playing:
            return f"{self.seat_name(winner)} won."
        if winner == 0:
            return "You won: every country is yours."
        name = self.seat_name(winner)
        if len({o for o in state.owners if o != MOUNTAIN}) == 1:
            return f"You lost: {name} took every country."
        return f"You lost: no country left. {name} leads the ranking."

    def unfinished_returns(self, state: Any) -> tuple[float, ...]:
        """A game stopped before its end (a tournament's cap) goes to the player first in the
        ranking (spec 4.5: the most land; ties: the lowest id): 1 for it, 0 for the others."""
        leader = player_statistics(state)[0].player
        return tuple(1.0 if p == leader else 0.0 for p in range(self.seats))

    def step_cap(self) -> int:
        """:data:`TOURNAMENT_ROUNDS` rounds of every player's move."""
        return TOURNAMENT_ROUNDS * self.seats


def robots_match(
    robots: Sequence[str],
    seed: int,
    *,
    countries: int = 140,
    registry: RobotRegistry | None = None,
    budget_s: float = 1.0,
    start: GrabState | None = None,
) -> Match[Move]:
    """A robots-only match of the robots named in ``robots`` (player order, keys of
    ``registry``, default the built-ins) on the map and armies of ``seed`` (or from
    ``start``), thinking in place with ``budget_s`` seconds a move. Raises UnknownRobotError or
    GrabOptionsError (both ValueErrors) for bad names or counts. Close it when done (robot
    processes)."""
    registry = registry if registry is not None else _builtins()
    game = GrabGame(GrabOptions(human_playing=False, robots=tuple(robots), countries=countries))
    agents = [registry.agent(key, budget_s) for key in robots]
    return Match(game, agents, seed=seed, limits=Limits(time=budget_s), start=start)


def play_rounds(match: Match[Move], rounds: int) -> int:
    """Let the agents of a match that thinks in place play until the game ends or ``rounds``
    more rounds are complete (a round ends when player 0 is to move again); returns the rounds
    begun. The match is paused at the end of the last round (``paused`` as before after)."""
    state = grab_state(match)
    players = state.board.players
    goal = (state.turn // players + rounds) * players
    if match.background:
        raise ValueError("play_rounds thinks in place; this match thinks in the background")
    watching, paused = match.on_step, match.paused

    def watch(step: Step) -> None:
        if watching is not None:
            watching(step)
        if grab_state(match).turn >= goal:
            match.paused = True

    match.on_step, match.paused = watch, False
    try:
        while not match.over and not match.paused and grab_state(match).turn < goal:
            if not match.poll():
                break
    finally:
        match.on_step, match.paused = watching, paused
    return (grab_state(match).turn - state.turn + players - 1) // players


_BUILTINS: RobotRegistry | None = None


def _builtins() -> RobotRegistry:
    """One shared registry of the built-in robots (they hold no state of their own)."""
    global _BUILTINS
    if _BUILTINS is None:
        _BUILTINS = RobotRegistry.builtins()
    return _BUILTINS


__all__ = [
    "HUMAN_NAME",
    "MIN_MAP",
    "GrabGame",
    "click_move",
    "map_size",
    "play_rounds",
    "robots_match",
]
