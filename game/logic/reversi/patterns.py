"""Pattern evaluation for Reversi: table lookups over lines and corner blocks, by game phase.

The style of the strong engines (Logistello, Edax): the board is read through a fixed set of
*patterns*, groups of squares whose contents (empty, mine, theirs) form a base-3 number; each
pattern family has a table of weights indexed by that number, one table per game phase, and the
evaluation is the sum of the looked-up weights plus a few whole-board terms. The score is from
the side to move's point of view, in hundredths of a disc, predicting the final disc difference
(the same scale as :mod:`game.logic.reversi.evaluation`).

Families (:data:`FAMILIES`), each with all its copies under the 8 symmetries of the board
sharing one table (46 pattern instances in all):

``edge_x``      an edge and its two X squares (10 squares, 4 copies)
``corner_2x5``  a 2x5 block at a corner (10 squares, 8 copies)
``corner_3x3``  a 3x3 block at a corner (9 squares, 4 copies)
``diag_8`` .. ``diag_4``   the diagonals of length 8 (2 copies), 7, 6, 5 and 4 (4 copies each)
``row_2`` .. ``row_4``     the second, third and fourth line from an edge (4 copies each)

A pattern that a symmetry maps onto itself (an edge read backwards, a corner block mirrored in
its diagonal) has its mirrored configurations share one weight, so a position and any of its
mirror images or rotations evaluate the same. The whole-board terms (:data:`SCALARS`) are the
features of today's evaluation (mobility, potential mobility, corners, X and C squares, stable
discs, parity, a constant ...), with weights of their own. Phases (:data:`N_PHASES`) group
positions by empty squares, five at a time.

Weights ship in ``data/patterns.npz`` (made by ``tools/reversi_fit.py`` from positions that
``tools/reversi_data.py`` labels with our own solver and search); :func:`load_weights` reads
them once and expands them to a flat ``int16`` table ``(N_PHASES, TABLE_SIZE)``.

>>> from game.logic.reversi.board import Position
>>> abs(evaluate(Position.start())) < 10
True
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numba import njit

from . import kernels
from .evaluation import FEATURES, _cache_depends_on, _features
from .kernels import popcount

if TYPE_CHECKING:
    from .board import Position

__all__ = [
    "CANONICAL",
    "FAMILIES",
    "INSTANCES",
    "N_PATTERNS",
    "N_PHASES",
    "PHASE_STEP",
    "SCALARS",
    "TABLE_SIZE",
    "WEIGHTS_FILE",
    "batch_features",
    "evaluate",
    "evaluate_bits",
    "expand_weights",
    "load_weights",
    "pattern_indices",
    "phase_of",
    "scalar_features",
    "symmetries",
]

Square = tuple[int, int]  # (row, column): row 0 is rank 1, column 0 is file A


def _line(cells: list[Square]) -> tuple[Square, ...]:
    return tuple(cells)


#: Each family: its name and its base squares in reading order (row, column).
FAMILIES: Final[tuple[tuple[str, tuple[Square, ...]], ...]] = (
    ("edge_x", _line([(0, c) for c in range(8)] + [(1, 1), (1, 6)])),
    ("corner_2x5", _line([(0, c) for c in range(5)] + [(1, c) for c in range(5)])),
    ("corner_3x3", _line([(r, c) for r in range(3) for c in range(3)])),
    ("diag_8", _line([(i, i) for i in range(8)])),
    ("diag_7", _line([(i, i + 1) for i in range(7)])),
    ("diag_6", _line([(i, i + 2) for i in range(6)])),
    ("diag_5", _line([(i, i + 3) for i in range(5)])),
    ("diag_4", _line([(i, i + 4) for i in range(4)])),
    ("row_2", _line([(1, c) for c in range(8)])),
    ("row_3", _line([(2, c) for c in range(8)])),
    ("row_4", _line([(3, c) for c in range(8)])),
)

#: Whole-board terms, after the pattern tables in each phase's row of weights: the features of
#: :mod:`game.logic.reversi.evaluation` (mobility, corners, stable discs, parity, ...), refitted
#: here together with the patterns, so that the tables only need to learn what they miss.
SCALARS: Final = FEATURES

#: Empty squares per phase; phase ``k`` holds ``5k .. 5k+4`` empties (the last one up to 60).
PHASE_STEP: Final = 5
N_PHASES: Final = 12

WEIGHTS_FILE: Final = "patterns.npz"


def symmetries() -> list[Any]:
    """The 8 symmetries of the board as functions of ``(row, column)``, identity first."""
    return [
        lambda r, c: (r, c),
        lambda r, c: (r, 7 - c),
        lambda r, c: (7 - r, c),
        lambda r, c: (7 - r, 7 - c),
        lambda r, c: (c, r),
        lambda r, c: (c, 7 - r),
        lambda r, c: (7 - c, r),
        lambda r, c: (7 - c, 7 - r),
    ]


def _build() -> tuple[list[tuple[int, tuple[int, ...]]], np.ndarray, np.ndarray, int]:
    """Instances ``(family, squares)``, the family offsets, the canonical index map, the size."""
    instances: list[tuple[int, tuple[int, ...]]] = []
    offsets = np.zeros(len(FAMILIES) + 1, dtype=np.int64)
    canonical_parts = []
    for f, (_, base) in enumerate(FAMILIES):
        k = len(base)
        seen: set[frozenset[Square]] = set()
        perms: list[list[int]] = []
        for g in symmetries():
            image = [g(r, c) for r, c in base]
            key = frozenset(image)
            if key == frozenset(base):
                perms.append([base.index(sq) for sq in image])
            if key not in seen:
                seen.add(key)
                instances.append((f, tuple(r * 8 + c for r, c in image)))
        # canonical[i] = the smallest index among the configurations the stabiliser maps i to
        size = 3**k
        digits = (np.arange(size)[:, None] // 3 ** np.arange(k)[None, :]) % 3
        canon = np.full(size, size, dtype=np.int64)
        for perm in perms:
            permuted = (digits[:, perm] * 3 ** np.arange(k)[None, :]).sum(axis=1)
            canon = np.minimum(canon, permuted)
        canonical_parts.append(canon + offsets[f])
        offsets[f + 1] = offsets[f] + size
    patterns_size = int(offsets[-1])
    canonical = np.concatenate(
        [*canonical_parts, np.arange(len(SCALARS), dtype=np.int64) + patterns_size]
    )
    return instances, offsets, canonical, patterns_size + len(SCALARS)


_INSTANCES, _OFFSETS, _CANONICAL, _TABLE_SIZE = _build()

#: Every pattern instance: ``(family number, squares in reading order)``.
INSTANCES: Final = tuple(_INSTANCES)
N_PATTERNS: Final = len(INSTANCES)
#: Length of one phase's row of weights: every family's table, then the scalar terms.
TABLE_SIZE: Final = _TABLE_SIZE
#: Maps each table entry to the entry its mirror images share (the scalars map to themselves).
CANONICAL: Final = _CANONICAL
_SCALAR_BASE: Final = TABLE_SIZE - len(SCALARS)
_N_SCALARS: Final = len(SCALARS)


def _square_entries() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per square: how many instances read it, which, and the power of 3 of its digit there."""
    lists: list[list[tuple[int, int]]] = [[] for _ in range(64)]
    for i, (_, squares) in enumerate(INSTANCES):
        for d, sq in enumerate(squares):
            lists[sq].append((i, 3**d))
    width = max(len(x) for x in lists)
    count = np.array([len(x) for x in lists], dtype=np.int64)
    inst = np.zeros((64, width), dtype=np.int64)
    power = np.zeros((64, width), dtype=np.int64)
    for sq, entries in enumerate(lists):
        for e, (i, pw) in enumerate(entries):
            inst[sq, e] = i
            power[sq, e] = pw
    return count, inst, power


