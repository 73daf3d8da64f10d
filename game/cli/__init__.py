"""The ``gamehall`` command: ``play [GAME]``, ``shot GAME``, ``solve GAME``, ``bench GAME``
(or ``bench render``), ``tournament GAME``, ``rules perft|check|list`` (described games), and
the game server's ``serve``, ``bot`` and ``status``.

This module only dispatches: the game is looked up in the registry (:mod:`game.registry`),
its options become flags (one schema checks the flags, the settings file and the window's
buttons), and the command runs the game's hook (``solve``, ``bench``), the generic tournament
runner, or the window (:mod:`game.cli.play`, :mod:`game.cli.shot`, :mod:`game.cli.bench`).
Every argument is checked before any work starts: the parser's types
(:mod:`game.arguments`) refuse sizes, counts and times out of range, the schemas refuse
options, and each command checks its files and names before it builds a window, searches or
plays. A game without the command asked for, an unknown game and a refused value are one line
on stderr and exit status 2; Ctrl-C is status 130; ``main`` never raises.

Commands that draw import pyglet and moderngl; the others do not, so they start fast on
machines without GL. Results go to stdout, problems to stderr as one line.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from game.cli.lines import shorten
from game.errors import GamehallError, NoDisplayError, missing_library

if TYPE_CHECKING:
    from game.hooks import Said
    from game.registry import Entry

log = logging.getLogger("gamehall")

COMMANDS = ("play", "shot", "solve", "bench", "tournament", "rules", "serve", "bot", "status")
#: The commands that name no game: the server and its clients.
SERVER_COMMANDS = ("serve", "bot", "status")
#: ``play``'s flags for a match on a server: the flag, what it takes, its help.
SERVER_FLAGS = (
    ("--host", "HOST:PORT", "play GAME on a gamehall server: create a match there, show its code"),
    ("--join", "CODE@HOST:PORT", "take a seat in a match on a server (no GAME: the server says)"),
)
#: ``bench render`` measures every scene's frame time; it names no game.
RENDER = "render"
#: ``shot menu`` pictures the menu.
MENU = "menu"


class CommandLineError(GamehallError, ValueError):
    """A command the named game does not have, or a game that is not registered."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``gamehall`` with ``argv`` (default: the process's); returns the exit status.

    Every argument is checked before any work starts; a refused one is one line on stderr and
    status 2. Ctrl-C ends a command with status 130. Nothing raises out of here: an error
    that is a bug is one line too (``-v`` logs its traceback).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    command = "gamehall"
    try:
        try:
            args = parse(argv)
        except SystemExit as exc:  # argparse: --help (0) or a malformed flag (2, said)
            return exc.code if isinstance(exc.code, int) else 2
        except CommandLineError as exc:
            print(f"gamehall: {shorten(str(exc))}", file=sys.stderr)
            return 2
        command = f"gamehall {args.command}" if args.command else command
        logging.basicConfig(
            level=logging.INFO if args.verbose else logging.WARNING,
            format="%(levelname)s %(name)s: %(message)s",
        )
        if not args.command:
            print(
                f"gamehall: name a command: {', '.join(COMMANDS)} (see gamehall --help)",
                file=sys.stderr,
            )
            return 2
        return _run_reporting(args, command)
    except KeyboardInterrupt:
        print(f"{command}: stopped", file=sys.stderr)
        return 130


