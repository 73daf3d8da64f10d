"""Settings and statistics that persist between runs as TOML files.

Both files live in :func:`home_dir` (``$GAMEHALL_HOME`` when set, else the platformdirs config
folder); screenshots go to :func:`screenshot_dir`. A :class:`Store` reads and writes them::

    store = Store()                          # or Store(folder)
    settings, messages = store.load_settings()  # show the messages to the person
    settings.window.width = 1600
    store.save_settings(settings)

Loading never raises and never waits, but for a write of the same file (see below). What it
does with each kind of file:

- missing (or a link to nothing): the defaults, no message;
- not a regular file (a folder, a named pipe, a socket, a device), over 1 MiB
  (:data:`game.tomlfile.MAX_FILE_BYTES`), unreadable, not UTF-8, not TOML, or nested too
  deeply to parse: the file is renamed aside (``settings.toml.bad-YYYYmmdd-HHMMSS``) and the
  defaults used. It is looked at before it is opened, and opened without blocking, so a pipe
  cannot hang the start; a link to a regular file is read like the file;
- a UTF-8 byte order mark at the start: skipped, the rest read as usual;
- an unknown key, or a value of the wrong type, out of range (window sides 1..16384, places
  within ±32767, counts 0..2**53) or not finite: that field keeps its default, every other
  value is kept, and a copy of the file as it was is kept aside (once) before anything
  rewrites it;
- temp files left by a write that was killed (``.settings.toml.XXXX.tmp``): removed, unless a
  write still running in another process holds them.

Each problem is logged and also returned as one line for the person (the first ten, then a
count of the rest). Writes are atomic: a locked temp file in the same folder, fsynced, then
renamed over the old file, so a killed write leaves the old file or the new one, never a mix;
a link, a pipe, a device or a folder in the file's place is refused, not written through
(:mod:`game.safewrite`). The window writes them on a thread of its own (:mod:`game.writer`),
so a frame never waits for the disk; a load waits for its file's write. The reading, setting
aside and writing of the files themselves is :mod:`game.tomlfile`.

Two windows, or a window and a tournament, may run at once: no change is lost. A save writes
only the settings this store changed since it loaded them, over what the file holds when it
is written, and a finished game counted (:meth:`Store.record`) is one more game over what the
file holds then; the file is read, changed and written while holding the lock on
``settings.toml.lock`` (``statistics.toml.lock``) beside it.

Each game's options are a table named by the game's id (``[river]``, ``[grab]``), read through
the game's options schema (:mod:`game.logic.options`), the same one that checks the command
line and the window's options buttons; a new game needs nothing here. The rest is read into
the dataclasses below by :mod:`game.tomldata`, which says what types a field may have and how
``metadata`` limits its values.
"""

from __future__ import annotations

import logging
import os
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypedDict, TypeVar, Unpack

import platformdirs

from game.errors import GamehallError
from game.places import APP_NAME, HOME_ENV, home_from_env
from game.tomldata import (
    GONE,
    apply_changes,
    differences,
    from_table,
    show,
    to_toml,
)
from game.tomlfile import (
    UnusableFile,
    encode,
    keep_copy,
    one_line,
    read_document,
    remove_stray_temps,
    set_aside,
)
from game.writer import Writer, save, settled, update

if typing.TYPE_CHECKING:
    from game.logic.options import OptionsSchema

logger = logging.getLogger(__name__)

SETTINGS_FILE = "settings.toml"
STATISTICS_FILE = "statistics.toml"

#: How far a saved window place may be from the screen's origin (X11 places are 16-bit).
_PLACE: Final = {"min": -32767, "max": 32767}
#: A window side in pixels.
_SIDE: Final = {"min": 1, "max": 16384}
#: A count or a score: never negative, and exact in a double (what other tools read TOML into).
_COUNT: Final = {"min": 0, "max": 2**53}
#: A margin (a score that may be negative, as a disc difference), exact in a double.
_MARGIN: Final = {"min": -(2**53), "max": 2**53}

T = TypeVar("T")


class SettingsError(GamehallError, ValueError):
    """A value handed to the settings or statistics API is not acceptable."""


def home_dir() -> Path:
    """Return the folder for settings and statistics.

    ``$GAMEHALL_HOME`` when set and non-empty (created if missing), else the platform's config
    folder for "gamehall" (not created here; :class:`Store` creates it on the first save).
    Raises :class:`game.places.HomeError` (one line for the person) when ``$GAMEHALL_HOME``
    starts with a ``~`` that cannot be expanded.
    """
    path = home_from_env()
    if path is not None:
        path.mkdir(parents=True, exist_ok=True)
        return path
    return Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """Return the folder for data the game makes: ``$GAMEHALL_HOME/data`` or the platform's."""
    env = os.environ.get(HOME_ENV)
    if env:
        return home_dir() / "data"
    return Path(platformdirs.user_data_dir(APP_NAME))


