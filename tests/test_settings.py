"""Settings and statistics: TOML round trips, bad files, atomic writes, GAMEHALL_HOME."""

from __future__ import annotations

import logging
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import tomldata
from game.logic.options import Option, OptionsSchema
from game.settings import (
    GameStats,
    Settings,
    SettingsError,
    Statistics,
    Store,
    WindowSettings,
    data_dir,
    home_dir,
    screenshot_dir,
)
from tests.settings_data import SCHEMAS, custom_settings

# --- folders ---------------------------------------------------------------------------------


def test_gamehall_home_moves_everything(home: Path) -> None:
    assert home_dir() == home
    assert data_dir() == home / "data"
    shots = screenshot_dir()
    assert shots == home / "data" / "screenshots"
    assert shots.is_dir()
    store = Store()
    assert store.settings_path == home / "settings.toml"
    assert store.statistics_path == home / "statistics.toml"
    store.save_settings(Settings())
    store.save_statistics(Statistics())
    assert sorted(p.name for p in home.iterdir()) == ["data", "settings.toml", "statistics.toml"]


def test_gamehall_home_is_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a" / "b"
    monkeypatch.setenv("GAMEHALL_HOME", str(target))
    assert home_dir() == target
    assert target.is_dir()


def test_without_gamehall_home_uses_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GAMEHALL_HOME", raising=False)
    monkeypatch.setattr("platformdirs.user_config_dir", lambda app: f"/cfg/{app}")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda app: f"/dat/{app}")
    assert home_dir() == Path("/cfg/gamehall")
    assert data_dir() == Path("/dat/gamehall")


# --- settings --------------------------------------------------------------------------------


def test_missing_file_gives_defaults_and_no_message(home: Path) -> None:
    store = Store()
    assert store.load_settings(SCHEMAS) == (Settings(), [])
    assert store.load_statistics() == (Statistics(), [])


def test_round_trip(home: Path) -> None:
    store = Store()
    custom = custom_settings()
    store.save_settings(custom)
    assert store.load_settings(SCHEMAS) == (custom, [])


def test_none_fields_are_left_out(home: Path) -> None:
    store = Store()
    store.save_settings(Settings())
    data = tomllib.loads(store.settings_path.read_text(encoding="utf-8"))
    assert data["window"] == {"width": 1280, "height": 720, "monitor": "", "monitors": {}}
    assert store.load_settings(SCHEMAS)[0].window.x is None


def test_explicit_directory(tmp_path: Path) -> None:
    store = Store(tmp_path / "elsewhere")
    store.save_settings(custom_settings())
    assert (tmp_path / "elsewhere" / "settings.toml").is_file()
    assert store.load_settings(SCHEMAS)[0] == custom_settings()


def test_corrupt_file_is_set_aside_with_message(home: Path) -> None:
    store = Store()
    bad = b'last_game = "river"\nshadows = true\nwidth = = 3\n'
    store.settings_path.write_bytes(bad)
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded == Settings()
    assert len(messages) == 1
    match = re.fullmatch(
        r"settings\.toml is not valid TOML \(line 3, column \d+\): .+; "
        r"kept as (settings\.toml\.bad-\d{8}-\d{6}), starting with defaults",
        messages[0],
    )
    assert match, messages[0]
    assert not store.settings_path.exists()
    assert (home / match.group(1)).read_bytes() == bad
    # The next save writes a fresh file and leaves the bad one alone.
    store.save_settings(Settings())
    assert (home / match.group(1)).read_bytes() == bad
    assert store.load_settings(SCHEMAS) == (Settings(), [])


def test_two_corrupt_files_in_one_second_are_both_kept(home: Path) -> None:
    store = Store()
    for text in ("[[[", "]]]"):
        store.settings_path.write_text(text, encoding="utf-8")
        _, messages = store.load_settings(SCHEMAS)
        assert "kept as settings.toml.bad-" in messages[0]
    kept = sorted(p.read_text(encoding="utf-8") for p in home.glob("settings.toml.bad-*"))
    assert kept == ["[[[", "]]]"]


def test_file_that_is_not_utf8_is_set_aside(home: Path) -> None:
    store = Store()
    store.statistics_path.write_bytes(b"\xff\xfe\x00garbage")
    loaded, messages = store.load_statistics()
    assert loaded == Statistics()
    assert messages[0].startswith("statistics.toml is not valid TOML (byte 0): not UTF-8 text")
    assert len(list(home.glob("statistics.toml.bad-*"))) == 1


