"""The command table of the river scene: every command declared once, read by the keys,
the HUD buttons, ``gamehall shot --do``, the F1 help and the F3 overlay; with the words of
the option buttons and the rules text of the F1 panel."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game.engine.commands import Command, CommandTable
from game.hall.match_controls import move_list_commands, move_number
from game.hall.scene import Control
from game.logic.river.game import OPTIONS, BoardBoat, Cross, Goal, Kind, Rowers, Unboard

if TYPE_CHECKING:
    from game.games.river.controller import RiverController

__all__ = ["OPTION_LABELS", "RULES_HELP", "START_ENTRY", "VARIANT_LABELS", "build_commands"]

#: The move list's first entry: the point before the first move (there from the start, so
#: the list keeps its width as moves come).
START_ENTRY = "The start"

#: The option buttons' words: a number's name (its - and + buttons), or a variant's button
#: label for each value (one button that steps through the values).
OPTION_LABELS = {"priests": "Priests", "devils": "Devils", "capacity": "Seats"}
VARIANT_LABELS: dict[str, dict[Any, str]] = {
    "boat_counts": {True: "Boat counts: yes", False: "Boat counts: no"},
    "rowers": {r.value: f"Rowers: {r.value}" for r in Rowers},
    "goal": {g.value: f"Goal: {g.value}" for g in Goal},
}

#: The rules and their variants, for the F1 panel above the keys.
RULES_HELP = (
    "Rules: devils must never outnumber priests on a bank where a priest stands. Variants "
    "(buttons at the top right; gamehall play river --no-boat-counts, --rowers, --goal):",
    "Boat counts: yes, a docked boat's passengers count for its bank; no, only those ashore "
    "count, so boarding or landing can lose too.",
    "Rowers: anyone, or priests (devils): one must be aboard to cross; a boat stranded where "
    "nobody may row it loses.",
    "Goal: everyone, or every priest, ashore on the right bank.",
)


def build_commands(c: RiverController) -> CommandTable:
    """The commands of ``c``'s scene: Go (Space, G), the standard keys (H hint, N next step,
    U undo, Y redo, R new game), S solve, P and D to board, T statistics, scripts' board,
    unboard and click, a - and + button per number option and one button per variant that
    steps through its values, and the record as a move list (a click goes to that point).
    Rebuilt when the options or the record change (the variant buttons name the value in
    force, the list marks where the game stands)."""
    ready = c._ready

    def command(name: str, run: Callable[..., None], **fields: Any) -> Command:
        def wrapped(*args: Any) -> None:
            if name != "new":  # any other command forgets a pending New game
                c.forget_question()
            run(*args)

        return Command(name, wrapped, **fields)

    def shared(name: str, shown: Control) -> Command:
        made = c.control(name, shown)
        return command(name, made.run, label=made.label, key=made.key, help=made.help,
                       enabled=made.enabled)  # fmt: skip

    def board(kind: Kind) -> Callable[[], None]:
        return lambda: c.play(BoardBoat(kind))

    main = [
        command("boat", lambda: c.play(Cross()), label="Go", key="SPACE|G",
                help="row the boat across", tooltip="Row across",
                enabled=lambda: ready() and c.state.boat.size > 0),
        shared("hint", Control("Hint", "show the optimal loads and who should move",
                               enabled=c._playing)),
        shared("next", Control("Next step", "play the next optimal crossing", enabled=ready)),
        command("solve", c.solve, label="Solve", key="S", enabled=ready,
                help="play optimal crossings to the win"),
        shared("undo", Control("Undo", "take back the last move (stops Next step or Solve)",
                               enabled=lambda: c.autoplay is not None
                               or (c.match.can_undo() and not c.animating()))),
        shared("redo", Control("Redo", "play again what Undo took back",
                               enabled=lambda: c.match.can_redo() and ready())),
        shared("new", Control("New game", "a new game with these options (press twice during "
                              "a game)")),
        command("board_priest", board(Kind.PRIEST), key="P", group="",
                help="board a priest from the boat's bank"),
        command("board_devil", board(Kind.DEVIL), key="D", group="",
                help="board a devil from the boat's bank"),
        command("board", lambda kind: c.play(BoardBoat(kind)), group="", parse=_kind,
                argument="priest or devil", help="put a priest or devil into the boat"),
        command("unboard", lambda kind: c.play(Unboard(kind)), group="", parse=_kind,
                argument="priest or devil", help="put a passenger ashore"),
        command("click", c.click, group="", parse=c._character,
                argument="a character, e.g. devil1", help="board or land that character"),
        command("goto", c.goto, group="", parse=move_number, argument="a move number",
                help="the point after that move (0: the start)"),
    ]  # fmt: skip
    options = []
    for name in OPTIONS.names():
        if name in VARIANT_LABELS:
            button = c.option_button(
                name,
                name,
                VARIANT_LABELS[name][c.options[name]],
                enabled=lambda: c.autoplay is None,
                help="the next choice (the rules above)",
            )
            options.append(command(name, button.run, **_fields(button)))
            continue
        for delta, mark in ((-1, "−"), (+1, "+")):
            sign = "+" if delta > 0 else "-"
            button = c.option_button(
                f"{name}{sign}",
                name,
                f"{OPTION_LABELS.get(name, name)} {mark}",
                delta,
                enabled=lambda n=name, d=delta: _option_steps(c, n, d),
                help=f"{'one more' if delta > 0 else 'one fewer'}: {OPTIONS[name].help}",
            )
            options.append(command(button.name, button.run, **_fields(button)))
    options.append(
        command("stats", c.toggle_stats, label="Statistics", key="T", group="options",
                help="show or hide the games played, won, lost and best of every setting")
    )  # fmt: skip
    moves = [command("move-0", lambda: c.goto(0), label=START_ENTRY, group="list",
                     help="the banks before the first move")]  # fmt: skip
    for entry in move_list_commands(c.match, c.goto):
        moves.append(command(entry.name, entry.run, **_fields(entry)))
    return CommandTable(main + options + moves)


def _fields(button: Command) -> dict[str, Any]:
    """A button's fields besides its name and what it runs (for the table's wrapper)."""
    return {"label": button.label, "group": button.group, "enabled": button.enabled,
            "help": button.help}  # fmt: skip


def _option_steps(c: RiverController, name: str, delta: int) -> bool:
    """Whether ``name`` moved by ``delta`` stays in the schema's range for it. A step the
    schema's cross-check refuses (no solution, a lost start) stays pressable: pressing it
    says why."""
    return OPTIONS[name].can_move(c.options[name], delta)


def _kind(text: str) -> Kind:
    try:
        return Kind(text.strip().lower())
    except ValueError:
        raise ValueError(f"{text!r} is neither priest nor devil") from None
