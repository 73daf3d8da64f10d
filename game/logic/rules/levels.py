"""The computer's levels for every described game, weakest first, and what each says about
its choice.

==================  ==========================================================================
``beginner``        one ply and a quiet look at the captures, with noise of a pawn on each
                    move's value (seeded by the position)
``intermediate``    two plies and the captures, a little noise
``advanced``        a search of 5,000 positions (250,000 on the compiled search, whose
                    positions cost a fiftieth): the same move every time, on any machine
                    (unless the time given runs out first)
``master``          full strength for the time given (1 s when none is given)
==================  ==========================================================================

How a level plays depends on how the game is won, read from the description:

- a game where chance acts (dice, face-down pieces): expectimax, alpha-beta through the
  chance nodes (:mod:`~game.logic.rules.expectimax`);
- a game won by a line of k stones (gomoku): threats first, then the points that build the
  most lines next to the stones (:mod:`~game.logic.rules.lines`);
- a game won by joining two zones (Hex): Monte Carlo tree search with simulated games that
  fill the board (:mod:`~game.logic.rules.connect`), as many as the time or budget allows;
- any other: alpha-beta (:mod:`~game.logic.rules.search`) with the description's evaluation
  (:mod:`~game.logic.rules.evaluation`); where the game's compiled back end is built, the same
  search compiled (:mod:`~game.logic.rules.compiled.searcher`), ``advanced`` then bounded by
  :attr:`Level.compiled_nodes` and a steady agent by :data:`COMPILED_STEADY_FACTOR` times its
  positions (a compiled position costs a twentieth to a seventieth of a Python one).

A *steady* agent (:func:`steady_name`, the window's hint) turns a time given alone into a
budget of :data:`STEADY_RATE` positions (simulated games at Hex) a second, so that the same
position gets the same hint and the same words on every run and machine; a slow machine only
takes longer to give it.

What is deterministic: nothing here draws on the ``rng`` a caller passes; noise and
simulated games are seeded by the position. A level bounded by depth or positions
(``advanced``, or any level given ``Limits(nodes=...)`` or ``Limits(depth=...)``) gives the same
move and the same words for the same position on every run and machine. ``master``, bounded by
time alone, stops when its time is up and starts from the transposition table its last search
for the same side in this process left (:data:`KEPT_TABLES`), so it looks deeper each move; how
deep it looked (and in a close position its move) depends on the machine and on the searches
before.

:meth:`LevelAgent.explain` says why in words: the line it completes or blocks, the mate it
found, the material the move wins or saves, or the search's depth and score in the game's
smallest piece (pawns, men); :meth:`LevelAgent.details` gives the depth, positions and
principal variation for the F3 overlay.
"""

from __future__ import annotations

import os
import random
import time
import weakref
import zlib
from dataclasses import dataclass
from typing import Any, Final

from game.logic.contract import Limits, Stop, ThinkingStopped
from game.logic.rules.compiled.searcher import CompiledSearch, move_of, searcher_for
from game.logic.rules.concealed_play import sampled_choice
from game.logic.rules.connect import Connection, connection_zones
from game.logic.rules.evaluation import UNIT, Judge
from game.logic.rules.expectimax import chance_over, expected_choice, level_plies
from game.logic.rules.group_rulebook import GroupRulebook
from game.logic.rules.lines import Lines, LinesStopped, line_length
from game.logic.rules.many import choose_many
from game.logic.rules.puzzle import puzzle_choice
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook
from game.logic.rules.search import (
    COUNT_WIN,
    MATE_BAND,
    WIN,
    DescribedSearchResult,
    Search,
    SearchStopped,
)
from game.logic.rules.state import RulesState

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "STEADY_RATE",
    "Level",
    "LevelAgent",
    "level_agent",
    "steady_name",
]

