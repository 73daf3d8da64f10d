"""MasterGrab tournaments between robots, and the figures of ``gamehall bench grab``.

:func:`run_tournament` plays robots-only games. Seats are rotated: game ``i`` seats the
robot list turned left by ``i mod n`` (n robots), so over every n games each entry of the
list sits once in every seat; those n games share one map and starting armies (seed
``seed * 1_000_003 + i // n``), which cancels most of a map's luck. With ``jobs > 1`` the games
run in a process pool (spawn); the results do not depend on ``jobs``.

A game still running after ``max_rounds`` rounds is decided by the ranking (spec 4.5): the
player with the largest total size wins (on a tie, the lowest player id); such games are
counted in :attr:`TournamentResult.capped`.

>>> result = run_tournament(["basic", "simple"], 2, countries=20, seed=1)
>>> [s.seats for s in result.standings], sum(s.wins for s in result.standings)
([2, 2], 2)
"""

from __future__ import annotations

import math
import multiprocessing
import statistics
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Final

from game.logic.grab.bench import speed_lines
from game.logic.grab.discovery import RobotRegistry
from game.logic.grab.game import play_rounds, robots_match
from game.logic.grab.options import GrabOptions
from game.logic.grab.record import grab_state
from game.logic.grab.state import player_statistics

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "GameRecord",
    "RobotStanding",
    "TournamentResult",
    "bench_lines",
    "play_game",
    "run_tournament",
    "wilson_interval",
]

#: Rounds after which a tournament game is decided by the ranking. Four basic robots finish
#: a 140-country game in 150 to 600 rounds; a few never do (spec 1.4: two robots can keep
#: taking the same countries from each other).
DEFAULT_MAX_ROUNDS: Final = 1000
#: z for a two-sided 95 % interval.
_Z95: Final = 1.959963984540054
#: Seconds a robot may think per tournament move: generous, so that a busy machine does not
#: make results depend on timing (a move over budget is lost).
_BUDGET_S: Final = 30.0


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished tournament game.

    ``seats`` holds the robot name of each player (player ids 0..n-1), ``winner`` the
    winning player, ``capped`` whether the game reached the round limit and was decided by
    the ranking, ``sizes`` each player's total size at the end, and ``thinking`` each
    player's mean seconds per move (over the moves it was asked for).
    """

    index: int
    seed: int
    seats: tuple[str, ...]
    winner: int
    rounds: int
    capped: bool
    sizes: tuple[int, ...]
    thinking: tuple[float, ...]

    @property
    def winner_name(self) -> str:
        return self.seats[self.winner]


@dataclass(frozen=True, slots=True)
class RobotStanding:
    """One robot name's result: ``seats`` = games x its entries in the robot list, ``wins``
    the games won by any of its seats, ``win_rate = wins / seats`` (per seat, so that three
    ``basic`` entries are comparable with one ``strategic``: par is 1 / players) and the 95 %
    Wilson interval of that rate."""

    name: str
    seats: int
    wins: int
    win_rate: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """All games of a tournament and the standings per robot name (first-appearance order)."""

    robots: tuple[str, ...]
    games: tuple[GameRecord, ...]

    @property
    def capped(self) -> int:
        """How many games were decided by the ranking at the round limit."""
        return sum(1 for g in self.games if g.capped)

    @property
    def standings(self) -> list[RobotStanding]:
        names = list(dict.fromkeys(self.robots))
        out = []
        for name in names:
            seats = self.robots.count(name) * len(self.games)
            wins = sum(1 for g in self.games if g.winner_name == name)
            low, high = wilson_interval(wins, seats)
            out.append(RobotStanding(name, seats, wins, wins / seats if seats else 0.0, low, high))
        return out

    def winrates_line(self) -> str:
        """``winrates=strategic:0.62,basic:0.13``: per-seat win rates, two decimals."""
        return "winrates=" + ",".join(f"{s.name}:{s.win_rate:.2f}" for s in self.standings)

    def lines(self) -> list[str]:
        """What the CLI prints: one line per robot name, a summary, the winrates line last."""
        out = [
            f"robot={s.name} seats={s.seats} wins={s.wins} win_rate={s.win_rate:.3f} "
            f"ci95={s.low:.3f}-{s.high:.3f}"
            for s in self.standings
        ]
        rounds = statistics.median(g.rounds for g in self.games) if self.games else 0
        out.append(f"games={len(self.games)} capped={self.capped} median_rounds={rounds:g}")
        out.append(self.winrates_line())
        return out


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (95 % by default);
    ``(0.0, 1.0)`` for no trials.

    >>> tuple(round(x, 4) for x in wilson_interval(50, 100))
    (0.4038, 0.5962)
    """
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ValueError(f"successes={successes} is outside 0..trials={trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(
    seats: Sequence[str],
    seed: int,
    *,
    countries: int = 140,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    index: int = 0,
    budget_s: float = _BUDGET_S,
) -> GameRecord:
    """Play one robots-only game of the built-in robots named in ``seats`` (player order) on
    the map of ``seed``, until it ends or ``max_rounds`` rounds are played (then the ranking
    decides, see the module docstring)."""
    with robots_match(seats, seed, countries=countries, budget_s=budget_s) as match:
        rounds = play_rounds(match, max_rounds)
        state = grab_state(match)
        ranking = player_statistics(state)
        capped = state.winner is None
        winner = state.winner if state.winner is not None else ranking[0].player
        sizes = [0] * len(seats)
        for line in ranking:
            sizes[line.player] = line.size
        # An eliminated robot is not asked (its turn is played as none by itself).
        asked = [s.moves for s in match.seconds]
        thinking = tuple(statistics.fmean(times) if times else 0.0 for times in asked)
    return GameRecord(index, seed, tuple(seats), winner, rounds, capped, tuple(sizes), thinking)


