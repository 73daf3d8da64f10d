"""The mouse over a scene: drags turn and pan the view, the wheel zooms, all within limits;
a small press and release is still a click, and picks with the camera as it is."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pyglet.window import key, mouse

from game.engine.orbit import Orbit, OrbitLimits

EYE = np.array([0.0, 6.0, 8.0])
TARGET = np.zeros(3)


def _elevation(eye: np.ndarray, target: np.ndarray) -> float:
    v = np.asarray(eye, "f8") - np.asarray(target, "f8")
    return math.degrees(math.asin(v[1] / np.linalg.norm(v)))


def _distance(eye: np.ndarray, target: np.ndarray) -> float:
    return float(np.linalg.norm(np.asarray(eye, "f8") - np.asarray(target, "f8")))


# -- the orbit alone (no GL) --------------------------------------------------------------------


def test_a_sideways_drag_turns_the_view_about_the_target_at_the_same_distance() -> None:
    orbit = Orbit()
    orbit.turn(200.0, 0.0, 600.0, EYE, TARGET)
    eye, target = orbit.place(EYE, TARGET)
    assert orbit.yaw == pytest.approx(-math.pi / 3)
    assert np.allclose(target, TARGET)
    assert _distance(eye, target) == pytest.approx(10.0, rel=1e-5)
    assert _elevation(eye, target) == pytest.approx(_elevation(EYE, TARGET), abs=1e-3)
    assert eye[0] < -1.0, "dragging right swings the eye to the left of the scene"


def test_the_tilt_stops_short_of_straight_down_and_above_the_horizon() -> None:
    orbit = Orbit()
    orbit.turn(0.0, -100_000.0, 600.0, EYE, TARGET)  # far down the screen: towards the top view
    assert _elevation(*orbit.place(EYE, TARGET)) == pytest.approx(88.0, abs=1e-3)
    orbit.turn(0.0, 100_000.0, 600.0, EYE, TARGET)
    assert _elevation(*orbit.place(EYE, TARGET)) == pytest.approx(12.0, abs=1e-3)


def test_a_limited_turn_stops_at_its_limit() -> None:
    orbit = Orbit(OrbitLimits(yaw=30.0))
    orbit.turn(5000.0, 0.0, 600.0, EYE, TARGET)
    assert math.degrees(orbit.yaw) == pytest.approx(-30.0)


def test_the_wheel_zooms_within_its_limits() -> None:
    orbit = Orbit()
    orbit.zoom_by(1.0)
    assert _distance(*orbit.place(EYE, TARGET)) < 10.0
    orbit.zoom_by(1000.0)
    assert _distance(*orbit.place(EYE, TARGET)) == pytest.approx(10.0 * 0.45, rel=1e-5)
    orbit.zoom_by(-1000.0)
    assert _distance(*orbit.place(EYE, TARGET)) == pytest.approx(10.0 * 2.0, rel=1e-5)
    orbit.zoom_by(float("nan"))  # bad input changes nothing
    assert orbit.zoom == pytest.approx(2.0)


def test_a_pan_moves_the_target_over_the_ground_and_no_further_than_its_limit() -> None:
    orbit = Orbit()
    orbit.pan_by(-50.0, 0.0, 600.0, 40.0, EYE, TARGET)
    eye, target = orbit.place(EYE, TARGET)
    assert target[0] > 0.1 and target[1] == pytest.approx(0.0), "left drag: the view goes right"
    assert np.allclose(eye - target, EYE - TARGET, atol=1e-5), "a pan does not turn the view"
    orbit.pan_by(-1e6, 1e6, 600.0, 40.0, EYE, TARGET)
    assert float(np.linalg.norm(orbit.pan)) == pytest.approx(0.45 * 10.0)
    orbit.reset()
    assert orbit.is_home() and np.allclose(orbit.place(EYE, TARGET)[0], EYE)


def test_a_scene_without_orbit_keeps_its_view() -> None:
    orbit = Orbit(OrbitLimits(enabled=False))
    orbit.turn(300.0, 300.0, 600.0, EYE, TARGET)
    orbit.zoom_by(3.0)
    orbit.pan_by(40.0, 40.0, 600.0, 40.0, EYE, TARGET)
    assert orbit.is_home()


# -- through the Director's window events --------------------------------------------------------


def _screen(director, point) -> tuple[float, float]:
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    clip = vp @ np.append(np.asarray(point, "f4"), 1.0)
    w, h = director.window_size()
    return float((clip[0] / clip[3] + 1) / 2 * w), float((clip[1] / clip[3] + 1) / 2 * h)


def _send(director, event: str, *args) -> None:
    director.window.dispatch_event(event, *args)
    director.window.dispatch_events()


def _drag(director, start, steps, button=mouse.LEFT, modifiers=0) -> None:
    x, y = start
    _send(director, "on_mouse_press", x, y, button, modifiers)
    for dx, dy in steps:
        x, y = x + dx, y + dy
        _send(director, "on_mouse_drag", x, y, dx, dy, button, modifiers)
    _send(director, "on_mouse_release", x, y, button, modifiers)


def _empty_water(director) -> tuple[float, float]:
    """A point on the river with nothing pickable under it."""
    w, h = director.window_size()
    for fy in (0.45, 0.5, 0.55, 0.4, 0.6):
        x, y = w * 0.5, h * fy
        if director.pick_at(x, y) is None and not director.hud.contains(x, y):
            return x, y
    raise AssertionError("no empty spot in the middle of the river")


@pytest.mark.gl
def test_a_left_drag_on_empty_space_turns_the_view_and_clicks_nothing(director, river):
    camera = director.scene.camera
    before = river.state.key()
    _drag(director, _empty_water(director), [(6, 0)] * 10)
    assert camera.orbit.yaw < -0.05
    assert river.state.key() == before and director.tweens.busy == 0


@pytest.mark.gl
def test_a_drag_that_starts_on_a_character_turns_the_view_and_does_not_board_it(director, river):
    node = director.scene["devil1"]
    start = _screen(director, node.world_position() + np.array([0, 0.5, 0], "f4"))
    assert director.pick_at(*start) is node
    _drag(director, start, [(0, -8)] * 6, button=mouse.RIGHT)
    assert director.scene.camera.orbit.pitch > 0.02, "dragging down looks more from above"
    director.settle()
    assert not river.places["devil1"].aboard


@pytest.mark.gl
def test_a_middle_drag_or_shift_drag_pans_and_the_wheel_zooms_within_limits(director, river):
    camera = director.scene.camera
    start = _empty_water(director)
    _drag(director, start, [(-5, 0)] * 6, button=mouse.MIDDLE)
    first = camera.orbit.pan.copy()
    assert np.linalg.norm(first) > 0.05 and camera.orbit.yaw == 0.0
    _drag(director, start, [(-5, 0)] * 6, button=mouse.LEFT, modifiers=key.MOD_SHIFT)
    assert np.linalg.norm(camera.orbit.pan) > np.linalg.norm(first) and camera.orbit.yaw == 0.0
    home = _distance(camera.eye, camera.target)
    _send(director, "on_mouse_scroll", *start, 0.0, 2.0)
    assert _distance(*camera.placed()) < home
    for _ in range(60):
        _send(director, "on_mouse_scroll", *start, 0.0, 3.0)
    assert _distance(*camera.placed()) == pytest.approx(home * 0.45, rel=1e-4)
    for _ in range(60):
        _send(director, "on_mouse_scroll", *start, 0.0, -3.0)
    assert _distance(*camera.placed()) == pytest.approx(home * 2.0, rel=1e-4)


@pytest.mark.gl
def test_v_brings_the_scene_view_back(director, river):
    camera = director.scene.camera
    _drag(director, _empty_water(director), [(10, 5)] * 5)
    assert not camera.orbit.is_home()
    _send(director, "on_key_press", key.V, 0)
    assert camera.orbit.is_home()
    _drag(director, _empty_water(director), [(10, 5)] * 5)
    assert director.perform("view", strict=True) and camera.orbit.is_home()


@pytest.mark.gl
def test_a_small_press_and_release_is_a_click_on_the_same_character(director, river):
    node = director.scene["devil1"]
    x, y = _screen(director, node.world_position() + np.array([0, 0.5, 0], "f4"))
    _send(director, "on_mouse_press", x, y, mouse.LEFT, 0)
    _send(director, "on_mouse_drag", x + 2, y + 1, 2, 1, mouse.LEFT, 0)
    assert not river.places["devil1"].aboard, "nothing happens before the release"
    _send(director, "on_mouse_release", x + 2, y + 1, mouse.LEFT, 0)
    director.settle()
    assert river.places["devil1"].aboard


@pytest.mark.gl
def test_after_the_view_turns_a_click_picks_what_is_drawn_under_the_mouse(director, river):
    node = director.scene["devil1"]
    head = node.world_position() + np.array([0, 0.5, 0], "f4")
    old = _screen(director, head)
    _drag(director, _empty_water(director), [(-12, -6)] * 6)
    _send(director, "on_mouse_scroll", *_empty_water(director), 0.0, 1.0)
    new = _screen(director, head)
    assert math.dist(old, new) > 20, "the turn moved the character on screen"
    assert director.pick_at(*new) is node
    _send(director, "on_mouse_press", *new, mouse.LEFT, 0)
    _send(director, "on_mouse_release", *new, mouse.LEFT, 0)
    director.settle()
    assert river.places["devil1"].aboard


@pytest.mark.gl
def test_a_controller_may_take_drags_and_the_wheel_itself(director, river):
    taken: list[tuple] = []

    def on_drag(x, y, dx, dy, buttons, modifiers):
        taken.append(("drag", dx, dy, buttons, modifiers))
        return True

    def on_scroll(x, y, dy):
        taken.append(("scroll", dy))
        return dy > 0  # takes only the wheel up: down still zooms the camera

    river.on_drag, river.on_scroll = on_drag, on_scroll
    try:
        camera = director.scene.camera
        start = _empty_water(director)
        _drag(director, start, [(8, 0)] * 3, button=mouse.MIDDLE)
        assert camera.orbit.is_home()
        assert ("drag", 8, 0, mouse.MIDDLE, 0) in taken
        _send(director, "on_mouse_scroll", *start, 0.0, 1.0)
        assert camera.orbit.is_home() and ("scroll", 1.0) in taken
        _send(director, "on_mouse_scroll", *start, 0.0, -1.0)
        assert camera.orbit.zoom > 1.0
    finally:
        del river.on_drag, river.on_scroll


@pytest.mark.gl
def test_a_hook_that_raises_falls_back_to_the_camera(director, river):
    def broken(*args):
        raise RuntimeError("bug in a controller")

    river.on_drag = broken
    try:
        _drag(director, _empty_water(director), [(8, 0)] * 4)
        assert director.scene.camera.orbit.yaw != 0.0
    finally:
        del river.on_drag


@pytest.mark.gl
def test_grab_turns_and_zooms_with_the_default_camera_and_keeps_its_own_pan(director):
    director.switch("grab")
    try:
        camera = director.scene.camera
        w, h = director.window_size()
        start = (w * 0.5, h * 0.55)
        assert not director.hud.contains(*start)
        _drag(director, start, [(6, -4)] * 5)
        _send(director, "on_mouse_scroll", *start, 0.0, 1.0)
        director.advance(0.2)
        assert camera.orbit.yaw != 0.0 and camera.orbit.zoom < 1.0
        target = camera.target.copy()
        director.perform("pan-right", strict=True)
        director.advance(1.0)
        assert camera.target[0] != pytest.approx(target[0]), "the keys still pan the map"
        assert camera.orbit.yaw != 0.0, "and the person's turn stays"
        assert director.capture().std() > 5, "the map is still drawn"
    finally:
        director.switch("river")
