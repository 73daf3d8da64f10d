"""The Cluedo table as a player meets it: the notebook docked at the left (a click names a
card or says why), card faces that never show a hidden card, a suggestion that plays out in
order while the computers wait, and a camera that keeps the table clear of the notebook."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from game.engine.director import Director
from game.games.clue.controller import ClueController
from game.games.clue.faces import BACK
from game.logic.clue.events import Suggestion
from game.logic.clue.rules import Phase
from tests.clue_scenes import lent, open_clue
from tests.waiting import HANG_S

pytestmark = pytest.mark.gl


@pytest.fixture(autouse=True)
def _lent(director: Director) -> Iterator[None]:
    with lent(director, (1024, 640)):  # a window the notebook fits (the shared one: 640x400)
        yield


def _controller(director: Director, seed: int = 4) -> ClueController:
    controller = open_clue(director, {"seats": 4, "opponent": "article"}, seed=seed)
    director.advance(0.1)
    assert isinstance(controller, ClueController)
    return controller


def _cell(director: Director, command: str) -> tuple[float, float]:
    """The window position of the sheet cell that runs ``command``."""
    for row in director.hud.sheet._cells:
        for view in row:
            if view.cell.command == command:
                return view.x + view.w / 2, view.y + view.h / 2
    raise AssertionError(f"no sheet cell runs {command!r}")


def test_clicking_the_notebook_names_a_card_and_says_why(director: Director) -> None:
    c = _controller(director)
    assert director.hud.sheet.visible
    deck = c.game.rules.deck
    rope = deck.card("Rope")
    assert c.choice[1] != rope
    assert director.click(*_cell(director, f"choose:{rope}")) == "hud"
    assert c.choice[1] == rope and "Rope" in c.status().banner
    mine = c.state.hands[0][0]
    director.click(*_cell(director, f"why:{mine}/0"))
    assert c.status().banner == f"You hold {deck.name(mine)}: it follows from your hand."
    other = next(x for x in range(deck.n_cards) if x not in c.state.hands[0])
    director.click(*_cell(director, f"why:{other}/1"))
    assert "nothing decides it yet" in c.status().banner
    director.perform("why:Rope/envelope", strict=True)  # the same command from a script
    assert "Rope is in the envelope in" in c.status().banner
    director.perform("notebook", strict=True)
    assert c.sheet() is None and not director.hud.sheet.visible


def test_hidden_cards_carry_only_their_back(director: Director) -> None:
    c = _controller(director)
    assert c.faces is not None and c.table is not None
    faces = {node.name: face for node, face in c.faces.cards}
    for seat, hand in enumerate(c.state.hands):
        for i, card in enumerate(hand):
            assert faces[f"hand-{seat}-{i}"] == (card if seat == 0 else BACK)
    director.perform("suggest", strict=True)
    director.settle()
    shown = [p for p in c.table.places.values() if p.name.startswith("shown-")]
    event = c.state.log[-1]
    assert isinstance(event, Suggestion) and event.refuter is not None
    assert len(shown) == 1 and shown[0].face == event.shown and shown[0].face_up
    director.perform("end", strict=True)
    for _ in range(400):  # on to a suggestion between two computers
        assert c.match.wait(timeout=HANG_S)
        director.advance(0.1)
        last = c.state.log[-1] if c.state.log else None
        if isinstance(last, Suggestion) and last.seat != 0 and last.refuter not in (None, 0):
            break
    else:
        raise AssertionError("no computer showed another a card")
    director.settle()
    shown = [p for p in c.table.places.values() if p.name.startswith("shown-")]
    assert shown and all(p.face == BACK and not p.face_up for p in shown)
    faces = [face for node, face in c.faces.cards if node.name.startswith("shown-")]
    assert faces == [BACK], "the face layer never holds the card either"


def test_a_suggestion_plays_out_in_order_while_the_computers_wait(director: Director) -> None:
    c = _controller(director)  # seed 4: Boris passes, then Chandra shows a card
    director.perform("suggest", strict=True)
    event = c.state.log[-1]
    assert isinstance(event, Suggestion) and event.passed and event.refuter is not None
    scene = c.scene
    assert scene is not None

    def visible(prefix: str) -> list[bool]:
        return [not n.hidden for n in scene if n.name.startswith(prefix)]

    director.advance(0.1)
    assert all(visible("named-")) and not any(visible("pass-")) and not any(visible("shown-"))
    director.advance(0.4)
    assert all(visible("pass-")) and not any(visible("shown-"))
    director.settle()
    assert all(visible("shown-"))
    director.perform("end", strict=True)
    grown = len(c.state.log)
    for _ in range(200):  # the next seat suggests; its turn waits for the table
        assert c.match.wait(timeout=HANG_S)
        director.advance(0.05)
        if len(c.state.log) > grown:
            break
    assert len(c.state.log) == grown + 1 and director.tweens.busy > 0
    after = c.state.phase
    assert c.match.wait(timeout=HANG_S)  # its next decision is made, and waits
    director.advance(0.05)
    assert len(c.state.log) == grown + 1 and c.state.phase is after is Phase.AFTER


def test_the_camera_keeps_the_table_clear_of_the_notebook(director: Director) -> None:
    c = _controller(director)
    scene = c.scene
    assert scene is not None
    w = director.window_size()[0]
    sheet = director.hud.sheet
    assert sheet.visible

    def window_x(name: str) -> float:
        vp = director.renderer.view_projection(scene, director.framebuffer_size())
        clip = vp @ np.append(scene[name].position, 1.0)
        return float((clip[0] / clip[3] + 1) / 2 * w)

    tokens = [n.name for n in scene if n.name.startswith("seat-")]
    xs = [window_x(name) for name in tokens]
    assert min(xs) > sheet.x + sheet.width, "every seat lies right of the notebook"
    assert max(xs) < w, "and inside the window"
    docked_zoom = scene.camera.zoom
    director.perform("notebook", strict=True)
    # With the room back the table is drawn no smaller (larger, unless the window's height
    # already bounds it) and moves into the middle of the window.
    assert scene.camera.zoom >= docked_zoom
    assert min(window_x(name) for name in tokens) < min(xs), "the table spreads out again"


def test_every_card_has_its_own_face_and_one_back(director: Director) -> None:
    from game.games.clue.faces import HEIGHT, WIDTH, face_pictures
    from game.logic.clue.deck import load_deck

    deck = load_deck("classic")
    pictures = face_pictures(deck)
    assert pictures.shape == (deck.n_cards + 1, HEIGHT, WIDTH, 4)
    flat = pictures.reshape(len(pictures), -1)
    assert len({row.tobytes() for row in flat}) == len(pictures), "no two pictures alike"
    ink = (pictures[:-1, 220:340, :, :3].max(axis=-1) < 80).sum(axis=(1, 2))
    assert (ink > 200).all(), "every face carries its name in dark letters"
