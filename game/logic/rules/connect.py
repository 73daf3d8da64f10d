"""The levels' play in a game won by joining two zones with a chain of one's stones (Hex):
Monte Carlo tree search whose simulated games fill the board at random.

In such a game every move places a stone on an empty position and a full board has exactly
one player joined (in Hex, whoever joined first: the other can never join), so a simulated
game is one shuffle of the empty positions, handed out in turn, and one search for a chain:
hundreds of times faster than playing the rules move by move. The tree chooses by UCT
blended with RAVE (a move's value first read from every simulated game in which its player
took that position, then more and more from its own), which in a filled board is the same
question asked of every game.

Where the game's compiled back end is built and has the fill kernels
(:mod:`~game.logic.rules.compiled.fill_search`), the same search runs there, its tree in
arrays and its games played by a union-find, many games a call; else (and while the back end
is still being compiled) in Python here.

Before searching it looks for a position that joins the player's zones now (a win) and one
that would join the opponent's next move (to block); otherwise the hint says what share of
the simulated games after the chosen move it won. The random generator is seeded by the
position, so a search bounded by games always gives the same move for the same position.
"""

from __future__ import annotations

import math
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from game.logic.contract import Stop
from game.logic.rules.compiled.build import available
from game.logic.rules.compiled.fill_search import FillSearch
from game.logic.rules.rulebook import DescribedPosition, Move, Rulebook
from game.logic.rules.sexpr import Form

__all__ = [
    "Connection",
    "ConnectionChoice",
    "TreeNode",
    "connection_zones",
    "most_tried",
    "rave_select",
    "run_games",
]

#: UCT's exploration constant and the games at which a move's own results and RAVE's weigh
#: the same.
EXPLORATION: Final = 0.1
RAVE_EQUIVALENCE: Final = 1000.0
#: What a move never tried adds to its score (0: its RAVE value alone ranks it).
FIRST_TRY: Final = 0.0


@dataclass
class ConnectionChoice:
    move: Move
    reason: str
    games: int
    rate: float


def connection_zones(rulebook: Rulebook) -> tuple[str, str] | None:
    """(first zone, second zone) when the game's only end is ``(win (connects A B))`` and every
    move places one stone; else None."""
    design = rulebook.design
    if design.counters or len(design.ends) != 1 or rulebook.players != 2:
        return None
    end = design.ends[0]
    cond = end.condition
    if end.outcome != "win" or not isinstance(cond, Form) or cond.head != "connects":
        return None
    if any(not g.drop for p in design.pieces for g in p.programs):
        return None
    return str(cond.args[0].value), str(cond.args[1].value)  # type: ignore[union-attr]


class TreeNode:
    """A position of the tree: its moves (the empty positions; in Go also -1, a pass) and,
    per move, the games through it and their wins, the same for RAVE, and the child node
    once grown."""

    __slots__ = ("amaf_visits", "amaf_wins", "cells", "children", "total", "visits", "wins")

    def __init__(self, cells: npt.NDArray[np.int64]) -> None:
        self.cells = cells
        k = len(cells)
        self.children: list[TreeNode | None] = [None] * k
        self.visits = np.zeros(k)
        self.wins = np.zeros(k)
        self.amaf_visits = np.zeros(k)
        self.amaf_wins = np.zeros(k)
        self.total = 0


