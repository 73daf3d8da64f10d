"""Progress on stderr for long commands, drawn by tqdm, and only on a terminal.

Two shapes: :func:`games_bar`, a bar that counts a tournament's games, and :func:`status_line`,
one line of text redrawn in place (a search's elapsed seconds). When stderr is not a terminal
(a pipe, a log, CI) neither draws anything, so what scripts read stays clean; results always
go to stdout.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["games_bar", "status_line"]


def _on_terminal() -> bool:
    return sys.stderr.isatty()


@contextmanager
def games_bar() -> Iterator[Callable[[int, int, Any], None] | None]:
    """``show(done, total, record)`` to call after each game of a tournament, redrawing a bar of
    the games played on stderr; the line ends when the block is left. None when stderr is not
    a terminal (no bar in logs or pipes)."""
    if not _on_terminal():
        yield None
        return
    bars: list[Any] = []  # made at the first game, when the total is known

    def show(done: int, total: int, record: Any) -> None:
        if not bars:
            bars.append(_tqdm(total=total, unit="game"))
        bars[0].update(done - bars[0].n)

    try:
        yield show
    finally:
        for bar in bars:
            bar.close()


@contextmanager
def status_line() -> Iterator[Callable[[str], None] | None]:
    """``show(text)`` redraws ``text`` as one line on stderr; the line ends when the block is
    left, if anything was shown. None when stderr is not a terminal."""
    if not _on_terminal():
        yield None
        return
    lines: list[Any] = []  # made at the first text, so nothing shows before it
    drawn: list[bool] = []  # marked before the line is made: it draws as it is made

    def show(text: str) -> None:
        if not lines:
            drawn.append(True)
            lines.append(_tqdm(total=None, bar_format="{desc}", desc=text))
        else:
            lines[0].set_description_str(text, refresh=True)

    try:
        yield show
    finally:
        for line in lines:
            line.close()
        if drawn and not lines:  # a Ctrl-C came while the line was being made: end it here
            sys.stderr.write("\n")
            sys.stderr.flush()


def _tqdm(**options: Any) -> Any:
    """A tqdm bar on the current stderr, drawn at once and at every update, kept on close, as
    wide as the terminal. A terminal that does not say its size (a new pseudo-terminal says
    0 x 0) counts as 80 x 24: tqdm would draw nothing in a terminal of no rows."""
    from tqdm import tqdm

    columns, rows = _size()
    return tqdm(file=sys.stderr, mininterval=0.0, leave=True, ncols=columns, nrows=rows, **options)


def _size() -> tuple[int, int]:
    try:
        columns, rows = os.get_terminal_size(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):  # no file descriptor (a test's stand-in)
        columns, rows = 0, 0
    return columns if columns > 0 else 80, rows if rows > 0 else 24
