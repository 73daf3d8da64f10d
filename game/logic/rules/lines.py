"""The levels' play in a game won by a line of k stones (gomoku, tic-tac-toe): threats first,
then a search among the points next to the stones.

Every stretch of k positions in a straight line (a *window*) that holds no enemy stone is a
line its player may still complete; a window with more of a player's stones is worth more
(:data:`WINDOW_WORTH`). A point's worth to a player is what one more stone there adds to the
open windows through it. The choice, in order:

1. a point that completes a line wins;
2. the opponent has a point that completes a line: take it (block the four);
3. a point after which we have two points that complete a line (an open four, or two fours)
   wins next move unless the opponent wins first;
4. the opponent has such a point (an open three, or a three and a four to be): take the
   best of them for us (block the three; on a board of 16 empty points or fewer the search
   below decides, looking to the end);
5. otherwise alpha-beta among the best few points by attack plus defence, deeper each
   round while the budget lasts: a player who can complete a line wins, one who faces two
   completing points loses, one who faces one must take it; the leaves count the windows
   each side still holds.

Window counts and the set of windows one stone from complete are kept up to date as stones
are placed and taken back. Only points within two steps of a stone are looked at (the centre
on an empty board). Nothing here is random: the same position and budget always give the
same point and the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.logic.contract import Stop
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook
from game.logic.rules.sexpr import Form
from game.logic.search.budget import Budget

__all__ = ["Lines", "LinesChoice", "LinesStopped", "line_length"]

#: What an open window holding n of a player's stones is worth to them (n = 0 .. k).
WINDOW_WORTH: Final = (0, 1, 12, 150, 2_000, 30_000)
#: The points each node of the search compares, at most.
WIDTH: Final = 9
#: How much a point's worth to the opponent (defence) counts beside its worth to us.
DEFENCE: Final = 0.9
WIN: Final = 10_000_000
#: Empty points up to which the search alone decides (it looks to the end there).
SMALL_BOARD: Final = 16


class LinesStopped(Exception):
    """The stop flag was set while the search ran."""


class _OutOfBudget(Exception):
    pass


@dataclass
class LinesChoice:
    move: Move
    reason: str
    depth: int = 0
    nodes: int = 0


def line_length(rulebook: Rulebook) -> int | None:
    """k when the game is won by ``(line k)`` and every move places one stone; else None."""
    design = rulebook.design
    k = None
    for end in design.ends:
        cond = end.condition
        if end.outcome == "win" and isinstance(cond, Form) and cond.head == "line":
            k = int(cond.args[0].value)  # type: ignore[union-attr]
    if k is None or design.counters or rulebook.players != 2:
        return None
    if any(p.programs and not all(g.drop for g in p.programs) for p in design.pieces):
        return None
    return k


class Lines:
    """The alignment play of one rulebook's game (see the module docstring)."""

    def __init__(self, rulebook: Rulebook, k: int) -> None:
        self.rulebook = rulebook
        self.k = k
        board = rulebook.design.board
        n = rulebook.n
        links = board.links
        self.names = board.names
        axes: list[int] = []  # one direction of each opposite pair: where lines run
        for d, back in enumerate(rulebook.opposite):
            if back >= 0 and back not in axes and d not in axes:
                axes.append(d)
        windows: list[tuple[int, ...]] = []
        for p in range(n):
            for d in axes:
                cells = [p]
                q = p
                for _ in range(k - 1):
                    q = links[d][q]
                    if q < 0:
                        break
                    cells.append(q)
                if len(cells) == k:
                    windows.append(tuple(cells))
        self.windows = windows
        self.at: list[list[int]] = [[] for _ in range(n)]
        for i, window in enumerate(windows):
            for p in window:
                self.at[p].append(i)
        # Two steps in any direction: where a new stone may matter.
        self.near: list[frozenset[int]] = []
        for p in range(n):
            one = {links[d][p] for d in range(len(links)) if links[d][p] >= 0}
            two = {links[d][q] for q in one for d in range(len(links)) if links[d][q] >= 0}
            self.near.append(frozenset((one | two) - {p}))
        xs = [x for x, _ in board.xy]
        ys = [y for _, y in board.xy]
        cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        self.centre = min(
            range(n), key=lambda p: ((board.xy[p][0] - cx) ** 2 + (board.xy[p][1] - cy) ** 2, p)
        )
        worth = list(WINDOW_WORTH[: k + 1])
        while len(worth) < k + 1:
            worth.append(worth[-1] * 10)
        self.worth = worth

    # -- the choice ---------------------------------------------------------------------------

    def choose(
        self,
        pos: DescribedPosition,
        moves: list[Move],
        *,
        depth: int,
        nodes: int | None,
        deadline: float | None,
        stop: Stop | None,
    ) -> LinesChoice:
        rulebook = self.rulebook
        me = rulebook.player(pos)
        owner = rulebook.c.owner
        them = 1 - me
        by_point = {m[0][0]: m for m in moves if len(m[0]) == 1}
        if not by_point:
            return LinesChoice(moves[0], "the only kind of move")
        stones = [p for p, v in enumerate(pos.board) if v]
        if not stones:
            point = self.centre if self.centre in by_point else min(by_point)
            return LinesChoice(by_point[point], "the centre: every line starts there")
        # Seats from the mover's side: 0 is us, 1 the opponent.
        state = _Counts(self, [-1 if not v else (0 if owner[v] == me else 1) for v in pos.board])
        candidates = state.candidates(by_point)
        name = self.names
        seat = rulebook.design.players
        wins = sorted(state.completing(0) & by_point.keys())
        if wins:
            return LinesChoice(by_point[wins[0]], f"wins: {self.k} in a row")
        losses = sorted(state.completing(1) & by_point.keys())
        if losses:
            p = max(losses, key=lambda q: (state.gain(q, 0), -q))
            more = "; there is another: the game is lost" if len(losses) > 1 else ""
            return LinesChoice(
                by_point[p], f"blocks {seat[them]}'s {self.k - 1} at {name[p]}{more}"
            )
        doubles = [p for p in candidates if state.threats_after(p, 0) >= 2]
        if doubles:
            p = max(doubles, key=lambda q: (state.gain(q, 0), -q))
            return LinesChoice(by_point[p], f"makes two threats of {self.k}: wins next move")
        empty = sum(1 for s in state.seats if s < 0)
        theirs = [p for p in candidates if state.threats_after(p, 1) >= 2]
        if theirs and empty > SMALL_BOARD:  # on a small board the search sees it exactly
            p = max(theirs, key=lambda q: (state.gain(q, 0) + state.gain(q, 1), -q))
            return LinesChoice(by_point[p], f"blocks {seat[them]}'s open {self.k - 2} at {name[p]}")
        search = _Search(self, state, nodes, deadline, stop)
        point, value, reached = search.run(candidates, depth)
        attack, defence = state.gain(point, 0), state.gain(point, 1)
        longest = state.longest(point, 0)
        if value >= WIN // 2:
            reason = "wins by force: every answer leaves a line to complete"
        elif value <= -WIN // 2:
            reason = f"every point loses to {seat[them]}'s threats; this one holds out longest"
        elif defence > attack:
            reason = f"builds a line of {longest} and cuts {seat[them]}'s best"
        else:
            reason = f"builds the most lines: {longest} in a row there"
        reason += f"; a {reached}-ply look at {search.nodes:,} positions"
        return LinesChoice(by_point[point], reason, reached, search.nodes)


