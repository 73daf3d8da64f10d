"""The speed figures of ``gamehall bench grab`` (and ``benchmarks/grab.py``).

:func:`speed_lines` yields, each as soon as it is measured:

* ``mapgen countries=140 size=1280x720 seconds=..``: median of 5 maps (after one map that
  compiles or loads numba's kernel), and the same for 1000 countries at 3840x2160 (median of
  3);
* ``robot=basic countries=140 median_ms=..`` and ``robot=strategic ...``: median seconds per
  move over every move of 3 games (4 basic robots; strategic against 3 basic), each move as
  the match asks its agent for it, the robot's copy of the game included (eliminated robots
  are not asked);
* ``game robots=4 countries=140 seconds=.. rounds=..``: a whole game of 4 basic robots
  (making the map and the match included), median over 3 seeds.

``quick`` (``gamehall bench grab --quick``) measures each figure once: one map of each size,
one game of each kind; the same lines, from a single sample.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from typing import Final

from game.logic.grab.game import play_rounds, robots_match
from game.logic.grab.map import generate_map
from game.logic.grab.options import GrabOptions
from game.logic.grab.state import GrabState

#: Rounds after which a benchmark game stops (four basic robots finish in 150 to 600).
MAX_ROUNDS: Final = 1000
#: Seconds a robot may think per benchmark move: generous, so a busy machine loses no move.
BUDGET_S: Final = 30.0


def speed_lines(seed: int = 0, *, quick: bool = False) -> Iterator[str]:
    """The lines described in the module docstring (``quick``: from one sample each)."""
    options = GrabOptions(human_playing=False, robots=("basic",) * 4)
    generate_map(options, 1280, 720, 0)  # compile (or load the cached kernel) first
    samples = 1 if quick else 3
    sizes = ((140, 1280, 720, 1 if quick else 5), (1000, 3840, 2160, samples))
    for countries, width, height, count in sizes:
        seconds = []
        for s in range(count):
            started = time.perf_counter()
            generate_map(options, width, height, seed + s, countries=countries)
            seconds.append(time.perf_counter() - started)
        yield (
            f"mapgen countries={countries} size={width}x{height} "
            f"seconds={statistics.median(seconds):.3f}"
        )
    basic_games = [timed_game(("basic",) * 4, seed + s) for s in range(samples)]
    moves = [t for _, _, thinking in basic_games for times in thinking for t in times]
    yield f"robot=basic countries=140 median_ms={1000 * statistics.median(moves):.2f}"
    strategic_moves: list[float] = []
    for s in range(samples):
        seats = ("basic",) * (s % 4) + ("strategic",) + ("basic",) * (3 - s % 4)
        _, _, thinking = timed_game(seats, seed + s)
        strategic_moves += thinking[seats.index("strategic")]
    yield f"robot=strategic countries=140 median_ms={1000 * statistics.median(strategic_moves):.2f}"
    yield (
        f"game robots=4 countries=140 seconds={statistics.median(g[0] for g in basic_games):.2f}"
        f" rounds={statistics.median(g[1] for g in basic_games):g}"
    )


def timed_game(seats: tuple[str, ...], seed: int) -> tuple[float, int, list[list[float]]]:
    """Seconds for a whole 140-country game of the built-in robots ``seats`` (map and match
    made included), its rounds and each seat's seconds per move.

    The game starts on ``generate_map(options, 1280, 720, seed)`` with armies drawn from
    ``random.Random(seed)``, the same positions every version of this benchmark has played, so
    its figures compare across versions (a match's own start draws the map seed from its rng).
    """
    started = time.perf_counter()
    options = GrabOptions(human_playing=False, robots=seats)
    start = GrabState.new(generate_map(options, 1280, 720, seed), options, random.Random(seed))
    with robots_match(seats, seed, budget_s=BUDGET_S, start=start) as match:
        rounds = play_rounds(match, MAX_ROUNDS)
        thinking = [list(seconds.moves) for seconds in match.seconds]
    return time.perf_counter() - started, rounds, thinking


__all__ = ["MAX_ROUNDS", "speed_lines", "timed_game"]
