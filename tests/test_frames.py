"""Issue 24, item 1: no frame stalls while the engines compile and the games first open.

Each test holds what a stall's fix rests on, found with hooks (no clock): MasterGrab's maps
come from a worker process (the window never runs its numba kernels); ..."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from game.registry import MemorySession
from tests.waiting import HANG_S


def _no_kernels_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make MasterGrab's kernels refuse to run in this process; returns the calls tried."""
    from game.logic.grab import kernels

    tried: list[str] = []

    def refuse(name: str) -> Any:
        def kernel(*args: Any, **kwargs: Any) -> Any:
            tried.append(name)
            raise AssertionError(f"{name} ran in the window's process")

        return kernel

    monkeypatch.setattr(kernels, "grow", refuse("grow"))
    monkeypatch.setattr(kernels, "chamfer", refuse("chamfer"))
    return tried


@pytest.mark.gl
def _grab_in_a_window(director: Any, name: str, seed: int) -> Any:
    """MasterGrab opened under ``name`` as a window opens it: its maps made in a worker."""
    from game.games.grab.controller import GrabController

    def make() -> GrabController:
        controller = GrabController(MemorySession(), seed=seed)
        controller.maps_in_worker = True  # as in a window
        return controller

    director.register(name, make)
    return director.switch(name)


def test_a_window_gets_grab_maps_from_a_worker_the_same_as_made_here(director, monkeypatch):
    from game.games.grab.making import make_map_and_mesh
    from game.logic.grab.game import map_seed_of
    from game.logic.grab.making import PREPARE
    from game.logic.grab.record import grab_state

    if director.overlay.visible:
        director.overlay.toggle()
    tried = _no_kernels_here(monkeypatch)

    grab = _grab_in_a_window(director, "grab-maps-in-worker", seed=11)
    assert grab.match is None and grab.preparing()  # the map is on its way
    assert director.settle()
    assert tried == []
    state = grab_state(grab.match)
    shown = grab.game.map_of(state)
    monkeypatch.undo()  # the kernels run here again: the same map made in this process
    expected, spots, mesh = make_map_and_mesh(*grab.game.map_arguments(map_seed_of(11)))
    assert np.array_equal(shown.owner, expected.owner)
    assert grab.view.spots.points == spots.points
    assert np.array_equal(grab.view.layer.mesh.vertices, mesh.vertices)  # drawn as made there
    from game.games.grab.entry import ENTRY

    assert ENTRY.prepare == PREPARE  # the menu's warm-up readies the same worker


@pytest.mark.gl
def test_a_window_finds_grabs_robots_while_its_map_is_made(director, monkeypatch):
    """MasterGrab seated its robots in the frame its map came in, and the first look-up of
    them imported the built-in ones there (~0.1 s, more on a busy machine) when the menu's
    warm-up had not got to it yet: they are found on a thread of their own meanwhile."""
    import threading

    import game.games.grab.entry as grab_entry
    from game.logic.grab import discovery

    if director.overlay.visible:
        director.overlay.toggle()
    _no_kernels_here(monkeypatch)
    found_on: list[str] = []
    real = discovery.RobotRegistry.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        found_on.append(threading.current_thread().name)
        real(self, *args, **kwargs)

    monkeypatch.setattr(discovery.RobotRegistry, "__init__", counted)
    monkeypatch.setattr(grab_entry, "_REGISTRY", None)

    grab = _grab_in_a_window(director, "grab-robots", seed=3)
    assert grab.match is None and grab.preparing()  # the map is on its way
    assert director.settle()
    assert grab.match is not None  # seated, with the robots found before
    assert found_on == ["grab-robots"]


@pytest.mark.gl
def test_card_faces_painted_a_step_a_frame_end_as_painted_at_once(director):
    """A window paints Cluedo's faces a step at a time (at least one step a call, and never
    all at once), and they end as the faces painted at once."""
    from game.games.clue.faces import HEIGHT, WIDTH, CardFaceLayer, face_pictures
    from game.logic.clue.deck import deck_names, load_deck

    deck = load_deck(deck_names()[0])
    director.window.switch_to()
    layer = CardFaceLayer(director.ctx, deck, gradual=True)
    try:
        calls = 0
        while not layer.paint(0.0):  # a budget of nothing: one step a call
            calls += 1
            assert layer.faces_done <= calls
        assert calls > 2 * deck.n_cards  # several steps a card, not a card at once
        raw = np.frombuffer(layer.texture.read(), dtype=np.uint8)
        painted = raw.reshape(deck.n_cards + 1, HEIGHT, WIDTH, 4)[:, ::-1]
        assert np.array_equal(painted, face_pictures(deck))
        # The smaller pictures (made here, not by the driver) are the driver's own, give or
        # take its rounding: those of the faces painted at once.
        at_once = CardFaceLayer(director.ctx, deck)
        try:
            for level in (1, 3):
                mine, drivers = _level(layer.texture, level), _level(at_once.texture, level)
                assert mine.shape == drivers.shape and mine[..., :3].mean() > 50  # pictures
                assert np.abs(mine.astype(int) - drivers).mean() < 2.0
        finally:
            at_once.release()
    finally:
        layer.release()


