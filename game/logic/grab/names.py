"""Country names for a MasterGrab map: made-up, pronounceable, one for every country.

The names are drawn from syllables with a generator seeded by the map itself (its size and
its countries' seed pixels), so one map always gets the same names, on every machine and in
every run, and two maps almost always get different ones. A mountain is "Mount ...". No two
countries of a map share a name.

>>> from game.logic.grab.map import generate_map
>>> from game.logic.grab.options import GrabOptions
>>> grab_map = generate_map(GrabOptions(countries=20), 320, 200, seed=3)
>>> names = country_names(grab_map)
>>> len(names), len(set(names)), names == country_names(generate_map(
...     GrabOptions(countries=20), 320, 200, seed=3))
(20, 20, True)
"""

from __future__ import annotations

import random
import zlib
from typing import Final

import numpy as np

from game.logic.grab.map import GrabMap

_STARTS: Final = (
    "Val", "Kor", "Bel", "Dra", "Mar", "Tor", "Ar", "El", "Os", "Vel", "Zan", "Lor", "Fen",
    "Gal", "Hal", "Ist", "Jor", "Kal", "Mor", "Nor", "Pel", "Rav", "Sel", "Tal", "Ul", "Var",
    "Wes", "Bran", "Cal", "Dun", "Eb", "Fal", "Gor", "Har", "Ith", "Lun", "Mir", "Ost", "Per",
    "Sar", "Tam", "Ves", "Zel", "Av", "Bor", "Cor", "Del", "Ester", "Gil", "Kes", "Lam", "Nev",
    "Or", "Quar", "Riv", "Sten", "Thal", "Ur", "Vor", "Yl",
)  # fmt: skip
_MIDDLES: Final = ("", "", "a", "e", "i", "o", "an", "en", "or", "il", "ad", "el", "om", "ir")
_ENDS: Final = (
    "ia", "or", "and", "heim", "mark", "stan", "ora", "ene", "yr", "oth", "land", "dor", "is",
    "wyn", "ova", "esh", "um", "ay", "ria", "gard", "mont", "burg", "ax", "ona", "ith", "aria",
)  # fmt: skip


def country_names(grab_map: GrabMap) -> tuple[str, ...]:
    """One name per country of ``grab_map`` (index = country id), stable for the map."""
    centres = np.asarray(grab_map.centres, dtype=np.int64).tobytes()
    seed = zlib.crc32(centres, zlib.crc32(f"{grab_map.width}x{grab_map.height}".encode()))
    rng = random.Random(seed)
    used: set[str] = set()
    names = []
    for country in range(grab_map.countries):
        name = _fresh(rng, used)
        used.add(name)
        names.append(f"Mount {name}" if country in grab_map.mountains else name)
    return tuple(names)


def _fresh(rng: random.Random, used: set[str]) -> str:
    """A name not in ``used``: a few draws, then a number after the last draw."""
    name = ""
    for _ in range(50):
        name = _join(_join(rng.choice(_STARTS), rng.choice(_MIDDLES)), rng.choice(_ENDS))
        name = name[0] + name[1:].lower()
        if name not in used:
            return name
    number = 2
    while f"{name} {number}" in used:
        number += 1
    return f"{name} {number}"


def _join(head: str, tail: str) -> str:
    """``head + tail``, with one vowel dropped where two would meet ("Rive" + "esh": Rivesh)."""
    if head and tail and head[-1] in _VOWELS and tail[0] in _VOWELS:
        return head + tail[1:]
    return head + tail


_VOWELS: Final = frozenset("aeiouy")

__all__ = ["country_names"]
