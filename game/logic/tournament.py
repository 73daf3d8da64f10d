"""One tournament runner for every game: agents against agents, seats rotated over shared seeds.

:func:`run_tournament` plays ``games`` games of one game between the agents named per seat
(a name may repeat: ``strategic,basic,basic,basic``). Games come in groups of one per seat:
the games of a group share one seed (the same map, deal or opening randomness) and seat the
agent list turned left by 0, 1, ... places, so over a group every entry of the list sits once
in every seat and most of a start's luck cancels out. Game ``i`` has seed
``seed * 1_000_003 + i // seats`` and seats the list turned left by ``i % seats``.

Each game is a small picklable work unit (the game's registry entry, which travels by its id,
the option values, the agent names in seat order, the seed, the limits and the step cap). The
worker makes the game and fresh agents from the entry (the agents it lists include the user's
robots found in that process), plays a :class:`~game.logic.match.Match` to its end or to the
cap, and returns a :class:`PlayedGame`. A game still running at the cap is decided by
:meth:`~game.logic.contract.Game.unfinished_returns` (MasterGrab ranks by size) or counted a draw;
either way it counts as ``capped``.

The games run wherever ``executor`` sends them: any :class:`concurrent.futures.Executor` (a
Dask cluster's, a thread pool); by default a local pool of ``jobs`` worker processes, started
with ``spawn`` so a worker sees the same ``GAMEHALL_HOME`` and entry points as a new program;
``jobs=1`` plays in this process. The results do not depend on where the games ran, except
through agents that think for a wall-clock time. A worker process that is lost (killed, or an
agent that ends it) is replaced and its game played again from its seed; a game that loses its
worker ``tries`` times, or that the executor could not play, is one line in
:attr:`TournamentResult.failed` and the others still finish; an executor that stops playing
(``watch`` names why) ends the tournament with the games already finished
(:attr:`TournamentResult.stopped`). See :mod:`game.logic.tournament_pool`.

>>> tuple(round(x, 4) for x in wilson_interval(50, 100))
(0.4038, 0.5962)
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypedDict, Unpack

from game.logic.contract import Game, Limits
from game.logic.match import Match
from game.logic.tournament_pool import TRIES, ExecutorLost, Lost, play_all

__all__ = [
    "DEFAULT_MAX_STEPS",
    "TRIES",
    "GameEntry",
    "GameFailedError",
    "PlayedGame",
    "Standing",
    "TournamentError",
    "TournamentResult",
    "TournamentTerms",
    "WorkUnit",
    "play_unit",
    "run_tournament",
    "wilson_interval",
    "work_units",
]

#: The step cap when neither the caller nor the game (:meth:`Game.step_cap
#: <game.logic.contract.Game.step_cap>`) gives one: far beyond any finished game, there only so
#: that agents that undo each other's work forever still stop.
DEFAULT_MAX_STEPS: Final = 100_000
#: z for a two-sided 95 % interval.
_Z95: Final = 1.959963984540054
#: How far apart the seeds of two tournaments with neighbouring seeds start.
_SEED_STRIDE: Final = 1_000_003


class TournamentError(ValueError):
    """A tournament the runner refuses: an unknown agent, a seat count that does not fit, no
    games."""


class GameFailedError(TournamentError):
    """A game that failed where it ran (an agent's error in a game with no rule for it); the
    message names the game, its seed and its seats, which replay it. :attr:`result` holds the
    games that finished before it (set by :func:`run_tournament`)."""

    result: TournamentResult | None = None


class GameEntry(Protocol):
    """What the runner needs of a game's registry entry (:class:`game.registry.Entry`)."""

    @property
    def id(self) -> str: ...

    def game(self, options: Mapping[str, Any] | None = None) -> Game[Any]:
        """The game with ``options`` checked (missing ones default)."""
        ...

    def agents(self) -> Mapping[str, str]:
        """Every agent name the game offers (the user's robots included), with a line each."""
        ...

    def make_agent(self, name: str, options: Mapping[str, Any]) -> Any:
        """A fresh agent called ``name`` for a game with ``options``."""
        ...

    @property
    def seat_options(self) -> Callable[[Sequence[str]], Mapping[str, Any]] | None:
        """The option values that seat one agent per name (None: the seats are fixed)."""
        ...

    @property
    def former_agents(self) -> Mapping[str, str]:
        """Names agents had before (old name -> the name now): accepted, not listed."""
        ...


#: The tournament's seed when the caller names none (:class:`TournamentTerms`).
_SEED: Final = 0


class TournamentTerms(TypedDict, total=False):
    """The keywords that say how every game of a tournament is played, taken alike by
    :func:`work_units` and :func:`run_tournament`; each may be left out.

    ``options``: the game's option values (default: the game's defaults); ``seed``: the
    tournament's seed (default 0); ``limits``: the bound on every choice (default: none, each
    agent's own budget); ``max_steps``: the cap on every game's agent moves (default: the
    game's :meth:`~game.logic.contract.Game.step_cap`, else :data:`DEFAULT_MAX_STEPS`).
    """

    options: Mapping[str, Any] | None
    seed: int
    limits: Limits | None
    max_steps: int | None


@dataclass(frozen=True, slots=True)
class WorkUnit:
    """One game of a tournament, as it travels to a worker: small and picklable."""

    index: int
    entry: GameEntry
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    seed: int
    limits: Limits
    max_steps: int


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished (or capped) game.

    ``seats`` holds the agent name of each seat, ``returns`` each seat's result (decided by
    the game's rule at the cap, or all zero), ``steps`` the steps of the record (forced ones
    and chance included), ``thinking`` each seat's mean seconds per choice, ``actions`` each
    step in the game's notation (``-`` for a lost turn) from
    ``game.tournament_start(random.Random(seed))``, and ``result`` the game's sentence about
    the end.
    """

    index: int
    seed: int
    seats: tuple[str, ...]
    returns: tuple[float, ...]
    steps: int
    capped: bool
    thinking: tuple[float, ...]
    actions: tuple[str, ...] = ()
    result: str = ""
    #: Mean number of legal actions where an agent chose (0 when none did).
    branching: float = 0.0

    def outcome(self, seat: int) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for ``seat``: a win is the best return alone;
        sharing the best is a draw. With one seat the sign of its return decides."""
        mine = self.returns[seat]
        if len(self.returns) == 1:
            return "win" if mine > 0 else "loss" if mine < 0 else "draw"
        best = max(self.returns)
        if mine < best:
            return "loss"
        return "win" if self.returns.count(best) == 1 else "draw"

    @property
    def winners(self) -> tuple[str, ...]:
        """The agent names of the winning seats (empty for a draw)."""
        return tuple(name for s, name in enumerate(self.seats) if self.outcome(s) == "win")


