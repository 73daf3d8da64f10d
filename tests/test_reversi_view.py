"""Reversi's look: the hint's ghost disc, the hover preview, the look's options (each changes
what is drawn, at once, and round-trips through the settings), the F1 help and the statistics
view, on the shared headless Director."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from game.games.reversi.board import UP_BLACK, UP_WHITE
from game.games.reversi.controller import ReversiController
from game.games.reversi.entry import OPTIONS
from game.games.reversi.help import PAGES
from game.games.reversi.look import SPEEDS, THEMES
from game.logic.reversi.board import Color, Position, square_name, squares
from game.registry import MemorySession
from game.session import Session
from game.settings import Store

pytestmark = pytest.mark.gl


@pytest.fixture
def open_game(director) -> Iterator[Any]:
    """Opens Reversi on the shared Director with a session (default: a person on each
    colour, in memory) and the options given."""
    before = director.factories.get("reversi")

    def opener(session: Any = None, **options: Any) -> ReversiController:
        values = {"black": "human", "white": "human", "time_per_move": 0.05, **options}
        session = session if session is not None else MemorySession(values)
        director.register("reversi", lambda: ReversiController(session, seed=1))
        if director.overlay.visible:
            director.overlay.toggle()
        director.switch("reversi")
        assert director.settle()
        return director.controller

    try:
        yield opener
    finally:
        director.tweens.cancel_all()
        if before is not None:
            director.register("reversi", before)


@pytest.fixture
def big_window(director) -> Iterator[None]:
    """The shared Director's window at 1280x720 (the help's pages need more room than the
    tests' small window has), put back afterwards."""
    size = director.window_size()
    director.on_resize(1280, 720)
    try:
        yield
    finally:
        director.on_resize(*size)


def run(director, *commands: str) -> None:
    for command in commands:
        assert director.perform(command), (command, director.toast)
        assert director.settle()


def hover(c: ReversiController, square: int | None) -> None:
    """The mouse over ``square`` (None: off the board), at the point the window's pick met."""
    if square is None:
        c.host.hit = None
        c.on_hover(None)
        return
    c.host.hit = c.board.center(square, 0.0)
    c.on_hover(c.scene["board"])


def tilted(c: ReversiController) -> set[int]:
    """The discs that lie tilted (not flat with either face up)."""
    out = set()
    for sq, node in c.board.discs.items():
        if node.hidden:
            continue
        flat = np.allclose(node.rotation, UP_BLACK, atol=1e-5) or np.allclose(
            node.rotation, UP_WHITE, atol=1e-5
        )
        if not flat:
            out.add(sq)
    return out


def glowing(c: ReversiController) -> set[int]:
    return {sq for sq, node in c.board.discs.items() if not node.hidden and node.highlight > 0}


# -- the hint -----------------------------------------------------------------------------


def test_the_hint_is_a_ringed_ghost_disc_over_its_square_and_its_score_is_in_the_banner(
    director, open_game
):
    c = open_game()
    run(director, "f5", "d6")
    run(director, "hint")
    hint = c.match.current_hint()
    assert hint is not None
    ghost = director.scene["hint_ghost"]
    assert not ghost.hidden and not ghost.children[0].hidden
    # Over the hinted square, floating.
    centre = c.board.center(hint.action, 0.0)
    assert ghost.position[0] == pytest.approx(centre[0])
    assert ghost.position[2] == pytest.approx(centre[2])
    assert ghost.position[1] > 2 * c.board.rest
    # In the colour of the side to move (Black here), not White's, ringed by a glowing rim
    # of the hint's colour.
    colour = tuple(ghost.material.color[:3])
    assert colour == pytest.approx(c.board.ghost_colour(Color.BLACK))
    assert colour != pytest.approx(c.board.ghost_colour(Color.WHITE))
    rim = director.scene["hint_ghost_rim"]
    assert rim.parent is ghost and rim.is_visible() and rim.highlight > 0.3
    assert tuple(rim.material.color[:3]) == pytest.approx(THEMES["classic"].hint)
    assert "hint_arrow" not in director.scene.nodes  # no small arrow any more
    # Its score is in the banner, in words, and nothing is written over the board.
    banner = c.status().banner
    assert banner.startswith(f"Hint: {square_name(hint.action)} (") and hint.note in banner
    assert re.search(r"evaluation [+-]\d+\.\d discs for black|exact|only move", banner), banner
    assert all(len(label) == 2 for label in c.world_labels())  # the coordinates, no callout
    # Played: the ghost goes.
    run(director, "next")
    assert ghost.hidden and not rim.is_visible()
    # Asked again, then undone: gone too.
    run(director, "hint")
    assert not ghost.hidden
    ghost_square = c.match.current_hint().action
    run(director, "undo")
    assert ghost.hidden
    assert c.board.hint is None and ghost_square is not None