#: Seconds a level thinks when the caller gives no limit at all.
DEFAULT_TIME: Final = 1.0
DEFAULT_DEPTH: Final = 64
#: Simulated games a second for a connection game when only a depth is given.
GAMES_PER_PLY: Final = 1000
#: Positions (simulated games at Hex) a steady agent searches for each second it is given:
#: about a second's work on a loaded two-core machine, half that on a free one.
STEADY_RATE: Final = 2_000
#: How many more positions a steady agent searches on the compiled search than on Python's.
COMPILED_STEADY_FACTOR: Final = 50
#: The positions ``advanced`` searches a move on the Python search and on the compiled one.
ADVANCED_NODES: Final = 5_000
ADVANCED_COMPILED_NODES: Final = 250_000
#: Set to 0 to keep the levels on the Python search where a compiled one is built (the tests:
#: whether a game's module is warm on disk must not change what a test's level plays).
COMPILED_SEARCH_ENV: Final = "GAMEHALL_COMPILED_SEARCH"
#: What a steady agent's name adds to its level's.
_STEADY: Final = ":steady"
#: The transposition tables of the searches bounded by time alone, by rulebook, then by level
#: and side: the next search of that side starts from what the last one found. A rulebook that
#: is no longer used takes its tables with it.
KEPT_TABLES: Final[weakref.WeakKeyDictionary[Rulebook, dict[tuple[str, int], dict[int, Any]]]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class Level:
    """A level's strength: the most plies, positions a choice (None: the caller's limits),
    and the noise (points, 100 a pawn) added to each first move's value."""

    name: str
    description: str
    depth: int | None = None
    nodes: int | None = None
    noise: int = 0
    #: the positions a choice on the compiled search (many times cheaper than the Python one)
    compiled_nodes: int | None = None


LEVELS: Final = {
    level.name: level
    for level in (
        Level("beginner", "looks one move ahead, and often misjudges", depth=1, noise=120),
        Level("intermediate", "two moves ahead, a little erratic", depth=2, noise=40),
        Level(
            "advanced",
            f"searches {ADVANCED_NODES:,} positions ({ADVANCED_COMPILED_NODES:,} where the game's"
            " search is compiled): the same move every time",
            nodes=ADVANCED_NODES,
            compiled_nodes=ADVANCED_COMPILED_NODES,
        ),
        Level("master", "full strength for the time given"),
    )
}
#: The level the hint and a computer side use unless a description names another agent.
DEFAULT_LEVEL: Final = "master"


def steady_name(level: str) -> str:
    """The name of ``level``'s steady agent (the window's hint): :func:`level_agent` makes it."""
    return level + _STEADY


def level_agent(name: str) -> LevelAgent | None:
    """The agent of a level's name or of its :func:`steady_name`; None for another name."""
    base = name.removesuffix(_STEADY)
    if base not in LEVELS:
        return None
    return LevelAgent(LEVELS[base], steady=name != base)


class LevelAgent:
    """A level as an agent (see the module docstring)."""

    #: Whether the alpha-beta kind searches on the compiled back end where one is built.
    compiled: bool = True

    def __init__(self, level: Level, steady: bool = False, compiled: bool = True) -> None:
        self.level = level
        self.steady = steady
        self.compiled = compiled
        self.name = level.name
        self.description = level.description
        self._said = ""
        self._details: dict[str, Any] = {}
        self._cache: dict[int, Any] = {}

    def explain(self) -> str:
        return self._said

    def details(self) -> dict[str, Any]:
        """The last search's depth, positions, score and principal variation (for F3)."""
        return dict(self._details)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_cache"] = {}  # tables are made again where the agent goes
        return state

    # -- choosing --------------------------------------------------------------------------------

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Stop) -> Move:
        if not isinstance(state, RulesState):
            raise ValueError("this agent plays described games only")
        if state.is_terminal():
            raise ValueError("the game is over: there is no move to choose")
        moves: list[Move] = list(state.legal_actions())
        self._details = {}
        if len(moves) == 1:
            self._said = "the only move" if moves[0][0] else "no move: a pass"
            return moves[0]
        rulebook = state.rulebook
        pos = state.pos.copy()
        nodes = limits.nodes or self.level.nodes
        depth = min(d for d in (limits.depth, self.level.depth, DEFAULT_DEPTH) if d is not None)
        seconds = limits.time
        if seconds is None and not (limits.nodes or limits.depth or self.level.nodes):
            seconds = DEFAULT_TIME
        if self.steady and not nodes and seconds is not None:
            nodes, seconds = max(1, round(seconds * STEADY_RATE)), None
        if rulebook.players == 1 and chance_over(rulebook) is None:  # a puzzle: its goal
            ends = time.perf_counter() + seconds if seconds is not None else None
            solved = puzzle_choice(rulebook, pos, nodes, ends, stop.is_set)
            if solved is not None:
                self._said, self._details = solved[1], solved[2]
                return solved[0]
        if rulebook.players > 2 or rulebook.design.turn_seats:  # each seat for itself: a vector
            move, self._said, self._details = choose_many(
                self.name, state, nodes, None if nodes else seconds, stop
            )
            return move  # type: ignore[no-any-return]
        if chance_over(rulebook) is not None:  # dice or face-down pieces: expectimax
            plies = level_plies(rulebook, depth if depth < DEFAULT_DEPTH else None)
            found = expected_choice(state, plies, nodes, seconds, stop)
            self._said, self._details = found.said, found.details
            return found.move
        deadline = time.perf_counter() + seconds if seconds is not None else None
        if rulebook.design.concealed is not None:  # unseen pieces: searches on guesses
            guessed, self._said = sampled_choice(state, depth, nodes, seconds, stop)
            return guessed
        kind, helper = self._helper(rulebook)
        if kind == "lines":
            try:
                choice = helper.choose(
                    pos, moves, depth=depth, nodes=nodes, deadline=deadline, stop=stop
                )
            except LinesStopped:
                raise ThinkingStopped("stopped") from None
            self._said = choice.reason
            self._details = {"depth": choice.depth, "nodes": choice.nodes, "pv": ""}
            chosen: Move = choice.move
            return chosen
        if kind == "connection":
            games = nodes or (depth * GAMES_PER_PLY if depth < DEFAULT_DEPTH else None)
            found = helper.choose(pos, moves, games=games, deadline=deadline, stop=stop)
            self._said = found.reason
            self._details = {"games": found.games, "rate": found.rate}
            picked: Move = found.move
            return picked
        compiled = self.compiled and os.environ.get(COMPILED_SEARCH_ENV, "1") != "0"
        searcher = searcher_for(rulebook.design) if kind == "search" and compiled else None
        if searcher is not None:
            if not limits.nodes:
                nodes = self.level.compiled_nodes or (
                    nodes * COMPILED_STEADY_FACTOR if nodes else None
                )
            return self._compiled(state, searcher, helper, depth, nodes, deadline, stop)
        table = None
        if deadline is not None and not nodes and depth == DEFAULT_DEPTH and not self.level.noise:
            tables = KEPT_TABLES.setdefault(rulebook, {})
            table = tables.setdefault((self.name, rulebook.player(pos)), {})
        search = Search(rulebook, helper, deadline=deadline, node_cap=nodes, stop=stop, table=table)
        if self.level.noise:
            return self._noisy(state, search, moves, depth)
        result = search.run(pos, moves, depth)
        if stop.is_set():
            raise ThinkingStopped("stopped")
        self._said = _reason(rulebook, helper, state, result)
        self._details = _details(rulebook, state, result)
        return result.move

    def _helper(self, rulebook: Rulebook) -> tuple[str, Any]:
        key = id(rulebook)
        found = self._cache.get(key)
        if found is None or found[2] is not rulebook:
            k = line_length(rulebook)
            zones = connection_zones(rulebook)
            if k is not None:
                found = ("lines", Lines(rulebook, k), rulebook)
            elif zones is not None:
                found = ("connection", Connection(rulebook, zones), rulebook)
            elif isinstance(rulebook, GroupRulebook):  # Go: the same search, its own games
                # Imported here: its kernels load numba, which no other game's window needs.
                from game.logic.rules.group_play import GroupPlay

                found = ("connection", GroupPlay(rulebook), rulebook)
            else:
                found = ("search", Judge(rulebook), rulebook)
            self._cache = {key: found}
        return found[0], found[1]

    def _compiled(
        self,
        state: RulesState,
        searcher: CompiledSearch,
        judge: Judge,
        depth: int,
        nodes: int | None,
        deadline: float | None,
        stop: Stop,
    ) -> Move:
        """The move of the compiled search (noise as :meth:`_noisy` gives it, on each legal
        move's value), with its reason and details."""
        rulebook = state.rulebook
        pos = state.pos
        noise = None
        if self.level.noise:
            rng = random.Random(zlib.crc32(repr(rulebook.key(pos)).encode()))
            spread = self.level.noise
            noise = [rng.randint(-spread, spread) for _ in state.legal_actions()]
        keep = deadline is not None and not nodes and depth == DEFAULT_DEPTH and not noise
        found = searcher.run(
            pos, depth=depth, nodes=nodes, deadline=deadline, stop=stop, noise=noise,
            keep_table=keep,
        )  # fmt: skip
        if stop.is_set():
            raise ThinkingStopped("stopped")
        line = [move_of(rulebook, pos, found.pv[0])]
        work = state.apply(line[0])
        for row in found.pv[1:]:  # up to where the game ends by a rule the search does not
            if work.is_terminal():  # see (a repetition with earlier moves, quiet moves)
                break
            line.append(move_of(rulebook, work.pos, row))
            work = work.apply(line[-1])
        result = DescribedSearchResult(line[0], found.score, found.depth, found.nodes, line)
        self._said = _reason(rulebook, judge, state, result)
        if noise:
            self._said += f"; a quick look, as a {self.level.name}"
        self._details = _details(rulebook, state, result)
        return result.move

    def _noisy(self, state: RulesState, search: Search, moves: list[Move], depth: int) -> Move:
        """Each first move searched to ``depth`` - 1 and given noise seeded by the position."""
        rulebook = state.rulebook
        pos = state.pos.copy()
        rng = random.Random(zlib.crc32(repr(rulebook.key(pos)).encode()))
        me = rulebook.player(pos)
        search.root_player = me
        best, best_value = moves[0], -WIN * 2
        for move in moves:
            saved = rulebook.make(pos, move)
            try:
                same = rulebook.player(pos) == me
                value = search.child(pos, depth - 1, -WIN - 1, WIN + 1, 1, same)
            except SearchStopped:
                break
            finally:
                rulebook.unmake(pos, saved)
            if abs(value) < MATE_BAND:
                value += rng.randint(-self.level.noise, self.level.noise)
            if value > best_value:
                best, best_value = move, value
        facts = _facts(rulebook, state, best)
        self._said = (facts + "; " if facts else "") + f"a quick look, as a {self.level.name}"
        return best