def _run_reporting(args: argparse.Namespace, command: str) -> int:
    """:func:`run`, with what it raises turned into one line on stderr and an exit status."""
    try:
        return int(run(args))
    except NoDisplayError as exc:
        print(shorten(str(exc)), file=sys.stderr)
        return 1
    except GamehallError as exc:
        print(f"{command}: {shorten(str(exc))}", file=sys.stderr)
        return 2
    except ValueError as exc:  # bad options: our ValueError subclasses name the bad value
        print(f"{command}: {shorten(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file we were asked to write or read: say which and why
        where = f": {exc.filename}" if exc.filename else ""
        print(f"{command}: {shorten(f'{exc.strerror or exc}{where}')}", file=sys.stderr)
        return 2
    except ImportError as exc:  # a system library pyglet needs (FreeType, EGL) is missing
        line = missing_library(exc)
        if line is None:
            return _internal_error(args, command, exc)
        print(f"{command}: {line}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:
        return _internal_error(args, command, exc)


def _internal_error(args: argparse.Namespace, command: str, exc: Exception) -> int:
    """A bug: one line, the traceback only with -v; status 1."""
    if args.verbose:
        log.exception("%s failed", command)
    said = shorten(f"{type(exc).__name__}: {exc}")
    print(f"{command}: internal error: {said} (-v shows where)", file=sys.stderr)
    return 1


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments, with the named game's flags; ``args.entry`` is its registry entry (None
    for ``play`` without a game, ``shot menu`` and ``bench render``).

    Two passes: the first finds the command and the game, the second parses with that game's
    flags. Raises :class:`CommandLineError` for an unknown game or a game without the
    command; argparse raises SystemExit (0 for ``--help``, 2 with one line for a malformed
    or out-of-range flag).
    """
    short = _with_play(argv)
    first, _ = _parser(None, None, help=False).parse_known_args(short)
    command, game = first.command, getattr(first, "game", None)
    asks_help = any(a in ("-h", "--help") for a in short)
    variant = getattr(first, "variant", 0)
    entry = _entry(command, game, variant) if command and not (game is None and asks_help) else None
    # Help and refusals name the command as it was typed: ``gamehall clue`` or ``gamehall play
    # clue``.
    typed = "gamehall" if short != argv else f"gamehall {command}"
    parser = _parser(command, entry, prog=f"{typed} {game}" if entry is not None else None)
    argv = short
    args, extra = parser.parse_known_args(argv)
    # A Reversi board text starts with "-" when A1 is empty, which argparse takes for an
    # option: a hook's one positional takes it as the text it is.
    slot = getattr(args, "_positional", None)
    if extra and slot and getattr(args, slot, None) is None:
        setattr(args, slot, extra[0])
        extra = extra[1:]
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.entry = entry
    return args


def run(args: argparse.Namespace) -> int:
    """Run a parsed command line; returns the exit status."""
    entry: Entry | None = args.entry
    if args.command == "play":
        from game.cli.play import run_play

        return run_play(args, entry)
    if args.command == "shot":
        from game.cli.shot import run_shot

        return run_shot(args, entry)
    if args.command == "rules":
        from game.cli.rules import run_rules

        return run_rules(args)
    if args.command == "serve":
        from game.cli.serve import run_serve

        return run_serve(args)
    if args.command in ("bot", "status"):
        from game.cli import bot as bot_cli
        from game.cli import status as status_cli

        return int((bot_cli if args.command == "bot" else status_cli).run(args))
    if args.command == "bench" and entry is None:
        from game.cli.bench import run_render

        return run_render(args)
    assert entry is not None
    if args.command == "tournament":
        from game.cli import tournament as tournament_cli

        return tournament_cli.run(args, entry)
    if args.command == "solve":
        # The typed options, checked, with the defaults for the rest: what hooks read.
        from game.cli.options import typed_options

        args.options = entry.options.validate(typed_options(entry.options, args))
    return say(entry.hooks[args.command].run(args, entry), f"gamehall {args.command} {entry.id}")


def say(said: Iterable[Said], where: str) -> int:
    """Print what a game's hook yields as it comes (results on stdout, notes on stderr, a
    warning after ``where``) and return the exit status: 0, or 2 with the line of a
    :class:`~game.registry.Refusal`."""
    from game.hooks import Note, Refusal

    try:
        for item in said:
            if isinstance(item, Note):
                text = f"{where}: {item.text}" if item.warning else item.text
                print(text, file=sys.stderr, flush=True)
            else:
                print(item, flush=True)
    except Refusal as exc:
        print(f"{where}: {shorten(str(exc))}", file=sys.stderr)
        return 2
    return 0


# -- the parser ----------------------------------------------------------------------------


def _entry(command: str, game: str | None, variant: int = 0) -> Entry | None:
    """The registry entry ``game`` names for ``command`` (``variant``: a ``.zrf`` file's game);
    raises CommandLineError."""
    from game.registry import all_entries

    if command == "rules" or command in SERVER_COMMANDS:
        return None
    if game is None:
        if command == "play":
            return None  # the menu
        raise CommandLineError(f"{command} needs a game: {', '.join(_ids(command))}")
    if (command == "bench" and game == RENDER) or (command in ("play", "shot") and game == MENU):
        return None
    known = {e.id: e for e in all_entries()}
    if game not in known and command in ("play", "shot", "tournament") and _is_file(game):
        return _described(game, variant)
    if variant:
        raise CommandLineError(f"--variant: {game} is not a .zrf file (only those have variants)")
    if game not in known:
        raise CommandLineError(f"no game named {game!r}; the games are: {', '.join(known)}")
    entry = known[game]
    if command in ("solve", "bench") and command not in entry.hooks:
        raise CommandLineError(
            f"{command}: {entry.title} ({game}) has no {command} command; "
            f"the games with one are: {', '.join(_ids(command)) or 'none'}"
        )
    return entry


def _is_file(game: str) -> bool:
    """Whether ``game`` names a description file (``.txt``, ``.zrf``, or any existing file)."""
    from pathlib import Path

    try:
        return game.endswith((".txt", ".zrf")) or Path(game).is_file()
    except (OSError, ValueError):
        return False


def _described(path: str, variant: int = 0) -> Entry:
    """The entry for a user's description file (game ``variant`` of a ``.zrf`` file);
    CommandLineError says what is wrong with it (the file, line and column) or why it cannot
    be read."""
    from pathlib import Path

    from game import registry
    from game.games.rules.entry import entry_for_file

    try:
        entry = entry_for_file(Path(path), variant)
        # The window and the runner find it by its id (the file's name) like the rest; a
        # file of that name read before in this process gives way.
        registry.add(entry, replace=True)
    except OSError as exc:
        raise CommandLineError(f"{path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # the description's own error names file, line and column
        raise CommandLineError(str(exc)) from None
    return entry


def _ids(command: str) -> list[str]:
    """The games ``command`` takes (``bench`` also takes ``render``)."""
    from game.registry import all_entries

    if command in ("solve", "bench"):
        ids = [e.id for e in all_entries() if command in e.hooks]
        return [*ids, RENDER] if command == "bench" else ids
    return [e.id for e in all_entries()]


class _Parser(argparse.ArgumentParser):
    """argparse with its refusals as one line (``gamehall solve: argument --time: ...``)
    instead of a usage block: the same shape as every other refusal."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {shorten(message)} (see {self.prog} --help)\n")


