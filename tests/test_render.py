"""Rendering: every scene draws something with no GL error; F3; picking; clicks on the overlay."""

from __future__ import annotations

import numpy as np
import pytest
from pyglet.window import key, mouse

from game.engine.scene import SceneError, load_scene
from game.resources import asset_dir

pytestmark = pytest.mark.gl

SCENES = sorted(p.stem for p in asset_dir("scenes").glob("*.toml"))
#: Scene files that more than one game uses, and the game to open each with.
SHARED = {"board": "chess"}


def screen_xy(director, world: np.ndarray) -> tuple[float, float]:
    """Window pixel of a world point (origin bottom-left)."""
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    clip = vp @ np.append(world, 1.0)
    ndc = clip[:3] / clip[3]
    w, h = director.window_size()
    return (ndc[0] + 1) / 2 * w, (ndc[1] + 1) / 2 * h


@pytest.mark.parametrize("name", SCENES)
def test_every_scene_renders_its_objects(director, name):
    assert director.ctx.error == "GL_NO_ERROR"
    name = SHARED.get(name, name)
    director.switch(name)
    full = director.capture()
    assert director.ctx.error == "GL_NO_ERROR"
    for node in director.scene:
        node.hidden = True
    layers, director.scene.layers = director.scene.layers, []
    empty = director.capture()
    director.scene.layers = layers
    changed = np.any(full != empty, axis=2).mean()
    assert changed > 0.05, f"{name}: only {changed:.1%} of the picture shows objects"
    assert director.renderer.stats.draw_calls <= 1  # just the sky when everything is hidden
    director.switch(name)
    director.capture()
    stats = director.renderer.stats
    if name == "grab":  # no nodes: the map is a layer (tiles, arrows and labels per copy)
        assert stats.triangles > 10000
        assert director.ctx.error == "GL_NO_ERROR"
        return
    # sky, one scene multi-draw (none for a scene of water alone: the menu's backdrop; and
    # one more for the water, drawn after the layers), one shadow multi-draw when the shadow
    # map was redrawn, and one call per render layer (the menu's cards)
    drawn = [n for n in director.scene if n.mesh and n.is_visible()]
    water = any(n.material.wave for n in drawn)
    solid = any(not n.material.wave for n in drawn)
    assert not stats.reused
    calls = 1 + solid + water + stats.shadow_updated + len(director.scene.layers)
    assert stats.draw_calls == calls
    assert stats.meshes >= (4 if solid else 1)
    assert stats.triangles > 1000
    assert director.ctx.error == "GL_NO_ERROR"


def test_shadows_darken_the_ground(director):
    director.switch("river")
    with_shadows = director.capture().astype(int)
    director.renderer.shadows = False
    try:
        without = director.capture().astype(int)
    finally:
        director.renderer.shadows = True
    darker = (with_shadows.sum(axis=2) < without.sum(axis=2) - 30).mean()
    assert darker > 0.005


def test_the_shadow_map_is_redrawn_only_when_a_caster_moves(director, river):
    director.capture()
    director.capture()
    assert not director.renderer.stats.shadow_updated
    still = director.capture()
    boat = director.scene["boat"]
    boat.position = boat.position + np.array([0.0, 0.0, 0.6], "f4")
    moved = director.capture()
    assert director.renderer.stats.shadow_updated
    assert director.renderer.stats.draw_calls == 4  # shadow map, nodes, water, sky
    assert np.any(still != moved, axis=2).mean() > 0.001


def _fresh(director) -> np.ndarray:
    """The frame drawn whole, with no cached still part."""
    director.renderer.cache_still = False
    try:
        return director.capture()
    finally:
        director.renderer.cache_still = True


@pytest.mark.parametrize("name", ["river", "chess", "grab", "menu", "clue"])
def test_a_still_frame_is_copied_and_looks_the_same(director, name):
    director.switch(name)
    director.advance(0.5)
    drawn = _fresh(director)
    director.capture()
    director.capture()  # the second frame alike fills the cache
    assert director.renderer.stats.reused
    copied = director.capture()
    assert director.renderer.stats.reused
    assert director.ctx.error == "GL_NO_ERROR"
    assert np.array_equal(copied, drawn)


