"""The contract between the Director and a game: SceneController and its UserActions.

A controller is the seed's FirstController. The Director hands it input only as named
UserActions (``perform("hint")``), picks (``on_pick(node)``) and hover changes; HUD buttons carry
action names too, so a click on "Hint", the H key and ``gamehall shot --do hint`` all take the
same path.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.engine.scene import Node, Scene


class Tone(enum.Enum):
    """How the status banner is coloured."""

    INFO = "info"
    HINT = "hint"
    WARN = "warn"
    WON = "won"
    LOST = "lost"


@dataclass
class Button:
    """A HUD button: its label, the UserAction it performs, its key and when it is enabled."""

    label: str
    action: str
    key: str = ""
    enabled: Callable[[], bool] = field(default=lambda: True)
    group: str = "main"  # "main": the bottom bar; "options": the top-right grid; "list": a
    # column on the right under the options (a move list)
    tooltip: str = ""


@dataclass
class Status:
    """What the HUD shows for the game: a title, a counter line and the banner."""

    title: str
    counter: str = ""
    banner: str = ""
    tone: Tone = Tone.INFO
    help: str = ""


class UnknownActionError(ValueError):
    """A UserAction name the current controller does not know."""


class SceneController(Protocol):
    """One per game; the Director switches between them with enter and exit hooks."""

    name: str
    title: str

    def enter(self, director: Director) -> Scene:
        """Build the scene (from ``scenes/NAME.toml``) and the game state; return the scene."""
        ...

    def exit(self) -> None:
        """Release what ``enter`` made; the Director has already cancelled running tweens."""
        ...

    def update(self, dt: float) -> None:
        """Advance per-frame work that is not a timed action (queued steps, pulsing marks)."""
        ...

    def perform(self, action: str) -> None:
        """Run a UserAction by its text name; raise UnknownActionError for unknown names."""
        ...

    def actions(self) -> list[str]:
        """The UserAction names this controller accepts (for help and ``gamehall shot``)."""
        ...

    def buttons(self) -> list[Button]: ...

    def keys(self) -> dict[str, str]:
        """Key name (pyglet's symbol string, e.g. "H") to UserAction name."""
        ...

    def status(self) -> Status: ...

    def on_pick(self, node: Node | None) -> None:
        """A click on a scene node (or on nothing)."""
        ...

    def on_hover(self, node: Node | None) -> None:
        """The mouse moved (over ``node`` or nothing); called on every motion."""
        ...

    def idle(self) -> bool:
        """True when the controller has nothing queued (the Director also checks actions)."""
        ...

    def status_line(self) -> str:
        """One machine-readable line for ``gamehall shot``, e.g. ``status=won crossings=11``."""
        ...

    def debug_panel(self) -> None:
        """Fill the overlay's game panel with imgui calls (only called while it is shown)."""
        ...