def screenshot_dir() -> Path:
    """Return ``data_dir()/screenshots``, creating it if missing."""
    path = data_dir() / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(slots=True)
class WindowPlace:
    """The window's size and place on one monitor (``x``/``y`` from the virtual desktop's
    top-left, as pyglet's ``set_location`` takes them)."""

    width: int = field(default=1280, metadata=_SIDE)
    height: int = field(default=720, metadata=_SIDE)
    x: int = field(default=0, metadata=_PLACE)
    y: int = field(default=0, metadata=_PLACE)


@dataclass(slots=True)
class WindowSettings:
    """Size and place of the main window; ``x``/``y`` None lets the system place it.

    ``monitor`` names the monitor it was on last ("" before any) and ``monitors`` keeps its
    size and place on each monitor by name (:mod:`game.window_place`), so it opens
    where it was on the monitor it opens on.
    """

    width: int = field(default=1280, metadata=_SIDE)
    height: int = field(default=720, metadata=_SIDE)
    x: int | None = field(default=None, metadata=_PLACE)
    y: int | None = field(default=None, metadata=_PLACE)
    monitor: str = ""
    monitors: dict[str, WindowPlace] = field(default_factory=dict)


@dataclass(slots=True)
class OverlaySettings:
    """The F3 overlay: the edge it docks at, and whether it is folded to its title bar."""

    side: str = field(default="left", metadata={"choices": ("left", "right")})
    collapsed: bool = False


@dataclass(slots=True)
class Settings:
    """Everything the person can set; saved to ``settings.toml``.

    ``games`` maps a game's id to its option values. In the file each game is a table of its
    own (``[river]``, ``[reversi]``), read through that game's options schema, so a value
    the schema refuses falls back to its default with a message naming the key.
    ``last_game`` is the id of the game played last ("" before any): the menu's Continue.
    """

    window: WindowSettings = field(default_factory=WindowSettings)
    overlay: OverlaySettings = field(default_factory=OverlaySettings)
    last_game: str = ""
    shadows: bool = True
    show_fps: bool = False
    #: The sound effects' volume in percent, and whether they are muted (M in the window).
    volume: int = field(default=80, metadata={"min": 0, "max": 100})
    muted: bool = False
    games: dict[str, dict[str, Any]] = field(default_factory=dict)

    def options(self, game: str) -> dict[str, Any]:
        """The saved option values of ``game`` (a copy; empty when none were saved)."""
        return dict(self.games.get(game, {}))


@dataclass(slots=True)
class GameStats:
    """Counts for one game; ``best`` maps a setting key to the fewest moves in a won game;
    ``best_margin`` is the highest margin of any game counted (more is better: Reversi's
    disc difference), None before a game with a margin."""

    played: int = field(default=0, metadata=_COUNT)
    won: int = field(default=0, metadata=_COUNT)
    lost: int = field(default=0, metadata=_COUNT)
    drawn: int = field(default=0, metadata=_COUNT)
    best: dict[str, int] = field(default_factory=dict, metadata=_COUNT)
    best_margin: int | None = field(default=None, metadata=_MARGIN)


class _Won(TypedDict):
    won: bool


class GameTally(_Won, total=False):
    """A finished game as the statistics count it, the keywords of every ``record`` (their
    defaults and checks are :meth:`Statistics.record`'s): ``won``; ``drawn``; ``score`` (fewer
    is better) under ``setting``; ``margin`` (more is better, negative for a loss)."""

    drawn: bool
    setting: str | None
    score: int | None
    margin: int | None


