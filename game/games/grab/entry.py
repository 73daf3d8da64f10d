"""MasterGrab in the registry: its options and its robots; its scene controller, its command
line (:mod:`game.games.grab.hooks`) and its card's picture are where every game has them
(:class:`game.registry.Entry`).

The robots a game may seat are the built-in ones (``simple``, ``basic``, ``strategic``), the
Python files in the ``robots`` folder of the gamehall home (``GAMEHALL_HOME``) and the entry
points of the group ``gamehall.robots``; each plays as an agent in its sandbox. The hint is
the ``strategic`` robot, the same agent a computer seat of that kind is.

``play`` and ``shot`` take the options as flags (``--countries N``, ``--robots a,b,c``,
``--distribution compact`` ...).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from game.logic.grab.options import SCHEMA
from game.registry import Entry, UnknownAgentError

if TYPE_CHECKING:
    from game.logic.grab.discovery import RobotRegistry
    from game.logic.grab.game import GrabGame
    from game.logic.grab.sandbox import RobotAgent

_REGISTRY: RobotRegistry | None = None
#: Held while the robots are found: the window's warm-up thread finds them while the menu
#: shows, and a game opened meanwhile waits for that search instead of making a second one.
_FINDING = threading.Lock()


def robot_registry() -> RobotRegistry:
    """The robots of this program (found once, on first use: the window's warm-up looks them
    up ahead): built-ins, the robots folder under the gamehall home, entry points. Problems
    finding them are logged."""
    global _REGISTRY
    with _FINDING:
        if _REGISTRY is None:
            from game.logic.grab.discovery import RobotRegistry
            from game.settings import home_dir

            folder = home_dir() / "robots"
            _REGISTRY = RobotRegistry(folder if folder.is_dir() else None)
        return _REGISTRY


def _make_game(options: Mapping[str, Any]) -> GrabGame:
    from game.logic.grab.game import GrabGame

    return GrabGame(options)


def _agents() -> dict[str, str]:
    return robot_registry().describe()


def _make_agent(name: str, options: Mapping[str, Any]) -> RobotAgent:
    from game.logic.grab.robot import UnknownRobotError

    memory = options.get("robot_memory_mb")
    try:
        return robot_registry().agent(name, memory_mb=None if memory is None else int(memory))
    except UnknownRobotError as exc:
        raise UnknownAgentError(str(exc)) from None


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    """A robots-only game with one robot player per agent name (tournaments)."""
    return {"human_playing": False, "robots": ",".join(agents)}


ENTRY = Entry(
    # Named here, not taken from GrabGame: its module loads when the first game is made.
    id="grab",
    title="MasterGrab",
    summary="Conquer a borderless map against robots.",
    options=SCHEMA,
    make_game=_make_game,
    agents=_agents,
    make_agent=_make_agent,
    hint_agent="strategic",
    controller="GrabController",
    # The frame-time benchmark draws the biggest map: 1000 countries at 3840x2160.
    bench_render={"countries": 1000, "size": (3840, 2160), "seed": 1},
    seat_options=_seat_options,
    # The window's maps are made in a worker process readied by this (numba's kernels).
    prepare="game.logic.grab.making:prepare",
)
