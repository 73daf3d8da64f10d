"""The computer players of Reversi, by name: ours (search + evaluation) and the classic AI.

A :class:`Player` is a level's strength settings with a ``choose`` that returns a detailed
:class:`Choice`; it holds no state, so one object serves every game and process. A
:class:`ReversiLevelAgent` (from :func:`make_agent`) is the same level as a
:class:`~game.logic.contract.Agent` for a :class:`~game.logic.match.Match`: ``choose(state,
limits, rng, stop)`` returns the move and ``explain()`` says what the last choice was worth.

>>> sorted(PLAYERS)[:3]
['advanced', 'beginner', 'classic-advanced']
>>> agent = make_agent("advanced")
>>> from game.logic.contract import Limits, Stop
>>> move = agent.choose(Position.start(), Limits(time=1.0), random.Random(0), Stop())
>>> move in Position.start().legal_moves()
True
>>> agent.explain().startswith("evaluation ")
True

Our levels, weakest first (``time_limit`` is the caller's budget for one move):

==================  ============================================================================
``beginner``        looks one move ahead, with noise of 4 discs on each move's value
``intermediate``    three plies, noise of 1.5 discs; plays the last 8 empty squares perfectly
``advanced``        five plies; perfect over the last 12 empty squares
``expert``          nine plies (and at most the time given); perfect over the last 16
``master``          full strength for the time given (1 s when none is given); perfect from 20
``grandmaster``     as ``master``, judging positions with the pattern evaluation
                    (:mod:`game.logic.reversi.patterns`: edges, corners, diagonals and lines
                    weighted from positions our own solver and search labelled), and searching
                    selectively: ProbCut at 1 standard deviation and aspiration windows
                    (:func:`game.logic.reversi.search.search`)
==================  ============================================================================

The noise uses the ``rng`` passed to :meth:`Player.choose`, so a seeded game replays exactly.
The ``classic-*`` levels are a plain minimax with a five-criteria ranking at depths 3 to 6
(:mod:`game.logic.reversi.classic`).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from game.logic.contract import Limits, State, Stop, ThinkingStopped

from .board import PASS, Color, Move, Position, ReversiError
from .classic_levels import CLASSIC_LEVELS, ClassicLevel

if TYPE_CHECKING:
    from types import ModuleType

    from .search import SearchResult

# The compiled search (numba) is imported where it is first used, not here: the window names
# the levels and seats them without loading numba, and thinks in a worker process that
# :func:`prepare` readies (see game.logic.workers.pool).

__all__ = [
    "PLAYERS",
    "Choice",
    "ClassicPlayer",
    "Player",
    "ReversiLevelAgent",
    "SearchPlayer",
    "UnknownPlayerError",
    "describe",
    "get_player",
    "make_agent",
    "prepare",
    "warm_up",
]

#: The budget a timed level uses when the caller gives none.
DEFAULT_TIME: Final = 1.0


class UnknownPlayerError(ValueError):
    """A player name that is not in :data:`PLAYERS`."""


@dataclass(frozen=True, slots=True)
class Choice:
    """A player's move (a square or ``PASS``), its score for the side to move, and details.

    ``score`` is in discs: an evaluation, or the final disc difference when ``info["exact"]``.
    ``info`` holds what the debug overlay shows (depth, nodes, seconds, principal variation).
    """

    move: int
    score: float
    info: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Asked:
    """What :meth:`Player.choose` was asked, besides the position (see there)."""

    time_limit: float | None
    rng: random.Random | None
    stop: np.ndarray[Any, Any] | None
    depth: int | None
    node_limit: int | None


class Player:
    """A computer player: a name, a one-line description and a way to choose a move.

    A kind of player gives ``name``, ``description`` and :meth:`_choose`, which
    :meth:`choose` calls once it has checked that the game is not over.
    """

    __slots__ = ()

    if TYPE_CHECKING:  # given by each kind (a dataclass field or a property)

        @property
        def name(self) -> str: ...

        @property
        def description(self) -> str: ...

    def choose(
        self,
        position: Position,
        *,
        time_limit: float | None = None,
        rng: random.Random | None = None,
        stop: np.ndarray[Any, Any] | None = None,
        depth: int | None = None,
        node_limit: int | None = None,
    ) -> Choice:
        """The move to play in ``position`` (``PASS`` when the side to move must pass).

        ``depth`` and ``node_limit`` narrow the level's own limits. Raises ``ValueError``
        when the game is over and ``SearchCancelled`` when ``stop[0]`` is set while it thinks.
        """
        if position.is_terminal():
            raise ValueError(f"{self.name}: the game is over, there is no move to choose")
        return self._choose(position, Asked(time_limit, rng, stop, depth, node_limit))

    def _choose(self, position: Position, ask: Asked) -> Choice:
        """:meth:`choose` in a position where the game goes on."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class SearchPlayer(Player):
    """Our search (:func:`game.logic.reversi.search.search`) with a strength setting.

    ``depth`` caps the iterative deepening (None: only the time does); ``max_time`` caps the
    caller's budget; ``noise`` (discs, standard deviation) makes the weak levels score every
    move with a search of ``depth - 1`` plies and add Gaussian noise before picking the best.
    ``patterns`` makes the search judge positions with the pattern evaluation
    (:mod:`game.logic.reversi.patterns`) instead of the feature one. ``aspiration`` and
    ``probcut`` are the search's options of those names (:func:`~game.logic.reversi.search.search`).
    """

    name: str
    description: str
    depth: int | None
    exact_empties: int
    noise: float = 0.0
    max_time: float | None = None
    patterns: bool = False
    aspiration: bool = False
    probcut: float = 0.0

    def _choose(self, position: Position, ask: Asked) -> Choice:
        time_limit, stop, depth = ask.time_limit, ask.stop, ask.depth
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be positive, not {time_limit!r}")
        _check_stop(stop)
        moves = position.legal_moves()
        if moves == [PASS]:
            return Choice(PASS, 0.0, {"player": self.name, "forced": True})
        budget = time_limit
        if budget is None and self.depth is None:
            budget = DEFAULT_TIME
        if self.max_time is not None:
            budget = self.max_time if budget is None else min(budget, self.max_time)
        cap = self.depth if depth is None else min(depth, self.depth or depth)
        if self.noise > 0 and position.empties > self.exact_empties:
            rng = ask.rng if ask.rng is not None else random.Random()
            return self._noisy(position, moves, rng, stop, cap)
        from .patterns import load_weights
        from .search import search

        result = search(
            position,
            time_limit=budget,
            depth=cap,
            stop=stop,
            exact_empties=self.exact_empties,
            node_limit=ask.node_limit,
            weights=load_weights() if self.patterns else None,
            aspiration=self.aspiration,
            probcut=self.probcut,
        )
        return Choice(result.move, result.score, _info(self.name, result))

    def _noisy(
        self,
        position: Position,
        moves: list[int],
        rng: random.Random,
        stop: np.ndarray[Any, Any] | None,
        depth: int | None,
    ) -> Choice:
        """Score every move ``depth - 1`` plies deeper, add noise, play the best noisy score.

        The details count what was searched: the nodes and hash-table hits of every move's
        search (a move judged by the evaluation alone is one node), and the principal
        variation of the move played."""
        from .evaluation import evaluate
        from .search import search

        started = time.perf_counter()
        best_move, best_noisy, best_score = moves[0], -np.inf, 0.0
        best_pv: list[int] = [moves[0]]
        nodes = tt_hits = 0
        for move in moves:
            child = position.apply(move)
            line: list[int] = [move]
            if child.is_terminal():
                diff = child.score()
                score = float(diff if position.to_move.player == 0 else -diff)
                nodes += 1
            elif depth is not None and depth > 1:
                result = search(child, depth=depth - 1, stop=stop, exact_empties=0)
                score = -result.score
                nodes += result.nodes
                tt_hits += result.tt_hits
                line += list(result.pv)
            else:
                score = -evaluate(child)
                nodes += 1
            noisy = score + rng.gauss(0.0, self.noise)
            if noisy > best_noisy:
                best_move, best_noisy, best_score, best_pv = move, noisy, score, line
        seconds = time.perf_counter() - started
        info = {
            "player": self.name,
            "depth": depth,
            "noise": self.noise,
            "exact": False,
            "nodes": nodes,
            "tt_hits": tt_hits,
            "pv": best_pv,
            "seconds": seconds,
            "nps": nodes / seconds if seconds > 0 else 0.0,
        }
        return Choice(best_move, best_score, info)