@dataclass(frozen=True, slots=True)
class Standing:
    """One agent name's results over every seat it held.

    ``seats`` counts seats held (games times its entries in the list); ``win_rate`` is
    ``wins / seats``, so that three ``basic`` entries compare with one ``strategic`` (par is
    one over the number of seats); ``score`` counts a draw half; ``low``/``high`` bound the
    win rate (Wilson, 95 %); ``seat_wins[k]`` counts its wins from seat ``k``.
    """

    name: str
    seats: int
    wins: int
    draws: int
    losses: int
    seat_wins: tuple[int, ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.seats if self.seats else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seats)

    def line(self) -> str:
        low, high = self.interval
        return (
            f"agent={self.name} seats={self.seats} wins={self.wins} draws={self.draws} "
            f"losses={self.losses} win_rate={self.win_rate:.3f} ci95={low:.3f}-{high:.3f} "
            f"score={self.score:.3f} seat_wins={','.join(map(str, self.seat_wins))}"
        )


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """Every game of a tournament (in game order) and the standings they add up to."""

    game: str
    agents: tuple[str, ...]
    games: tuple[PlayedGame, ...]
    seed: int = 0
    #: One line per game that could not be played (its worker lost every try), naming its
    #: seed and seats.
    failed: tuple[str, ...] = ()
    #: Why the tournament ended before its last game ("": it did not); ``unplayed`` games
    #: were neither played nor failed.
    stopped: str = ""
    unplayed: int = 0

    @property
    def capped(self) -> int:
        """How many games were stopped at the step cap."""
        return sum(1 for g in self.games if g.capped)

    @property
    def standings(self) -> list[Standing]:
        """One :class:`Standing` per agent name, in the order the names first appear."""
        seats = len(self.agents)
        out = []
        for name in dict.fromkeys(self.agents):
            counts = {"win": 0, "draw": 0, "loss": 0}
            seat_wins = [0] * seats
            held = 0
            for record in self.games:
                for seat, who in enumerate(record.seats):
                    if who != name:
                        continue
                    held += 1
                    outcome = record.outcome(seat)
                    counts[outcome] += 1
                    seat_wins[seat] += outcome == "win"
            out.append(
                Standing(
                    name, held, counts["win"], counts["draw"], counts["loss"], tuple(seat_wins)
                )
            )
        return out

    def winrates_line(self) -> str:
        """``winrates=strategic:0.62,basic:0.13``: per-seat win rates, two decimals."""
        return "winrates=" + ",".join(f"{s.name}:{s.win_rate:.2f}" for s in self.standings)

    def statistics(self) -> dict[str, Any]:
        """The figures ``gamehall tournament --json`` prints: each agent's standing, wins,
        draws and losses per seat, game lengths and the mean branching factor."""
        seats = len(self.agents)
        per_seat = []
        for seat in range(seats):
            outcomes = [g.outcome(seat) for g in self.games]
            per_seat.append(
                {
                    "seat": seat,
                    "wins": outcomes.count("win"),
                    "draws": outcomes.count("draw"),
                    "losses": outcomes.count("loss"),
                }
            )
        lengths = [g.steps for g in self.games]
        return {
            "game": self.game,
            "games": len(self.games),
            "seed": self.seed,
            "agents": list(self.agents),
            "capped": self.capped,
            "standings": [
                {
                    "agent": s.name,
                    "seats": s.seats,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "win_rate": round(s.win_rate, 4),
                    "ci95": [round(x, 4) for x in s.interval],
                    "seat_wins": list(s.seat_wins),
                }
                for s in self.standings
            ],
            "per_seat": per_seat,
            "length": {
                "mean": round(statistics.fmean(lengths), 2) if lengths else 0,
                "median": statistics.median(lengths) if lengths else 0,
                "min": min(lengths, default=0),
                "max": max(lengths, default=0),
            },
            "branching_mean": round(statistics.fmean(g.branching for g in self.games), 2)
            if self.games
            else 0.0,
            "failed": list(self.failed),
            "stopped": self.stopped,
            "unplayed": self.unplayed,
        }

    def lines(self) -> list[str]:
        """What ``gamehall tournament`` prints: a line per agent name, a summary (with
        ``failed=`` and ``unplayed=`` when some games were not played), and the winrates line
        last."""
        steps = statistics.median(g.steps for g in self.games) if self.games else 0
        missing = "".join(
            f" {name}={count}"
            for name, count in (("failed", len(self.failed)), ("unplayed", self.unplayed))
            if count
        )
        return [
            *(standing.line() for standing in self.standings),
            f"game={self.game} games={len(self.games)} capped={self.capped} "
            f"median_steps={steps:g} seed={self.seed}{missing}",
            self.winrates_line(),
        ]


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (95 % by default);
    ``(0.0, 1.0)`` for no trials. Raises ``ValueError`` for counts that do not fit.

    >>> tuple(round(x, 4) for x in wilson_interval(0, 10))
    (0.0, 0.2775)
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


