"""The menu: the games in the registry's groups, a card per game that shows its scene, keys that
reach every game, a search, and Continue and Statistics."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest
from pyglet.window import key

from game.engine.png import encode_png
from game.hall.menu_cards import PICTURE, CardQuad, ScreenPlane, hit_card, read_png
from game.hall.menu_layout import groups_of, lay_out, matches
from game.registry import all_entries

SIZES = [(800, 600), (1280, 720), (1920, 1080)]


@pytest.fixture
def menu(director):
    """The menu on the shared Director, with no game played yet in this test."""
    from game.cli.play import register_games

    if director.overlay.visible:
        director.overlay.toggle()
    played = director.last_game
    director.last_game = None
    register_games(director, last_game="")
    director.switch("menu")
    yield director
    register_games(director)
    director.last_game = played
    director.on_resize(640, 400)


def press(director, symbol: int) -> None:
    director.window.dispatch_event("on_key_press", symbol, 0)
    director.window.dispatch_events()
    director.update(1 / 60)


def type_text(director, text: str) -> None:
    """Keys as a keyboard sends them: the key, then the character it types."""
    for ch in text:
        symbol = getattr(key, ch.upper(), None) if ch.isalpha() else key.SPACE
        director.window.dispatch_event("on_key_press", symbol, 0)
        director.window.dispatch_event("on_text", ch)
        director.window.dispatch_events()
    director.update(1 / 60)


def selected(director) -> str:
    return director.controller.selected


# -- groups ---------------------------------------------------------------------------------------


def test_the_groups_come_from_the_registry_and_the_descriptions():
    entries = all_entries()
    groups = groups_of(entries)
    # The games of their own stand alone, named by their title; the described games by the
    # family their description names.
    for entry in entries:
        if entry.controller.endswith("rules.controller:BoardController"):
            from game.logic.rules.catalogue import design

            assert entry.menu_group == design(entry.id).family != ""
        else:
            assert entry.menu_group == entry.title
    assert list(groups)[:4] == ["Priests and Devils", "Reversi", "MasterGrab", "Cluedo"]
    assert {g.id for g in groups["Draughts"]} >= {"english-draughts", "international-draughts"}
    assert sum(len(g) for g in groups.values()) == len(entries)


def test_groups_follow_the_entries_given_not_a_list_in_the_menu():
    @dataclass
    class Game:
        id: str
        title: str
        summary: str
        menu_group: str

    games = [Game("b", "Bee", "", "Insects"), Game("a", "Ant", "", "Insects"),
             Game("c", "Cat", "", "Pets")]  # fmt: skip
    assert {k: [g.id for g in v] for k, v in groups_of(games).items()} == {
        "Insects": ["b", "a"],
        "Pets": ["c"],
    }


@pytest.mark.gl
def test_the_group_buttons_are_the_registrys_groups_and_show_their_games(menu):
    controller = menu.controller
    labels = [b.label.removeprefix("▸ ") for b in menu.commands().buttons() if b.group == "list"]
    assert labels == list(groups_of(all_entries()))
    assert menu.perform("group-6")  # the sixth group's button
    group = labels[5]
    assert [e.menu_group for e in controller.shown()] == [group] * len(controller.shown())
    assert any(b.label == f"▸ {group}" for b in menu.commands().buttons())
    assert menu.perform("group:draughts")
    assert {e.id for e in controller.shown()} == {
        e.id for e in all_entries() if e.menu_group == "Draughts"
    }


# -- keys ------------------------------------------------------------------------------------------


@pytest.mark.gl
def test_the_arrows_reach_every_game_and_enter_plays_the_selected_one(menu):
    ids = [e.id for e in all_entries()]
    for step in (key.RIGHT, key.LEFT):
        seen = [selected(menu)]
        for _ in range(len(ids)):
            press(menu, step)
            seen.append(selected(menu))
        assert set(seen) == set(ids), f"{set(ids) - set(seen)} out of reach of the arrows"
        assert seen[0] == seen[-1], "round through every group and back"
        assert len(set(seen[:-1])) == len(ids)
    # Down and Up move by rows and on into the next or the group before.
    seen = {selected(menu)}
    for _ in range(len(ids) * 2):
        press(menu, key.DOWN)
        seen.add(selected(menu))
    assert len({g for g in (e.menu_group for e in all_entries() if e.id in seen)}) == len(
        groups_of(all_entries())
    ), "Down visits every group"
    # Enter plays what is selected.
    while selected(menu) != "english-draughts":
        press(menu, key.RIGHT)
    assert menu.commands()["enter"].label == "Play: English draughts"
    press(menu, key.ENTER)
    assert menu.controller.name == "english-draughts"


@pytest.mark.gl
def test_typing_into_the_search_filters_and_esc_clears_it(menu):
    controller = menu.controller
    every = len(all_entries())
    press(menu, key.SLASH)
    assert controller.searching
    type_text(menu, "draughts")  # S and C type letters now: no statistics, no Continue
    assert controller.query == "draughts"
    assert menu.controller.name == "menu" and controller.shown_stats is None
    found = {e.id for e in controller.shown()}
    assert found == {e.id for e in all_entries() if "draughts" in e.title.lower()} | {
        e.id for e in all_entries() if e.menu_group == "Draughts"
    }
    assert 0 < len(found) < every
    assert selected(menu) in found
    press(menu, key.BACKSPACE)
    assert controller.query == "draught"
    type_text(menu, "s russian")
    shown = controller.shown()
    assert shown[0].id == "russian-draughts", "a title that holds the words comes first"
    for entry in shown:  # Bashni's summary tells it comes from Russian draughts
        text = f"{entry.title} {entry.menu_group} {entry.summary}".lower()
        assert "russian" in text and "draughts" in text
    assert selected(menu) == "russian-draughts"
    status = controller.status()
    assert f"{len(shown)} game" in status.counter
    assert status.help.startswith("Russian draughts:")
    type_text(menu, "x")
    assert controller.shown() == [] and not menu.perform("enter")  # nothing to play
    press(menu, key.ESCAPE)  # clears the search; the menu stays
    assert controller.query == "" and not controller.searching
    assert menu.controller.name == "menu"
    quit_asked = []
    menu.on_quit = lambda: quit_asked.append(True)
    try:
        press(menu, key.S)  # the keys are commands again
        assert controller.shown_stats is not None
        press(menu, key.ESCAPE)  # no search: Esc is the Director's (from the menu: quit)
        assert quit_asked
    finally:
        menu.on_quit = None


def test_the_search_finds_by_title_first_then_by_group_and_summary():
    entries = all_entries()
    assert next(e.id for e in matches(entries, "CHESS")) == "chess"
    found = [e.id for e in matches(entries, "draughts international")]
    assert found[0] == "international-draughts"
    assert "brazilian-draughts" in found, "its summary names International draughts"
    assert "english-draughts" not in found
    assert matches(entries, "") == entries
    assert matches(entries, "zzz-no-such") == []


@pytest.mark.gl
def test_continue_goes_to_the_last_game_with_c_and_with_enter_on_its_card(menu):
    from game.cli.play import register_games

    register_games(menu, last_game="reversi")
    menu.switch("menu")
    assert menu.controller.status_line().startswith(
        "status=menu games=" + ",".join(e.id for e in all_entries()) + " continue=reversi"
    )
    assert selected(menu) == "reversi", "the menu opens on the game played last"
    assert menu.commands()["continue"].label == "Continue: Reversi"
    press(menu, key.C)
    assert menu.controller.name == "reversi"
    menu.switch("river")
    menu.perform("menu")  # Esc
    assert menu.controller.name == "menu" and selected(menu) == "river"
    press(menu, key.ENTER)
    assert menu.controller.name == "river"


@pytest.mark.gl
def test_play_commands_and_a_click_on_a_card_start_that_game(menu):
    assert menu.perform("play:river", strict=True)
    assert menu.controller.name == "river"
    menu.switch("menu")
    assert not menu.perform("play:parcheesi-deluxe")
    assert "no game named 'parcheesi-deluxe'" in menu.toast
    menu.perform("group:Draughts")
    menu.update(1 / 60)
    quad = menu.controller.quads[1]
    x, y = menu.to_window(quad.center)
    menu.on_mouse_motion(x, y, 0, 0)
    second = menu.controller.shown()[1].id
    assert selected(menu) == second, "the mouse over a card selects it"
    assert menu.controller.layer.hover == 1
    assert menu.click(x, y) == "scene"
    assert menu.controller.name == second


# -- what it looks like ---------------------------------------------------------------------------


@pytest.mark.gl
@pytest.mark.parametrize("size", SIZES)
def test_every_card_and_title_is_inside_the_window_and_apart(menu, size):
    """In every group, and for a search that finds most games: the cards stand inside the
    room the HUD leaves, none over another; every title is shown, inside the window, and no
    two titles meet."""
    menu.on_resize(*size)
    controller = menu.controller
    views = [f"group:{g}" for g in groups_of(all_entries())] + ["find:a"]
    for view in views:
        assert menu.perform(view, strict=True)
        menu.update(1 / 60)
        shown = controller.shown()
        assert len(controller.quads) == len(shown) > 0
        left, bottom, right, top = menu.free_rect()
        boxes = []
        for quad in controller.quads:
            points = [menu.to_window(c) for c in quad.corners(grow=0.05)]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        for x0, y0, x1, y1 in boxes:
            assert left - 1 <= x0 and x1 <= right + 1, (view, size, x0, x1, left, right)
            assert bottom - 1 <= y0 and y1 <= top + 1, (view, size, y0, y1, bottom, top)
        for a, b in itertools.combinations(boxes, 2):
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (view, a, b)
        titles = [(n, r) for n, r in menu.hud.rects() if n.startswith("label")]
        lines = sum(len(c.lines) for c in controller.cards)
        assert len(titles) == lines, f"a title is hidden under a panel ({view}, {size})"
        assert {n[7:-1] for n, _ in titles} <= {line for c in controller.cards for line in c.lines}
        for name, (x, y, w, h) in titles:
            assert x >= 0 and x + w <= size[0] and y >= 0 and y + h <= size[1], (name, size)
        for (na, a), (nb, b) in itertools.combinations(titles, 2):
            apart = a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0]
            apart = apart or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]
            assert apart, f"{na} and {nb} meet ({view}, {size})"
        # Titles that stand side by side keep a gap of at least a third of their text size.
        for card_a, card_b in itertools.pairwise(controller.cards):
            if card_a.row == card_b.row:
                assert card_b.x - (card_a.x + card_a.w) >= menu.label_size() / 3


@pytest.mark.gl
@pytest.mark.parametrize("size", SIZES)
def test_the_menus_panels_and_buttons_keep_apart_with_and_without_the_overlay(menu, size):
    menu.on_resize(*size)
    try:
        for overlay in (False, True):
            if menu.overlay.visible != overlay:
                menu.overlay.toggle()
            for view in ("group:Priests and Devils", "group:Connection and alignment"):
                menu.perform(view, strict=True)
                menu.capture()  # the overlay measures itself; the menu lays out beside it
                rects = [(n, r) for n, r in menu.hud.rects() if not n.startswith("label")]
                for (na, a), (nb, b) in itertools.combinations(rects, 2):
                    apart = a[0] + a[2] <= b[0] + 0.5 or b[0] + b[2] <= a[0] + 0.5
                    apart = apart or a[1] + a[3] <= b[1] + 0.5 or b[1] + b[3] <= a[1] + 0.5
                    assert apart, f"{na} and {nb} overlap ({view}, {size}, overlay {overlay})"
    finally:
        if menu.overlay.visible:
            menu.overlay.toggle()


@pytest.mark.gl
def test_nothing_looks_like_a_button_that_is_not_one(menu):
    """No banner ("Choose a game" looked like a button and did nothing): every rounded box
    the HUD draws is a button that runs a command."""
    controller = menu.controller
    menu.update(1 / 60)
    assert controller.status().banner == ""
    table = menu.commands()
    for button in table.buttons():
        assert button.command in table
    drawn = [name for name, _ in menu.hud.rects() if not name.startswith(("button", "label"))]
    assert drawn == ["title panel"]


def test_every_shipped_game_has_a_card_picture_of_its_scene():
    for entry in all_entries():
        from game.resources import asset_dir

        path = asset_dir("scenes").parent / entry.picture
        assert path.is_file(), f"{entry.id}: no card picture (tools/make_cards.py makes them)"
        pixels = read_png(path)
        assert pixels.shape[:2] == (PICTURE[1], PICTURE[0])
        assert pixels.std() > 10, f"{entry.id}: a blank picture"


@pytest.mark.gl
def test_the_menu_draws_its_cards(menu):
    image = menu.capture()
    assert menu.ctx.error == "GL_NO_ERROR"
    assert image.std() > 10  # pictures, not a blank sky
    assert menu.controller.layer is not None and menu.controller.layer.vertices > 0


# -- the arithmetic alone -------------------------------------------------------------------------


def test_a_card_stands_where_the_layout_put_it_on_the_screen():
    plane = ScreenPlane(
        np.array([0.0, 3.0, 9.0]), np.array([0.0, 0.6, 0.0]), np.array([0.0, 1.0, 0.0]),
        40.0, (800.0, 600.0), 4.0,
    )  # fmt: skip
    quad = plane.quad(100, 200, 160, 120)
    import pyrr

    view = np.asarray(pyrr.matrix44.create_look_at(plane.eye, plane.target, plane.up)).T
    proj = np.asarray(pyrr.matrix44.create_perspective_projection(40.0, 800 / 600, 0.1, 80)).T
    xs, ys = [], []
    for corner in quad.corners():
        clip = proj @ view @ np.append(corner, 1.0)
        xs.append((clip[0] / clip[3] + 1) / 2 * 800)
        ys.append((clip[1] / clip[3] + 1) / 2 * 600)
    assert np.allclose([min(xs), max(xs), min(ys), max(ys)], [100, 260, 200, 320], atol=0.01)
    eye = plane.eye
    assert hit_card([quad], eye, quad.center - eye) == 0
    assert hit_card([quad], eye, np.array([0.0, 1.0, 0.0])) is None


def test_long_titles_wrap_and_never_reach_the_next_card():
    titles = ["International draughts", "Russian draughts", "Connection and alignment games"]
    cards = lay_out(titles, (0, 0, 300, 400), 10, lambda t: 6.5 * len(t))
    for a, b in itertools.pairwise(cards):
        if a.row == b.row:
            assert all(6.5 * len(line) <= a.w + (b.x - a.x - a.w) * 0.6 for line in a.lines)
    assert max(len(c.lines) for c in cards) <= 2
    assert all(isinstance(c, type(cards[0])) for c in cards)
    assert not isinstance(cards[0], CardQuad)


def test_read_png_reads_what_encode_png_writes_and_every_row_filter(tmp_path):
    rng = np.random.default_rng(1)
    pixels = rng.integers(0, 256, size=(5, 4, 3), dtype=np.uint8)
    path = tmp_path / "a.png"
    path.write_bytes(encode_png(pixels))
    assert np.array_equal(read_png(path), pixels)
    assert np.array_equal(read_png(path, step=2), pixels[::2, ::2])
    # Rows filtered with Sub, Up, Average and Paeth (as other encoders write them).
    import struct
    import zlib

    raw = bytearray()
    prev = np.zeros(12, dtype=np.int64)
    for y, kind in enumerate((1, 2, 3, 4, 0)):
        row = pixels[y].reshape(-1).astype(np.int64)
        out = []
        for i, value in enumerate(row):
            left = row[i - 3] if i >= 3 else 0
            corner = prev[i - 3] if i >= 3 else 0
            up = prev[i]
            if kind == 1:
                pred = left
            elif kind == 2:
                pred = up
            elif kind == 3:
                pred = (left + up) // 2
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
            else:
                pred = 0
            out.append((value - pred) % 256)
        raw += bytes([kind, *out])
        prev = row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 5, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(bytes(raw)))
        + chunk(b"IEND", b"")
    )
    path.write_bytes(png)
    assert np.array_equal(read_png(path), pixels)
    from game.engine.png import decode_png

    rgba = rng.integers(0, 256, size=(3, 7, 4), dtype=np.uint8)
    assert np.array_equal(decode_png(encode_png(rgba)), rgba)
    assert np.array_equal(decode_png(png), pixels)
    path.write_bytes(b"not a png")
    with pytest.raises(ValueError, match="not a PNG"):
        read_png(path)
