"""The levels' play in a game of groups (Go): Monte Carlo tree search whose simulated games
place stones at random, never in their own eyes, until both pass, and count the area.

The tree chooses by UCT blended with RAVE (a move's value first read from every simulated
game in which its player was the first to take that point, then more and more from its own);
a pass is a move of every node, so a side ahead after the opponent's pass passes to win and
one behind plays on. The simulated games run in compiled kernels
(:mod:`~game.logic.rules.kernels.groups`), seeded by the position, so a search bounded by
games gives the same move for the same position.
"""

from __future__ import annotations

import zlib
from typing import Final

import numpy as np
import numpy.typing as npt

from game.logic.contract import Stop
from game.logic.rules.connect import (
    ConnectionChoice,
    TreeNode,
    most_tried,
    rave_select,
    run_games,
)
from game.logic.rules.group_rulebook import GroupRulebook
from game.logic.rules.kernels.groups import area_difference, place, playable, playout, seed
from game.logic.rules.position import PASS, DescribedPosition, Move

__all__ = ["GroupPlay"]

#: UCT's exploration constant and the games at which a move's own results and RAVE's weigh
#: the same.
EXPLORATION: Final = 0.2
RAVE_EQUIVALENCE: Final = 500.0
#: A simulated game ends after this many moves per point of the board.
PLAYOUT_MOVES: Final = 3


class GroupPlay:
    """The play of one group rulebook's game (see the module docstring)."""

    def __init__(self, rulebook: GroupRulebook) -> None:
        self.rulebook = rulebook
        n = rulebook.n
        self.nbr = np.full((n, 4), -1, np.int32)
        for p, near in enumerate(rulebook.neighbours):
            self.nbr[p, : len(near)] = near[:4]
        self.komi = rulebook.rule.komi
        self.limit = PLAYOUT_MOVES * n

    def choose(
        self,
        pos: DescribedPosition,
        moves: list[Move],
        *,
        games: int | None,
        deadline: float | None,
        stop: Stop | None,
    ) -> ConnectionChoice:
        """The choice among ``moves``: at most ``games`` simulated games (None: no cap), fewer
        once ``deadline`` passes; raises ThinkingStopped once ``stop`` is set."""
        book = self.rulebook
        if not pos.history:
            book.begin(pos)
        ko, passes = pos.history[0], pos.history[1]
        colour = np.array(book.colours(pos.board), np.int8)
        me = book.player(pos) + 1
        by_point = {m[0][0]: m for m in moves if len(m[0]) == 1}
        found = [p for p in playable(colour, self.nbr, me, ko) if int(p) in by_point]
        points = np.array([*found, -1] if PASS in moves else found, np.int64)
        if not len(points):  # only own eyes are left to fill, and no pass: fill one
            return ConnectionChoice(moves[0], "the only kind of move left", 0, 0.0)
        root = TreeNode(points)
        seed(zlib.crc32(repr(book.key(pos)).encode()))
        played = run_games(
            lambda: self._iterate(root, colour, me, ko, passes), games, deadline, stop
        )
        best, visits, rate = most_tried(root)
        point = int(root.cells[best])
        move = PASS if point < 0 else by_point[point]
        reason = f"wins {rate:.0%} of the {visits:,} simulated games after it, {played:,} in all"
        reason = f"{self._standing(colour)}; {reason}"
        if point < 0:
            reason = "passes: " + reason
        return ConnectionChoice(move, reason, played, rate)

    def _standing(self, colour: npt.NDArray[np.int8]) -> str:
        """Who leads by area and komi on the board as it stands."""
        players = self.rulebook.design.players
        lead = float(area_difference(colour, self.nbr)) - self.komi
        if lead == 0:
            return "even on the board as it stands"
        return f"{players[0 if lead > 0 else 1]} leads by {abs(lead):g} as the board stands"

    def _iterate(
        self, root: TreeNode, start: npt.NDArray[np.int8], me: int, ko: int, passes: int
    ) -> None:
        colour = start.copy()
        nbr = self.nbr
        mark = np.zeros(len(colour) + 1, np.int32)
        stack = np.empty(len(colour), np.int32)
        path: list[tuple[TreeNode, int, int]] = []
        node: TreeNode | None = root
        while node is not None and passes < 2:
            i = rave_select(node, EXPLORATION, RAVE_EQUIVALENCE)
            p = int(node.cells[i])
            path.append((node, i, me))
            if p < 0:
                passes += 1
                ko = -1
            else:
                ko = place(colour, nbr, p, me, ko, mark, stack)
                passes = 0
            me = 3 - me
            child = node.children[i]
            if child is None:
                if node.visits[i] > 0 and passes < 2:  # the second visit grows the tree
                    node.children[i] = TreeNode(np.append(playable(colour, nbr, me, ko), -1))
                break
            node = child
        first = np.zeros(len(colour), np.int8)
        if passes < 2:
            diff = playout(colour, nbr, me, ko, passes, self.limit, first)
        else:
            diff = area_difference(colour, nbr)
        score = diff - self.komi
        winner = 1 if score > 0 else (2 if score < 0 else 0)
        for node_at, i, mover in path:
            won = 1.0 if winner == mover else (0.5 if winner == 0 else 0.0)
            node_at.visits[i] += 1
            node_at.wins[i] += won
            pts = node_at.cells
            held = (pts >= 0) & (first[np.maximum(pts, 0)] == mover)
            if pts[i] < 0:  # a pass takes no point: its RAVE results are its own
                held[i] = True
            node_at.amaf_visits += held
            if won:
                node_at.amaf_wins += held * won