@pytest.mark.gl
def test_cluedos_plain_faces_are_made_ahead_and_go_up_in_one_call_a_level(director, monkeypatch):
    """Opening Cluedo's table painted every category's plain face and the back, with their
    smaller pictures, and wrote them a layer and a level at a time (0.4-0.8 s in the frame it
    opened in): the menu's warm-up makes them, and the table sends each level up in one
    call."""
    from pyglet import gl

    from game.games.clue import faces as clue_faces
    from game.games.clue.entry import ENTRY
    from game.logic.clue.deck import deck_names, load_deck
    from game.registry import warm_up

    deck = load_deck(deck_names()[0])
    warm_up([ENTRY])
    stacked = clue_faces._plain_levels.cache_info().misses
    painted: list[int] = []
    for name in ("_plain_picture", "_back", "_chain"):
        real = getattr(clue_faces, name)
        monkeypatch.setattr(clue_faces, name, lambda *a, _real=real: painted.append(1) or _real(*a))
    uploads: list[int] = []
    for name in ("glTexImage3D", "glTexSubImage3D"):
        real = getattr(gl, name)
        monkeypatch.setattr(gl, name, lambda *a, _real=real: uploads.append(1) or _real(*a))
    director.window.switch_to()
    layer = clue_faces.CardFaceLayer(director.ctx, deck, gradual=True)
    try:
        assert painted == []  # made ahead
        assert clue_faces._plain_levels.cache_info().misses == stacked  # and put together
        levels = len(clue_faces._chain(clue_faces._back()))
        assert len(uploads) <= levels  # a call a level, every layer at once
        while layer.base_level > 0:
            layer.paint(0.0)  # the largest levels, a step a frame
        # Each card shows its category's plain face, and the back its own, until painted.
        raw = np.frombuffer(layer.texture.read(), dtype=np.uint8)
        shown = raw.reshape(deck.n_cards + 1, clue_faces.HEIGHT, clue_faces.WIDTH, 4)[:, ::-1]
        for card in (0, deck.n_cards - 1):
            plain = clue_faces._plain_picture(deck.category_of(card))
            assert np.array_equal(shown[card], plain)
        assert np.array_equal(shown[deck.n_cards], clue_faces._back())
    finally:
        layer.release()


@pytest.mark.gl
def test_cluedos_table_sends_its_largest_pictures_up_a_few_layers_a_frame(director, monkeypatch):
    """The plain faces' levels all went up in the frame Cluedo's table opened in: 11 MB for
    the default deck, 0.6-0.7 s of that frame on a busy machine (8 ms alone). The first frame
    sends the small levels (a card's size on screen at 800x600) and each frame's paint a few
    layers of a larger one; the cards are drawn from the largest level all there."""
    import ctypes

    from pyglet import gl

    from game.games.clue import faces as clue_faces
    from game.games.clue.entry import ENTRY
    from game.logic.clue.deck import deck_names, load_deck
    from game.registry import warm_up

    deck = load_deck(deck_names()[0])
    warm_up([ENTRY])
    sent: list[int] = []  # bytes of pictures handed to the driver

    def image(*a: Any, _real: Any = gl.glTexImage3D) -> Any:
        w, h, layers, data = a[3], a[4], a[5], a[-1]
        sent.append(0 if data is None else w * h * layers * 4)
        return _real(*a)

    def sub_image(*a: Any, _real: Any = gl.glTexSubImage3D) -> Any:
        sent.append(a[5] * a[6] * a[7] * 4)
        return _real(*a)

    monkeypatch.setattr(gl, "glTexImage3D", image)
    monkeypatch.setattr(gl, "glTexSubImage3D", sub_image)
    director.window.switch_to()
    layer = clue_faces.CardFaceLayer(director.ctx, deck, gradual=True)
    try:
        layers = deck.n_cards + 1
        full = layers * clue_faces.WIDTH * clue_faces.HEIGHT * 4  # level 0, every layer
        assert 0 < sum(sent) <= full // 8  # the small levels
        assert layer.base_level == clue_faces.FIRST_LEVEL

        def base() -> int:
            level = ctypes.c_int()
            gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, layer.texture.glo)
            gl.glGetTexParameteriv(gl.GL_TEXTURE_2D_ARRAY, gl.GL_TEXTURE_BASE_LEVEL, level)
            gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)
            return level.value

        assert base() == clue_faces.FIRST_LEVEL
        if clue_faces._storage(director.ctx):  # every level made at once, never again
            made = ctypes.c_int()
            gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, layer.texture.glo)
            gl.glGetTexParameteriv(gl.GL_TEXTURE_2D_ARRAY, gl.GL_TEXTURE_IMMUTABLE_FORMAT, made)
            gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)
            assert made.value == 1
        keys = {layer.still_key()}
        steps = 0
        while layer.base_level > 0:
            sent.clear()
            layer.paint(0.0)  # a budget of nothing: one step
            steps += 1
            assert 0 < sum(sent) <= clue_faces.LAYERS_A_STEP * full // layers
            assert base() == layer.base_level
            keys.add(layer.still_key())
        assert steps >= 2 * (layers // clue_faces.LAYERS_A_STEP)  # levels 1 and 0
        assert len(keys) == clue_faces.FIRST_LEVEL + 1  # a cached picture is drawn again
        assert layer.faces_done == 0  # the faces come after
    finally:
        layer.release()


def _level(texture, level: int) -> np.ndarray:
    """A texture array's mipmap level, read back (layers, h, w, 4)."""
    import ctypes

    from pyglet import gl

    w, h = max(1, texture.width >> level), max(1, texture.height >> level)
    out = np.zeros((texture.layers, h, w, 4), dtype=np.uint8)
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, texture.glo)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glGetTexImage(gl.GL_TEXTURE_2D_ARRAY, level, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE,
                     out.ctypes.data_as(ctypes.c_void_p))  # fmt: skip
    gl.glBindTexture(gl.GL_TEXTURE_2D_ARRAY, 0)
    return out