@dataclass(frozen=True, slots=True)
class ClassicPlayer(Player):
    """The classic minimax AI (:mod:`game.logic.reversi.classic`) at one of its four levels."""

    level: ClassicLevel
    description: str

    @property
    def name(self) -> str:
        return self.level.name

    def _choose(self, position: Position, ask: Asked) -> Choice:
        """Fixed depth (``depth`` may lower it): the time limit and the node limit are not
        used (the expert answers in well under 1 s); ``stop`` is read while it searches."""
        _check_stop(ask.stop)
        from .classic import classic_move

        level = self.level
        if ask.depth is not None and ask.depth < level.depth:
            level = replace(level, depth=ask.depth)
        move, score, nodes = classic_move(position, level, ask.rng, ask.stop)
        info = {"player": self.name, "depth": level.depth, "nodes": nodes, "rank": True}
        return Choice(move, score, info)


_ALL: tuple[Player, ...] = (
    SearchPlayer("beginner", "looks one move ahead, and often misjudges", 1, 0, noise=4.0),
    SearchPlayer("intermediate", "three moves ahead, a little erratic", 3, 8, noise=1.5),
    SearchPlayer("advanced", "five moves ahead; perfect in the last 12 squares", 5, 12),
    SearchPlayer("expert", "nine moves ahead; perfect in the last 16 squares", 9, 16, max_time=5.0),
    SearchPlayer("master", "full strength for the time given; perfect from 20 squares", None, 20),
    SearchPlayer(
        "grandmaster",
        "full strength, judging edges, corners and lines by patterns; perfect from 20 squares",
        None,
        20,
        patterns=True,
        aspiration=True,
        probcut=1.0,
    ),
    *(
        ClassicPlayer(level, f"the classic minimax AI, {level.depth} moves ahead")
        for level in CLASSIC_LEVELS.values()
    ),
)
#: Every computer player by name, ours first (weakest to strongest), then the classic ones.
PLAYERS: Final[dict[str, Player]] = {player.name: player for player in _ALL}


