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
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from game.cli.options import typed_options

if TYPE_CHECKING:
    from pathlib import Path

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
    from game.writer import Writer

    serving = getattr(args, "serve", None) is not None  # port 0: any free one
    remote_flags = [getattr(args, f, None) for f in ("host", "join", "watch")]
    if any(remote_flags) or serving:
        _check_remote(args, entry)
    if entry is not None and entry.console is not None and getattr(args, "console", False):
        # The typed options, checked, with the defaults for the rest: what the console reads.
        args.options = entry.options.validate(typed_options(entry.options, args))
        return entry.console(args, entry)
    # The window's files are written on a thread of their own: a frame never waits for them.
    writer = Writer(on_error=_not_saved)
    store = Store(writer=writer)
    settings, messages = store.load_settings({e.id: e.options for e in all_entries()})
    # Typed options are checked before anything opens: a bad one is exit status 2.
    sessions = make_sessions(settings, store, typed(args, entry))
    overrides = play_overrides(args, entry)
    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return 1
    remote = None
    served = None
    if serving:  # the match's server runs in this process, for as long as the window
        from game.server.background import BackgroundServer, reachable_address

        served = BackgroundServer(port=args.serve)
        try:
            port = served.start()
        except OSError as exc:
            print(f"gamehall: cannot serve on port {args.serve}: {exc}", file=sys.stderr)
            return 1
        print(f"serving on ws://0.0.0.0:{port}, database: {served.database}", flush=True)
        args.host = f"127.0.0.1:{port}"
    if remote_flags[0] or remote_flags[1] or served is not None:
        from game.hall.remote import RemoteError

        try:
            remote = open_remote(args, entry, settings, typed(args, entry))
        except RemoteError as exc:
            print(f"gamehall: {exc}", file=sys.stderr)
            if served is not None:
                served.stop()
            return 1
        if served is not None:  # the friend dials this machine, not its loopback
            remote.link.address = f"{reachable_address()}:{port}"
        print(remote.link.invitation(), flush=True)
    for m in messages:
        print(f"gamehall: {m}", file=sys.stderr)
    from game.engine.window import configure_pyglet
    from game.window_place import monitors, restore

    configure_pyglet(headless=False)  # before pyglet is asked about the monitors
    screens = monitors()
    size, position = restore(settings.window, screens)
    if args.size:
        size = args.size
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
    keeper = SettingsKeeper(director, settings, store, screens)
    director.show_fps = settings.show_fps
    director.on_quit = keeper.save
    first = entry.id if entry is not None else MENU
    if remote is not None:
        first = remote.game
        show_remote(director, remote)
    try:
        director.switch(first)
        for m in messages:  # after the switch, which clears the banner
            director.say(m, seconds=8.0)
        director.run()
    finally:
        keeper.close()
        director.close()
        writer.close()  # what the last frames saved is on the disk before the program ends
        if served is not None:
            served.stop()
    return 0


def _check_remote(args: argparse.Namespace, entry: Entry | None) -> None:
    """Refuse flags of a game on a server that do not go together (a ValueError, which the
    dispatcher prints in one line)."""
    if getattr(args, "console", False):
        raise ValueError("--console plays at this terminal: a match on a server opens the window")
    if args.host and args.join:
        raise ValueError("--host creates a match and --join takes a seat in one: not both")
    serving = getattr(args, "serve", None) is not None
    if serving and (args.host or args.join):
        raise ValueError("--serve hosts the match on this machine: not with --host or --join")
    if serving and entry is None:
        raise ValueError("--serve needs a game: gamehall play GAME --serve")
    if args.watch and not args.join:
        raise ValueError("--watch goes with --join CODE@HOST:PORT")
    if args.host and entry is None:
        raise ValueError("--host needs a game: gamehall play GAME --host HOST:PORT")
    if args.join and entry is not None:
        raise ValueError("--join takes no game: the match's server says which it is")
    if args.join:
        from game.server.address import parse_join

        try:
            parse_join(args.join)
        except ValueError as exc:
            raise ValueError(f"--join: {exc}") from None


def open_remote(
    args: argparse.Namespace,
    entry: Entry | None,
    settings: Settings,
    typed: Mapping[str, Mapping[str, Any]],
) -> Any:
    """The match on a server the flags ask for (:func:`game.hall.remote.open_match`), with
    the person's saved options under the typed ones; a session of its own keeps nothing (the
    server keeps the match)."""
    import getpass

    from game.hall.remote import open_match
    from game.server.address import parse_join
    from game.session import Session

    def session(e: Entry, options: Mapping[str, Any] | None) -> Session:
        given = typed.get(e.id) if options is None else options
        return Session(e.id, e.options, settings, None, given)

    try:
        name = getpass.getuser()[:40] or "gamehall"
    except (OSError, KeyError):
        name = "gamehall"
    if args.join:
        code, address = parse_join(args.join)
        return open_match(None, session, address, code=code, watch=args.watch, name=name)
    return open_match(entry, session, args.host, name=name)