def work_units(
    entry: GameEntry, agents: Sequence[str], games: int, **terms: Unpack[TournamentTerms]
) -> list[WorkUnit]:
    """The games of a tournament, seats rotated over shared seeds (see the module docstring),
    played on ``terms`` (:class:`TournamentTerms`).

    Where the entry has ``seat_options`` (seats that depend on the options), they are laid
    over ``options`` to seat one agent per name. Raises :class:`TournamentError` for an
    unknown agent name, a number of agents that is not the game's number of seats, or fewer
    than one game; the game's own ``ValueError`` for bad options; ``TypeError`` for a keyword
    that is none of the terms.
    """
    if unknown := terms.keys() - TournamentTerms.__optional_keys__:
        raise TypeError(f"unexpected keyword arguments: {', '.join(sorted(unknown))}")
    agents = tuple(agents)
    max_steps, limits = terms.get("max_steps"), terms.get("limits")
    if games < 1:
        raise TournamentError(f"a tournament needs at least one game, not {games}")
    if max_steps is not None and max_steps < 1:
        raise TournamentError(f"max_steps must be at least 1, not {max_steps}")
    known = entry.agents()
    for name in agents:
        if name not in known and name not in entry.former_agents:
            raise TournamentError(
                f"{entry.id} has no agent {name!r}; the agents are: {', '.join(known)}"
            )
    values = dict(terms.get("options") or {})
    if entry.seat_options is not None:
        values.update(entry.seat_options(agents))
    game = entry.game(values)  # the schema refuses bad options, naming them
    if len(agents) != game.seats:
        raise TournamentError(
            f"{entry.id} has {game.seats} seats: name one agent per seat, not {len(agents)}"
        )
    n = len(agents)
    cap = max_steps if max_steps is not None else game.step_cap() or DEFAULT_MAX_STEPS
    return [
        WorkUnit(
            index=i,
            entry=entry,
            options=dict(game.options),
            seats=agents[i % n :] + agents[: i % n],
            seed=terms.get("seed", _SEED) * _SEED_STRIDE + i // n,
            limits=limits if limits is not None else Limits(),
            max_steps=cap,
        )
        for i in range(games)
    ]


