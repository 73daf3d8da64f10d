"""Autoplay statistics: many games between computer players, and what they say of the game.

:func:`play_games` plays a game of the contract (:mod:`game.logic.contract`) again and again
between agents, each game from its own seeded generator, chance drawn with its probabilities.
The :class:`Analysis` it returns holds one :class:`Played` per game and answers the questions
a designer asks of a new game: how long it lasts, how many moves a player has to choose from,
whether a seat is favoured (each seat's win rate with its 95% Wilson interval) and how often
it is drawn.

>>> a = Analysis("demo", ("White", "Black"), ("random", "random"),
...              [Played(10, 40, 10, (1.0, -1.0)), Played(20, 100, 20, (0.0, 0.0))])
>>> a.draws, a.wins(0), a.branching
(1, 1, 4.666666666666667)
>>> round(wilson(1, 2)[0], 3), round(wilson(1, 2)[1], 3)
(0.095, 0.905)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from game.logic.contract import CHANCE, Agent, Game, Limits, Stop, sample_chance

__all__ = ["Analysis", "Played", "play_games", "wilson"]

#: The z-score of a two-sided 95% interval.
Z95: Final = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (0..1 for none)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Played:
    """One game: its plies (every action, chance included), the legal actions summed over
    the players' decisions and how many decisions there were, and each seat's return (empty
    when the game was stopped at the step cap before it ended)."""

    plies: int
    choices: int
    decisions: int
    returns: tuple[float, ...]

    @property
    def finished(self) -> bool:
        return bool(self.returns)

    @property
    def winner(self) -> int | None:
        """The seat with the highest return, if one alone has it."""
        if not self.returns:
            return None
        best = max(self.returns)
        tops = [s for s, r in enumerate(self.returns) if r == best]
        return tops[0] if len(tops) == 1 else None


@dataclass
class Analysis:
    """The games played, and the figures drawn from them."""

    game_id: str
    seats: tuple[str, ...]
    agents: tuple[str, ...]
    games: list[Played] = field(default_factory=list)

    @property
    def finished(self) -> list[Played]:
        return [g for g in self.games if g.finished]

    @property
    def lengths(self) -> list[int]:
        """The finished games' lengths in plies."""
        return [g.plies for g in self.finished]

    @property
    def branching(self) -> float:
        """The mean number of legal actions at a player's decision, over every game."""
        decisions = sum(g.decisions for g in self.games)
        return sum(g.choices for g in self.games) / decisions if decisions else 0.0

    def wins(self, seat: int) -> int:
        return sum(1 for g in self.finished if g.winner == seat)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.finished if g.winner is None)

    def rate(self, count: int) -> tuple[float, float, float]:
        """``count`` of the finished games as a rate, with its 95% interval."""
        n = len(self.finished)
        low, high = wilson(count, n)
        return (count / n if n else 0.0), low, high

    def lines(self) -> list[str]:
        """The figures as lines of text; the last is ``games=N ... draws=D`` for scripts."""
        n, lengths = len(self.finished), self.lengths
        out = [f"{self.game_id}: {len(self.games)} games, agents {', '.join(self.agents)}"]
        if lengths:
            out.append(
                f"length: mean {statistics.fmean(lengths):.1f} plies, median "
                f"{statistics.median(lengths):g}, shortest {min(lengths)}, longest {max(lengths)}"
            )
        out.append(f"branching factor: {self.branching:.1f} legal moves a decision on average")
        for seat, name in enumerate(self.seats):
            rate, low, high = self.rate(self.wins(seat))
            out.append(f"{name} wins {rate:.1%} (95% interval {low:.1%} to {high:.1%})")
        rate, low, high = self.rate(self.draws)
        out.append(f"draws {rate:.1%} (95% interval {low:.1%} to {high:.1%})")
        stopped = len(self.games) - n
        if stopped:
            out.append(f"{stopped} games stopped at the step cap, not counted in the rates")
        wins = " ".join(f"wins{s}={self.wins(s)}" for s in range(len(self.seats)))
        mean = statistics.fmean(lengths) if lengths else 0.0
        out.append(
            f"games={len(self.games)} finished={n} mean_length={mean:.1f} "
            f"branching={self.branching:.2f} {wins} draws={self.draws}"
        )
        return out


def play_games(
    game: Game[Any],
    agents: Sequence[Agent[Any]],
    games: int,
    *,
    seed: int = 0,
    limits: Limits | None = None,
    step_cap: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """``games`` games of ``game``, ``agents[s]`` playing seat ``s`` in each (one agent for
    every seat when one is given). Game ``i`` draws chance and its agents' choices from
    ``random.Random(seed * 1_000_003 + i)``, so the same call plays the same games. A game
    still going after ``step_cap`` plies is stopped and counted as unfinished."""
    seats = game.seats
    if len(agents) == 1:
        agents = list(agents) * seats
    if len(agents) != seats:
        raise ValueError(f"{game.id} has {seats} seats; give one agent or {seats}")
    limits = limits or Limits(nodes=200)
    names = tuple(game.seat_name(s) for s in range(seats))
    analysis = Analysis(game.id, names, tuple(a.name for a in agents))
    stop = Stop()
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        state = game.initial_state(rng)
        plies = choices = decisions = 0
        while not state.is_terminal() and plies < step_cap:
            seat = state.current_player()
            if seat == CHANCE:
                action = sample_chance(state, rng)
            else:
                choices += len(state.legal_actions())
                decisions += 1
                action = agents[seat].choose(state, limits, rng, stop)
            state = state.apply(action)
            plies += 1
        returns = tuple(state.returns()) if state.is_terminal() else ()
        analysis.games.append(Played(plies, choices, decisions, returns))
        if progress is not None:
            progress(index + 1, games)
    return analysis