def show_remote(director: Director, remote: Any) -> None:
    """The Director opens the game of ``remote`` on its controller (once: the game opened
    again from the menu is a local one) and shows its connection in the HUD and F3."""
    local = director.factories[remote.game]
    made = [remote.controller]
    director.register(remote.game, lambda: made.pop() if made else local())
    director.server_note = remote.link


def _not_saved(path: Path, exc: OSError) -> None:
    print(f"gamehall: could not save {path.name}: {exc}", file=sys.stderr)


class SettingsKeeper:
    """Keeps the Director's own settings in ``settings`` and the file: the overlay's side
    and fold (at once when the person changes them), the window's size and place on its
    monitor (half a second after the last resize or move, and on quit), the game played last.
    A file that cannot be written is reported on stderr; the game goes on."""

    def __init__(self, director: Director, settings: Settings, store: Store, screens: Any) -> None:
        self.director, self.settings, self.store, self.screens = director, settings, store, screens
        overlay = director.overlay
        overlay.side = settings.overlay.side
        overlay.collapsed = settings.overlay.collapsed
        overlay.on_change = self.save
        director.window.push_handlers(on_resize=self._moved, on_move=self._moved)

    def close(self) -> None:
        """Stop listening to the window and the overlay (the settings stay as they are)."""
        import pyglet

        pyglet.clock.unschedule(self._later)
        self.director.window.remove_handlers(on_resize=self._moved, on_move=self._moved)
        self.director.overlay.on_change = None

    def _moved(self, *args: Any) -> None:
        import pyglet

        pyglet.clock.unschedule(self._later)
        pyglet.clock.schedule_once(self._later, 0.5)

    def _later(self, dt: float) -> None:
        self.save()

    def save(self) -> None:
        """Note everything in the settings and write them."""
        from game.window_place import record

        director, settings = self.director, self.settings
        settings.overlay.side = director.overlay.side
        settings.overlay.collapsed = director.overlay.collapsed
        try:
            x, y = director.window.get_location()
            place: tuple[int, int] | None = (int(x), int(y))
        except Exception:  # some platforms cannot report a position; keep the old one
            place = None
        record(settings.window, director.window.get_size(), place, self.screens)
        if director.last_game in director.factories and director.last_game != MENU:
            settings.last_game = director.last_game
        settings.muted = director.sounds.muted
        try:
            self.store.save_settings(settings)
        except OSError as exc:  # a store that writes at once (the writer reports its own)
            _not_saved(self.store.settings_path, exc)


def typed(args: argparse.Namespace, entry: Entry | None) -> dict[str, dict[str, Any]]:
    """The options typed on the command line, by game id (as typed; sessions check them)."""
    if entry is None:
        return {}
    return {entry.id: typed_options(entry.options, args)}


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
    from game.settings import screenshot_dir

    director = Director(
        headless=headless,
        size=size,
        position=position,
        shadows=shadows,
        volume=volume,
        muted=muted,
        warm_games=warm_games,
        screenshot_folder=screenshot_dir,
    )
    register_games(director, sessions, overrides, last_game)
    return director


def warm_games(stop: threading.Event, pause: float) -> list[str]:
    """The window's warm-up of every registered game (:func:`game.registry.warm_up`), which
    the Director runs on its warm-up thread."""
    from game import registry

    return registry.warm_up(registry.all_entries(), stop, pause=pause)


def register_games(
    director: Director,
    sessions: Mapping[str, GameSession] | None = None,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    last_game: str = "",
) -> None:
    """Register the menu and every game on ``director`` (again: a test's own sessions).

    The menu's Continue goes to the game played last in this process, else ``last_game``.
    """
    from game.hall.menu import MenuController
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
    director.quit_question = lambda: quit_question(games, sessions)


def quit_question(games: Sequence[Entry], sessions: Mapping[str, GameSession]) -> str:
    """What quitting asks first while games are in progress ("" when none is): the one
    open and those kept, each of which Continue (or its card) resumes."""
    playing = [e.title for e in games if e.id in sessions and sessions[e.id].in_progress()]
    if not playing:
        return ""
    if len(playing) == 1:
        kept = f"Your {playing[0]} game is kept"
    elif len(playing) == 2:
        kept = f"Your {playing[0]} and {playing[1]} games are kept"
    else:
        kept = f"Your {playing[0]}, {playing[1]} and {len(playing) - 2} other games are kept"
    return f"Quit Gamehall? {kept} for Continue. Press Esc again (or close again) to quit."


def _factory(
    entry: Entry, session: GameSession, overrides: Mapping[str, Any] | None
) -> Callable[[], Any]:
    """The game's controller maker: the flags' overrides (``--seed``, ``--load``) make the
    first one a start of their own; the game opened again later (Continue) resumes the game
    kept when it was left."""
    pending = [dict(overrides or {})]

    def make() -> Any:
        given = pending.pop() if pending else {}
        return entry.controller_class()(session, **given)

    return make
