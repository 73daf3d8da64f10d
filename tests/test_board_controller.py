"""The board scene of the described games, headless: clicks through a multi-jump capture, a
promotion's choice, drops, undo and redo, the hint, the computer's replies, every shipped
game on screen, and a person's own description read again as it is edited."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.engine.director import Director
from game.games.rules.controller import BoardController
from game.games.rules.look import piece_meshes, stacks_of
from game.games.rules.view import WON
from game.logic.rules.catalogue import path_of, shipped
from game.registry import MemorySession
from tests.waiting import HANG_S

pytestmark = pytest.mark.gl

Opener = Callable[..., BoardController]


@pytest.fixture
def open_board(director: Director) -> Iterator[Opener]:
    """Opens a described game (people on both sides unless told) on the shared Director
    with a session of its own; the factories it replaced are put back afterwards."""
    replaced: dict[str, Any] = {}

    def opener(game: str, description: Path | None = None, **options: Any) -> BoardController:
        values = {"first": "human", "second": "human", "time_per_move": 0.05, **options}
        session = MemorySession(values)
        extra: dict[str, Any] = {"seed": 1}
        if description is not None:
            extra["description"] = description
        else:
            extra["game"] = game
        replaced.setdefault(game, director.factories.get(game))
        director.register(game, lambda: BoardController(session, **extra))
        if director.overlay.visible:
            director.overlay.toggle()
        director.switch(game)
        settle(director)
        controller = director.controller
        assert isinstance(controller, BoardController)
        return controller

    try:
        yield opener
    finally:
        director.tweens.cancel_all()
        for game, factory in replaced.items():
            if factory is None:
                director.factories.pop(game, None)
            else:
                director.register(game, factory)


def settle(director: Director) -> None:
    """Animations and the computer's thinking done (thinking waited for in real time)."""
    for _ in range(200):
        controller = director.controller
        if isinstance(controller, BoardController):
            assert controller.match.wait(timeout=HANG_S)
        assert director.settle()
        if not director.busy():
            return
    raise AssertionError("the board did not settle")


def run(director: Director, *commands: str) -> None:
    for command in commands:
        assert director.perform(command), (command, director.toast)
        settle(director)


def drawn(c: BoardController) -> dict[int, list[str]]:
    """What the player sees: each position's meshes, bottom first, where they stand."""
    assert c.board is not None
    seen: dict[int, list[str]] = {}
    for position, nodes in c.board.pieces.items():
        for node in nodes:
            if node.hidden:
                continue
            at = c.board.world(position)
            # A piece stands on its position; a seed lies somewhere in its pit.
            within = 0.45 * c.board.cell if c.design.counters else 1e-4
            assert abs(node.position[0] - at[0]) < within and abs(node.position[2] - at[2]) < within
            seen.setdefault(position, []).append(str(node.mesh))
    return seen


def expected(c: BoardController) -> dict[int, list[str]]:
    return {
        p: [mesh for mesh, _ in piece_meshes(c.design, stack)]
        for p, stack in stacks_of(c.state).items()
    }


def index(c: BoardController, name: str) -> int:
    return c.design.board.index(name)


def screen_xy(director: Director, world: np.ndarray) -> tuple[float, float]:
    vp = director.renderer.view_projection(director.scene, director.framebuffer_size())
    clip = vp @ np.append(world, 1.0)
    w, h = director.window_size()
    return (clip[0] / clip[3] + 1) / 2 * w, (clip[1] / clip[3] + 1) / 2 * h


def visible(director: Director, prototype_prefix: str) -> list[str]:
    return [n.name for n in director.scene if n.name.startswith(prototype_prefix) and not n.hidden]


