"""The tree of a game record's moves (:class:`Line`), the record around it (:class:`Record`)
and the error a record that does not read raises; the formats are
:mod:`game.logic.rules.records` and :mod:`game.logic.rules.sgf`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from game.logic.contract import GameError

__all__ = ["MAX_MOVES", "GameRecordError", "Line", "Record", "graft", "line_at"]

#: The most moves a record may hold, every branch counted.
MAX_MOVES: Final = 20_000


class GameRecordError(GameError):
    """A record that cannot be read or does not replay; the message says where and why."""


@dataclass(eq=False)
class Line:
    """A move of a record and the moves that follow it, the main line first. ``seat`` and
    ``number`` (the move number a score sheet gives it) are filled in by
    ``check_record`` (:mod:`game.logic.rules.records`)."""

    text: str
    children: list[Line] = field(default_factory=list)
    seat: int = -1
    number: int = 0


@dataclass
class Record:
    """A game's record: what it is, where it starts, and its tree of moves (``moves``: the
    alternatives for the first move, the main line first)."""

    game: str
    format: str
    parameters: dict[str, int] = field(default_factory=dict)
    position: str = ""
    seed: int | None = None
    moves: list[Line] = field(default_factory=list)
    result: str = "*"
    tags: dict[str, str] = field(default_factory=dict)

    def main_line(self) -> list[Line]:
        """The first move of each choice, from the start to the end."""
        out, here = [], self.moves
        while here:
            out.append(here[0])
            here = here[0].children
        return out

    def count(self) -> int:
        """The moves of every line together."""
        total, stack = 0, list(self.moves)
        while stack:
            node = stack.pop()
            total += 1
            stack.extend(node.children)
        return total

    def lines(self) -> Iterator[list[Line]]:
        """Every line from the start to a leaf (each variation played out)."""
        stack: list[tuple[list[Line], list[Line]]] = [([], self.moves)]
        while stack:
            path, here = stack.pop()
            if not here:
                yield path
                continue
            for node in reversed(here):
                stack.append(([*path, node], node.children))


def graft(moves: list[Line], texts: Sequence[tuple[int, str]]) -> tuple[int, ...]:
    """Add the line of ``texts`` (each a seat and a move's text) to the tree ``moves``, sharing
    the moves it begins with: a move that is not there yet starts a new variation after the
    others. Returns the line's path (the index of each move among its alternatives)."""
    path, here, number, last = [], moves, 1, -1
    for seat, text in texts:
        number = number if seat > last else number + 1
        i = next((i for i, node in enumerate(here) if node.text == text), len(here))
        if i == len(here):
            here.append(Line(text, seat=seat, number=number))
        path.append(i)
        here, last = here[i].children, seat
    return tuple(path)


def line_at(moves: list[Line], path: Sequence[int]) -> list[Line]:
    """The moves along ``path`` from the start."""
    out, here = [], moves
    for i in path:
        out.append(here[i])
        here = here[i].children
    return out
