"""Reversi's statistics: the key each finished game is counted under, and the view of them.

A game a person plays against a computer level is counted under ``reversi:LEVEL:COLOUR``
(the level played against, the colour the person had) with its disc difference as the margin
(:meth:`~game.settings.Statistics.record`). :func:`statistics_sheet` shows the games, wins,
draws, losses and best disc difference per level and colour, with totals per colour and for
all games; the registry entry names it, so the menu shows it too. Games counted before colours
were (``reversi:LEVEL``) are shown with the colour unknown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from game.engine.controller import Cell, Sheet
from game.logic.reversi import LEVELS
from game.logic.reversi.board import Color

if TYPE_CHECKING:
    from game.settings import GameStats, Statistics

__all__ = ["PREFIX", "statistics_sheet", "stats_key"]

PREFIX: Final = "reversi:"
_COLOURS: Final = ("black", "white")
_HEADER: Final = ("Level", "Colour", "Games", "Won", "Drawn", "Lost", "Best")


def stats_key(level: str, color: Color) -> str:
    """The statistics key of a game against ``level`` with the person playing ``color``.

    >>> stats_key("master", Color.WHITE)
    'reversi:master:white'
    """
    return f"{PREFIX}{level}:{color.name.lower()}"


def statistics_sheet(stats: Statistics) -> Sheet:
    """The Reversi statistics in ``stats`` as a sheet: a row per level and colour played,
    then the totals as Black, as White and of all games."""
    from game.settings import GameStats

    header = tuple(Cell(text) for text in _HEADER)
    rows: list[tuple[Cell, ...]] = []
    totals = {colour: GameStats() for colour in (*_COLOURS, "")}
    for level in _levels(stats):
        for colour in (*_COLOURS, ""):
            record = stats.games.get(_key(level, colour))
            if record is None or not record.played:
                continue
            rows.append(_row(level.replace("-", " ").title(), colour or "unknown", record))
            _add(totals[""], record)  # every game
            if colour:
                _add(totals[colour], record)
    footer = (
        "Counted: your games to the end against the computer.",
        "Best: your largest win in discs (yours minus its),",
        "negative when every game was lost.",
    )
    if not rows:
        empty = (Cell("No games counted yet."),)
        return Sheet("Reversi statistics", header, (empty,), footer)
    rows.append((Cell("All levels", bold=True),))
    for colour in _COLOURS:
        if totals[colour].played:
            rows.append(_row("All", colour, totals[colour]))
    rows.append(_row("All games", "", totals[""]))
    return Sheet("Reversi statistics", header, tuple(rows), footer)


# --- private helpers: they trust their input -------------------------------------------------


def _key(level: str, colour: str) -> str:
    return f"{PREFIX}{level}:{colour}" if colour else f"{PREFIX}{level}"


def _levels(stats: Statistics) -> list[str]:
    """The levels with games counted, in the order of :data:`LEVELS` (then any other level a
    newer version counted, by name)."""
    found = {key[len(PREFIX) :].split(":")[0] for key in stats.games if key.startswith(PREFIX)}
    return [level for level in LEVELS if level in found] + sorted(found - set(LEVELS))


def _row(level: str, colour: str, record: GameStats) -> tuple[Cell, ...]:
    best = "" if record.best_margin is None else f"{record.best_margin:+d}"
    return (
        Cell(level, bold=level.startswith("All")),
        Cell(colour.title()),
        Cell(str(record.played)),
        Cell(str(record.won), color=(140, 230, 150, 255)),
        Cell(str(record.drawn)),
        Cell(str(record.lost), color=(240, 150, 140, 255)),
        Cell(best, bold=True),
    )


def _add(total: GameStats, record: GameStats) -> None:
    total.played += record.played
    total.won += record.won
    total.drawn += record.drawn
    total.lost += record.lost
    if record.best_margin is not None and (
        total.best_margin is None or record.best_margin > total.best_margin
    ):
        total.best_margin = record.best_margin
