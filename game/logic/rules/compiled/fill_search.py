"""Monte Carlo tree search compiled, for a game that fills the board
(:func:`~game.logic.rules.compiled.playout.fill_shape`, Hex): the search of
:class:`~game.logic.rules.connect.Connection` (UCT blended with RAVE, a node grown on a move's
second visit, simulated games that fill the board) with the tree held in flat arrays and each
simulated game played by the module's union-find kernels, so that a call runs many games with
no Python between them.

The tree: node ``k`` has ``size[k]`` moves at slots ``first[k]`` onwards; a slot holds its
position (``cell``), the node grown under it (``child``, -1 none) and a column of ``stat``:
its games and wins, RAVE's (every game in which the node's player took that position), and
the terms of its score that change only with its own games (RAVE's weight, one over the root
of its games, its share of wins), counted as the games are, so that choosing a move reads
each slot without a root.

:class:`FillSearch` makes the arrays for :data:`MAX_SLOTS` slots unwritten (memory is taken
as the tree grows into it; past them the tree stops growing and the games go on from its
leaves), grows them when asked for less room (a call stops before a game that might not find
room for its node, so the room changes nothing in the search), and runs the kernel in slices,
checking the deadline and the stop between them.
"""

from __future__ import annotations

import time
from typing import Any, Final

import numpy as np

from game.logic.contract import Stop

__all__ = ["MAX_SLOTS", "FillSearch", "search_source"]

#: Games one call of the kernel plays before Python looks at the deadline and the stop.
SLICE: Final = 128
#: The most move slots the tree may hold (each about 100 bytes, taken as the tree grows into
#: them): past it the tree stops growing and the games go on from its leaves.
MAX_SLOTS: Final = 1 << 21
#: The signature of ``fill_search``.
SEARCH: Final = (
    "int64(int64[::1], int64[::1], int64, int64[::1], int64[::1], float64[:, ::1], "
    "int64[::1], int64[::1], float64[::1], int64[::1], float64[::1])"
)
#: The rows of ``stat`` (one a slot's column): games, wins, RAVE's games and wins, RAVE's
#: weight, one over the root of the games (at least one), the share of wins; a new slot's.
GAMES, WINS = 0, 1
NEW_SLOT: Final = (0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0)

#: The signature of ``rave_pick``.
PICK: Final = "int64(float64[:, ::1], int64[::1], int64[::1], float64[::1], int64, float64[::1])"


class FillSearch:
    """The tree of one choice in ``module`` (a compiled module with ``fill_search``), rooted at
    the board ``b`` and state ``st`` (as the playout kernels take them) with the moves
    ``cells``; ``knobs`` = (exploration, RAVE equivalence, first-try bonus)."""

    def __init__(
        self,
        module: Any,
        b: Any,
        st: Any,
        cells: list[int],
        knobs: tuple[float, float, float],
        *,
        room: int = MAX_SLOTS,
    ) -> None:
        self.module = module
        self.b = b
        self.st = st
        self.knobs = np.array(knobs, dtype=np.float64)
        k = len(cells)
        self.k = k
        # Left unwritten (the kernel writes each slot and node as it makes it): the memory
        # is taken as the tree grows into it, not for the room asked.
        self._make(max(room, 2 * (k + len(b))))
        self.cell[:k] = cells
        self.child[:k] = -1
        self.stat[:, :k] = np.array(NEW_SLOT)[:, None]
        self.first[0], self.size[0], self.total[0] = 0, k, 0.0
        self.meta = np.array([1, k, 0], dtype=np.int64)  # nodes, slots, room (see the kernel)

    def run(self, games: int | None, deadline: float | None, stop: Stop | None) -> int:
        """Simulated games through the tree: at most ``games`` (None: no cap), at least one,
        none begun once ``deadline`` passes; raises ThinkingStopped once ``stop`` is set."""
        played = 0
        while games is None or played < games:
            if stop is not None:
                stop.check()
            if deadline is not None and played and time.perf_counter() > deadline:
                break
            n = SLICE if games is None else min(SLICE, games - played)
            played += self.module.fill_search(
                self.b, self.st, n, self.cell, self.child, self.stat, self.first, self.size,
                self.total, self.meta, self.knobs,
            )  # fmt: skip
            if self.meta[2] == 1:  # the tree wants room: twice as much, or it stops growing
                if len(self.cell) < MAX_SLOTS:
                    self._grow()
                else:
                    self.meta[2] = 2
        return played

    def root(self) -> tuple[Any, Any]:
        """The root's moves' games and wins."""
        return self.stat[GAMES, : self.k].copy(), self.stat[WINS, : self.k].copy()

    def _make(self, room: int) -> None:
        self.cell, self.child, self.first, self.size = (
            np.empty(room, dtype=np.int64) for _ in range(4)
        )
        self.total = np.empty(room)
        self.stat = np.empty((len(NEW_SLOT), room))

    def _grow(self) -> None:
        """Twice the room, the tree so far copied into it."""
        nodes, slots = int(self.meta[0]), int(self.meta[1])
        old = (self.cell, self.child, self.stat, self.first, self.size, self.total)
        self._make(2 * len(self.cell))
        self.cell[:slots], self.child[:slots] = old[0][:slots], old[1][:slots]
        self.stat[:, :slots] = old[2][:, :slots]
        self.first[:nodes], self.size[:nodes], self.total[:nodes] = (x[:nodes] for x in old[3:])
        self.meta[2] = 0


