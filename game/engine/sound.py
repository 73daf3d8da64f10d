"""Sound effects: short sounds for what happens on the board, played through pyglet's media.

The effects are WAV files in ``sounds/`` made by ``tools/make_sounds.py``. :class:`Sounds`
plays one by name at the volume set, unless muted (M in every game). A headless run (tests,
screenshots, benchmarks) never opens an audio device: it only notes what it would have played,
and so does a window whose machine has no sound device (it says so once in the log). A sound
that fails to play never stops the game.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any, Final

from game.resources import asset_path

__all__ = ["EFFECTS", "Sounds"]

log = logging.getLogger(__name__)

#: The effects there are, and when each plays.
EFFECTS: Final = {
    "place": "a disc or a piece set down",
    "flip": "discs turning over",
    "oars": "the boat rowed across",
    "attack": "an attack",
    "win": "a game won",
    "loss": "a game lost",
    "hint": "a hint shown",
}

#: How many effects are kept playing at once (a player each); older ones are let go.
VOICES: Final = 8


class Sounds:
    """The effects of one window. ``enabled`` False (headless) keeps it silent; ``volume``
    runs from 0 to 1. :attr:`played` lists the effects asked for, newest last."""

    def __init__(self, enabled: bool, volume: float = 0.8, muted: bool = False) -> None:
        self.enabled = enabled
        self.volume = min(max(float(volume), 0.0), 1.0)
        self.muted = muted
        self.played: deque[str] = deque(maxlen=64)
        self._sources: dict[str, Any] = {}
        self._voices: deque[Any] = deque(maxlen=VOICES)
        self._broken = False
        self._loaded = threading.Event()  # pyglet's media imported, the effects loaded
        self._loading = threading.Lock()

    def play(self, name: str) -> None:
        """Play effect ``name`` (one of :data:`EFFECTS`); silent when muted, at volume 0, or
        without a sound device. Before the sound system is loaded (:meth:`prepare`, which
        this starts on a thread if the window's warm-up has not) the effect is skipped: the
        frame does not wait a second or two for pyglet's media drivers."""
        if name not in EFFECTS:
            raise ValueError(f"no sound effect {name!r}; the effects: {', '.join(EFFECTS)}")
        self.played.append(name)
        if not self.enabled or self.muted or self.volume <= 0.0 or self._broken:
            return
        if not self._loaded.is_set():
            if not self._loading.locked():
                threading.Thread(target=self.prepare, name="sounds", daemon=True).start()
            return
        try:
            import pyglet.media

            player = pyglet.media.Player()
            player.volume = self.volume
            player.queue(self._sources[name])
            player.play()
            self._voices.append(player)  # held, so that it is not collected while it plays
        except Exception as exc:  # no device, no driver, a broken file: play on in silence
            self._broken = True
            log.warning("sound is off: %s", exc)

    def prepare(self) -> None:
        """Import the sound system and load every effect now (on any thread: the window's
        warm-up calls it on its own), so that no frame waits for it: importing pyglet's media
        drivers takes a second or two. Silent windows skip it."""
        if not self.enabled or self._broken or self._loaded.is_set():
            return
        with self._loading:
            try:
                import pyglet.media

                for name in EFFECTS:
                    if name not in self._sources:
                        path = asset_path("sounds", f"{name}.wav")
                        self._sources[name] = pyglet.media.load(str(path), streaming=False)
            except Exception as exc:  # no driver, a broken file: play on in silence
                self._broken = True
                log.warning("sound is off: %s", exc)
            self._loaded.set()

    def toggle_mute(self) -> bool:
        """Mute or unmute; returns whether it is muted now."""
        self.muted = not self.muted
        return self.muted

    def set_volume(self, volume: float) -> None:
        """The volume from 0 (silent) to 1."""
        self.volume = min(max(float(volume), 0.0), 1.0)

    def describe(self) -> str:
        """A line for the HUD: the volume, or that the sound is muted or off."""
        if not self.enabled or self._broken:
            return "Sound: off (no sound device)"
        if self.muted:
            return "Sound: muted (M to unmute)"
        return f"Sound: {round(self.volume * 100)}% (M to mute)"
