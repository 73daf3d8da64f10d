"""A scene gives back what its ``enter`` made through one helper,
:func:`game.engine.controller.release`, which passes over what was not made (headless: no
layer) or was given back already."""

from __future__ import annotations

from game.engine.controller import release
from game.hall.menu import MenuController


class Made:
    """Something that holds GL objects: it counts the times it is given back."""

    def __init__(self) -> None:
        self.released = 0

    def release(self) -> None:
        self.released += 1


def test_release_gives_back_what_is_there_and_passes_over_none() -> None:
    first, second = Made(), Made()
    release(first, None, second)
    assert (first.released, second.released) == (1, 1)


def test_the_menu_gives_back_its_card_layer_once() -> None:
    menu = MenuController([], lambda: None)
    layer = Made()
    menu.layer = layer  # type: ignore[assignment]  # what enter makes in a window
    menu.exit()
    menu.exit()  # a second exit finds nothing left to give back
    assert layer.released == 1 and menu.layer is None