@dataclass(slots=True)
class Statistics:
    """Per-game records, keyed by game name (e.g. ``"river"``); saved to ``statistics.toml``."""

    games: dict[str, GameStats] = field(default_factory=dict)

    def record(
        self,
        game: str,
        *,
        won: bool,
        setting: str | None = None,
        score: int | None = None,
        drawn: bool = False,
        margin: int | None = None,
    ) -> bool:
        """Count one finished game; return True when ``score`` is a new best for ``setting``,
        or ``margin`` a new best margin.

        Lower scores are better and a tie is not a new best; the first won score for a setting
        is always a new best. A score only counts for a won game (for a lost one it is ignored
        and False returned). A margin (a whole number, negative for a loss) counts for any
        game; the highest is kept, and the first is a new best. Raises
        :class:`SettingsError` for an empty game name, a score without a setting, a score
        that is not a non-negative int, or a margin that is not an int.

        >>> stats = Statistics()
        >>> stats.record("reversi:master:black", won=False, margin=-6)
        True
        >>> stats.record("reversi:master:black", won=True, margin=10)
        True
        >>> stats.games["reversi:master:black"].best_margin
        10

        >>> stats = Statistics()
        >>> stats.record("river", won=True, setting="3/3/2", score=11)
        True
        >>> stats.record("river", won=True, setting="3/3/2", score=11)
        False
        >>> stats.games["river"].played, stats.games["river"].best
        (2, {'3/3/2': 11})
        """
        if not game:
            raise SettingsError("game name must not be empty")
        if margin is not None and (isinstance(margin, bool) or not isinstance(margin, int)):
            raise SettingsError(f"margin must be a whole number, not {margin!r}")
        if margin is not None and abs(margin) > _MARGIN["max"]:
            raise SettingsError(f"margin {margin} is out of range")
        if score is not None:
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise SettingsError(f"score must be a non-negative int, not {score!r}")
            if not setting:
                raise SettingsError(f"score {score} needs the setting it was made in")
        rec = self.games.setdefault(game, GameStats())
        rec.played += 1
        if drawn:
            rec.drawn += 1
        elif won:
            rec.won += 1
        else:
            rec.lost += 1
        new_margin = margin is not None and (rec.best_margin is None or margin > rec.best_margin)
        if new_margin:
            rec.best_margin = margin
        if not won or drawn or score is None or setting is None:
            return new_margin
        best = rec.best.get(setting)
        if best is None or score < best:
            rec.best[setting] = score
            return True
        return False


class Store:
    """Reads and writes ``settings.toml`` and ``statistics.toml`` in one folder.

    ``Store()`` uses :func:`home_dir` as it is when constructed; ``Store(path)`` uses ``path``
    (a folder). The folder is created on the first save. With a ``writer``
    (:class:`game.writer.Writer`: the window's) the files are written in the background, a
    file that cannot be written is reported by the writer, and a load waits for its file's
    write.
    """

    def __init__(self, path: Path | None = None, writer: Writer | None = None) -> None:
        self.writer = writer
        self.directory = home_dir() if path is None else Path(path)
        #: Where games in progress are kept between runs (:mod:`game.kept`).
        self.kept_directory = (data_dir() if path is None else self.directory / "data") / "games"
        #: The games' options schemas of the last load (None: not loaded).
        self._schemas: dict[str, OptionsSchema] | None = None
        #: The settings as last loaded or saved, every game's defaults filled in: what a save
        #: compares with to find what this store changed (None: nothing loaded yet).
        self._known: dict[str, Any] | None = None

    @property
    def settings_path(self) -> Path:
        return self.directory / SETTINGS_FILE

    @property
    def statistics_path(self) -> Path:
        return self.directory / STATISTICS_FILE

    def load_settings(
        self, schemas: Mapping[str, OptionsSchema] | None = None
    ) -> tuple[Settings, list[str]]:
        """Return the saved settings (defaults where absent or bad) and messages for the person.

        ``schemas`` maps a game id to its options schema (default: every registered game);
        each game's table is read through it. Temp files left by a killed write are removed
        first; a bad file is handled as the module's docstring says.
        """
        self._schemas = dict(_all_schemas() if schemas is None else schemas)
        settings, messages = _load(
            settled(self.writer, self.settings_path), Settings, self._schemas
        )
        self._known = _settings_document(settings, self._schemas)
        return settings, messages

    def save_settings(self, settings: Settings) -> None:
        """Write what changed in ``settings`` since this store loaded or last saved them over
        what the file holds when it is written, read under the lock beside it: a setting
        another window or process saved meanwhile is kept. A store that has not loaded the
        settings writes them whole. Raises OSError when the file cannot be written at once
        (the writer, if any, reports its own), TypeError or ValueError for a value that is
        not TOML-ready."""
        schemas = self._schemas
        document = _settings_document(settings, schemas or {})
        if self._known is None or schemas is None:
            save(self.writer, self.settings_path, _settings_document(settings, {}))
            self._known = document
            return
        changes = differences(self._known, document)
        # A value that is not TOML-ready is the caller's mistake: raised here, not on the
        # writer's thread.
        encode({"changes": [value for _keys, value in changes if value is not GONE]})
        self._known = document

        def read(path: Path) -> dict[str, Any]:
            return _settings_document(_load(path, Settings, schemas)[0], {})

        update(self.writer, self.settings_path, read, lambda now: apply_changes(now, changes))

    def load_statistics(self) -> tuple[Statistics, list[str]]:
        """Return the saved statistics (empty where absent or bad) and messages for the person.

        Temp files left by a killed write are removed first, as for the settings."""
        return _load(settled(self.writer, self.statistics_path), Statistics)

    def save_statistics(self, statistics: Statistics) -> None:
        """Write ``statistics`` atomically, in place of what the file holds; raises OSError
        when the folder cannot be written. :meth:`record` counts one game without losing
        another process's."""
        save(self.writer, self.statistics_path, to_toml(statistics))

    def record(self, game: str, **outcome: Unpack[GameTally]) -> None:
        """Count one finished game (as :meth:`Statistics.record`, whose checks raise
        :class:`SettingsError` here) in the statistics file as it is when it is written, read
        under the lock beside it: games another process counted meanwhile are kept. Raises
        OSError when the file cannot be written at once (the writer, if any, reports its own)."""
        Statistics().record(game, **outcome)  # a bad argument is the caller's, raised here

        def count(document: dict[str, Any]) -> dict[str, Any]:
            statistics = from_table(Statistics, document, "", [])
            statistics.record(game, **outcome)
            return dict(to_toml(statistics))

        update(self.writer, self.statistics_path, _current_statistics, count)


