"""MasterGrab through its UserActions on the shared headless Director, and its map mesh."""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np
import pytest

from game.controllers.grab_mesh import PIXELS_PER_UNIT, build_map_mesh
from game.logic.grab.map import generate_map
from game.logic.grab.options import GrabOptions
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import NO_MOVE, Move, MoveKind


def start(director, options: GrabOptions | None = None, seed: int = 7):
    from game.controllers.grab import GrabController

    if director.overlay.visible:
        director.overlay.toggle()
    director.register("grab-test", lambda: GrabController(options=options, seed=seed))
    director.switch("grab-test")
    director.settle()
    return director.controller


@pytest.fixture
def grab(director):
    return start(director)


def own_neighbours(state, country: int, player: int = 0) -> tuple[int, ...]:
    return tuple(n for n in state.board.neighbours[country] if state.owners[n] == player)


def winning_attack(state) -> Move:
    """Some attack of player 0 that wins (found with the rules, not the controller)."""
    for c, owner in enumerate(state.owners):
        if owner in (0, MOUNTAIN):
            continue
        own = own_neighbours(state, c)
        if own:
            move = Move(MoveKind.ATTACK, c, own)
            if state.apply(move).owners[c] == 0:
                return move
    raise AssertionError("no winning attack on this map")


pytestmark = pytest.mark.gl


def test_the_map_is_drawn_with_a_number_for_every_land_country(director, grab):
    match = grab.match
    land = [c for c, o in enumerate(match.state.owners) if o != MOUNTAIN]
    assert grab.layer is not None
    assert grab.layer.sprite_count >= 2 * len(land)  # a number and a bar at least
    image = director.capture()
    assert director.ctx.error == "GL_NO_ERROR"
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50  # a map, not a blank screen
    assert director.controller.status_line().startswith("status=playing moves=0")


def test_a_click_on_an_enemy_country_attacks_with_every_own_neighbour(director, grab):
    match = grab.match
    move = winning_attack(match.state)
    assert director.perform(f"country:{move.target}")
    director.settle()
    assert match.history[0] == move
    first = match.history[0]
    assert first.kind is MoveKind.ATTACK and set(first.sources) == set(move.sources)
    # The robots moved after the human, and it is the human's turn again.
    assert match.state.turn == match.state.board.players
    assert match.human_to_move
    assert grab.message  # the round is summed up in the banner


def test_a_click_on_an_own_country_gathers_into_it(director, grab):
    match = grab.match
    mine = next(c for c in match.state.countries_of(0) if own_neighbours(match.state, c))
    assert director.perform(f"country:{mine}")
    director.settle()
    assert match.history[0] == Move(MoveKind.GATHER, mine, own_neighbours(match.initial, mine))


def test_bad_clicks_change_nothing_and_say_why(director, grab):
    match = grab.match
    before = match.state
    mountain = next(iter(match.map.mountains))
    assert not director.perform(f"country:{mountain}")
    assert "mountain" in director.toast
    lonely = next(
        c
        for c, o in enumerate(before.owners)
        if o not in (0, MOUNTAIN) and not own_neighbours(before, c)
    )
    assert not director.perform(f"country:{lonely}")
    assert "borders" in director.toast
    assert not director.perform("country:99999")
    # While the robots move, a click is refused.
    grab.future = Future()
    try:
        assert not director.perform(f"country:{winning_attack(before).target}")
        assert "robots" in director.toast
    finally:
        grab.future = None
    assert match.state is before
    assert match.history == []


def test_next_skips_the_turn_and_lets_every_robot_move(director, grab):
    match = grab.match
    assert director.perform("next")
    director.settle()
    assert match.history[0] == NO_MOVE
    assert len(match.history) == match.state.board.players
    assert match.human_to_move


