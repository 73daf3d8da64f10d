"""The state of a MasterGrab game: who owns what, armies, whose move (spec sections 3-4).

A :class:`GrabBoard` holds what never changes during a game (sizes, capacities, neighbours,
mountains, the factors); a :class:`GrabState` holds what does, as tuples, and every move makes
a new state (:meth:`GrabState.apply`), so states can be shared, hashed and compared freely.
:class:`GrabState` is a :class:`~game.logic.contract.State`: the player to move is the current
player, a move is an action and its text (``attack 3,5>12``) reads back.

>>> board = GrabBoard(sizes=(100, 100), neighbours=((1,), (0,)), players=2)
>>> state = GrabState(board, owners=(0, 1), armies=(10.0, 2.0))
>>> [state.action_text(m) for m in state.legal_actions()]
['none', 'gather >0', 'attack 0>1']
>>> after = state.apply(state.parse_action("attack 0>1"))
>>> after.owners, after.current_player()
((0, 0), 1)
>>> after.apply(NO_MOVE).current_player(), after.apply(NO_MOVE).returns()
(-4, (1.0, 0.0))
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

import numpy as np

from game.logic.contract import TERMINAL, IllegalActionError, NotationError
from game.logic.grab.rules import (
    MOUNTAIN,
    attack,
    capacities,
    gather,
    initial_armies,
    initial_owners,
)

if TYPE_CHECKING:
    # Types only: the map module loads numba, which a robot's child process does not need.
    from game.logic.grab.map import GrabMap
    from game.logic.grab.options import GrabOptions


class GrabMoveError(IllegalActionError):
    """A move breaks the ownership or adjacency rules (spec 4.2); the state is unchanged."""


class GrabNotationError(GrabMoveError, NotationError):
    """Text that is not a move (``none``, ``attack 3,5>12``, ``gather 1,2>7``)."""


class MoveKind(enum.Enum):
    """The three move types of spec 4.2."""

    NONE = "none"
    GATHER = "gather"
    ATTACK = "attack"


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``sources`` attack or gather into ``target``; ``none`` has neither.

    The text form is ``none``, ``attack 3,5>12`` or ``gather 1,2>7`` (``gather >7`` when no
    own neighbour can give), and :meth:`parse` reads it back.
    """

    kind: MoveKind
    target: int = -1
    sources: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind is MoveKind.NONE and (self.target != -1 or self.sources):
            raise GrabMoveError("a none move has no target and no sources")

    def __str__(self) -> str:
        if self.kind is MoveKind.NONE:
            return "none"
        return f"{self.kind.value} {','.join(map(str, self.sources))}>{self.target}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move written by ``str(move)``; raises :class:`GrabNotationError` on bad text."""
        words = text.split()
        if words == ["none"]:
            return NO_MOVE
        try:
            kind = MoveKind(words[0])
            left, right = words[1].split(">")
            sources = tuple(int(s) for s in left.split(",")) if left else ()
            if kind is MoveKind.NONE or len(words) != 2:
                raise ValueError(text)
            return cls(kind, int(right), sources)
        except (ValueError, IndexError) as error:
            raise GrabNotationError(
                f"not a move: {text!r} (write none, attack 3,5>12 or gather 1,2>7)"
            ) from error


NO_MOVE = Move(MoveKind.NONE)


@dataclass(frozen=True, slots=True)
class Result:
    """A player's last move and what it did (spec 4.3).

    ``defender`` is the target's previous owner for attacks and the player for gathers;
    ``before`` and ``after`` are truncated armies, the target first, then the sources in
    order, ``after`` taken before growth. ``probability`` is spec 4.3's misnamed field: AF
    for attacks, 1 for gathers. A none result (the start of the game included) sets only
    ``kind``, ``is_error`` and ``player``.
    """

    kind: MoveKind
    player: int
    is_error: bool = False
    defender: int = 0
    target: int = 0
    sources: tuple[int, ...] = ()
    success: bool = False
    before: tuple[int, ...] = ()
    after: tuple[int, ...] = ()
    probability: float = 0.0