# -- the words ------------------------------------------------------------------------------------


def _unit_name(rulebook: Rulebook) -> str:
    """What a score counts: the game's counters (seeds), or the plural of its least piece with
    a value of 1 (pawns, men); "" when the evaluation counts no material (Othello's is moves,
    corners and edges)."""
    design = rulebook.design
    pieces = [p for p in design.pieces if p.value == 1]
    if design.counters:
        pieces = list(design.pieces[:1])
    elif not pieces or design.evaluation.material == 0:
        return ""
    return _plural(pieces[0].name)


def _plural(name: str) -> str:
    name = name.lower()
    return name[:-3] + "men" if name.endswith("man") else name + "s"


def _facts(rulebook: Rulebook, state: RulesState, move: Move) -> str:
    """What the move does that a player sees: what it takes, what it becomes."""
    path, caps, effects, _pid = move
    b = state.pos.board
    c = rulebook.c
    names = rulebook.design.board.names
    pieces = rulebook.design.pieces
    out = []
    if caps and not rulebook.design.counters:
        taken = [b[x] for x in caps if b[x]]
        if len(taken) == 1:
            out.append(f"takes the {pieces[c.kind_of[taken[0]]].name} on {names[caps[0]]}")
        elif taken:
            out.append(f"takes {len(taken)} pieces")
    if len(path) > 1 and effects and b[path[0]]:
        final = effects[-1][1]
        if final and c.kind_of[final] != c.kind_of[b[path[0]]]:
            out.append(f"becomes a {pieces[c.kind_of[final]].name}")
    return ", ".join(out)


