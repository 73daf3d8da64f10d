"""Games in progress kept between runs: one TOML file a game in the user's data folder
(``games/chess.toml``), written when the player leaves a game and read when they come back.

The file holds the game's id, the options it was played with, the match's record
(:mod:`game.logic.saved`) and what the game's scene keeps of its own (Cluedo's dealer). It is
read and written through :mod:`game.tomlfile` like the settings: looked at before it is
opened, at most 1 MiB, written atomically. A file that cannot be used (not TOML, not a
table of the right keys, or a record that does not replay) is renamed aside
(``chess.toml.bad-YYYYmmdd-HHMMSS``) and the person told so in one line; the game then starts
afresh, and nothing crashes.

>>> import tempfile, pathlib
>>> kept = KeptGames(pathlib.Path(tempfile.mkdtemp()))
>>> kept.save("chess", {"game": "chess", "options": {}, "record": {"seed": 1}, "extra": {}})
>>> kept.load("chess")["record"]
{'seed': 1}
>>> kept.forget("chess"); kept.load("chess") is None
True
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from game.errors import GamehallError
from game.tomlfile import (
    UnusableFile,
    one_line,
    read_document,
    remove_stray_temps,
    set_aside,
)
from game.writer import Writer, save, settled

__all__ = ["KeptGameError", "KeptGames"]

log = logging.getLogger(__name__)

#: The keys a kept game's file has, and the type of each.
KEYS = {"game": str, "options": dict, "record": dict, "extra": dict}


class KeptGameError(GamehallError, ValueError):
    """A kept game that cannot be used; the message says which, why and where it was put."""


class KeptGames:
    """The kept games in ``folder`` (made on the first save); with a ``writer``
    (:class:`game.writer.Writer`) they are written in the background, and each read waits for
    its file's write."""

    def __init__(self, folder: Path, writer: Writer | None = None) -> None:
        self.folder = Path(folder)
        self.writer = writer

    def _settled(self, game: str) -> Path:
        """``game``'s file, once a write of it in the background is done."""
        return settled(self.writer, self.path(game))

    def path(self, game: str) -> Path:
        """The file of ``game``'s kept game (an id with odd characters is made safe)."""
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", game)[:100].lstrip(".") or "game"
        return self.folder / f"{safe}.toml"

    def exists(self, game: str) -> bool:
        """Whether a game of ``game`` is kept (a file is there; it may still prove unusable)."""
        return self._settled(game).is_file()

    def load(self, game: str) -> dict[str, Any] | None:
        """``game``'s kept game, or None; raises :class:`KeptGameError` for a file that cannot
        be used, which is set aside first."""
        path = self._settled(game)
        remove_stray_temps(path)
        try:
            found = read_document(path)
        except UnusableFile as exc:
            raise KeptGameError(self._aside(path, exc.why)) from None
        if found is None:
            return None
        data, _raw = found
        for key, kind in KEYS.items():
            if not isinstance(data.get(key), kind):
                raise KeptGameError(self._aside(path, f"has no {key} of the right kind"))
        if data["game"] != game:
            raise KeptGameError(self._aside(path, f"holds a game of {data['game']!r}"))
        return data

    def save(self, game: str, data: Mapping[str, Any]) -> None:
        """Keep ``data`` (TOML-ready: tables, text, numbers, booleans) as ``game``'s; raises
        OSError when the folder cannot be written (in the background: the writer reports it)."""
        save(self.writer, self.path(game), dict(data))

    def forget(self, game: str) -> None:
        """No game of ``game`` is kept any more (a finished or abandoned one)."""
        try:
            self._settled(game).unlink(missing_ok=True)
        except OSError as exc:
            log.warning("could not remove %s: %s", self.path(game), exc)

    def set_aside(self, game: str, why: str) -> str:
        """Rename ``game``'s file aside because ``why`` (it does not replay, say) and return
        the line for the person."""
        return self._aside(self._settled(game), why)

    def _aside(self, path: Path, why: str) -> str:
        message = set_aside(path, why).replace("starting with defaults", "starting a new game")
        return one_line(f"The game kept in {message}")
