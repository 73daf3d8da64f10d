"""Reversi in the registry: its options, its computer levels, its scene controller,
``gamehall solve reversi`` and ``gamehall bench reversi`` (:mod:`game.games.reversi.hooks`).

``play`` and ``shot`` take the options as flags (``--black LEVEL``, ``--white LEVEL``,
``--time-per-move S``, ``--time S`` for short; the look: ``--animation/--no-animation``,
``--animation-speed slow|normal|fast``, ``--legal-marks/--no-legal-marks``,
``--last-move-mark/--no-last-move-mark``, ``--theme classic|wood|contrast``) and ``--load
FILE``, a saved transcript. A
``shot`` is a scripted game: both colours are played by its ``--do`` list unless ``--black``
or ``--white`` names a computer level.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

from game.games.flags import time_flag
from game.games.reversi.hooks import HOOKS
from game.games.reversi.look import SPEEDS, THEMES
from game.logic.options import Option, OptionsSchema
from game.logic.reversi.game import DEFAULT_HINT, HUMAN, ReversiGame
from game.logic.reversi.game import OPTIONS as GAME_OPTIONS
from game.registry import Entry, agent_maker

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


def _agents() -> dict[str, str]:
    from game.logic.reversi.players import PLAYERS

    return {name: player.description for name, player in PLAYERS.items()}


# -- play and shot --------------------------------------------------------------------------


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    time_flag(parser, "the computer's seconds for a move (short for --time-per-move)")
    parser.add_argument("--load", type=Path, help="a saved Reversi game (a transcript like f5d6c3)")


def _play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """``moves`` from ``--load`` (a bad file is a ValueError naming it); for ``shot``, a
    person on each colour that ``--black`` / ``--white`` left unnamed."""
    from game.logic.reversi.board import ReversiError, parse_transcript
    from game.userfiles import read_text

    out: dict[str, Any] = {}
    path = getattr(args, "load", None)
    if path is not None:
        text = read_text(path, "Reversi transcript")
        try:
            out["moves"] = parse_transcript(text)
        except ReversiError as exc:
            raise ValueError(f"{path}: not a Reversi transcript: {exc}") from None
    if getattr(args, "command", None) == "shot":
        out["black"] = getattr(args, "black", None) or HUMAN
        out["white"] = getattr(args, "white", None) or HUMAN
    return out


ENTRY = Entry(
    id="reversi",
    title="Reversi",
    summary="Outflank and flip discs against the computer at nine levels.",
    options=OPTIONS,
    make_game=ReversiGame,
    agents=_agents,
    make_agent=agent_maker("game.logic.reversi.players:get_agent", "UnknownPlayerError"),
    hint_agent=DEFAULT_HINT,
    opponents=("black", "white"),
    warm_up=True,  # the engine's compiled kernels load on its first search
    # The kernels compile (the first start) or load in a worker process, which then thinks:
    # the window's process never holds numba's compiler or its lock.
    compiled_search="game.logic.reversi.players:prepare",
    controller="game.games.reversi.controller:ReversiController",
    picture="scenes/cards/reversi.png",
    statistics="game.games.reversi.stats:statistics_sheet",
    hooks=HOOKS,
    play_arguments=_play_arguments,
    play_overrides=_play_overrides,
)