_SQ_COUNT, _SQ_INST, _SQ_POWER = _square_entries()
_INST_OFFSET: Final = np.array([_OFFSETS[f] for f, _ in INSTANCES], dtype=np.int64)
_U0: Final = np.uint64(0)
_U1: Final = np.uint64(1)


def phase_of(empties: int) -> int:
    """The phase (row of the weights) of a position with ``empties`` empty squares."""
    return min(empties // PHASE_STEP, N_PHASES - 1)


def pattern_indices(mine: int, theirs: int) -> np.ndarray[Any, Any]:
    """The table entry (offset included, not yet canonical) each pattern instance reads."""
    out = np.zeros(N_PATTERNS, dtype=np.int64)
    _indices(np.uint64(mine), np.uint64(theirs), out)
    return out


def batch_features(
    mine: np.ndarray[Any, Any], theirs: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Canonical table entries ``(n, N_PATTERNS)`` and scalar terms ``(n, 4)`` of many positions.

    ``mine`` and ``theirs`` are ``uint64`` arrays (side to move first), as the fitting reads them.
    """
    mine = np.ascontiguousarray(mine, dtype=np.uint64)
    theirs = np.ascontiguousarray(theirs, dtype=np.uint64)
    idx = np.zeros((len(mine), N_PATTERNS), dtype=np.int64)
    sc = np.zeros((len(mine), len(SCALARS)), dtype=np.int64)
    _batch(mine, theirs, idx, sc)
    return CANONICAL[idx], sc


def scalar_features(mine: int, theirs: int) -> np.ndarray[Any, Any]:
    """The whole-board terms of :data:`SCALARS` for the side to move."""
    out = np.zeros(len(SCALARS), dtype=np.int64)
    _scalars(np.uint64(mine), np.uint64(theirs), out)
    return out


@functools.cache
def load_weights() -> np.ndarray[Any, Any]:
    """The shipped weights as an ``int16`` array ``(N_PHASES, TABLE_SIZE)``, mirrors filled.

    The file holds ``weights`` (``int16``, canonical entries only, the rest zero) and
    ``table_size``; a file made for other patterns raises ``ValueError``.
    """
    ref = resources.files("game.logic.reversi").joinpath("data", WEIGHTS_FILE)
    with resources.as_file(ref) as path, np.load(path) as data:
        weights = np.asarray(data["weights"], dtype=np.int16)
    return expand_weights(weights)


def expand_weights(weights: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Copy each canonical entry onto the entries that share it (the form the search reads)."""
    if weights.shape != (N_PHASES, TABLE_SIZE):
        raise ValueError(
            f"pattern weights have shape {weights.shape}, expected {(N_PHASES, TABLE_SIZE)}"
        )
    return np.ascontiguousarray(weights[:, CANONICAL]).astype(np.int16)


def evaluate(position: Position) -> float:
    """The pattern evaluation of ``position`` for the side to move, in discs."""
    w = load_weights()
    return float(evaluate_bits(np.uint64(position.mine), np.uint64(position.theirs), w)) / 100


# --------------------------------------------------------------------------- compiled kernels


@njit(cache=True, nogil=True)
def _indices(p: np.uint64, o: np.uint64, out: np.ndarray) -> None:  # pragma: no cover
    """Write each instance's table entry (family offset included) into ``out``."""
    for i in range(N_PATTERNS):
        out[i] = _INST_OFFSET[i]
    m = p
    while m != _U0:
        low = m & (~m + _U1)
        sq = popcount(low - _U1)
        m ^= low
        for e in range(_SQ_COUNT[sq]):
            out[_SQ_INST[sq, e]] += _SQ_POWER[sq, e]
    m = o
    while m != _U0:
        low = m & (~m + _U1)
        sq = popcount(low - _U1)
        m ^= low
        for e in range(_SQ_COUNT[sq]):
            out[_SQ_INST[sq, e]] += 2 * _SQ_POWER[sq, e]


@njit(cache=True, nogil=True)
def _scalars(p: np.uint64, o: np.uint64, out: np.ndarray) -> None:  # pragma: no cover
    _features(p, o, out)


@njit(cache=True, nogil=True)
def _batch(
    mine: np.ndarray, theirs: np.ndarray, idx: np.ndarray, sc: np.ndarray
) -> None:  # pragma: no cover - compiled
    for i in range(mine.shape[0]):
        _indices(mine[i], theirs[i], idx[i])
        _scalars(mine[i], theirs[i], sc[i])


@njit(cache=True, nogil=True)
def evaluate_bits(p: np.uint64, o: np.uint64, w: np.ndarray) -> int:  # pragma: no cover
    """The evaluation in hundredths of a disc; ``w`` is :func:`load_weights`'s table."""
    idx = np.empty(N_PATTERNS, dtype=np.int64)
    _indices(p, o, idx)
    empties = 64 - popcount(p | o)
    k = min(empties // PHASE_STEP, N_PHASES - 1)
    row = w[k]
    total = np.int64(0)
    for i in range(N_PATTERNS):
        total += np.int64(row[idx[i]])
    f = np.empty(_N_SCALARS, dtype=np.int64)
    _features(p, o, f)
    for i in range(_N_SCALARS):
        total += f[i] * np.int64(row[_SCALAR_BASE + i])
    return int(total)


_cache_depends_on(__name__, kernels)
