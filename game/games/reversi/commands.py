"""The command table of the Reversi scene: every command declared once, read by the keys,
the HUD buttons, ``gamehall shot --do``, the F1 help and the F3 overlay."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from game.engine.commands import Command
from game.games.reversi.help import PAGES
from game.games.reversi.look import THEMES
from game.hall.match_controls import goto_command, match_commands, move_list_commands, side_label
from game.hall.scene import Control
from game.logic.reversi.board import PASS, Color, square_name

if TYPE_CHECKING:
    from game.games.reversi.controller import ReversiController

__all__ = ["COLORS", "build_commands", "side_label"]

COLORS = (Color.BLACK, Color.WHITE)
#: The move list's first entry: the position before the first move.
START_ENTRY = "The start position"
#: The look's options on their buttons: option -> the button's name.
LOOK_BUTTONS = {
    "animation": "Animation",
    "animation_speed": "Speed",
    "legal_marks": "Legal marks",
    "last_move_mark": "Last move",
    "theme": "Theme",
}


def build_commands(c: ReversiController) -> list[Command]:
    """The commands of ``c``'s scene: the standard keys (H hint, N next, U undo, Y redo,
    R new game), Home and End, W swap, S statistics, O the look's options, the side buttons
    (and the look's, while shown), the move list (the help's pages while the help is shown:
    Page Up and Page Down), files, ``goto:N`` and ``option:NAME=VALUE`` for scripts and one
    command per square (``d3``) and ``pass``."""
    m = c.match
    settled: Callable[[], bool] = lambda: not c.animating()  # noqa: E731
    commands = match_commands(
        c, "the computer's best move here: a ghost disc on it, with its score"
    )
    commands += [
        Command("swap", c.swap, "Swap", "W", "exchange the players of the two colours",
                enabled=settled, why_disabled="Wait for the discs to settle."),
        c.control("new", Control("New game", "a new game (press twice while a game is in "
                                 "progress)")),
        Command("save", c.save, "Save", help="write the game as a transcript to the "
                "data folder"),
        Command("load", c.load, "Load", help="read the saved transcript back"),
        Command("save-to", c.save, group="", parse=Path, argument="a file",
                help="write the game as a transcript to a file"),
        Command("load-from", c.load, group="", parse=Path, argument="a file",
                help="read a transcript from a file"),
        goto_command(c.goto),
        Command("stats", c.toggle_stats, "Stats", "S", "your games, wins, draws and losses "
                "per level and colour, and your best scores", group="options"),
        Command("options", c.toggle_options, "Options", "O", "show or hide the buttons of "
                "the look: animation, speed, marks, colours", group="options"),
        Command("option", c.set_option, group="", parse=_assignment, argument="NAME=VALUE",
                help="set an option (theme=wood, legal_marks=off)"),
        Command("help-page", c.show_help_page, group="", parse=str, argument="a page",
                help="open the help at a page (" + ", ".join(PAGES) + ")"),
        Command("help-next", lambda: c.turn_help_page(+1), key="PAGEDOWN", group="",
                help="the help's next page", enabled=lambda: c.panel == "help",
                why_disabled="The help is closed: F1 opens it."),
        Command("help-back", lambda: c.turn_help_page(-1), key="PAGEUP", group="",
                help="the help's page before", enabled=lambda: c.panel == "help",
                why_disabled="The help is closed: F1 opens it."),
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
    if c.show_options:
        for name, title in LOOK_BUTTONS.items():
            commands.append(
                c.option_button(
                    name.replace("_", "-"),
                    name,
                    f"{title}: {_value_text(name, c.options[name])}",
                    help=f"{c.option_help(name)}: click for the next choice",
                )
            )
    if c.panel == "help":
        for page, title in PAGES.items():
            mark = "▸ " if page == c.help_page else ""
            commands.append(
                Command(f"page-{page}", lambda page=page: c.show_help_page(page),
                        f"{mark}{title}", group="list", help=f"the help's page: {title}")
            )  # fmt: skip
    else:
        # The list starts with the start position, so it is there before the first move:
        # the board keeps its place when moves come (its room is kept from the start). The
        # entry is never marked, so it stays the widest and the list never changes width.
        commands.append(
            Command("move-0", lambda: c.goto(0), START_ENTRY, group="list",
                    help="the position before the first move")
        )  # fmt: skip
        commands += move_list_commands(m, c.goto)
    for move in [*range(64), PASS]:
        commands.append(Command(square_name(move), lambda move=move: c.play(move), group=""))
    return commands


def _value_text(name: str, value: object) -> str:
    """An option's value on its button: on and off, a theme's title, a speed's name."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if name == "theme":
        return THEMES[str(value)].title
    return str(value)


def _assignment(text: str) -> tuple[str, str]:
    """``option``'s argument: ``NAME=VALUE`` (dashes in the name read as underscores)."""
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise ValueError(f"an option as NAME=VALUE, not {text!r}")
    return name.strip().replace("-", "_"), value.strip()