def test_the_ghost_takes_white_colour_when_white_is_to_move(director, open_game):
    c = open_game()
    run(director, "f5", "hint")
    ghost = director.scene["hint_ghost"]
    assert tuple(ghost.material.color[:3]) == pytest.approx(c.board.ghost_colour(Color.WHITE))


# -- the hover preview ----------------------------------------------------------------------


def test_hover_tilts_exactly_the_discs_the_move_flips(director, open_game):
    c = open_game()
    rng = random.Random(3)
    for _ in range(6):  # a few positions of a random game
        run(director, square_name(rng.choice(c.position.legal_moves())))
        pos = c.position
        for move in pos.legal_moves():
            hover(c, move)
            flips = set(squares(pos.flips(move)))
            assert flips and tilted(c) == flips == glowing(c), square_name(move)
            assert c.board.rings[move].highlight > 0
        # An empty square that is no move: nothing at all.
        taken = pos.black | pos.white
        empty = [sq for sq in range(64) if not taken >> sq & 1 and sq not in pos.legal_moves()]
        hover(c, empty[0])
        assert tilted(c) == set() and glowing(c) == set()
        assert all(ring.highlight == 0 for ring in c.board.rings.values())
        hover(c, None)
        assert tilted(c) == set()


def test_a_move_played_from_a_hover_lands_flat(director, open_game):
    c = open_game()
    hover(c, 19)  # d3
    assert tilted(c)
    run(director, "d3")
    hover(c, None)
    assert tilted(c) == set()
    taken = c.position.black | c.position.white
    assert {sq: c.board.discs[sq].hidden for sq in range(64)} == {
        sq: not taken >> sq & 1 for sq in range(64)
    }


# -- the options ----------------------------------------------------------------------------


def visible_rings(c: ReversiController) -> set[int]:
    return {sq for sq, ring in c.board.rings.items() if not ring.hidden}


def test_legal_marks_off_hides_the_rings_at_once(director, open_game):
    c = open_game()
    assert visible_rings(c) == set(Position.start().legal_moves())
    run(director, "option:legal_marks=off")
    assert visible_rings(c) == set()
    assert c.session.options["legal_marks"] is False
    hover(c, 19)  # the hovered move still previews
    assert visible_rings(c) == {19} and tilted(c)
    run(director, "options", "legal-marks")  # the button steps it back on
    assert visible_rings(c) == set(c.position.legal_moves())


def test_last_move_mark_off_hides_the_dot(director, open_game):
    c = open_game()
    run(director, "d3")
    dot = director.scene["last_move"]
    assert not dot.hidden
    run(director, "option:last_move_mark=off")
    assert dot.hidden
    run(director, "c5")
    assert dot.hidden
    run(director, "option:last-move-mark=on")
    assert not dot.hidden
    assert dot.position[0] == pytest.approx(c.board.center(34, 0.0)[0])  # c5


@pytest.mark.parametrize("theme", list(THEMES))
def test_a_theme_colours_the_board_and_both_discs(director, open_game, theme):
    c = open_game()
    run(director, f"option:theme={theme}")
    look = THEMES[theme]
    d4 = c.board.discs[27]
    assert tuple(d4.material.color[:3]) == pytest.approx(look.light)
    assert tuple(c.board.unders[27].material.color[:3]) == pytest.approx(look.dark)
    assert tuple(director.scene["board"].material.color[:3]) == pytest.approx(look.felt)
    assert tuple(c.board.rings[19].material.color[:3]) == pytest.approx(look.legal)
    assert c.session.options["theme"] == theme