def test_a_multi_jump_is_clicked_step_by_step_and_crowns_the_man(director, open_board):
    """Black's man on 6 can jump 10 and 18, then 26 by way of 22 or of 24: the clicks pick
    the piece, then each landing square; the move is played once the clicks name one."""
    c = open_board("english-draughts", position="B:W10,18,19,26,27:B6,2")
    assert c.state.texts() == ["6x15x22x31", "6x15x24x31"]
    assert drawn(c) == expected(c)
    # The first click by the mouse, on the man itself.
    x, y = screen_xy(director, c.board.world(index(c, "6"), 0.05))
    assert director.click(x, y) == "scene"
    assert c.prefix == (index(c, "6"),)
    assert c.board.pieces[index(c, "6")][0].highlight > 0  # picked up
    assert len(visible(director, "step-")) == 1  # one place to go: 15
    run(director, "click:15")
    assert c.prefix == (index(c, "6"), index(c, "15"))
    assert c.match.cursor == 0  # two ways on: nothing played yet
    assert len(visible(director, "step-")) == 2  # 22 and 24
    assert director.perform("click:5") is False  # not a next step
    assert "not a next step" in director.toast
    assert c.prefix == (index(c, "6"), index(c, "15"))
    run(director, "click:22")
    assert [s.text for s in c.match.record] == ["6x15x22x31"]
    assert drawn(c) == expected(c)
    assert drawn(c)[index(c, "31")] == ["man", "man", "crown"]  # crowned on the far row
    assert {index(c, n) for n in ("10", "18", "26")}.isdisjoint(drawn(c))  # taken
    assert not visible(director, "step-") and c.prefix == ()
    assert len(visible(director, "last-")) == 4  # the path of the last move


def test_a_click_on_the_wrong_piece_says_why(director, open_board):
    c = open_board("english-draughts", position="B:W10,18,19,26,27:B6,2")
    assert not director.perform("click:2")
    assert "a piece that can capture must" in director.toast
    assert not director.perform("click:19")
    assert "White's" in director.toast
    assert not director.perform("click:14")
    assert "No move starts on 14" in director.toast
    assert c.prefix == () and c.match.cursor == 0