def play_unit(unit: WorkUnit) -> PlayedGame:
    """Play one work unit to its end or its step cap (in whatever process runs it).

    Raises :class:`GameFailedError` naming the game, its seed and seats when it fails.
    """
    try:
        return _play(unit)
    except Exception as error:  # reported with what it takes to replay the game
        raise GameFailedError(f"{_named(unit)} failed: {type(error).__name__}: {error}") from error


def run_tournament(
    entry: GameEntry,
    agents: Sequence[str],
    games: int,
    *,
    executor: concurrent.futures.Executor | None = None,
    jobs: int = 1,
    progress: Callable[[int, int, PlayedGame], None] | None = None,
    tries: int = TRIES,
    watch: Callable[[], str | None] | None = None,
    **terms: Unpack[TournamentTerms],
) -> TournamentResult:
    """Play ``games`` games between ``agents`` (one name per seat) of the game of ``entry``,
    on ``terms`` (:class:`TournamentTerms`: the game's options, checked by its schema, the
    seed, the limits on a choice and the step cap).

    The games run on ``executor`` when one is given (it is left running), else in a process
    pool of ``jobs`` workers, or here when ``jobs`` is 1.
    ``progress(done, total, record)`` is called after each game, in the order they finish.
    A game whose worker process is lost is played again, ``tries`` times at most; ``watch()``
    is asked about the executor every second while no game finishes, and a line it returns
    ends the tournament (see the module docstring). Raises :class:`TournamentError` for a
    tournament it refuses (see :func:`work_units`) and :class:`GameFailedError` for a game
    that failed, with the games finished before it.
    """
    if jobs < 1:
        raise TournamentError(f"jobs must be at least 1, not {jobs}")
    if tries < 1:
        raise TournamentError(f"tries must be at least 1, not {tries}")
    units = work_units(entry, agents, games, **terms)
    seed = terms.get("seed", _SEED)
    records: list[PlayedGame | None] = [None] * len(units)
    failed: list[str | None] = [None] * len(units)
    stopped = ""
    outcomes = play_all(
        units, play_unit, executor=executor, jobs=jobs, tries=tries, failure=GameFailedError,
        watch=watch,
    )  # fmt: skip
    with contextlib.closing(outcomes):  # leaving early (Ctrl-C) ends the workers now
        try:
            for done, (index, outcome) in enumerate(outcomes, start=1):
                if isinstance(outcome, Lost):
                    failed[index] = f"{_named(units[index])} failed: {outcome.reason}"
                    continue
                records[index] = outcome
                if progress is not None:
                    progress(done, len(units), outcome)
        except ExecutorLost as error:
            stopped = str(error)
        except GameFailedError as error:
            error.result = _result(entry, agents, seed, records, failed, "")
            raise
    return _result(entry, agents, seed, records, failed, stopped)


# --------------------------------------------------------------------------- private helpers


def _play(unit: WorkUnit) -> PlayedGame:
    entry = unit.entry
    game = entry.game(unit.options)
    agents = [entry.make_agent(name, unit.options) for name in unit.seats]
    start = game.tournament_start(random.Random(unit.seed))
    with Match(game, agents, seed=unit.seed, limits=unit.limits, start=start) as match:
        match.run(max_steps=unit.max_steps)
        state = match.state
        capped = not match.over
        returns = match.returns()
        if capped:
            decided = game.unfinished_returns(state)
            returns = decided if decided is not None else (0.0,) * game.seats
        thinking = tuple(statistics.fmean(s.moves) if s.moves else 0.0 for s in match.seconds)
        choices = [
            len(match.state_at(i).legal_actions())
            for i in range(match.cursor)
            if match.state_at(i).current_player() >= 0
        ]
        return PlayedGame(
            index=unit.index,
            seed=unit.seed,
            seats=unit.seats,
            returns=tuple(float(r) for r in returns),
            steps=match.cursor,
            capped=capped,
            thinking=thinking,
            actions=tuple("-" if s.forfeit is not None else s.text for s in match.record),
            result=match.result_text() if not capped else "stopped at the step cap",
            branching=statistics.fmean(choices) if choices else 0.0,
        )


def _named(unit: WorkUnit) -> str:
    """``grab game 3 (seed 1000004, seats basic,strategic)``: what it takes to replay it."""
    return f"{unit.entry.id} game {unit.index} (seed {unit.seed}, seats {','.join(unit.seats)})"


def _result(
    entry: GameEntry,
    agents: Sequence[str],
    seed: int,
    records: Sequence[PlayedGame | None],
    failed: Sequence[str | None],
    stopped: str,
) -> TournamentResult:
    played = tuple(r for r in records if r is not None)
    lost = tuple(f for f in failed if f is not None)
    return TournamentResult(
        entry.id, tuple(agents), played, seed, lost, stopped, len(records) - len(played) - len(lost)
    )
