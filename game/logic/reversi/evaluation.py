"""Midgame evaluation for the Reversi search: bitboard features weighted by game phase.

The score is from the side to move's point of view, in hundredths of a disc: the weights were
fitted so that the evaluation predicts the final disc difference. Every feature is a
difference *side to move minus opponent* (or a plain indicator), and each has a weight at 13
phase points, 0, 5, 10, ..., 60 empty squares; between two points the weight is the
straight-line blend of theirs.

Features, all cheap bitboard counts:

``mobility``
    legal moves, mine minus theirs.
``mobility_ratio``
    ``100 * (mine - theirs) / (mine + theirs + 2)``: running out of moves matters more than
    the raw difference says.
``corner_access``
    corners among those legal moves.
``potential_mobility``
    empty squares next to an opponent disc, minus empty squares next to one of mine.
``frontier``
    discs next to an empty square, theirs minus mine.
``corners``
    corners held.
``x_squares`` / ``c_squares``
    discs on the squares next to an *empty* corner, theirs minus mine.
``edges``
    discs on the edges, corners left out.
``stable``
    discs that can never be flipped (:func:`game.logic.reversi.kernels.stable_discs`).
``discs``
    the disc count.
``parity``
    +1 when the number of empty squares is odd (the side to move should get the last move),
    else -1.
``tempo``
    1: what being the side to move is worth.

How the weights were found (``benchmarks/reversi_strength.py --fit`` repeats it): starting
from hand-set weights (:data:`HAND_WEIGHTS`), 6000 self-play games (a few noisy plies, then a
3-ply search and perfect play over the last 14 squares) gave some 280 000 positions labelled
with the final disc difference; a least-squares fit of the features with the same phase
interpolation gave new weights, and a second round played with those gave :data:`WEIGHTS`.
Against the hand-set weights they win about 90% of the games at 5 plies.

``explain(position)`` returns the weighted terms (in discs) for the debug overlay.
"""

from __future__ import annotations

import hashlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numba import njit

from . import kernels
from .kernels import legal_moves, popcount, potential_mobility, stable_discs

if TYPE_CHECKING:
    from .board import Position

__all__ = [
    "FEATURES",
    "HAND_WEIGHTS",
    "PHASE_STEP",
    "WEIGHTS",
    "evaluate",
    "explain",
    "feature_vector",
]

#: Feature names, in the order of the rows of :data:`WEIGHTS`.
FEATURES: Final = (
    "mobility",
    "mobility_ratio",
    "corner_access",
    "potential_mobility",
    "frontier",
    "corners",
    "x_squares",
    "c_squares",
    "edges",
    "stable",
    "discs",
    "parity",
    "tempo",
)

#: Empty squares between two phase points of :data:`WEIGHTS` (columns at 0, 5, ..., 60).
PHASE_STEP: Final = 5
_N_PHASES: Final = 60 // PHASE_STEP + 1

# Rules of thumb, (60 empties, 0 empties): the starting point of the fit.
_HAND: Final = (
    (70, 20),  # mobility
    (0, 0),  # mobility_ratio
    (60, 20),  # corner_access
    (30, 5),  # potential_mobility
    (15, 5),  # frontier
    (700, 250),  # corners
    (250, 40),  # x_squares
    (60, 10),  # c_squares
    (0, 0),  # edges
    (120, 60),  # stable
    (-4, 100),  # discs
    (0, 120),  # parity
    (0, 0),  # tempo
)


def _hand_weights() -> np.ndarray[Any, Any]:
    w = np.zeros((len(FEATURES), _N_PHASES), dtype=np.int32)
    for i, (opening, end) in enumerate(_HAND):
        for k in range(_N_PHASES):
            e = k * PHASE_STEP
            w[i, k] = (opening * e + end * (60 - e)) // 60
    return w


#: Hand-set weights, the starting point of the fit (same layout as :data:`WEIGHTS`).
HAND_WEIGHTS: Final = _hand_weights()

