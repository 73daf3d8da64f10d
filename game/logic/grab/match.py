"""One MasterGrab game as the window and the tournament drive it (spec 4.1, 6.1-6.3).

A :class:`GrabMatch` owns the map, the states, the robots (through their runners) and what
the map shows besides owners and armies: the country state circles, the cheap markers, the
robots' reports and error messages.

>>> from game.logic.grab.options import GrabOptions
>>> options = GrabOptions(countries=20, robots=("basic", "basic"), human_playing=False)
>>> with GrabMatch(options, seed=1, width=200, height=120) as match:
...     reports = match.next()
...     [(r.player, r.robot) for r in reports], match.state.turn
([(0, 'basic'), (1, 'basic')], 2)
"""

from __future__ import annotations

import enum
import logging
import random
from dataclasses import dataclass
from types import TracebackType
from typing import Final

from game.logic.grab.map import GrabMap, generate_map
from game.logic.grab.options import GrabOptions
from game.logic.grab.robot import RobotGame, RobotRegistry, RobotRunner
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import (
    NO_MOVE,
    GrabMoveError,
    GrabState,
    Move,
    MoveKind,
    PlayerStats,
    Result,
    player_statistics,
)

LOG: Final = logging.getLogger("gamehall.grab")

#: The human's name in ``GrabMatch.names``.
HUMAN_NAME: Final = "You"
#: One cheap marker per this many countries, mountains included (spec 6.3).
COUNTRIES_PER_CHEAP: Final = 15


class CountryState(enum.Enum):
    """What happened to a country since player 0's last move began (spec 4.1, 6.2)."""

    NORMAL = "normal"
    MOVED = "moved"
    ATTACKED = "attacked"
    TAKEN = "taken"
    CHEAP = "cheap"


@dataclass(frozen=True, slots=True)
class RobotReport:
    """One robot move: who (``player``, registry name ``robot``), the ``move`` as played (on
    an error the rejected move, or ``none``), the thinking ``seconds``, and ``error``, None
    when the move was played, else the one-line reason it was lost."""

    player: int
    robot: str
    move: Move
    seconds: float
    error: str | None


