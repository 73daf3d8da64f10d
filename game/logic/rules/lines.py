"""The levels' play in a game won by a line of k stones (gomoku, tic-tac-toe): threats first,
then the points that build the most lines, always next to the stones already down.

Every stretch of k positions in a straight line (a *window*) that holds no enemy stone is a
line its player may still complete; a window with more of a player's stones is worth more
(:data:`WINDOW_WORTH`). A point's worth to a player is the sum over the open windows through
it of what one more stone there adds. The choice, in order:

1. a point that completes a line wins;
2. the opponent has a point that completes a line: take it (block the four);
3. a point after which we have two points that complete a line (an open four, or two fours)
   wins next move unless the opponent wins first;
4. the opponent has such a point (an open three, or a three and a four to be): take the
   best of them for us (block the three);
5. otherwise the best point by attack plus defence, looked at two plies deep among the best
   few: our stone, then the opponent's best answer.

Only points within two steps of a stone are considered (the centre on an empty board): a
stone far from the others joins no line that matters. Nothing here is random: the same
position always gets the same point and the same reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from game.logic.rules.engine import Engine, Move, Position
from game.logic.rules.sexpr import Form

__all__ = ["Lines", "LinesChoice", "line_length"]

#: What an open window holding n of a player's stones is worth to them (n = 0 .. k).
WINDOW_WORTH: Final = (0, 1, 12, 150, 2_000, 100_000, 100_000)
#: The best candidates the two-ply look compares.
LOOK_WIDTH: Final = 8
#: How much a point's worth to the opponent (defence) counts beside its worth to us.
DEFENCE: Final = 0.9


@dataclass
class LinesChoice:
    move: Move
    reason: str
    worth: float


def line_length(engine: Engine) -> int | None:
    """k when the game is won by ``(line k)`` and every move places one stone; else None."""
    design = engine.design
    k = None
    for end in design.ends:
        cond = end.condition
        if end.outcome == "win" and isinstance(cond, Form) and cond.head == "line":
            k = int(cond.args[0].value)  # type: ignore[union-attr]
    if k is None or design.counters:
        return None
    if any(p.programs and not all(g.drop for g in p.programs) for p in design.pieces):
        return None
    return k


class Lines:
    """The alignment play of one engine's game (see the module docstring)."""

    def __init__(self, engine: Engine, k: int) -> None:
        self.engine = engine
        self.k = k
        board = engine.design.board
        n = engine.n
        links = board.links
        self.names = board.names
        # One direction of each opposite pair: the axes lines run along.
        axes: list[int] = []
        for d, back in enumerate(engine.opposite):
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
            range(n), key=lambda p: (board.xy[p][0] - cx) ** 2 + (board.xy[p][1] - cy) ** 2
        )
        self.worth = WINDOW_WORTH[: k + 1] + (WINDOW_WORTH[-1],) * max(0, k + 1 - len(WINDOW_WORTH))

    # -- the choice ---------------------------------------------------------------------------

    def choose(self, pos: Position, moves: list[Move]) -> LinesChoice:
        engine = self.engine
        b = pos.board
        me = engine.player(pos)
        owner = engine.c.owner
        them = 1 - me
        by_point = {m[0][0]: m for m in moves if len(m[0]) == 1}
        if not by_point:
            return LinesChoice(moves[0], "the only kind of move", 0.0)
        stones = [p for p, v in enumerate(b) if v]
        if not stones:
            point = self.centre if self.centre in by_point else min(by_point)
            return LinesChoice(by_point[point], "the centre: every line starts there", 0.0)
        mine_of = [-1 if not v else (0 if owner[v] == me else 1) for v in b]
        candidates = sorted({q for p in stones for q in self.near[p] if q in by_point})
        if not candidates:
            candidates = sorted(by_point)
        name = self.names
        player_name = engine.design.players
        wins = [p for p in candidates if self._completes(mine_of, p, 0)]
        if wins:
            return LinesChoice(by_point[wins[0]], f"wins: {self.k} in a row", float("inf"))
        losses = [p for p in candidates if self._completes(mine_of, p, 1)]
        if losses:
            p = max(losses, key=lambda q: (self._gain(mine_of, q, 0), -q))
            more = " (it has another: the game is lost)" if len(losses) > 1 else ""
            return LinesChoice(
                by_point[p],
                f"blocks {player_name[them]}'s {self.k - 1} at {name[p]}{more}",
                -1.0,
            )
        doubles = [p for p in candidates if self._threats_after(mine_of, p, 0) >= 2]
        if doubles:
            p = max(doubles, key=lambda q: (self._gain(mine_of, q, 0), -q))
            return LinesChoice(by_point[p], f"makes two threats of {self.k}: wins next move", 1e9)
        # Fours of ours that force a block come before the opponent's threes only when they
        # win; otherwise the opponent's double threats are blocked first.
        their_doubles = [p for p in candidates if self._threats_after(mine_of, p, 1) >= 2]
        if their_doubles:
            p = max(
                their_doubles,
                key=lambda q: (self._gain(mine_of, q, 0) + self._gain(mine_of, q, 1), -q),
            )
            return LinesChoice(
                by_point[p],
                f"blocks {player_name[them]}'s open {self.k - 2} at {name[p]}",
                0.0,
            )
        scored = sorted(
            candidates,
            key=lambda q: (-(self._gain(mine_of, q, 0) + DEFENCE * self._gain(mine_of, q, 1)), q),
        )
        best, best_value = scored[0], -float("inf")
        for p in scored[:LOOK_WIDTH]:
            value = self._look(mine_of, p, candidates)
            if value > best_value:
                best, best_value = p, value
        attack, defence = self._gain(mine_of, best, 0), self._gain(mine_of, best, 1)
        longest = self._longest(mine_of, best, 0)
        if defence > attack:
            reason = (
                f"builds a line and cuts {player_name[them]}'s (longest of ours there: {longest})"
            )
        else:
            reason = f"builds the most lines: {longest} in a row there"
        return LinesChoice(by_point[best], reason, best_value)

    # -- what a point is worth -------------------------------------------------------------------

    def _completes(self, mine_of: list[int], p: int, who: int) -> bool:
        need = self.k - 1
        for w in self.at[p]:
            count = 0
            for q in self.windows[w]:
                s = mine_of[q]
                if s == who:
                    count += 1
                elif s >= 0:
                    count = -1
                    break
            if count == need:
                return True
        return False

    def _threats_after(self, mine_of: list[int], p: int, who: int) -> int:
        """Points that would complete a line for ``who`` once ``who`` holds ``p``."""
        mine_of[p] = who
        try:
            found: set[int] = set()
            for w in self.at[p]:
                empty = -1
                count = 0
                for q in self.windows[w]:
                    s = mine_of[q]
                    if s == who:
                        count += 1
                    elif s < 0:
                        empty = q
                    else:
                        count = -1
                        break
                if count == self.k - 1 and empty >= 0:
                    found.add(empty)
            return len(found)
        finally:
            mine_of[p] = -1

    def _gain(self, mine_of: list[int], p: int, who: int) -> float:
        """What a stone of ``who`` on ``p`` adds to their open windows."""
        worth = self.worth
        total = 0
        for w in self.at[p]:
            count = 0
            for q in self.windows[w]:
                s = mine_of[q]
                if s == who:
                    count += 1
                elif s >= 0:
                    count = -1
                    break
            if count >= 0:
                total += worth[count + 1] - worth[count]
        return float(total)

    def _longest(self, mine_of: list[int], p: int, who: int) -> int:
        """The most stones of ``who`` in one open window through ``p``, counting ``p``."""
        best = 1
        for w in self.at[p]:
            cells = self.windows[w]
            if any(mine_of[q] not in (-1, who) for q in cells):
                continue
            best = max(best, 1 + sum(1 for q in cells if mine_of[q] == who))
        return best

    def _look(self, mine_of: list[int], p: int, candidates: list[int]) -> float:
        """Our stone on ``p``, then the opponent's best answer: what is left for us."""
        gain = self._gain(mine_of, p, 0)
        mine_of[p] = 0
        try:
            answers = [q for q in candidates if q != p and mine_of[q] < 0]
            answers.extend(q for q in self.near[p] if mine_of[q] < 0 and q not in candidates)
            if any(self._completes(mine_of, q, 1) for q in answers):
                return -1e6  # the opponent wins at once
            reply = max(
                (self._gain(mine_of, q, 1) + DEFENCE * self._gain(mine_of, q, 0) for q in answers),
                default=0.0,
            )
        finally:
            mine_of[p] = -1
        return gain + DEFENCE * self._gain(mine_of, p, 1) - 0.5 * reply
