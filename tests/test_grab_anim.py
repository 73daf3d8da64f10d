"""The robots' moves are shown one by one (arrows grow, armies travel, the target changes
colour); Space, Esc or ``skip`` show the newest state at once; nothing is lost meanwhile."""

from __future__ import annotations

import numpy as np
import pytest

from game.games.grab.anim import GROW, TRAVEL
from game.logic.grab.game import click_move
from game.logic.grab.options import ROBOT_SPEEDS
from game.logic.grab.record import grab_state
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import MoveKind
from tests.test_grab_controller import start

pytestmark = pytest.mark.gl

DT = 1 / 30


def robots_answer(grab) -> None:
    """Pass, and let the robots' moves reach the match without time passing for the map."""
    match = grab.match
    grab.pass_turn()
    while not match.person_to_move():
        match.wait()
        match.poll()


def shown_numbers(grab) -> dict[int, str]:
    painting = grab.view.painting
    state = grab_state(grab.match, grab.playback.shown)
    return {c: str(int(state.armies[c])) for c in painting.labels}


def test_a_robot_s_turn_is_animated_and_ends_at_the_new_state(director):
    grab = start(director, {"robot_speed": "normal"}, seed=5)
    before = grab_state(grab.match)
    robots_answer(grab)
    match = grab.match
    assert grab.playback.busy(match) and not grab.your_turn()
    seconds = ROBOT_SPEEDS["normal"]
    director.update(DT)
    assert grab.playback.shown == 1  # the person's pass is shown at once, then the robots
    frame = grab.playback.frame(match, grab.view.grab_map, grab._palette(), 0.6)
    move = match.record[1].action
    assert frame is not None and len(frame.arrows) == len(move.sources)
    # The arrows grow from the attackers towards the target ...
    start_x = [a.start for a in frame.arrows]
    director.advance(seconds * GROW * 0.5 - DT, DT)
    half = grab.playback.frame(match, grab.view.grab_map, grab._palette(), 0.6)
    director.advance(seconds * GROW * 0.6, DT)
    full = grab.playback.frame(match, grab.view.grab_map, grab._palette(), 0.6)
    assert [a.start for a in half.arrows] == start_x
    for h, f in zip(half.arrows, full.arrows, strict=True):
        grown = np.hypot(*np.subtract(h.end, h.start))
        assert 0 < grown < np.hypot(*np.subtract(f.end, f.start))
    # ... the armies travel (a number on its way), then the map shows the move's result.
    director.advance(seconds * (TRAVEL - GROW) * 0.5, DT)
    assert grab.playback.frame(match, grab.view.grab_map, grab._palette(), 0.6).sprites
    assert grab.playback.shown == 1
    director.advance(seconds * 3 * len(match.record), DT)
    assert not grab.playback.busy(match) and grab.your_turn()
    assert grab.view.painting is not None
    assert shown_numbers(grab) == {c: str(int(grab_state(match).armies[c]))
                                   for c in grab.view.painting.labels}  # fmt: skip
    assert grab_state(match) is not before


def test_skip_ends_the_animation_at_once_and_clicks_meanwhile_are_refused(director):
    grab = start(director, {"robot_speed": "slow"}, seed=5)
    robots_answer(grab)
    match = grab.match
    state = grab_state(match)
    assert grab.playback.busy(match)
    enemy = next(c for c, o in enumerate(state.owners)
                 if o not in (0, MOUNTAIN) and click_move(state, c))  # fmt: skip
    with pytest.raises(ValueError, match="being shown"):
        grab.click_country(enemy)
    assert grab_state(match) is state and len(match.record) == grab.game.seats
    assert grab.on_escape()  # Esc: the newest state, not the menu
    assert not grab.playback.busy(match) and grab.your_turn()
    director.update(DT)
    assert "Round 1" in grab.message  # the round's summary, once the moves are on the map
    assert not grab.on_escape()  # nothing to skip: Esc goes to the menu as ever
    grab.pass_turn()
    while not match.person_to_move():
        match.wait()
        match.poll()
    assert grab.playback.busy(match)
    assert director.perform("skip")
    assert not grab.playback.busy(match)
    assert director.perform("pass")  # Space: with nothing to show, it passes again


def test_instant_speed_shows_the_robots_moves_at_once(director):
    grab = start(director, {"robot_speed": "instant"}, seed=5)
    robots_answer(grab)
    director.update(DT)
    assert not grab.playback.busy(grab.match)
    assert any(s.action.kind is not MoveKind.NONE for s in grab.match.record[1:])