def test_themes_draw_differently(director, open_game):
    c = open_game()
    pictures = {}
    for theme in THEMES:
        run(director, f"option:theme={theme}")
        pictures[theme] = director.capture()
    names = list(pictures)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert np.abs(pictures[a].astype(int) - pictures[b].astype(int)).mean() > 5, (a, b)
    assert c.options["theme"] == names[-1]


def frames_to_settle(director, c: ReversiController, move: str) -> int:
    assert director.perform(move)
    frames = 0
    while director.tweens.busy:
        director.update(1 / 60)
        frames += 1
        assert frames < 2000
    director.settle()
    return frames


def test_animation_off_and_speeds(director, open_game):
    c = open_game()
    frames = {}
    for speed in SPEEDS:
        run(director, "new", "new", f"option:animation_speed={speed}")
        frames[speed] = frames_to_settle(director, c, "d3")
    assert frames["slow"] > frames["normal"] > frames["fast"] > 0
    run(director, "option:animation=off")
    assert director.perform("c5")
    assert director.tweens.busy == 0  # shown at once
    director.settle()
    assert c.board.discs[34].hidden is False
    assert np.allclose(c.board.discs[34].rotation, UP_WHITE)  # White played c5


def test_a_bad_option_is_refused_with_the_reason(director, open_game):
    c = open_game()
    assert not director.perform("option:theme=purple")
    assert "theme must be one of classic, wood, contrast" in director.toast
    assert not director.perform("option:sparkle=on")
    assert "no option 'sparkle'" in director.toast
    assert c.options["theme"] == "classic"


def test_the_look_round_trips_through_the_settings_file(director, open_game, home):
    store = Store(home)
    settings, _ = store.load_settings()
    c = open_game(Session("reversi", OPTIONS, settings, store))
    run(director, "option:theme=contrast", "option:animation=off", "option:animation_speed=fast")
    run(director, "option:legal_marks=off", "option:last_move_mark=off")
    again, messages = Store(home).load_settings()
    assert messages == []
    values = Session("reversi", OPTIONS, again).options
    assert values | {"time_per_move": 0} == OPTIONS.defaults() | {
        "time_per_move": 0, "theme": "contrast", "animation": False,
        "animation_speed": "fast", "legal_marks": False, "last_move_mark": False,
    }  # fmt: skip
    # A new window starts with them.
    c = open_game(Session("reversi", OPTIONS, again, store))
    assert visible_rings(c) == set()
    assert tuple(director.scene["board"].material.color[:3]) == pytest.approx(
        THEMES["contrast"].felt
    )


def test_a_bad_colour_theme_in_the_file_is_reported_and_defaults(home):
    (home / "settings.toml").write_text('[reversi]\ntheme = "purple"\nlegal_marks = "maybe"\n')
    settings, messages = Store(home).load_settings()
    text = "\n".join(messages)
    assert "theme must be one of classic, wood, contrast, not 'purple'; using 'classic'" in text
    assert "legal_marks must be true or false" in text
    assert Session("reversi", OPTIONS, settings).options["theme"] == "classic"


def test_the_options_are_command_line_flags():
    import argparse

    from game.cli.options import add_option_flags, typed_options

    parser = argparse.ArgumentParser()
    add_option_flags(parser, OPTIONS)
    args = parser.parse_args(
        ["--theme", "wood", "--no-animation", "--animation-speed", "slow", "--no-legal-marks",
         "--last-move-mark"]
    )  # fmt: skip
    assert typed_options(OPTIONS, args) == {
        "theme": "wood", "animation": False, "animation_speed": "slow",
        "legal_marks": False, "last_move_mark": True,
    }  # fmt: skip


# -- help and statistics ------------------------------------------------------------------------


