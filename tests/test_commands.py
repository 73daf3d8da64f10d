"""The command table: one declaration feeds keys, buttons, scripts and the help panel."""

from __future__ import annotations

import pytest

from game.engine.commands import Command, CommandError, CommandTable
from game.engine.controller import UnknownCommandError


def _table(log: list[object], *, can_undo: bool = True) -> CommandTable:
    return CommandTable(
        [
            Command("hint", lambda: log.append("hint"), label="Hint", key="H", help="show it"),
            Command(
                "undo",
                lambda: log.append("undo"),
                label="Undo",
                key="U",
                enabled=lambda: can_undo,
                why_disabled="nothing to undo",
            ),
            Command(
                "goto",
                lambda n: log.append(("goto", n)),
                parse=int,
                argument="a move number",
                group="",
            ),
            Command("zoom_in", lambda: log.append("in"), key="PLUS|EQUAL|NUM_ADD", group=""),
            Command("save", lambda: log.append("save"), label="Save", help="write the game"),
        ]
    )


def test_keys_buttons_and_names_come_from_one_declaration() -> None:
    table = _table([])
    assert table.keys() == {"H": "hint", "U": "undo", "PLUS": "zoom_in", "EQUAL": "zoom_in",
                            "NUM_ADD": "zoom_in"}  # fmt: skip
    assert [(b.label, b.command, b.key) for b in table.buttons()] == [
        ("Hint", "hint", "H"),
        ("Undo", "undo", "U"),
        ("Save", "save", ""),
    ]
    assert table.names() == ["hint", "undo", "goto:a move number", "zoom_in", "save"]


def test_run_parses_arguments_and_refuses_with_a_reason() -> None:
    log: list[object] = []
    table = _table(log)
    table.run("hint")
    table.run("goto:12")
    assert log == ["hint", ("goto", 12)]
    with pytest.raises(CommandError, match="goto: invalid literal"):
        table.run("goto:twelve")
    with pytest.raises(CommandError, match="needs a move number"):
        table.run("goto")
    with pytest.raises(CommandError, match="takes no argument"):
        table.run("hint:now")
    with pytest.raises(UnknownCommandError, match="the commands are: hint, undo"):
        table.run("fly")
    assert log == ["hint", ("goto", 12)], "refused commands ran nothing"


def test_a_disabled_command_says_why_and_does_nothing() -> None:
    log: list[object] = []
    table = _table(log, can_undo=False)
    assert not table.enabled("undo") and table.enabled("hint")
    with pytest.raises(CommandError, match="nothing to undo"):
        table.run("undo")
    assert log == []


def test_names_and_keys_are_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        CommandTable([Command("a", print), Command("a", print)])
    with pytest.raises(ValueError, match="key H is bound"):
        CommandTable([Command("a", print, key="H"), Command("b", print, key="H")])


def test_help_lists_what_a_player_can_press_with_readable_keys() -> None:
    lines = _table([]).help_lines()
    assert lines[:4] == ["H: show it", "U: Undo", "+: zoom_in", "Save: write the game"]
    assert not any(line.startswith("goto") for line in lines), "script-only commands stay out"
    assert lines[-6:] == [
        "F1: help: this panel",
        "F3: debug overlay",
        "F12: screenshot",
        "M: mute or unmute the sound",
        "Esc: back to the menu",
        "V: the scene's own view again (drag to turn, middle or Shift drag to pan, wheel zooms)",
    ]


def test_goto_is_declared_once_for_every_scene_with_a_move_list() -> None:
    """``goto:N`` (match_controls.goto_command): the Reversi and described-game scenes take
    the same command, read by the one whole-number reader."""
    from game.hall.match_controls import goto_command

    went: list[int] = []
    table = CommandTable([goto_command(went.append)])
    assert table.names() == ["goto:a move number"]
    table.run("goto:12")
    assert went == [12]
    with pytest.raises(CommandError, match="a move number, not"):
        table.run("goto:twelve")
