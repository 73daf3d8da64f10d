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
from tests.waiting import HANG_S


def test_the_games_that_ask_are_warmed_and_the_others_left() -> None:
    entries = {e.id: e for e in all_entries()}
    chosen = [entries[i] for i in ("reversi", "tic-tac-toe", "grab")]
    # MasterGrab's map maker is readied in a worker process (its robots run in processes of
    # their own anyway).
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


def test_every_game_is_made_before_any_computer_thinks() -> None:
    """A described game's first search waits for a worker process, and both of them may be
    busy for minutes with the engines' first compiles: the games after it waited that long to
    be compiled here, and opening one compiled it on the drawing thread. Every game is made
    first, then the computers think."""
    entries = {e.id: e for e in all_entries()}
    made: list[str] = []
    thought: list[tuple[str, list[str]]] = []  # (whose agent, the games made by then)

    class Agent:
        def __init__(self, name: str) -> None:
            self.name = name

        def choose(self, *args: object) -> None:
            thought.append((self.name, list(made)))

    def ready(game_id: str) -> object:
        entry = entries[game_id]

        def make_game(options: object) -> object:
            made.append(game_id)
            return entry.make_game(options)

        return dataclasses.replace(
            entry, make_game=make_game, think_in_worker=False,
            make_agent=lambda name, options: Agent(game_id),
        )  # fmt: skip

    games = ["tic-tac-toe", "othello", "hex"]
    assert warm_up([ready(g) for g in games]) == games
    assert thought == [(g, games) for g in games]


def test_the_warm_up_finds_mastergrabs_robots_so_opening_it_imports_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MasterGrab's first look-up of its robots imported the built-in ones (~0.1 s) in the
    frame its map arrived in: the warm-up finds them, and the scene's look-up makes none."""
    import game.games.grab.entry as grab
    from game.logic.grab import discovery

    made: list[object] = []
    real = discovery.RobotRegistry.__init__

    def counted(self: object, *args: object, **kwargs: object) -> None:
        made.append(self)
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(discovery.RobotRegistry, "__init__", counted)
    monkeypatch.setattr(grab, "_REGISTRY", None)
    warm_up([grab.ENTRY])
    assert len(made) == 1  # found once, on the warm-up's thread
    from game.games.grab.controller import GrabController

    controller = GrabController.__new__(GrabController)
    controller.registry = None
    assert controller._robots() is made[0]
    assert len(made) == 1  # the scene's look-up found them made


def test_a_stop_ends_the_warm_up() -> None:
    stop = threading.Event()
    stop.set()
    assert warm_up(all_entries(), stop) == []


def test_the_director_readies_the_overlay_and_the_games(
    director: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's warm-up (the overlay's library, then the games) on its thread. Two games
    here: every game's warm-up rested 50 ms after each of them, twice (5 s on the CI machine,
    most of it asleep), and what is readied for each game is checked by the tests above."""
    from game.engine.director import Director

    assert isinstance(director, Director)
    entries = {e.id: e for e in all_entries()}
    # Tic-tac-toe's computer thinks on the warm-up's thread here, not in a worker process
    # started for it (the pool's own tests start those).
    tic_tac_toe = dataclasses.replace(entries["tic-tac-toe"], think_in_worker=False)
    monkeypatch.setattr("game.registry.all_entries", lambda: [tic_tac_toe, entries["river"]])
    warmed: list[str] = []
    games = director.warm_games
    assert games is not None
    monkeypatch.setattr(director, "warm_games", lambda *args: warmed.extend(games(*args)))
    thread = director.warm_up()
    thread.join(timeout=HANG_S)
    assert not thread.is_alive()
    assert warmed == ["tic-tac-toe"]  # river has nothing to ready but its scene's modules
    # The library was imported on the warm-up's thread; the next frame makes the rest.
    director.update(0.0)
    assert director.overlay._imgui_ctx is not None  # made now, not on the first F3


#: A window made, its warm-up started and the window closed at once, in a fresh interpreter
#: (where the overlay's library is not imported yet): whether the warm-up was still running.
CLOSE_AT_ONCE = """
import os, sys
os.environ["GAMEHALL_HOME"] = sys.argv[1]
from game.engine.window import configure_pyglet
configure_pyglet(headless=True)
from game.cli.play import build_director
director = build_director(headless=True, size=(320, 200))
thread = director.warm_up()
director.close()
print("running" if thread.is_alive() else "done", flush=True)
"""


@pytest.mark.gl
def test_closing_the_window_waits_for_the_warm_up(tmp_path) -> None:
    """Esc twice right after the start: the process ended while the warm-up thread was
    importing the overlay's library (imgui's nanobind), which aborted it (status -6,
    "Critical nanobind error"). Closing the window now waits for the warm-up."""
    from tests.fresh_python import run_script

    r = run_script(CLOSE_AT_ONCE, tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().splitlines()[-1] == "done"


@pytest.mark.gl
def test_a_windows_warm_up_compiles_a_description_between_frames_a_function_at_a_time(
    director, monkeypatch
) -> None:
    """The window's warm-up compiled the descriptions on its thread while frames were drawn,
    holding the interpreter's lock 0.1-0.3 s a game: the frames stalled. Paced, it waits at
    each pause point (a function of the description compiled) for the frame being drawn to
    end: nothing of chess compiles while a frame is drawn, and every function compiles
    after a pause point of its own."""
    import dataclasses
    import itertools

    from game.engine import director as director_module
    from game.engine.director import Director
    from game.logic.rules import catalogue
    from game.logic.rules import compile as rules_compile
    from game.registry import get

    assert isinstance(director, Director)
    chess = dataclasses.replace(get("chess"), think_in_worker=False, hint_agent="random")
    monkeypatch.setattr("game.registry.all_entries", lambda: [chess])
    monkeypatch.setattr(director_module, "WARM_FRAME_WAIT_S", HANG_S)  # only a hang guard
    monkeypatch.setattr(director, "headless", False)  # as a window: its frames end when drawn
    catalogue._rulebook.cache_clear()  # chess compiles again

    class BetweenFrames(threading.Event):
        """The director's flag, counting the warm-up's waits for it."""

        def __init__(self) -> None:
            super().__init__()
            self.waits = 0
            self.waiting = threading.Event()

        def wait(self, timeout: float | None = None) -> bool:
            if threading.current_thread().name == "warm-up":
                self.waits += 1
                self.waiting.set()
            return super().wait(timeout)

    flag = BetweenFrames()
    monkeypatch.setattr(director, "_between_frames", flag)
    compiled: list[tuple[str, int]] = []  # (thread, waits before it) for each piece compiled

    def counted(*args: object, **kwargs: object) -> object:
        compiled.append((threading.current_thread().name, flag.waits))
        return compile(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(rules_compile, "compile", counted, raising=False)
    director.update(0.0)  # a frame begins
    thread = director.warm_up(paced=True)
    assert flag.waiting.wait(HANG_S)  # the warm-up waits for it to end
    assert compiled == []
    director.on_draw()  # it ends: the warm-up goes on (no more frames are drawn)
    thread.join(HANG_S)
    assert not thread.is_alive()
    assert len(compiled) > 20 and {name for name, _ in compiled} == {"warm-up"}
    waits = [w for _, w in compiled]
    assert all(a < b for a, b in itertools.pairwise(waits)), waits
