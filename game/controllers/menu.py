"""The menu: a card per registered game (its picture, title and key), and Continue.

The games come from the registry, so a new game appears here by being registered. Keys:
1, 2, 3 ... start a game, Enter or C continues with the game played last, Q or Esc quits. A
click on a card starts its game. Scripts use the same commands: ``play:river``, ``continue``,
``quit``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.controllers.menu_cards import CardLayer, CardQuad, card_quads, hit_card
from game.engine.commands import Command, CommandTable
from game.engine.controller import Status, Tone
from game.engine.scene import Node, Scene, load_scene, quat_from_axis_angle
from game.resources import asset_dir, asset_path

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.registry import Entry


#: The window shape the menu scene is laid out for.
WIDE = 16 / 9


class MenuError(ValueError):
    """A menu command that names no game, or Continue with no game played yet."""


class MenuController:
    """Lists ``entries`` as cards; ``last_game()`` gives the id Continue goes to ("" or an
    id that is not registered: no Continue)."""

    name = "menu"
    title = "Gamehall"

    def __init__(self, entries: Sequence[Entry], last_game: Callable[[], str | None]) -> None:
        self.entries = list(entries)
        self.last_game = last_game
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.quads: list[CardQuad] = []
        self.layer: CardLayer | None = None
        self._time = 0.0
        self._eye = np.zeros(3, dtype="f4")
        self._table = self._commands()

    # -- what the Director asks -------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "menu.toml"))
        self.quads = card_quads(
            len(self.entries),
            self.scene.anchor("cards"),
            self.scene.number("cards_width"),
            self.scene.camera.eye,
        )
        self._eye = np.array(self.scene.camera.eye, dtype="f4")
        self._fit_camera()
        pictures = [_picture(e.picture) for e in self.entries]
        if getattr(host, "ctx", None) is not None:
            self.layer = CardLayer(host.ctx, self.quads, pictures)
            self.scene.layers.append(self.layer)
        return self.scene

    def exit(self) -> None:
        if self.layer is not None:
            self.layer.release()
            self.layer = None
        self.host = None

    def update(self, dt: float) -> None:
        self._time += dt
        self._fit_camera()
        if self.scene is not None and "boat" in self.scene.nodes:
            rock = 0.04 * math.sin(self._time * 1.3)
            self.scene["boat"].rotation = quat_from_axis_angle((0.0, 0.0, 1.0), rock)

    def idle(self) -> bool:
        return True

    def _fit_camera(self) -> None:
        """Step the camera back in windows narrower than the scene's 16:9, so the row of
        cards fits across any window (the vertical field of view is fixed)."""
        if self.scene is None or self.host is None:
            return
        width, height = self.host.window_size()
        widen = max(1.0, WIDE / (width / max(1, height)))
        camera = self.scene.camera
        camera.eye = (camera.target + (self._eye - camera.target) * widen).astype("f4")

    def commands(self) -> CommandTable:
        return self._table

    def status(self) -> Status:
        lines = "\n".join(
            f"{i}  {e.title}: {e.summary}" for i, e in enumerate(self.entries, start=1)
        )
        last = self._continue_entry()
        banner = f"Enter: continue with {last.title}" if last is not None else "Choose a game"
        keys = f"1-{len(self.entries)}" if len(self.entries) > 1 else "1"
        return Status(
            "Gamehall",
            f"Press {keys} or click a card to play",
            banner,
            Tone.INFO,
            lines,
        )

    def status_line(self) -> str:
        last = self._continue_entry()
        games = ",".join(e.id for e in self.entries)
        return f"status=menu games={games} continue={last.id if last else 'none'}"

    def on_pick(self, node: Node | None) -> str | None:
        """A click on a card: that game's id (handed back to :meth:`play`)."""
        index = self._card_under_mouse()
        return None if index is None else self.entries[index].id

    def play(self, action: Any) -> None:
        """Start the game whose id is ``action``."""
        self._start(str(action))

    def on_hover(self, node: Node | None) -> None:
        if self.layer is not None:
            self.layer.hover = self._card_under_mouse()

    def world_labels(self) -> list[tuple[str, np.ndarray]]:
        """Each card's key and title, just under the card."""
        return [
            (f"{i}  {e.title}", q.center - q.up * 1.28)
            for i, (e, q) in enumerate(zip(self.entries, self.quads, strict=False), start=1)
        ]

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        imgui.text(f"{len(self.entries)} games; continue: {self.status_line().split()[-1]}")

    # -- helpers ----------------------------------------------------------------------------

    def _commands(self) -> CommandTable:
        commands = [
            Command(
                e.id,
                lambda game=e.id: self._start(game),
                label=e.title,
                key=f"_{i}|NUM_{i}" if i <= 9 else "",
                help=f"play {e.title}: {e.summary}",
            )
            for i, e in enumerate(self.entries, start=1)
        ]
        last = self._continue_entry()
        commands += [
            Command(
                "continue",
                self._continue,
                label=f"Continue: {last.title}" if last else "Continue",
                key="ENTER|NUM_ENTER|C",
                help="play the game you played last",
                enabled=lambda: self._continue_entry() is not None,
                why_disabled="no game played yet: choose one",
            ),
            Command(
                "play",
                self._start,
                group="",
                parse=self._game_id,
                argument="a game id",
                help="play:GAME starts that game (" + ", ".join(e.id for e in self.entries) + ")",
            ),
            Command("quit", self._quit, label="Quit", key="Q", help="leave Gamehall"),
        ]
        return CommandTable(commands)

    def _game_id(self, text: str) -> str:
        ids = [e.id for e in self.entries]
        if text not in ids:
            raise MenuError(f"no game named {text!r}; the games are: {', '.join(ids)}")
        return text

    def _continue_entry(self) -> Entry | None:
        last = self.last_game()
        return next((e for e in self.entries if e.id == last), None)

    def _continue(self) -> None:
        entry = self._continue_entry()
        if entry is None:
            raise MenuError("no game played yet: choose one")
        self._start(entry.id)

    def _start(self, game: str) -> None:
        self._game_id(game)
        if self.host is not None:
            self.host.switch(game)

    def _quit(self) -> None:
        if self.host is not None:
            self.host.quit()

    def _card_under_mouse(self) -> int | None:
        ray = getattr(self.host, "ray", None)
        if ray is None or not self.quads:
            return None
        return hit_card(self.quads, ray[0], ray[1])


def _picture(name: str) -> Path | None:
    """The file of an entry's ``picture`` (``docs/river.png``: in a checkout it is at the top
    of the repository, in an installed wheel beside the other data), or None."""
    if not name:
        return None
    path = asset_dir("scenes").parent / name
    return path if path.is_file() else None
