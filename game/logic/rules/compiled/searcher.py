"""The compiled search's driver: iterative deepening in Python over the numba iterations of
:mod:`~game.logic.rules.compiled.search`, checking the time and the stop between depths and
giving each iteration a node cap (what is left of the caller's, or what the time left allows
at the rate measured so far), so a search bounded by nodes or depth gives the same move on
every run and machine.

The kernels live in a module of their own beside the design's rules module (it imports the
rules module's names): a game whose moves are compiled pays for compiling the search only
when a level first searches it.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from game.logic.contract import Stop
from game.logic.rules.compiled.build import (
    CompiledRules,
    Unsupported,
    available,
    compile_in_worker,
    load_module,
)
from game.logic.rules.compiled.search import MAX_PLY, TABLE_BITS, search_source
from game.logic.rules.position import DescribedPosition
from game.logic.rules.rulebook import Move, Rulebook
from game.logic.rules.search import MATE_BAND, WIN

__all__ = [
    "CompiledResult",
    "CompiledSearch",
    "compile_all",
    "move_key",
    "move_of",
    "row_key",
    "searcher_for",
]

#: The node cap of an iteration bounded by nothing else.
NO_CAP: Final = 1 << 62
#: An iteration starts only while less than this share of the time given has gone: the next
#: depth costs several times the last.
START_SHARE: Final = 0.5

Row = tuple[int, ...]


@dataclass
class CompiledResult:
    """A search's answer: the best row, its score for the side to move (points, as
    :mod:`game.logic.rules.search` scores), the deepest finished depth, the positions
    visited, the principal variation (rows, the best row first)."""

    row: Row
    score: int
    depth: int
    nodes: int
    pv: list[Row] = field(default_factory=list)


class CompiledSearch:
    """The search kernels of one compiled design, and the tables they keep."""

    def __init__(self, rules: CompiledRules) -> None:
        self.rules = rules
        design = rules.design
        text = "\n".join(
            [
                f"# The compiled search of {design.id}: the rules module's names, then its own.",
                f"from {rules.module.__name__} import *  # noqa: F403",
                *search_source(design, list(design.board.zones)),
            ]
        )
        ident = "".join(ch if ch.isalnum() else "_" for ch in design.id)
        self.module = load_module(f"search_{ident}", text + "\n")
        r = rules.module
        width, n = r.WIDTH, r.NPOS
        self.rows = np.zeros((MAX_PLY + 1, r.ROWS, width), dtype=np.int64)
        self.undo = np.zeros((MAX_PLY + 1, width), dtype=np.int64)
        self.cs = np.zeros(width, dtype=np.int64)
        self.es = np.zeros(width, dtype=np.int64)
        self.tkey = np.zeros(1 << TABLE_BITS, dtype=np.uint64)
        self.tdata = np.zeros((1 << TABLE_BITS, 4), dtype=np.int64)
        self.killers = np.zeros((MAX_PLY, 2), dtype=np.int64)
        self.hist = np.zeros((n + 2, n + 2), dtype=np.int64)
        self.noise = np.zeros(r.ROWS, dtype=np.int64)
        self.res = np.zeros(4, dtype=np.int64)
        self.best = np.zeros(width, dtype=np.int64)

    def hash(self, pos: DescribedPosition) -> int:
        """The position's Zobrist hash (from scratch)."""
        return int(self.module.hash_of(self.rules.board(pos), pos.turn, pos.last_from, pos.last_to))

    def run(
        self,
        pos: DescribedPosition,
        *,
        depth: int,
        nodes: int | None = None,
        deadline: float | None = None,
        stop: Stop | None = None,
        noise: list[int] | None = None,
        keep_table: bool = False,
    ) -> CompiledResult:
        """Deepen to ``depth`` from ``pos`` (not changed) within ``nodes`` positions, before
        ``deadline`` (a ``time.perf_counter()`` value) and until ``stop`` is set; ``noise``:
        points added to each legal move's value (in :meth:`CompiledRules.legal_rows`
        order); ``keep_table``: start from the table the last search left."""
        m = self.module
        board = self.rules.board(pos)
        turn, lf, lt = pos.turn, pos.last_from, pos.last_to
        h = m.hash_of(board, turn, lf, lt)
        if not keep_table:
            self.tkey[:] = 0
        self.killers[:] = 0
        self.hist[:] = 0
        self.noise[:] = 0
        if noise:
            self.noise[: len(noise)] = noise
        seen = self._seen(pos)
        started = time.perf_counter()
        found: CompiledResult | None = None
        used = 0
        for d in range(1, max(1, depth) + 1):
            if stop is not None and stop.is_set() and found is not None:
                break
            cap = NO_CAP if nodes is None else nodes - used
            if deadline is not None and found is not None:
                now = time.perf_counter()
                if now - started > START_SHARE * (deadline - started):
                    break
                rate = used / max(now - started, 1e-6)
                cap = min(cap, max(1, int(rate * (deadline - now))))
            if cap <= 0:
                break
            status = m.search(
                board.copy(), turn, lf, lt, h, d, self.rows, self.cs, self.es, self.undo,
                self.tkey, self.tdata, self.killers, self.hist, self.noise, seen, len(seen),
                pos.quiet, cap, self.res, self.best,
            )  # fmt: skip
            used += int(self.res[2])
            if status < 0:
                raise ValueError(f"a position has more than {self.rules.module.ROWS} moves")
            if status == 0:
                break
            score = int(self.res[0])
            found = CompiledResult(_row(self.best), score, d, used)
            if abs(score) >= MATE_BAND and WIN - abs(score) <= d:
                break  # the end is within the depth searched: deeper finds nothing new
        if found is None:  # not even depth 1 finished: the first legal move
            found = CompiledResult(self.rules.legal_rows(pos)[0], 0, 0, used)
        found.nodes = used
        found.pv = self._line(board, turn, lf, lt, found.row)
        return found

    def _seen(self, pos: DescribedPosition) -> Any:
        """The hashes of the game's positions before ``pos`` that it may repeat (its history,
        which ends with ``pos``'s own key, read as :meth:`~game.logic.rules.ends.Ends.position_of`
        reads a key), without the last move, as the search compares them."""
        hashes = []
        for key in pos.history[:-1]:
            (board, turn, _hands, _under) = key[0]
            cells = np.array(board, dtype=np.int64)
            hashes.append(self.module.hash_of(cells, turn, -1, -1))  # as the search's unmoved
        return np.array(hashes or [0], dtype=np.uint64)[: len(hashes)]

    def _line(self, board: Any, turn: int, lf: int, lt: int, first: Row) -> list[Row]:
        out = np.zeros((MAX_PLY, self.rules.module.WIDTH), dtype=np.int64)
        count = self.module.principal(
            board.copy(), turn, lf, lt, self.tkey, self.tdata, self.rows, self.cs, self.es,
            self.undo, out,
        )  # fmt: skip
        line = [_row(out[k]) for k in range(count)]
        return line if line and line[0] == first else [first]


