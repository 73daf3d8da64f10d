"""The menu: the games in groups, a search, and a card per game that shows it.

The games come from the registry, so a new game appears here by being registered; each
stands in its group (:attr:`~game.registry.Entry.menu_group`: a game of its own alone, the
described games by their family). The groups are a column of buttons at the right; the cards
of the group shown (or the games a search finds) stand in a grid in the room the HUD leaves,
each with a picture of its scene (no HUD) and its title under it, all inside the window at any
size. One card is selected (it glows; the title panel tells what the game is): the arrows move
the selection, through every group in turn, and Enter plays it; the mouse over a card selects
it and a click plays it. / (or a click on the search field) takes typed letters into the
search, which filters every game by title, group and summary; Backspace takes one back, Esc
clears it. C continues with the game played last (the menu opens with it selected, so Enter
does too), S shows the statistics of each game that keeps them (a registry entry's
``statistics`` view) in turn, Q or Esc quits. Scripts use the same commands: ``play:river``,
``group:Draughts``, ``find:draughts``, ``stats-of:reversi``, ``continue``, ``quit``.

In a window a game whose scene module is not imported yet opens a few frames later, the module
imported meanwhile on a thread of its own (:mod:`game.hall.menu_opening`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from game.engine.commands import Command, CommandTable
from game.engine.controller import SceneController, Sheet, Status, Tone, release
from game.engine.scene import Node, Scene, load_scene
from game.hall.menu_cards import CardLayer, ScreenPlane, hit_card
from game.hall.menu_layout import Card, columns_of, groups_of, lay_out, matches
from game.hall.menu_opening import Opening, imported
from game.resources import asset_dir, asset_path

if TYPE_CHECKING:
    from game.engine.controller import Host
    from game.registry import Entry
    from game.settings import Statistics

#: How far in front of the camera the cards stand (world units): nearer than anything of the
#: backdrop, so nothing of it crosses a card.
DEPTH = 4.0
#: What a search keeps of typed text: letters, digits, spaces and these.
SEARCH_CHARS = "-' "
SEARCH_MOST = 30


class MenuError(ValueError):
    """A menu command that names no game, or Continue with no game played yet."""


class MenuController(SceneController):
    """Lists ``entries`` by group as cards; ``last_game()`` gives the id Continue goes to (""
    or an id that is not registered: no Continue); ``statistics(game_id)`` reads the
    statistics a game's view shows (none given: nothing counted yet)."""

    name = "menu"
    title = "Gamehall"

    def __init__(
        self,
        entries: Sequence[Entry],
        last_game: Callable[[], str | None],
        statistics: Callable[[str], Statistics] | None = None,
    ) -> None:
        self.entries = list(entries)
        self.groups = groups_of(self.entries)
        self.last_game = last_game
        self.statistics = statistics
        self.shown_stats: str | None = None  # the game whose statistics the sheet shows
        self._stats_sheet: tuple[str, Sheet | None] | None = None  # read once when shown
        self.host: Host | None = None
        self.scene: Scene | None = None
        #: The selected game's id: the one Enter plays (at first the one played last).
        self.selected = self.entries[0].id if self.entries else ""
        self.query = ""  # the search's text
        self.searching = False  # whether typed letters go to the search
        self.cards: list[Card] = []  # where the cards shown stand (window units)
        self.quads: list[Any] = []  # the same cards in the scene
        self.layer: CardLayer | None = None
        self._plane: ScreenPlane | None = None
        self._laid: tuple[object, ...] = ()
        self._table = self._commands()
        #: Whether a game's scene module is imported on a thread of its own before it opens
        #: (None: in a window, not headless, where the drawing thread must not wait for it).
        self.opens_in_background: bool | None = None
        self.opening: Opening | None = None  # the game being opened, its module on the way

    # -- what the Director asks -------------------------------------------------------------

    def enter(self, host: Host) -> Scene:
        self.host = host
        self.scene = load_scene(asset_path("scenes", "menu.toml"))
        last = self._continue_entry()
        if last is not None:
            self.selected = last.id
        pictures = [_picture(e.picture) for e in self.entries]
        if getattr(host, "ctx", None) is not None:
            keep = getattr(getattr(host, "renderer", None), "keep", None)
            self.layer = CardLayer(host.ctx, pictures, keep)
            self.scene.layers.append(self.layer)
        self._table = self._commands()
        return self.scene

    def exit(self) -> None:
        release(self.layer)
        self.layer = self.host = None

    def update(self, dt: float) -> None:
        self._lay_out()
        if self.opening is not None and self.opening.done():
            game, self.opening = self.opening.game, None
            if self.host is not None:
                self.host.switch(game)

    def idle(self) -> bool:
        return True

    def commands(self) -> CommandTable:
        return self._table

    def status(self) -> Status:
        shown = self.shown()
        if self.opening is not None:
            title = next(e.title for e in self.entries if e.id == self.opening.game)
            return Status("Gamehall", f"Opening {title}…", "", Tone.INFO)
        if self.query or self.searching:
            found = f"{len(shown)} {_games(len(shown))}" if shown else "no game"
            counter = f"Search “{self.query}”: {found}; Esc clears it"
        else:
            group = self._group()
            counter = f"{group}: {len(self.groups.get(group, []))} {_games(len(shown))}"
            counter += "   Arrows choose, Enter plays, / searches"
        entry = self._selected_entry()
        about = f"{entry.title}: {entry.summary}" if entry is not None and entry in shown else ""
        return Status("Gamehall", counter, "", Tone.INFO, help=about)

    def status_line(self) -> str:
        last = self._continue_entry()
        games = ",".join(e.id for e in self.entries)
        shown = ",".join(e.id for e in self.shown())
        return (
            f"status=menu games={games} continue={last.id if last else 'none'} "
            f"selected={self.selected or 'none'} shown={shown}"
        )

    def on_pick(self, node: Node | None) -> str | None:
        """A click on a card: that game's id (handed back to :meth:`play`)."""
        index = self._card_under_mouse()
        shown = self.shown()
        return None if index is None or index >= len(shown) else shown[index].id

    def play(self, action: Any) -> None:
        """Start the game whose id is ``action``."""
        self._start(str(action))

    def on_hover(self, node: Node | None) -> None:
        """The mouse over a card selects it."""
        self._lay_out()
        index = self._card_under_mouse()
        shown = self.shown()
        if index is not None and index < len(shown) and shown[index].id != self.selected:
            self._select(shown[index].id)

    def on_text(self, text: str) -> None:
        """Typed letters go to the search while it has the keyboard."""
        if not self.searching:
            return
        kept = "".join(ch for ch in text if ch.isalnum() or ch in SEARCH_CHARS)
        if kept:
            self.find((self.query + kept)[:SEARCH_MOST])

    def typing(self) -> bool:
        """True while the search has the keyboard: keys that type go to :meth:`on_text`."""
        return self.searching

    def on_escape(self) -> bool:
        """Esc clears the search (and gives the keyboard back); with no search, it is the
        Director's (it quits)."""
        if not (self.query or self.searching):
            return False
        self.searching = False
        self.find("")
        return True

    def world_labels(self) -> list[tuple[str, np.ndarray]]:
        """Each card's title under it (one label a line)."""
        self._lay_out()
        plane = self._plane
        if plane is None:
            return []
        return [
            (line, plane.at(card.x + card.w / 2, y))
            for card in self.cards
            for line, y in zip(card.lines, card.line_y, strict=True)
        ]

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

    def debug_panel(self) -> None:
        from imgui_bundle import imgui

        imgui.text(f"{len(self.entries)} games in {len(self.groups)} groups")
        imgui.text(f"selected {self.selected or '-'}; search {self.query!r}")
        imgui.text(f"continue: {self.status_line().split()[2].partition('=')[2]}")

    # -- the person's commands ----------------------------------------------------------------

    def shown(self) -> list[Entry]:
        """The games whose cards show: the search's finds, else the selected game's group."""
        if self.query:
            return matches(self.entries, self.query)
        return list(self.groups.get(self._group(), []))

    def show_group(self, group: str) -> None:
        """Show ``group`` (its first game selected); the search is cleared."""
        if group not in self.groups:
            raise MenuError(f"no group {group!r}; the groups are: {', '.join(self.groups)}")
        self.query, self.searching = "", False
        self._select(self.groups[group][0].id)

    def find(self, text: str) -> None:
        """Search for ``text`` ("" clears the search); the first game found is selected."""
        self.query = text.strip()[:SEARCH_MOST] if text.strip() else ""
        if text.endswith(" ") and self.query:
            self.query += " "  # a space typed between words stays
        shown = self.shown()
        if shown and all(e.id != self.selected for e in shown):
            self.selected = shown[0].id
        self._table = self._commands()

    def move(self, step: str) -> None:
        """Move the selection ``left``, ``right``, ``up`` or ``down`` in the grid; past the
        grid's edge it goes on into the group before or after (not during a search)."""
        shown = self.shown()
        if not shown:
            return
        ids = [e.id for e in shown]
        at = ids.index(self.selected) if self.selected in ids else 0
        cols = max(1, columns_of(self.cards)) if len(self.cards) == len(shown) else len(shown)
        delta = {"left": -1, "right": 1, "up": -cols, "down": cols}[step]
        target = at + delta
        if step in ("up", "down") and not 0 <= target < len(ids):
            # within the grid's last, shorter row: down from above it lands on its last card
            rows = math.ceil(len(ids) / cols)
            if step == "down" and at // cols < rows - 1:
                target = len(ids) - 1
        if 0 <= target < len(ids):
            self._select(ids[target])
        elif not self.query:
            self._next_group(1 if delta > 0 else -1, first=delta > 0)
        self._table = self._commands()

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

    # -- helpers ----------------------------------------------------------------------------

    def _commands(self) -> CommandTable:
        entry = self._selected_entry()
        last = self._continue_entry()
        shown_group = "" if self.query else self._group()
        commands = [
            Command(
                "enter",
                self._play_selected,
                label=f"Play: {entry.title}" if entry is not None else "Play",
                key="ENTER|NUM_ENTER|RETURN",
                help="play the selected game (the one played last: continue it)",
                enabled=lambda: self._selected_entry() in self.shown(),
                why_disabled="no game is selected: the search finds none",
            ),
            Command(
                "continue",
                self._continue,
                label=f"Continue: {last.title}" if last else "Continue",
                key="C",
                help="play the game you played last",
                enabled=lambda: self._continue_entry() is not None,
                why_disabled="no game played yet: choose one",
            ),
            Command(
                "search",
                self._toggle_search,
                label=_search_label(self.query, self.searching),
                key="SLASH|NUM_DIVIDE",
                group="options",
                help="type to find a game by its name, group or what it is about; "
                "Backspace takes a letter back, Esc clears",
            ),
            Command(
                "erase",
                self._erase,
                key="BACKSPACE",
                group="",
                help="take the search's last letter back",
            ),
        ]
        for step, key in (("left", "LEFT"), ("right", "RIGHT"), ("up", "UP"), ("down", "DOWN")):
            commands.append(
                Command(
                    step,
                    lambda s=step: self.move(s),
                    key=key,
                    group="",
                    help=f"select the game {step} of this one (on into the next group)",
                )
            )
        commands += [
            Command(
                "previous-group",
                lambda: self._next_group(-1),
                key="PAGEUP",
                group="",
                help="show the group before",
            ),
            Command(
                "next-group",
                lambda: self._next_group(1),
                key="PAGEDOWN",
                group="",
                help="show the next group",
            ),
        ]
        for i, group in enumerate(self.groups):
            count = len(self.groups[group])
            commands.append(
                Command(
                    f"group-{i + 1}",
                    lambda g=group: self.show_group(g),
                    label=f"▸ {group}" if group == shown_group else group,
                    group="list",
                    help=f"show the group {group} ({count} {_games(count)})",
                )
            )
        commands += [
            Command(
                e.id,
                lambda game=e.id: self._start(game),
                help=f"play {e.title}: {e.summary}",
                group="",
            )
            for e in self.entries
        ]
        commands += [
            _scripted("play", self._start, self._game_id, "a game id",
                      f"play:GAME starts that game ({', '.join(e.id for e in self.entries)})"),
            _scripted("group", self.show_group, self._group_name, "a group",
                      "group:NAME shows that group of games"),
            _scripted("find", self.find, str, "text",
                      "find:TEXT shows the games the search finds for TEXT"),
            Command("quit", self._quit, label="Quit", key="Q", help="leave Gamehall"),
        ]  # fmt: skip
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
            stats_of = _scripted("stats-of", self.show_stats, self._game_id, "a game id",
                                 "stats-of:GAME shows that game's statistics")  # fmt: skip
            commands.append(stats_of)
        return CommandTable(commands)

    def _lay_out(self) -> None:
        """Place the cards shown in the room the HUD leaves (again only when it, the window
        or the cards shown changed)."""
        host, scene = self.host, self.scene
        if host is None or scene is None:
            return
        shown = self.shown()
        area = host.area_size()
        free = tuple(round(v) for v in host.free_rect())
        font = float(host.label_size())
        key = (area, free, font, tuple(e.id for e in shown))
        if key == self._laid and len(self.quads) == len(shown):
            return
        self._laid = key
        pad = font * 1.2  # the cards keep off the window's edge and the HUD's panels
        left, bottom, right, top = free
        titles = [e.title for e in shown]
        self.cards = lay_out(
            titles,
            (left + pad, bottom + pad, right - pad, top - pad),
            font,
            lambda text: host.text_width(text, font),
        )
        eye, target = scene.camera.placed()
        self._plane = ScreenPlane(eye, target, scene.camera.up, scene.camera.fov, area, DEPTH)
        self.quads = [self._plane.quad(c.x, c.y, c.w, c.h) for c in self.cards]
        if self.layer is not None:
            index = {e.id: i for i, e in enumerate(self.entries)}
            self.layer.place(self.quads, [index[e.id] for e in shown])
        self._glow()

    def _glow(self) -> None:
        if self.layer is not None:
            ids = [e.id for e in self.shown()]
            self.layer.hover = ids.index(self.selected) if self.selected in ids else None

    def _select(self, game: str) -> None:
        self.selected = game
        self._glow()
        self._table = self._commands()

    def _group(self) -> str:
        entry = self._selected_entry()
        if entry is not None:
            return entry.menu_group
        return next(iter(self.groups), "")

    def _next_group(self, step: int, first: bool = True) -> None:
        """Show the group ``step`` after the one shown (round), its first game selected (or
        its last, when ``first`` is False); the search is cleared."""
        names = list(self.groups)
        if not names:
            return
        at = names.index(self._group()) if self._group() in names else 0
        games = self.groups[names[(at + step) % len(names)]]
        self.query, self.searching = "", False
        self._select(games[0].id if first else games[-1].id)

    def _selected_entry(self) -> Entry | None:
        return next((e for e in self.entries if e.id == self.selected), None)

    def _play_selected(self) -> None:
        entry = self._selected_entry()
        if entry is None or entry not in self.shown():
            raise MenuError("no game is selected: the search finds none")
        last = self._continue_entry()
        self.searching = False
        if last is not None and last.id == entry.id:
            self._continue()
        else:
            self._start(entry.id)

    def _toggle_search(self) -> None:
        """The search takes the keyboard; again (with nothing typed), it gives it back."""
        self.searching = not self.searching or bool(self.query)
        self._table = self._commands()

    def _erase(self) -> None:
        if self.query:
            self.find(self.query[:-1])

    def _game_id(self, text: str) -> str:
        ids = [e.id for e in self.entries]
        if text not in ids:
            raise MenuError(f"no game named {text!r}; the games are: {', '.join(ids)}")
        return text

    def _group_name(self, text: str) -> str:
        for group in self.groups:
            if group.casefold() == text.strip().casefold():
                return group
        raise MenuError(f"no group {text!r}; the groups are: {', '.join(self.groups)}")

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
        if self.host is None:
            return
        background = self.opens_in_background
        if background is None:
            background = not self.host.headless
        module = next(e for e in self.entries if e.id == game).controller.partition(":")[0]
        if background and module and not imported(module):
            if self.opening is None:  # the first game asked for is the one that opens
                self.opening = Opening(game, module)
            return
        self.host.switch(game)

    def _quit(self) -> None:
        if self.host is not None:
            self.host.quit()

    def _card_under_mouse(self) -> int | None:
        ray = getattr(self.host, "ray", None)
        if ray is None or not self.quads:
            return None
        return hit_card(self.quads, ray[0], ray[1])


def _scripted(
    name: str, run: Callable[..., Any], parse: Callable[[str], Any], argument: str, help: str
) -> Command:
    """A command with an argument (``NAME:ARGUMENT``) for scripts and ``shot --do``: no
    button, no key."""
    return Command(name, run, group="", parse=parse, argument=argument, help=help)


def _games(count: int) -> str:
    return "game" if count == 1 else "games"


def _search_label(query: str, searching: bool) -> str:
    """The search field's text: what is typed, and a caret while it has the keyboard."""
    if searching:
        return f"Search: {query}▏"
    return f"Search: {query}" if query else "Search…"


def _picture(name: str) -> Path | None:
    """The file of an entry's ``picture`` (``scenes/cards/river.png``: in a checkout under the
    top of the repository, in an installed wheel beside the other data), or None."""
    if not name:
        return None
    path = asset_dir("scenes").parent / name
    return path if path.is_file() else None
