"""Random playouts for ``gamehall bench GAME`` and the benchmarks: uniform random moves from
the start to the end of the game (or a ply cap), on the rulebook's make/unmake position.

>>> import random
>>> from game.logic.rules.catalogue import rulebook
>>> line = playouts(rulebook("tic-tac-toe"), 5, random.Random(1))
>>> line.startswith("playouts=5 ")
True
"""

from __future__ import annotations

import random
import time
from typing import Final

from game.logic.rules.rulebook import Rulebook

__all__ = ["PLY_CAP", "playouts", "run_playouts"]

#: Plies after which a playout stops (a draughts endgame of kings can last for ever).
PLY_CAP: Final = 1000


def run_playouts(rulebook: Rulebook, games: int, rng: random.Random) -> tuple[int, float]:
    """Plies played by ``games`` random playouts, and the seconds they took."""
    plies = 0
    started = time.perf_counter()
    for _ in range(games):
        pos = rulebook.start()
        for _ply in range(PLY_CAP):
            moves = rulebook.legal(pos)
            if rulebook.outcome(pos, moves) is not None:
                break
            rulebook.make(pos, rng.choice(moves))
            plies += 1
    return plies, time.perf_counter() - started


def playouts(rulebook: Rulebook, games: int, rng: random.Random) -> str:
    """``playouts=N seconds=S playouts_per_s=R plies_per_s=P mean_plies=M``."""
    plies, seconds = run_playouts(rulebook, games, rng)
    seconds = max(seconds, 1e-9)
    return (
        f"playouts={games} seconds={seconds:.3f} playouts_per_s={games / seconds:.1f} "
        f"plies_per_s={plies / seconds:.0f} mean_plies={plies / games:.1f}"
    )
