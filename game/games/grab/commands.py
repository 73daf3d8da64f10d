"""The command table of the MasterGrab scene: every command declared once, read by the keys,
the HUD buttons, ``gamehall shot --do``, the F1 help and the F3 overlay.

The keys every game shares: N plays the hinted move, H hint, U undo, Y redo, R new game. The
game's own: Space passes (robots only: one round), M replays the same map, P autoplay (robots
only), I the left panel, O the options, WASD or the arrow keys pan, +/- zoom. Scripts also
have ``country:N`` (a click on country N), ``move:TEXT`` (``move:attack 3,5>12``) and
``goto:N`` (the map after step N of the record). The move list at the right has a row a
round that names who took and lost countries in it (:func:`~game.games.grab.text.list_row`);
a click on a row shows the map at the end of that round, where you are to move (robots only:
where the next round starts), as Undo and Redo do: the robots' moves of the rounds after it
wait there to be redone.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final

from game.engine.commands import Command
from game.games.grab.text import list_row
from game.hall.match_controls import goto_command, move_list_commands, whole_argument
from game.hall.scene import Control
from game.logic.grab.state import Move

if TYPE_CHECKING:
    from game.games.grab.controller import GrabController

__all__ = ["AUTOPLAY", "build_commands"]

AUTOPLAY: Final = (0.0, 0.1, 0.2, 0.5, 1.0, 2.0)  # seconds a round; 0: off (Space by hand)
PAN_KEYS: Final = {"left": "LEFT|A", "right": "RIGHT|D", "up": "UP|W", "down": "DOWN|S"}


def build_commands(c: GrabController) -> list[Command]:
    """The commands of ``c``'s scene (see the module docstring), then the options panel's."""
    human = c.options.human_playing
    your_turn = c.your_turn
    running = lambda: c.match is not None and not c.match.over  # noqa: E731
    m = c.match
    speed = "off" if not c.autoplay else f"{AUTOPLAY[c.autoplay]:g} s"
    commands = [
        c.control("next", Control("Next", "play the hinted move",
                                  enabled=lambda: human and your_turn(),
                                  why_disabled=_why_not_yours(c),
                                  group="main" if human else "")),
        Command("pass", c.pass_turn, "Pass", "SPACE",
                "skip your move" if human else "let one round pass",
                enabled=running, why_disabled="The game is over."),
        Command("skip", c.skip, "Skip", "", "show the robots' moves at once (Space or Esc)",
                enabled=lambda: m is not None and c.playback.busy(m),
                why_disabled="No moves are being shown."),
        c.control("hint", Control("Hint", "the strategic robot's move for you",
                                  enabled=lambda: human and your_turn(),
                                  why_disabled=_why_not_yours(c),
                                  group="main" if human else "")),
        c.control("undo", Control("Undo", "back to your previous turn" if human
                                  else "back one move",
                                  enabled=lambda: m is not None and m.can_undo(),
                                  why_disabled="Nothing to undo.")),
        c.control("redo", Control("Redo", "forward to your next turn" if human
                                  else "forward one move",
                                  enabled=lambda: m is not None and m.can_redo(),
                                  why_disabled="Nothing to redo.")),
        c.control("new", Control("New game", "a new map (press twice while a game is in "
                                 "progress)")),
        Command("replay", c.replay, "Replay", "G",
                "the same map and armies again (press twice while a game is in progress)"),
        Command("autoplay", c.cycle_autoplay, f"Autoplay: {speed}", "P",
                "robots only: rounds play by themselves (0.1 to 2 s), or stop",
                group="" if human else "main"),
        Command("info", c.cycle_info, f"Info: {c.info}", "I",
                "the left panel: the ranking, the last moves, the rules and what every shape "
                "on the map means, or nothing"),
        Command("options", c.toggle_options, "Options", "O", "the options panel"),
        Command("apply", c.apply, "Apply", help="a new game with the panel's options",
                group="main" if c.show_options else ""),
        Command("country", c.click_country, group="", parse=_country,
                argument="a country id", help="what a click on that country does"),
        Command("hover", c.hover_country, group="", parse=_country, argument="a country id",
                help="show that country's details, as the mouse over it does"),
        Command("move", c.play, group="", parse=_move,
                argument="a move, e.g. attack 3,5>12", help="play that move"),
        Command("zoom-in", lambda: c.zoom(0.8), key="PLUS|EQUAL|NUM_ADD",
                group="", help="zoom in"),
        Command("zoom-out", lambda: c.zoom(1.25), key="MINUS|NUM_SUBTRACT",
                group="", help="zoom out"),
    ]  # fmt: skip
    for way, key in PAN_KEYS.items():
        dx, dz = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}[way]
        pan = lambda dx=dx, dz=dz: c.pan(dx, dz)  # noqa: E731
        commands.append(Command(f"pan-{way}", pan, key=key, group="", help=f"pan {way}"))
    if m is not None:
        row = partial(list_row, m)
        commands += [goto_command(c.goto), *move_list_commands(m, c.goto, summary=row)]
    return commands + c.panel.commands(c.panel_changed, c.show_options)


def _why_not_yours(c: GrabController) -> str:
    if not c.options.human_playing:
        return "The robots play this game alone: Space lets a round pass, P plays on."
    return "Not now: wait for the robots, or the game is over."


def _country(text: str) -> int:
    """``country``'s argument: a whole number (ASCII digits: the one number reader's)."""
    return whole_argument(text, "a country id is a whole number")


def _move(text: str) -> Move:
    """``move``'s argument: a move in notation (``attack 3,5>12``), its country ids in
    ASCII digits (the one number reader's: ``int()`` alone takes ``١`` and ``1_0``)."""
    import re

    from game.logic.numbers import parse_whole
    from game.logic.quoting import excerpt

    ids = [t for t in re.split(r"[\s,>]+", text.strip())[1:] if t]
    if any(parse_whole(t) is None for t in ids):
        raise ValueError(f"not a move: {excerpt(text)} (country ids in digits 0-9)")
    return Move.parse(text)
