"""MasterGrab's maps made in a worker process, so that the window neither compiles nor loads
numba (the first start compiled the map's kernels on the drawing thread for ten seconds and
more; later starts loaded numba there for a second or two).

:data:`PREPARE` readies a worker (:func:`game.logic.workers.pool.prepare`): it compiles
the kernels of :mod:`game.logic.grab.kernels` the first time, saying how far it got, or loads
them from numba's disk cache. :func:`make_map` then runs there (the window's
:mod:`game.games.grab.making` asks for it with :func:`game.logic.workers.pool.submit`): the
map of a game's :meth:`~game.logic.grab.game.GrabGame.map_arguments` and the places of its
army numbers, which travel back pickled (a default map: a few megabytes).

>>> from game.logic.grab.options import GrabOptions
>>> made, spots = make_map(GrabOptions(countries=20), 200, 120, 5, None)
>>> made.countries, len(spots.points)
(20, 20)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from game.logic.grab.labels import LabelSpots, label_spots
from game.logic.grab.map import GrabMap, generate_map
from game.logic.grab.options import GrabOptions

__all__ = ["PREPARE", "make_map", "prepare"]

#: The preparation of a worker that makes maps (``module:function``).
PREPARE: Final = "game.logic.grab.making:prepare"


def prepare(report: Callable[[float], None] | None = None) -> None:
    """Compile (or load from the disk cache) every kernel a map needs, on a small map;
    ``report(fraction)`` after each one compiled."""
    from game.logic.compiling import compile_progress
    from game.logic.grab import kernels

    with compile_progress([kernels], report):
        make_map(GrabOptions(countries=20), 80, 50, 0, None)


def make_map(
    options: GrabOptions, width: int, height: int, seed: int, countries: int | None
) -> tuple[GrabMap, LabelSpots]:
    """The map :func:`~game.logic.grab.map.generate_map` makes of these arguments, and its
    army numbers' places (:func:`~game.logic.grab.labels.label_spots`)."""
    made = generate_map(options, width, height, seed, countries=countries)
    return made, label_spots(made)
