"""The shipped descriptions (``game/logic/rules/games/*.txt``) and a cache of their rulebooks.

>>> "chess" in shipped()
True
>>> rulebook("tic-tac-toe").design.title
'Tic-tac-toe'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from game.logic.rules.design import Design, load, parse
from game.logic.rules.group_rulebook import GroupRulebook
from game.logic.rules.rulebook import Rulebook

__all__ = [
    "design",
    "file_id",
    "path_of",
    "rulebook",
    "rulebook_for_text",
    "rulebook_for_zrf",
    "shipped",
]

#: The menu's order; any other shipped file follows, by name.
ORDER = (
    "tic-tac-toe",
    "gomoku",
    "chess",
    "xiangqi",
    "english-draughts",
    "russian-draughts",
    "international-draughts",
    "brazilian-draughts",
    "pool-checkers",
    "czech-draughts",
    "bashni",
    "othello",
    "breakthrough",
    "lines-of-action",
    "neutron",
    "surakarta",
    "nine-mens-morris",
    "kalah",
    "banqi",
    "ur",
    "italian-draughts",
    "go",
    "shogi",
    "pentago",
    "oware",
    "barrage",
    "backgammon",
    "chaturaji",
)


def _folder() -> Path:
    return Path(str(resources.files("game.logic.rules") / "games"))


@lru_cache(maxsize=1)
def shipped() -> tuple[str, ...]:
    """The ids of the shipped descriptions (each file's name without ``.txt``)."""
    names = sorted(p.stem for p in _folder().glob("*.txt"))
    return tuple([n for n in ORDER if n in names] + [n for n in names if n not in ORDER])


def path_of(game_id: str) -> Path:
    if game_id not in shipped():
        raise ValueError(f"no described game {game_id!r}; the games: {', '.join(shipped())}")
    return _folder() / f"{game_id}.txt"


@cache
def design(game_id: str) -> Design:
    """The design of a shipped description (read once per process)."""
    found = load(path_of(game_id))
    if found.id != game_id:
        raise ValueError(f"{path_of(game_id)} declares (game {found.id}), not {game_id}")
    return found


def rulebook(game_id: str, values: Mapping[str, int] | None = None) -> Rulebook:
    """The compiled rulebook of a shipped description with its parameters set to ``values``
    (the rest at their defaults); compiled once per process and setting."""
    return _rulebook(game_id, tuple(sorted((values or {}).items())))


@lru_cache(maxsize=64)
def _rulebook(game_id: str, values: tuple[tuple[str, int], ...]) -> Rulebook:
    made = made_rulebook(design(game_id) if not values else load(path_of(game_id), dict(values)))
    made.origin = (_rulebook, (game_id, values))
    return made


def made_rulebook(design: Design) -> Rulebook:
    """The rulebook that plays ``design``: one of groups (Go) where it has the rule."""
    return GroupRulebook(design) if design.groups is not None else Rulebook(design)


def file_id(source: str) -> str:
    """The id a person's description file plays under: its file name, so that a copy of a
    shipped game, whatever it declares, is a game of its own. A shipped or hand-written
    game's id has no dot; a name without one is set apart by ``file-``.

    >>> file_id("/home/me/games/My chess.txt"), file_id("chess")
    ('My-chess.txt', 'file-chess')
    """
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(source).name).strip("-") or "game"
    return name if "." in name.strip(".") else f"file-{name}"


def rulebook_for_text(text: str, source: str, values: Mapping[str, int] | None = None) -> Rulebook:
    """A rulebook for a description's text (a person's file at ``source``), under the id
    :func:`file_id` gives; raises DescriptionError, or RulesError (a ValueError too) when the
    start position's moves pass a bound of :mod:`~game.logic.rules.limits`."""
    design: Design = parse(text, source, values)
    design.id = file_id(source)
    made = made_rulebook(design)
    # The start's moves, generated once here: a game whose first position passes the
    # rulebook's bounds (limits.MAX_MOVES) is refused as it is read, with the form at fault,
    # so a window reloading it keeps the game it has.
    made.legal(made.start())
    # Made again from the same text in a worker process (and compiled once there).
    made.origin = (_text_rulebook, (text, source, tuple(sorted((values or {}).items()))))
    return made


@lru_cache(maxsize=16)
def _text_rulebook(text: str, source: str, values: tuple[tuple[str, int], ...]) -> Rulebook:
    return rulebook_for_text(text, source, dict(values))


def rulebook_for_zrf(
    text: str, source: str, variant: int = 0, include: Callable[[str], str] | None = None
) -> Rulebook:
    """A rulebook for game ``variant`` (from 0, in file order) of a Zillions ``.zrf`` file's
    text, under the id :func:`game.logic.zrf.load.game_id` gives; ``include`` reads a file
    its ``(include "NAME")`` names. Raises DescriptionError naming the ``.zrf`` file's line
    and column (a variant out of range names the file and its games), or RulesError."""
    from game.logic.zrf.load import design as zrf_design

    read: dict[str, str] = {}

    def recorded(name: str) -> str:
        assert include is not None
        read[name] = include(name)
        return read[name]

    read_design = zrf_design(text, source, variant, recorded if include else None)
    read_design.lines = text.count("\n") + 1  # the file's own (not its includes')
    made = made_rulebook(read_design)
    made.legal(made.start())  # refused as it is read, as rulebook_for_text does
    # Made again in a worker process from the same text and the included files read now.
    made.origin = (_zrf_rulebook, (text, source, variant, tuple(sorted(read.items()))))
    return made


@lru_cache(maxsize=16)
def _zrf_rulebook(
    text: str, source: str, variant: int, included: tuple[tuple[str, str], ...]
) -> Rulebook:
    return rulebook_for_zrf(text, source, variant, dict(included).__getitem__)