def _material(rulebook: Rulebook, judge: Judge, pos: DescribedPosition) -> int:
    """The first player's material lead (points)."""
    table = judge.material
    return sum(table[v] for v in pos.board if v)


def _reason(
    rulebook: Rulebook, judge: Judge, state: RulesState, result: DescribedSearchResult
) -> str:
    """Why the search chose its move, in words."""
    score = result.score
    facts = _facts(rulebook, state, result.move)
    lead = ", ".join(x for x in (facts,) if x)
    royal = bool(rulebook.royal)
    if score >= MATE_BAND:
        plies = WIN - score
        moves = (plies + 1) // 2
        end = f"mate in {moves}" if royal else f"wins in {moves} move{'s' * (moves != 1)}"
        return f"{lead}: {end}" if lead else end
    if score <= -MATE_BAND:
        moves = (WIN + score + 1) // 2
        what = "mated" if royal else "lost"
        return f"every move is {what} within {moves}; this one holds out longest"
    unit = _unit_name(rulebook)
    counted = _plural(rulebook.design.pieces[0].name)  # what a game won by counting counts
    if score >= COUNT_WIN:
        return f"wins by {score - COUNT_WIN} {counted}, searched to the end"
    if score <= -COUNT_WIN:
        return f"every move loses; this one by {-COUNT_WIN - score} {counted}, the least"
    unit = _unit_name(rulebook)
    me = rulebook.player(state.pos)
    sign = 1 if me == 0 else -1
    parts = [lead] if lead else []
    if not rulebook.design.counters and rulebook.design.evaluation.material:
        after = state.pos.copy()
        for move in result.pv:
            rulebook.make(after, move)
        # The line may stop between a capture and its answer: settle the captures left.
        settle = _exchange(rulebook, judge, after, 3)
        if rulebook.player(after) != me:
            settle = -settle
        now = _material(rulebook, judge, state.pos)
        gained = sign * (_material(rulebook, judge, after) - now) + settle
        if gained >= UNIT // 2:
            parts.append(f"wins material: {gained / UNIT:+.1f} {unit} along the line")
        saved = _threat(rulebook, judge, state, result.move)
        if saved:
            parts.append(saved)
        if not result.move[1] and not saved:
            quiet = _quiet(rulebook, judge, state, result.move)
            if quiet:
                parts.append(quiet)
    where = f"{score / UNIT:+.2f} {unit}" if unit else f"score {score / UNIT:+.2f}"
    parts.append(
        f"best of a {result.depth}-ply search of {result.nodes:,} positions: {where} for "
        f"{rulebook.design.players[me]}"
    )
    return "; ".join(parts)


