"""Sound effects: short sounds for what happens on the board, played through pyglet's media.

The effects are WAV files in ``sounds/`` made by ``tools/make_sounds.py``. :class:`Sounds`
plays one by name at the volume set, unless muted (M in every game). A headless run (tests,
screenshots, benchmarks) never opens an audio device: it only notes what it would have played,
and so does a window whose machine has no sound device (it says so once in the log). A sound
that fails to play never stops the game.
"""

from __future__ import annotations

import logging
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

    def play(self, name: str) -> None:
        """Play effect ``name`` (one of :data:`EFFECTS`); silent when muted, at volume 0, or
        without a sound device."""
        if name not in EFFECTS:
            raise ValueError(f"no sound effect {name!r}; the effects: {', '.join(EFFECTS)}")
        self.played.append(name)
        if not self.enabled or self.muted or self.volume <= 0.0 or self._broken:
            return
        try:
            import pyglet.media

            source = self._sources.get(name)
            if source is None:
                path = asset_path("sounds", f"{name}.wav")
                source = pyglet.media.load(str(path), streaming=False)
                self._sources[name] = source
            player = pyglet.media.Player()
            player.volume = self.volume
            player.queue(source)
            player.play()
            self._voices.append(player)  # held, so that it is not collected while it plays
        except Exception as exc:  # no device, no driver, a broken file: play on in silence
            self._broken = True
            log.warning("sound is off: %s", exc)

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
