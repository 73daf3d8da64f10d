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
renamed over the old file, so a killed write leaves the old file or the new one, never a mix.
The window writes them on a thread of its own (:mod:`game.writer`), so a frame never waits for
the disk; a load waits for its file's write. The reading, setting aside and writing of the
files themselves is :mod:`game.tomlfile`.

Each game's options are a table named by the game's id (``[river]``, ``[grab]``), read through
the game's options schema (:mod:`game.logic.options`), the same one that checks the command
line and the window's options buttons; a new game needs nothing here. The rest is generic over
nested dataclasses whose fields all have defaults and are typed as ``bool``, ``int``,
``float``, ``str``, ``X | None``, ``list[X]``, ``dict[str, X]`` or another such dataclass
(defined at module level, so the annotations resolve). A field may carry
``metadata={"min": n, "max": m}`` to refuse numbers outside that range (for a list or a dict,
each item's), or ``metadata={"choices": (...)}`` to refuse other strings; a float must be
finite.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

import platformdirs

from game.errors import GamehallError
from game.places import APP_NAME, HOME_ENV
from game.tomlfile import (
    UnusableFile,
    keep_copy,
    one_line,
    read_document,
    remove_stray_temps,
    set_aside,
)
from game.writer import Writer, save, settled

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
    """
    env = os.environ.get(HOME_ENV)
    if env:
        path = Path(env).expanduser()
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
class GameRecord:
    """Counts for one game; ``best`` maps a setting key to the fewest moves in a won game;
    ``best_margin`` is the highest margin of any game counted (more is better: Reversi's
    disc difference), None before a game with a margin."""

    played: int = field(default=0, metadata=_COUNT)
    won: int = field(default=0, metadata=_COUNT)
    lost: int = field(default=0, metadata=_COUNT)
    drawn: int = field(default=0, metadata=_COUNT)
    best: dict[str, int] = field(default_factory=dict, metadata=_COUNT)
    best_margin: int | None = field(default=None, metadata=_MARGIN)


@dataclass(slots=True)
class Statistics:
    """Per-game records, keyed by game name (e.g. ``"river"``); saved to ``statistics.toml``."""

    games: dict[str, GameRecord] = field(default_factory=dict)

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
        rec = self.games.setdefault(game, GameRecord())
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
        if schemas is None:
            from game.registry import all_entries

            schemas = {entry.id: entry.options for entry in all_entries()}
        return _load(settled(self.writer, self.settings_path), Settings, schemas)

    def save_settings(self, settings: Settings) -> None:
        """Write ``settings`` atomically; raises OSError when the folder cannot be written."""
        data = _to_toml(settings)
        for game, values in data.pop("games", {}).items():
            if game not in data:  # a game id never hides a setting of the program's own
                data[game] = values
        save(self.writer, self.settings_path, data)

    def load_statistics(self) -> tuple[Statistics, list[str]]:
        """Return the saved statistics (empty where absent or bad) and messages for the person.

        Temp files left by a killed write are removed first, as for the settings."""
        return _load(settled(self.writer, self.statistics_path), Statistics)

    def save_statistics(self, statistics: Statistics) -> None:
        """Write ``statistics`` atomically; raises OSError when the folder cannot be written."""
        save(self.writer, self.statistics_path, _to_toml(statistics))


# --- private helpers: they trust their input -------------------------------------------------

#: Problems listed one by one; the rest are counted in one more line.
_MAX_PROBLEMS: Final = 10


class _Rejected(Exception):
    """A value a field cannot take: ``why`` completes "name = value ..."; ``expected`` is
    what the field's type wants when the value is of the wrong type ("" when out of range)."""

    def __init__(self, why: str, expected: str = "") -> None:
        super().__init__(why)
        self.why = why
        self.expected = expected


def _wrong_type(expected: str) -> _Rejected:
    return _Rejected(f"is not {expected}", expected)


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
    obj = _from_table(cls, data, "", problems)
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
            problems.append(f"{game} = {_show(table)} is not a table; kept the defaults")
            continue
        try:
            games[game] = schema.load(table, f"[{game}]", problems)
        except Exception as exc:  # a flaw in one game's checks must not stop every start
            logger.warning("[%s] could not be checked", game, exc_info=True)
            problems.append(f"[{game}]: could not be checked ({exc!r}); using the defaults")
            games[game] = schema.defaults()
    return games


def _show(value: Any) -> str:
    """A short repr of a value from a file, for a message."""
    try:
        text = repr(value)
    except ValueError:  # an int with more digits than Python will write (a long hex literal)
        return f"a {value.bit_length()}-bit number"
    return text if len(text) <= 60 else text[:57] + "..."


def _to_toml(value: Any) -> Any:
    # TOML has no null, so None fields and entries are left out (and come back as defaults).
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is not None:
                out[f.name] = _to_toml(item)
        return out
    if isinstance(value, Mapping):
        return {str(k): _to_toml(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_to_toml(v) for v in value]
    return value


def _fields_of(cls: Any) -> dict[str, tuple[Any, Mapping[str, Any]]]:
    hints = typing.get_type_hints(cls)
    return {f.name: (hints[f.name], f.metadata) for f in dataclasses.fields(cls)}


def _from_table(cls: type[T], table: Mapping[str, Any], where: str, problems: list[str]) -> T:
    obj = cls()
    fields = _fields_of(cls)
    for key, value in table.items():
        name = f"{where}.{key}" if where else key
        if key not in fields:
            problems.append(f"unknown key {name!r} ignored")
            continue
        tp, limits = fields[key]
        try:
            converted = _convert(tp, value, name, problems, limits)
        except _Rejected as exc:
            default = getattr(obj, key)
            problems.append(f"{name} = {_show(value)} {exc.why}; kept the default {default!r}")
            continue
        setattr(obj, key, converted)
    return obj


def _convert(tp: Any, value: Any, name: str, problems: list[str], limits: Mapping[str, Any]) -> Any:
    """``value`` as the type ``tp`` within ``limits`` (``min``/``max``, for each item of a
    list or dict); raises :class:`_Rejected`. A dict's bad items are left out, each reported
    in ``problems``."""
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _wrong_type("true or false")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return _in_range(value, limits)
        raise _wrong_type("a whole number")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:  # an int beyond any float
                number = math.inf
            if not math.isfinite(number):
                raise _Rejected("is not a finite number")
            return _in_range(number, limits)
        raise _wrong_type("a number")
    if tp is str:
        if not isinstance(value, str):
            raise _wrong_type("a string")
        choices = limits.get("choices")
        if choices is not None and value not in choices:
            raise _Rejected(f"is not one of {', '.join(map(repr, choices))}")
        return value
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if isinstance(value, Mapping):
            return _from_table(tp, value, name, problems)
        raise _wrong_type("a table")
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        # None never comes from TOML, so only the other members can match.
        expected = []
        for option in (a for a in args if a is not type(None)):
            try:
                return _convert(option, value, name, problems, limits)
            except _Rejected as exc:
                if not exc.expected:  # the right type, out of range
                    raise
                expected.append(exc.expected)
        raise _wrong_type(" or ".join(expected))
    if origin is dict:
        if not isinstance(value, Mapping):
            raise _wrong_type("a table")
        out = {}
        for key, item in value.items():
            item_name = f"{name}.{key}"
            try:
                out[key] = _convert(args[1], item, item_name, problems, limits)
            except _Rejected as exc:
                problems.append(f"{item_name} = {_show(item)} {exc.why}; left out")
        return out
    if origin is list:
        if not isinstance(value, list):
            raise _wrong_type("a list")
        try:
            return [_convert(args[0], item, name, problems, limits) for item in value]
        except _Rejected as exc:
            if exc.expected:
                raise _wrong_type(f"a list whose items are each {exc.expected}") from None
            raise _Rejected(f"holds an item that {exc.why}") from None
    raise TypeError(f"settings field {name!r} has a type the TOML store cannot hold: {tp!r}")


def _in_range(number: T, limits: Mapping[str, Any]) -> T:
    low, high = limits.get("min"), limits.get("max")
    if low is not None and number < low:
        raise _Rejected(f"is below {low}")
    if high is not None and number > high:
        raise _Rejected(f"is above {high}")
    return number