@dataclass(frozen=True, slots=True, eq=False)
class GrabBoard:
    """The fixed part of a game: the map's countries and the options' factors.

    ``neighbours[c]`` is sorted by id (spec 1.2); mountains have none and are listed in
    ``mountains``. ``players`` is P, eliminated players included. ``capacity`` and ``growth``
    (what a land country below its capacity gains per move, spec 3.3) are derived.
    """

    sizes: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    players: int
    mountains: frozenset[int] = frozenset()
    human_playing: bool = True
    armies_in_biggest: float = 20.0
    growth_factor: float = 0.1
    protection_factor: float = 2 / 3
    attack_factor: float = 0.5
    attack_benefit_factor: float = 1.0
    capacity: tuple[int, ...] = field(init=False)
    growth: tuple[float, ...] = field(init=False)

    def __post_init__(self) -> None:
        sizes = np.array(self.sizes, dtype=np.int64)
        object.__setattr__(
            self, "capacity", tuple(capacities(sizes, self.armies_in_biggest).tolist())
        )
        object.__setattr__(self, "growth", _growth_per_move(self))

    @classmethod
    def from_map(cls, grab_map: GrabMap, options: GrabOptions) -> GrabBoard:
        """The board of ``grab_map`` played with ``options``."""
        return cls(
            sizes=tuple(grab_map.sizes.tolist()),
            neighbours=tuple(tuple(sorted(n)) for n in grab_map.neighbours),
            players=options.players,
            mountains=grab_map.mountains,
            human_playing=options.human_playing,
            armies_in_biggest=options.armies_in_biggest,
            growth_factor=options.growth_factor,
            protection_factor=options.protection_factor,
            attack_factor=options.attack_factor,
            attack_benefit_factor=options.attack_benefit_factor,
        )

    @property
    def countries(self) -> int:
        return len(self.sizes)