class _Counts:
    """Stones per window for each side, kept up to date, and the windows one stone short."""

    def __init__(self, lines: Lines, seats: list[int]) -> None:
        self.lines = lines
        self.seats = seats
        windows = lines.windows
        self.count = [[0] * len(windows), [0] * len(windows)]
        self.short: list[set[int]] = [set(), set()]  # windows one stone from complete
        k = lines.k
        for w, cells in enumerate(windows):
            for q in cells:
                if seats[q] >= 0:
                    self.count[seats[q]][w] += 1
            for who in (0, 1):
                if self.count[who][w] == k - 1 and self.count[1 - who][w] == 0:
                    self.short[who].add(w)

    def place(self, p: int, who: int) -> None:
        self.seats[p] = who
        for w in self.lines.at[p]:
            self.count[who][w] += 1
        self._recheck(p)

    def take(self, p: int, who: int) -> None:
        self.seats[p] = -1
        for w in self.lines.at[p]:
            self.count[who][w] -= 1
        self._recheck(p)

    def _recheck(self, p: int) -> None:
        """Whether each window through ``p`` is one stone short, for either side."""
        need = self.lines.k - 1
        first, second = self.count
        short_first, short_second = self.short
        for w in self.lines.at[p]:
            a, b = first[w], second[w]
            if a == need and b == 0:
                short_first.add(w)
            else:
                short_first.discard(w)
            if b == need and a == 0:
                short_second.add(w)
            else:
                short_second.discard(w)

    def completing(self, who: int) -> set[int]:
        """The empty points that would complete a line for ``who``."""
        seats = self.seats
        windows = self.lines.windows
        out = set()
        for w in self.short[who]:
            for q in windows[w]:
                if seats[q] < 0:
                    out.add(q)
        return out

    def gain(self, p: int, who: int) -> float:
        """What a stone of ``who`` on ``p`` adds to their open windows."""
        worth = self.lines.worth
        mine, theirs = self.count[who], self.count[1 - who]
        total = 0
        for w in self.lines.at[p]:
            if theirs[w] == 0:
                c = mine[w]
                total += worth[c + 1] - worth[c]
        return float(total)

    def value(self, who: int) -> float:
        """The open windows of ``who`` less the opponent's."""
        worth = self.lines.worth
        mine, theirs = self.count[who], self.count[1 - who]
        total = 0
        for w in range(len(mine)):
            if theirs[w] == 0:
                total += worth[mine[w]]
            elif mine[w] == 0:
                total -= worth[theirs[w]]
        return float(total)

    def threats_after(self, p: int, who: int) -> int:
        """Points that would complete a line for ``who`` once ``who`` holds ``p``."""
        self.place(p, who)
        try:
            return len(self.completing(who))
        finally:
            self.take(p, who)

    def longest(self, p: int, who: int) -> int:
        """The most stones of ``who`` in one open window through ``p``, counting ``p``."""
        mine, theirs = self.count[who], self.count[1 - who]
        return 1 + max((mine[w] for w in self.lines.at[p] if theirs[w] == 0), default=0)

    def candidates(self, allowed: dict[int, Move] | set[int] | frozenset[int]) -> list[int]:
        near = self.lines.near
        seats = self.seats
        found = {q for p, s in enumerate(seats) if s >= 0 for q in near[p] if seats[q] < 0}
        out = sorted(q for q in found if q in allowed)
        return out or sorted(q for q in allowed if seats[q] < 0)


