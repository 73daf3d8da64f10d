"""The warm-up while the menu shows: each game whose entry asks for it is readied on a
background thread (its first search run, or its engine's preparation started), a failing one
is skipped, a stop ends it, and the Director readies the F3 overlay (its library imported on
that thread, its imgui objects made on the next frame)."""

from __future__ import annotations

import dataclasses
import logging
import threading

import pytest

from game.registry import all_entries, warm_up


def test_the_games_that_ask_are_warmed_and_the_others_left() -> None:
    entries = {e.id: e for e in all_entries()}
    chosen = [entries[i] for i in ("reversi", "tic-tac-toe", "grab")]
    # MasterGrab's map maker is readied in a worker process (its robots run apart anyway).
    assert warm_up(chosen) == ["reversi", "tic-tac-toe", "grab"]
    river = next(e for e in all_entries() if e.id == "river")
    assert warm_up([river]) == []  # nothing to ready but its scene's modules


def test_a_failing_warm_up_is_skipped_and_said(caplog: pytest.LogCaptureFixture) -> None:
    entry = next(e for e in all_entries() if e.id == "reversi")

    def broken(options: object) -> object:
        raise RuntimeError("no such thing")

    bad = dataclasses.replace(entry, id="broken", make_game=broken)
    with caplog.at_level(logging.WARNING):
        assert warm_up([bad, entry]) == ["reversi"]
    assert "warming up broken failed: no such thing" in caplog.text


def test_a_stop_ends_the_warm_up() -> None:
    stop = threading.Event()
    stop.set()
    assert warm_up(all_entries(), stop) == []


def test_the_director_readies_the_overlay_and_the_games(director: object) -> None:
    from game.engine.director import Director

    assert isinstance(director, Director)
    thread = director.warm_up()
    thread.join(timeout=120)
    assert not thread.is_alive()
    # The library was imported on the warm-up's thread; the next frame makes the rest.
    director.update(0.0)
    assert director.overlay._imgui_ctx is not None  # made now, not on the first F3