@dataclass(frozen=True, slots=True)
class GrabState:
    """Owners (player or :data:`MOUNTAIN`) and armies per country, the player to move, how many
    moves were played (``turn``), and the end of the game (spec 4.4): ``winner`` is None when
    the game is not over or the human lost (:meth:`decided_winner` names one then too).

    ``changed[c]`` is the turn after which country c last changed owner (0: it never did);
    sorting a player's countries by ``(changed, id)`` gives spec 5.1's ``CountryIds`` order
    (:meth:`countries_of`). It defaults to all 0.

    As a :class:`~game.logic.contract.State`: ``current_player()`` is ``to_move`` (``TERMINAL``
    once finished); ``legal_actions()`` lists ``legal_moves(to_move)`` and its ``in`` accepts
    every legal move (:class:`LegalMoves`); ``returns()`` gives 1 to the winner and 0 to every
    other player once the game is over (:meth:`decided_winner`), so they add up to 1.
    """

    board: GrabBoard = field(compare=False, repr=False)
    owners: tuple[int, ...]
    armies: tuple[float, ...]
    to_move: int = 0
    turn: int = 0
    finished: bool = False
    winner: int | None = None
    results: tuple[Result, ...] = ()
    changed: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.results:
            none = tuple(Result(MoveKind.NONE, p) for p in range(self.board.players))
            object.__setattr__(self, "results", none)
        if not self.changed:
            object.__setattr__(self, "changed", (0,) * len(self.owners))

    @classmethod
    def new(
        cls,
        grab_map: GrabMap,
        options: GrabOptions,
        rng: random.Random,
    ) -> GrabState:
        """The starting position: owners per spec 1.3, then armies drawn from ``rng``."""
        board = GrabBoard.from_map(grab_map, options)
        owners = initial_owners(
            board.sizes,
            board.mountains,
            grab_map.centres,
            grab_map.width,
            grab_map.height,
            board.players,
            board.human_playing,
            options.distribution,
        )
        return cls(board, tuple(owners), tuple(initial_armies(board.capacity, owners, rng)))

    def key(self) -> tuple[tuple[int, ...], tuple[float, ...], int, int]:
        """Everything that tells two positions of one board apart, hashable."""
        return (self.owners, self.armies, self.to_move, self.turn)

    # --- The game contract (game.logic.contract.State) ------------------------------------------

    def current_player(self) -> int:
        """The player to move, or ``TERMINAL`` once the game is over."""
        return TERMINAL if self.finished else self.to_move

    def legal_actions(self) -> LegalMoves:
        """The moves of the player to move (see :class:`LegalMoves`); empty once over."""
        return LegalMoves(self)

    def is_terminal(self) -> bool:
        return self.finished

    def returns(self) -> tuple[float, ...]:
        """1 for the winner (:meth:`decided_winner`), 0 for the others; all 0 before the end."""
        winner = self.decided_winner()
        return tuple(1.0 if p == winner else 0.0 for p in range(self.board.players))

    def decided_winner(self) -> int | None:
        """Who won a finished game (None before the end): ``winner``, or, when the human lost
        every country (spec 4.4 ends the game with no winner), the player that leads the
        ranking (spec 4.5)."""
        if not self.finished:
            return None
        if self.winner is not None:
            return self.winner
        return player_statistics(self)[0].player

    def action_text(self, action: Move) -> str:
        return str(action)

    def parse_action(self, text: str) -> Move:
        """The move ``text`` names (``Move.parse``); legal or not is :meth:`check`'s call."""
        return Move.parse(text.strip())

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """Nothing is left to chance once the map and armies are drawn."""
        return ()

    def observation(self, seat: int) -> tuple[tuple[int, ...], tuple[float, ...], int, int]:
        """Every player sees the whole map: the key."""
        return self.key()

    def countries_of(self, player: int) -> list[int]:
        """``player``'s countries in ``CountryIds`` order (spec 5.1): the starting ones by
        ascending id, then those won later in the order they were won."""
        owned = [c for c, owner in enumerate(self.owners) if owner == player]
        changed = self.changed
        if any(changed[c] for c in owned):
            owned.sort(key=lambda c: (changed[c], c))
        return owned

    def legal_moves(self, player: int) -> list[Move]:
        """``none``, then per country in id order the move a click on it sends (spec 3.6, 6.4):
        a gather from every own neighbour into an own country, or an attack from every own
        neighbour on a country that has at least one. Any non-empty subset of those sources
        is also legal (:meth:`check`); it is left out here to keep the list short."""
        moves = [NO_MOVE]
        if self.finished:
            return moves
        for c, owner in enumerate(self.owners):
            if owner == MOUNTAIN:
                continue
            own = tuple(n for n in self.board.neighbours[c] if self.owners[n] == player)
            if owner == player:
                moves.append(Move(MoveKind.GATHER, c, own))
            elif own:
                moves.append(Move(MoveKind.ATTACK, c, own))
        return moves

    def check(self, move: Move, player: int) -> None:
        """Raise :class:`GrabMoveError` unless ``player`` may play ``move`` (spec 3.4, 3.6)."""
        if move.kind is MoveKind.NONE:
            return
        if not 0 <= move.target < self.board.countries:
            raise GrabMoveError(f"{move}: no country {move.target}")
        target_owner = self.owners[move.target]
        if move.kind is MoveKind.ATTACK:
            if target_owner in (player, MOUNTAIN):
                raise GrabMoveError(f"{move}: player {player} cannot attack {move.target}")
            if not move.sources:
                raise GrabMoveError(f"{move}: an attack needs attackers")
        elif target_owner != player:
            raise GrabMoveError(f"{move}: player {player} does not own {move.target}")
        if len(set(move.sources)) != len(move.sources):
            raise GrabMoveError(f"{move}: a country is listed twice")
        for s in move.sources:
            if not 0 <= s < self.board.countries or self.owners[s] != player:
                raise GrabMoveError(f"{move}: player {player} does not own {s}")
            if s not in self.board.neighbours[move.target]:
                raise GrabMoveError(f"{move}: {s} is not a neighbour of {move.target}")

    def apply(self, move: Move) -> GrabState:
        """The state after the player to move plays ``move`` (spec 4.1): the move, growth of
        every land country, then, after the last player's move, the end check (4.4).

        An illegal move raises :class:`GrabMoveError` and nothing grows.
        """
        if self.finished:
            raise GrabMoveError("the game is over")
        player = self.to_move
        self.check(move, player)
        board = self.board
        owners = list(self.owners)
        armies = list(self.armies)
        success = play_move(board, owners, armies, move)
        if move.kind is MoveKind.NONE:
            result = Result(MoveKind.NONE, player)
        else:
            countries = (move.target, *move.sources)
            result = Result(
                move.kind,
                player,
                defender=self.owners[move.target],
                target=move.target,
                sources=move.sources,
                success=success,
                before=tuple(int(self.armies[c]) for c in countries),
                after=tuple(int(armies[c]) for c in countries),
                probability=board.attack_factor if move.kind is MoveKind.ATTACK else 1.0,
            )
        results = list(self.results)
        results[player] = result
        changed = self.changed
        if move.kind is MoveKind.ATTACK and success:
            changed = (*changed[: move.target], self.turn + 1, *changed[move.target + 1 :])
        grow_in_place(board, owners, armies)
        finished, winner = False, None
        if player == board.players - 1:
            finished, winner = _decide_end(board, owners)
        return GrabState(
            board,
            tuple(owners),
            tuple(armies),
            (player + 1) % board.players,
            self.turn + 1,
            finished,
            winner,
            tuple(results),
            changed,
        )

    def reject(self, move: Move) -> GrabState:
        """The state after the player to move sent the illegal ``move`` (spec 4.2, 4.1): its
        result records the error, nothing moves or grows, no end check, and the next player
        is to move (spec 4.1: the error is reported and the round goes on)."""
        results = list(self.results)
        results[self.to_move] = Result(
            move.kind, self.to_move, is_error=True, target=move.target, sources=move.sources
        )
        return GrabState(
            self.board,
            self.owners,
            self.armies,
            (self.to_move + 1) % self.board.players,
            self.turn + 1,
            self.finished,
            self.winner,
            tuple(results),
            self.changed,
        )


