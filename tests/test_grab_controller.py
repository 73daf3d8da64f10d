"""MasterGrab through its commands on the shared headless Director, and its map mesh."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from game.games.grab.mesh import PIXELS_PER_UNIT, build_map_mesh
from game.games.grab.text import list_row
from game.logic.grab.map import generate_map
from game.logic.grab.options import GrabOptions
from game.logic.grab.record import grab_state
from game.logic.grab.robots.strategic import choose_move
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import NO_MOVE, Move, MoveKind
from game.registry import MemorySession


def start(director, options: dict[str, Any] | None = None, seed: int = 7, **overrides: Any):
    from game.games.grab.controller import GrabController

    if director.overlay.visible:
        director.overlay.toggle()
    session = MemorySession(options=dict(options or {}))
    director.register("grab-test", lambda: GrabController(session, seed=seed, **overrides))
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
    state = grab_state(grab.match)
    land = [c for c, o in enumerate(state.owners) if o != MOUNTAIN]
    assert grab.layer is not None
    assert grab.layer.sprite_count >= len(land)  # a number at least
    image = director.capture()
    assert director.ctx.error == "GL_NO_ERROR"
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50  # a map, not a blank screen
    assert director.controller.status_line().startswith("status=playing moves=0")


def test_the_keys_are_every_game_s_keys(grab):
    keys = grab.commands().keys()
    expected = {"N": "next", "H": "hint", "U": "undo", "Y": "redo", "R": "new", "G": "replay",
                "SPACE": "pass", "I": "info", "O": "options", "P": "autoplay"}  # fmt: skip
    assert expected.items() <= keys.items()
    assert "F1" not in keys  # the Director's help


def test_a_click_on_an_enemy_country_attacks_with_every_own_neighbour(director, grab):
    match = grab.match
    move = winning_attack(grab_state(match))
    assert grab.move_for(move.target) == move
    assert director.perform(f"country:{move.target}")
    director.settle()
    assert match.record[0].action == move
    # The robots moved after the human, and it is the human's turn again.
    assert grab_state(match).turn == grab.game.seats
    assert match.person_to_move()
    assert grab.message  # the round is summed up in the banner


def test_a_click_on_an_own_country_gathers_into_it(director, grab):
    match = grab.match
    first = grab_state(match)
    mine = next(c for c in first.countries_of(0) if own_neighbours(first, c))
    assert director.perform(f"country:{mine}")
    director.settle()
    assert match.record[0].action == Move(MoveKind.GATHER, mine, own_neighbours(first, mine))


def test_a_typed_move_may_use_fewer_attackers(director, grab):
    state = grab_state(grab.match)
    attack = next(
        Move(MoveKind.ATTACK, c, own_neighbours(state, c)[:1])
        for c, o in enumerate(state.owners)
        if o not in (0, MOUNTAIN) and len(own_neighbours(state, c)) > 1
    )
    assert director.perform(f"move:{attack}")
    director.settle()
    assert grab.match.record[0].action == attack


def test_bad_clicks_change_nothing_and_say_why(director, grab):
    match = grab.match
    before = grab_state(match)
    mountain = next(iter(before.board.mountains))
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
    assert not director.perform("move:attack 1>")
    assert match.record == []
    # While the robots move, a click is refused.
    match.paused = True
    assert director.perform("pass")
    try:
        assert not director.perform(f"country:{winning_attack(before).target}")
        assert "robots" in director.toast
    finally:
        match.paused = False
    assert len(match.record) == 1


def test_pass_skips_the_turn_and_lets_every_robot_move(director, grab):
    match = grab.match
    assert director.perform("pass")
    director.settle()
    assert match.record[0].action == NO_MOVE
    assert len(match.record) == grab.game.seats
    assert match.person_to_move()


def test_next_plays_the_hinted_move(director, grab):
    match = grab.match
    first = grab_state(match)
    assert director.perform("next")
    director.settle()
    assert match.record[0].action == choose_move(first, 0)
    assert match.person_to_move() and len(match.record) == grab.game.seats


def test_undo_goes_back_to_your_turn_and_redo_forward(director, grab):
    match = grab.match
    director.perform("pass")
    director.settle()
    after = grab_state(match)
    assert director.perform("undo")
    director.settle()
    assert match.cursor == 0 and match.person_to_move()
    assert director.perform("redo")
    director.settle()
    assert grab_state(match) is after
    assert not director.perform("redo")


def test_replay_asks_once_then_restores_the_same_map_and_armies(director, grab):
    match = grab.match
    first = grab_state(match)
    director.perform("pass")
    director.settle()
    assert match.cursor > 0
    assert director.perform("replay")
    assert match.cursor > 0  # the first press only asks
    assert "again" in grab.message
    assert director.perform("replay")
    assert grab.match is match and match.cursor == 0 and match.record == []
    assert grab_state(match).key() == first.key() and match.seed == 7


def test_new_game_asks_once_then_draws_a_new_map(director, grab):
    director.perform("pass")
    director.settle()
    assert director.perform("new")
    assert "R again" in grab.message and grab.match.cursor > 0
    assert director.perform("new")
    assert grab.match.cursor == 0 and grab.seed != 7


#: The games played to their end show the robots' moves at once: how a move is shown is
#: test_grab_anim's, and each move's animation drawn tick by tick was most of their time.
AT_ONCE = {"robot_speed": "instant"}


def test_the_robots_play_a_game_to_the_end(director):
    options = {"countries": 20, "robots": "basic,basic", "human_playing": False, **AT_ONCE}
    c = start(director, options, seed=3)
    assert not director.perform("next")  # no person: nothing to hint
    for _ in range(400):
        if c.match.over:
            break
        assert director.perform("pass")
        director.settle()
        assert c.match.paused and grab_state(c.match).turn % 2 == 0  # one round at a time
    match = c.match
    state = grab_state(match)
    assert match.over and state.winner in (0, 1)
    assert {o for o in state.owners if o != MOUNTAIN} == {state.winner}
    assert c.status_line().startswith("status=finished")
    assert f"winner={state.winner}" in c.status_line()
    assert "won" in c.message
    assert not director.perform("pass")  # nothing more to play
    assert c.session.records == []  # a robots-only game is nobody's statistics


def test_losing_every_country_names_the_winner_and_counts_the_game(director):
    options = {"countries": 15, "robots": "strategic", "mountains_percent": 0, **AT_ONCE}
    c = start(director, options, seed=2)
    for _ in range(300):
        if c.match.over:
            break
        assert director.perform("pass")
        director.settle()
    state = grab_state(c.match)
    assert c.match.over and 0 not in state.owners
    line = c.status_line()
    assert line.startswith("status=lost ") and "winner=1 " in line
    assert "You lost" in c.message
    assert c.session.records == [
        {"key": "grab", "won": False, "drawn": False, "setting": None, "score": None}
    ]


def test_options_are_refused_with_the_reason_outside_their_limits(director, grab):
    assert director.perform("options")
    for _ in range(20):
        director.perform("robots-")
    assert "robots" in director.toast
    assert grab.panel.values["robots"] == "basic"
    assert director.perform("countries+")
    assert grab.panel.values["countries"] == 150
    assert director.perform("apply")
    assert grab.game.grab_options.countries == 150
    assert grab.game.grab_options.robots == ("basic",)
    assert grab.session.saved[-1]["countries"] == 150


def test_the_overlay_panel_draws(director, grab):
    director.perform("pass")
    director.settle()
    director.overlay.toggle()
    try:
        director.capture()
        assert director.ctx.error == "GL_NO_ERROR"
    finally:
        director.overlay.toggle()


def test_hint_shows_a_legal_move_and_changes_nothing(director, grab):
    match = grab.match
    before = grab_state(match)
    assert director.perform("hint")
    director.settle()
    hint = match.current_hint()
    assert hint is not None
    before.check(hint.action, 0)  # raises if the hint were not a legal move for the human
    assert match.state is before
    assert "Hint" in grab.message
    director.advance(0.05)  # the map is redrawn on the next tick
    if hint.action.kind is not MoveKind.NONE:
        assert grab.layer is not None and grab.layer.arrow_vertices > 0


# -- the mesh (no GL) -----------------------------------------------------------------------


def test_picking_a_point_finds_its_country_across_the_wrap():
    grab_map = generate_map(GrabOptions(), 640, 360, 4, countries=60)
    mesh = build_map_mesh(grab_map.owner, grab_map.centres, step=4, chunks=4)
    for c in (0, 17, 42):
        yc, xc = np.argwhere(mesh.cells == c)[0]
        unit = mesh.step / PIXELS_PER_UNIT
        x, z = (xc + 0.5) * unit, (yc + 0.5) * unit
        assert mesh.country_at(x, z) == c
        assert mesh.country_at(x + mesh.width, z - 2 * mesh.depth) == c


@pytest.mark.slow
def test_a_broken_robot_is_named_and_a_disabled_one_said_once(director, tmp_path) -> None:
    from game.games.grab.debug import robot_notes
    from game.logic.grab.discovery import RobotRegistry

    (tmp_path / "imp.py").write_text("import os\nos._exit(3)\n")
    (tmp_path / "stuck.py").write_text(
        "import time\nfrom game.logic.grab.robot import Robot\n\n"
        "class Stuck(Robot):\n    def __init__(self):\n        time.sleep(1e6)\n"
    )
    registry = RobotRegistry(tmp_path, entry_points=False, import_s=5.0, construct_s=0.5)
    c = start(
        director,
        {"robots": "imp,stuck", "countries": 30, "human_playing": False},
        registry=registry,
    )
    assert c.message.startswith(
        "Robot 'imp' is broken (importing it ended its process (exit code 3)): basic plays"
    )
    said = []
    for _ in range(3):
        director.perform("pass", strict=True)
        director.settle()
        said.append(c.message)
    disabled = [m for m in said if "stuck: RobotDisabledError" in m]
    assert disabled == [said[0]]  # the first round says it; later rounds say what they did
    assert said[0].startswith("Robot2: stuck: RobotDisabledError: disabled for this game")
    notes = robot_notes(c)
    assert any(n.startswith("! Robot2 (stuck): disabled for this game") for n in notes)
    assert any("imp.py: importing it ended its process" in n for n in notes)


def test_the_move_list_has_a_row_a_round_and_a_click_goes_to_its_end(director, grab):
    match, seats = grab.match, grab.game.seats
    for _ in range(2):
        assert director.perform("pass")
        director.settle()
    rows = [c for c in grab.commands() if c.group == "list"]
    assert [c.name for c in rows] == ["move-1", "move-2"]
    # Each round in words (who won and lost countries, list_row's own test); ▸ the map's.
    first, second = list_row(match, 0, seats), list_row(match, seats, 2 * seats)
    assert [c.label for c in rows] == [f"1. {first}", f"▸ 2. {second}"]
    round_two = grab_state(match)
    assert director.perform("move-1")
    director.settle()
    assert match.cursor == seats and match.person_to_move()  # your turn after round 1
    assert grab.status_line().startswith("status=playing moves=" + str(seats))
    rows = [c for c in grab.commands() if c.group == "list"]
    assert [c.label for c in rows] == [f"▸ 1. {first}", f"2. {second}"]  # round 2 to redo
    assert director.perform("move-2")
    director.settle()
    assert grab_state(match) is round_two
