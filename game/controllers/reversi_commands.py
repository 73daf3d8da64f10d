"""The command table of the Reversi scene: every command declared once, read by the keys,
the HUD buttons, ``gamehall shot --do``, the F1 help and the F3 overlay."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from game.controllers.match_controls import (
    LIST_LENGTH,
    match_commands,
    move_list_commands,
    move_number,
    side_label,
)
from game.engine.commands import Command
from game.logic.reversi.board import PASS, Color, square_name

if TYPE_CHECKING:
    from game.controllers.reversi import ReversiController

__all__ = ["COLORS", "LIST_LENGTH", "build_commands", "move_number", "side_label"]

COLORS = (Color.BLACK, Color.WHITE)


def build_commands(c: ReversiController) -> list[Command]:
    """The commands of ``c``'s scene: the standard keys (H hint, N next, U undo, Y redo,
    R new game), Home and End, W swap, the side buttons, the move list, files, ``goto:N``
    for scripts and one command per square (``d3``) and ``pass``."""
    m = c.match
    settled: Callable[[], bool] = lambda: not c.animating()  # noqa: E731
    commands = match_commands(c, "the computer's best move here, with an arrow and its evaluation")
    commands += [
        Command("swap", c.swap, "Swap", "W", "exchange the players of the two colours",
                enabled=settled, why_disabled="Wait for the discs to settle."),
        Command("new", c.new_game, "New game", "R", "a new game (press twice while a "
                "game is in progress)"),
        Command("save", c.save, "Save", help="write the game as a transcript to the "
                "data folder"),
        Command("load", c.load, "Load", help="read the saved transcript back"),
        Command("save-to", c.save, group="", parse=Path, argument="a file",
                help="write the game as a transcript to a file"),
        Command("load-from", c.load, group="", parse=Path, argument="a file",
                help="read a transcript from a file"),
        Command("goto", c.goto, group="", parse=move_number, argument="a move number",
                help="the position after that move (0: the start)"),
    ]  # fmt: skip
    for color in COLORS:
        name = color.name.lower()
        commands.append(
            Command(
                name,
                lambda color=color: c.cycle_side(color),
                f"{color.name.title()}: {side_label(c.sides[color])}",
                group="options",
                help=f"who plays {name}: a person, or each computer level in turn",
            )
        )
    commands += move_list_commands(m, c.goto)
    for move in [*range(64), PASS]:
        commands.append(Command(square_name(move), lambda move=move: c.play(move), group=""))
    return commands