class LegalMoves(Sequence[Move]):
    """``legal_moves(to_move)`` of a state, listed when first needed; empty once it is over.

    The list holds ``none`` and the move a click sends for each country (spec 6.4); any
    non-empty subset of a listed move's sources is legal too, and ``in`` accepts it
    (:meth:`GrabState.check`), so a robot's or a script's move is checked without listing
    every subset.
    """

    __slots__ = ("_moves", "_state")

    def __init__(self, state: GrabState) -> None:
        self._state = state
        self._moves: tuple[Move, ...] | None = None

    def _list(self) -> tuple[Move, ...]:
        if self._moves is None:
            state = self._state
            self._moves = () if state.finished else tuple(state.legal_moves(state.to_move))
        return self._moves

    def __len__(self) -> int:
        return len(self._list())

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Move, ...]: ...

    def __getitem__(self, index: int | slice) -> Move | tuple[Move, ...]:
        return self._list()[index]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __contains__(self, move: object) -> bool:
        state = self._state
        if state.finished or type(move) is not Move:
            return False
        try:
            state.check(move, state.to_move)
        except GrabMoveError:
            return False
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalMoves([{', '.join(map(str, self))}])"


def click_move(state: GrabState, country: int, player: int = 0) -> Move | None:
    """The move a click on ``country`` sends for ``player`` (spec 6.4): a gather into an own
    country from every own neighbour, an attack on another's country with every own neighbour,
    or None when no own country borders it (mountains: nobody's neighbour). It is the entry
    of :meth:`GrabState.legal_moves` for ``country``.

    >>> board = GrabBoard(sizes=(100, 100, 100), neighbours=((1,), (0, 2), (1,)), players=2)
    >>> state = GrabState(board, owners=(0, 0, 1), armies=(5.0, 5.0, 2.0))
    >>> [str(click_move(state, c)) for c in range(3)]
    ['gather 1>0', 'gather 0>1', 'attack 1>2']
    """
    moves = state.legal_moves(player)
    return next((m for m in moves if m.kind is not MoveKind.NONE and m.target == country), None)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's line of the ranking (spec 4.5).

    ``countries_percent`` is the share of the land countries (mountains left out) and
    ``size_percent`` the share of all owned pixels, both in percent (0 to 100). ``armies`` sums
    the truncated armies. ``rank`` is competition ranking by size, biggest first: tied players
    share a rank and the next is skipped (1, 1, 3); eliminated players (size 0) come last.
    """

    player: int
    rank: int
    countries: int
    countries_percent: float
    armies: int
    size: int
    size_percent: float


def player_statistics(state: GrabState) -> list[PlayerStats]:
    """The ranking of spec 4.5, in rank order (ties by player id).

    >>> board = GrabBoard(sizes=(100, 50, 50), neighbours=((1, 2), (0,), (0,)), players=3)
    >>> [(s.player, s.rank, s.size) for s in player_statistics(
    ...     GrabState(board, (1, 0, 2), (1.0, 2.5, 3.0)))]
    [(1, 1, 100), (0, 2, 50), (2, 2, 50)]
    """
    board = state.board
    players = board.players
    countries = [0] * players
    armies = [0] * players
    sizes = [0] * players
    for c, owner in enumerate(state.owners):
        if owner != MOUNTAIN:
            countries[owner] += 1
            armies[owner] += int(state.armies[c])
            sizes[owner] += board.sizes[c]
    land = sum(countries)
    owned = sum(sizes)
    order = sorted(range(players), key=lambda p: (-sizes[p], p))
    ranked: list[PlayerStats] = []
    for index, p in enumerate(order):
        rank = ranked[-1].rank if index and sizes[p] == ranked[-1].size else index + 1
        ranked.append(
            PlayerStats(
                p,
                rank,
                countries[p],
                100.0 * countries[p] / land if land else 0.0,
                armies[p],
                sizes[p],
                100.0 * sizes[p] / owned if owned else 0.0,
            )
        )
    return ranked


def _growth_per_move(board: GrabBoard) -> tuple[float, ...]:
    """Spec 3.3's gain per move and country, with the same float operations as
    :func:`~game.logic.grab.rules.grow` (so results do not depend on which one ran)."""
    if not board.sizes:
        return ()
    land = [s for c, s in enumerate(board.sizes) if c not in board.mountains] or [0]
    biggest_land, biggest = max(land), max(board.sizes)
    if biggest_land == 0:
        return (0.0,) * len(board.sizes)
    per_size = float(board.armies_in_biggest) * biggest_land / biggest / biggest_land
    return tuple(s * per_size * board.growth_factor / board.players for s in board.sizes)


def grow_in_place(board: GrabBoard, owners: Sequence[int], armies: list[float]) -> None:
    """Spec 3.3 after every move: a land country below its capacity gains its growth, clamped
    to the capacity; plain arithmetic, a numpy round trip costs more at this size."""
    capacity = board.capacity
    for c, gain in enumerate(board.growth):
        army = armies[c]
        cap = capacity[c]
        if army < cap and owners[c] != MOUNTAIN:
            grown = army + gain
            armies[c] = grown if grown < cap else float(cap)


def _decide_end(board: GrabBoard, owners: Sequence[int]) -> tuple[bool, int | None]:
    """Spec 4.4: the human (player 0) owning nothing ends it with no winner; one owner of all
    land ends it with that owner as the winner."""
    if board.human_playing and 0 not in owners:
        return True, None
    land_owners = {o for o in owners if o != MOUNTAIN}
    if len(land_owners) == 1:
        return True, land_owners.pop()
    return False, None


def play_move(board: GrabBoard, owners: list[int], armies: list[float], move: Move) -> bool:
    """Play ``move`` on the lists ``owners`` and ``armies`` in place (spec 4.2; no growth and
    no checks); returns whether an attack succeeded (True for the other moves)."""
    if move.kind is MoveKind.ATTACK:
        return bool(
            attack(
                owners,
                armies,
                move.target,
                move.sources,
                board.neighbours,
                board.capacity[move.target],
                board.attack_factor,
                board.protection_factor,
                board.attack_benefit_factor,
            )
        )
    if move.kind is MoveKind.GATHER:
        gather(owners, armies, move.target, move.sources, board.neighbours, board.protection_factor)
    return True


__all__ = [
    "NO_MOVE",
    "GrabBoard",
    "GrabMoveError",
    "GrabNotationError",
    "GrabState",
    "LegalMoves",
    "Move",
    "MoveKind",
    "PlayerStats",
    "Result",
    "grow_in_place",
    "play_move",
    "player_statistics",
]
