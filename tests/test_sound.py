"""Sound effects: the committed WAVs are what tools/make_sounds.py makes, a headless run stays
silent but notes what it would play, M mutes in every scene, and a game won or lost sounds
once."""

from __future__ import annotations

import importlib.util
import sys
import wave
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from game.engine.sound import EFFECTS, Sounds
from game.resources import asset_path
from tests.waiting import HANG_S

ROOT = Path(__file__).resolve().parents[1]


def make_sounds() -> ModuleType:
    """tools/make_sounds.py imported as a module (tools/ is not a package)."""
    path = ROOT / "tools" / "make_sounds.py"
    spec = importlib.util.spec_from_file_location("gamehall_make_sounds", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", list(EFFECTS))
def test_each_effect_is_the_scripts_output_short_and_unclipped(name: str, tmp_path: Path) -> None:
    tool = make_sounds()
    assert set(tool.EFFECTS) == set(EFFECTS)
    fresh = tmp_path / f"{name}.wav"
    tool.write_wav(fresh, tool.EFFECTS[name]())
    shipped = asset_path("sounds", f"{name}.wav")
    assert fresh.read_bytes() == shipped.read_bytes()  # run tools/make_sounds.py after a change
    with wave.open(str(shipped)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
        seconds = w.getnframes() / w.getframerate()
        samples = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float)
    assert 0.1 <= seconds <= 1.0
    assert 3000 < np.abs(samples).max() < 32_767  # heard, and never at the limit
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200  # no click at either end


def test_a_silent_board_notes_what_it_would_play() -> None:
    sounds = Sounds(enabled=False)
    sounds.play("place")
    sounds.play("win")
    assert list(sounds.played) == ["place", "win"]
    with pytest.raises(ValueError, match="no sound effect 'boom'"):
        sounds.play("boom")
    assert sounds.toggle_mute() is True and "off" in sounds.describe()
    sounds.set_volume(7.0)
    assert sounds.volume == 1.0


def test_a_device_that_fails_leaves_the_game_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyglet.media

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("no audio device")

    monkeypatch.setattr(pyglet.media, "load", broken)
    sounds = Sounds(enabled=True)
    sounds.play("flip")  # starts loading the effects on a thread, does not raise
    assert sounds._loaded.wait(timeout=HANG_S)  # the loading failed there, and logged it
    sounds.play("flip")
    assert list(sounds.played) == ["flip", "flip"] and "no sound device" in sounds.describe()


def test_m_mutes_in_any_scene_and_says_so(director: object) -> None:
    from pyglet.window import key

    from game.engine.director import Director

    assert isinstance(director, Director)
    director.switch("reversi")
    before = director.sounds.muted
    director.on_key_press(key.M, 0)
    assert director.sounds.muted is not before
    assert director.toast.startswith("Sound:")
    director.on_key_press(key.M, 0)
    assert director.sounds.muted is before


def test_a_won_game_sounds_once(director: object) -> None:
    from game.engine.director import Director

    assert isinstance(director, Director)
    director.switch("river")
    director.sounds.played.clear()
    director.perform("solve")
    for _ in range(2000):
        director.update(0.05)
        if not director.busy() and "win" in director.sounds.played:
            break
    assert list(director.sounds.played).count("win") == 1
    assert "oars" in director.sounds.played  # each crossing is rowed
    for _ in range(20):
        director.update(0.05)
    assert list(director.sounds.played).count("win") == 1  # the end sounds once


def test_a_reversi_move_sounds_its_disc_then_its_flips(director: object) -> None:
    from game.engine.director import Director

    assert isinstance(director, Director)
    director.switch("reversi")
    director.perform("new")
    director.perform("new")  # a game in progress asks twice
    director.sounds.played.clear()
    assert director.perform("d3")
    for _ in range(200):
        director.update(0.05)
        if "flip" in director.sounds.played:
            break
    assert list(director.sounds.played)[:2] == ["place", "flip"]


def test_a_sound_before_the_sound_system_is_loaded_is_skipped_and_loads_it() -> None:
    """The first sound never waits for pyglet's media drivers (a second or two of imports):
    it is skipped, the loading starts on a thread, and the sounds after it play."""
    sounds = Sounds(enabled=True)
    sounds.play("place")
    assert sounds._loaded.wait(timeout=HANG_S)  # the loading thread says it is done
    assert sounds._broken or set(sounds._sources) == set(EFFECTS)
    sounds.play("flip")
    assert list(sounds.played) == ["place", "flip"]