#: The least gain, in moves, that a quiet move's reason names.
QUIET_GAIN: Final = 2


def _quiet(rulebook: Rulebook, judge: Judge, state: RulesState, move: Move) -> str:
    """Why a quiet move helps, where it shows: "brings the Knight to c3, where it reaches 8
    squares (3 from b1)" for a piece that does not promote and reaches more of an empty board
    from its new position; else "gives White's pieces 6 more moves (20 to 26)" when the move
    opens lines for the side that plays it."""
    path = move[0]
    if len(path) < 2:
        return ""
    b = state.pos.board
    code = b[path[0]]
    if not code:
        return ""
    c = rulebook.c
    names = rulebook.design.board.names
    kind, player = c.kind_of[code], c.owner[code]
    reach = judge.reach.get((kind, player))
    frm, to = path[0], path[-1]
    if (
        reach is not None
        and kind not in rulebook.royal
        and kind not in judge.promoters
        and reach[to] - reach[frm] >= QUIET_GAIN
    ):
        name = rulebook.design.pieces[kind].name
        return (
            f"brings the {name} to {names[to]}, where it reaches {reach[to]} squares "
            f"({reach[frm]} from {names[frm]})"
        )
    me = rulebook.player(state.pos)
    before = len(state.legal_actions())
    after = state.pos.copy()
    rulebook.make(after, move)
    if rulebook.player(after) == me:
        return ""
    after.turn = state.pos.turn
    now = len(rulebook.legal(after))
    if now - before >= QUIET_GAIN and rulebook.player(after) == me:
        side = rulebook.design.players[me]
        return f"gives {side}'s pieces {now - before} more moves ({before} to {now})"
    return ""