def search_source() -> list[str]:
    """The kernel's text, for a module with the fill kernels (``FILL``)."""
    return _SEARCH.replace("{SEARCH}", SEARCH).replace("{PICK}", PICK).splitlines()


_SEARCH: Final = '''

@njit("{PICK}", cache=True)
def rave_pick(stat, first, size, total, node, knobs):
    """The slot to follow from ``node``: UCT on each move's own results blended with RAVE's;
    a move never tried scores its RAVE value (or an even chance) plus the first-try bonus."""
    total[node] += 1.0
    reach = knobs[0] * np.sqrt(np.log(total[node]))
    best = first[node]
    top = -1e300
    av = stat[2]
    beta = stat[4]
    for s in range(first[node], first[node] + size[node]):
        rave = stat[3, s] / av[s] if av[s] > 0 else 0.5
        score = (1.0 - beta[s]) * stat[6, s] + beta[s] * rave + reach * stat[5, s]
        if stat[0, s] == 0.0:
            score += knobs[2]
        if score > top:
            top = score
            best = s
    return best


@njit("{SEARCH}", cache=True)
def fill_search(b0, st0, games, cell, child, stat, first, size, total, meta, knobs):
    """``games`` simulated games through the tree (see the module docstring) from ``b0`` and
    ``st0``; how many it played. ``meta`` = (nodes, slots, room): room 0 while the arrays
    have room for another node; set to 1, before a game, when they might not (the call returns
    early for the caller to grow them); 2 when the tree is to grow no more."""
    parent0 = np.empty(NPOS + 4, dtype=np.int64)
    free = np.empty(NPOS, dtype=np.int64)
    st = st0.copy()
    nfree = fill_start(b0, parent0, free, st)
    if nfree <= 0:
        return 0
    order = np.empty(NPOS + 1, dtype=np.int64)
    turn = st0[0]
    for i in range(NPOS + 1):
        order[i] = PLAYER[turn]
        turn = NEXT[turn]
    b = np.empty_like(b0)
    parent = np.empty_like(parent0)
    rest = np.empty(NPOS, dtype=np.int64)
    path_node = np.empty(NPOS, dtype=np.int64)
    path_slot = np.empty(NPOS, dtype=np.int64)
    for played in range(games):
        if meta[2] == 0 and (meta[0] >= first.shape[0] or meta[1] + NPOS > cell.shape[0]):
            meta[2] = 1
            return played
        b[:] = b0
        parent[:] = parent0
        winner = -1
        node = 0
        ply = 0
        while True:
            s = rave_pick(stat, first, size, total, node, knobs)
            p = cell[s]
            who = order[ply]
            b[p] = FILL_CODE[who]
            stone_joins(b, parent, p)
            if winner < 0 and chain(parent, NPOS + 2 * who) == chain(parent, NPOS + 2 * who + 1):
                winner = who if FILL_WINS else 1 - who
            path_node[ply] = node
            path_slot[ply] = s
            ply += 1
            if child[s] >= 0:
                node = child[s]
                continue
            if stat[0, s] > 0 and meta[2] == 0:  # the second visit grows the tree
                k = 0
                for t in range(first[node], first[node] + size[node]):
                    if b[cell[t]] == 0:
                        k += 1
                nodes = meta[0]
                slots = meta[1]
                if k > 0:
                    first[nodes] = slots
                    size[nodes] = k
                    total[nodes] = 0.0
                    for t in range(first[node], first[node] + size[node]):
                        if b[cell[t]] == 0:
                            cell[slots] = cell[t]
                            child[slots] = -1
                            stat[:, slots] = 0.0
                            stat[4, slots] = 1.0
                            stat[5, slots] = 1.0
                            slots += 1
                    child[s] = nodes
                    meta[0] = nodes + 1
                    meta[1] = slots
            break
        m = 0
        for i in range(nfree):
            if b[free[i]] == 0:
                rest[m] = free[i]
                m += 1
        depth = ply
        while m > 0:
            p = take(rest, m)
            m -= 1
            who = order[ply]
            b[p] = FILL_CODE[who]
            ply += 1
            if winner < 0:
                stone_joins(b, parent, p)
                if chain(parent, NPOS + 2 * who) == chain(parent, NPOS + 2 * who + 1):
                    winner = who if FILL_WINS else 1 - who
        for j in range(depth):
            node = path_node[j]
            who = order[j]
            won = 1.0 if winner == who else (0.5 if winner < 0 else 0.0)
            s = path_slot[j]
            n = stat[0, s] + 1.0
            stat[0, s] = n
            stat[1, s] += won
            stat[4, s] = np.sqrt(knobs[1] / (3.0 * n + knobs[1]))
            stat[5, s] = 1.0 / np.sqrt(n)
            stat[6, s] = stat[1, s] / n
            for t in range(first[node], first[node] + size[node]):
                v = b[cell[t]]
                if v != 0 and OWN[v] == who:
                    stat[2, t] += 1.0
                    stat[3, t] += won
    return games
'''