def test_a_new_renderer_readies_its_still_frame_cache_in_its_first_frame(director, monkeypatch):
    """A software renderer readies its copy into the window as it first makes one: 0.2 s of
    the first still frame. A new renderer makes its cache's target in its first frame and
    copies it once there; the first still frame then makes no target, and the copy it shows
    is the frame as drawn."""
    from game.engine import targets
    from game.engine.render import Renderer

    director.switch("chess")
    director.advance(0.5)
    window = targets.Target(director.ctx, (320, 240))  # stands for the window
    made: list[tuple[int, int]] = []
    make = targets.Target.__init__

    def counted(self, ctx, size):
        made.append(tuple(size))
        make(self, ctx, size)

    monkeypatch.setattr(targets.Target, "__init__", counted)
    renderer = Renderer(director.ctx, director.renderer.meshes)
    try:
        renderer.render(director.scene, window.fbo, (320, 240))
        assert made == [(320, 240)] and not renderer.stats.reused
        drawn = window.fbo.read(components=3)
        renderer.render(director.scene, window.fbo, (320, 240))  # the second alike: cached
        assert renderer.stats.reused and made == [(320, 240)]
        assert window.fbo.read(components=3) == drawn
    finally:
        renderer.release()
        window.release()


def test_the_water_moves_over_a_cached_frame(director, river):
    director.capture()
    first = director.capture()
    assert director.renderer.stats.reused
    director.renderer.time += 0.5  # the waves move; nothing else does
    later = director.capture()
    assert director.renderer.stats.reused
    assert np.any(first != later, axis=2).mean() > 0.01
    assert np.array_equal(later, _fresh(director))


def test_a_change_is_drawn_not_copied(director, river):
    director.capture()
    director.capture()
    assert director.renderer.stats.reused
    boat = director.scene["boat"]
    boat.position = boat.position + np.array([0.0, 0.0, 0.6], "f4")
    moved = director.capture()
    assert not director.renderer.stats.reused
    assert np.array_equal(moved, _fresh(director))
    director.scene.camera.eye = director.scene.camera.eye + np.array([0.5, 0.0, 0.0], "f4")
    turned = director.capture()
    assert not director.renderer.stats.reused
    assert np.any(turned != moved, axis=2).mean() > 0.01


def test_a_layer_that_cannot_say_what_it_draws_is_drawn_every_frame(director, river):
    class Plain:
        def draw(self, frame):
            return 0, 0

        def release(self):
            pass

    director.scene.layers.append(Plain())
    try:
        for _ in range(3):
            director.capture()
            assert not director.renderer.stats.reused
    finally:
        director.scene.layers.pop()


def test_a_grab_hover_is_drawn_not_copied(director):
    director.switch("grab")
    director.advance(0.5)
    director.capture()
    director.capture()
    assert director.renderer.stats.reused
    layer = director.scene.layers[0]
    layer.hover = 3
    hovered = director.capture()
    assert not director.renderer.stats.reused
    assert np.array_equal(hovered, _fresh(director))


def test_resize_keeps_the_picture_right(director):
    director.switch("river")
    # A headless window cannot really change size; call the handler pyglet would call.
    director.on_resize(800, 300)
    try:
        assert director.framebuffer_size() == (800, 300)
        pixels = director.capture()
        assert pixels.shape == (300, 800, 3)
        # The boat stays on screen, inside the picture.
        x, y = screen_xy(director, director.scene["boat"].world_position())
        assert 0 < x < 800 and 0 < y < 300
        # The HUD follows: every button inside the new width.
        assert all(v.x >= 0 and v.x + v.w <= 800 for v in director.hud._buttons)
    finally:
        director.on_resize(640, 400)


def test_f3_toggles_the_overlay(director, river):
    plain = director.capture()
    director.window.dispatch_event("on_key_press", key.F3, 0)
    director.window.dispatch_events()
    assert director.overlay.visible
    shown = director.capture()
    assert director.ctx.error == "GL_NO_ERROR"
    assert np.any(plain != shown, axis=2).mean() > 0.02
    director.window.dispatch_event("on_key_press", key.F3, 0)
    director.window.dispatch_events()
    assert not director.overlay.visible


def test_a_click_on_the_overlay_does_not_reach_the_game(director, river):
    """A character drawn where the debug column goes: with the column shown, the click there
    goes to the overlay and changes nothing, and the character is drawn beside the column
    (the game moved into the part left to it); with the overlay hidden, the same click
    boards that character."""
    director.overlay.toggle()
    director.capture()  # one overlay frame: imgui knows where its column is, and how wide
    column = director.overlay.rect(director.window_size())
    director.overlay.toggle()
    director.capture()
    assert column is not None
    under = None
    for node in director.scene:
        if node.name.startswith(("priest", "devil")):
            point = node.world_position() + np.array([0, 0.5, 0], "f4")
            x, y = director.to_window(point)
            if column[0] + 4 <= x <= column[0] + column[2] - 4 and director.pick_at(x, y) is node:
                under = (node, point, x, y)
                break
    assert under is not None, "no character where the debug column goes to test with"
    node, point, x, y = under
    director.overlay.toggle()
    try:
        director.capture()
        director.window.dispatch_event("on_mouse_motion", x, y, 0, 0)
        director.window.dispatch_events()
        assert director.overlay.wants_mouse()
        moved = director.to_window(point)
        assert not column[0] <= moved[0] <= column[0] + column[2], "drawn beside the column"
        key_before = river.state.key()
        assert director.click(x, y, mouse.LEFT) == "overlay"
        director.window.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)
        director.window.dispatch_events()
        director.capture()
        assert river.state.key() == key_before
        assert director.tweens.busy == 0
    finally:
        director.overlay.toggle()
    director.update(1 / 60)
    assert director.click(x, y, mouse.LEFT) == "scene"
    director.settle()
    assert river.places[node.name].aboard