class _Search(Budget):
    """Alpha-beta over the best few points (see the module docstring, step 5)."""

    SPENT = _OutOfBudget
    STOPPED = LinesStopped
    CHECK_MASK = 31

    def __init__(
        self,
        lines: Lines,
        state: _Counts,
        nodes: int | None,
        deadline: float | None,
        stop: Stop | None,
    ) -> None:
        super().__init__(nodes, deadline, stop)
        self.lines = lines
        self.state = state

    def run(self, candidates: list[int], max_depth: int) -> tuple[int, float, int]:
        order = self._ranked(candidates, 0)
        best, value, reached = order[0], 0.0, 0
        empties = sum(1 for s in self.state.seats if s < 0)
        for depth in range(1, min(max_depth, empties) + 1):
            try:
                found, score = self._root(order, depth)
            except _OutOfBudget:
                break
            best, value, reached = found, score, depth
            order.remove(found)
            order.insert(0, found)
            if abs(score) >= WIN // 2:
                break
        return best, value, reached

    def _ranked(self, points: list[int], who: int) -> list[int]:
        state = self.state
        return sorted(
            points, key=lambda q: (-(state.gain(q, who) + DEFENCE * state.gain(q, 1 - who)), q)
        )

    def _root(self, order: list[int], depth: int) -> tuple[int, float]:
        alpha, best = -float("inf"), order[0]
        for p in order[:WIDTH]:
            value = -self._node(p, 0, depth - 1, -float("inf"), -alpha, 1)
            if value > alpha:
                alpha, best = value, p
        return best, alpha

    def _node(self, placed: int, by: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value for the side to move (``1 - by``) after ``by`` placed a stone."""
        self.tick()
        state = self.state
        state.place(placed, by)
        try:
            who = 1 - by
            if state.short[who]:
                return WIN - ply  # completes a line now
            facing = state.completing(by)
            if len(facing) >= 2:
                return -(WIN - ply - 1)  # blocks one, the other completes
            empties = [q for q, s in enumerate(state.seats) if s < 0]
            if not empties:
                return 0.0
            if facing:
                moves = sorted(facing)  # forced: the only point that does not lose at once
            elif depth <= 0:
                return state.value(who) + 0.25 * max(
                    (state.gain(q, who) for q in self._near_points(placed)), default=0.0
                )
            else:
                moves = self._ranked(state.candidates(set(empties)), who)[:WIDTH]
            best = -float("inf")
            for q in moves:
                value = -self._node(q, who, depth - 1, -beta, -max(alpha, best), ply + 1)
                if value > best:
                    best = value
                    if best >= beta:
                        break
            return best
        finally:
            state.take(placed, by)

    def _near_points(self, p: int) -> list[int]:
        seats = self.state.seats
        return [q for q in self.lines.near[p] if seats[q] < 0]