@pytest.mark.gl
def test_the_hud_uses_its_button_labels_again_when_the_bar_changes(director):
    """A new set of buttons (a move played, the overlay's column) takes the labels the bar
    had: the same objects, with their new texts (no label made and laid out anew)."""
    from game.engine.controller import Button
    from game.engine.hud import Hud

    director.window.switch_to()
    hud = Hud((800, 600))

    def buttons(*labels: str) -> list[Button]:
        return [Button(label, label.lower()) for label in labels]

    hud.set_buttons(buttons("Hint", "Undo", "New game"))
    before = {id(v.label) for v in hud._buttons}
    hud.set_buttons(buttons("Hint", "Redo", "Undo", "New game"))
    after = {id(v.label): v.label.text for v in hud._buttons}
    assert before <= set(after)  # every label is used again; one more is made
    assert sorted(after.values()) == sorted(["Hint", "Redo", "Undo", "New game"])
    kept = {v.label.text: id(v.label) for v in hud._buttons}
    hud.layout((1280, 720))  # a new size: the same labels, larger
    assert {v.label.text: id(v.label) for v in hud._buttons} == kept
    hud.set_buttons(buttons("Hint"))
    assert [v.label.text for v in hud._buttons] == ["Hint"]
    assert id(hud._buttons[0].label) == kept["Hint"]
    assert hud.button_at(hud._buttons[0].x + 1, hud._buttons[0].y + 1).command == "hint"


@pytest.mark.gl
def test_the_hud_sets_a_buttons_colours_only_when_they_change(director):
    """The HUD refreshes its buttons every frame, and pyglet recolours every letter of a
    label at each colour set, even to the colour it has: the frames of a game with many
    buttons paid for that each time. A colour is set only when it changes."""
    from game.engine.controller import Button, Status
    from game.engine.hud import Hud

    director.window.switch_to()
    hud = Hud((800, 600))
    hud.set_buttons([Button("Hint", "hint"), Button("Undo", "undo", enabled=lambda: False)])
    hud.set_status(Status("A game"))
    recoloured: list[str] = []
    for view in hud._buttons:
        document = view.label.document

        def set_style(*args: Any, _set: Any = document.set_style, _text: str = view.label.text):
            recoloured.append(_text)
            return _set(*args)

        document.set_style = set_style
    hud.set_status(Status("A game"))  # the same status (every frame)
    hud.set_status(Status("A game", counter="Move 2"))  # another one, the same buttons
    assert recoloured == []
    hud.hover = "hint"
    hud.set_status(Status("A game"))
    assert recoloured == ["Hint"]
    assert tuple(hud._buttons[0].label.color) == (30, 24, 10, 255)  # the hovered look


@pytest.mark.gl
def test_the_menu_keeps_its_card_pictures_between_visits(director):
    """Back in the menu after a game: the same texture of card pictures and the same
    program (made once: they took a third of a second each time), still drawable."""
    if "menu" not in director.factories:
        pytest.skip("this Director has no menu")
    director.switch("menu")
    layer = director.controller.layer
    pictures, program = layer.pictures, layer.prog
    director.switch("river")
    director.switch("menu")
    assert director.controller.layer.pictures is pictures
    assert director.controller.layer.prog is program
    director.capture()
    assert director.ctx.error == "GL_NO_ERROR"