def test_picking_a_character_boards_it(director, river):
    node = director.scene["devil1"]
    x, y = screen_xy(director, node.world_position() + np.array([0, 0.5, 0], "f4"))
    assert director.pick_at(x, y) is node
    assert director.click(x, y) == "scene"
    director.settle()
    assert river.places["devil1"].aboard
    boat = director.scene["boat"]
    bx, by = screen_xy(director, boat.world_position() + np.array([0.9, 0.1, 0], "f4"))
    assert director.pick_at(bx, by) is boat
    director.click(bx, by)
    director.settle()
    assert river.state.crossings == 1


def test_hover_highlights_and_hud_buttons_work(director, river):
    node = director.scene["priest1"]  # behind the devils: aim at the head
    x, y = screen_xy(director, node.world_position() + np.array([0, 1.15, 0], "f4"))
    director.window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    director.window.dispatch_events()
    assert director.hovered is node
    assert node.highlight > 0
    spec = next(b for b in river.commands().buttons() if b.command == "hint")
    hx = hy = None
    for view in director.hud._buttons:
        if view.spec.command == spec.command:
            hx, hy = view.x + view.w / 2, view.y + view.h / 2
    assert hx is not None
    assert director.click(hx, hy) == "hud"
    assert "Hint" in river.status().banner


def test_a_bad_scene_file_names_file_key_and_expectation(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera]\neye = [0, 1]\n")
    with pytest.raises(SceneError, match=r"bad.toml: camera.eye should be three numbers"):
        load_scene(bad)
    bad.write_text('[[objects]]\nname = "x"\nmaterial = "gold"\n')
    with pytest.raises(SceneError, match=r"objects\[0\].material 'gold' is not defined"):
        load_scene(bad)
    bad.write_text('[[objects]]\nname = "x"\nsize = 3\n')
    with pytest.raises(SceneError, match=r"objects\[0\] has unknown key 'size'"):
        load_scene(bad)
    bad.write_text("this is = = not toml")
    with pytest.raises(SceneError, match=r"bad.toml: not valid TOML"):
        load_scene(bad)
    with pytest.raises(SceneError, match="cannot read"):
        load_scene(tmp_path / "missing.toml")


def test_f12_saves_a_screenshot_and_says_where(director, river, _private_home):
    director.window.dispatch_event("on_key_press", key.F12, 0)
    director.window.dispatch_events()
    shots = list((_private_home / "data" / "screenshots").glob("river-*.png"))
    assert len(shots) == 1
    assert shots[0].read_bytes().startswith(b"\x89PNG")
    assert str(shots[0]) in director.toast


def test_show_fps_puts_the_frame_rate_in_the_hud(director, river):
    director.show_fps = True
    try:
        for _ in range(3):
            director.capture()
        director.update(1 / 60)
        assert director.hud.counter.text.endswith("fps")
    finally:
        director.show_fps = False
    director.update(1 / 60)
    assert not director.hud.counter.text.endswith("fps")


@pytest.mark.gl
@pytest.mark.parametrize("game", ["river", "reversi", "grab"])
def test_the_button_bar_wraps_inside_a_narrow_window(director, game):
    """At 800x600 every game's bottom bar fits: no button leaves the window, none overlaps
    another, and the banner sits above the bar's top row."""
    director.switch(game)
    director.on_resize(800, 600)
    try:
        bar = [v for v in director.hud._buttons if v.spec.group == "main"]
        assert bar and all(v.x >= 0 and v.x + v.w <= 800 for v in bar)
        for a in bar:
            for b in bar:
                if a is not b:
                    apart = a.x + a.w <= b.x or b.x + b.w <= a.x
                    assert apart or a.y + a.h <= b.y or b.y + b.h <= a.y
        assert director.hud.banner_box.y >= max(v.y + v.h for v in bar)
    finally:
        director.on_resize(640, 400)
