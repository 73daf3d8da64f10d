"""The command table: each thing a player can ask of a game, declared once.

A :class:`Command` has a name (what ``gamehall shot --do`` and scripts type), a key, a button
label and group, a test for when it is enabled, a line of help, and, for commands that take
one, an argument parser (``goto:12``, ``country:7``). The Director builds the keys, the HUD
buttons, the F1 help panel and the F3 overlay's command list from the table, and runs
``name`` or ``name:argument`` text through it, so a key, a button and a script always take the
same path.

The same keys mean the same in every game (:data:`STANDARD_KEYS`): H hint, N play the hinted
move, U undo, Y redo, R new game, F1 help; the Director keeps F3, F12 and Esc for itself.

>>> table = CommandTable([Command("undo", lambda: None, label="Undo", key="U")])
>>> table.keys()
{'U': 'undo'}
>>> table.run("nosuch")
Traceback (most recent call last):
...
game.engine.controller.UnknownCommandError: unknown command 'nosuch'; the commands are: undo
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from game.engine.controller import Button, UnknownCommandError

log = logging.getLogger(__name__)

__all__ = [
    "STANDARD_KEYS",
    "Command",
    "CommandError",
    "CommandTable",
    "UnknownCommandError",
]

#: Keys every game gives the same meaning; a game's own commands use other keys.
STANDARD_KEYS: Final[dict[str, str]] = {
    "hint": "H",
    "next": "N",
    "undo": "U",
    "redo": "Y",
    "new": "R",
    "help": "F1",
}

#: The Director's own keys, listed in every help panel.
DIRECTOR_KEYS: Final[tuple[tuple[str, str], ...]] = (
    ("F1", "help: this panel"),
    ("F3", "debug overlay"),
    ("F12", "screenshot"),
    ("M", "mute or unmute the sound"),
    ("Esc", "back to the menu"),
    ("V", "the scene's own view again (drag to turn, middle or Shift drag to pan, wheel zooms)"),
)


class CommandError(ValueError):
    """A command refused now (disabled, or a bad argument); the message says why."""


def _always() -> bool:
    return True


@dataclass(frozen=True)
class Command:
    """One command; see the module docstring.

    ``run`` takes no argument, or the parsed argument when ``parse`` is given (then the
    command is typed ``name:TEXT``). ``group``: "main" (the bottom bar), "options" (the
    top-right grid), "list" (a column on the right) or "" (a key or script only).
    ``enabled`` returning False greys the button and refuses the key with ``why_disabled``.
    """

    name: str
    run: Callable[..., Any]
    label: str = ""
    key: str = ""
    help: str = ""
    group: str = "main"
    enabled: Callable[[], bool] = field(default=_always, compare=False)
    parse: Callable[[str], Any] | None = None
    argument: str = ""  # what the argument is, for help: "a move number"
    why_disabled: str = ""
    tooltip: str = ""

    def text(self) -> str:
        """How a script writes it: ``undo``, ``goto:N``."""
        return f"{self.name}:{self.argument or 'ARG'}" if self.parse is not None else self.name


class CommandTable:
    """A scene's commands in display order; names and keys are unique."""

    def __init__(self, commands: Iterable[Command]) -> None:
        self._commands: dict[str, Command] = {}
        keys: dict[str, str] = {}
        for command in commands:
            if command.name in self._commands:
                raise ValueError(f"command {command.name!r} is declared twice")
            for key in filter(None, command.key.split("|")):
                if key in keys:
                    raise ValueError(f"key {key} is bound to {keys[key]!r} and {command.name!r}")
                keys[key] = command.name
            self._commands[command.name] = command
        self._keys = keys

    def __iter__(self) -> Iterator[Command]:
        return iter(self._commands.values())

    def __contains__(self, name: object) -> bool:
        return name in self._commands

    def __getitem__(self, name: str) -> Command:
        return self._commands[name]

    def names(self) -> list[str]:
        """Every command as a script writes it (``goto:N`` for one with an argument)."""
        return [command.text() for command in self]

    def keys(self) -> dict[str, str]:
        """Key (pyglet's symbol string; ``A|B`` declares two) to command name."""
        return dict(self._keys)

    def buttons(self) -> list[Button]:
        """The HUD buttons: every command with a label and a group."""
        return [
            Button(
                c.label,
                c.name,
                _key_name(c.key.split("|")[0]),
                c.enabled,
                c.group,
                c.tooltip or c.help,
            )
            for c in self
            if c.label and c.group
        ]

    def enabled(self, name: str) -> bool:
        command = self._commands.get(name.split(":", 1)[0])
        return command is not None and bool(command.enabled())

    def run(self, text: str) -> None:
        """Run ``name`` or ``name:argument``; raises :class:`UnknownCommandError` for an
        unknown name and :class:`CommandError` (a ValueError) when it is refused now."""
        name, _, argument = text.strip().partition(":")
        command = self._commands.get(name)
        if command is None:
            raise UnknownCommandError(
                f"unknown command {name!r}; the commands are: {', '.join(self.names())}"
            )
        if command.parse is not None:
            if not argument:
                raise CommandError(f"{name} needs {command.argument or 'an argument'}: {name}:…")
            try:
                value = command.parse(argument)
            except ValueError as exc:
                raise CommandError(f"{name}: {exc}") from None
        elif argument:
            raise CommandError(f"{name} takes no argument, not {argument!r}")
        if not command.enabled():
            raise CommandError(
                command.why_disabled or f"{command.label or name} is not available now"
            )
        if command.parse is not None:
            command.run(value)
        else:
            command.run()
        log.info("ran %s", text.strip())  # with -v: what a script or a test waits for

    def help_lines(self) -> list[str]:
        """What a player can press or click: each command with a key, then each button
        without one, then the Director's keys. Commands only scripts use are left out (they
        are in the table's :meth:`names`)."""
        keyed = [c for c in self if c.key]
        buttons = [c for c in self if not c.key and c.label and c.group]
        lines = []
        for c in keyed:
            keys = " / ".join(dict.fromkeys(_key_name(k) for k in c.key.split("|") if k))
            lines.append(f"{keys}: {c.help or c.label or c.name}")
        i = 0
        while i < len(buttons):  # "Seats −" then "Seats +": one line for the pair
            c = buttons[i]
            pair = buttons[i + 1] if i + 1 < len(buttons) else None
            stem = c.label[:-2]
            if c.label.endswith(" −") and pair is not None and pair.label == f"{stem} +":
                what = (pair.help or pair.name).split(": ", 1)[-1]
                lines.append(f"{stem} − / +: one fewer / one more: {what}")
                i += 2
                continue
            lines.append(f"{c.label}: {c.help or c.name}")
            i += 1
        lines.extend(f"{key}: {what}" for key, what in DIRECTOR_KEYS)
        return lines


def _key_name(key: str) -> str:
    """pyglet's symbol strings as a person reads them: ``_1`` is 1, ``NUM_ADD`` is +."""
    if key.startswith("_") and key[1:].isdigit():
        return key[1:]
    return _KEY_NAMES.get(key, key.title() if len(key) > 3 else key)


_KEY_NAMES: Final = {
    "SPACE": "Space", "ESCAPE": "Esc", "RETURN": "Enter", "ENTER": "Enter", "HOME": "Home",
    "END": "End", "PLUS": "+", "EQUAL": "+", "NUM_ADD": "+", "MINUS": "-",
    "NUM_SUBTRACT": "-", "LEFT": "Left", "RIGHT": "Right", "UP": "Up", "DOWN": "Down",
    "PAGEUP": "Page Up", "PAGEDOWN": "Page Down", "BACKSPACE": "Backspace", "TAB": "Tab",
    "SLASH": "/", "NUM_DIVIDE": "/",
}  # fmt: skip
