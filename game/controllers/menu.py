"""The menu: a card per registered game (its picture, title and key), and Continue.

The games come from the registry, so a new game appears here by being registered; the cards
stand in rows (a dozen games: three rows of four), so they fit any window. Keys: 1 to 9 and 0
start the first ten games, Enter or C continues with the game played last, S shows the
statistics of each game that keeps them (a registry entry's ``statistics`` view) in turn, Q
or Esc quits. A click on a card starts its game; the mouse over a card tells what the game
is. Scripts use the same commands: ``play:river``, ``stats-of:reversi``, ``continue``,
``quit``; F1 lists every game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.controllers.menu_cards import LABEL, CardLayer, CardQuad, card_grid, hit_card
from game.engine.commands import Command, CommandTable
from game.engine.controller import Sheet, Status, Tone
from game.engine.scene import Node, Scene, load_scene, quat_from_axis_angle
from game.resources import asset_dir, asset_path

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.registry import Entry
    from game.settings import Statistics


#: The narrowest window shape the cards are laid out for without stepping the camera back
#: (wider windows take more cards a row, narrower ones more rows).
NARROW = 1.0
#: A title's line (its height and the gaps above and below it), in the labels' font size.
TITLE_LINE = 2.1
#: A title character's width, in the labels' font size (DejaVu Sans averages about 0.6).
TITLE_CHAR = 0.62


class MenuError(ValueError):
    """A menu command that names no game, or Continue with no game played yet."""


class MenuController:
    """Lists ``entries`` as cards; ``last_game()`` gives the id Continue goes to ("" or an
    id that is not registered: no Continue); ``statistics(game_id)`` reads the statistics a
    game's view shows (none given: nothing counted yet)."""

    name = "menu"
    title = "Gamehall"

    def __init__(
        self,
        entries: Sequence[Entry],
        last_game: Callable[[], str | None],
        statistics: Callable[[str], Statistics] | None = None,
    ) -> None:
        self.entries = list(entries)
        self.last_game = last_game
        self.statistics = statistics
        self.shown_stats: str | None = None  # the game whose statistics the sheet shows
        self._stats_sheet: tuple[str, Sheet | None] | None = None  # read once when shown
        self.host: Host | None = None
        self.scene: Scene | None = None
        self.quads: list[CardQuad] = []
        self.layer: CardLayer | None = None
        self._time = 0.0
        self._eye = np.zeros(3, dtype="f4")
        self._shape: tuple[int, int] = (0, 0)  # the window size the cards are laid out for
        self._table = self._commands()

    # -- what the Director asks -------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "menu.toml"))
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
        """Lay the cards out for the window's shape: as many a row as makes them largest in
        the width the camera sees at the cards (the vertical field of view is fixed); in a
        window narrower than :data:`NARROW` the camera steps back."""
        if self.scene is None:
            return
        width, height = self.host.area_size() if self.host is not None else (16, 9)
        shape = width / max(1, height)
        if (width, height) == self._shape and self.quads:
            return
        self._shape = (width, height)
        camera = self.scene.camera
        widen = max(1.0, NARROW / shape)
        camera.eye = (camera.target + (self._eye - camera.target) * widen).astype("f4")
        center = self.scene.anchor("cards")
        distance = float(np.linalg.norm(camera.eye - center))
        seen = 2.0 * distance * math.tan(math.radians(camera.fov) / 2.0) * shape
        # The longest title, in world units at the cards: the cards of a row stand at least
        # that far apart, so that titles side by side never meet.
        from game.engine.hud import font_size

        scale = getattr(self.host, "ui_scale", lambda: 1.0)()
        label_px = max(9, round(font_size((width, height), scale) * 0.85))
        longest = max((len(t) for t, _ in self._titles()), default=0)
        title = longest * TITLE_CHAR * label_px * seen / max(1, width)
        # The band under each row holds a line of title: at least the font's line height
        # (in world units at the cards), so that a title never touches the next row's card.
        line = TITLE_LINE * label_px * seen / max(1, width)
        label = LABEL
        for _ in range(3):  # a taller band makes the cards smaller: settle in a few rounds
            self.quads = card_grid(
                len(self.entries),
                center,
                min(self.scene.number("cards_width"), 0.9 * seen),
                self.scene.number("cards_height"),
                camera.eye,
                label=label,
                min_pitch=title,
            )
            card_height = 2.0 * float(np.linalg.norm(self.quads[0].up)) if self.quads else 1.0
            needed = line / card_height
            if needed <= label:
                break
            label = needed
        if self.layer is not None:
            self.layer.place(self.quads)

    def commands(self) -> CommandTable:
        return self._table

    def status(self) -> Status:
        hovered = self.layer.hover if self.layer is not None else None
        last = self._continue_entry()
        if hovered is not None and 0 <= hovered < len(self.entries):
            entry = self.entries[hovered]
            banner = f"{entry.title}: {entry.summary}"
        elif last is not None:
            banner = f"Enter: continue with {last.title}"
        else:
            banner = "Choose a game"
        keyed = min(len(self.entries), 10)
        keys = {1: "1", 10: "1-9, 0"}.get(keyed, f"1-{keyed}")
        return Status("Gamehall", f"Click a card or press {keys} to play", banner, Tone.INFO)

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
        """Each card's key (the first ten have one) and title, just under the card."""
        return [
            (text, q.center - q.up * 1.3)
            for (text, _), q in zip(self._titles(), self.quads, strict=False)
        ]

    def _titles(self) -> list[tuple[str, Entry]]:
        """Each card's title with its key (the first ten have one)."""
        out = []
        for i, e in enumerate(self.entries, start=1):
            key = _key_of(i)
            out.append((f"{key}  {e.title}" if key else e.title, e))
        return out

    def sheet(self) -> Sheet | None:
        """The statistics of the game chosen with S, docked at the left (None: none)."""
        if self.shown_stats is None:
            return None
        if self._stats_sheet is None or self._stats_sheet[0] != self.shown_stats:
            from game.settings import Statistics

            entry = next(e for e in self.entries if e.id == self.shown_stats)
            stats = self.statistics(entry.id) if self.statistics is not None else Statistics()
            self._stats_sheet = (entry.id, entry.statistics_sheet(stats))
        return self._stats_sheet[1]

    def show_stats(self, game: str | None = None) -> None:
        """The statistics of ``game``, or (None) of the next game that keeps them, after the
        last of them none."""
        kept = [e.id for e in self.entries if e.statistics]
        if game is not None:
            if game not in kept:
                raise MenuError(f"{game!r} keeps no statistics; these do: {', '.join(kept)}")
            self.shown_stats = None if self.shown_stats == game else game
        elif self.shown_stats in kept:
            following = kept.index(self.shown_stats) + 1
            self.shown_stats = kept[following] if following < len(kept) else None
        else:
            self.shown_stats = kept[0] if kept else None
        self._stats_sheet = None
        self._table = self._commands()

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        imgui.text(f"{len(self.entries)} games; continue: {self.status_line().split()[-1]}")

    # -- helpers ----------------------------------------------------------------------------

    def _commands(self) -> CommandTable:
        # The cards are the games' buttons: the bar keeps Continue and Quit.
        commands = [
            Command(
                e.id,
                lambda game=e.id: self._start(game),
                label=e.title,
                key=f"_{_key_of(i)}|NUM_{_key_of(i)}" if _key_of(i) else "",
                help=f"play {e.title}: {e.summary}",
                group="",
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
        kept = [e for e in self.entries if e.statistics]
        if kept:
            shown = next((e.title for e in kept if e.id == self.shown_stats), "")
            following = ", ".join(e.title for e in kept)
            commands.insert(
                -1,
                Command(
                    "stats",
                    self.show_stats,
                    label=f"Statistics: {shown}" if shown else "Statistics",
                    key="S",
                    help=f"your results, game by game ({following}); again: the next, then none",
                ),
            )
            commands.append(
                Command(
                    "stats-of",
                    self.show_stats,
                    group="",
                    parse=self._game_id,
                    argument="a game id",
                    help="stats-of:GAME shows that game's statistics",
                )
            )
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


def _key_of(number: int) -> str:
    """The key of the ``number``-th card (from 1): 1 to 9, then 0; "" after the tenth."""
    return str(number % 10) if number <= 10 else ""


def _picture(name: str) -> Path | None:
    """The file of an entry's ``picture`` (``docs/river.png``: in a checkout it is at the top
    of the repository, in an installed wheel beside the other data), or None."""
    if not name:
        return None
    path = asset_dir("scenes").parent / name
    return path if path.is_file() else None