def test_a_worker_slowed_by_a_busy_machine_is_awaited_past_the_grace() -> None:
    """The answer of a worker that thinks slowly (a busy machine gives it a small share of a
    processor) comes long after its time and grace on the clock: it is awaited, never lost.
    The grace is a second: a worker the machine left unscheduled for 0.3 s (this test beside
    two CPU-heavy jobs) was taken for one that had stopped thinking."""
    import random

    from worker_agents import Starved

    from game.logic.contract import Limits, Stop
    from game.logic.workers.pool import WorkerAgent

    agent = WorkerAgent(Starved(seconds=2.0), grace=1.0)
    assert agent.choose(None, Limits(time=0.1), random.Random(0), Stop()) == "answered"


def test_a_worker_that_thinks_past_its_time_is_ended_with_a_clear_message() -> None:
    import random

    from worker_agents import Spinning, WhereAmI

    from game.logic.contract import Limits, Stop
    from game.logic.workers.pool import ThinkingLost, WorkerAgent

    with pytest.raises(ThinkingLost, match=r"no answer after .* s of thinking"):
        WorkerAgent(Spinning(), grace=0.3).choose(None, Limits(time=0.1), random.Random(0), Stop())
    assert WorkerAgent(WhereAmI()).choose(None, Limits(time=1.0), random.Random(0), Stop())


def test_the_stall_watch_names_what_the_drawing_thread_did() -> None:
    """A frame over 100 ms is a stall, named by where the drawing thread was seen while it
    lasted (here: waiting in the engine's preparation, which the sampler then ends)."""
    import sys
    import threading

    from game.engine.stalls import StallWatch, where
    from game.logic.contract import Stop
    from game.logic.workers import pool

    now = [0.0]
    watch = StallWatch(clock=lambda: now[0])  # this thread draws
    now[0] = 0.02
    assert watch.frame() is None  # 20 ms: a frame like any other
    prep = pool.Preparation("a task of the test")
    drawing = threading.get_ident()

    def sampler() -> None:
        while "_wait_for" not in where(sys._current_frames()[drawing]):
            pass  # until the drawing thread is in the work
        now[0] += 0.3  # the frame is late
        for _ in range(3):
            assert watch.sample()
        prep._finish()

    thread = threading.Thread(target=sampler)
    thread.start()
    pool._wait_for(prep, Stop())  # the "frame's work": waits until the sampler has looked
    thread.join()
    stall = watch.frame()
    assert stall is not None and stall.ms == pytest.approx(300.0)
    assert "pool.py" in stall.doing and "_wait_for" in stall.doing
    assert stall.describe().startswith("300 ms in ")
    assert watch.longest(10.0) == stall
    now[0] += 11.0
    assert watch.longest(10.0) is None  # the overlay looks back ten seconds


@pytest.mark.gl
def test_a_windows_frames_render_the_fonts_glyphs_ahead_a_step_at_a_time(director, monkeypatch):
    """A game's first frame rendered every letter of its labels (pyglet renders a glyph the
    first time a text shows it), a new text size all of them: a window's frames now render
    ahead, a step a frame, the common glyphs of every font its texts use."""
    import gc

    import pyglet

    from game.engine.glyphs import AHEAD, FONT, GlyphsAhead

    director.window.switch_to()
    ahead = GlyphsAhead()
    ahead.run(HANG_S)  # the fonts in use so far: all done
    # A size no text of the tests drawn before has used: no glyph yet. (The HUD scales its
    # sizes to the window, so a fixed odd size was once a move list's, in some orders.)
    size = next(s / 100 for s in range(1317, 1400) if not pyglet.font.load(FONT, s / 100).glyphs)
    font = pyglet.font.load(FONT, size)
    assert not font.glyphs and font in GlyphsAhead.fonts()
    director.glyphs_ahead = ahead
    monkeypatch.setattr("game.engine.director.GLYPHS_AHEAD_S", 0.0)  # a frame: one step
    try:
        director.update(0.0)
        assert 0 < len(font.glyphs) <= GlyphsAhead.STEP
        steps = 0
        while any(c not in font.glyphs for c in AHEAD) and steps < len(AHEAD):
            before = len(font.glyphs)
            assert ahead.run(0.0) > 0  # no time left: one step
            steps += 1
            assert 0 < len(font.glyphs) - before <= GlyphsAhead.STEP
        assert steps > 1 and all(c in font.glyphs for c in AHEAD)
        assert ahead.run(0.0) == 0  # nothing left to do
        # Kept: no text uses the font any more, and five fonts were loaded since (pyglet
        # holds the last few), yet the same size comes back with its glyphs.
        rendered = len(font.glyphs)
        del font
        for other in range(1, 6):
            pyglet.font.load(FONT, size + other / 20)
        gc.collect()
        assert len(pyglet.font.load(FONT, size).glyphs) == rendered
    finally:
        director.glyphs_ahead = None


