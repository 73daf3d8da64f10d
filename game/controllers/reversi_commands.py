"""The command table of the Reversi scene: every command declared once, read by the keys,
the HUD buttons, ``gamehall shot --do``, the F1 help and the F3 overlay."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from game.engine.commands import Command
from game.logic.reversi.board import PASS, Color, square_name
from game.logic.reversi.game import HUMAN

if TYPE_CHECKING:
    from game.controllers.reversi import ReversiController

__all__ = ["COLORS", "LIST_LENGTH", "build_commands", "move_number", "side_label"]

LIST_LENGTH = 12  # moves shown in the HUD's move list
COLORS = (Color.BLACK, Color.WHITE)


def build_commands(c: ReversiController) -> list[Command]:
    """The commands of ``c``'s scene: the standard keys (H hint, N next, U undo, Y redo,
    R new game), Home and End, W swap, the side buttons, the move list, files, ``goto:N``
    for scripts and one command per square (``d3``) and ``pass``."""
    m = c.match
    settled: Callable[[], bool] = lambda: not c.animating()  # noqa: E731
    commands = [
        Command("hint", c.hint, "Hint", "H", "the computer's best move here, with an "
                "arrow and its evaluation", enabled=lambda: not m.over,
                why_disabled="The game is over: no hint."),
        Command("next", c.next_step, "Next", "N", "play the hinted move",
                enabled=lambda: not m.over, why_disabled="The game is over."),
        Command("undo", c.undo, "Undo", "U", "back one move (against the computer, "
                "back to your turn)", enabled=m.can_undo, why_disabled="Nothing to undo."),
        Command("redo", c.redo, "Redo", "Y", "forward one move (to your next turn)",
                enabled=m.can_redo, why_disabled="Nothing to redo."),
        Command("undo-all", c.undo_all, "First", "HOME", "back to the start",
                enabled=m.can_undo, why_disabled="Already at the start."),
        Command("redo-all", c.redo_all, "Last", "END", "on to the last move",
                enabled=m.can_redo, why_disabled="Already at the last move."),
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
    record = m.full_record
    for n in range(max(1, len(record) - LIST_LENGTH + 1), len(record) + 1):
        mark = "▸ " if n == m.cursor else ""
        commands.append(
            Command(
                f"move-{n}",
                lambda n=n: c.goto(n),
                f"{mark}{n}. {record[n - 1].text}",
                group="list",
            )
        )
    for move in [*range(64), PASS]:
        commands.append(Command(square_name(move), lambda move=move: c.play(move), group=""))
    return commands


def move_number(text: str) -> int:
    """``goto``'s argument: a whole number."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"a move number, not {text!r}") from None


def side_label(side: str) -> str:
    """How the HUD names a side: ``Human``, ``Classic Expert``."""
    return "Human" if side == HUMAN else side.replace("-", " ").title()