def test_wrong_type_keeps_the_default_for_that_field_only(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store()
    store.settings_path.write_text(
        '[window]\nwidth = "big"\nheight = 800\n\n[river]\npriests = 5\ncapacity = 2.5\n'
        "shadows_table = 1\n",
        encoding="utf-8",
    )
    with caplog.at_level(logging.INFO, logger="game.settings"):
        loaded, messages = store.load_settings(SCHEMAS)
    assert loaded.window == WindowSettings(width=1280, height=800)
    assert loaded.games["river"] == {"priests": 5, "devils": 3, "capacity": 2}
    assert any("window.width = 'big' is not a whole number" in m for m in messages)
    assert any("[river]: capacity must be a whole number, not 2.5" in m for m in messages)
    assert any("[river]: unknown option 'shadows_table'" in m for m in messages)
    assert "window.width" in caplog.text
    assert store.settings_path.exists()  # a wrong value is not a corrupt file
    # ... but the file as it was is kept aside before anything rewrites it, once.
    kept = list(home.glob("settings.toml.bad-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == store.settings_path.read_bytes()
    assert messages[-1] == f"settings.toml: the file as it was is kept as {kept[0].name}"
    store.load_settings(SCHEMAS)
    assert list(home.glob("settings.toml.bad-*")) == kept


def test_table_expected_but_value_given(home: Path) -> None:
    store = Store()
    store.settings_path.write_text("window = 3\nshow_fps = true\n", encoding="utf-8")
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded == Settings(show_fps=True)
    assert messages[0] == (
        "settings.toml: window = 3 is not a table; kept the default " + repr(WindowSettings())
    )
    assert len(messages) == 2 and "kept as settings.toml.bad-" in messages[1]


def test_bool_is_not_an_int_and_below_min_is_rejected(home: Path) -> None:
    store = Store()
    store.settings_path.write_text(
        "shadows = 1\n[window]\nwidth = true\nheight = 0\n", encoding="utf-8"
    )
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded == Settings()
    assert len(messages) == 4  # three values, and where the file is kept
    assert any("shadows = 1 is not true or false" in m for m in messages)
    assert any("window.height = 0 is below 1" in m for m in messages)


def test_unknown_key_is_ignored_with_a_message_and_logged(
    home: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = Store()
    store.settings_path.write_text(
        'colour = "blue"\nshow_fps = true\n[window]\ndepth = 3\n[backgammon]\nlevel = 2\n',
        encoding="utf-8",
    )
    with caplog.at_level(logging.INFO, logger="game.settings"):
        loaded, messages = store.load_settings(SCHEMAS)
    assert loaded == Settings(show_fps=True)
    for key in ("'colour'", "'window.depth'", "'backgammon'"):
        assert any(key in m and "unknown key" in m for m in messages), key
        assert key in caplog.text


def test_atomic_write_leaves_no_temp_files(home: Path) -> None:
    store = Store()
    for width in range(100, 105):
        store.save_settings(Settings(window=WindowSettings(width=width)))
        store.save_statistics(Statistics())
    assert sorted(os.listdir(home)) == ["settings.toml", "statistics.toml"]
    assert store.load_settings(SCHEMAS)[0].window.width == 104


def test_failed_write_keeps_old_file_and_removes_temp(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store()
    store.save_settings(custom_settings())
    before = store.settings_path.read_bytes()

    def broken_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", broken_replace)
    with pytest.raises(OSError):
        store.save_settings(Settings())
    assert store.settings_path.read_bytes() == before
    assert sorted(os.listdir(home)) == ["settings.toml"]


# A later game's options, as they would be added to Settings (module level, as in the game, so
# that the string annotations resolve).
@dataclass
class ReversiOptions:
    size: int = 8
    hints: list[str] = field(default_factory=list)
    ratio: float = 0.5


@dataclass
class Extended:
    reversi: ReversiOptions = field(default_factory=ReversiOptions)
    name: str | None = None


def test_generic_over_new_option_dataclasses() -> None:
    value = Extended(ReversiOptions(size=6, hints=["a", "b"], ratio=2))
    data = tomldata.to_toml(value)
    assert data == {"reversi": {"size": 6, "hints": ["a", "b"], "ratio": 2}}
    problems: list[str] = []
    back = tomldata.from_table(Extended, data, "", problems)
    assert back == value
    assert isinstance(back.reversi.ratio, float)
    assert problems == []
    bad = {"reversi": {"hints": ["a", 3]}}
    back = tomldata.from_table(Extended, bad, "", problems)
    assert back == Extended()
    assert problems and "reversi.hints" in problems[0]


_places = st.integers(min_value=-32767, max_value=32767)
_sides = st.integers(min_value=1, max_value=16384)
_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.builds(
        Settings,
        window=st.builds(
            WindowSettings,
            width=_sides,
            height=_sides,
            x=st.none() | _places,
            y=st.none() | _places,
        ),
        last_game=_text,
        shadows=st.booleans(),
        show_fps=st.booleans(),
        games=st.fixed_dictionaries(
            {},
            optional={
                "river": st.fixed_dictionaries(
                    {
                        "priests": st.integers(1, 200),
                        "devils": st.integers(1, 200),
                        "capacity": st.integers(1, 12),
                    }
                )
            },
        ),
    )
)
def test_round_trip_random_settings(home: Path, value: Settings) -> None:
    store = Store()
    store.save_settings(value)
    assert store.load_settings(SCHEMAS) == (value, [])


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        _text,
        st.builds(
            GameStats,
            played=st.integers(0, 2**53),
            won=st.integers(0, 2**53),
            lost=st.integers(0, 2**53),
            drawn=st.integers(0, 2**53),
            best=st.dictionaries(_text, st.integers(0, 2**53), max_size=4),
        ),
        max_size=4,
    )
)
def test_round_trip_random_statistics(home: Path, games: dict[str, GameStats]) -> None:
    store = Store()
    store.save_statistics(Statistics(games))
    assert store.load_statistics() == (Statistics(games), [])


# --- statistics ------------------------------------------------------------------------------


def test_record_counts_and_best() -> None:
    stats = Statistics()
    assert stats.record("river", won=False) is False
    assert stats.record("river", won=True, setting="3/3/2", score=13) is True
    assert stats.record("river", won=True, setting="3/3/2", score=13) is False  # a tie
    assert stats.record("river", won=True, setting="3/3/2", score=15) is False
    assert stats.record("river", won=True, setting="3/3/2", score=11) is True
    assert stats.record("river", won=True, setting="4/4/3", score=20) is True
    assert stats.record("river", won=False, setting="4/4/3", score=1) is False  # lost: no best
    assert stats.record("river", won=True) is False
    assert stats.games["river"] == GameStats(
        played=8, won=6, lost=2, best={"3/3/2": 11, "4/4/3": 20}
    )
    assert stats.record("reversi", won=True, setting="8", score=40) is True
    assert set(stats.games) == {"river", "reversi"}


def test_record_round_trips(home: Path) -> None:
    stats = Statistics()
    stats.record("river", won=True, setting="3/3/2", score=11)
    stats.record("river", won=False)
    store = Store()
    store.save_statistics(stats)
    text = store.statistics_path.read_text(encoding="utf-8")
    assert '"3/3/2" = 11' in text
    assert store.load_statistics() == (stats, [])


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"game": "", "won": True}, "game name"),
        ({"game": "river", "won": True, "score": 3}, "needs the setting"),
        ({"game": "river", "won": True, "setting": "3/3/2", "score": -1}, "-1"),
        ({"game": "river", "won": True, "setting": "3/3/2", "score": True}, "True"),
    ],
)
def test_record_rejects_bad_values(kwargs: dict[str, object], needle: str) -> None:
    stats = Statistics()
    with pytest.raises(SettingsError, match=needle):
        stats.record(**kwargs)  # type: ignore[arg-type]
    assert stats.games == {}
    assert issubclass(SettingsError, ValueError)