def get_player(name: str) -> Player:
    """The player called ``name``; :class:`UnknownPlayerError` lists the names there are."""
    try:
        return PLAYERS[name]
    except KeyError:
        raise UnknownPlayerError(
            f"unknown Reversi player {name!r}: choose one of {', '.join(PLAYERS)}"
        ) from None


def describe() -> dict[str, str]:
    """Every level, name -> a line about it, in the order of :data:`PLAYERS`."""
    return {name: player.description for name, player in PLAYERS.items()}


def make_agent(name: str) -> ReversiLevelAgent:
    """A new :class:`ReversiLevelAgent` for the level called ``name`` (one per seat or hint: each
    remembers its own last choice); :class:`UnknownPlayerError` lists the names there are."""
    return ReversiLevelAgent(get_player(name))


class ReversiLevelAgent:
    """A level as an :class:`~game.logic.contract.Agent`; see the module docstring.

    ``limits.time`` is the time for the move (a level's ``max_time`` may cut it),
    ``limits.depth`` and ``limits.nodes`` narrow the level's own depth and node count.
    ``stop.flag`` is read by the compiled searches; once it is set :meth:`choose` raises
    :class:`~game.logic.contract.ThinkingStopped`. The first choice in a process compiles (or
    loads) the search kernels before its clock starts (:func:`warm_up`).
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.description = player.description
        #: The last choice made, with its details (depth, nodes, principal variation).
        self.last: Choice | None = None
        self._side: Color = Color.BLACK

    def choose(self, state: State[Move], limits: Limits, rng: random.Random, stop: Stop) -> Move:
        if not isinstance(state, Position):
            raise ReversiError(f"{self.name} plays Reversi positions, not {type(state).__name__}")
        _warm_once()
        from .solver import SearchCancelled

        try:
            choice = self.player.choose(
                state,
                time_limit=limits.time,
                rng=rng,
                stop=stop.flag,
                depth=limits.depth,
                node_limit=limits.nodes,
            )
        except SearchCancelled as exc:
            if stop.is_set():
                raise ThinkingStopped(str(exc)) from None
            raise
        self.last = choice
        self._side = state.to_move
        return choice.move

    def explain(self) -> str:
        """What the last choice is worth for the side that made it, and how deep it looked:
        ``"evaluation +1.5 discs for black, depth 9"``, ``"exact: white wins by 4"``,
        ``"rank +15 for white, depth 6"`` (the classic levels rank moves, not in discs)."""
        choice = self.last
        if choice is None:
            return ""
        info = choice.info
        side = self._side.name.lower()
        if info.get("forced"):
            return "the only move"
        if info.get("exact"):
            score = round(choice.score)
            if score == 0:
                return f"exact: {side} draws"
            return f"exact: {side} {'wins' if score > 0 else 'loses'} by {abs(score)}"
        if info.get("rank"):
            text = f"rank {choice.score:+.0f} for {side}"
        else:
            text = f"evaluation {choice.score:+.1f} discs for {side}"
        depth = info.get("depth")
        return f"{text}, depth {depth}" if depth else text

    def __repr__(self) -> str:
        return f"LevelAgent({self.name!r})"


def prepare(report: Callable[[float], None] | None = None) -> None:
    """Ready the code every player runs in this process (once; see :func:`warm_up`), calling
    ``report(fraction)`` as each of the kernels is compiled (the first start, or after an
    upgrade: a minute or more); loaded from numba's disk cache, nothing is reported.

    The window runs it in a worker process (``game.logic.workers.pool.prepare``) and shows
    how far it got; the worker then thinks for the window."""
    from game.logic.compiling import compile_progress

    from . import evaluation, kernels, patterns

    # Kernels only the tools and the tests call (training data, rule checks): the warm-up
    # leaves them, and they are not counted.
    tools_only = [
        kernels.play,
        kernels.ordered_moves,
        evaluation._feature_array,
        patterns._batch,
        patterns._indices,
        patterns._scalars,
    ]
    with compile_progress(_kernel_modules(), report, leave_out=tools_only):
        _warm_once()


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the code every player runs, so that the first
    real move is not slowed down by it: the search with either evaluation, the classic AI, the
    exact solver, perft and the evaluation's terms (the debug overlay's). Takes a minute or
    more the very first time (see :mod:`game.places` for where it is kept), then well under a
    second."""
    from .classic import classic_move
    from .evaluation import WEIGHTS, explain
    from .patterns import load_weights
    from .perft import perft
    from .pvs import evaluate_leaf
    from .search import TranspositionTable, search
    from .solver import solve

    start = Position.start()
    search(start, depth=2, exact_empties=0, table=TranspositionTable(1 << 10))
    search(
        start, depth=2, exact_empties=0, table=TranspositionTable(1 << 10), weights=load_weights()
    )
    for weights in (WEIGHTS, load_weights()):  # a search stopped before its first iteration
        evaluate_leaf(np.uint64(start.mine), np.uint64(start.theirs), weights)
    classic_move(start, CLASSIC_LEVELS["classic-beginner"], random.Random(0))
    # The exact solver, on a position deep enough for its evaluated move ordering, and with
    # every best move (its null-window test of each other move).
    solve(Position.from_text(_WARM_UP_ENDGAME), all_moves=True)
    perft(start, 2)
    explain(start)


