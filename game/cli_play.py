"""``gamehall play``: the window with the menu and every registered game, and the pieces the
other drawing commands share (:func:`build_director`, :func:`make_sessions`).

Each game's controller is made as ``Controller(session, **overrides)``: the session
(:class:`game.session.Session`) holds its options (saved ones, overridden by the flags typed)
and counts finished games; ``overrides`` come from the entry's ``play_overrides`` (``--load``,
``--seed``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.engine.director import Director
    from game.registry import Entry, GameSession
    from game.settings import Settings, Store

MENU = "menu"


def run_play(args: argparse.Namespace, entry: Entry | None) -> int:
    """Open the window on ``entry``'s game (None: the menu) and run until it closes.

    Everything typed is checked first (options, ``--load``), so a refused value is exit
    status 2 before a window opens or anything is saved; no display is status 1."""
    from game.engine.window import NO_DISPLAY_MESSAGE, has_display
    from game.registry import all_entries
    from game.settings import Store

    if entry is not None and entry.console is not None and getattr(args, "console", False):
        return entry.console(args, entry)
    store = Store()
    settings, messages = store.load_settings({e.id: e.options for e in all_entries()})
    # Typed options are checked before anything opens: a bad one is exit status 2.
    sessions = make_sessions(settings, store, typed(args, entry))
    overrides = play_overrides(args, entry)
    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return 1
    for m in messages:
        print(f"gamehall: {m}", file=sys.stderr)
    size = args.size or saved_size(settings.window.width, settings.window.height)
    position = None
    if settings.window.x is not None and settings.window.y is not None:
        x, y = settings.window.x, settings.window.y
        position = (_clamp(x, -_PLACE, _PLACE), _clamp(y, -_PLACE, _PLACE))
    director = build_director(
        headless=False,
        size=size,
        position=position,
        shadows=settings.shadows and not args.no_shadows,
        volume=settings.volume / 100,
        muted=settings.muted,
        sessions=sessions,
        overrides=overrides,
        last_game=settings.last_game,
    )

    def remember() -> None:
        w, h = director.window.get_size()
        settings.window.width, settings.window.height = w, h
        try:
            x, y = director.window.get_location()
            settings.window.x, settings.window.y = x, y
        except Exception:  # some platforms cannot report a position; keep the old one
            pass
        if director.last_game in sessions:
            settings.last_game = director.last_game
        settings.muted = director.sounds.muted
        try:
            store.save_settings(settings)
        except OSError as exc:
            print(f"gamehall: could not save settings: {exc}", file=sys.stderr)

    director.show_fps = settings.show_fps
    director.on_quit = remember
    try:
        director.switch(entry.id if entry is not None else MENU)
        for m in messages:  # after the switch, which clears the banner
            director.say(m, seconds=8.0)
        director.run()
    finally:
        director.close()
    return 0


def typed(args: argparse.Namespace, entry: Entry | None) -> dict[str, dict[str, Any]]:
    """The options typed on the command line, by game id (as typed; sessions check them)."""
    if entry is None:
        return {}
    return {entry.id: entry.options.from_arguments(args)}


def play_overrides(args: argparse.Namespace, entry: Entry | None) -> dict[str, dict[str, Any]]:
    """The controller keyword arguments from the entry's own flags, by game id."""
    if entry is None or entry.play_overrides is None:
        return {}
    return {entry.id: entry.play_overrides(args)}


def make_sessions(
    settings: Settings,
    store: Store | None,
    typed: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, GameSession]:
    """A session for every registered game over one ``settings``; ``store`` None writes
    nothing. Raises OptionError for a typed option the game's schema refuses."""
    from game.registry import all_entries
    from game.session import Session

    typed = typed or {}
    return {e.id: Session(e.id, e.options, settings, store, typed.get(e.id)) for e in all_entries()}


def build_director(
    *,
    headless: bool,
    size: tuple[int, int] = (1280, 720),
    position: tuple[int, int] | None = None,
    shadows: bool = True,
    volume: float = 0.8,
    muted: bool = False,
    sessions: Mapping[str, GameSession] | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    last_game: str = "",
) -> Director:
    """A Director with the menu and every registered game (see :func:`register_games`).

    ``sessions`` default: each game with its default options, nothing saved.
    """
    from game.engine.director import Director

    director = Director(
        headless=headless,
        size=size,
        position=position,
        shadows=shadows,
        volume=volume,
        muted=muted,
    )
    register_games(director, sessions, overrides, last_game)
    return director


def register_games(
    director: Director,
    sessions: Mapping[str, GameSession] | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    last_game: str = "",
) -> None:
    """Register the menu and every game on ``director`` (again: a test's own sessions).

    The menu's Continue goes to the game played last in this process, else ``last_game``.
    """
    from game.controllers.menu import MenuController
    from game.registry import all_entries
    from game.settings import Settings

    games = all_entries()
    sessions = sessions if sessions is not None else make_sessions(Settings(), None)
    overrides = overrides or {}

    def last() -> str:
        return director.last_game or last_game

    def statistics(game: str) -> Any:
        return sessions[game].statistics()

    director.register(MENU, lambda: MenuController(games, last, statistics))
    for entry in games:
        director.register(entry.id, _factory(entry, sessions[entry.id], overrides.get(entry.id)))


def saved_size(width: int, height: int) -> tuple[int, int]:
    """The saved window size, each side brought into 64..8192 pixels (what ``--size`` takes)."""
    from game.cli_args import MAX_SIDE, MIN_SIDE

    return _clamp(width, MIN_SIDE, MAX_SIDE), _clamp(height, MIN_SIDE, MAX_SIDE)


#: How far from the screen's origin a saved window place may be (X11 keeps 16-bit places).
_PLACE = 32_767


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, int(value)))


def _factory(
    entry: Entry, session: GameSession, overrides: Mapping[str, Any] | None
) -> Callable[[], Any]:
    def make() -> Any:
        return entry.controller_class()(session, **dict(overrides or {}))

    return make
