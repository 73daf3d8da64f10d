"""Alpha-beta for any described game: the search the levels (:mod:`~game.logic.rules.levels`)
play and hint with.

Iterative deepening with principal variation search: each depth's best move is searched
first with the full window and the others with a null window (searched again when one beats
it). A transposition table keyed by the hash of the rulebook's position key keeps each
position's depth, bound, score and best move; moves are ordered by the table's move, then
captures (most valuable victim, least valuable attacker) and promotions, then two killer
moves a ply, then the history of quiet moves that cut off before. Late quiet moves are
searched one ply shallower first. A player in check searches one ply deeper. At depth 0 a
quiescence search plays captures and promotions until the position is quiet (standing pat
on the evaluation; a player in check or whose every move captures, as draughts compels, may
not stand pat), so that a piece left where it can be taken is seen as lost.

A move after which the same player moves again (a sowing into one's store) is searched
without changing sides. Won and lost ends score ``WIN`` minus the plies to them, so sooner
wins rank higher; a game decided by counting scores ``COUNT_WIN`` plus the margin; a draw
by the rules costs the searching side a little (:data:`CONTEMPT`), so that it does not
repeat moves in a position it may still win. Where the description draws by repetition, a
position met again on the line (or earlier in the game) already scores as that draw (or as
the loss of a side that gave check throughout, where it loses by perpetual check); where it
draws after quiet moves, a judgement shrinks toward half as their count nears the limit, so
the side ahead makes progress (a capture, a move that resets the count) while it can.

Nothing in the search is random and its tables start empty unless the caller gives one, so a
search bounded by depth or positions always returns the same move for the same position; a
search bounded by time stops at a time the machine decides, and its result is that of the
deepest search it finished (the levels give such a search the table of the one before, for
the same player: what it found two plies ago is looked up, not searched again).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from game.logic.contract import Stop
from game.logic.rules.evaluation import UNIT, Judge
from game.logic.rules.perpetual import repeat_outcome
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook
from game.logic.search.budget import Budget

__all__ = ["COUNT_WIN", "WIN", "DescribedSearchResult", "Search", "SearchStopped"]

WIN: Final = 1_000_000
#: Scores from here up are decided ends (a won count or a mate).
COUNT_WIN: Final = WIN - 100_000
#: Scores from here up are mates (won ends by ``WIN - plies``).
MATE_BAND: Final = WIN - 10_000
#: Table entries kept before the table starts again (about 200 bytes each).
TABLE_SIZE: Final = 400_000
#: What a draw by the rules (repetition, no progress, no move) costs the side that searches:
#: it plays on for a win where the position allows, rather than repeat.
CONTEMPT: Final = 20
#: Captures and promotions the quiescence search follows at most in a row.
QUIESCENCE_PLIES: Final = 12

EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2


class SearchStopped(Exception):
    """The search ran out of time or positions, or was stopped."""


@dataclass
class DescribedSearchResult:
    """What one search found: the move, its score for the side to move (points: 100 a unit
    of material), the depth of the deepest finished iteration, the positions visited, the
    principal variation and whether the score is exact for the move (not just a bound)."""

    move: Move
    score: int
    depth: int
    nodes: int
    pv: list[Move] = field(default_factory=list)
    scores: dict[Move, int] = field(default_factory=dict)


class Search(Budget):
    """One search of one position; see the module docstring. ``deadline`` is a
    ``time.perf_counter()`` value (None: no time limit), ``node_cap`` the most positions,
    ``table`` a transposition table to start from (None: an empty one)."""

    SPENT = STOPPED = SearchStopped

    def __init__(
        self,
        rulebook: Rulebook,
        judge: Judge,
        *,
        deadline: float | None = None,
        node_cap: int | None = None,
        stop: Stop | None = None,
        table: dict[int, tuple[int, int, int, Move | None]] | None = None,
    ) -> None:
        super().__init__(node_cap, deadline, stop)
        self.rulebook = rulebook
        self.judge = judge
        #: depth, bound, score, best move, by the hash of a position's key (``table``: one
        #: that earlier searches filled, for the same player and evaluation)
        self.table: dict[int, tuple[int, int, int, Move | None]] = {} if table is None else table
        self.killers: list[list[Move]] = [[] for _ in range(128)]
        self.history: dict[Any, int] = {}
        self.royal = bool(rulebook.royal)
        c = rulebook.c
        # The worth of each piece code, for ordering captures (victims, attackers).
        self.worth = [0] * c.codes
        if not rulebook.design.counters:
            for v in range(1, c.codes):
                self.worth[v] = max(1, judge.values[c.kind_of[v]] // 10)
        self.kind_of = c.kind_of
        self.promoters = frozenset(() if rulebook.design.counters else judge.promoters)
        self.promotion_squares = frozenset(
            () if rulebook.design.counters else judge.promotion_squares
        )
        self.counters = rulebook.design.counters
        self.root_depth = 0
        self.root_player = -1
        self.repeats = bool(rulebook.repetition)
        #: Quiet moves (no capture, no move of the types that reset the count) before the
        #: description's draw; a judgement is scaled down as they run out (0: no such rule).
        self.quiet_limit = rulebook.quiet_limit
        #: Whether a kept score may settle a node before its moves are made: not where an end
        #: counts the plies played (the position may have ended since it was kept).
        self.probe_first = not rulebook.counts_plies

    # -- the iterations ---------------------------------------------------------------------

    def run(
        self, pos: DescribedPosition, moves: list[Move], max_depth: int
    ) -> DescribedSearchResult:
        """Iterative deepening to ``max_depth`` or until stopped; the deepest finished
        iteration's result (at least the first move, scored by a one-ply look, when not
        even depth 1 finished)."""
        self.root_player = self.rulebook.player(pos)
        order = self._order(pos, moves, None, 0)
        result = DescribedSearchResult(order[0], 0, 0, 0)
        for depth in range(1, max_depth + 1):
            self.root_depth = depth
            try:
                score, best, scores = self._root(pos, order, depth, result)
            except SearchStopped:
                break
            order = sorted(order, key=lambda m: -scores.get(m, -WIN - 1))
            result = DescribedSearchResult(
                best, score, depth, self.nodes, self._pv(pos, best, depth), scores
            )
            if abs(score) >= MATE_BAND:
                break  # a forced end: deeper looks cannot change it
        result.nodes = self.nodes
        return result

    def _root(
        self, pos: DescribedPosition, order: list[Move], depth: int, last: DescribedSearchResult
    ) -> tuple[int, Move, dict[Move, int]]:
        rulebook = self.rulebook
        me = rulebook.player(pos)
        alpha, beta = -WIN - 1, WIN + 1
        best = order[0]
        scores: dict[Move, int] = {}
        for i, move in enumerate(order):
            saved = rulebook.make(pos, move)
            try:
                same = rulebook.player(pos) == me
                if i == 0:
                    value = self.child(pos, depth - 1, alpha, beta, 1, same)
                else:
                    value = self.child(pos, depth - 1, alpha, alpha + 1, 1, same)
                    if value > alpha:
                        value = self.child(pos, depth - 1, alpha, beta, 1, same)
            except SearchStopped:
                if i > 0 and best != last.move and alpha > last.score - UNIT // 2:
                    # a move beat the last iteration's choice by a full search: keep it
                    last.move, last.score = best, alpha
                    last.pv = [best]
                raise
            finally:
                rulebook.unmake(pos, saved)
            scores[move] = value
            if value > alpha:
                alpha, best = value, move
        self.table[hash(rulebook.key(pos))] = (depth, EXACT, alpha, best)
        return alpha, best, scores

    def child(
        self, pos: DescribedPosition, depth: int, alpha: int, beta: int, ply: int, same: bool
    ) -> int:
        """The value, to the player who just moved, of the position after their move."""
        if same:
            return self._node(pos, depth, alpha, beta, ply)
        return -self._node(pos, depth, -beta, -alpha, ply)

    def _pv(self, pos: DescribedPosition, first: Move, depth: int) -> list[Move]:
        """The expected line: the first move, then the table's best moves while legal."""
        rulebook = self.rulebook
        line = [first]
        work = pos.copy()
        rulebook.make(work, first)
        seen = {hash(rulebook.key(work))}
        for _ in range(depth + 4):
            entry = self.table.get(hash(rulebook.key(work)))
            if entry is None or entry[3] is None:
                break
            move = entry[3]
            moves = rulebook.legal(work)
            if move not in moves or rulebook.outcome(work, moves) is not None:
                break
            line.append(move)
            rulebook.make(work, move)
            h = hash(rulebook.key(work))
            if h in seen:
                break
            seen.add(h)
        return line

    # -- the tree ---------------------------------------------------------------------------

    def _ended(self, pos: DescribedPosition, outcome: str, ply: int) -> int:
        """The score of a finished game for the side to move."""
        rulebook = self.rulebook
        if outcome == "draw":  # a little worse than nothing for the searching side
            return -CONTEMPT if rulebook.player(pos) == self.root_player else CONTEMPT
        if outcome == "count":
            counts = rulebook.counts(pos)
            me = rulebook.player(pos)
            diff = counts[me] - counts[1 - me]
            if diff == 0:
                return 0
            return COUNT_WIN + diff if diff > 0 else -COUNT_WIN + diff
        lost = (outcome == "win") == (rulebook.last_mover(pos) != rulebook.player(pos))
        return -WIN + ply if lost else WIN - ply

    def _node(self, pos: DescribedPosition, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        rulebook = self.rulebook
        checked = self.royal and rulebook.in_check(pos)
        if checked and ply < 2 * self.root_depth + 8:
            depth += 1
        key = hash(rulebook.key(pos))
        seen = pos.history
        if self.repeats and len(seen) > 4 and seen.index(seen[-1]) < len(seen) - 1:
            return self._ended(pos, repeat_outcome(rulebook, pos), ply)  # a repeat
        entry = self.table.get(key)
        if depth <= 0:  # the captures played out; the answer kept as a depth-0 entry
            if entry is not None:
                found = self._probe(entry, 0, alpha, beta, ply)
                if found is not None:
                    return found
            value = self._qnode(pos, alpha, beta, ply, 0, checked)
            if entry is None:
                self._store(key, 0, value, alpha, beta, None, ply)
            return value
        # A position kept searched (not ended then) has not ended now unless a count has run
        # out since: its score settles the window before the moves are made.
        early = (
            entry is not None
            and self.probe_first
            and not (self.quiet_limit and pos.quiet >= self.quiet_limit)
        )
        if entry is not None and early:
            found = self._probe(entry, depth, alpha, beta, ply)
            if found is not None:
                return found
        moves = rulebook.legal(pos)
        # A repeat was scored above, at its first return (the rule's count would come later).
        outcome = rulebook.outcome(pos, moves, repetition=not self.repeats)
        if outcome is not None:
            return self._ended(pos, outcome, ply)
        first: Move | None = None
        if entry is not None:
            first = entry[3]
            found = None if early else self._probe(entry, depth, alpha, beta, ply)
            if found is not None:
                return found
        ordered = self._order(pos, moves, first, ply)
        me = rulebook.player(pos)
        start_alpha = alpha
        best_value = -WIN - 1
        best_move = ordered[0]
        quiet_from = self._quiet_from
        for i, move in enumerate(ordered):
            saved = rulebook.make(pos, move)
            try:
                same = rulebook.player(pos) == me
                if i == 0:
                    value = self.child(pos, depth - 1, alpha, beta, ply + 1, same)
                else:
                    reduce = 1 if depth >= 3 and i >= quiet_from + 2 and not checked else 0
                    value = self.child(pos, depth - 1 - reduce, alpha, alpha + 1, ply + 1, same)
                    if value > alpha and reduce:
                        value = self.child(pos, depth - 1, alpha, alpha + 1, ply + 1, same)
                    if alpha < value < beta:
                        value = self.child(pos, depth - 1, alpha, beta, ply + 1, same)
            finally:
                rulebook.unmake(pos, saved)
            if value > best_value:
                best_value, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if i >= quiet_from:  # a quiet move that cuts: remember it
                            killers = self.killers[ply] if ply < 128 else []
                            if move not in killers:
                                killers.insert(0, move)
                                del killers[2:]
                            h = move[0]
                            self.history[h] = self.history.get(h, 0) + depth * depth
                        break
        self._store(key, depth, best_value, start_alpha, beta, best_move, ply)
        return best_value

    def _probe(
        self, entry: tuple[int, int, int, Move | None], depth: int, alpha: int, beta: int, ply: int
    ) -> int | None:
        """The table's score when it was found at least ``depth`` deep and its bound settles
        the window; else None."""
        e_depth, flag, score, _move = entry
        if e_depth < depth:
            return None
        if score >= MATE_BAND:
            score -= ply
        elif score <= -MATE_BAND:
            score += ply
        if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
            return score
        return None

    def _store(
        self, key: int, depth: int, value: int, alpha: int, beta: int, move: Move | None, ply: int
    ) -> None:
        """Keep ``value`` (found with the window ``alpha``, ``beta``) for the position."""
        flag = LOWER if value >= beta else (EXACT if value > alpha else UPPER)
        if value >= MATE_BAND:
            value += ply
        elif value <= -MATE_BAND:
            value -= ply
        if len(self.table) >= TABLE_SIZE:
            self.table.clear()
        self.table[key] = (depth, flag, value, move)

    def _quiesce(
        self,
        pos: DescribedPosition,
        moves: list[Move],
        checked: bool,
        alpha: int,
        beta: int,
        ply: int,
        qply: int,
        pseudo: bool = False,
    ) -> int:
        """Captures and promotions until quiet. ``moves``: the legal moves here, or with
        ``pseudo`` the moves before the royal pieces' safety is checked (a player not in
        check: only the captures are checked, the rest are not played)."""
        b = pos.board
        promotes, zone = self._promotes, self.promotion_squares
        loud = [m for m in moves if m[1] or (m[0] and m[0][-1] in zone and promotes(b, m))]
        forced = bool(loud) and len(loud) == len(moves)
        if pseudo and loud:
            loud = self.rulebook.legal_of(pos, loud)
        if checked and qply < 4:
            loud = moves  # every way out of check (the caller found them all)
            best = -WIN + ply
        elif forced and loud:
            best = -WIN - 1
        else:
            best = self.judge.evaluate(pos, moves, self.root_player)
            if self.quiet_limit:  # a lead is worth less as the no-progress draw comes near
                span = 2 * self.quiet_limit
                best = best * (span - min(pos.quiet, self.quiet_limit)) // span
            if best >= beta or not loud or qply >= QUIESCENCE_PLIES:
                return best
            alpha = max(alpha, best)
        rulebook = self.rulebook
        me = rulebook.player(pos)
        for move in self._order(pos, loud, None, -1):
            saved = rulebook.make(pos, move)
            try:
                self.tick()
                if rulebook.player(pos) == me:
                    value = self._qnode(pos, alpha, beta, ply + 1, qply + 1)
                else:
                    value = -self._qnode(pos, -beta, -alpha, ply + 1, qply + 1)
            finally:
                rulebook.unmake(pos, saved)
            if value > best:
                best = value
                if best >= beta:
                    break
                alpha = max(alpha, best)
        return best

    def _qnode(
        self,
        pos: DescribedPosition,
        alpha: int,
        beta: int,
        ply: int,
        qply: int,
        checked: bool | None = None,
    ) -> int:
        """A position inside the quiescence search, for the side to move (``checked``:
        whether it is in check, when known)."""
        rulebook = self.rulebook
        if not self.royal:
            moves = rulebook.legal(pos)
            outcome = rulebook.outcome(pos, moves)
            if outcome is not None:
                return self._ended(pos, outcome, ply)
            return self._quiesce(pos, moves, False, alpha, beta, ply, qply)
        if checked is None:
            checked = rulebook.in_check(pos)
        moves = rulebook.legal(pos) if checked else rulebook.pseudo(pos)
        outcome = rulebook.outcome(pos, moves)
        if outcome is not None and not checked:
            moves = rulebook.legal(pos)  # a move left unchecked may have hidden the end's kind
            outcome = rulebook.outcome(pos, moves)
            checked = True  # every move is legal now: no more checking
        if outcome is not None:
            return self._ended(pos, outcome, ply)
        return self._quiesce(pos, moves, checked, alpha, beta, ply, qply, pseudo=not checked)

    # -- ordering ---------------------------------------------------------------------------

    def _promotes(self, b: list[int], move: Move) -> bool:
        """Whether ``move`` changes its piece's type (a pawn's promotion, a man crowned)."""
        path = move[0]
        if len(path) < 2 or self.kind_of[b[path[0]]] not in self.promoters:
            return False
        final = move[2][-1][1]
        return bool(final) and self.kind_of[final] != self.kind_of[b[path[0]]]

    def _order(
        self, pos: DescribedPosition, moves: list[Move], first: Move | None, ply: int
    ) -> list[Move]:
        """``first``, then captures and promotions by gain, then killers, then quiet moves by
        history and by what the piece-square table says of the move; sets ``_quiet_from`` to
        the index of the first move of the last two kinds."""
        b = pos.board
        worth = self.worth
        loud: list[tuple[int, int, Move]] = []
        quiet: list[tuple[int, int, int, Move]] = []
        killers = self.killers[ply] if 0 <= ply < 128 else []
        history = self.history
        table = None if self.counters else self.judge.mg
        sign = 1 if self.rulebook.player(pos) == 0 else -1
        head: list[Move] = []
        for i, move in enumerate(moves):
            if move == first:
                head.append(move)
                continue
            path, caps, effects, _pid = move
            if caps or self._promotes(b, move):
                gain = sum(worth[b[x]] for x in caps) * 16
                if path and len(path) > 1:
                    moving = b[path[0]]
                    gain -= worth[moving]
                    final = effects[-1][1] if effects else moving
                    gain += 16 * (worth[final] - worth[moving]) if final != moving else 0
                loud.append((-gain, i, move))
            elif move in killers:
                quiet.append((-(1 << 30) + killers.index(move), 0, i, move))
            else:
                place = 0
                if table is not None and path and effects:
                    place = table[path[-1]][effects[-1][1]]
                    if len(path) > 1:
                        place -= table[path[0]][b[path[0]]]
                    place *= sign
                quiet.append((-history.get(path, 0), -place, i, move))
        loud.sort()
        quiet.sort()
        ordered = head + [m for _, _, m in loud]
        self._quiet_from = len(ordered)
        ordered.extend(m for _, _, _, m in quiet)
        return ordered

    _quiet_from = 0
