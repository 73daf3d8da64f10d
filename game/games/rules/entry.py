"""The described board games in the registry: one entry per shipped description
(``game/logic/rules/games/*.txt``), and one made on the spot for a user's file
(``gamehall play path/to/game.txt``).

Every entry has the same options (who plays each side, the computer's time, a start
position in the game's notation), the levels beginner to master and the plain agents random,
alphabeta and uct, the board scene, and
``gamehall bench GAME`` (random playouts and perft speed) and ``gamehall solve GAME``
(the computer's move for a position), both in :mod:`game.games.rules.hooks`.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Final, SupportsIndex

from game.games.rules.seats import HINT, HUMAN, SEAT_OPTIONS, SIDES, TIME_PER_MOVE
from game.logic.options import Option, OptionsSchema
from game.registry import Entry

__all__ = ["ENTRIES", "HINT", "HUMAN", "SIDES", "FileEntry", "entry_for", "entry_for_file"]

#: The menu's group of a described game whose description names no family.
OTHER_FAMILY: Final = "Other board games"


def _options(
    players: Sequence[str], parameters: Sequence[Any] = (), computer: str = HINT
) -> OptionsSchema:
    """Who plays each side (the first a person, the others the computer), the computer's
    time and a start position, after the description's own parameters (a board's size)."""
    described = tuple(
        Option(p.name, int, p.default, minimum=p.least, maximum=p.most, help=p.help or p.name)
        for p in parameters
    )
    seats = tuple(
        Option(
            name,
            str,
            HUMAN if seat == 0 else computer,
            choices=SIDES,
            help=f"who plays {player}" + (": human or an agent" if seat == 0 else ""),
        )
        for seat, (name, player) in enumerate(zip(SEAT_OPTIONS, players, strict=False))
    )
    return OptionsSchema(
        (
            *described,
            *seats,
            TIME_PER_MOVE,
            Option("position", str, "", help="a start position in the game's notation"),
        )
    )


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    return dict(zip(SEAT_OPTIONS, agents, strict=False))


def entry_for(game_id: str, rulebook: Any = None, text: str = "") -> Entry:
    """The registry entry of a shipped description, or of ``rulebook`` (a user's file). The
    description is read now and compiled when its first game is made."""
    from game.logic.rules import catalogue
    from game.logic.rules.design import FORMER_AGENTS

    design = rulebook.design if rulebook is not None else catalogue.design(game_id)

    names = [p.name for p in design.parameters]

    def make_game(options: Mapping[str, Any]) -> Any:
        from game.logic.rules.state import RulesGame

        values = {n: int(options[n]) for n in names if n in options}
        changed = {n: v for n, v in values.items() if v != design.values.get(n)}
        if rulebook is None:
            chosen = catalogue.rulebook(game_id, changed)
        elif changed:  # a user's file with other parameters: read it again with them
            chosen = catalogue.rulebook_for_text(text, design.source, values)
        else:
            chosen = rulebook
        game = RulesGame(chosen, options)
        if options.get("position"):
            game.initial_state(__import__("random").Random(0))  # a bad text is refused now
        return game

    return Entry(
        id=design.id,
        title=design.title,
        summary=(design.about.split(". ")[0].rstrip(".") + ".") if design.about else design.title,
        options=_options(design.players, design.parameters, design.computer),
        make_game=make_game,
        roster="game.logic.rules.agents",
        hint_agent=design.computer,
        opponents=SEAT_OPTIONS[: len(design.players)],
        former_agents=FORMER_AGENTS,
        warm_up=True,  # the description compiles on its first game
        think_in_worker=True,  # the searches are Python: they would hold up the drawing thread
        package="rules",  # one package for every described game
        controller="BoardController",
        group=design.family or OTHER_FAMILY,
        seat_options=_seat_options,
    )


def entry_for_file(path: Path, variant: int = 0) -> Entry:
    """An entry for a user's description file (game ``variant`` of a ``.zrf`` file);
    DescriptionError (a ValueError) or OSError when it cannot be read or does not make a
    game."""
    from game.games.rules.file import read_rulebook
    from game.logic.rules.catalogue import rulebook_for_text
    from game.userfiles import read_text

    text = ""  # a .zrf file has no parameters: it is never read again with other values
    if variant or Path(path).suffix.lower() == ".zrf":
        rulebook = read_rulebook(path, None, variant)
    else:
        text = read_text(path, "game description")
        rulebook = rulebook_for_text(text, str(path))
    entry = entry_for(rulebook.design.id, rulebook, text)
    return _with_file(entry, path, variant)


@dataclass(frozen=True, kw_only=True)
class FileEntry(Entry):
    """The entry of a person's description file (game ``variant`` of a ``.zrf`` file): a
    worker process (a tournament's games) reads the file again, where a shipped game's
    entry travels by its id."""

    file: Path
    variant: int = 0

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        return (entry_for_file, (self.file, self.variant))


def _with_file(entry: Entry, path: Path, variant: int = 0) -> Entry:
    overrides = entry.play_overrides

    def play_overrides(args: argparse.Namespace) -> dict[str, Any]:
        out = dict(overrides(args)) if overrides else {}
        out["description"] = path
        if variant:
            out["variant"] = variant
        return out

    given = {f.name: getattr(entry, f.name) for f in fields(entry) if f.init}
    given.update(play_overrides=play_overrides, picture="")
    return FileEntry(**given, file=Path(path).absolute(), variant=variant)


def _entries() -> list[Entry]:
    from game.logic.rules.catalogue import shipped

    return [entry_for(game_id) for game_id in shipped()]


ENTRIES: Final = _entries()