def row_key(row: Row, npos: int) -> tuple[Any, ...]:
    """What identifies a row among a position's moves: (from, to) (None: a pass), program,
    changes on the board's ``npos`` positions (as :func:`move_key` of the same move: the
    cells after the board, hands and columns, follow from those)."""
    ends = (row[0], row[1]) if row[2] >= 0 else None
    changes = tuple(c for c in zip(row[5::2], row[6::2], strict=True) if c[0] < npos)
    return (ends, row[2], changes)


def move_key(move: Move) -> tuple[Any, ...]:
    """The :func:`row_key` of a Python back end's move (a game of stacks' changes without
    their columns)."""
    path, _caps, effects, program = move
    ends = (path[0] if len(path) > 1 else -1, path[-1]) if path else None
    return (ends, program, tuple((e[0], e[1]) for e in effects))


def move_of(rulebook: Rulebook, pos: DescribedPosition, row: Row) -> Move:
    """The legal move of ``pos`` that ``row`` stands for; ValueError when none is."""
    key = row_key(row, len(pos.board))
    for move in rulebook.legal(pos):
        if move_key(move) == key:
            return move
    raise ValueError(f"the compiled search's move {row} is not a legal move here")


def _row(values: Any) -> Row:
    return tuple(int(x) for x in values[: 5 + 2 * int(values[4])])


#: Each design's compiled search, or None where it has none, as built in this process.
_SEARCHES: dict[int, tuple[Any, CompiledSearch | None]] = {}


def searcher_for(design: Any) -> CompiledSearch | None:
    """``design``'s compiled search, built once in this process; None while its compiled back
    end is not available (not expressible, or not built yet) or its ends are not compiled."""
    found = _SEARCHES.get(id(design))
    if found is not None and found[0] is design:
        return found[1]
    rules = available(design)
    if rules is None:
        return None  # asked again next time: a back end built in the background may come
    try:
        search: CompiledSearch | None = CompiledSearch(rules)
    except Unsupported:
        search = None
    _SEARCHES[id(design)] = (design, search)
    return search


def compile_all(name: str) -> int:
    """The worker's task (:mod:`~game.logic.rules.compiled.worker`): the design's rules module,
    then its search's, so that a level's first search after it loads both warm."""

    def search(rules: CompiledRules) -> None:
        with contextlib.suppress(Unsupported):
            CompiledSearch(rules)

    return compile_in_worker(name, search)