class Connection:
    """The connection play of one rulebook's game (see the module docstring)."""

    def __init__(
        self,
        rulebook: Rulebook,
        zones: tuple[str, str],
        *,
        exploration: float = EXPLORATION,
        first_try: float = FIRST_TRY,
        rave_equivalence: float = RAVE_EQUIVALENCE,
    ) -> None:
        self.rulebook = rulebook
        self.exploration = exploration
        self.first_try = first_try
        self.rave_equivalence = rave_equivalence
        board = rulebook.design.board
        n = rulebook.n
        self.n = n
        self.neighbours = [tuple(row[p] for row in board.links if row[p] >= 0) for p in range(n)]
        self.first = [board.zones[zones[0]][w] for w in range(2)]
        self.second = [board.zones[zones[1]][w] for w in range(2)]
        self.first_sorted = [sorted(part) for part in self.first]
        self.second_mask = [bytes(p in part for p in range(n)) for part in self.second]
        self.names = board.names

    # -- the choice ---------------------------------------------------------------------------

    def choose(
        self,
        pos: DescribedPosition,
        moves: list[Move],
        *,
        games: int | None,
        deadline: float | None,
        stop: Stop | None,
    ) -> ConnectionChoice:
        """The choice among ``moves`` (see the module docstring): at most ``games`` simulated
        games (None: no cap), fewer once ``deadline`` passes; raises
        :class:`~game.logic.contract.ThinkingStopped` once ``stop`` is set."""
        rulebook = self.rulebook
        owner = rulebook.c.owner
        me = rulebook.player(pos)
        players = rulebook.design.players
        by_cell = {m[0][0]: m for m in moves if len(m[0]) == 1}
        stones = [-1 if not v else owner[v] for v in pos.board]
        joins = self._joining(stones, me)
        wins = [p for p in sorted(joins) if p in by_cell]
        if wins:
            return ConnectionChoice(by_cell[wins[0]], "joins the two sides: wins", 0, 1.0)
        threats = [p for p in sorted(self._joining(stones, 1 - me)) if p in by_cell]
        if len(threats) == 1:
            p = threats[0]
            return ConnectionChoice(
                by_cell[p], f"blocks {players[1 - me]}'s chain, one stone from joining", 0, 0.0
            )
        seed = zlib.crc32(repr(rulebook.key(pos)).encode())
        cells = sorted(by_cell)
        root = TreeNode(np.array(cells))
        compiled = self._compiled()
        if compiled is not None:  # the same search, its tree and games in compiled code
            compiled.seed(seed)
            knobs = (self.exploration, self.rave_equivalence, self.first_try)
            board = np.array(pos.board, dtype=np.int64)
            st = np.array([pos.turn, pos.last_from, pos.last_to, -1], dtype=np.int64)
            search = FillSearch(compiled, board, st, cells, knobs)
            played = search.run(games, deadline, stop)
            root.visits, root.wins = search.root()
        else:
            order = np.array(self._players_in_turn(pos, len(by_cell) + 1))
            rng = np.random.default_rng(seed)
            start = np.array(stones)
            played = run_games(
                lambda: self._iterate(root, start, order, rng), games, deadline, stop
            )
        best, visits, rate = most_tried(root)  # the first of them: the lowest position
        lost = "; every move looks lost, this one holds out best" if rate < 0.1 else ""
        reason = (
            f"{self._distances(stones, me, cells[best])}; wins {rate:.0%} of the {visits:,} "
            f"simulated games after it, {played:,} in all{lost}"
        )
        if len(threats) > 1:
            reason = f"{players[1 - me]} has two ways to join: " + reason
        return ConnectionChoice(by_cell[cells[best]], reason, played, rate)

    def _compiled(self) -> Any:
        """The game's compiled module when it has the fill search (None: the Python games,
        also while the module is still being compiled)."""
        rules = available(self.rulebook.design)
        module = None if rules is None else rules.module
        return module if getattr(module, "FILL", False) else None

    def _players_in_turn(self, pos: DescribedPosition, plies: int) -> list[int]:
        rulebook = self.rulebook
        turn = pos.turn
        out = []
        for _ in range(plies):
            out.append(rulebook.design.turn_order[turn])
            turn = rulebook.next_turn(turn)
        return out

    # -- one simulated game ---------------------------------------------------------------------

    def _iterate(
        self,
        root: TreeNode,
        stones: npt.NDArray[np.int64],
        order: npt.NDArray[np.int64],
        numpy_rng: np.random.Generator,
    ) -> None:
        board = stones.copy()
        path: list[tuple[TreeNode, int, int]] = []  # (node, move index, mover)
        node: TreeNode | None = root
        ply = 0
        while node is not None:
            i = self._select(node)
            mover = int(order[ply])
            board[node.cells[i]] = mover
            path.append((node, i, mover))
            ply += 1
            child = node.children[i]
            if child is None:
                if node.visits[i] > 0:  # the second visit grows the tree
                    rest = node.cells[board[node.cells] < 0]
                    if len(rest):
                        node.children[i] = TreeNode(rest)
                break
            node = child
        empties = np.flatnonzero(board < 0)
        if len(empties):
            board[numpy_rng.permutation(empties)] = order[ply : ply + len(empties)]
        winner = self._winner(board.tolist())
        for node_at, i, mover in path:
            won = 1.0 if winner == mover else (0.5 if winner < 0 else 0.0)
            node_at.visits[i] += 1
            node_at.wins[i] += won
            # All moves as first: every move of this node whose position the same player
            # holds at the end of the game.
            held = board[node_at.cells] == mover
            node_at.amaf_visits += held
            if won:
                node_at.amaf_wins += held * won

    def _select(self, node: TreeNode) -> int:
        return rave_select(node, self.exploration, self.rave_equivalence, self.first_try)

    def _winner(self, board: list[int]) -> int:
        """The player whose stones join their two zones (-1: neither)."""
        if self._joined(board, 0):
            return 0
        return 1 if self._joined(board, 1) else -1

    def _joined(self, board: list[int], who: int) -> bool:
        target = self.second_mask[who]
        todo = [p for p in self.first_sorted[who] if board[p] == who]
        seen = bytearray(self.n)
        for p in todo:
            seen[p] = 1
        neighbours = self.neighbours
        while todo:
            p = todo.pop()
            if target[p]:
                return True
            for q in neighbours[p]:
                if not seen[q] and board[q] == who:
                    seen[q] = 1
                    todo.append(q)
        return False

    def _distances(self, board: list[int], me: int, cell: int) -> str:
        """What a stone of ``me`` on ``cell`` does to the race: "Red is 4 stones from joining
        its sides (5 before), Blue 6" (the fewest stones each still needs, by the shortest
        path over its own stones and the empty positions)."""
        players = self.rulebook.design.players
        mine_before = self._needed(board, me)
        after = list(board)
        after[cell] = me
        mine, theirs = self._needed(after, me), self._needed(after, 1 - me)
        theirs_before = self._needed(board, 1 - me)

        def stones(k: int) -> str:
            return "cut off" if k > self.n else f"{k} stone{'s' * (k != 1)} from joining"

        text = f"{players[me]} is {stones(mine)} its sides"
        if mine < mine_before:
            text += f" ({mine_before} before)"
        text += f", {players[1 - me]} {stones(theirs)}"
        if theirs > theirs_before:
            text += f" ({theirs_before} before)"
        return text

    def _needed(self, board: list[int], who: int) -> int:
        """The fewest stones ``who`` must still place to join its zones (more than the
        board's positions when it no longer can): a shortest path where its own stones cost
        nothing, an empty position one and the opponent's block."""
        far = self.n + 1
        cost = [far] * self.n
        todo: deque[int] = deque()
        for p in self.first[who]:
            if board[p] == who:
                cost[p] = 0
                todo.appendleft(p)
            elif board[p] < 0:
                cost[p] = 1
                todo.append(p)
        goal = self.second[who]
        done = [False] * self.n
        while todo:
            p = todo.popleft()
            if done[p]:
                continue
            done[p] = True
            if p in goal:
                return cost[p]
            for q in self.neighbours[p]:
                if board[q] == 1 - who:
                    continue
                step = 0 if board[q] == who else 1
                if cost[p] + step < cost[q]:
                    cost[q] = cost[p] + step
                    if step:
                        todo.append(q)
                    else:
                        todo.appendleft(q)
        return far

    def _joining(self, board: list[int], who: int) -> set[int]:
        """The empty positions where a stone of ``who`` would join their two zones now."""
        first, second = self.first[who], self.second[who]
        neighbours = self.neighbours
        touches_first: set[int] = set()
        touches_second: set[int] = set()
        for start, into in ((first, touches_first), (second, touches_second)):
            todo = [p for p in start if board[p] == who]
            seen = set(todo)
            while todo:
                p = todo.pop()
                into.add(p)
                for q in neighbours[p]:
                    if q not in seen and board[q] == who:
                        seen.add(q)
                        todo.append(q)
        out = set()
        for p in range(self.n):
            if board[p] >= 0:
                continue
            near = neighbours[p]
            a = p in first or any(q in touches_first for q in near)
            z = p in second or any(q in touches_second for q in near)
            if a and z:
                out.add(p)
        return out


