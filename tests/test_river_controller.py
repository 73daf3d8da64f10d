"""The river game driven through its UserActions only, on a headless Director."""

from __future__ import annotations

import numpy as np
import pytest

from game.engine.controller import Tone
from game.logic.river import Outcome, RiverPuzzle, Rules

pytestmark = pytest.mark.gl


def positions(director) -> dict[str, np.ndarray]:
    return {
        n.name: n.world_position()
        for n in director.scene
        if n.name.startswith(("priest", "devil", "boat"))
    }


def test_solve_from_the_start_wins_in_eleven(director, river):
    assert director.perform("solve")
    assert director.settle()
    assert river.state.verdict().outcome is Outcome.WON
    assert river.state.crossings == 11
    assert river.status_line() == "status=won crossings=11 optimal=11"
    assert river.status().tone is Tone.WON
    # Everyone stands ashore on the right bank, the boat is docked there.
    for name, pos in positions(director).items():
        assert pos[0] > 0, name


def test_solve_from_an_off_path_state_wins_optimally(director, river):
    # One devil alone first: (3,2,R) is 12 from the goal, off every shortest path.
    for action in ("board:devil", "boat"):
        assert director.perform(action)
        assert director.settle()
    puzzle = RiverPuzzle(Rules())
    to_go = puzzle.distance(river.state)
    assert to_go == 12
    assert director.perform("solve")
    assert director.settle()
    assert river.state.verdict().outcome is Outcome.WON
    assert river.state.crossings == 1 + to_go


def test_solve_from_a_half_loaded_boat(director, river):
    for action in ("board:priest", "board:priest"):  # two priests is not an optimal load
        director.perform(action)
        director.settle()
    assert director.perform("solve")
    assert director.settle()
    assert river.state.verdict().outcome is Outcome.WON
    assert river.state.crossings == 11


def test_clicks_during_an_animation_change_nothing(director, river):
    assert director.perform("board:priest")
    assert director.tweens.busy > 0
    key = river.state.key()
    places = dict(river.places)
    assert not director.perform("board:devil")
    assert not director.perform("boat")
    river.on_pick(director.scene["devil1"])
    river.on_pick(director.scene["boat"])
    assert river.state.key() == key
    assert river.places == places
    assert director.settle()
    assert river.state.boat.priests == 1


def test_clicks_after_the_end_change_nothing(director, river):
    director.perform("solve")
    director.settle()
    key = river.state.key()
    for action in ("board:priest", "unboard:devil", "boat", "next", "solve"):
        assert not director.perform(action)
    river.on_pick(director.scene["priest1"])
    river.on_pick(director.scene["boat"])
    director.settle()
    assert river.state.key() == key


def test_loss_is_judged_when_the_boat_lands(director, river):
    director.perform("board:priest")
    director.perform("board:priest") if director.settle() else None
    director.settle()
    director.perform("boat")
    # Departed: the verdict waits for the landing.
    director.advance(0.3)
    assert river.status().tone is not Tone.LOST
    assert director.settle()
    status = river.status()
    assert status.tone is Tone.LOST
    assert "left bank" in status.banner
    assert "1 priest" in status.banner and "3 devils" in status.banner
    assert river.status_line().startswith("status=lost crossings=1")


def test_undo_restores_the_exact_previous_state(director, river):
    for action in ("board:devil", "board:devil", "boat", "unboard:devil"):
        director.perform(action)
        director.settle()
    before = (river.state.key(), dict(river.places), positions(director))
    for action in ("board:devil", "boat"):  # a crossing: undo it in two steps
        director.perform(action)
        director.settle()
    assert director.perform("undo")
    director.settle()
    assert director.perform("undo")
    director.settle()
    assert river.state.key() == before[0]
    assert river.places == before[1]
    for name, pos in positions(director).items():
        np.testing.assert_allclose(pos, before[2][name], atol=1e-4, err_msg=name)


def test_undo_after_a_loss_plays_on(director, river):
    for action in ("board:priest", "board:priest", "boat"):
        director.perform(action)
        director.settle()
    assert river.state.verdict().outcome is Outcome.LOST
    assert director.perform("undo")
    director.settle()
    assert river.state.verdict().outcome is Outcome.PLAYING
    assert river.state.boat.priests == 2


def test_hint_marks_the_next_step_and_changes_nothing(director, river):
    key = river.state.key()
    assert director.perform("hint")
    assert river.state.key() == key
    assert river.status().tone is Tone.HINT
    assert "2 devils" in river.status().banner or "1 devil" in river.status().banner
    # Two arrows (and rings) over the two who should board, and they glow.
    shown = [n for n in director.scene if n.name.startswith("mark") and not n.hidden]
    assert len(shown) == 4
    assert len(river.hint_marks) == 2
    for name in river.hint_marks:
        assert director.scene[name].highlight > 0
        assert name.startswith("devil")


def test_the_hint_follows_the_player_to_the_boat(director, river):
    director.perform("hint")
    first = river.hint_marks[0]
    director.perform(f"click:{first}")  # board the first hinted devil
    director.settle()
    assert river.status().tone is Tone.HINT
    assert len(river.hint_marks) == 1 and river.hint_marks[0].startswith("devil")
    director.perform(f"click:{river.hint_marks[0]}")
    director.settle()
    assert river.hint_marks == ["boat"]  # now the boat should go
    assert "row across" in river.status().banner
    director.perform("boat")
    director.settle()
    assert river.hint_marks == []  # the hint ends with the crossing


def test_hint_after_the_end_keeps_the_result_banner(director, river):
    director.perform("solve")
    director.settle()
    banner = river.status().banner
    director.perform("hint")
    director.advance(5.0)
    assert river.status().banner == banner
    assert river.status().tone is Tone.WON


def test_undo_stops_a_running_solve(director, river):
    director.perform("solve")
    director.advance(1.0)
    assert not river.idle()
    assert director.perform("undo")
    assert river.idle()
    director.settle()
    crossings = river.state.crossings
    director.advance(3.0)
    assert river.state.crossings == crossings


def test_next_step_plays_one_optimal_crossing(director, river):
    for _ in range(3):
        before = RiverPuzzle(Rules()).distance(river.state)
        assert director.perform("next")
        assert director.settle()
        assert RiverPuzzle(Rules()).distance(river.state) == before - 1


def test_restart_cancels_everything(director, river):
    director.perform("solve")
    director.advance(2.0)
    director.perform("restart")
    assert director.tweens.busy == 0
    assert river.idle()
    assert river.state.crossings == 0
    assert river.state.boat.size == 0


def test_unsolvable_option_is_refused_with_the_reason(director, river):
    # 3/3/2 -> 4 priests (solvable) -> 4 devils refused.
    assert director.perform("priests+")
    assert river.rules == Rules(4, 3, 2)
    assert not director.perform("devils+")
    assert river.rules == Rules(4, 3, 2)
    assert "4 priests and 4 devils cannot cross in a boat for 2" in director.toast
    assert director.perform("capacity+")
    assert director.perform("devils+")
    assert river.rules == Rules(4, 4, 3)
    assert len([n for n in director.scene.nodes if n.startswith("priest")]) == 4
    director.perform("solve")
    director.settle()
    assert river.status_line() == "status=won crossings=9 optimal=9"


def test_unknown_action_is_a_message_not_a_crash(director, river):
    assert not director.perform("fly")
    assert "unknown command" in director.toast
    assert not director.perform("click:nobody")
