"""The contract between the Director and a game's scene: SceneController and Host.

The Director hands a controller input only as commands from the controller's own table
(:mod:`game.engine.commands`: a key, a HUD button and ``gamehall shot --do hint`` take the same
path), as game actions from picks, and as hover changes. A controller sees the Director only
through :class:`Host`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from game.engine.commands import CommandTable
    from game.engine.scene import Node, Scene
    from game.engine.tweens import TweenManager


class Tone(enum.Enum):
    """How the status banner is coloured."""

    INFO = "info"
    HINT = "hint"
    WARN = "warn"
    WON = "won"
    LOST = "lost"


@dataclass
class Button:
    """A HUD button: its label, the command it runs, its key and when it is enabled."""

    label: str
    command: str
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


@dataclass(frozen=True)
class Cell:
    """One cell of a :class:`Sheet`: its text, the command a click runs (none: not
    clickable), its background (RGBA 0..255, None: none) and text colour."""

    text: str
    command: str = ""
    fill: tuple[int, int, int, int] | None = None
    color: tuple[int, int, int, int] = (232, 236, 244, 255)
    bold: bool = False
    tip: str = ""  # shown in the sheet's last line while the mouse is over the cell
    left: bool = False  # text from the cell's left edge (a first column's always is)


@dataclass(frozen=True)
class Sheet:
    """A grid the HUD docks at the left edge (a detective's notebook): a header row, then
    rows of cells; a row of one cell is a heading across the grid. ``footer`` lines go under
    it. A controller offers one with an optional ``sheet()`` method (None: no sheet)."""

    title: str
    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    footer: tuple[str, ...] = ()


class ServerNote(Protocol):
    """A game played on a server, as the window shows it: a note after the HUD's title (the
    code to share) and the lines of the F3 overlay (the server, latency, reconnects)."""

    def note(self) -> str: ...

    def lines(self) -> list[str]: ...


class UnknownCommandError(ValueError):
    """A command (or scene) name the Director or the current scene does not have."""


class Host(Protocol):
    """What a scene controller may ask of the Director, and no more."""

    tweens: TweenManager
    ctx: Any  # moderngl.Context: for a controller that builds its own render layer
    renderer: Any  # game.engine.render.Renderer: render layers, camera
    bounds: dict[str, Any]  # mesh name to its bounding box, for picking
    ray: tuple[Any, Any] | None  # the last mouse ray (origin, direction)
    hit: Any  # where that ray met the node it picked (a world point), or None
    headless: bool

    def say(self, text: str, tone: Tone = Tone.INFO, seconds: float = 3.0) -> None: ...

    def switch(self, name: str) -> Any: ...

    def quit(self) -> None: ...

    def window_size(self) -> tuple[int, int]: ...

    def area_size(self) -> tuple[int, int]:
        """The size of the part of the window the scene is drawn in (the window less the
        docked F3 overlay): what a scene lays itself out for."""
        ...

    def free_rect(self) -> tuple[float, float, float, float]:
        """The part of :meth:`area_size` the HUD leaves free (left, bottom, right, top)."""
        ...

    def label_size(self) -> int:
        """The text size of the labels the HUD shows at scene positions (world labels)."""
        ...

    def between_frames(self) -> None:
        """Wait, on a thread of the scene's own, until the frame being drawn ends (a short
        while at most): long work in Python waits here between its steps (see
        :mod:`game.logic.pacing`), so the drawing thread never waits for it."""
        ...

    def text_width(self, text: str, size: float) -> float:
        """How wide the HUD draws ``text`` at ``size`` (window units)."""
        ...

    def sound(self, name: str) -> None: ...


class Releasable(Protocol):
    """What holds GL objects and gives them back (a render layer, a view)."""

    def release(self) -> None: ...


def release(*made: Releasable | None) -> None:
    """Release each of ``made`` that is there (None: not made, as headless, or released
    already): what a controller's :meth:`SceneController.exit` gives back of what its
    ``enter`` made."""
    for thing in made:
        if thing is not None:
            thing.release()


class SceneController:
    """The base of every game's scene controller; the Director switches between them with
    enter and exit hooks.

    Input reaches a controller three ways: a command from its table (a key, a button, a
    script), a game action from :meth:`on_pick` (a click the controller turns into the
    game's own action type, handed back to :meth:`play`), and hover changes.

    Every hook the Director calls is a method here with a default that does nothing (as
    Arcade's ``View`` has ``on_update`` and ``on_key_press``): a scene overrides what it
    uses, and the Director never asks whether a method is there. :meth:`enter`,
    :meth:`commands` and :meth:`status` have no default.
    """

    name: str = ""
    title: str = ""

    def enter(self, host: Host) -> Scene:
        """Build the scene (from ``scenes/NAME.toml``) and the game state; return the scene."""
        raise NotImplementedError(f"{type(self).__name__} has no scene to enter")

    def exit(self) -> None:
        """Release what ``enter`` made; the Director has already cancelled running tweens."""

    def update(self, dt: float) -> None:
        """Per-frame work that is not a tween: poll the match, pulse marks."""

    def commands(self) -> CommandTable:
        """Every command of the scene (keys, buttons, ``shot --do``, help read it)."""
        raise NotImplementedError(f"{type(self).__name__} has no command table")

    def status(self) -> Status:
        """The title, counter and banner the HUD shows."""
        raise NotImplementedError(f"{type(self).__name__} has no status")

    def on_pick(self, node: Node | None) -> object | None:
        """A click on a scene node (or on nothing): the game action it means, or None."""
        return None

    def play(self, action: Any) -> None:
        """Play a game action for the person; raises ValueError (shown in the banner) when
        it is not legal or not the person's turn."""
        raise UnknownCommandError(f"{self.title or type(self).__name__} takes no moves")

    def on_hover(self, node: Node | None) -> None:
        """The mouse moved (over ``node`` or nothing); called on every motion."""

    def idle(self) -> bool:
        """True when the controller has nothing queued (the Director also checks tweens)."""
        return True

    def status_line(self) -> str:
        """One machine-readable line for ``gamehall shot``, e.g. ``status=won crossings=11``."""
        return ""

    def debug_panel(self) -> None:
        """Fill the overlay's game panel with imgui calls (only called while it is shown)."""

    def on_drag(
        self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int
    ) -> bool:
        """A drag on the scene (pyglet's conventions, in the game's part of the window);
        True: taken, the camera stays. By default the camera turns or pans
        (:mod:`game.engine.mouse`)."""
        return False

    def on_scroll(self, x: float, y: float, dy: float) -> bool:
        """The wheel over the scene; True: taken. By default the camera zooms."""
        return False

    def on_text(self, text: str) -> None:
        """Typed characters (a move such as ``d3``); ignored by default."""

    def typing(self) -> bool:
        """True while a text field of the scene has the keyboard: keys that type a character
        then reach only :meth:`on_text`, not the command table."""
        return False

    def on_escape(self) -> bool:
        """Esc: True when the scene used it (it ended an animation); False: the Director's
        Esc (to the menu, or quit)."""
        return False

    def toggle_help(self) -> bool:
        """F1: True when the scene showed or hid help of its own (on its sheet); False: the
        Director shows its list of the scene's commands."""
        return False

    def help_intro(self) -> list[str]:
        """The scene's own lines at the top of the Director's F1 panel (its rules)."""
        return []

    def sheet(self) -> Sheet | None:
        """A grid docked at the left (a notebook, a table); None: none."""
        return None

    def tooltip(self) -> tuple[str, Any] | None:
        """A tooltip's text and the world point it is about (None: beside the mouse); None:
        no tooltip."""
        return None

    def world_labels(self) -> list[tuple[Any, ...]]:
        """Texts at scene positions: ``(text, world point, ...)``."""
        return []

    def preparing(self) -> bool:
        """True while the scene's engine is being readied (``settle`` then waits with no
        time limit)."""
        return False