def test_a_promotion_offers_a_choice_of_pieces(director, open_board):
    c = open_board("chess", position="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    run(director, "click:a7", "click:a8")
    assert c.match.cursor == 0
    labels = [label for label, _ in c.choices]
    assert sorted(labels) == ["Bishop", "Knight", "Queen", "Rook"]
    table = c.commands()
    number = labels.index("Knight") + 1
    assert table.keys()[f"_{number}"] == f"choose-{number}"
    assert {b.label for b in table.buttons() if b.command.startswith("choose-")} == set(labels)
    run(director, f"choose-{number}")
    assert drawn(c)[index(c, "a8")] == ["knight"]
    assert [p for p in c.state.pieces() if p[0] == index(c, "a8")] == [
        (index(c, "a8"), 0, "Knight")
    ]
    assert not c.choices and "choose-1" not in c.commands()


def test_a_mill_takes_the_piece_clicked_next(director, open_board):
    """Nine Men's Morris: a mill may take either enemy piece; the place, then the piece to
    take, are clicked (or the numbered button)."""
    c = open_board("nine-mens-morris")
    for name in ("a7", "a1", "d7", "b2"):
        run(director, f"click:{name}")
    run(director, "click:g7")
    assert c.match.cursor == 4
    assert sorted(label for label, _ in c.choices) == ["take a1", "take b2"]
    assert len(visible(director, "step-")) == 2  # a ring round each piece it may take
    run(director, "click:b2")
    assert c.match.cursor == 5 and c.match.record[-1].action[1] == (index(c, "b2"),)
    assert drawn(c) == expected(c)  # the scene shows what the rules say


def test_undo_and_redo_put_every_piece_back(director, open_board):
    c = open_board("chess")
    run(director, "e2-e4", "e7-e5", "g1-f3", "b8-c6")
    states = [c.match.state_at(i).key() for i in range(5)]
    for i in range(4, 0, -1):
        assert c.state.key() == states[i]
        assert drawn(c) == expected(c)
        run(director, "undo")
    assert c.state.key() == states[0] and drawn(c) == expected(c)
    run(director, "redo", "redo")
    assert c.state.key() == states[2] and drawn(c) == expected(c)
    run(director, "redo-all")
    assert c.state.key() == states[4]
    # The list numbers moves, not plies, in chess's own notation.
    assert move_list(director) == ["1. e4 e5", "▸ 2. Nf3 Nc6"]
    run(director, "move-1")  # the move list's button: after Black's reply
    assert c.state.key() == states[2] and drawn(c) == expected(c)
    assert move_list(director) == ["▸ 1. e4 e5", "2. Nf3 Nc6"]
    run(director, "redo")
    assert move_list(director) == ["1. e4 e5", "▸ 2. Nf3 (Nc6)"]


def move_list(director: Director) -> list[str]:
    return [b.label for b in director.commands().buttons() if b.group == "list"]


def test_gomoku_s_help_says_what_the_board_draws(director, open_board):
    """Once it promised a gold dot on each legal point, and none came: where every empty
    point is legal the dot follows the mouse, and the help says so."""
    c = open_board("gomoku")
    assert "a gold dot under the mouse" in c.status().help
    director.on_mouse_motion(0, 0, 0, 0)  # off the board
    director.update(1 / 60)
    assert visible(director, "spot-") == []
    point = index(c, "h8")
    x, y = screen_xy(director, c.board.world(point))
    director.on_mouse_motion(x, y, 0, 0)
    director.update(1 / 60)
    dots = [director.scene[name] for name in visible(director, "spot-")]
    assert len(dots) == 1
    at = c.board.world(point)
    assert abs(dots[0].position[0] - at[0]) < 1e-3 and abs(dots[0].position[2] - at[2]) < 1e-3
    c = open_board("othello")  # a few places legal: a dot on each
    assert "a gold dot marks each legal one" in c.status().help
    assert len(visible(director, "spot-")) == len(c.state.legal_actions())


def test_the_side_buttons_name_players_not_algorithms(director, open_board):
    """Once "Black: Alphabeta"; a side is "you" or the computer at its level."""
    c = open_board("chess", second=c_level())
    labels = {b.command: b.label for b in director.commands().buttons()}
    assert labels["side-1"] == "White: you"
    assert labels["side-2"] == f"Black: computer ({c.sides[1].replace('-', ' ')})"
    assert c.status().counter.startswith("White to move (you)")
    run(director, "e2-e4")
    after = c.match.state_at(1)  # Black to move (the computer has answered since)
    level = c.sides[1].replace("-", " ")
    assert c._turn_text("", after) == f"Black to move: the computer ({level}) thinks."


def c_level() -> str:
    """The level the described games' computer plays at by default."""
    from game.games.rules.entry import entry_for

    return entry_for("chess").hint_agent


def test_the_hud_writes_its_text_on_whole_pixels(director, open_board):
    """Half a pixel off, a one-pixel glyph is sampled away: the move list's first entry read
    "1. e2 e4" and draughts' "1. 32 27"."""
    open_board("english-draughts")
    run(director, "11-15", "22-18")
    try:
        for size in ((800, 600), (1280, 720), (1920, 1080)):
            director.on_resize(*size)
            director.update(1 / 60)
            hud = director.hud
            labels = [v.label for v in hud._buttons] + [hud.title, hud.counter, hud.banner]
            assert [v.label.text for v in hud._buttons if v.spec.group == "list"] == [
                "▸ 1. 11-15 22-18"
            ]
            for label in labels:
                assert (label.x, label.y) == (round(label.x), round(label.y)), label.text
    finally:
        director.on_resize(640, 400)


def test_a_drop_places_a_mark_for_each_player(director, open_board):
    c = open_board("tic-tac-toe")
    b2, a1 = index(c, "b2"), index(c, "a1")
    x, y = screen_xy(director, c.board.world(b2))
    director.click(x, y)
    settle(director)
    assert [m[0] for m in c.match.actions()] == [(b2,)]
    run(director, "click:a1")
    assert drawn(c) == {b2: ["cross"], a1: ["ring"]}  # X's cross, O's ring
    assert not director.perform("click:b2")  # taken
    assert c.match.cursor == 2


def test_the_options_set_the_descriptions_parameters(director, open_board):
    c = open_board("gomoku", width=5, height=4, k=3)
    assert len(c.design.board.names) == 20 and len(c.board.playable) == 20
    run(director, "click:a1", "click:a2", "click:b1", "click:b2", "click:c1")
    assert c.match.over  # three in a row win
    c = open_board("row", description=Path(__file__).parent / "data" / "row.txt", n=6)
    assert len(c.design.board.names) == 6


def test_a_won_game_lights_its_line(director, open_board):
    c = open_board("tic-tac-toe")
    gold = tuple(np.float32(v) for v in WON)

    def won() -> set[int]:
        rings = [n for n in c.board._pools.get("won", []) if not n.hidden]
        assert all(tuple(n.material.color[:3]) == gold for n in rings)
        return {
            p
            for p in range(len(c.design.board.names))
            for n in rings
            if np.allclose(n.position[[0, 2]], c.board.world(p)[[0, 2]])
        }

    run(director, "click:a1", "click:b1", "click:b2", "click:c1")
    assert not c.match.over and won() == set()
    run(director, "click:c3")
    assert c.match.over
    assert won() == {index(c, x) for x in ("a1", "b2", "c3")}  # a gold ring under each
    run(director, "undo")
    assert won() == set()


def test_the_hint_shows_alpha_betas_move_and_next_plays_it(director, open_board):
    c = open_board("english-draughts", position="B:W6,7,15,16,24:B1,2")
    run(director, "hint")
    hint = c.match.current_hint()
    assert hint is not None and hint.action in c.state.legal_actions()
    assert c.message.startswith(f"Hint: {hint.text}")
    assert not director.scene[c.board.arrow.name].hidden
    assert len(visible(director, "hint-")) == len(hint.action[0])  # a ring a step
    run(director, "next")
    assert c.match.actions() == [hint.action]
    assert director.scene[c.board.arrow.name].hidden


def test_the_hint_is_the_default_levels_steady_search(director, open_board):
    """The issue's chess hint changed from run to run: the window's hint searches a budget of
    positions (the time given, at a fixed rate), not for a time, while a computer side thinks
    for its time."""
    c = open_board("chess", second=c_level())
    hint = getattr(c.match.hint_agent, "agent", c.match.hint_agent)
    side = getattr(c.match.seats[1], "agent", c.match.seats[1])
    assert (hint.name, hint.steady) == (c_level(), True)
    assert (side.name, side.steady) == (c_level(), False)


def test_the_computer_answers_and_clicks_wait_for_it(director, open_board):
    c = open_board("breakthrough", second="alphabeta", time_per_move=0.2)
    run(director, "e2-e3")
    assert c.match.cursor == 2 and c.match.person_to_move()
    assert drawn(c) == expected(c)
    assert c.match.record[1].seat == 1


def test_the_board_turns_to_the_person_whose_pieces_start_at_the_far_side(director, open_board):
    """English draughts' Black starts on 1-12, the far rows of the usual diagram: a person
    playing Black alone sees them nearest; playing White, or two people, the usual way."""
    c = open_board("english-draughts", second="alphabeta")
    assert c.board is not None and c.board.turned
    assert c.board.world(index(c, "1"))[2] > c.board.world(index(c, "32"))[2]  # 1 is nearer
    x, y = screen_xy(director, c.board.world(index(c, "10"), 0.05))  # the mouse still finds it
    assert director.click(x, y) == "scene" and c.prefix == (index(c, "10"),)
    c = open_board("english-draughts")
    assert c.board is not None and not c.board.turned
    assert c.board.world(index(c, "1"))[2] < c.board.world(index(c, "32"))[2]
    c.swap()  # still two people
    assert not c.board.turned
    c.cycle_side(1)  # White: the computer; Black, the person, comes to the near side
    assert c.board.turned and drawn(c) == expected(c)


def test_every_described_game_draws_its_board_and_plays_a_move(director, open_board):
    for game in shipped():
        c = open_board(game)
        assert drawn(c) == expected(c), game
        pixels = director.capture()
        assert director.ctx.error == "GL_NO_ERROR"
        assert pixels.std() > 10, game
        assert c.world_labels(), game
        text = c.state.texts()[0]
        run(director, text)
        assert c.match.cursor >= 1 and drawn(c) == expected(c), game


DESCRIPTION = path_of("tic-tac-toe").read_text(encoding="utf-8")


def write(path: Path, text: str, stamp: int) -> None:
    """Write ``text`` and give the file its own modification time (no waiting for a clock)."""
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))