#: Weights in hundredths of a disc: row per feature, column per phase point (empties 0..60).
WEIGHTS: Final = np.array(
    [
        [143, 109, 53, 36, -1, 44, 73, -169, 7, -283, 198, -215, -724],  # mobility
        [0, 7, 21, 22, 20, 11, 10, 37, 4, 36, -1, 61, -67],  # mobility_ratio
        [-70, 191, 302, 426, 393, 276, 366, 280, 354, 320, 553, 663, 602],  # corner_access
        [-310, -178, -126, -24, 5, 40, 26, 98, 114, 117, -32, -291, -722],  # potential_mobility
        [61, 120, 92, 61, 91, 119, 68, 85, 34, 69, 555, 1660, 1962],  # frontier
        [-17, 185, 297, 420, 612, 874, 1133, 1510, 1977, 2203, 2032, 1710, 1555],  # corners
        [65, 27, 122, 177, 484, 1016, 1430, 1688, 2099, 1992, 2108, 2089, 1914],  # x_squares
        [67, -29, 24, 26, 85, 100, 34, -103, 680, 1592, 2288, 1848, 1680],  # c_squares
        [-3, -46, -49, -28, -18, -5, 23, -7, 60, 256, 36, 79, 72],  # edges
        [134, 108, 111, 116, 119, 88, 124, 190, 218, 252, 510, 420, 382],  # stable
        [-33, 20, 14, -6, 4, 34, 3, 29, 23, -20, 617, 1555, 961],  # discs
        [236, 64, -32, -31, -3, 136, 211, 300, 326, 381, 622, 1827, 3021],  # parity
        [189, -54, -148, -137, -198, -211, -208, -197, -195, -330, 251, 840, -22],  # tempo
    ],
    dtype=np.int32,
)

_N_FEATURES: Final = len(FEATURES)

_U1: Final = np.uint64(1)
_NOT_A: Final = np.uint64(0xFEFEFEFEFEFEFEFE)  # every file but A: a shift east lands here
_NOT_H: Final = np.uint64(0x7F7F7F7F7F7F7F7F)
_CORNERS: Final = np.uint64(0x8100000000000081)
_EDGES: Final = np.uint64(0x7E8181818181817E)  # the four edges without the corners

# (corner, X square, C square, C square) with A1 = 0, H8 = 63.
_CORNER_SQUARES: Final = np.array(
    [[0, 9, 1, 8], [7, 14, 6, 15], [56, 49, 57, 48], [63, 54, 62, 55]], dtype=np.int64
)


def evaluate(position: Position) -> float:
    """The evaluation of ``position`` for the side to move, in discs."""
    return float(_evaluate(np.uint64(position.mine), np.uint64(position.theirs), WEIGHTS)) / 100


def explain(position: Position) -> dict[str, float]:
    """The weighted evaluation terms of ``position`` (side to move's view, in discs).

    The feature terms add up to ``total``; ``empties`` is the phase the weights were blended
    at.
    """
    p, o = np.uint64(position.mine), np.uint64(position.theirs)
    terms = _terms(p, o, WEIGHTS)
    out = {name: float(terms[i]) / 100 for i, name in enumerate(FEATURES)}
    out["total"] = float(_evaluate(p, o, WEIGHTS)) / 100
    out["empties"] = float(position.empties)
    return out


def feature_vector(mine: int, theirs: int) -> np.ndarray[Any, Any]:
    """The raw features of a position (side to move's discs first), then the empty count."""
    return _feature_array(np.uint64(mine), np.uint64(theirs))


# --------------------------------------------------------------------------- private helpers


def _cache_depends_on(module_name: str, *dependencies: ModuleType) -> None:
    """Make numba's disk cache of ``module_name``'s compiled functions depend on other modules.

    Numba checks only the source file of a cached function, not the files of the functions it
    calls: after an edit of ``kernels.py`` the search would load machine code still holding the
    old kernels. Folding the dependencies' contents (a hash of each file, not its modification
    time, so that a reinstall of the same code keeps the cache: see :mod:`game.places`) into
    the stamp numba compares fixes that. List every module whose compiled functions the module
    calls, directly or through another. (This reaches into numba's cache object; if a numba
    version lays it out differently, caching simply keeps numba's own behaviour.)
    """
    stamps = []
    for module in dependencies:
        path = getattr(module, "__file__", None)
        if path is None:  # pragma: no cover - frozen
            return
        with open(path, "rb") as source:
            stamps.append((module.__name__, hashlib.sha256(source.read()).hexdigest()))
    for value in vars(sys.modules[module_name]).values():
        cache_file = getattr(getattr(value, "_cache", None), "_cache_file", None)
        stamp = getattr(cache_file, "_source_stamp", None)
        if stamp is not None:
            cache_file._source_stamp = (stamp, tuple(stamps))  # type: ignore[union-attr]