def test_f1_shows_the_reversi_help_pages(director, open_game, big_window):
    c = open_game()
    run(director, "help")
    sheet = director.hud.sheet
    assert sheet.visible and sheet.sheet.title == "Reversi help: Rules"
    text = " ".join(cell.text for row in sheet.sheet.rows for cell in row)
    assert "outflanks" in text and "pass" in text
    seen = set()
    for _ in PAGES:
        seen.add(c.sheet().title)
        run(director, "help-next")
    assert seen == {f"Reversi help: {title}" for title in PAGES.values()}
    run(director, "help-page:keys")
    keys = " ".join(row[0].text for row in c.sheet().rows)
    for key in ("H", "N", "U", "Y", "R", "S", "O", "F1", "F3", "F12", "Esc"):
        assert re.search(rf"(^| ){re.escape(key)}( |$)", keys), key
    run(director, "help-page:levels")
    levels = " ".join(row[0].text for row in c.sheet().rows)
    assert "Master" in levels and "Classic Expert" in levels
    run(director, "help-page:marks")
    marks = " ".join(cell.text for row in c.sheet().rows for cell in row)
    assert "Ghost disc" in marks and "Ring" in marks and "Dot" in marks
    run(director, "help")
    assert c.sheet() is None and not director.hud.sheet.visible
    assert not director.perform("help-next")  # only while the help is open


def test_statistics_count_each_game_once_by_level_and_colour(director, open_game, home):
    store = Store(home)
    settings, _ = store.load_settings()
    session = Session("reversi", OPTIONS, settings, store)
    # Animation off: the game is played for its count, and its sixty moves' flips drawn
    # frame by frame took most of this test's time (animation has tests of its own).
    session.save_options(
        {**session.options, "white": "beginner", "time_per_move": 0.05, "animation": False}
    )
    c = open_game(session)
    guard = 0
    while not c.match.over:
        guard += 1
        assert guard < 200
        if c.match.person_to_move():
            assert director.perform(square_name(c.position.legal_moves()[-1]))
        assert director.settle()
    black, white = c.position.disc_count()
    # Going back and forward again to the end does not count the game twice.
    run(director, "undo", "redo-all")
    stats, messages = Store(home).load_statistics()
    assert messages == []
    record = stats.games["reversi:beginner:black"]
    assert record.played == 1
    assert (record.won, record.drawn, record.lost) == (
        int(black > white),
        int(black == white),
        int(black < white),
    )
    assert record.best_margin == black - white
    # The view shows it, and S opens it in the game.
    run(director, "stats")
    rows = [[cell.text for cell in row] for row in c.sheet().rows]
    assert rows[0][:3] == ["Beginner", "Black", "1"]
    assert rows[0][6] == f"{black - white:+d}"


def test_the_statistics_view_from_a_saved_file(home):
    from game.registry import get

    stats, _ = Store(home).load_statistics()
    stats.record("reversi:master:white", won=True, margin=12)
    stats.record("reversi:master:white", won=False, margin=-4)
    stats.record("reversi:master:black", won=False, drawn=True, margin=0)
    stats.record("reversi:beginner:black", won=True, margin=30)
    Store(home).save_statistics(stats)
    again, messages = Store(home).load_statistics()
    assert messages == []
    sheet = get("reversi").statistics_sheet(again)
    rows = [[cell.text for cell in row] for row in sheet.rows]
    assert rows[0] == ["Beginner", "Black", "1", "1", "0", "0", "+30"]
    assert rows[1] == ["Master", "Black", "1", "0", "1", "0", "+0"]
    assert rows[2] == ["Master", "White", "2", "1", "0", "1", "+12"]
    assert rows[-1] == ["All games", "", "4", "2", "1", "1", "+30"]


def test_the_menu_shows_the_statistics_through_the_registry(director, big_window):
    director.switch("menu")
    run(director, "stats")
    assert director.hud.sheet.visible
    assert director.hud.sheet.sheet.title == "Reversi statistics"
    run(director, "stats")  # the only game with statistics: then none
    assert not director.hud.sheet.visible
    run(director, "stats-of:reversi")
    assert director.hud.sheet.sheet.title == "Reversi statistics"
    assert not director.perform("stats-of:river")
    assert "keeps no statistics" in director.toast
