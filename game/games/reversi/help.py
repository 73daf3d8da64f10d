"""Reversi's F1 help: the rules, the keys and the mouse, the computer's levels and what each
mark on the board means, one page at a time on the HUD's sheet.

:func:`help_sheet` builds a page; the keys come from the scene's own command table, the levels
from the logic's players and the marks' colours from the theme being drawn, so the help
always says what the window does.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from game.engine.commands import DIRECTOR_KEYS, CommandTable
from game.engine.controller import Cell, Sheet
from game.hall.match_controls import level_title

if TYPE_CHECKING:
    from game.games.reversi.look import Theme

__all__ = ["PAGES", "help_sheet"]

#: The help's pages: the name a script gives (``help-page:levels``) and the page's title.
PAGES: Final[dict[str, str]] = {
    "rules": "Rules",
    "mouse": "Mouse",
    "keys": "Keys",
    "levels": "Levels",
    "marks": "Marks on the board",
}
#: An explanation longer than this many characters goes on into the rows below it, so the
#: sheet stays narrow enough for a small window.
WRAP: Final = 48

_RULES: Final = (
    ("Goal", "Have more discs of your colour than the other side at the end."),
    ("Start", "Four discs in the middle; Black moves first."),
    ("A move", "Put a disc down so that it outflanks a line of the other's discs: "
     "yours at both ends of a row, column or diagonal."),
    ("Flips", "Every outflanked disc, in every direction, turns to your colour."),
    ("Must", "A move must flip at least one disc. With a legal move you must play."),
    ("Pass", "With none you pass (the game does it for you); the other plays on."),
    ("The end", "When neither side can move (the board is usually full), the side with "
     "more discs wins; the same number is a draw."),
    ("Score", "The result is the disc difference: 40-24 is a win by 16."),
)  # fmt: skip

_MOUSE: Final = (
    ("Click", "a ringed square to play there"),
    ("Point", "at a ringed square: the discs it would flip tilt and glow"),
    ("Type", "a square to play it: a letter a-h, then a digit 1-8 (d3)"),
    ("Move list", "click a move on the right to go back to it"),
    ("Buttons", "the bar at the bottom; options at the top right"),
    ("Options", "Options (O) shows the look's buttons: animation and its speed, "
     "the marks, the colours; each takes effect at once"),
)  # fmt: skip


def help_sheet(page: str, table: CommandTable, theme: Theme) -> Sheet:
    """Page ``page`` (a key of :data:`PAGES`) of the help for a scene with the commands in
    ``table``, its marks drawn in ``theme``'s colours."""
    title = f"Reversi help: {PAGES[page]}"
    footer = (
        "F1 closes the help; Page Up, Page Down",
        "or the buttons on the right turn the pages.",
    )
    if page == "rules":
        return Sheet(title, _header("", "Reversi (Othello)"), _rows(_RULES), footer)
    if page == "mouse":
        return Sheet(title, _header("Mouse", "What it does"), _rows(_MOUSE), footer)
    if page == "keys":
        return Sheet(title, _header("Key", "What it does"), _rows(_keys(table)), footer)
    if page == "levels":
        return Sheet(title, _header("Level", "How the computer plays"), _levels(), footer)
    return Sheet(title, _header("Mark", "What it means"), _marks(theme), footer)


# --- private helpers: they trust their input -------------------------------------------------


def _header(first: str, second: str) -> tuple[Cell, ...]:
    return (Cell(first), _say(second))


def _say(text: str) -> Cell:
    """An explanation: a cell whose text starts at its left edge."""
    return Cell(text, left=True)


def _heading(text: str) -> Cell:
    return Cell(text, bold=True)


def _rows(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[Cell, ...], ...]:
    """Two-cell rows: a bold term, then its explanation (wrapped at :data:`WRAP`
    characters, going on in the rows below)."""
    rows: list[tuple[Cell, ...]] = []
    for term, text in pairs:
        for i, line in enumerate(textwrap.wrap(text, WRAP) or [""]):
            rows.append((Cell(term if i == 0 else "", bold=True), _say(line)))
    return tuple(rows)


def _keys(table: CommandTable) -> list[tuple[str, str]]:
    """Every key of the scene's table with its help, then the window's own keys."""
    out = []
    for command in table:
        if command.key:
            names = " / ".join(_key_label(k) for k in command.key.split("|") if k)
            out.append((names, command.help or command.label or command.name))
    out.extend(DIRECTOR_KEYS)
    return out


def _key_label(key: str) -> str:
    return {"HOME": "Home", "END": "End", "PAGEUP": "Page Up", "PAGEDOWN": "Page Down"}.get(
        key, key
    )


def _levels() -> tuple[tuple[Cell, ...], ...]:
    from game.logic.reversi.players import PLAYERS

    pairs = [("You", "a person plays this colour")]
    pairs += [(level_title(name), player.description) for name, player in PLAYERS.items()]
    choosing = _rows(
        [
            ("", "The Black and White buttons (top right) step through the levels."),
            ("", "The hint (H) comes from the level you play against; with nobody, Master."),
            ("", "Statistics (S) count each level and colour on its own."),
        ]
    )
    return (*_rows(pairs), (_heading("Choosing"),), *choosing)


def _marks(theme: Theme) -> tuple[tuple[Cell, ...], ...]:
    def rgba(rgb: tuple[float, float, float]) -> tuple[int, int, int, int]:
        r, g, b = (max(0, min(255, round(255 * c))) for c in rgb)
        return (r, g, b, 255)

    marks = (
        ("○ Ring", theme.legal, "a square where you may play (option: Legal marks)"),
        ("◉ Lit ring", theme.legal, "the square under the mouse: the discs that move "
         "would flip tilt and glow"),
        ("● Dot", theme.last, "on the disc played last (option: Last move)"),
        ("◌ Ghost disc", theme.hint, "the hint (H): a disc of the side to move, ringed "
         "in this colour, floating over the square to play"),
        ("+4.3 discs", theme.hint, "in the hint's banner: the computer's score for that "
         "move, in discs for the side to move (+ is good for it); 'exact': the final disc "
         "difference with best play to the end"),
        ("a-h, 1-8", None, "round the board: the squares' names (d3)"),
        ("Black 5", None, "top left: the discs each side has now"),
    )  # fmt: skip
    rows: list[tuple[Cell, ...]] = []
    for term, colour, text in marks:
        for first, line in enumerate(_rows([(term, text)])):
            if colour is not None and first == 0:
                line = (Cell(term, color=rgba(colour), bold=True), line[1])
            rows.append(line)
    return tuple(rows)