# --------------------------------------------------------------------------- private helpers

#: 14 empty squares, black to move: solved in a few milliseconds once compiled.
_WARM_UP_ENDGAME = "-XXXXX---OOXOOO-XOOXXOOO-OXOOXO-OOXOOXX-OOX-OXXOOXXXXXX-X----XXXX"
_WARM = threading.Lock()
_warmed = False


def _warm_once() -> None:
    global _warmed
    if _warmed:
        return
    with _WARM:
        if not _warmed:
            warm_up()
            _warmed = True


def _kernel_modules() -> list[ModuleType]:
    """The modules that define the compiled kernels (importing them loads numba)."""
    from . import classic, endgame, evaluation, kernels, patterns, perft, pvs, search, solver

    return [kernels, evaluation, patterns, pvs, endgame, solver, search, classic, perft]


def _check_stop(stop: np.ndarray[Any, Any] | None) -> None:
    if stop is not None and stop[0]:
        from .solver import SearchCancelled

        raise SearchCancelled("search cancelled before it started")


def _info(name: str, result: SearchResult) -> dict[str, Any]:
    return {
        "player": name,
        "depth": result.depth,
        "exact": result.exact,
        "nodes": result.nodes,
        "seconds": result.seconds,
        "nps": result.nps,
        "pv": list(result.pv),
        "tt_hits": result.tt_hits,
    }
