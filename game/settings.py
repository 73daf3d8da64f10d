"""Settings and statistics that persist between runs as TOML files.

Both files live in :func:`home_dir` (``$GAMEHALL_HOME`` when set, else the platformdirs config
folder); screenshots go to :func:`screenshot_dir`. A :class:`Store` reads and writes them::

    store = Store()                          # or Store(folder)
    settings, messages = store.load_settings()  # show the messages to the person
    settings.window.width = 1600
    store.save_settings(settings)

Loading never fails: a missing file gives the defaults; a file that is not TOML is renamed aside
(``settings.toml.bad-YYYYmmdd-HHMMSS``) and the defaults used; an unknown key, or a value of the
wrong type or out of range, is skipped (keeping that one field's default) and a copy of the
file as it was is kept aside before anything rewrites it. Each such problem is logged and also
returned as a line for the person. Writes are atomic: a temp file in the same folder, fsynced,
then renamed over the old file.

Each game's options are a table named by the game's id (``[river]``, ``[grab]``), read through
the game's options schema (:mod:`game.logic.options`), the same one that checks the command
line and the window's options buttons; a new game needs nothing here. The rest is generic over
nested dataclasses whose fields all have defaults and are typed as ``bool``, ``int``,
``float``, ``str``, ``X | None``, ``list[X]``, ``dict[str, X]`` or another such dataclass
(defined at module level, so the annotations resolve). A field may carry
``metadata={"min": n}`` to reject smaller numbers.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import tempfile
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import platformdirs
import tomli_w

from game.errors import GamehallError

if typing.TYPE_CHECKING:
    from game.logic.options import OptionsSchema

logger = logging.getLogger(__name__)

APP_NAME = "gamehall"
HOME_ENV = "GAMEHALL_HOME"
SETTINGS_FILE = "settings.toml"
STATISTICS_FILE = "statistics.toml"

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
class WindowSettings:
    """Size and place of the main window; ``x``/``y`` None lets the system place it."""

    width: int = field(default=1280, metadata={"min": 1})
    height: int = field(default=720, metadata={"min": 1})
    x: int | None = None
    y: int | None = None


@dataclass(slots=True)
class Settings:
    """Everything the person can set; saved to ``settings.toml``.

    ``games`` maps a game's id to its option values. In the file each game is a table of its
    own (``[river]``, ``[reversi]``), read through that game's options schema, so a value
    the schema refuses falls back to its default with a message naming the key.
    ``last_game`` is the id of the game played last ("" before any): the menu's Continue.
    """

    window: WindowSettings = field(default_factory=WindowSettings)
    last_game: str = ""
    shadows: bool = True
    show_fps: bool = False
    games: dict[str, dict[str, Any]] = field(default_factory=dict)

    def options(self, game: str) -> dict[str, Any]:
        """The saved option values of ``game`` (a copy; empty when none were saved)."""
        return dict(self.games.get(game, {}))


@dataclass(slots=True)
class GameRecord:
    """Counts for one game; ``best`` maps a setting key to the fewest moves in a won game."""

    played: int = field(default=0, metadata={"min": 0})
    won: int = field(default=0, metadata={"min": 0})
    lost: int = field(default=0, metadata={"min": 0})
    drawn: int = field(default=0, metadata={"min": 0})
    best: dict[str, int] = field(default_factory=dict)


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
    ) -> bool:
        """Count one finished game; return True when ``score`` is a new best for ``setting``.

        Lower scores are better and a tie is not a new best; the first won score for a setting
        is always a new best. A score only counts for a won game (for a lost one it is ignored
        and False returned). Raises :class:`SettingsError` for an empty game name, a score
        without a setting, or a score that is not a non-negative int.

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
        if not won or drawn or score is None or setting is None:
            return False
        best = rec.best.get(setting)
        if best is None or score < best:
            rec.best[setting] = score
            return True
        return False


class Store:
    """Reads and writes ``settings.toml`` and ``statistics.toml`` in one folder.

    ``Store()`` uses :func:`home_dir` as it is when constructed; ``Store(path)`` uses ``path``
    (a folder). The folder is created on the first save.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.directory = home_dir() if path is None else Path(path)

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
        each game's table is read through it.
        """
        if schemas is None:
            from game.registry import all_entries

            schemas = {entry.id: entry.options for entry in all_entries()}
        return _load(self.settings_path, Settings, schemas)

    def save_settings(self, settings: Settings) -> None:
        """Write ``settings`` atomically; raises OSError when the folder cannot be written."""
        data = _to_toml(settings)
        for game, values in data.pop("games", {}).items():
            if game not in data:  # a game id never hides a setting of the program's own
                data[game] = values
        _write_atomic(self.settings_path, data)

    def load_statistics(self) -> tuple[Statistics, list[str]]:
        """Return the saved statistics (empty where absent or bad) and messages for the person."""
        return _load(self.statistics_path, Statistics)

    def save_statistics(self, statistics: Statistics) -> None:
        """Write ``statistics`` atomically; raises OSError when the folder cannot be written."""
        _write_atomic(self.statistics_path, _to_toml(statistics))


