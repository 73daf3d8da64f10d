"""The window's size and place per monitor, and every setting, round-trip through the file;
a place saved on a larger monitor is brought onto the one the window opens on."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from game.registry import all_entries
from game.settings import OverlaySettings, Settings, Store, WindowSettings
from game.window_place import MIN_SIZE, Monitor, record, restore

SCHEMAS = {e.id: e.options for e in all_entries()}
LEFT = Monitor(0, 0, 1920, 1080)
RIGHT = Monitor(1920, 0, 2560, 1440)
SMALL = Monitor(0, 0, 1366, 768)


def _round_trip(settings: Settings, folder: Path) -> Settings:
    store = Store(folder)
    store.save_settings(settings)
    loaded, messages = store.load_settings(SCHEMAS)
    assert messages == []
    return loaded


def test_the_window_opens_where_it_was_on_the_monitor_it_was_on_last(tmp_path: Path) -> None:
    window = WindowSettings()
    record(window, (1200, 800), (100, 50), [LEFT, RIGHT])
    record(window, (2000, 1300), (2100, 60), [LEFT, RIGHT])
    loaded = _round_trip(Settings(window=window), tmp_path).window
    assert loaded == window
    assert restore(loaded, [LEFT, RIGHT]) == ((2000, 1300), (2100, 60))
    # Back on the left monitor: its own size and place, not the right one's.
    loaded.monitor = LEFT.name
    assert restore(loaded, [LEFT, RIGHT]) == ((1200, 800), (100, 50))


def test_a_place_from_a_larger_monitor_is_clamped_to_the_smaller_one_it_opens_on() -> None:
    window = WindowSettings()
    record(window, (2400, 1400), (1950, 20), [LEFT, RIGHT])
    (w, h), (x, y) = restore(window, [SMALL])
    assert (w, h) == (1366, 768) and (x, y) == (0, 0)
    record(window, (1000, 700), (1900, 300), [LEFT, RIGHT])  # mostly on the left monitor
    (w, h), (x, y) = restore(window, [SMALL])
    assert (w, h) == (1000, 700)
    assert SMALL.x <= x and x + w <= SMALL.x + SMALL.width
    assert SMALL.y <= y and y + h <= SMALL.y + SMALL.height


def test_a_window_off_every_monitor_is_centred_on_the_first() -> None:
    window = WindowSettings(width=800, height=600, x=-9000, y=-9000)
    assert restore(window, [SMALL, RIGHT]) == ((800, 600), ((1366 - 800) // 2, (768 - 600) // 2))
    tiny = WindowSettings(width=10, height=10)
    assert restore(tiny, [LEFT])[0] == MIN_SIZE, "never smaller than the window's minimum"
    assert restore(tiny, [])[0] == MIN_SIZE and restore(tiny, [])[1] is None


def test_every_setting_round_trips_through_the_file(tmp_path: Path) -> None:
    """Each game's options (every option moved off its default where it can be), the
    overlay's side and fold, the window per monitor and the Director's own switches."""
    games = {}
    for entry in all_entries():
        schema = entry.options
        values = schema.defaults()
        for name in schema.names():
            option = schema[name]
            if option.kind is str and option.choices is None:  # free text: a text of its own
                with contextlib.suppress(ValueError):
                    values = schema.validate({**values, name: f"{option.default}x"})
                continue
            for delta in (1, -1):
                if schema.can_step(values, name, delta):
                    values = schema.step(values, name, delta)
                    break
        games[entry.id] = values
    moved = [g for g, v in games.items() if v != SCHEMAS[g].defaults()]
    assert len(moved) >= 5, "most games have an option to move"
    window = WindowSettings()
    record(window, (1500, 900), (30, 40), [LEFT, RIGHT])
    settings = Settings(
        window=window,
        overlay=OverlaySettings(side="right", collapsed=True),
        last_game="reversi",
        shadows=False,
        show_fps=True,
        games=games,
    )
    assert settings != Settings()
    assert _round_trip(settings, tmp_path) == settings


def test_an_overlay_side_the_game_does_not_know_keeps_the_default(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.settings_path.write_text('[overlay]\nside = "top"\ncollapsed = true\n')
    loaded, messages = store.load_settings(SCHEMAS)
    assert loaded.overlay == OverlaySettings(side="left", collapsed=True)
    assert any("overlay.side = 'top' is not one of 'left', 'right'" in m for m in messages)


@pytest.mark.gl
def test_the_overlay_side_is_saved_when_the_person_changes_it(director, tmp_path: Path) -> None:
    from game.cli.play import SettingsKeeper

    store = Store(tmp_path)
    settings = Settings()
    keeper = SettingsKeeper(director, settings, store, [LEFT])
    try:
        assert director.overlay.side == "left"
        director.overlay.set_side("right")
        loaded, _ = store.load_settings(SCHEMAS)
        assert loaded.overlay.side == "right"
        keeper.close()
        director.overlay.side = "left"
        keeper = SettingsKeeper(director, loaded, store, [LEFT])
        assert director.overlay.side == "right", "the next start docks it where it was"
    finally:
        keeper.close()
        director.overlay.side = "left"