def _clue_in_a_window(director: Any, session: MemorySession) -> Any:
    """Cluedo's table opened as a window opens it: its notebook worked out in the background."""
    from game.games.clue.controller import ClueController

    def make() -> ClueController:
        return ClueController(session, seed=1, background=True)

    director.register("clue-window", make)
    return director.switch("clue-window")


@pytest.mark.gl
def test_cluedos_notebook_is_worked_out_off_the_drawing_thread(director, monkeypatch):
    """Cluedo's opening frame worked out the notebook's counts (a sweep of the deals) on the
    drawing thread, 274-462 ms on a busy machine, and every event's frame did it again. In a
    window no sweep runs on the drawing thread: the sheet shows your hand and says the
    notebook is being worked out (after an event, the notebook before it), then the thread's
    notebook replaces it."""
    import threading

    from game.logic.clue import deduce

    if director.overlay.visible:
        director.overlay.toggle()
    swept: list[str] = []
    solve = deduce._solve

    def counted(*args: Any, **kwargs: Any) -> Any:
        swept.append(threading.current_thread().name)
        return solve(*args, **kwargs)

    monkeypatch.setattr(deduce, "_solve", counted)
    gate = threading.Event()  # the notebook's thread waits for it: the sheet is seen first
    joint = deduce.Knowledge.envelope_joint

    def held(self: Any) -> Any:
        if threading.current_thread().name == "clue-notebook":
            assert gate.wait(HANG_S)
        return joint(self)

    monkeypatch.setattr(deduce.Knowledge, "envelope_joint", held)
    session = MemorySession(options={"seats": 3, "opponent": "article"})
    clue = _clue_in_a_window(director, session)
    director.update(1 / 60)
    assert "MainThread" not in swept  # the opening frame swept nothing
    from game.games.clue.panel import WORKING

    sheet = director.hud.sheet.sheet
    assert sheet is not None and sheet.footer[0] == WORKING
    seat = clue.viewer
    hand = clue.state.observation(seat).hand
    ticks = [row[0].command for row in sheet.rows if len(row) > 1 and row[1 + seat].text == "✓"]
    assert ticks == [f"choose:{card}" for card in sorted(hand)]  # your hand needs no sweep
    director.perform(f"why:{hand[0]}/{seat}", strict=True)
    assert "being worked out" in clue.status().banner  # a cell's why waits for it too
    gate.set()
    clue.background_threads["notebook"].join(HANG_S)
    director.update(1 / 60)
    sheet = director.hud.sheet.sheet
    assert sheet.footer[0].startswith(("Likeliest: ", "Solved: "))
    # Why a cell is so (a deduction for each event, most of a second late in a long game):
    # on a thread of its own too, said when it is there.
    from game.logic.clue.notebook import Notebook

    asked: list[str] = []
    why = Notebook.why

    def recorded(self: Any, card: int, holder: int) -> Any:
        asked.append(threading.current_thread().name)
        return why(self, card, holder)

    monkeypatch.setattr(Notebook, "why", recorded)
    director.perform(f"why:{hand[0]}/{seat}", strict=True)
    assert clue.status().banner.startswith("Working out why")
    clue.background_threads["why"].join(HANG_S)
    assert not clue.background_threads["why"].is_alive()
    director.update(1 / 60)
    assert asked == ["clue-why"]
    assert "follows from your hand" in clue.status().banner, clue.status().banner
    before = sheet
    gate.clear()
    director.perform("suggest", strict=True)  # an event: the notebook of it, in the background too
    director.update(1 / 60)
    shown = director.hud.sheet.sheet
    assert shown.footer[0] == WORKING and shown.rows == before.rows  # the one before it
    gate.set()
    clue.background_threads["notebook"].join(HANG_S)
    director.update(1 / 60)
    assert director.hud.sheet.sheet.footer[0].startswith(("Likeliest: ", "Solved: "))
    assert swept and "MainThread" not in swept


@pytest.mark.gl
def test_a_games_sheet_is_laid_out_once_in_the_frame_it_opens(director, monkeypatch):
    """Opening Cluedo from the menu laid the notebook's 150-odd labels out twice in that
    frame: first under the menu's title panel (the status before), then again under
    Cluedo's own. Its status is placed first now: one layout, every label sized once."""
    from game.engine import sheet as sheet_module
    from game.games.clue.controller import ClueController

    if director.overlay.visible:
        director.overlay.toggle()
    before = director.factories.get("clue")
    size = director.window_size()
    director.on_resize(800, 600)
    sized: list[float] = []
    paint = sheet_module.SheetView._paint

    def counted(self: Any, font_size: float | None = None) -> None:
        if font_size is not None:  # a layout: every label at its size
            sized.append(font_size)
        paint(self, font_size)

    try:
        session = MemorySession(options={"seats": 3, "opponent": "article"})
        director.register("clue", lambda: ClueController(session, seed=1))
        director.switch("menu")
        monkeypatch.setattr(sheet_module.SheetView, "_paint", counted)
        director.switch("clue")
        assert director.hud.sheet.visible
        assert len(sized) == 1
        director.update(1 / 60)
        assert len(sized) == 1  # the next frame: nothing new
    finally:
        director.on_resize(*size)
        if before is not None:
            director.register("clue", before)


