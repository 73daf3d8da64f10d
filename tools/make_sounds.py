"""Generate the sound effects in ``sounds/`` (numpy synthesis only, deterministic).

Run ``python tools/make_sounds.py`` to rewrite every ``sounds/*.wav``; the same code always
writes the same bytes. Each effect is one function returning float samples in -1..1 at
``RATE``; :func:`write_wav` stores them as 16-bit mono PCM. The effects are short (under a
second) and quiet at the ends, so that they start and stop without a click.
"""

from __future__ import annotations

import sys
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

SOUNDS_DIR = Path(__file__).resolve().parent.parent / "sounds"
RATE = 22_050


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(seconds * RATE)) / RATE


def _decay(t: np.ndarray, tau: float) -> np.ndarray:
    return np.exp(-t / tau)


def _fade(x: np.ndarray, seconds: float = 0.004) -> np.ndarray:
    """Short ramps at both ends (no click where the sound starts or stops)."""
    n = min(len(x) // 2, int(seconds * RATE))
    ramp = np.linspace(0.0, 1.0, n)
    x = x.copy()
    x[:n] *= ramp
    x[len(x) - n :] *= ramp[::-1]
    return x


def _band(noise: np.ndarray, low: float, high: float) -> np.ndarray:
    """``noise`` keeping only the frequencies from ``low`` to ``high`` Hz."""
    spectrum = np.fft.rfft(noise)
    freqs = np.fft.rfftfreq(len(noise), 1.0 / RATE)
    spectrum[(freqs < low) | (freqs > high)] = 0
    out = np.fft.irfft(spectrum, len(noise))
    return out / (np.abs(out).max() or 1.0)


def _noise(seconds: float, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(int(seconds * RATE))


def _bell(freq: float, seconds: float, tau: float) -> np.ndarray:
    t = _t(seconds)
    tone = np.sin(2 * np.pi * freq * t) + 0.35 * np.sin(2 * np.pi * 2 * freq * t)
    tone += 0.12 * np.sin(2 * np.pi * 3.01 * freq * t)
    return tone * _decay(t, tau) / 1.47


def place() -> np.ndarray:
    """A disc or a piece set down on wood: a low knock and a short tap."""
    t = _t(0.16)
    knock = np.sin(2 * np.pi * 190 * t) * _decay(t, 0.03)
    tap = np.sin(2 * np.pi * 1250 * t) * _decay(t, 0.006)
    grain = _band(_noise(0.16, 1), 800, 5000) * _decay(t, 0.004)
    return _fade(0.7 * knock + 0.35 * tap + 0.25 * grain)


def flip() -> np.ndarray:
    """Discs turning over: three light clicks, each a little higher."""
    out = np.zeros(int(0.2 * RATE))
    for k, freq in enumerate((1800.0, 2100.0, 2400.0)):
        t = _t(0.05)
        click = np.sin(2 * np.pi * freq * t) * _decay(t, 0.008)
        click += 0.3 * _band(_noise(0.05, 10 + k), 2000, 7000) * _decay(t, 0.003)
        start = int(k * 0.045 * RATE)
        out[start : start + len(click)] += 0.5 * click
    return _fade(out)


def oars() -> np.ndarray:
    """Two strokes of the oars: water pushed aside, swelling and falling away."""
    out = np.zeros(int(0.95 * RATE))
    for k in range(2):
        seconds = 0.42
        t = _t(seconds)
        envelope = np.sin(np.pi * t / seconds) ** 2 * _decay(t, 0.25)
        splash = _band(_noise(seconds, 20 + k), 250, 1900) * envelope
        start = int(k * 0.48 * RATE)
        out[start : start + len(splash)] += 0.6 * splash
    return _fade(out)


def attack() -> np.ndarray:
    """An attack: a drum hit falling in pitch, with a snare's rattle."""
    t = _t(0.45)
    pitch = 95 * np.exp(-t / 0.12) + 45
    phase = 2 * np.pi * np.cumsum(pitch) / RATE
    drum = np.sin(phase) * _decay(t, 0.14)
    snare = _band(_noise(0.45, 30), 1500, 6000) * _decay(t, 0.05)
    return _fade(0.8 * drum + 0.3 * snare)


def win() -> np.ndarray:
    """A win: a rising major arpeggio of bells, the last note held."""
    notes = (523.25, 659.25, 783.99, 1046.5)
    out = np.zeros(int(0.95 * RATE))
    for k, freq in enumerate(notes):
        bell = _bell(freq, 0.6 if k == 3 else 0.3, 0.25 if k == 3 else 0.1)
        start = int(k * 0.11 * RATE)
        out[start : start + len(bell)] += 0.45 * bell
    return _fade(out)


def loss() -> np.ndarray:
    """A loss: a slow falling minor figure, soft."""
    notes = (392.0, 311.13, 261.63)
    out = np.zeros(int(0.95 * RATE))
    for k, freq in enumerate(notes):
        bell = _bell(freq, 0.45, 0.18)
        start = int(k * 0.2 * RATE)
        out[start : start + len(bell)] += 0.4 * bell
    return _fade(out)


def hint() -> np.ndarray:
    """A hint shown: a small two-note chime."""
    out = np.zeros(int(0.35 * RATE))
    for k, freq in enumerate((1318.5, 1760.0)):
        bell = _bell(freq, 0.25, 0.07)
        start = int(k * 0.07 * RATE)
        out[start : start + len(bell)] += 0.3 * bell
    return _fade(out)


EFFECTS: dict[str, Callable[[], np.ndarray]] = {
    "place": place,
    "flip": flip,
    "oars": oars,
    "attack": attack,
    "win": win,
    "loss": loss,
    "hint": hint,
}


def write_wav(path: Path, samples: np.ndarray) -> None:
    """``samples`` (-1..1) as 16-bit mono PCM at ``RATE``."""
    pcm = (np.clip(samples, -1.0, 1.0) * 32_000).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())


def main() -> int:
    SOUNDS_DIR.mkdir(exist_ok=True)
    for name, make in EFFECTS.items():
        samples = make()
        write_wav(SOUNDS_DIR / f"{name}.wav", samples)
        print(f"sounds/{name}.wav {len(samples) / RATE:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