def test_a_persons_file_is_read_again_when_it_changes(director, open_board, tmp_path):
    path = tmp_path / "my-game.txt"
    write(path, DESCRIPTION, 1_000_000_000_000_000_000)
    c = open_board("tic-tac-toe", description=path)
    assert c.file is not None and c.title == "Tic-tac-toe"
    run(director, "click:b2")
    # A mistake: shown with its place in the file; the game goes on as it was.
    write(path, DESCRIPTION.replace("(players X O)", "(players X O"), 2_000_000_000_000_000_000)
    director.advance(1.1)
    assert c.file_error.startswith(f"{path}:")
    assert c.status().banner == c.file_error
    assert c.match.cursor == 1 and len(c.design.board.names) == 9
    run(director, "click:a1")
    assert c.match.cursor == 2
    # Mended and changed: a new game with the new rules and a new board.
    bigger = DESCRIPTION.replace("(columns a b c) (rows 1 2 3)", "(columns a b c d) (rows 1 2 3 4)")
    write(path, bigger.replace('(title "Tic-tac-toe")', '(title "Four by four")'), 3 * 10**18)
    director.advance(1.1)
    settle(director)
    assert c.file_error == ""
    assert c.title == "Four by four" and len(c.design.board.names) == 16
    assert c.match.cursor == 0 and drawn(c) == {}
    run(director, "click:d4")
    assert drawn(c) == {index(c, "d4"): ["cross"]}