def test_replay_asks_once_then_restores_the_same_map_and_armies(director, grab):
    match = grab.match
    director.perform("next")
    director.settle()
    assert match.state.turn > 0
    assert director.perform("replay")
    assert match.state.turn > 0  # the first press only asks
    assert "again" in grab.message
    assert director.perform("replay")
    assert match.state == match.initial
    assert match.state.owners == match.initial.owners
    assert match.history == []


def test_the_robots_play_a_game_to_the_end(director):
    options = GrabOptions(countries=20, robots=("basic", "basic"), human_playing=False)
    c = start(director, options, seed=3)
    for _ in range(400):
        if c.match.finished:
            break
        assert director.perform("next")
        director.settle()
    match = c.match
    assert match.finished and match.winner in (0, 1)
    assert set(o for o in match.state.owners if o != MOUNTAIN) == {match.winner}
    assert c.status_line().startswith("status=finished")
    assert "won" in c.message
    assert not director.perform("next")  # nothing more to play


def test_options_are_refused_with_the_reason_outside_their_limits(director, grab):
    assert director.perform("options")
    for _ in range(20):
        director.perform("robots-")
    assert "robots" in director.toast
    assert len(grab.pending.robots) == 1
    assert director.perform("countries+")
    assert grab.pending.countries == 150
    assert director.perform("apply")
    assert grab.match.options.countries == 150
    assert len(grab.match.options.robots) == 1


def test_the_overlay_panel_draws(director, grab):
    director.perform("next")
    director.settle()
    director.overlay.toggle()
    try:
        director.capture()
        assert director.ctx.error == "GL_NO_ERROR"
    finally:
        director.overlay.toggle()


# -- the mesh (no GL) -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_the_mesh_shows_every_country_and_its_walls_pair_up(seed):
    grab_map = generate_map(GrabOptions(), 640, 360, seed, countries=60)
    mesh = build_map_mesh(grab_map.owner, grab_map.centres, step=4, chunks=4)
    assert set(np.unique(mesh.cells)) == set(range(60))
    corners = mesh.vertices.reshape(-1, 4, 7)
    tops = corners[corners[:, 0, 4] == 1.0]
    unit = 4 / PIXELS_PER_UNIT
    area = np.abs(tops[:, 1, 0] - tops[:, 0, 0]) * np.abs(tops[:, 2, 2] - tops[:, 1, 2])
    assert area.sum() == pytest.approx(mesh.cells.size * unit * unit)
    walls = corners[corners[:, 0, 4] != 1.0]
    for axis in (3, 5):
        facing = walls[:, 0, axis]
        # Every border has a wall on each side, of the same total length.
        out = walls[facing > 0]
        back = walls[facing < 0]
        other = 2 if axis == 3 else 0
        length = lambda w, o=other: np.abs(w[:, 1, o] - w[:, 0, o]).sum()  # noqa: E731
        assert length(out) == pytest.approx(length(back))
    assert sum(count for _, count, _ in mesh.chunks) == len(mesh.indices)


def test_picking_a_point_finds_its_country_across_the_wrap():
    grab_map = generate_map(GrabOptions(), 640, 360, 4, countries=60)
    mesh = build_map_mesh(grab_map.owner, grab_map.centres, step=4, chunks=4)
    for c in (0, 17, 42):
        yc, xc = np.argwhere(mesh.cells == c)[0]
        unit = mesh.step / PIXELS_PER_UNIT
        x, z = (xc + 0.5) * unit, (yc + 0.5) * unit
        assert mesh.country_at(x, z) == c
        assert mesh.country_at(x + mesh.width, z - 2 * mesh.depth) == c


def test_hint_shows_a_legal_move_and_changes_nothing(director, grab):
    match = grab.match
    before = match.state
    assert director.perform("hint")
    move = grab.hint_move
    assert move is not None
    before.check(move, 0)  # raises if the hint were not a legal move for the human
    assert match.state is before
    assert "Hint" in grab.message
    director.advance(0.05)  # the map is redrawn on the next tick
    if move.kind is not MoveKind.NONE:
        assert grab.layer is not None and grab.layer.arrow_vertices > 0