def test_bad_best_entry_is_left_out_others_kept(home: Path) -> None:
    store = Store()
    store.statistics_path.write_text(
        '[games.river]\nplayed = 4\nwon = "x"\n[games.river.best]\n"3/3/2" = 11\n"4/4/3" = "ten"\n',
        encoding="utf-8",
    )
    loaded, messages = store.load_statistics()
    assert loaded.games["river"] == GameStats(played=4, best={"3/3/2": 11})
    assert len(messages) == 3  # two values, and where the file is kept
    assert any("games.river.best.4/4/3 = 'ten'" in m and "left out" in m for m in messages)


# --- each registered game's table, read through its own schema -------------------------------


def _registered() -> list[object]:
    from game.registry import all_entries

    return all_entries()


@pytest.mark.parametrize("entry", _registered(), ids=lambda e: e.id)
def test_a_bad_value_in_each_game_table_falls_back_by_key_and_keeps_the_file(
    home: Path, entry: Any
) -> None:
    """Every option of every game refused as nan or of the wrong kind falls back to its
    default with a message naming the game's table and the key; the file is kept aside."""
    from game.registry import all_entries

    schemas = {e.id: e.options for e in all_entries()}
    option = entry.options.options[0]
    bad = '"not a number"' if option.kind in (int, float) else "nan"
    text = f"last_game = {entry.id!r}\n[{entry.id}]\n{option.name} = {bad}\n".replace("'", '"')
    store = Store()
    store.settings_path.write_text(text, encoding="utf-8")
    loaded, messages = store.load_settings(schemas)
    assert loaded.last_game == entry.id
    assert loaded.games[entry.id] == entry.options.defaults()
    assert any(f"[{entry.id}]" in m and option.name in m for m in messages), messages
    (kept,) = home.glob("settings.toml.bad-*")
    assert kept.read_text(encoding="utf-8") == text
    # Saved again, the table holds the defaults and reads back without a message.
    store.save_settings(loaded)
    assert store.load_settings(schemas) == (loaded, [])