# --- private helpers: they trust their input -------------------------------------------------


class _WrongType(Exception):
    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


def _load(
    path: Path, cls: type[T], schemas: Mapping[str, OptionsSchema] | None = None
) -> tuple[T, list[str]]:
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return cls(), []
    except tomllib.TOMLDecodeError as exc:
        return cls(), [_set_aside(path, f"is not valid TOML {_where_and_why(exc)}")]
    except UnicodeDecodeError as exc:
        why = f"is not valid TOML (byte {exc.start}): not UTF-8 text"
        return cls(), [_set_aside(path, why)]
    except OSError as exc:
        message = f"{path.name} could not be read ({exc.strerror}); starting with defaults"
        logger.warning("%s: %s", path, message)
        return cls(), [message]
    problems: list[str] = []
    games = _game_tables(data, schemas, problems)
    obj = _from_table(cls, data, "", problems)
    if games:
        obj.games = games  # type: ignore[attr-defined]  # only Settings is given schemas
    messages = [f"{path.name}: {problem}" for problem in problems]
    if messages:
        messages.append(_copy_aside(path))
    for message in messages:
        logger.warning("%s", message)
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
            problems.append(f"{game} = {table!r} is not a table; kept the defaults")
            continue
        games[game] = schema.load(table, f"[{game}]", problems)
    return games


def _copy_aside(path: Path) -> str:
    """Keep a copy of a file with rejected values before anything rewrites it (once: a copy
    with the same bytes already there is named instead)."""
    try:
        data = path.read_bytes()
        for old in sorted(path.parent.glob(f"{path.name}.bad-*")):
            if old.read_bytes() == data:
                return f"{path.name}: the file as it was is kept as {old.name}"
        aside = _aside_name(path)
        aside.write_bytes(data)
    except OSError as exc:
        return f"{path.name}: a copy could not be kept aside ({exc.strerror})"
    return f"{path.name}: the file as it was is kept as {aside.name}"


def _where_and_why(exc: tomllib.TOMLDecodeError) -> str:
    # Python 3.11's TOMLDecodeError carries the place only in its text: "... (at line 3, column 9)".
    text = str(exc)
    match = re.fullmatch(r"(.*) \(at (.+)\)", text, flags=re.DOTALL)
    if match is None:
        return f"({text})"
    return f"({match.group(2)}): {match.group(1)}"


def _aside_name(path: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.bad-{stamp}-{n}")
    return aside


def _set_aside(path: Path, why: str) -> str:
    aside = _aside_name(path)
    try:
        path.rename(aside)
    except OSError as exc:
        message = (
            f"{path.name} {why}; could not be set aside ({exc.strerror}), starting with defaults"
        )
    else:
        message = f"{path.name} {why}; kept as {aside.name}, starting with defaults"
    logger.warning("%s", message)
    return message


def _write_atomic(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            tomli_w.dump(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    logger.debug("wrote %s", path)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; not possible on Windows, where it does not matter.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
        tp, metadata = fields[key]
        try:
            converted = _convert(tp, value, name, problems)
        except _WrongType as exc:
            default = getattr(obj, key)
            problems.append(
                f"{name} = {value!r} is not {exc.expected}; kept the default {default!r}"
            )
            continue
        low = metadata.get("min")
        if low is not None and converted < low:
            default = getattr(obj, key)
            problems.append(f"{name} = {value!r} is below {low}; kept the default {default!r}")
            continue
        setattr(obj, key, converted)
    return obj


def _convert(tp: Any, value: Any, name: str, problems: list[str]) -> Any:
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise _WrongType("true or false")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise _WrongType("a whole number")
    if tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise _WrongType("a number")
    if tp is str:
        if isinstance(value, str):
            return value
        raise _WrongType("a string")
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if isinstance(value, Mapping):
            return _from_table(tp, value, name, problems)
        raise _WrongType("a table")
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        # None never comes from TOML, so only the other members can match.
        options = [a for a in args if a is not type(None)]
        expected = []
        for option in options:
            try:
                return _convert(option, value, name, problems)
            except _WrongType as exc:
                expected.append(exc.expected)
        raise _WrongType(" or ".join(expected))
    if origin is dict:
        if not isinstance(value, Mapping):
            raise _WrongType("a table")
        out = {}
        for key, item in value.items():
            item_name = f"{name}.{key}"
            try:
                out[key] = _convert(args[1], item, item_name, problems)
            except _WrongType as exc:
                problems.append(f"{item_name} = {item!r} is not {exc.expected}; left out")
        return out
    if origin is list:
        if not isinstance(value, list):
            raise _WrongType("a list")
        try:
            return [_convert(args[0], item, name, problems) for item in value]
        except _WrongType as exc:
            raise _WrongType(f"a list whose items are each {exc.expected}") from None
    raise TypeError(f"settings field {name!r} has a type the TOML store cannot hold: {tp!r}")
