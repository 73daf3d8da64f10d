"""Matches between two Reversi players: single games and colour-balanced tournaments.

Openings: each pair of games starts from a few random legal plies (2 to 6, drawn from the
tournament's seed, never the same sequence twice) instead of a book of named openings, so a
deterministic player still meets varied positions. Every opening is played twice, each player
taking Black once, which cancels out an opening that favours one colour. With ``jobs > 1`` the
games run in a process pool; the results do not depend on ``jobs``.

>>> result = run_tournament("classic-beginner", "beginner", 2, time_per_move=0.01, seed=3)
>>> result.a_wins + result.b_wins + result.draws
2
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Final

from .board import PASS, Color, Position
from .players import Player, get_player

__all__ = [
    "GameRecord",
    "TournamentResult",
    "make_openings",
    "play_game",
    "run_tournament",
]

_OPENING_PLIES: Final = (2, 6)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game.

    ``moves`` holds every ply from the start position, opening and passes included.
    ``result`` is the final disc difference Black minus White, empty squares going to the
    winner; ``black_discs`` / ``white_discs`` are the discs on the final board.
    """

    black: str
    white: str
    opening: tuple[int, ...]
    moves: tuple[int, ...]
    result: int
    black_discs: int
    white_discs: int

    @property
    def winner(self) -> Color | None:
        """The winning colour, None for a draw."""
        if self.result > 0:
            return Color.BLACK
        if self.result < 0:
            return Color.WHITE
        return None

    def points(self, name: str) -> float:
        """1 for a win of the player called ``name``, 0.5 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        winner = self.black if self.winner is Color.BLACK else self.white
        return 1.0 if winner == name else 0.0


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Wins of ``a``, wins of ``b``, draws, and ``a``'s score (a draw counts half)."""

    a: str
    b: str
    a_wins: int
    b_wins: int
    draws: int
    a_score: float
    games: tuple[GameRecord, ...] = ()

    @classmethod
    def from_games(cls, a: str, b: str, games: Sequence[GameRecord]) -> TournamentResult:
        """Count the games, ``a`` being Black in the even-numbered ones (0, 2, ...)."""
        if not games:
            raise ValueError("no games to count")
        a_wins = b_wins = draws = 0
        for i, record in enumerate(games):
            if record.winner is None:
                draws += 1
            elif (record.winner is Color.BLACK) == (i % 2 == 0):
                a_wins += 1
            else:
                b_wins += 1
        return cls(a, b, a_wins, b_wins, draws, (a_wins + 0.5 * draws) / len(games), tuple(games))

    def __str__(self) -> str:
        return (
            f"a_wins={self.a_wins} b_wins={self.b_wins} draws={self.draws}"
            f" a_score={self.a_score:.2f}"
        )


def play_game(
    black: str | Player,
    white: str | Player,
    *,
    opening: Sequence[int] = (),
    time_per_move: float | None = None,
    rng: random.Random | None = None,
) -> GameRecord:
    """Play one game from the start position after the ``opening`` plies.

    Players are given by name or as objects; ``time_per_move`` is each move's budget and
    ``rng`` the source of every random choice (a fresh unseeded one when None). Raises
    ``ValueError`` (from the rules) when the opening holds an illegal move.
    """
    players = {
        Color.BLACK: get_player(black) if isinstance(black, str) else black,
        Color.WHITE: get_player(white) if isinstance(white, str) else white,
    }
    rng = rng if rng is not None else random.Random()
    position = Position.start()
    moves: list[int] = []
    for move in opening:
        if position.legal_moves() == [PASS] and move != PASS:
            moves.append(PASS)
            position = position.apply(PASS)
        position = position.apply(move)
        moves.append(move)
    while not position.is_terminal():
        choice = players[position.to_move].choose(position, time_limit=time_per_move, rng=rng)
        position = position.apply(choice.move)
        moves.append(choice.move)
    black_discs, white_discs = position.disc_count()
    return GameRecord(
        black=players[Color.BLACK].name,
        white=players[Color.WHITE].name,
        opening=tuple(opening),
        moves=tuple(moves),
        result=position.score(),
        black_discs=black_discs,
        white_discs=white_discs,
    )


def make_openings(count: int, seed: int) -> list[tuple[int, ...]]:
    """``count`` different random openings of 2 to 6 legal plies, reproducible from ``seed``."""
    rng = random.Random(seed)
    seen: set[tuple[int, ...]] = set()
    openings: list[tuple[int, ...]] = []
    attempts = 0
    while len(openings) < count:
        attempts += 1
        if attempts > 1000 * count:
            raise ValueError(f"cannot find {count} different openings")
        position = Position.start()
        plies: list[int] = []
        for _ in range(rng.randint(*_OPENING_PLIES)):
            move = rng.choice(position.legal_moves())
            plies.append(move)
            position = position.apply(move)
        key = tuple(plies)
        if key not in seen:
            seen.add(key)
            openings.append(key)
    return openings


def run_tournament(
    a: str,
    b: str,
    games: int,
    *,
    time_per_move: float | None = None,
    jobs: int = 1,
    seed: int = 0,
    progress: Callable[[int, int, GameRecord], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between the players named ``a`` and ``b``.

    Game ``2k`` has ``a`` as Black and game ``2k + 1`` has ``b`` as Black, both from opening
    ``k`` (an odd last game has ``a`` as Black). ``progress(done, total, record)`` is called
    after each game, in the order games finish. Raises ``ValueError`` for an unknown player
    or a count below 1.
    """
    get_player(a)
    get_player(b)
    if games < 1:
        raise ValueError(f"a tournament needs at least one game, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    openings = make_openings((games + 1) // 2, seed)
    specs = [
        _GameSpec(
            black=a if i % 2 == 0 else b,
            white=b if i % 2 == 0 else a,
            opening=openings[i // 2],
            time_per_move=time_per_move,
            seed=seed * 1_000_003 + i,
        )
        for i in range(games)
    ]
    records: list[GameRecord | None] = [None] * games
    done = 0
    if jobs == 1:
        for i, spec in enumerate(specs):
            record = _play(spec)
            records[i] = record
            done += 1
            if progress is not None:
                progress(done, games, record)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures: dict[Future[GameRecord], int] = {
                pool.submit(_play, spec): i for i, spec in enumerate(specs)
            }
            for future in as_completed(futures):
                record = future.result()
                records[futures[future]] = record
                done += 1
                if progress is not None:
                    progress(done, games, record)
    return TournamentResult.from_games(a, b, [r for r in records if r is not None])


# --------------------------------------------------------------------------- private helpers


@dataclass(frozen=True, slots=True)
class _GameSpec:
    black: str
    white: str
    opening: tuple[int, ...]
    time_per_move: float | None
    seed: int


def _play(spec: _GameSpec) -> GameRecord:
    return play_game(
        spec.black,
        spec.white,
        opening=spec.opening,
        time_per_move=spec.time_per_move,
        rng=random.Random(spec.seed),
    )