#: In a fresh interpreter: a headless window on the menu, the overlay's library in (as the
#: warm-up leaves it), a frame drawn; then F3 and the overlay's first frame. Prints the
#: modules that frame imported.
FIRST_F3 = """
import os, sys
os.environ["GAMEHALL_HOME"] = sys.argv[1]
from game.engine.window import configure_pyglet
configure_pyglet(headless=True)
from game.cli.play import build_director
director = build_director(headless=True, size=(800, 600))
director.switch("menu")
director.overlay.prepare()
director.update(1 / 60)
director.capture()
director.perform("overlay")
assert director.overlay.visible
before = set(sys.modules)
director.update(1 / 60)
director.capture()
director.update(1 / 60)
director.capture()
print("imported:", " ".join(sorted(set(sys.modules) - before)), flush=True)
director.close()
"""


@pytest.mark.gl
def test_the_first_f3_imports_nothing_on_the_drawing_thread(tmp_path) -> None:
    """The overlay's first frames import no module: an import there holds up the frame
    (np.percentile's first call imported numpy.ma, 0.1 s of the first F3's frame)."""
    from tests.fresh_python import run_script

    r = run_script(FIRST_F3, tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    line = next(x for x in r.stdout.splitlines() if x.startswith("imported:"))
    assert line.split() == ["imported:"], line


@pytest.mark.gl
def test_grab_label_atlas_painted_a_cell_a_step_ends_as_painted_at_once(director, monkeypatch):
    """MasterGrab's label atlas (20 glyphs at 40 pixels and their outline) took about 0.2 s
    of the map's first frame. It is painted a step at a time, no step rendering more than
    one glyph, and ends as the atlas painted at once."""
    from game.engine import glyphs
    from game.games.grab import atlas as grab_atlas

    director.window.switch_to()
    at_once = grab_atlas.AtlasPainter().pixels()
    rendered: list[str] = []
    glyphs_of = glyphs.glyphs_of

    def counted(font: Any, text: str) -> list[Any]:
        rendered.append(text)
        return glyphs_of(font, text)

    monkeypatch.setattr(glyphs, "glyphs_of", counted)
    painter = grab_atlas.AtlasPainter()
    steps = 0
    while True:
        before = len(rendered)
        more = painter.step()
        assert len(rendered) - before <= 1
        steps += 1
        if not more:
            break
    assert painter.done and steps > len(grab_atlas.NAMES)
    assert len(rendered) == 20  # each digit, regular and bold, once
    assert np.array_equal(painter.pixels(), at_once)
    assert len(rendered) == 20, "nothing painted again"


@pytest.mark.gl
def test_a_window_paints_grab_labels_while_the_map_is_made(director, monkeypatch):
    """While MasterGrab's map is on its way from the worker, each frame paints a step of the
    label atlas; the map's first frame then only uploads it."""
    from game.games.grab import atlas as grab_atlas
    from game.games.grab.making import MapOrder

    if director.overlay.visible:
        director.overlay.toggle()
    painter = grab_atlas.AtlasPainter()
    monkeypatch.setattr(grab_atlas, "_AHEAD", painter)

    grab = _grab_in_a_window(director, "grab-maps-in-worker", seed=11)
    assert grab.preparing()
    with monkeypatch.context() as waiting:
        waiting.setattr(MapOrder, "done", lambda self: False)  # the worker is still at it
        for frame in range(1, 6):
            director.update(1 / 60)
            assert painter._next == frame
    assert director.settle()
    assert grab.match is not None and painter.done
    atlas = grab.view.layer.atlas
    assert atlas.texture.read() == painter.pixels().tobytes()


@pytest.mark.gl
def test_the_hud_measures_button_texts_without_laying_a_label_out(director, monkeypatch):
    """The HUD measures every button's text when its bar changes (a game's first frame, the
    first F3): each measure laid a label out (0.1-0.3 s of those frames). It measures from
    the font's glyphs, as wide as the label that then shows the text."""
    from pyglet.text import Label
    from pyglet.text.layout import TextLayout

    from game.engine.glyphs import FONT
    from game.engine.hud import Hud

    director.window.switch_to()
    hud = Hud((800, 600))
    laid: list[int] = []
    update = TextLayout._update

    def counted(self: Any) -> None:
        laid.append(id(self))
        update(self)

    texts = ["Hint  H", "New game  R", "Undo  U", "1. e4 e5", "Options"]
    with monkeypatch.context() as watching:
        watching.setattr(TextLayout, "_update", counted)
        widths = [hud.text_width(text, size) for text in texts for size in (11, 12.5, 19)]
    assert laid == []
    shown = [
        Label(text, font_name=FONT, font_size=size).content_width
        for text in texts
        for size in (11, 12.5, 19)
    ]
    assert widths == shown


@pytest.mark.gl
def test_the_hud_lays_its_texts_out_once_for_a_new_game_and_not_for_a_new_banner(
    director, monkeypatch
):
    """A new game's title was laid out at the old size, at the full size, then at the size
    that fits (three layouts in its first frame, two more at each F3), and F1's long help
    was tried a size at a time again at every new banner. A new text or size lays each label
    out once; a new banner lays out nothing but the banner."""
    from pyglet.text.layout import TextLayout

    from game.engine.controller import Status
    from game.engine.hud import Hud

    director.window.switch_to()
    hud = Hud((800, 600))
    hud.set_status(Status(title="Chess", counter="Move 1", help="H hint"))
    laid: list[int] = []
    update = TextLayout._update

    def counted(self: Any) -> None:
        if self._update_enabled:  # else pyglet returns at once (a restyle's batched changes)
            laid.append(id(self))
        update(self)

    monkeypatch.setattr(TextLayout, "_update", counted)
    title = "International draughts on a ten by ten board, flying kings, the majority capture"
    helps = " ".join(f"{key} does a thing with a long description" for key in "HNUYRQWEAS") * 16
    game = Status(title=title, counter="White to move, 20 pieces each", help=helps)

    def layouts(label: Any) -> int:
        return laid.count(id(label))

    hud.set_status(game)  # a new game's first frame
    assert layouts(hud.title) == 1 and layouts(hud.counter) == 1
    fitted = (hud.title.font_size, hud.help.font_size)
    assert fitted[0] < round(hud.font_size() * 1.5)  # the title is narrowed to fit
    assert fitted[1] < max(9, round(hud.font_size() * 0.8))  # the help made smaller to fit
    laid.clear()
    hud.set_status(Status(title=title, counter=game.counter, help=helps, banner="Your move."))
    assert layouts(hud.title) == layouts(hud.counter) == layouts(hud.help) == 0
    assert (hud.title.font_size, hud.help.font_size) == fitted
    laid.clear()
    hud.layout((560, 600), text_for=(800, 600))  # F3: the HUD beside the overlay
    assert layouts(hud.title) <= 1 and layouts(hud.counter) == 0


@pytest.mark.gl
def test_leaving_a_game_lays_out_nothing_of_its_sheet(director, monkeypatch):
    """Esc from Cluedo to the menu laid the notebook's 150-odd labels out again in the room
    the menu's buttons leave, just before the menu hid it (0.5-2 s of that frame). The old
    game's sheet goes with it: no label of it changes."""
    from game.engine import sheet as sheet_module
    from game.games.clue.controller import ClueController

    if director.overlay.visible:
        director.overlay.toggle()
    before = director.factories.get("clue")
    size = director.window_size()
    director.on_resize(800, 600)
    try:
        session = MemorySession(options={"seats": 3, "opponent": "article"})
        director.register("clue", lambda: ClueController(session, seed=1))
        director.switch("clue")
        director.update(1 / 60)
        assert director.hud.sheet.visible
        changed: list[object] = []
        restyle = sheet_module.restyle

        def counted(label: object, **changes: object) -> bool:
            done = restyle(label, **changes)
            if done:
                changed.append(changes)
            return done

        monkeypatch.setattr(sheet_module, "restyle", counted)
        director.switch("menu")
        assert not director.hud.sheet.visible
        assert changed == []
    finally:
        director.on_resize(*size)
        if before is not None:
            director.register("clue", before)


#: In a fresh interpreter: a headless window on the menu that opens games as a window does
#: (their scene modules imported in the background); MasterGrab played from it, its maps from a
#: worker as in a window. Prints what the menu said meanwhile and the modules the drawing thread
#: imported from the play until MasterGrab's scene showed.
OPEN_GRAB = """
import os, sys, threading
os.environ["GAMEHALL_HOME"] = sys.argv[1]
from game.engine.window import configure_pyglet
configure_pyglet(headless=True)
from game.cli.play import build_director
director = build_director(headless=True, size=(800, 600))
director.switch("menu")
menu = director.controller
menu.opens_in_background = True
make = director.factories["grab"]
def maps_in_worker():
    controller = make()
    controller.maps_in_worker = True
    return controller
director.factories["grab"] = maps_in_worker
director.update(1 / 60)
director.capture()
drawing = threading.get_ident()
imported = []
def watch(event, args):
    if event == "import" and threading.get_ident() == drawing and args[0] not in sys.modules:
        imported.append(args[0])
sys.addaudithook(watch)
said = set()
director.perform("play:grab")
while director.controller is menu:
    said.add(menu.status().counter)
    director.update(1 / 60)
    director.capture()
print("said:", "|".join(sorted(said)), flush=True)
print("imported:", " ".join(imported), flush=True)
director.close()
"""


@pytest.mark.gl
def test_a_game_opened_before_the_warm_up_imports_its_module_in_the_background(tmp_path) -> None:
    """MasterGrab opened from the menu before the warm-up had imported its scene module
    imported it (and the logic under it) in the frame it opened in: 0.5-2 s on a busy
    machine. A window's menu imports it on a thread of its own and opens the game when it
    is in; the drawing thread imports nothing meanwhile, nor in the game's first frame."""
    from tests.fresh_python import run_script

    r = run_script(OPEN_GRAB, tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = {x.partition(" ")[0]: x.partition(" ")[2] for x in r.stdout.splitlines()}
    assert lines["imported:"] == "", lines["imported:"]
    assert "Opening MasterGrab…" in lines["said:"].split("|")


@pytest.mark.gl
def test_f3_lays_out_neither_the_banner_nor_a_sheet_that_fit_the_narrower_room(
    director, monkeypatch
):
    """F3's column narrows the HUD's room (its text keeps its size): the hint banner was
    laid out again at its new width, though its line showed the same as before, and so was
    F1's help with no text at all. A banner line that fits both widths and an empty help
    are left as laid out, and so is a docked sheet that fits both rooms (MasterGrab's
    ranking); a banner that must wrap now is laid out again."""
    from pyglet.text.layout import TextLayout

    from game.engine.controller import Cell, Sheet, Status
    from game.engine.hud import Hud

    director.window.switch_to()
    hud = Hud((800, 600))
    sheet = Sheet(
        "Ranking",
        (Cell("Player"), Cell("Countries"), Cell("Armies")),
        tuple((Cell(name), Cell(str(n)), Cell(str(3 * n))) for n, name in enumerate("ABCD")),
    )
    hud.set_sheet(sheet)
    hud.set_status(Status("MasterGrab", "Round 3", banner="Hint: attack 12 from 7"))
    labels = {id(hud.banner): "banner", id(hud.sheet.title): "sheet", id(hud.help): "help"}
    for views in hud.sheet._cells:
        labels.update({id(v.label): "sheet" for v in views if v.label is not None})
    laid: list[str] = []
    update = TextLayout._update

    def counted(self: Any) -> None:
        if self._update_enabled:
            laid.append(labels.get(id(self), "other"))
        update(self)

    monkeypatch.setattr(TextLayout, "_update", counted)
    assert hud.sheet.visible
    for size in ((560, 600), (800, 600), (560, 600)):  # F3 shown, hidden, shown
        hud.layout(size, text_for=(800, 600))
        assert not {"banner", "sheet", "help"} & set(laid), laid
        box = hud.banner_box
        middle = hud.sheet.x + hud.sheet.width + hud.font_size() * 0.5
        middle += (size[0] - middle) / 2
        assert hud.banner.x == round(middle)  # centred in the room it has now
        assert box.x + box.width <= size[0] and hud.banner.content_width < box.width
    one_line = hud.banner.content_height
    hud.layout((800, 600), text_for=(800, 600))
    words = "Hint: attack Country 12 from 7 and 9"
    hud.set_status(Status("MasterGrab", "Round 3", banner=words))
    assert hud.banner.content_height == one_line  # one line at 800 wide
    laid.clear()
    hud.layout((560, 600), text_for=(800, 600))
    assert laid.count("banner") == 1 and hud.banner.content_height > one_line  # wraps now


@pytest.mark.gl
def test_a_game_whose_module_the_warm_up_is_importing_opens_when_that_ends(director):
    """A module that the warm-up thread is importing is in ``sys.modules`` already; the
    drawing thread's import of it waited for the warm-up's (MasterGrab: 0.4-1.5 s of the
    frame it opened in). The menu treats it as not imported yet: a thread waits for it."""
    import importlib.machinery
    import sys
    import types

    if "menu" not in director.factories:
        pytest.skip("this Director has no menu")
    name = "game.games.river.controller"
    importlib.import_module(name)
    real = sys.modules[name]
    director.switch("menu")
    menu = director.controller
    menu.opens_in_background = True
    half = types.ModuleType(name)  # what another thread's import leaves there meanwhile
    half.__spec__ = importlib.machinery.ModuleSpec(name, None)
    half.__spec__._initializing = True
    sys.modules[name] = half
    try:
        director.perform("play:river")
        assert director.controller is menu and menu.opening is not None
        assert menu.status().counter.startswith("Opening ")
        menu.opening.thread.join(HANG_S)
    finally:
        sys.modules[name] = real
    director.update(1 / 60)
    assert director.controller is not menu and director.controller.name == "river"
