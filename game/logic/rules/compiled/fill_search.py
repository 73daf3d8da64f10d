"""Monte Carlo tree search compiled, for a game that fills the board
(:func:`~game.logic.rules.compiled.playout.fill_shape`, Hex): the search of
:class:`~game.logic.rules.connect.Connection` (UCT blended with RAVE, a node grown on a move's
second visit, simulated games that fill the board) with the tree held in flat arrays and each
simulated game played by the module's union-find kernels, so that a call runs many games with
no Python between them.

The tree: node ``k`` has ``size[k]`` moves at slots ``first[k]`` onwards; a slot holds its
position (``cell``), the node grown under it (``child``, -1 none), its games and wins, and
RAVE's (every game in which the node's player took that position). :class:`FillSearch` makes
the arrays, grows them when the tree fills them (up to :data:`MAX_SLOTS`; then the tree stops
growing and the games go on from its leaves), and runs the kernel in slices, checking the
deadline and the stop between them. The arrays' first size changes nothing in the search: a
call stops before a game that might not find room for its node.
"""

from __future__ import annotations

import time
from typing import Any, Final

import numpy as np

from game.logic.contract import Stop

__all__ = ["MAX_SLOTS", "FillSearch", "search_source"]

#: Games one call of the kernel plays before Python looks at the deadline and the stop.
SLICE: Final = 128
#: The most move slots the tree may hold (each 48 bytes): past it the tree stops growing.
MAX_SLOTS: Final = 1 << 22
#: The signature of ``fill_search``.
SEARCH: Final = (
    "int64(int64[::1], int64[::1], int64, int64[::1], int64[::1], float64[::1], float64[::1], "
    "float64[::1], float64[::1], int64[::1], int64[::1], float64[::1], int64[::1], "
    "float64[::1])"
)

#: The signature of ``rave_pick``.
PICK: Final = (
    "int64(int64[::1], float64[::1], float64[::1], float64[::1], float64[::1], int64[::1], "
    "int64[::1], float64[::1], int64, float64[::1])"
)


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
        room: int = 1 << 14,
    ) -> None:
        self.module = module
        self.b = b
        self.st = st
        self.knobs = np.array(knobs, dtype=np.float64)
        k = len(cells)
        room = max(room, 2 * (k + len(b)))
        self.cell = np.full(room, -1, dtype=np.int64)
        self.child = np.full(room, -1, dtype=np.int64)
        self.visits, self.wins, self.av, self.aw = (np.zeros(room) for _ in range(4))
        self.first = np.zeros(room, dtype=np.int64)
        self.size = np.zeros(room, dtype=np.int64)
        self.total = np.zeros(room)
        self.cell[:k] = cells
        self.size[0] = k
        self.meta = np.array([1, k, 0], dtype=np.int64)  # nodes, slots, room (see the kernel)
        self.k = k

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
                self.b, self.st, n, self.cell, self.child, self.visits, self.wins, self.av,
                self.aw, self.first, self.size, self.total, self.meta, self.knobs,
            )  # fmt: skip
            if self.meta[2] == 1:  # the tree wants room: twice as much, or it stops growing
                if len(self.cell) < MAX_SLOTS:
                    self._grow()
                else:
                    self.meta[2] = 2
        return played

    def root(self) -> tuple[Any, Any]:
        """The root's moves' games and wins."""
        return self.visits[: self.k].copy(), self.wins[: self.k].copy()

    def _grow(self) -> None:
        room = 2 * len(self.cell)
        for name, fill in (("cell", -1), ("child", -1), ("first", 0), ("size", 0)):
            old = getattr(self, name)
            new = np.full(room, fill, dtype=np.int64)
            new[: len(old)] = old
            setattr(self, name, new)
        for name in ("visits", "wins", "av", "aw", "total"):
            counts = getattr(self, name)
            grown = np.zeros(room)
            grown[: len(counts)] = counts
            setattr(self, name, grown)
        self.meta[2] = 0


def search_source() -> list[str]:
    """The kernel's text, for a module with the fill kernels (``FILL``)."""
    return _SEARCH.replace("{SEARCH}", SEARCH).replace("{PICK}", PICK).splitlines()


_SEARCH: Final = '''

@njit("{PICK}", cache=True)
def rave_pick(cell, visits, wins, av, aw, first, size, total, node, knobs):
    """The slot to follow from ``node``: UCT on each move's own results blended with RAVE's;
    a move never tried scores its RAVE value (or an even chance) plus the first-try bonus."""
    total[node] += 1.0
    log_total = np.log(total[node])
    explore = knobs[0]
    k = knobs[1]
    best = first[node]
    top = -1e300
    for s in range(first[node], first[node] + size[node]):
        n = visits[s]
        tried = max(n, 1.0)
        beta = np.sqrt(k / (3.0 * n + k))
        rave = aw[s] / av[s] if av[s] > 0 else 0.5
        score = (1.0 - beta) * (wins[s] / tried) + beta * rave
        score += explore * np.sqrt(log_total / tried)
        if n == 0:
            score += knobs[2]
        if score > top:
            top = score
            best = s
    return best


@njit("{SEARCH}", cache=True)
def fill_search(b0, st0, games, cell, child, visits, wins, av, aw, first, size, total, meta, knobs):
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
            s = rave_pick(cell, visits, wins, av, aw, first, size, total, node, knobs)
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
            if visits[s] > 0 and meta[2] == 0:  # the second visit grows the tree
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
                            visits[slots] = 0.0
                            wins[slots] = 0.0
                            av[slots] = 0.0
                            aw[slots] = 0.0
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
            visits[s] += 1.0
            wins[s] += won
            for t in range(first[node], first[node] + size[node]):
                v = b[cell[t]]
                if v != 0 and OWN[v] == who:
                    av[t] += 1.0
                    aw[t] += won
    return games
'''