def run_tournament(
    robots: Sequence[str],
    games: int,
    *,
    countries: int = 140,
    jobs: int = 1,
    seed: int = 0,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    progress: Callable[[int, int, GameRecord], None] | None = None,
) -> TournamentResult:
    """Play ``games`` robots-only games between the built-in robots named in ``robots`` (one
    entry per player; a name may repeat), seats rotated as in the module docstring.

    ``progress(done, total, record)`` is called after each game, in the order games finish.
    Raises ValueError (or a subclass: an unknown robot, bad options) for fewer than two
    robots, fewer than one game or job, or a bad country count.
    """
    robots = tuple(robots)
    if len(robots) < 2:
        raise ValueError(f"a tournament needs at least two robots, not {len(robots)}")
    if games < 1:
        raise ValueError(f"a tournament needs at least one game, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if max_rounds < 1:
        raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
    registry = RobotRegistry.builtins()
    for name in robots:
        registry.info(name)  # raises UnknownRobotError (a ValueError) for an unknown name
    GrabOptions(human_playing=False, robots=robots, countries=countries)  # validates
    n = len(robots)
    specs = [
        _GameSpec(
            index=i,
            seats=robots[i % n :] + robots[: i % n],
            seed=seed * 1_000_003 + i // n,
            countries=countries,
            max_rounds=max_rounds,
        )
        for i in range(games)
    ]
    records: list[GameRecord | None] = [None] * games
    done = 0
    if jobs == 1:
        for spec in specs:
            record = _play(spec)
            records[spec.index] = record
            done += 1
            if progress is not None:
                progress(done, games, record)
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures: dict[Future[GameRecord], int] = {
                pool.submit(_play, spec): spec.index for spec in specs
            }
            for future in as_completed(futures):
                record = future.result()
                records[futures[future]] = record
                done += 1
                if progress is not None:
                    progress(done, games, record)
    return TournamentResult(robots, tuple(r for r in records if r is not None))


def bench_lines(
    *,
    strength: bool = False,
    games: int = 200,
    jobs: int = 1,
    seed: int = 0,
    progress: Callable[[int, int, GameRecord], None] | None = None,
) -> Iterator[str]:
    """The lines of ``gamehall bench grab``, each yielded as soon as it is measured:

    * ``mapgen countries=140 size=1280x720 seconds=..``: median of 5 maps (after one map
      that compiles or loads numba's kernel), and the same for 1000 countries at 3840x2160
      (median of 3);
    * ``robot=basic countries=140 median_ms=..`` and ``robot=strategic ...``: median seconds
      per move over every move of 3 games (4 basic robots; strategic against 3 basic),
      each move as the game asks it, making the robot's copy of the game included (the
      turns of eliminated robots, which are not asked, left out);
    * ``game robots=4 countries=140 seconds=.. rounds=..``: a whole game of 4 basic robots
      (making the map and match included), median over 3 seeds;
    * with ``strength``: the lines of a ``games``-game tournament of strategic against three
      basic robots (:meth:`TournamentResult.lines`, the winrates line last).
    """
    yield from speed_lines(seed)
    if strength:
        result = run_tournament(
            ("strategic", "basic", "basic", "basic"), games, jobs=jobs, seed=seed, progress=progress
        )
        yield from result.lines()


# --------------------------------------------------------------------------- private helpers


@dataclass(frozen=True, slots=True)
class _GameSpec:
    index: int
    seats: tuple[str, ...]
    seed: int
    countries: int
    max_rounds: int


def _play(spec: _GameSpec) -> GameRecord:
    return play_game(
        spec.seats,
        spec.seed,
        countries=spec.countries,
        max_rounds=spec.max_rounds,
        index=spec.index,
    )
