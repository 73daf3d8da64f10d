"""The menu: a quiet scene with one button per game. Esc here quits."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from game.engine.controller import Button, Status, Tone, UnknownActionError
from game.engine.scene import Node, Scene, load_scene, quat_from_axis_angle
from game.resources import asset_path

if TYPE_CHECKING:
    from game.engine.director import Director

# Every game the menu offers: (scene controller name, title, one line about it).
GAMES: list[tuple[str, str, str]] = [
    ("river", "Priests and Devils", "Ferry everyone across; devils must never outnumber priests."),
    ("reversi", "Reversi", "Outflank and flip: the most discs at the end wins."),
    ("grab", "MasterGrab", "Conquer a borderless map against robots."),
]


class MenuController:
    """Lists the games; picking one switches the Director to it."""

    name = "menu"
    title = "Gamehall"

    def __init__(self) -> None:
        self.director: Director | None = None
        self.scene: Scene | None = None
        self._time = 0.0

    def enter(self, director: Director) -> Scene:
        self.director = director
        self.scene = load_scene(asset_path("scenes", "menu.toml"))
        return self.scene

    def exit(self) -> None:
        self.director = None

    def update(self, dt: float) -> None:
        self._time += dt
        if self.scene is not None and "boat" in self.scene.nodes:
            rock = 0.04 * math.sin(self._time * 1.3)
            self.scene["boat"].rotation = quat_from_axis_angle((0.0, 0.0, 1.0), rock)

    def idle(self) -> bool:
        return True

    def actions(self) -> list[str]:
        return [f"play:{name}" for name, _, _ in GAMES] + ["quit"]

    def keys(self) -> dict[str, str]:
        return {f"_{i + 1}": f"play:{name}" for i, (name, _, _) in enumerate(GAMES)} | {"Q": "quit"}

    def buttons(self) -> list[Button]:
        return [
            Button(title, f"play:{name}", str(i + 1)) for i, (name, title, _) in enumerate(GAMES)
        ] + [Button("Quit", "quit", "Esc")]

    def status(self) -> Status:
        lines = "   ".join(f"{title}: {about}" for _, title, about in GAMES)
        return Status(
            "Gamehall",
            "Choose a game",
            "Thinking games with a partner who knows the best next move",
            Tone.INFO,
            lines,
        )

    def status_line(self) -> str:
        return "status=menu"

    def perform(self, action: str) -> None:
        if action == "quit":
            if self.director is not None:
                self.director.quit()
            return
        if action.startswith("play:") and action[5:] in {name for name, _, _ in GAMES}:
            if self.director is not None:
                self.director.switch(action[5:])
            return
        raise UnknownActionError(
            f"unknown action {action!r} for the menu; try " + ", ".join(self.actions())
        )

    def on_pick(self, node: Node | None) -> None:
        return None

    def on_hover(self, node: Node | None) -> None:
        return None

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        imgui.text("The menu has no game state.")
