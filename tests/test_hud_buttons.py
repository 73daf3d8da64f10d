"""The HUD's buttons: their colours follow enabled and hover, and a frame in which nothing
changed restyles no label (setting a pyglet label's colour restyles its whole document, which
was most of a still frame's time)."""

from __future__ import annotations

import pytest
from pyglet.text.document import AbstractDocument

from game.engine.controller import Button, Status
from game.engine.hud import DISABLED_TEXT, Hud

pytestmark = pytest.mark.gl


def test_button_colours_follow_state_and_a_still_frame_restyles_nothing(director, monkeypatch):
    allowed = [True]
    hud = Hud((800, 600))
    hud.set_buttons(
        [Button("Undo", "undo", "U", enabled=lambda: allowed[0]), Button("New", "new", "R")]
    )
    status = Status("River", banner="Your move")
    hud.set_status(status)
    undo = next(v for v in hud._buttons if v.spec.command == "undo")
    assert tuple(undo.label.color) == (255, 255, 255, 255)

    styled: list[object] = []
    real = AbstractDocument.set_style

    def counting(self, start, end, attributes):
        styled.append(attributes)
        return real(self, start, end, attributes)

    monkeypatch.setattr(AbstractDocument, "set_style", counting)
    for _ in range(5):  # five frames, nothing changed
        hud.set_status(status)
    assert styled == []

    allowed[0] = False  # the button's predicate turns: the next frame shows it disabled
    hud.set_status(status)
    assert tuple(undo.label.color) == DISABLED_TEXT
    assert styled
    allowed[0] = True
    hud.on_mouse_motion(undo.x + 1, undo.y + 1)
    assert hud.hover == "undo"
    assert tuple(undo.label.color) == (30, 24, 10, 255)
