"""The river game driven through its commands and clicks, on the shared headless Director."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from game.engine.controller import Tone
from game.games.river.controller import RiverController
from game.logic.contract import Limits, Stop
from game.logic.river.game import (
    OPTIONS,
    BoardBoat,
    Cross,
    Kind,
    Outcome,
    RiverPuzzle,
    RiverRules,
    SolverAgent,
    Unboard,
)
from game.registry import MemorySession
from tests.deep import sized

pytestmark = pytest.mark.gl


@pytest.fixture
def river(director) -> Iterator[RiverController]:
    """A fresh 3/3/2 game with a session of its own (the shared Director's factory is put
    back afterwards)."""
    session = MemorySession()
    before = director.factories.get("river")
    director.register("river", lambda: RiverController(session))
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("river")
    try:
        yield director.controller
    finally:
        director.tweens.cancel_all()
        if before is not None:
            director.register("river", before)


def positions(director) -> dict[str, np.ndarray]:
    return {
        n.name: n.world_position()
        for n in director.scene
        if n.name.startswith(("priest", "devil", "boat"))
    }


def run(director, *commands: str) -> None:
    for command in commands:
        assert director.perform(command), (command, director.toast)
        assert director.settle()


def test_solve_from_the_start_wins_in_eleven(director, river):
    assert director.perform("solve")
    assert director.settle()
    assert river.state.outcome() is Outcome.WON
    assert river.state.crossings == 11
    assert river.status_line() == "status=won crossings=11 optimal=11"
    assert river.status().tone is Tone.WON
    # Everyone stands ashore on the right bank, the boat is docked there.
    for name, pos in positions(director).items():
        assert pos[0] > 0, name
    assert river.session.records == [
        {"key": "river:3/3/2", "won": True, "drawn": False, "setting": "3/3/2", "score": None}
    ]


def test_solve_plays_the_agents_clicks(director, river):
    director.perform("solve")
    director.settle()
    expected = RiverPuzzle(RiverRules()).solve_actions()
    assert river.match.actions() == expected
    assert river.match.transcript().split()[:3] == ["board:devil", "board:devil", "boat"]


def test_solve_from_an_off_path_state_wins_optimally(director, river):
    run(director, "board:devil", "boat")  # one devil alone: (3,2,R), off every shortest path
    to_go = RiverPuzzle(RiverRules()).distance(river.state)
    assert to_go == 12
    run(director, "solve")
    assert river.state.outcome() is Outcome.WON
    assert river.state.crossings == 1 + to_go


def test_solve_from_a_half_loaded_boat(director, river):
    run(director, "board:priest", "board:priest")  # two priests is not an optimal load
    run(director, "solve")
    assert river.state.outcome() is Outcome.WON
    assert river.state.crossings == 11


def test_clicks_during_an_animation_change_nothing(director, river):
    assert director.perform("board:priest")
    assert director.tweens.busy > 0
    key, places = river.state.key(), dict(river.places)
    assert not director.perform("board:devil")
    assert "Wait" in director.toast
    assert not director.perform("boat")
    assert river.on_pick(director.scene["devil1"]) == BoardBoat(Kind.DEVIL)  # what it would mean
    assert not director.play(BoardBoat(Kind.DEVIL))
    assert not director.play(Cross())
    assert river.state.key() == key
    assert river.places == places
    assert director.settle()
    assert river.state.boat.priests == 1


def test_clicks_after_the_end_change_nothing(director, river):
    run(director, "solve")
    key = river.state.key()
    for command in ("board:priest", "unboard:devil", "boat", "next", "solve", "redo", "hint"):
        assert not director.perform(command)
    for name in ("priest1", "boat"):
        action = river.on_pick(director.scene[name])
        assert action is None or not director.play(action)
    director.settle()
    assert river.state.key() == key


def test_a_click_boards_the_character_clicked(director, river):
    assert river.on_pick(director.scene["devil3"]) == BoardBoat(Kind.DEVIL)
    assert director.play(BoardBoat(Kind.DEVIL))
    director.settle()
    assert river.places["devil3"].aboard
    assert not river.places["devil1"].aboard
    run(director, "click:devil2")
    assert river.places["devil2"].aboard
    run(director, "click:devil3")  # a passenger: lands again
    assert not river.places["devil3"].aboard
    assert river.state.boat.devils == 1


def test_the_record_says_who_boarded_and_the_scene_follows_the_record(director, river):
    """The match's record is the only one: each board or land names who moved, and a point
    of the record reached by the match itself (a jump, a step played there) places the
    characters as that record says."""
    run(director, "click:devil3", "click:devil2", "boat")
    assert [s.detail for s in river.match.record] == ["devil3", "devil2", ""]
    river.match.jump(1)
    assert river.places["devil3"].aboard and not river.places["devil2"].aboard
    river.match.play(BoardBoat(Kind.DEVIL), detail="devil1")  # played on the match, not clicked
    assert river.places["devil1"].aboard and not river.places["devil2"].aboard
    assert river.kept_now()["extra"]["who"] == ["devil3", "devil1"]
    river.match.undo()
    assert [n for n, p in river.places.items() if p.aboard] == ["devil3"]


def test_the_move_list_shows_the_record_and_a_click_goes_there(director, river):
    """The record as a move list at the right (as Reversi's): each entry a step's notation,
    the point the game stands at marked; a click walks the scene to that point."""

    def listed() -> list[str]:
        return [c.label for c in river.commands() if c.group == "list"]

    assert listed() == ["The start"]
    run(director, "click:devil3", "click:devil2", "boat")
    assert listed() == ["The start", "1. board:devil", "2. board:devil", "▸ 3. boat"]
    run(director, "move-1")
    assert river.match.cursor == 1 and river.state.boat_side.value == "left"
    assert river.places["devil3"].aboard and not river.places["devil2"].aboard
    assert listed()[1:3] == ["▸ 1. board:devil", "2. board:devil"]
    run(director, "goto:3")
    assert river.match.cursor == 3 and river.places["devil2"].aboard
    assert not director.perform("goto:9") and "No move 9" in director.toast
    run(director, "move-0")
    assert not any(p.aboard for p in river.places.values())


def test_a_click_on_the_far_bank_says_why_and_plays_nothing(director, river):
    run(director, "board:devil", "boat", "unboard:devil")
    key = river.state.key()
    assert river.on_pick(director.scene["priest1"]) is None
    assert "waits on the left bank" in director.toast
    assert not director.perform("click:priest1")
    assert river.state.key() == key


def test_loss_is_judged_when_the_boat_lands(director, river):
    run(director, "board:priest", "board:priest")
    director.perform("boat")
    director.advance(0.3)  # departed: the verdict waits for the landing
    assert river.status().tone is not Tone.LOST
    assert director.settle()
    status = river.status()
    assert status.tone is Tone.LOST
    assert "left bank" in status.banner
    assert "1 priest" in status.banner and "3 devils" in status.banner
    assert river.status_line().startswith("status=lost crossings=1")
    assert [r["won"] for r in river.session.records] == [False]


def test_undo_restores_the_exact_previous_state_and_redo_plays_it_again(director, river):
    run(director, "board:devil", "board:devil", "boat", "unboard:devil")
    before = (river.state.key(), dict(river.places), positions(director))
    run(director, "board:devil", "boat")
    after = (river.state.key(), dict(river.places), positions(director))
    run(director, "undo", "undo")  # a crossing is undone in two steps
    assert river.state.key() == before[0]
    assert river.places == before[1]
    for name, pos in positions(director).items():
        np.testing.assert_allclose(pos, before[2][name], atol=1e-4, err_msg=name)
    run(director, "redo", "redo")
    assert river.state.key() == after[0] and river.state.crossings == 2
    assert river.places == after[1]
    for name, pos in positions(director).items():
        np.testing.assert_allclose(pos, after[2][name], atol=1e-4, err_msg=name)
    assert not director.perform("redo")
    run(director, "undo", "unboard:devil")  # a new move drops what redo would replay
    assert not director.perform("redo")


def test_y_redoes_and_u_undoes(director, river):
    from pyglet.window import key

    run(director, "board:devil")
    for symbol, aboard in ((key.U, 0), (key.Y, 1)):
        director.window.dispatch_event("on_key_press", symbol, 0)
        director.window.dispatch_events()
        director.settle()
        assert river.state.boat.devils == aboard


def test_undo_after_a_loss_plays_on(director, river):
    run(director, "board:priest", "board:priest", "boat")
    assert river.state.outcome() is Outcome.LOST
    run(director, "undo")
    assert river.state.outcome() is Outcome.PLAYING
    assert river.state.boat.priests == 2


def test_hint_marks_the_agents_next_step_and_changes_nothing(director, river):
    key = river.state.key()
    assert director.perform("hint")
    assert river.state.key() == key and river.match.cursor == 0
    assert river.status().tone is Tone.HINT
    assert river.status().banner == (
        "Hint: send 2 devils or 1 priest + 1 devil; board a devil. 11 crossings to go."
    )
    agent = SolverAgent()
    assert agent.choose(river.state, Limits(), random.Random(0), Stop()) == BoardBoat(Kind.DEVIL)
    # Two arrows (and rings) over the two who should board, and they glow.
    shown = [n for n in director.scene if n.name.startswith("mark") and not n.hidden]
    assert len(shown) == 4
    assert len(river.hint_marks) == 2
    for name in river.hint_marks:
        assert director.scene[name].highlight > 0
        assert name.startswith("devil")


def test_the_hint_follows_the_player_to_the_boat(director, river):
    director.perform("hint")
    run(director, f"click:{river.hint_marks[0]}")  # board the first hinted devil
    assert river.status().tone is Tone.HINT
    assert len(river.hint_marks) == 1 and river.hint_marks[0].startswith("devil")
    run(director, f"click:{river.hint_marks[0]}")
    assert river.hint_marks == ["boat"]  # now the boat should go
    assert "row across" in river.status().banner
    run(director, "boat")
    assert river.hint_marks == []  # the hint ends with the crossing


def test_hint_after_the_end_keeps_the_result_banner(director, river):
    run(director, "solve")
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
    puzzle = RiverPuzzle(RiverRules())
    for _ in range(3):
        before = puzzle.distance(river.state)
        run(director, "next")
        assert puzzle.distance(river.state) == before - 1
    assert river.match.actions() == puzzle.solve_actions()[: len(river.match.actions())]


def test_new_game_asks_again_during_a_game(director, river):
    run(director, "board:devil")
    key = river.state.key()
    assert director.perform("new")
    assert river.state.key() == key  # asked, not done
    assert "again" in river.status().banner
    run(director, "hint")  # anything else forgets the question
    assert director.perform("new")
    assert river.state.key() == key
    assert director.perform("new")
    assert river.state.key() == river.match.state_at(0).key() and river.match.cursor == 0
    assert director.perform("new")  # no moves made: at once
    assert river.match.cursor == 0


def test_new_game_cancels_everything(director, river):
    director.perform("solve")
    director.advance(2.0)
    director.perform("new")
    director.perform("new")
    assert director.tweens.busy == 0
    assert river.idle()
    assert river.state.crossings == 0
    assert river.state.boat.size == 0
    run(director, "solve")  # and the next game is counted on its own
    assert len(river.session.records) == 1


def test_unsolvable_option_is_refused_with_the_reason(director, river):
    assert director.perform("priests+")  # 3/3/2 -> 4 priests (solvable) -> 4 devils refused
    assert river.rules == RiverRules(4, 3, 2)
    assert river.commands().enabled("devils+")  # in range: pressing it says why not
    assert not director.perform("devils+")
    assert river.rules == RiverRules(4, 3, 2)
    assert "4 priests and 4 devils cannot cross in a boat for 2" in director.toast
    assert director.perform("capacity+")
    assert director.perform("devils+")
    assert river.rules == RiverRules(4, 4, 3)
    assert river.session.saved[-1] == {
        "priests": 4,
        "devils": 4,
        "capacity": 3,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    assert len([n for n in director.scene.nodes if n.startswith("priest")]) == 4
    run(director, "solve")
    assert river.status_line() == "status=won crossings=9 optimal=9"


def test_a_big_cast_stands_on_screen(director, river):
    river.set_options(OPTIONS.validate({"priests": 30, "devils": 30, "capacity": 12}))
    director.settle()
    w, h = director.window_size()
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    spots = set()
    for node in director.scene:
        if node.name.startswith(("priest", "devil")):
            clip = vp @ np.append(node.world_position(), 1.0)
            x, y = (clip[:2] / clip[3] + 1) / 2 * (w, h)
            assert 0 < x < w and 0 < y < h, node.name
            spots.add(tuple(np.round(node.world_position(), 3)))
    assert len(spots) == 60  # nobody stands on anybody
    run(director, "board:devil", "board:devil", "board:devil")
    seats = {tuple(np.round(director.scene[n].world_position(), 3)) for n in river.places}
    assert len(seats) == 60


def test_unknown_command_is_a_message_not_a_crash(director, river):
    assert not director.perform("fly")
    assert "unknown command" in director.toast
    assert not director.perform("click:nobody")
    assert "no character named 'nobody'" in director.toast
    assert not director.perform("board:bishop")
    assert "neither priest nor devil" in director.toast


def test_the_command_table_gives_the_standard_keys(river):
    keys = river.commands().keys()
    for key, name in {"H": "hint", "N": "next", "U": "undo", "Y": "redo", "R": "new"}.items():
        assert keys[key] == name
    assert (keys["S"], keys["SPACE"], keys["G"]) == ("solve", "boat", "boat")
    assert (keys["P"], keys["D"]) == ("board_priest", "board_devil")
    names = river.commands().names()
    for name in ("board:ARG", "unboard:ARG", "click:ARG", "priests+", "capacity-"):
        assert name.replace("ARG", "") in {n.replace(n.partition(":")[2], "") for n in names}


def _pointed_at(director, arrow) -> str | None:
    """The node the arrow ``arrow`` points at: the first pickable node hit by a ray from its
    tip along its point (the arrow mesh points down its own -Y), as the mouse picks."""
    from game.engine.picking import pick

    world = arrow.world_matrix().astype("f8")
    direction = world[:3, :3] @ np.array([0.0, -1.0, 0.0])
    direction /= np.linalg.norm(direction)
    node = pick(director.scene, director.bounds, arrow.world_position(), direction)
    return node.name if node is not None else None


def _check_arrows(director, river) -> int:
    """Show the hint and check every arrow against the plan's first click; returns how many
    arrows stood."""
    from game.games.river.cast import kind_of

    assert director.perform("hint")
    director.advance(0.05)  # a frame: the arrows bob, and stay over their targets
    plan = river.puzzle.plan(river.state)
    first = plan[0]
    arrows = [n for n in director.scene if n.name.startswith("mark") and "_" not in n.name]
    shown = [a for a in arrows if not a.hidden]
    assert shown, (str(river.state), first)
    run_length = next((i for i, a in enumerate(plan) if a != first), len(plan))
    expected = 1 if isinstance(first, Cross) else min(run_length, river.rules.capacity)
    assert len(shown) == expected, (str(river.state), [str(a) for a in plan])
    hit = [_pointed_at(director, arrow) for arrow in shown]
    assert len(set(hit)) == len(hit), hit
    for name in hit:
        where = (str(river.state), str(first), name, river.places.get(name or ""))
        if isinstance(first, Cross):
            assert name == "boat", where
            continue
        assert name is not None and name in river.places, where
        assert kind_of(name) is first.kind, where
        place = river.places[name]
        if isinstance(first, Unboard):
            assert place.aboard, where
        else:
            assert place.side is river.state.boat_side, where
    return len(shown)


#: Rounds of 40 random clicks from a new game (each step animated: 3 rounds took 20 CPU
#: seconds a setting; benchmarks/slow_checks.py plays the 3).
RANDOM_ROUNDS = sized(1, 3)


#: The settings the arrows are checked under: in CI three, each of the changed ones with
#: another (more characters and a wider boat; no counts on the boat and priests alone to
#: bring over); each alone too under benchmarks/slow_checks.py.
ARROW_OPTIONS = sized(
    [{}, {"priests": 5, "devils": 4, "capacity": 3}, {"boat_counts": False, "goal": "priests"}],
    [
        {},
        {"priests": 5, "devils": 4},
        {"capacity": 3},
        {"boat_counts": False},
        {"goal": "priests"},
        {"priests": 5, "devils": 4, "capacity": 3},
        {"boat_counts": False, "goal": "priests"},
    ],
)


@pytest.mark.deep
@pytest.mark.parametrize("options", ARROW_OPTIONS)
def test_hint_arrows_point_at_who_the_hint_moves(director, options):
    """Along the optimal solution and in random reachable states (clicks on chosen
    characters, undo and redo mixed in), each hint arrow points at a character of the hinted
    kind on the side the click takes it from, or at the boat for a crossing."""
    from game.games.river.cast import kind_of

    session = MemorySession(options=options)
    before = director.factories.get("river")
    director.register("river", lambda: RiverController(session))
    if director.overlay.visible:
        director.overlay.toggle()
    director.switch("river")
    river = director.controller
    try:
        checked = 0
        for action in river.puzzle.solve_actions():  # every click of the optimal solution
            checked += _check_arrows(director, river)
            assert director.play(action)
            assert director.settle()
        assert river.state.outcome() is Outcome.WON
        rng = random.Random(13)
        for _ in range(RANDOM_ROUNDS):
            director.perform("new")
            director.perform("new")
            director.settle()
            for _ in range(40):
                if river.state.outcome() is not Outcome.PLAYING:
                    run(director, "undo")
                    continue
                if river.puzzle.distance(river.state) is not None:
                    checked += _check_arrows(director, river)
                roll = rng.random()
                if roll < 0.1 and river.match.can_undo():
                    run(director, "undo")
                elif roll < 0.15 and river.match.can_redo():
                    run(director, "redo")
                else:
                    action = rng.choice(river.state.legal_actions())
                    if isinstance(action, Cross):
                        run(director, "boat")
                        continue
                    movable = [
                        name for name, place in river.places.items()
                        if kind_of(name) is action.kind
                        and (place.aboard if isinstance(action, Unboard)
                             else place.side is river.state.boat_side)
                    ]  # fmt: skip
                    run(director, f"click:{rng.choice(movable)}")
        assert checked > 20 * (1 + RANDOM_ROUNDS)  # the solution's 22 to 35, 30 to 50 a round
    finally:
        director.tweens.cancel_all()
        if before is not None:
            director.register("river", before)