def test_shot_plays_moves_by_their_text(tmp_path):
    """``gamehall shot chess --do e2-e4,e7-e5`` (in this process: tests/test_cli.py's
    ``gamehall`` sets the shared Director aside while the command draws with its own)."""
    from tests.test_cli import gamehall

    out = tmp_path / "chess.png"
    command = ["shot", "chess", "--do", "e2-e4,e7-e5,hint", "--size", "320x200"]
    result = gamehall(
        *command, "--out", str(out), cwd=tmp_path, env={"GAMEHALL_HOME": str(tmp_path)}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("status=playing game=chess moves=2")
    assert out.stat().st_size > 1000


HEX = """(game hexy) (title "Hexy") (players Red Blue)
(board (grid (columns a b c d e) (rows 1 2 3 4 5) (hex))
  (directions (e 1 0) (w -1 0) (n 0 1) (s 0 -1) (ne 1 1) (sw -1 -1)))
(piece stone (letter "") (shape stone) (drops (move place (verify empty) add)))
(end (win (line 4)) (draw full))"""

MORRIS = """(game small-morris) (title "Small morris") (players White Black)
(board
  (positions (a1 0 0) (d1 3 0) (g1 6 0) (g4 6 3) (g7 6 6) (d7 3 6) (a7 0 6) (a4 0 3)
             (b2 1 1) (d2 3 1) (f2 5 1) (f4 5 3) (f6 5 5) (d6 3 5) (b6 1 5) (b4 1 3))
  (directions (e 1 0) (n 0 1))
  (link e (a1 d1) (d1 g1) (a7 d7) (d7 g7) (b2 d2) (d2 f2) (b6 d6) (d6 f6) (a4 b4) (f4 g4))
  (link n (a1 a4) (a4 a7) (g1 g4) (g4 g7) (b2 b4) (b4 b6) (f2 f4) (f4 f6) (d1 d2) (d6 d7)))
(piece man (letter "") (shape stone) (drops (move place (verify empty) add)))
(end (win (line 3)) (draw full))"""


def view_of(text: str) -> Any:
    """The board view of a description, in a scene of its own (no GL needed)."""
    from game.engine.scene import load_scene
    from game.games.rules.view import BoardView
    from game.logic.rules.catalogue import rulebook_for_text
    from game.resources import asset_path

    scene = load_scene(asset_path("scenes", "board.toml"))
    return BoardView(scene, rulebook_for_text(text, "test.txt").design, {})


@pytest.mark.parametrize("kind", ["hex", "points"])
def test_hex_grids_and_drawn_boards_take_their_shape(kind):
    """A hex grid of columns and rows is laid out as hexagons, every neighbour one cell
    away; a drawn board is its points and its lines, the lines along one row joined."""
    view = view_of(HEX if kind == "hex" else MORRIS)
    board = view.design.board
    if kind == "hex":
        cells = [n for n in view.scene if n.mesh == "hexagon"]
        assert len(cells) == 25
        for row in board.links:
            for p, q in enumerate(row):
                if q >= 0:
                    distance = np.linalg.norm(view.world(p) - view.world(q))
                    assert distance == pytest.approx(view.cell, rel=1e-4)
    else:
        assert len([n for n in view.scene if n.mesh == "hole"]) == 16
        bars = [n for n in view.scene if n.mesh == "block" and n.name != "board"]
        assert len(bars) == 12  # a1-d1-g1 is one bar, and so on
        assert [text for text, _ in view.labels()].count("a") == 1  # letters at the near edge


def test_a_surakarta_capture_runs_round_a_loop():
    import random
    from itertools import pairwise

    from game.games.rules.motion import route
    from game.logic.rules.catalogue import rulebook

    e = rulebook("surakarta")
    board = e.design.board
    rng = random.Random(2)
    found = 0
    for _ in range(40):
        pos = e.start()
        for _ in range(80):
            moves = e.legal(pos)
            if not moves or e.outcome(pos, moves) is not None:
                break
            occupied = {p for p, v in enumerate(pos.board) if v}
            for path, caps, _effects, _pid in moves:
                if caps:  # a capture: round at least one loop, from its start to its end
                    trail = route(board, path, occupied)
                    assert trail is not None and trail[0] == path[0] and trail[-1] == path[1]
                    assert any(p in board.off_board for p in trail)
                    assert all(any(row[a] == b for row in board.links) for a, b in pairwise(trail))
                    assert all(p not in occupied for p in trail[1:-1] if p != path[0])
                    found += 1
            e.make(pos, rng.choice(moves))
    assert found > 20


def test_a_move_sounds_and_othellos_flips_sound_as_flips(director, open_board):
    open_board("tic-tac-toe")
    run(director, "click:b2")
    assert director.sounds.played[-1] == "place"
    open_board("othello")
    run(director, "click:d3")
    assert director.sounds.played[-1] == "flip"


def test_a_reload_past_the_rules_bounds_keeps_the_game_and_names_the_form(
    director, open_board, tmp_path
):
    """Twenty nested whiles crashed Python's compiler and (anywhere (anywhere add)) on a
    26 x 26 board filled the memory: either, saved over the file a window plays, took the
    window down. Now each is a line naming the form, and the last good version plays on;
    a move into a position past the bounds is refused the same way."""
    path = tmp_path / "my-game.txt"
    write(path, DESCRIPTION, 10**18)
    c = open_board("tic-tac-toe", description=path)
    run(director, "click:b2")
    deep = "add"
    for _ in range(20):
        deep = f"(while empty {deep} n)"
    wide = DESCRIPTION.replace("(columns a b c) (rows 1 2 3)", "(size 26 26)")
    program = "(move place (verify empty) add)"
    for stamp, text, where, says in [
        (2, DESCRIPTION.replace(program, f"(move place {deep})"), "13:230:", "(while ...)"),
        (3, wide.replace(program, "(move place (anywhere (anywhere add)))"), "13:32:", "50000"),
    ]:
        write(path, text, stamp * 10**18)
        director.advance(1.1)
        assert c.file_error.startswith(f"{path}:{where} "), c.file_error
        assert says in c.file_error and c.status().banner == c.file_error
        assert c.match.cursor == 1 and len(c.design.board.names) == 9
    # The file replaced by a named pipe: refused unread (reading it waited for a writer).
    path.unlink()
    os.mkfifo(path)
    director.advance(1.1)
    assert c.file_error.startswith(f"{path}: is a named pipe, not a regular file")
    path.unlink()
    run(director, "click:a1")
    assert c.match.cursor == 2
    # A good file whose third position is past the bound: the move into it is refused.
    later = (
        "(one-of (do (verify empty) add) (do (verify (exists friend)) (anywhere (anywhere add))))"
    )
    write(path, wide.replace(program, f"(move place {later})"), 4 * 10**18)
    director.advance(1.1)
    settle(director)
    assert c.file_error == "" and len(c.design.board.names) == 26 * 26
    run(director, "click:b2")
    assert not director.perform("click:a1")
    assert director.toast.startswith(f"{path}:13:93: (anywhere ...) makes more than 50000 moves")
    assert c.match.cursor == 1


def test_ur_s_sticks_lie_beside_the_board_showing_each_throw(director, open_board):
    """The dice are thrown as the game starts; the sticks show the throw (that many marked
    white) and so does the status line, again after a move and the next throw."""
    from game.games.rules.dice_view import IVORY

    c = open_board("ur")
    for _ in range(2):
        throw = c.state.pos.throw
        assert c.dice is not None and throw is not None
        shown = [d for d in c.dice.dice if not d.hidden]
        assert len(shown) == 4 and c.dice.rolling == 0.0
        assert sum(1 for d in shown if tuple(d.material.color) == IVORY) == throw[0]
        assert f"thrown: {throw[0]}" in c.status().counter
        c.play(c.state.legal_actions()[0])
        settle(director)


def test_a_piece_in_hand_is_clicked_then_its_square_and_dropped(director, open_board):
    """Shogi with bishops and a gold in hand: a click on Black's bishop on the shelf picks it
    up (lit, a gold dot on each square it may drop on; a second click puts it back), a click
    on a square drops it there; a click on an empty square first offers the types as
    buttons, and a click on the shelf then plays that one; White's gold is not Black's."""
    start = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b Bbg 1"
    c = open_board("shogi", position=start)
    assert c.board is not None

    def token_xy(owner: int, kind: str) -> tuple[float, float]:
        [node] = [n for n in c.board.shelf.nodes if n.tags["hand"] == (owner, kind)]
        return screen_xy(director, node.position)

    def click_token(owner: int, kind: str) -> None:
        director.click(*token_xy(owner, kind))
        settle(director)

    director.on_mouse_motion(*token_xy(1, "Bishop"), 0, 0)  # White's: not the mover's
    assert [n.highlight for n in c.board.shelf.nodes] == [0.0, 0.0, 0.0]
    director.on_mouse_motion(*token_xy(0, "Bishop"), 0, 0)
    assert [n.highlight > 0 for n in c.board.shelf.nodes] == [True, False, False]

    assert not director.perform("hand:Pawn") and "No square takes a Pawn" in director.toast
    click_token(0, "Bishop")
    click_token(0, "Bishop")
    assert c.held is None
    click_token(0, "Bishop")
    assert c.held == (0, "Bishop")
    assert [n.highlight > 0 for n in c.board.shelf.nodes] == [True, False, False]
    e5 = index(c, "5e")
    assert len(visible(director, "spot-")) == len(c.held_drops) == 43 and e5 in c.held_drops
    director.click(*screen_xy(director, c.board.world(e5)))
    settle(director)
    assert c.match.cursor == 1 and c.state.action_text(c.match.record[-1].action) == "B*5e"
    assert c.state.hands()[0] == {} and drawn(c) == expected(c) and c.held is None
    run(director, "click:5d")  # White: the square first, then the piece
    assert sorted(label for label, _ in c.choices) == ["Bishop", "Gold"]
    click_token(1, "Bishop")
    assert c.match.cursor == 2 and c.state.action_text(c.match.record[-1].action) == "B*5d"
    click_token(1, "Gold")
    assert "That Gold is in White's hand" in director.toast and c.held is None


def test_the_banner_shows_how_far_the_rules_first_compile_got(
    director, open_board, tmp_path, monkeypatch
):
    """The window starts a described game's first compile in a worker process and its banner
    says how far it got; here a compile that this process stands for (its lock) at 40%."""
    from game.logic.rules.catalogue import rulebook
    from game.logic.rules.compiled import cache, worker

    monkeypatch.setenv(cache.COMPILED_ENV, str(tmp_path))
    name = cache.stem(rulebook("breakthrough").design)
    cache.write_whole(cache.marker(name, "lock"), str(os.getpid()))
    worker.reporter(name)(0.4)
    c = open_board("breakthrough")
    director.advance(1.0)
    assert c.status().banner.endswith("Compiling the rules (first start only): 40%")
    cache.marker(name, "ready").write_text("")  # compiled: nothing more to say
    cache.marker(name, "lock").unlink()
    director.advance(1.0)
    assert "Compiling" not in c.status().banner
