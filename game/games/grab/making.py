"""MasterGrab's maps for the window, ordered from a worker process.

A map is made by numba kernels (:mod:`game.logic.grab.kernels`). In a window they never run
on the drawing thread: a :class:`MapOrder` asks a worker (readied by
:mod:`game.logic.grab.making`) for the map a new game will be played on, its numbers' places
and its mesh (:func:`make_map_and_mesh`; the mesh is numpy work of a few hundred milliseconds
on a busy machine), while the scene keeps drawing and the banner says what it waits for (the
first start: the kernels compiling, with how far they got). When the map has come, the game
takes it (:meth:`~game.logic.grab.game.GrabGame.premake`) and the match starts on it as it
would have on one made here: the same seed, the same map.

Without a window (``gamehall shot``, the tests) the map is made in the process: there are no
frames to keep, and a worker would only cost its start.
"""

from __future__ import annotations

import concurrent.futures
import logging
from dataclasses import dataclass
from typing import Any

from game.games.grab.mesh import MapMesh, build_map_mesh
from game.logic.grab.game import GrabGame, map_seed_of
from game.logic.grab.labels import LabelSpots
from game.logic.grab.making import PREPARE, make_map
from game.logic.grab.map import GrabMap
from game.logic.grab.options import GrabOptions
from game.logic.workers.pool import submit

__all__ = ["MapOrder", "make_map_and_mesh", "prepare_maps"]

#: What the worker runs for an order (``module:function``).
MAKE = "game.games.grab.making:make_map_and_mesh"

log = logging.getLogger(__name__)

#: What the banner says while the map is made (and the engine is ready).
MAKING = "Drawing the map…"


@dataclass
class MapOrder:
    """A map asked of a worker for the game ``game`` will start with ``seed``; ``kept`` is
    what the controller will replay on it (a game kept when the person left)."""

    game: GrabGame
    options: GrabOptions
    seed: int
    kept: Any
    future: concurrent.futures.Future[Any]

    @classmethod
    def place(cls, game: GrabGame, options: GrabOptions, seed: int, kept: Any) -> MapOrder:
        arguments = game.map_arguments(map_seed_of(seed))
        return cls(game, options, seed, kept, submit(PREPARE, MAKE, *arguments))

    def done(self) -> bool:
        return self.future.done()

    def take(self) -> tuple[LabelSpots, MapMesh] | None:
        """Hand the map to the game; its numbers' places and its mesh, or None when the
        worker failed (logged: the map is then made here, the old way, and the game goes
        on)."""
        try:
            grab_map, spots, mesh = self.future.result()
        except Exception as exc:  # a worker that died or could not compile
            log.warning("the map could not be made in a worker (%s); making it here", exc)
            return None
        self.game.premake(map_seed_of(self.seed), grab_map)
        return spots, mesh

    def describe(self) -> str:
        """What the banner says while the order waits: the kernels' progress on the first
        start, else that the map is being drawn."""
        from game.logic.workers.pool import Stage, preparation

        prep = preparation(PREPARE)
        if prep is not None and prep.stage in (Stage.COMPILING, Stage.FAILED):
            return prep.describe()
        return MAKING


def make_map_and_mesh(
    options: GrabOptions, width: int, height: int, seed: int, countries: int | None
) -> tuple[GrabMap, LabelSpots, MapMesh]:
    """In the worker: :func:`~game.logic.grab.making.make_map`, and the map's mesh as the
    view builds it."""
    grab_map, spots = make_map(options, width, height, seed, countries)
    mesh = build_map_mesh(grab_map.owner, grab_map.centres, mountains=grab_map.mountains)
    return grab_map, spots, mesh


def prepare_maps() -> None:
    """Start readying a worker for maps now (the menu's warm-up: the first game's map then
    waits for no compile)."""
    from game.logic.workers.pool import prepare

    prepare(PREPARE)
