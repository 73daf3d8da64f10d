"""Reading a ``.zrf`` file: its games and variants (by index, from 0, in file order, as
``perft.tsv`` numbers them), each as a :class:`~game.logic.rules.design.Design`.

``(include "FILE")`` at the top of a file reads another file of the same folder; the caller
gives the function that reads it (the logic layer opens no file itself).

>>> text = '''(game (title "Two") (players A B) (turn-order A B)
...   (board (grid (dimensions ("a/b" (50 0)) ("2/1" (0 50))) (directions (n 0 -1))))
...   (piece (name P) (moves ((verify friend?) n (verify empty?) add)))
...   (board-setup (A (P a1)) (B (P b1))))'''
>>> [v.title for v in variants(text, "two.zrf")]
['Two']
>>> design(text, "two.zrf").board.names
('a2', 'a1', 'b2', 'b1')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import Final

from game.logic.rules.design import Design, from_forms
from game.logic.rules.sexpr import Atom, DescriptionError, Form, Item
from game.logic.zrf.lexer import decode, read_zrf
from game.logic.zrf.macros import games, titles
from game.logic.zrf.translate import Translation

__all__ = ["Variant", "decode", "design", "forms", "variants"]

#: Files an ``include`` may pull in, nested.
MAX_INCLUDES: Final = 8

Include = Callable[[str], str]


@dataclass(frozen=True)
class Variant:
    """One game of a file: its index and title."""

    index: int
    title: str


def _items(text: str, source: str, include: Include | None, depth: int = 0) -> list[Item]:
    items = read_zrf(text, source)
    out: list[Item] = []
    for item in items:
        if isinstance(item, Form) and item.head == "include":
            if len(item) != 2 or not isinstance(item[1], Atom):
                raise item.error('(include "FILE")')
            name = str(item[1].value)
            if include is None:
                raise item.error(f"cannot read the included file {name!r} here")
            if depth >= MAX_INCLUDES or ".." in name or "/" in name or "\\" in name:
                raise item.error(f"the included file {name!r} is not read")
            try:
                inner = include(name)
            except (OSError, ValueError) as exc:
                raise item.error(f"cannot read the included file {name!r}: {exc}") from None
            out.extend(_items(inner, str(PurePath(source).with_name(name)), include, depth + 1))
        else:
            out.append(item)
    return out


def _games(text: str, source: str, include: Include | None) -> list[Form]:
    return games(_items(text, source, include))


def variants(text: str, source: str, include: Include | None = None) -> list[Variant]:
    """The games of a file, in order."""
    return [Variant(i, t) for i, t in enumerate(titles(_games(text, source, include)))]


def game_id(source: str, index: int) -> str:
    """The id a file's game plays under: ``zrf-`` and the file's name (and the index after
    the first game).

    >>> game_id("/x/Mini Chess.zrf", 2)
    'zrf-mini-chess-2'
    """
    stem = re.sub(r"[^a-z0-9]+", "-", PurePath(source).stem.lower()).strip("-") or "game"
    return f"zrf-{stem}" + (f"-{index}" if index else "")


def forms(text: str, source: str, variant: int = 0, include: Include | None = None) -> list[Item]:
    """The game's description forms (the engine's own language)."""
    found = _games(text, source, include)
    if not 0 <= variant < len(found):
        raise DescriptionError(
            f"the file has {len(found)} games: variant 0 to {len(found) - 1}", source
        )
    return Translation(found[variant], source, game_id(source, variant)).forms()


def design(text: str, source: str, variant: int = 0, include: Include | None = None) -> Design:
    """The design of the file's game ``variant``; raises DescriptionError naming the
    ``.zrf`` file's line and column."""
    made = from_forms(forms(text, source, variant, include), source)
    return made
