"""The menu: a card per registered game, keys and clicks that start one, and Continue."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.controllers.menu_cards import card_quads, hit_card, read_png
from game.engine.png import encode_png
from game.registry import all_entries

pytestmark = pytest.mark.gl


@pytest.fixture
def menu(director):
    """The menu on the shared Director, with no game played yet in this test."""
    from game.cli_play import register_games

    if director.overlay.visible:
        director.overlay.toggle()
    played = director.last_game
    director.last_game = None
    yield director
    register_games(director)
    director.last_game = played


def test_the_menu_has_a_card_and_a_key_per_registered_game(menu):
    from game.cli_play import register_games

    register_games(menu, last_game="")
    menu.switch("menu")
    games = all_entries()
    table = menu.commands()
    keys = table.keys()
    labels = []
    for i, entry in enumerate(games, start=1):
        key = str(i % 10) if i <= 10 else ""  # 1 to 9, then 0; the rest by a click
        if key:
            assert keys[f"_{key}"] == entry.id
        assert table[entry.id].label == entry.title
        assert entry.summary in table[entry.id].help  # F1 lists every game
        labels.append(f"{key}  {entry.title}" if key else entry.title)
    assert len(menu.controller.layer.quads) == len(games)
    assert [text for text, _ in menu.controller.world_labels()] == labels
    # The cards are the games' buttons: the bar keeps Continue, Statistics and Quit.
    assert {b.command for b in table.buttons()} == {"continue", "stats", "quit"}
    assert not table.enabled("continue")  # nothing played yet
    assert not menu.perform("continue")
    assert menu.controller.name == "menu"
    image = menu.capture()
    assert menu.ctx.error == "GL_NO_ERROR"
    assert image.std() > 10  # pictures, not a blank sky
    menu.controller.layer.hover = 2  # the mouse over a card says what the game is
    assert menu.controller.status().banner == f"{games[2].title}: {games[2].summary}"


@pytest.mark.parametrize("size", [(800, 600), (1280, 720), (1920, 1080)])
def test_every_card_and_title_fits_the_window_apart(menu, size):
    """However many games there are, the cards stand in rows inside the window, clear of
    the title panel and the banner, none over another, and every title is shown whole,
    apart from its neighbours."""
    menu.switch("menu")
    menu.on_resize(*size)
    try:
        menu.update(1 / 60)
        w, h = size
        vp = menu.renderer.view_projection(menu.scene, menu.framebuffer_size())
        boxes = []
        for quad in menu.controller.quads:
            clip = [vp @ np.append(c, 1.0) for c in quad.corners(grow=0.06)]
            xs = [(c[0] / c[3] + 1) / 2 * w for c in clip]
            ys = [(c[1] / c[3] + 1) / 2 * h for c in clip]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        hud = menu.hud
        top = hud.panel.y
        bottom = hud.banner_box.y + hud.banner_box.height
        for x0, y0, x1, y1 in boxes:
            assert x0 >= 0 and x1 <= w, (size, x0, x1)
            assert bottom - 2 <= y0 and y1 <= top + 2, (size, y0, y1, bottom, top)
        shown = [label for label in hud._world if label.visible]
        assert len(shown) == len(menu.controller.quads)  # none hidden under a panel
        spans = sorted(
            (label.y, label.x - label.content_width / 2, label.x + label.content_width / 2)
            for label in shown
        )
        for (ya, _, a1), (yb, b0, _) in itertools.pairwise(spans):
            if abs(ya - yb) < 1:  # the same row
                assert a1 + 4 <= b0, (size, a1, b0)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    finally:
        menu.on_resize(640, 400)


def test_continue_goes_to_the_last_game_saved_then_to_the_one_played(menu):
    from game.cli_play import register_games

    register_games(menu, last_game="reversi")
    menu.switch("menu")
    assert menu.controller.status_line().endswith("continue=reversi")
    assert menu.commands()["continue"].label == "Continue: Reversi"
    assert menu.perform("continue")
    assert menu.controller.name == "reversi"
    menu.switch("river")
    menu.perform("menu")  # Esc
    assert menu.controller.name == "menu"
    assert menu.controller.status_line().endswith("continue=river")
    menu.on_key_press(__import__("pyglet.window", fromlist=["key"]).key.ENTER, 0)
    assert menu.controller.name == "river"


def test_play_commands_and_a_click_on_a_card_start_that_game(menu):
    menu.switch("menu")
    assert menu.perform("play:river", strict=True)
    assert menu.controller.name == "river"
    menu.switch("menu")
    assert not menu.perform("play:backgammon")
    assert "no game named 'backgammon'" in menu.toast
    # A click in the middle of the second card.
    quad = menu.controller.quads[1]
    vp = menu.renderer.view_projection(menu.scene, menu.framebuffer_size())
    clip = vp @ np.append(quad.center, 1.0)
    w, h = menu.window_size()
    x, y = (clip[0] / clip[3] + 1) / 2 * w, (clip[1] / clip[3] + 1) / 2 * h
    menu.on_mouse_motion(x, y, 0, 0)
    assert menu.controller.layer.hover == 1
    assert menu.click(x, y) == "scene"
    assert menu.controller.name == all_entries()[1].id


def test_cards_face_the_camera_and_a_ray_finds_the_nearest():
    quads = card_quads(3, (0.0, 1.0, 2.0), 6.0, (0.0, 3.0, 9.0))
    assert [round(float(q.center[0]), 3) for q in quads] == [-2.062, 0.0, 2.062]
    eye = np.array([0.0, 3.0, 9.0])
    for i, q in enumerate(quads):
        assert float(np.dot(q.normal, eye - q.center)) > 0
        assert hit_card(quads, eye, q.center - eye) == i
    assert hit_card(quads, eye, np.array([0.0, 1.0, 0.0])) is None


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
    # Ours decode at once; a filtered one is left to the general decoder.
    from game.engine.png import decode_png

    rgba = rng.integers(0, 256, size=(3, 7, 4), dtype=np.uint8)
    assert np.array_equal(decode_png(encode_png(rgba)), rgba)
    assert decode_png(png) is None
    path.write_bytes(b"not a png")
    with pytest.raises(ValueError, match="not a PNG"):
        read_png(path)
