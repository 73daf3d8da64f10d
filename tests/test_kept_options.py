"""A scene's starting options come from one helper (:func:`game.hall.keeping.kept_options`):
the kept game's options under the overrides, or, when the schema refuses the kept ones, the
session's, with the kept game set aside and a line saying why."""

from __future__ import annotations

import pytest

from game.hall.keeping import Kept, kept_options
from game.logic.options import Option, OptionsSchema
from game.registry import MemorySession

SCHEMA = OptionsSchema((Option("size", int, 3, minimum=1, maximum=9, help="size"),))


def test_kept_options_come_back_under_the_overrides() -> None:
    session = MemorySession(options={"size": 4})
    kept = Kept(options={"size": 7}, record={}, extra={})
    options, again, note = kept_options(session, SCHEMA, kept, {})
    assert (options, again, note) == ({"size": 7}, kept, "")
    assert kept_options(session, SCHEMA, None, {"size": 2})[0] == {"size": 2}
    assert kept_options(session, SCHEMA, None, {})[0] == {"size": 4}


def test_refused_kept_options_set_the_game_aside_and_the_session_serves() -> None:
    session = MemorySession(options={"size": 4}, kept={"game": "x"})
    kept = Kept(options={"size": 99}, record={}, extra={})
    options, again, note = kept_options(session, SCHEMA, kept, {})
    assert options == {"size": 4} and again is None
    assert "refuses" in note and session.kept is None


def test_refused_overrides_raise() -> None:
    with pytest.raises(ValueError):
        kept_options(MemorySession(options={"size": 4}), SCHEMA, None, {"size": 0})