def test_out_of_range_and_cross_checked_values_fall_back(home: Path) -> None:
    schema = OptionsSchema(
        (Option("a", int, 1, minimum=0, maximum=9), Option("b", float, 0.5, maximum=1.0)),
        cross_check=lambda v: None if v["a"] < 5 or v["b"] < 0.9 else _refuse("a and b"),
    )
    store = Store()
    store.settings_path.write_text("[g]\na = 12\nb = inf\n", encoding="utf-8")
    loaded, messages = store.load_settings({"g": schema})
    assert loaded.games["g"] == {"a": 1, "b": 0.5}
    assert any("a must be at most 9, not 12" in m for m in messages)
    assert any("b must be a finite number" in m for m in messages)
    store.settings_path.write_text("[g]\na = 6\nb = 0.95\n", encoding="utf-8")
    loaded, messages = store.load_settings({"g": schema})
    assert loaded.games["g"] == {"a": 1, "b": 0.5}
    assert any("a and b" in m and "using the defaults" in m for m in messages)


def _refuse(what: str) -> None:
    raise ValueError(f"{what} are too big together")


def test_session_options_flags_saving_and_statistics(home: Path) -> None:
    from game.logic.options import OptionError
    from game.session import Session

    store = Store()
    settings = Settings(games={"river": {"priests": 5, "devils": 3, "capacity": 2}})
    with pytest.raises(OptionError, match="devils must be at least 1"):
        Session("river", SCHEMAS["river"], settings, store, {"devils": "0"})
    with pytest.raises(OptionError, match="finite"):
        Session("river", OptionsSchema((Option("t", float, 1.0),)), Settings(), store, {"t": "nan"})
    session = Session("river", SCHEMAS["river"], settings, store, {"devils": "4"})
    assert session.options == {"priests": 5, "devils": 4, "capacity": 2}
    assert not store.settings_path.exists()  # typed flags hold for this run only
    session.save_options({**session.options, "capacity": 3})
    assert store.load_settings(SCHEMAS)[0].games["river"] == {
        "priests": 5,
        "devils": 4,
        "capacity": 3,
    }
    assert session.record("river", won=True, setting="5/4/3", score=9) == (
        "New best for 5/4/3! Won 1 of 1."
    )
    assert session.record("river", won=False) == "Won 1 of 2."
    assert session.record("river", won=False, drawn=True) == "Won 1 of 3. Drawn 1."
    assert store.load_statistics()[0].games["river"].best == {"5/4/3": 9}


def test_a_float_field_must_be_finite() -> None:
    problems: list[str] = []
    back = tomldata.from_table(Extended, {"reversi": {"ratio": math.nan, "size": 3}}, "", problems)
    assert back.reversi == ReversiOptions(size=3)
    assert problems == ["reversi.ratio = nan is not a finite number; kept the default 0.5"]
    back = tomldata.from_table(Extended, {"reversi": {"ratio": 10**400}}, "", problems)
    assert back.reversi.ratio == 0.5 and len(problems) == 2


def test_every_record_takes_the_keywords_statistics_declare() -> None:
    """A finished game's keywords are declared once (settings.GameTally) for every
    ``record``: the statistics', the store's, a session's; a memory session keeps them with
    the statistics' defaults."""
    import inspect

    from game.registry import MemorySession
    from game.settings import GameTally, Statistics

    own = inspect.signature(Statistics.record).parameters
    keywords = {n for n, p in own.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert set(GameTally.__annotations__) == keywords
    assert GameTally.__required_keys__ == {n for n in keywords if own[n].default is own[n].empty}
    session = MemorySession()
    session.record("river", won=True, setting="3/3/2", score=11)
    session.record("reversi", won=False, margin=-4)
    assert session.records == [
        {"key": "river", "won": True, "drawn": False, "setting": "3/3/2", "score": 11},
        {"key": "reversi", "won": False, "drawn": False, "setting": None, "score": None,
         "margin": -4},
    ]  # fmt: skip
    assert session.statistics().games["reversi"].best_margin == -4
