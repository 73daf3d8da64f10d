"""The robot API of MasterGrab: what a robot writer codes against (spec 5.1).

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
the entry-point group ``gamehall.robots``); :mod:`game.logic.grab.discovery` finds it. Every
robot plays as an :class:`~game.logic.contract.Agent` through its sandbox
(:mod:`game.logic.grab.sandbox`): robots found on disk in their own process, the built-in ones
in the game's. A robot that raises, answers with an illegal move or thinks longer than its
budget loses that move, and the game goes on.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar, overload

from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import (
    GrabBoard,
    GrabState,
    Move,
    PlayerStats,
    Result,
    player_statistics,
)


class UnknownRobotError(ValueError):
    """A robot name that the registry does not know."""


class Robot:
    """The base class of every robot: subclass it and override :meth:`plan`.

    One instance plays one game: it is made with no arguments when the game starts (and again
    on replay, or when the game goes back to an earlier move) and may keep what it likes
    between its moves, as long as it is plain data such as country ids (the game it sees is a
    new copy every move).

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


_T = TypeVar("_T")


class _OfBoard(Generic[_T]):
    """A read-only attribute of :class:`RobotGame`: the attribute of the same name of its
    :attr:`~RobotGame.board`, documented by ``doc``."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self._name = ""

    def __set_name__(self, owner: type[RobotGame], name: str) -> None:
        self._name = name

    @overload
    def __get__(self, game: None, owner: type[RobotGame]) -> _OfBoard[_T]: ...
    @overload
    def __get__(self, game: RobotGame, owner: type[RobotGame] | None = None) -> _T: ...
    def __get__(
        self, game: RobotGame | None, owner: type[RobotGame] | None = None
    ) -> _T | _OfBoard[_T]:
        if game is None:
            return self
        value: _T = getattr(game._state.board, self._name)
        return value

    def __set__(self, game: RobotGame, value: object) -> None:
        raise AttributeError(f"RobotGame.{self._name} is read-only")


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

    players = _OfBoard[int]("P: how many players, eliminated ones included; ids are 0 .. P - 1.")

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

    human_playing = _OfBoard[bool]("True when player 0 is a human.")
    attack_factor = _OfBoard[float](
        "AF: what an attacking army is worth against a defending one (spec 3.4)."
    )
    protection_factor = _OfBoard[float](
        "PF: the armies a country keeps home per army of its strongest enemy next door "
        "(spec 3.5, :meth:`defence_needed`)."
    )
    attack_benefit_factor = _OfBoard[float](
        "The armies won with a conquest, per army of the country's capacity."
    )
    growth_factor = _OfBoard[float]("The share of its capacity a country regrows per round.")
    mountains = _OfBoard[frozenset[int]]("The mountains' country ids.")

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
        """The robot's countries in ``CountryIds`` order (spec 5.1): the starting ones by
        ascending id, then those won later in the order they were won."""
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
        least 1 army reaches its armies (a tie wins). (Spec 5.1's ``CanBeAttacked`` checks
        only ownership and adjacency; this one also counts the armies.)"""
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
            # Plain loops: several times faster than all() over a generator per country.
            owners = self._state.owners
            table = []
            for own, ns in zip(owners, self._state.board.neighbours, strict=True):
                for n in ns:
                    if owners[n] != own:
                        table.append(False)
                        break
                else:
                    table.append(True)
            self._inland = tuple(table)
        return self._inland


# --- Helpers ---------------------------------------------------------------------------------


def _detached(state: GrabState) -> GrabState:
    """A copy of ``state`` and its board (and results) sharing only immutable values, so that
    even ``object.__setattr__`` on the copy cannot reach the game's state. Much cheaper than
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


#: Names that moved to :mod:`game.logic.grab.discovery` and :mod:`game.logic.grab.sandbox`,
#: still importable from here.
_MOVED = {
    "BUILTIN_ROBOTS": "game.logic.grab.discovery",
    "ENTRY_POINT_GROUP": "game.logic.grab.discovery",
    "RobotInfo": "game.logic.grab.discovery",
    "RobotOrigin": "game.logic.grab.discovery",
    "RobotRegistry": "game.logic.grab.discovery",
    "InProcessRunner": "game.logic.grab.sandbox",
    "ProcessRunner": "game.logic.grab.sandbox",
    "RobotAgent": "game.logic.grab.sandbox",
    "RobotRunner": "game.logic.grab.sandbox",
}


def __getattr__(name: str) -> Any:
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = ["Robot", "RobotGame", "UnknownRobotError"]
