"""Gamehall: thinking games in a real 3D window."""

from game.places import use_numba_cache

__version__ = "0.1.0"

# Before any module imports numba, which reads its cache folder once (see game.places).
use_numba_cache()