# --- private helpers: they trust their input -------------------------------------------------


def _all_schemas() -> dict[str, OptionsSchema]:
    from game.registry import all_entries

    return {entry.id: entry.options for entry in all_entries()}


def _settings_document(settings: Settings, schemas: Mapping[str, OptionsSchema]) -> dict[str, Any]:
    """``settings`` as the file's document: each game's options a table of its own, with the
    defaults of the games in ``schemas`` filled in (so that a game's options saved whole do
    not count as changed where they are the defaults)."""
    data: dict[str, Any] = to_toml(settings)
    games: dict[str, dict[str, Any]] = data.pop("games", {})
    for game in {**schemas, **games}:
        if game in data:  # a game id never hides a setting of the program's own
            continue
        defaults = to_toml(schemas[game].defaults()) if game in schemas else {}
        data[game] = {**defaults, **games.get(game, {})}
    return data


def _current_statistics(path: Path) -> dict[str, Any]:
    """The statistics in ``path`` as they are now (a bad file set aside, as a load does)."""
    found, _messages = _load(path, Statistics)
    return dict(to_toml(found))


#: Problems listed one by one; the rest are counted in one more line.
_MAX_PROBLEMS: Final = 10


def _load(
    path: Path, cls: type[T], schemas: Mapping[str, OptionsSchema] | None = None
) -> tuple[T, list[str]]:
    remove_stray_temps(path)
    try:
        document = read_document(path)
    except UnusableFile as exc:
        return cls(), [set_aside(path, exc.why)]
    if document is None:
        return cls(), []
    data, raw = document
    problems: list[str] = []
    games = _game_tables(data, schemas, problems)
    obj = from_table(cls, data, "", problems)
    if games:
        obj.games = games  # type: ignore[attr-defined]  # only Settings is given schemas
    if len(problems) > _MAX_PROBLEMS:
        more = len(problems) - _MAX_PROBLEMS
        problems[_MAX_PROBLEMS:] = [f"and {more} more problem{'s' * (more > 1)} like these"]
    messages = [one_line(f"{path.name}: {problem}") for problem in problems]
    if messages:
        messages.append(keep_copy(path, raw))
    for message in messages:
        logger.info("%s", message)  # the caller shows the messages to the person
    return obj, messages


def _game_tables(
    data: dict[str, Any], schemas: Mapping[str, OptionsSchema] | None, problems: list[str]
) -> dict[str, dict[str, Any]]:
    """Take each game's table out of ``data`` and read it through the game's schema
    (``schemas`` None: the file has no game tables, as the statistics)."""
    games: dict[str, dict[str, Any]] = {}
    if schemas is None:
        return games
    if "games" in data:  # the field that holds the tables is not a table in the file
        problems.append("unknown key 'games' ignored")
        del data["games"]
    for game, schema in schemas.items():
        if game not in data:
            continue
        table = data.pop(game)
        if not isinstance(table, Mapping):
            problems.append(f"{game} = {show(table)} is not a table; kept the defaults")
            continue
        try:
            games[game] = schema.load(table, f"[{game}]", problems)
        except Exception as exc:  # a flaw in one game's checks must not stop every start
            logger.warning("[%s] could not be checked", game, exc_info=True)
            problems.append(f"[{game}]: could not be checked ({exc!r}); using the defaults")
            games[game] = schema.defaults()
    return games
