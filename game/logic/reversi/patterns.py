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

from . import evaluation, kernels
from .evaluation import FEATURES, _cache_depends_on, _feature_values, _features
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


# How the kernels read a pattern instance: its squares are split into *parts*, each lying on one
# line of the board (a row, a column, a diagonal or an anti-diagonal). A line's 8 squares of one
# bitboard gather into a byte with a shift, a mask, a multiplication and a shift by 56: bit ``b``
# of the byte is the line's square in column ``b`` (in row ``b`` for a column), and the shifted
# copies of the masked bits that the multiplication adds up never overlap, so nothing carries.
# A 256-entry table per part then gives the sum of ``3**d`` over the part's squares set in that
# byte, ``d`` being the square's digit in the instance. The instance's index is its family
# offset plus, over its parts, ``table[mine byte] + 2 * table[theirs byte]``.

_COL_A: Final = 0x0101010101010101
_PACK_COLUMN: Final = 0x0102040810204080  # column A's bits 0, 8, .. 56 -> bits 56 .. 63
_PACK_DIAGONAL: Final = 0x0101010101010101  # adds up the rows' bytes into the top byte


def _lines() -> list[tuple[int, int, int, dict[int, int]]]:
    """Every line as ``(shift, mask, multiplier, {square: bit of the gathered byte})``.

    ``(((board >> shift) & mask) * multiplier) >> 56`` (modulo ``2**64``) is the line's byte.
    """
    lines = []
    for r in range(8):
        lines.append((8 * r, 0xFF, 1 << 56, {r * 8 + c: c for c in range(8)}))
    for c in range(8):
        lines.append((c, _COL_A, _PACK_COLUMN, {r * 8 + c: r for r in range(8)}))
    for s in range(-7, 8):  # column - row = s, then row + column = s + 7
        diagonal = {r * 8 + r + s: r + s for r in range(8) if 0 <= r + s < 8}
        anti = {r * 8 + s + 7 - r: s + 7 - r for r in range(8) if 0 <= s + 7 - r < 8}
        for squares in (diagonal, anti):
            mask = sum(1 << sq for sq in squares)
            lines.append((0, mask, _PACK_DIAGONAL, squares))
    return lines


def _split_into_parts() -> tuple[np.ndarray, np.ndarray]:
    """The parts of every instance, in instance order, and the tables they read.

    Each instance is split into parts greedily, the line holding most of its squares still to
    cover first. Returns ``parts`` (``uint64``, one row per part: the line's shift, mask and
    multiplier, the start of the part's table in ``tables``, and 1 if the part is its
    instance's last, else 0) and ``tables`` (``uint16``, 256 entries per distinct table: entry
    ``byte`` is the sum of ``3**d`` over the part's squares set in ``byte``).
    """
    lines = _lines()
    parts: list[tuple[int, int, int, int, int]] = []
    tables: list[tuple[int, ...]] = []
    for _, squares in INSTANCES:
        power = {sq: 3**d for d, sq in enumerate(squares)}
        left = set(squares)
        while left:
            shift, mask, mult, bits = max(lines, key=lambda line: len(left & line[3].keys()))
            taken = left & bits.keys()
            left -= taken
            table = tuple(
                sum(power[sq] for sq in taken if byte >> bits[sq] & 1) for byte in range(256)
            )
            if max(table) >= 1 << 16:
                raise ValueError("a part's table does not fit in uint16")
            if table not in tables:
                tables.append(table)
            parts.append((shift, mask, mult, 256 * tables.index(table), int(not left)))
    return np.array(parts, dtype=np.uint64), np.array(tables, dtype=np.uint16).ravel()


_PARTS, _PART_TABLES = _split_into_parts()
_N_PARTS: Final = len(_PARTS)
_INST_OFFSET: Final = np.array([_OFFSETS[f] for f, _ in INSTANCES], dtype=np.uint64)
_SHIFT, _MASK, _MULT, _TABLE, _LAST = range(5)  # the columns of _PARTS
_U0: Final = np.uint64(0)
_U2: Final = np.uint64(2)
_S56: Final = np.uint64(56)


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


@njit(cache=True, nogil=True, inline="always")
def _part_value(p: np.uint64, o: np.uint64, j: int) -> np.uint64:  # pragma: no cover
    """Part ``j``'s share of its instance's index: ``table[mine byte] + 2 * table[theirs byte]``."""
    part = _PARTS[j]
    shift = part[_SHIFT]
    mask = part[_MASK]
    mult = part[_MULT]
    table = part[_TABLE]
    mine = (((p >> shift) & mask) * mult) >> _S56
    theirs = (((o >> shift) & mask) * mult) >> _S56
    return np.uint64(_PART_TABLES[table + mine]) + _U2 * np.uint64(_PART_TABLES[table + theirs])


@njit(cache=True, nogil=True)
def _indices(p: np.uint64, o: np.uint64, out: np.ndarray) -> None:  # pragma: no cover
    """Write each instance's table entry (family offset included) into ``out``."""
    i = 0
    index = _U0
    for j in range(_N_PARTS):  # the instances' parts in order; the last closes its instance
        index += _part_value(p, o, j)
        if _PARTS[j, _LAST]:
            out[i] = _INST_OFFSET[i] + index
            i += 1
            index = _U0


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
    empties = 64 - popcount(p | o)
    k = min(empties // PHASE_STEP, N_PHASES - 1)
    row = w[k]
    total = np.int64(0)
    i = 0
    index = _U0
    for j in range(_N_PARTS):  # as in _indices, looking the weight up instead of storing
        index += _part_value(p, o, j)
        if _PARTS[j, _LAST]:
            total += np.int64(row[_INST_OFFSET[i] + index])
            i += 1
            index = _U0
    scalars = _feature_values(p, o)
    for i in range(_N_SCALARS):
        total += scalars[i] * np.int64(row[_SCALAR_BASE + i])
    return int(total)


_cache_depends_on(__name__, kernels, evaluation)
