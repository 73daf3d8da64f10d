"""MasterGrab's words and panels on the shared headless Director: names instead of numbers,
the ranking with colours, the tooltip, the hint in view, and numbers apart on the screen."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from game.games.grab.hud import tooltip_text
from game.games.grab.mesh import PIXELS_PER_UNIT
from game.games.grab.paint import LABEL_HEIGHT
from game.games.grab.text import describe_hint, trace_lines
from game.logic.grab.game import click_move
from game.logic.grab.palette import owner_colours
from game.logic.grab.record import grab_state
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import MoveKind
from tests.test_grab_controller import start

pytestmark = pytest.mark.gl


def test_messages_name_countries_and_players_never_numbers(director):
    grab = start(director, seed=5)
    game, state = grab.game, grab_state(grab.match)
    names = game.country_names(state)
    enemy = next(c for c, o in enumerate(state.owners) if o not in (0, MOUNTAIN)
                 and click_move(state, c) is not None)  # fmt: skip
    move = click_move(state, enemy)
    text = describe_hint(game, state, move)
    assert names[enemy] in text and game.seat_name(state.owners[enemy]) in text
    assert not re.search(r"country \d", text)
    director.perform("pass")
    director.settle()
    lines = trace_lines(grab.match)
    assert lines and not any(re.search(r"country \d", line) for line in lines)
    assert all(line.startswith(("You", "Robot")) for line in lines)


def test_the_ranking_shows_each_player_s_colour_and_name(director):
    grab = start(director, {"colour": "sky"}, seed=5)
    sheet = grab.sheet()
    assert sheet is not None and len(sheet.rows) == 4
    colours = owner_colours("sky", 4)
    for row in sheet.rows:
        name = row[1].text.split(". ", 1)[1]
        player = 0 if name == "You" else int(name.split()[0].removeprefix("Robot"))
        assert row[0].fill == (*colours[player], 255)
    assert "basic" in sheet.rows[1][1].text or "basic" in sheet.rows[0][1].text
    grab.cycle_info()  # the trace: text, no sheet
    assert grab.sheet() is None and grab.status().help


def test_the_tooltip_tells_owner_armies_neighbours_and_the_attack_s_outcome(director):
    grab = start(director, seed=5)
    game, state = grab.game, grab_state(grab.match)
    names = game.country_names(state)
    for target, owner in enumerate(state.owners):
        move = click_move(state, target)
        if owner in (0, MOUNTAIN) or move is None:
            continue
        text = tooltip_text(game, state, target, grab.options.robots, True)
        lines = text.splitlines()
        assert lines[0] == names[target]
        assert lines[1] == f"Owner: {game.seat_name(owner)} (basic)"
        assert lines[2].startswith(f"Armies: {int(state.armies[target])} of ")
        assert f"Neighbours ({len(state.board.neighbours[target])}," in lines[3]
        won = state.apply(move).owners[target] == 0
        assert ("you win" in lines[4]) == won and ("you lose" in lines[4]) == (not won)
    mountain = next(iter(state.board.mountains))
    assert "mountain" in tooltip_text(game, state, mountain, grab.options.robots, True)
    # The script's hover shows it in the HUD, beside the country.
    director.perform(f"hover:{mountain}")
    director.update(1 / 60)
    assert director.hud.tip.visible and "nobody can attack" in director.hud.tip.text


def test_a_click_on_a_mountain_is_refused_with_its_name(director):
    grab = start(director, seed=5)
    state = grab_state(grab.match)
    mountain = next(iter(state.board.mountains))
    with pytest.raises(ValueError, match="is a mountain"):
        grab.move_for(mountain)
    assert grab_state(grab.match) is state


def test_the_hint_is_brought_into_view(director):
    grab = start(director, seed=5)
    director.perform("next")  # play a first hinted move, then ask for the next hint
    director.settle()
    director.perform("hint")
    director.settle()
    director.advance(1.5)
    hint = grab.match.current_hint()
    assert hint is not None and hint.action.kind is not MoveKind.NONE
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    point = grab.view.anchor_of(hint.action.target)
    clip = vp @ np.array([*point, 1.0])
    assert abs(clip[0] / clip[3]) < 0.75 and abs(clip[1] / clip[3]) < 0.65


@pytest.mark.parametrize(("countries", "size"), [(30, None), (140, None), (700, (1280, 720))])
def test_numbers_never_overlap_on_the_screen(director, countries, size):
    # 700 countries on the default game's map: crowded, the numbers must shrink to fit.
    overrides = {"size": size} if size else {}
    grab = start(director, {"countries": countries}, seed=3, **overrides)
    director.update(1 / 60)
    painting = grab.view.painting
    assert painting is not None
    state = grab_state(grab.match)
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    inv = np.linalg.inv(vp.astype(np.float64))
    centre = inv @ [0, 0, 0.5, 1]
    ups = inv @ [0, 0.1, 0.5, 1]
    up = ups[:3] / ups[3] - centre[:3] / centre[3]
    up /= np.linalg.norm(up)
    right = np.array([1.0, 0.0, 0.0])
    advance = grab.layer.atlas.advance
    boxes = []
    mesh = grab.layer.mesh
    for c, label in painting.labels.items():
        for ox, oz in itertools.product((-mesh.width, 0.0, mesh.width), (-mesh.depth, 0.0)):
            anchor = np.array([label.x / PIXELS_PER_UNIT + ox, LABEL_HEIGHT,
                               label.y / PIXELS_PER_UNIT + oz])  # fmt: skip
            em = label.height / PIXELS_PER_UNIT
            half_w = len(str(int(state.armies[c]))) * advance * em / 2
            # The digits' box: an em tall at most (a digit is about 0.73 em).
            corners = [anchor + right * sx * half_w + up * sy * em / 2
                       for sx in (-1, 1) for sy in (-1, 1)]  # fmt: skip
            clip = np.array([vp @ np.append(p, 1.0) for p in corners])
            if (clip[:, 3] <= 0).any():
                continue
            ndc = clip[:, :2] / clip[:, 3:4]
            low, high = ndc.min(axis=0), ndc.max(axis=0)
            if (low > 1).any() or (high < -1).any():
                continue  # off the screen
            boxes.append((c, *ndc.min(axis=0), *ndc.max(axis=0)))
    assert len({b[0] for b in boxes}) >= min(countries - 10, 25)
    for a, b in itertools.combinations(boxes, 2):
        overlap = a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
        assert not overlap, (a[0], b[0])


def test_each_seat_s_robot_colour_and_speed_are_chosen_in_the_options(director):
    grab = start(director, seed=5)
    kinds = list(grab._robots().names())
    assert "strategic" in kinds and "basic" in kinds
    director.perform("options")
    first = grab.panel.values["robots"].split(",")
    director.perform("seat2")
    chosen = grab.panel.values["robots"].split(",")
    assert chosen[0] == first[0] and chosen[2] == first[2]
    assert chosen[1] == kinds[(kinds.index(first[1]) + 1) % len(kinds)]
    director.perform("colour")
    director.perform("speed")
    colour, speed = grab.panel.values["colour"], grab.panel.values["robot_speed"]
    assert colour != "vermillion" and speed != "normal"
    director.perform("apply")
    director.settle()
    assert grab.options.robots == tuple(chosen)
    assert grab.session.options["robots"] == ",".join(chosen)  # saved like the other options
    assert grab.session.options["colour"] == colour
    assert colour in grab.message  # "You are sky."
    sheet = grab.sheet()
    you = next(row for row in sheet.rows if row[1].text.endswith("You"))
    assert you[0].fill == (*owner_colours(colour, 1)[0], 255)
    assert grab.playback.seconds == pytest.approx(
        {"instant": 0.0, "fast": 0.45, "normal": 0.9, "slow": 1.8}[speed]
    )