def _exchange(rulebook: Rulebook, judge: Judge, pos: DescribedPosition, depth: int) -> int:
    """The material the side to move wins by captures from here, each side free to stop
    (at most ``depth`` captures deep)."""
    if depth <= 0:
        return 0
    b = pos.board
    values, kind_of = judge.values, rulebook.c.kind_of
    me = rulebook.player(pos)
    best = 0
    for move in rulebook.legal(pos):
        if not move[1]:
            continue
        taken = sum(values[kind_of[b[x]]] for x in move[1] if b[x])
        saved = rulebook.make(pos, move)
        try:
            reply = _exchange(rulebook, judge, pos, depth - 1)
            value = taken + reply if rulebook.player(pos) == me else taken - reply
        finally:
            rulebook.unmake(pos, saved)
        best = max(best, value)
    return best


def _threat(rulebook: Rulebook, judge: Judge, state: RulesState, move: Move) -> str:
    """ "saves the Knight on f6" when the opponent could take a piece of ours for free (or for
    less than it is worth) now and cannot after ``move``."""
    before = _best_take(rulebook, judge, state.pos)
    if before is None:
        return ""
    after_pos = state.pos.copy()
    rulebook.make(after_pos, move)
    if rulebook.player(after_pos) == rulebook.player(state.pos):
        return ""
    moves = rulebook.legal(after_pos)
    gain_after = max((_take_gain(rulebook, judge, after_pos, m) for m in moves if m[1]), default=0)
    square, gain_before = before
    if gain_before >= UNIT and gain_after < gain_before:
        piece = rulebook.design.pieces[rulebook.c.kind_of[state.pos.board[square]]].name
        return f"saves the {piece} on {rulebook.design.board.names[square]}"
    return ""


def _best_take(rulebook: Rulebook, judge: Judge, pos: DescribedPosition) -> tuple[int, int] | None:
    """What the opponent's best capture would win if it were their move: (square, points)."""
    other = pos.copy()
    other.turn = rulebook.next_turn(pos.turn)
    if rulebook.player(other) == rulebook.player(pos):
        return None
    best: tuple[int, int] | None = None
    for m in rulebook.legal(other):
        if not m[1]:
            continue
        gain = _take_gain(rulebook, judge, other, m)
        if gain > 0 and (best is None or gain > best[1]):
            best = (m[1][0], gain)
    return best


def _take_gain(rulebook: Rulebook, judge: Judge, pos: DescribedPosition, move: Move) -> int:
    """Points a capture wins: the pieces taken, less the taker when it can be taken back."""
    b = pos.board
    values = judge.values
    kind_of = rulebook.c.kind_of
    taken = sum(values[kind_of[b[x]]] for x in move[1] if b[x])
    mover = rulebook.player(pos)
    work = pos.copy()
    rulebook.make(work, move)
    to = move[0][-1] if move[0] else -1
    back = any(m[1] and to in m[1] for m in rulebook.legal(work)) if to >= 0 else False
    if back and rulebook.player(work) != mover:
        taken -= values[kind_of[b[move[0][0]]]] if len(move[0]) > 1 and b[move[0][0]] else 0
    return taken


def _details(
    rulebook: Rulebook, state: RulesState, result: DescribedSearchResult
) -> dict[str, Any]:
    pv = []
    work = state
    for move in result.pv:  # in the game's own notation (SAN for chess)
        pv.append(work.action_text(move))
        work = work.apply(move)
    return {
        "depth": result.depth,
        "nodes": result.nodes,
        "score": result.score / UNIT,
        "pv": " ".join(pv),
    }