@njit(cache=True, nogil=True, inline="always")
def _neighbours(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """Squares next to (in the 8 directions) any square of ``x``."""
    side = ((x << _U1) & _NOT_A) | ((x >> _U1) & _NOT_H)
    band = x | side
    return side | (band << np.uint64(8)) | (band >> np.uint64(8))


@njit(cache=True, nogil=True)
def _features(p: np.uint64, o: np.uint64, out: np.ndarray) -> int:  # pragma: no cover
    """Write the raw features into ``out`` (length >= 13); return the empty count."""
    values = _feature_values(p, o)
    for i in range(_N_FEATURES):
        out[i] = values[i]
    return 64 - popcount(p | o)


@njit(cache=True, nogil=True)
def _feature_values(p: np.uint64, o: np.uint64) -> tuple[int, ...]:  # pragma: no cover
    """The raw features, in the order of :data:`FEATURES`, as a tuple (nothing allocated)."""
    occupied = p | o
    empty = ~occupied
    empties = popcount(empty)
    mp = legal_moves(p, o)
    mo = legal_moves(o, p)
    n_mp = popcount(mp)
    n_mo = popcount(mo)
    corner_access = popcount(mp & _CORNERS) - popcount(mo & _CORNERS)
    potential = potential_mobility(p, o) - potential_mobility(o, p)
    edge_of_empty = _neighbours(empty)
    frontier = popcount(o & edge_of_empty) - popcount(p & edge_of_empty)
    corners = popcount(p & _CORNERS) - popcount(o & _CORNERS)
    x_squares = 0
    c_squares = 0
    for i in range(4):
        if occupied & (_U1 << np.uint64(_CORNER_SQUARES[i, 0])):
            continue
        x = _U1 << np.uint64(_CORNER_SQUARES[i, 1])
        cc = (_U1 << np.uint64(_CORNER_SQUARES[i, 2])) | (_U1 << np.uint64(_CORNER_SQUARES[i, 3]))
        x_squares += popcount(o & x) - popcount(p & x)
        c_squares += popcount(o & cc) - popcount(p & cc)
    edges = popcount(p & _EDGES) - popcount(o & _EDGES)
    tempo = int(np.int64(1))  # not a literal, so that the tuple holds one type
    stable = 0
    if occupied & _CORNERS or empties < 24:  # before a corner is taken hardly any disc is
        stable = popcount(stable_discs(p, o)) - popcount(stable_discs(o, p))
    return (
        n_mp - n_mo,
        100 * (n_mp - n_mo) // (n_mp + n_mo + 2),
        corner_access,
        potential,
        frontier,
        corners,
        x_squares,
        c_squares,
        edges,
        stable,
        popcount(p) - popcount(o),
        1 if empties & 1 else -1,
        tempo,
    )


@njit(cache=True, nogil=True)
def _feature_array(p: np.uint64, o: np.uint64) -> np.ndarray:  # pragma: no cover - compiled
    out = np.zeros(_N_FEATURES + 1, dtype=np.int64)
    out[_N_FEATURES] = _features(p, o, out)
    return out


@njit(cache=True, nogil=True)
def _terms(p: np.uint64, o: np.uint64, w: np.ndarray) -> np.ndarray:  # pragma: no cover
    """Each feature times its weight blended for the phase, hundredths of a disc."""
    f = np.zeros(_N_FEATURES, dtype=np.int64)
    empties = _features(p, o, f)
    k = min(empties, 60) // PHASE_STEP
    t = min(empties, 60) - k * PHASE_STEP
    k2 = min(k + 1, _N_PHASES - 1)
    for i in range(_N_FEATURES):
        weight = (np.int64(w[i, k]) * (PHASE_STEP - t) + np.int64(w[i, k2]) * t) // PHASE_STEP
        f[i] *= weight
    return f


@njit(cache=True, nogil=True)
def _evaluate(p: np.uint64, o: np.uint64, w: np.ndarray) -> int:  # pragma: no cover - compiled
    """Weighted sum of the features, side to move's view, hundredths of a disc."""
    f = np.empty(_N_FEATURES, dtype=np.int64)
    empties = _features(p, o, f)
    k = min(empties, 60) // PHASE_STEP
    t = min(empties, 60) - k * PHASE_STEP
    k2 = min(k + 1, _N_PHASES - 1)
    total = 0
    for i in range(_N_FEATURES):
        total += f[i] * np.int64(w[i, k]) * (PHASE_STEP - t) + f[i] * np.int64(w[i, k2]) * t
    return total // PHASE_STEP


_cache_depends_on(__name__, kernels)