class GrabMatch:
    """A game from its options and seed: the same seed and options give the same map and
    starting armies (``generate_map(options, width, height, seed)`` and
    ``random.Random(seed)``), and the same moves give the same states.

    With a human, player 0 is the human ("You") and robots are players 1..N ("Robot1"..);
    robots only, players 0..N-1 are "Robot1".."RobotN" (spec 2.2). ``registry`` supplies the
    robots named in ``options.robots`` (None: the built-ins); an unknown name raises
    :class:`~game.logic.grab.robot.UnknownRobotError`. ``budget_s`` is each robot's thinking
    time per move. Robots living in processes start on their first move; call :meth:`close`
    (or use the match as a context manager) to stop them. Not thread-safe.

    Public attributes (read them, do not assign):

    * ``map``, ``initial`` (the starting state), ``state`` (the current one);
    * ``names``, ``robot_types`` (registry key per player, None for the human);
    * ``country_states`` and ``previous_owners`` (the owner before a country was TAKEN), per
      country, for the state circles (spec 6.2, 6.3);
    * ``reports``: the robot moves since the human's last move, or with robots only those of
      the current round, in order; ``messages``: robot failures, newest last;
    * ``thinking``: seconds per move per robot player; ``history``: every move since the
      start, and ``rejected``: the indexes in ``history`` of moves that were lost (they were
      recorded with GrabState.reject, not played).
    """

    def __init__(
        self,
        options: GrabOptions,
        seed: int,
        *,
        width: int = 1280,
        height: int = 720,
        countries: int | None = None,
        registry: RobotRegistry | None = None,
        budget_s: float = 1.0,
    ) -> None:
        self.options = options
        self.seed = seed
        self.registry = registry if registry is not None else _builtin_registry()
        self.budget_s = budget_s
        human = options.human_playing
        self.names: list[str] = [HUMAN_NAME] if human else []
        self.names += [f"Robot{i + 1}" for i in range(len(options.robots))]
        self.robot_types: list[str | None] = [None] if human else []
        self.robot_types += list(options.robots)
        # Look every name up before anything starts, so an unknown one fails cleanly.
        for key in options.robots:
            self.registry.info(key)
        self.map: GrabMap = generate_map(options, width, height, seed, countries=countries)
        self.initial: GrabState = GrabState.new(self.map, options, random.Random(seed))
        self._runners: dict[int, RobotRunner] = {
            player: self.registry.runner(key, budget_s)
            for player, key in enumerate(self.robot_types)
            if key is not None
        }
        self.messages: list[str] = []
        self._restart()

    # --- What the window reads ----------------------------------------------------------

    @property
    def human_to_move(self) -> bool:
        """True when the game waits for the human's move."""
        state = self.state
        return self.options.human_playing and state.to_move == 0 and not state.finished

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def winner(self) -> int | None:
        """The winner once finished; None before, and when the human lost."""
        return self.state.winner

    @property
    def to_move(self) -> int:
        return self.state.to_move

    def statistics(self) -> list[PlayerStats]:
        """The ranking (spec 4.5), in rank order."""
        return player_statistics(self.state)

    def runner(self, player: int) -> RobotRunner:
        """The runner that asks robot ``player`` for its moves; KeyError for the human."""
        return self._runners[player]

    def robot_game(self, player: int) -> RobotGame:
        """A private copy of the current game from ``player``'s side (for hints and tools)."""
        return RobotGame(self.state, player)

    # --- Playing --------------------------------------------------------------------------

    def play_human(self, move: Move) -> Result:
        """Play the human's move and return its result. Raises GrabMoveError, changing
        nothing, when it is not the human's turn or the move is illegal."""
        if not self.human_to_move:
            raise GrabMoveError(
                "it is not the human's turn" if not self.finished else "the game is over"
            )
        after = self.state.apply(move)
        self._record(0, move, after, error=None)
        return after.results[0]

    def play_robot(self) -> RobotReport:
        """Let the robot to move play one move. A robot that fails loses the move (its
        report and :attr:`messages` say why). Raises GrabMoveError when the game is over
        or the human is to move."""
        state = self.state
        if state.finished:
            raise GrabMoveError("the game is over")
        if self.human_to_move:
            raise GrabMoveError("the human is to move")
        player = state.to_move
        key = self.robot_types[player]
        assert key is not None
        if player not in state.owners:
            # Eliminated: the built-ins play none here, and nobody else gets a say either.
            answer_move, seconds, error = NO_MOVE, 0.0, None
        else:
            answer = self._runners[player].ask(state, player)
            answer_move, seconds, error = answer.move, answer.seconds, answer.error
        if error is None:
            after = state.apply(answer_move)
        else:
            after = state.reject(answer_move)
            message = f"{self.names[player]} ({key}): {error}"
            LOG.warning("%s", message)
            self.messages.append(message)
        report = RobotReport(player, key, answer_move, seconds, error)
        self._record(player, answer_move, after, error)
        self.reports.append(report)
        self.thinking[player].append(seconds)
        return report

    def play_robots(self) -> list[RobotReport]:
        """Robots move until the human is to move again or the game ends; with robots only,
        until the round is complete (player 0 to move again). Returns their reports."""
        played: list[RobotReport] = []
        if self.finished or self.human_to_move:
            return played
        while True:
            played.append(self.play_robot())
            if self.finished or self.state.to_move == 0:
                return played

    def next(self) -> list[RobotReport]:
        """The Next Step button (spec 6.1): with a human to move, the human plays ``none``
        and the robots answer; with robots only, one round. Nothing once the game is over."""
        if self.finished:
            return []
        if self.human_to_move:
            self.play_human(NO_MOVE)
        return self.play_robots()

    def replay(self) -> None:
        """Back to the starting state of the same map with fresh robot instances; country
        states, reports, thinking times, messages and history are cleared."""
        for runner in self._runners.values():
            runner.reset()
        self.messages.clear()
        self._restart()

    def close(self) -> None:
        """Stop any robot processes; the match can still be read but not played by them."""
        for runner in self._runners.values():
            runner.close()

    def __enter__(self) -> GrabMatch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # --- Bookkeeping ------------------------------------------------------------------------

    def _restart(self) -> None:
        self.state: GrabState = self.initial
        self.country_states: list[CountryState] = [
            CountryState.NORMAL
        ] * self.initial.board.countries
        self.previous_owners: list[int] = list(self.initial.owners)
        self.reports: list[RobotReport] = []
        self.thinking: dict[int, list[float]] = {player: [] for player in self._runners}
        self.history: list[Move] = []
        self.rejected: set[int] = set()

    def _record(self, player: int, move: Move, after: GrabState, error: str | None) -> None:
        """Move on to ``after`` and update the circles (spec 4.1 steps 1 and 4, 6.2)."""
        before = self.state
        if player == 0:
            self.country_states = [CountryState.NORMAL] * len(self.country_states)
            self.reports = []
        if error is not None:
            self.rejected.add(len(self.history))
        elif move.kind is MoveKind.GATHER:
            self.country_states[move.target] = CountryState.MOVED
        elif move.kind is MoveKind.ATTACK:
            target = move.target
            if after.owners[target] != before.owners[target]:
                self.country_states[target] = CountryState.TAKEN
                self.previous_owners[target] = before.owners[target]
            else:
                self.country_states[target] = CountryState.ATTACKED
        self.history.append(move)
        self.state = after
        players = after.board.players
        if self.options.human_playing and player == players - 1:
            self._mark_cheap()

    def _mark_cheap(self) -> None:
        """Spec 6.3: of the non-mountain countries with a neighbour of another owner, the
        ``countries // 15`` with the fewest armies (stable by id); the NORMAL ones among
        them become CHEAP, the others keep their circle but still count."""
        state = self.state
        owners, armies = state.owners, state.armies
        table = state.board.neighbours
        count = len(owners) // COUNTRIES_PER_CHEAP
        border = [
            c
            for c, owner in enumerate(owners)
            if owner != MOUNTAIN and any(owners[n] != owner for n in table[c])
        ]
        border.sort(key=lambda c: armies[c])
        for c in border[:count]:
            if self.country_states[c] is CountryState.NORMAL:
                self.country_states[c] = CountryState.CHEAP


_BUILTINS: RobotRegistry | None = None


def _builtin_registry() -> RobotRegistry:
    """One shared registry of the built-ins (they run in-process and hold no state)."""
    global _BUILTINS
    if _BUILTINS is None:
        _BUILTINS = RobotRegistry.builtins()
    return _BUILTINS


__all__ = ["COUNTRIES_PER_CHEAP", "HUMAN_NAME", "CountryState", "GrabMatch", "RobotReport"]
