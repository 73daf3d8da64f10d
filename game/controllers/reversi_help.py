"""Reversi's F1 help: the rules, the keys and the mouse, the computer's levels and what each
mark on the board means, one page at a time on the HUD's sheet.

:func:`help_sheet` builds a page; the keys come from the scene's own command table, the levels
from the logic's players and the marks' colours from the theme being drawn, so the help
always says what the window does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from game.controllers.match_controls import side_label
from game.engine.commands import DIRECTOR_KEYS, CommandTable
from game.engine.controller import Cell, Sheet

if TYPE_CHECKING:
    from game.controllers.reversi_look import Theme

__all__ = ["PAGES", "help_sheet"]

#: The help's pages: the name a script gives (``help-page:levels``) and the page's title.
PAGES: Final[dict[str, str]] = {
    "rules": "Rules",
    "play": "Keys and mouse",
    "levels": "Levels",
    "marks": "Marks on the board",
}

_RULES: Final = (
    ("Goal", "Have more discs of your colour than the other side at the end."),
    ("Start", "Four discs in the middle; Black moves first."),
    ("A move", "Put a disc down so that it outflanks a line of the other's"),
    ("", "discs: yours at both ends of a row, column or diagonal."),
    ("Flips", "Every outflanked disc, in every direction, turns to your colour."),
    ("Must", "A move must flip at least one disc. With a legal move you must play."),
    ("Pass", "With none you pass (the game does it for you); the other plays on."),
    ("The end", "When neither side can move (the board is usually full):"),
    ("", "the side with more discs wins; the same number is a draw."),
    ("Score", "The result is the disc difference, e.g. 40-24 is a win by 16."),
)

_MOUSE: Final = (
    ("Click", "a ringed square to play there"),
    ("Point", "at a ringed square: the discs it would flip tilt and glow"),
    ("Type", "a square to play it: a letter a-h, then a digit 1-8 (d3)"),
    ("Move list", "click a move on the right to go back to it"),
    ("Buttons", "the bar at the bottom; options at the top right"),
)


def help_sheet(page: str, table: CommandTable, theme: Theme) -> Sheet:
    """Page ``page`` (a key of :data:`PAGES`) of the help for a scene with the commands in
    ``table``, its marks drawn in ``theme``'s colours."""
    title = f"Reversi help: {PAGES[page]}"
    footer = ("F1 closes the help. Page Up / Page Down, or the buttons on the right,",
              "turn the pages.")  # fmt: skip
    if page == "rules":
        return Sheet(title, _header("", "Rules of Reversi (Othello)"), _rows(_RULES), footer)
    if page == "play":
        rows = _rows(_MOUSE)
        rows += ((_heading("Keys"),),)
        rows += _rows(_keys(table))
        return Sheet(title, _header("Mouse", "What it does"), rows, footer)
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
    """Two-cell rows: a bold term, then its explanation."""
    return tuple((Cell(term, bold=True), _say(text)) for term, text in pairs)


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

    rows: list[tuple[Cell, ...]] = [(Cell("Human", bold=True), _say("a person plays this colour"))]
    rows += [
        (Cell(side_label(name), bold=True), _say(p.description)) for name, p in PLAYERS.items()
    ]
    rows += [
        (_heading("Choosing"),),
        (Cell(""), _say("The Black and White buttons (top right) step through the levels.")),
        (Cell(""), _say("The hint (H) is the level you play against; alone, Master's.")),
        (Cell(""), _say("Statistics (S) count each level and colour on its own.")),
    ]
    return tuple(rows)


def _marks(theme: Theme) -> tuple[tuple[Cell, ...], ...]:
    def rgba(rgb: tuple[float, float, float]) -> tuple[int, int, int, int]:
        r, g, b = (max(0, min(255, round(255 * c))) for c in rgb)
        return (r, g, b, 255)

    legal, last, hint = rgba(theme.legal), rgba(theme.last), rgba(theme.hint)
    return (
        (Cell("○ Ring", color=legal, bold=True),
         _say("a square where you may play (option: Legal marks)")),
        (Cell("◉ Lit ring", color=legal, bold=True),
         _say("the square under the mouse; the discs it would flip tilt and glow")),
        (Cell("● Dot", color=last, bold=True),
         _say("on the disc played last (option: Last move)")),
        (Cell("◌ Ghost disc", color=hint, bold=True),
         _say("the hint (H): a see-through disc of the side to move, floating")),
        (Cell(""), _say("over the square to play, on a ring of its own")),
        (Cell("+4.3", color=hint, bold=True),
         _say("beside it: the computer's score for that move, in discs, for the")),
        (Cell(""), _say("side to move (+ is good for it). 'exact' when it has seen the")),
        (Cell(""), _say("game to its end: the final disc difference with best play.")),
        (Cell("a-h, 1-8", bold=True), _say("round the board: the squares' names (d3)")),
        (Cell("Black 5", bold=True), _say("top left: the discs each side has now")),
    )  # fmt: skip
