"""Reversi in the registry: its options and its computer levels; its scene controller, its
command line (:mod:`game.games.reversi.hooks`) and its card's picture are where every game
has them (:class:`game.registry.Entry`).

``play`` and ``shot`` take the options as flags (``--black LEVEL``, ``--white LEVEL``,
``--time-per-move S``; the look: ``--animation/--no-animation``,
``--animation-speed slow|normal|fast``, ``--legal-marks/--no-legal-marks``,
``--last-move-mark/--no-last-move-mark``, ``--theme classic|wood|contrast``).
"""

from __future__ import annotations

from typing import Final

from game.games.reversi.look import SPEEDS, THEMES
from game.logic.options import Option, OptionsSchema
from game.logic.reversi.game import DEFAULT_HINT, ReversiGame
from game.logic.reversi.game import OPTIONS as GAME_OPTIONS
from game.registry import Entry

#: How the board looks and moves play: the window reads them, the game's logic does not.
LOOK_OPTIONS: Final = (
    Option("animation", bool, True, help="animate moves: discs drop in and turn over"),
    Option("animation_speed", str, "normal", choices=tuple(SPEEDS),
           help="how fast moves play when animated"),
    Option("legal_marks", bool, True, help="rings on the squares where you may play"),
    Option("last_move_mark", bool, True, help="a dot on the disc played last"),
    Option("theme", str, "classic", choices=tuple(THEMES),
           help="the colours of the board and the discs"),
)  # fmt: skip
#: Every Reversi option: who plays, the computer's time, then the look.
OPTIONS: Final = OptionsSchema((*GAME_OPTIONS.options, *LOOK_OPTIONS))


ENTRY = Entry(
    make_game=ReversiGame,
    summary="Outflank and flip discs against the computer at nine levels.",
    options=OPTIONS,
    roster="game.logic.reversi.players",
    hint_agent=DEFAULT_HINT,
    opponents=("black", "white"),
    warm_up=True,  # the engine's compiled kernels load on its first search
    # The kernels compile (the first start) or load in a worker process, which then thinks:
    # the window's process never holds numba's compiler or its lock.
    compiled_search="game.logic.reversi.players:prepare",
    controller="ReversiController",
    statistics="game.games.reversi.stats:statistics_sheet",
)
