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


def test_a_label_that_comes_or_goes_lays_out_no_other_world_label(director, monkeypatch):
    """A board's coordinates are drawn by a pool of labels. When one of them went under a
    panel (the camera moving, F3's column coming), every label after it took its
    neighbour's text and was laid out again, in each frame of the move. A label keeps
    its text: only a text that is new is laid out."""
    from pyglet.text.layout import TextLayout

    director.window.switch_to()
    hud = Hud((800, 600))
    hud.set_status(Status("Chess"))
    middle = [(letter, 200.0 + 40 * i, 300.0) for i, letter in enumerate("abcdefgh")]
    hud.set_world_labels(middle)
    by_text = {label.text: label for label in hud._world if label.visible}
    assert set(by_text) == set("abcdefgh")
    laid: list[str] = []
    update = TextLayout._update

    def counted(self) -> None:
        if self._update_enabled:
            laid.append(self.text)
        update(self)

    monkeypatch.setattr(TextLayout, "_update", counted)
    hud.set_world_labels(middle[1:])  # "a" gone: the others keep their labels
    hud.set_world_labels(middle)  # and back
    hud.set_world_labels([*middle[:3], ("e4", 500.0, 200.0, 1.5), *middle[3:]])  # a callout
    assert [text for text in laid if text] == ["e4"]  # (a ninth label, made empty, then "e4")
    shown = {label.text: label for label in hud._world if label.visible}
    assert all(shown[text] is by_text[text] for text in "abcdefgh")
    assert shown["e4"].weight == "bold"
    assert all(shown[text].weight == "normal" for text in "abcdefgh")
    x, y = shown["c"].position[:2]
    assert (x, y) == (280, 300)
