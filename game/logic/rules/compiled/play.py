"""A game played move by move on a design's compiled back end, with the counters the outcome
reads (quiet moves, plies, the hashes of the positions since the last move that cannot be
undone): what a driver in Python keeps around the compiled kernels (see
:mod:`~game.logic.rules.compiled.outcome` for the same steps inside numba).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from game.logic.rules.compiled.outcome import RESULTS, UNSURE
from game.logic.rules.position import DescribedPosition

if TYPE_CHECKING:
    from game.logic.rules.compiled.build import CompiledRules
    from game.logic.rules.rulebook import Rulebook

__all__ = ["CompiledPlay"]


class CompiledPlay:
    """The state of one game on compiled kernels: the board, the turn, the last move's ends,
    the counters; the legal moves of the position, generated as it is reached."""

    def __init__(self, rules: CompiledRules, pos: DescribedPosition, rulebook: Rulebook) -> None:
        """Start from ``pos`` (not changed), its history read through ``rulebook`` (the
        Python back end, which wrote it)."""
        self.rules = rules
        self.m: Any = rules.module
        m = self.m
        self.out = np.zeros((m.ROWS, m.WIDTH), dtype=np.int64)
        self.undo = np.zeros(m.WIDTH, dtype=np.int64)
        self.scratch = np.zeros(m.WIDTH, dtype=np.int64)
        self.cs = np.zeros(m.WIDTH, dtype=np.int64)
        self.es = np.zeros(m.WIDTH, dtype=np.int64)
        self.hist = np.zeros(max(64, 2 * len(pos.history)), dtype=np.int64)
        self.nh = 0
        self.b: Any = None
        self.turn, self.lf, self.lt, self.n = 0, -1, -1, 0
        for key in pos.history:  # the positions since the last capture, this one last
            seen = rulebook.position_of(key)
            self._set(seen)
            self.hist[self.nh] = m.poshash(self.b, self.turn, self.out, self.n)
            self.nh += 1
        self._set(pos)
        self.quiet, self.plies = pos.quiet, pos.plies

    def rows(self) -> list[tuple[int, ...]]:
        """The legal moves as (from, to, program, captures, changes, pairs...) rows."""
        return [tuple(int(x) for x in self.out[i, : 5 + 2 * self.out[i, 4]]) for i in range(self.n)]

    def play(self, i: int) -> None:
        """Make the legal move ``i`` (of :meth:`rows`)."""
        m = self.m
        row = self.out[i].copy()
        m.apply(self.b, row, self.undo)
        self.turn = int(m.turn_after(self.turn, row[2]))
        self.lf, self.lt = int(row[0]), int(row[1])
        self.quiet = int(m.quiet_after(row, self.undo, self.quiet))
        self.plies += 1
        self._generate()
        if self.nh >= self.hist.shape[0]:
            self.hist = np.concatenate([self.hist, np.zeros_like(self.hist)])
        self.nh = int(m.keep(self.b, self.turn, row, self.out, self.n, self.hist, self.nh))

    def outcome(self) -> str | None:
        """As :meth:`~game.logic.rules.ends.Ends.outcome` answers: "win", "loss" (for the
        player who moved last), "draw", "count", None while the game goes on, or "unsure"
        where only the Python back end can say (a perpetual check)."""
        code = self.m.outcome(
            self.b, self.turn, self.lf, self.lt, self.n, self.quiet, self.plies, self.hist,
            self.nh,
        )  # fmt: skip
        return "unsure" if code == UNSURE else RESULTS[code] or None

    def ended(self) -> bool:
        """Whether an end holds as perft reads them (no draw counters)."""
        return bool(self.m.ended(self.b, self.turn, self.lf, self.lt, self.n))

    def winner(self) -> int:
        """The player who has won (-1: no one, a draw, a game going on, or unsure)."""
        said = self.outcome() or ""
        code = RESULTS.index(said) if said in RESULTS else 0
        return int(self.m.winner(self.b, self.turn, code))

    def _set(self, pos: DescribedPosition) -> None:
        self.b = self.rules.board(pos)
        self.turn, self.lf, self.lt = pos.turn, pos.last_from, pos.last_to
        self._generate()

    def _generate(self) -> None:
        m = self.m
        self.n = int(
            m.legal(self.b, self.turn, self.lf, self.lt, self.out, self.cs, self.es, self.scratch)
        )
        if self.n > m.ROWS:
            raise ValueError(f"a position has more than {m.ROWS} moves")
