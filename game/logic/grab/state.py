"""The state of a MasterGrab game: who owns what, armies, whose move (spec sections 3-4).

A :class:`GrabBoard` holds what never changes during a game (sizes, capacities, neighbours,
mountains, the factors); a :class:`GrabState` holds what does, as tuples, and every move makes
a new state (:meth:`GrabState.apply`), so states can be shared, hashed and compared freely.

>>> board = GrabBoard(sizes=(100, 100), neighbours=((1,), (0,)), players=2)
>>> state = GrabState(board, owners=(0, 1), armies=(10.0, 2.0))
>>> [str(m) for m in state.legal_moves(0)]
['none', 'gather >0', 'attack 0>1']
>>> state.apply(Move.parse("attack 0>1")).owners
(0, 0)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from game.logic.grab.map import GrabMap
from game.logic.grab.options import GrabOptions
from game.logic.grab.rules import (
    MOUNTAIN,
    attack,
    capacities,
    gather,
    grow,
    initial_armies,
    initial_owners,
)


class GrabMoveError(ValueError):
    """A move breaks the ownership or adjacency rules (spec 4.2); the state is unchanged."""


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
        """The move written by ``str(move)``; raises :class:`GrabMoveError` on bad text."""
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
            raise GrabMoveError(f"not a move: {text!r}") from error


NO_MOVE = Move(MoveKind.NONE)


@dataclass(frozen=True, slots=True)
class Result:
    """A player's last move and what it did (spec 4.3).

    ``defender`` is the target's previous owner for attacks and the player for gathers;
    ``before`` and ``after`` are truncated armies, the target first, then the sources in
    order, ``after`` taken before growth. ``probability`` keeps the original's misnamed field:
    AF for attacks, 1 for gathers. A none result (the start of the game included) sets only
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
    ``mountains``. ``players`` is P, eliminated players included.
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

    def __post_init__(self) -> None:
        sizes = np.array(self.sizes, dtype=np.int64)
        object.__setattr__(
            self, "capacity", tuple(capacities(sizes, self.armies_in_biggest).tolist())
        )

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
    the game is not over or the human lost."""

    board: GrabBoard = field(compare=False, repr=False)
    owners: tuple[int, ...]
    armies: tuple[float, ...]
    to_move: int = 0
    turn: int = 0
    finished: bool = False
    winner: int | None = None
    results: tuple[Result, ...] = ()

    def __post_init__(self) -> None:
        if not self.results:
            none = tuple(Result(MoveKind.NONE, p) for p in range(self.board.players))
            object.__setattr__(self, "results", none)

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

    def countries_of(self, player: int) -> list[int]:
        return [c for c, owner in enumerate(self.owners) if owner == player]

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
        success = True
        if move.kind is MoveKind.ATTACK:
            success = attack(
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
        elif move.kind is MoveKind.GATHER:
            gather(
                owners, armies, move.target, move.sources, board.neighbours, board.protection_factor
            )
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
        armies = _grown(board, owners, armies)
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
        )

    def reject(self, move: Move) -> GrabState:
        """The state after the player to move sent the illegal ``move`` (spec 4.2, 4.1): its
        result records the error, nothing moves or grows, no end check, and the next player
        is to move (the original's controller reports the error and goes on)."""
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
        )


def _grown(board: GrabBoard, owners: Sequence[int], armies: list[float]) -> list[float]:
    land = np.array([o != MOUNTAIN for o in owners])
    sizes = np.array(board.sizes, dtype=np.int64)
    values = np.array(armies, dtype=np.float64)
    biggest = float(board.armies_in_biggest) * int(sizes[land].max()) / int(sizes.max())
    # grow() scales by the biggest of the sizes it is given; pass the whole map's scale.
    values[land] = grow(
        values[land],
        sizes[land],
        np.array(board.capacity, dtype=np.int64)[land],
        biggest,
        board.growth_factor,
        board.players,
    )
    return [float(v) for v in values]


def _decide_end(board: GrabBoard, owners: Sequence[int]) -> tuple[bool, int | None]:
    """Spec 4.4: the human (player 0) owning nothing ends it with no winner; one owner of all
    land ends it with that owner as the winner."""
    if board.human_playing and 0 not in owners:
        return True, None
    land_owners = {o for o in owners if o != MOUNTAIN}
    if len(land_owners) == 1:
        return True, land_owners.pop()
    return False, None


__all__ = [
    "NO_MOVE",
    "GrabBoard",
    "GrabMoveError",
    "GrabState",
    "Move",
    "MoveKind",
    "Result",
]