def rave_select(
    node: TreeNode, exploration: float, rave_equivalence: float, first_try: float = 0.0
) -> int:
    """The move to follow: UCT on each move's own results blended with RAVE's; a move
    never tried scores its RAVE value (or an even chance) plus the first-try bonus."""
    node.total += 1
    n = node.visits
    tried = np.maximum(n, 1.0)
    k = rave_equivalence
    beta = np.sqrt(k / (3.0 * n + k))
    av = node.amaf_visits
    rave = np.where(av > 0, node.amaf_wins / np.maximum(av, 1.0), 0.5)
    mean = (1.0 - beta) * (node.wins / tried) + beta * rave
    score = mean + exploration * np.sqrt(math.log(node.total) / tried)
    if first_try:
        score += first_try * (n == 0)
    return int(np.argmax(score))


def run_games(
    iterate: Callable[[], None], games: int | None, deadline: float | None, stop: Stop | None
) -> int:
    """Call ``iterate`` (one simulated game through the tree) at most ``games`` times (None:
    no cap), at least once and no more once ``deadline`` passes; raises ThinkingStopped once
    ``stop`` is set. Returns how many it played."""
    played = 0
    while games is None or played < games:
        if played & 31 == 0:
            if stop is not None:
                stop.check()
            if deadline is not None and time.perf_counter() > deadline and played:
                break
        iterate()
        played += 1
    return played


def most_tried(root: TreeNode) -> tuple[int, int, float]:
    """The root's move tried most (the first of them), its games, and the share it won."""
    best = int(np.argmax(root.visits))
    visits = int(root.visits[best])
    return best, visits, root.wins[best] / visits if visits else 0.5