def _parser(
    command: str | None, entry: Entry | None, *, help: bool = True, prog: str | None = None
) -> argparse.ArgumentParser:
    """The whole parser; the subparser of ``command`` gets ``entry``'s flags, and ``prog``
    (``gamehall play clue``) as its name in help and refusals. ``help`` False: no -h anywhere
    (the first pass must not print help without the game's flags)."""
    parser = _Parser(
        prog="gamehall", description="Thinking games in a real 3D window.", add_help=help
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command")
    for name, about in (
        ("play", "open the window and play (no game: the menu)"),
        ("shot", "render a scene headless after scripted commands and moves"),
        ("solve", "solve a position or a setting of a game"),
        ("bench", "measure; prints one line per figure"),
        ("tournament", "computer against computer over shared seeds; win rates last"),
        ("rules", "described games: perft GAME DEPTH, check FILE, list, variants FILE.zrf"),
        ("serve", "host matches of every game over WebSocket JSON until stopped"),
        ("bot", "play a seat of a server's match with an agent (--join CODE@HOST:PORT)"),
        ("status", "a server's matches, seats, connections and latency"),
    ):
        p = sub.add_parser(
            name, help=about, add_help=help, conflict_handler="resolve", formatter_class=_Wrap
        )
        _common(p, name, help)
        if name != command or not help:
            continue
        if entry is not None:
            _game_flags(p, name, entry)
            _name_the_game(p, name, entry, prog)
        elif name == "tournament":
            from game.cli import tournament as tournament_cli

            tournament_cli.add_arguments(p)  # the flags every game's tournament has
        if entry is None and name not in SERVER_COMMANDS:
            p.epilog = _games_help(name)
    return parser


class _Wrap(argparse.HelpFormatter):
    """argparse's help, wrapped at spaces only: a game's id (``english-draughts``) stays whole."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(
            " ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
            break_on_hyphens=False,
        )  # fmt: skip


class _Version(argparse.Action):
    """``--version``: the installed package's version (read only when asked for)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"gamehall {version()}")
        parser.exit()


def version() -> str:
    """The version of the installed ``gamehall`` package (``unknown`` when it runs from a
    source folder that was never installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("gamehall")
    except PackageNotFoundError:
        return "unknown (not installed; run from a source folder)"


def _name_the_game(
    p: argparse.ArgumentParser, command: str, entry: Entry, prog: str | None
) -> None:
    """Help for a named game: the command as typed in the usage line (without the GAME
    slot it fills), the game's summary and what the command does for it."""
    if prog:
        p.prog = prog
    for action in p._actions:
        if action.dest == "game":
            action.help = argparse.SUPPRESS
    hook = entry.hooks.get(command)
    does = f" {command}: {hook.help}." if hook else ""
    p.description = f"{entry.title}: {entry.summary}{does}"


def _games_help(command: str) -> str:
    """The games ``command`` takes, and where a game's own flags are listed."""
    if command == "rules":
        from game.logic.rules.catalogue import shipped

        return (
            f"GAME: a described game ({', '.join(shipped())}) or a description file "
            "(FILE.txt, or a Zillions file FILE.zrf: --variant N picks its game). "
            "gamehall rules list names each with its title."
        )
    games = ", ".join(_ids(command))
    files = (
        " or a description file (FILE.txt, or FILE.zrf with --variant N)"
        if command in ("play", "shot", "tournament")
        else ""
    )
    menu = f", {MENU}" if command in ("play", "shot") else ""
    return (
        f"GAME: one of {games}{menu}{files}. gamehall {command} GAME --help lists that "
        "game's own flags (its options and what the command adds for it)."
    )


#: ``--do``'s help: how a list is split, and what an item may be.
DO_HELP = (
    "commands run in order, separated by commas: the scene's commands (hint, undo, d3, "
    "country:12 ...; F1 in the window lists them), move:TEXT for a move in the game's "
    "notation, wait (a second passes) and overlay. A comma followed by a digit stays in its "
    "item (move:attack 3,5>12), so no item needs quoting; a file name in an item must not "
    "hold a comma"
)


def _common(p: argparse.ArgumentParser, command: str, full: bool) -> None:
    """The flags a command has whatever the game (``full`` False: the first pass, which
    requires nothing, so that ``--help`` reaches the second)."""
    from game.arguments import MAX_FRAMES, scale, size, whole
    from game.server.protocol import DEFAULT_PORT

    sizes = "WxH, 64..8192 pixels each way"
    if command == "play":
        p.add_argument("game", nargs="?", metavar="GAME", help="start in this game (or menu)")
        p.add_argument("--size", type=size, help=f"window size, e.g. 1280x720 ({sizes})")
        p.add_argument("--no-shadows", action="store_true", help="draw without shadows")
        for flag, shown, about in SERVER_FLAGS:
            p.add_argument(flag, metavar=shown, help=about)
        p.add_argument("--watch", action="store_true", help="with --join: watch the match")
        p.add_argument(
            "--serve", nargs="?", const=DEFAULT_PORT, type=whole(0, 65535), metavar="PORT",
            help=f"host GAME's match from this machine: a server in the window's process, on "
            f"every network, port PORT (default {DEFAULT_PORT}; 0: any free port, printed); "
            "a friend joins with the printed line",
        )  # fmt: skip
        _variant_flag(p)
    elif command == "shot":
        p.add_argument("game", nargs=None if full else "?", metavar="GAME", help="a game, or menu")
        p.add_argument("--out", required=full, type=_path, help="PNG file to write")
        p.add_argument("--size", type=size, default="1280x720", help=f"picture size ({sizes})")
        p.add_argument("--do", default="", metavar="A,B,...", help=DO_HELP)
        p.add_argument("--no-shadows", action="store_true", help="draw without shadows")
        p.add_argument(
            "--scale", type=scale, default=1.0,
            help="draw the HUD as for a screen this many times denser (1..4; 2: HiDPI)",
        )  # fmt: skip
        _variant_flag(p)
    elif command == "bench":
        p.add_argument(
            "game", nargs=None if full else "?", metavar="GAME",
            help=f"a game, or {RENDER} for frame times",
        )  # fmt: skip
        p.add_argument("--scene", help=f"{RENDER}: one scene (default: all)")
        p.add_argument(
            "--frames", type=whole(1, MAX_FRAMES), default=120,
            help=f"{RENDER}: frames a scene, 1..{MAX_FRAMES} (default 120)",
        )  # fmt: skip
        p.add_argument("--size", type=size, default="1280x720", help=f"{RENDER}: frame size")
        p.add_argument("--no-shadows", action="store_true", help=f"{RENDER}: no shadows")
    elif command == "rules":
        from game.cli.rules import add_arguments

        add_arguments(p, full)
    elif command == "serve":
        from game.cli.serve import add_arguments as serve_arguments

        serve_arguments(p)
    elif command in ("bot", "status"):
        from game.cli import bot as bot_cli
        from game.cli import status as status_cli

        (bot_cli if command == "bot" else status_cli).add_arguments(p, full)
    else:
        p.add_argument("game", nargs=None if full else "?", metavar="GAME", help="a game")
        if command == "tournament":
            _variant_flag(p)


def _variant_flag(p: argparse.ArgumentParser) -> None:
    from game.arguments import whole
    from game.cli.rules import MAX_VARIANT

    p.add_argument(
        "--variant", type=whole(0, MAX_VARIANT), default=0, metavar="N",
        help="a .zrf file's game N, from 0 in file order (gamehall rules variants FILE)",
    )  # fmt: skip


def _game_flags(p: argparse.ArgumentParser, command: str, entry: Entry) -> None:
    """``entry``'s flags for ``command``: its options, then what the command adds."""
    if command == "tournament":
        from game.cli import tournament as tournament_cli

        tournament_cli.add_arguments(p, entry)
        return
    if command == "play" and entry.console is not None:
        p.add_argument("--console", action="store_true", help="play in the terminal")
    if command in ("play", "shot") and entry.play_arguments is not None:
        entry.play_arguments(p)
    elif command in entry.hooks:
        before = {a.dest for a in p._actions if not a.option_strings}
        entry.hooks[command].add_arguments(p)
        new = [a.dest for a in p._actions if not a.option_strings and a.dest not in before]
        p.set_defaults(_positional=new[0] if len(new) == 1 else None)
    if command != "bench":  # last: an option never hides the command's own flags
        from game.cli.options import add_option_flags

        add_option_flags(p.add_argument_group(f"{entry.title} options"), entry.options)


def _with_play(argv: list[str]) -> list[str]:
    """``gamehall GAME ...`` is short for ``gamehall play GAME ...``."""
    from game.registry import all_entries

    words = [i for i, a in enumerate(argv) if not a.startswith("-")]
    if words and argv[words[0]] in {e.id for e in all_entries()}:
        return [*argv[: words[0]], "play", *argv[words[0] :]]
    return argv


def _path(text: str) -> Any:
    from pathlib import Path

    return Path(text)
