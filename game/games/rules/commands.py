"""The command table of a described game's scene: every command declared once, read by the
keys, the HUD buttons, ``gamehall shot --do``, the F1 help and the F3 overlay."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from game.engine.commands import Command
from game.games.rules.variations import record_commands
from game.hall.match_controls import goto_command, match_commands, side_label
from game.hall.scene import Control

if TYPE_CHECKING:
    from game.games.rules.controller import BoardController

__all__ = ["build_commands", "side_label"]

CHOICE_KEYS = 9  # a choice between moves takes the keys 1 to 9


def build_commands(c: BoardController) -> list[Command]:
    """The commands of ``c``'s scene: the standard keys (H hint, N next, U undo, Y redo,
    R new game), Home and End, W swap, P pass, Backspace to drop a selection, a side button
    for each player, the move list, the choices of a move the clicks left open (keys 1-9),
    ``goto:N``, ``click:POSITION`` and ``hand:TYPE`` for scripts, and one command per legal
    move named by its text (``e2-e4``, ``11x18``, ``pass``)."""
    m = c.match
    settled: Callable[[], bool] = lambda: not c.animating()  # noqa: E731
    commands = match_commands(c, "the computer's best move here, shown on the board", ends_group="")
    commands += [
        Command("swap", c.swap, "Swap", "W", "exchange the players of the two sides",
                enabled=settled, why_disabled="Wait for the pieces to settle."),
        c.control("new", Control("New game", "a new game (press twice while a game is in "
                                 "progress)")),
        Command("pass", c.pass_turn, "Pass", "P", "pass your turn, where the rules let you",
                enabled=c.can_pass, why_disabled="You cannot pass now.",
                group="main" if c.can_pass() else ""),
        Command("cancel", c.cancel, "", "BACKSPACE", "drop the piece you picked up",
                group=""),
        goto_command(c.goto),
        Command("click", c.click_named, group="", parse=str, argument="a position",
                help="a click on that position (its name: e2, 11)"),
        Command("hand", c.click_hand, group="", parse=str, argument="a piece type",
                help="a click on that piece in the hand of the player to move (Pawn)"),
    ]  # fmt: skip
    for seat, player in enumerate(c.design.players):
        if seat in c.design.random_players:
            continue  # chance plays it: no one to choose
        commands.append(
            Command(
                f"side-{seat + 1}",
                lambda seat=seat: c.cycle_side(seat),
                f"{player}: {side_label(c.sides[seat])}",
                group="options",
                help=f"who plays {player}: a person, or each computer player in turn",
            )
        )
    for i, (label, _move) in enumerate(c.choices[:CHOICE_KEYS], start=1):
        commands.append(
            Command(
                f"choose-{i}",
                lambda i=i: c.choose(i),
                label,
                f"_{i}|NUM_{i}",
                f"play this one of the moves your clicks leave open ({label})",
            )
        )
    commands += record_commands(c)
    taken = {command.name for command in commands}
    if not m.over:
        for move, text in zip(c.state.moves(), c.state.texts(), strict=True):
            if text not in taken and ":" not in text:
                taken.add(text)
                commands.append(Command(text, lambda move=move: c.play(move), group=""))
    return commands
