"""``gamehall tournament GAME``: agents against agents for any registered game.

    gamehall tournament grab --agents strategic,basic,basic,basic --games 200 --jobs 4
    gamehall tournament reversi --agents expert,classic-beginner --games 20 --time 0.1
    gamehall tournament grab --agents strategic,basic --countries 60 --scheduler tcp://host:8786

One agent name per seat (a name may repeat); seats rotate over shared seeds
(:mod:`game.logic.tournament`). The game's options are flags from its schema
(``--countries 60``). ``--time`` is each choice's budget in seconds (default: each agent's
own). ``--jobs`` plays games at once in local processes; ``--scheduler ADDRESS`` sends them to
a running Dask cluster instead (the ``gamehall[cluster]`` extra); its workers need the game
and any user robots installed. A progress bar goes to stderr when it is a terminal; results
go to stdout, ``winrates=...`` last. Bad input exits with status 2 and one line on stderr.

The old spellings still work: ``--robots a,b`` and ``--a A --b B`` for ``--agents``,
``--time-per-move`` for ``--time``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, Final

from game.logic.game import Limits
from game.logic.quoting import excerpt
from game.logic.tournament import GameFailedError, GameRecord, run_tournament, work_units

if TYPE_CHECKING:
    import concurrent.futures

    from game.registry import Entry

__all__ = ["add_arguments", "agent_names", "limits", "progress_bar", "run"]

HELP = "computer against computer, seats rotated; prints each agent's results, winrates last"


class _Refused(ValueError):
    """Input the command refuses before any game is played."""


def add_arguments(parser: argparse.ArgumentParser, entry: Entry | None = None) -> None:
    """The command's flags; with ``entry``, its game's option flags too."""
    from game.cli_args import MAX_SECONDS, seconds, whole

    names = "e.g. " + ",".join(list(entry.agents())[:2]) if entry is not None else "a,b"
    parser.add_argument("--agents", help=f"one agent name per seat, comma-separated ({names})")
    counts = {flag: (least, most) for flag, _, least, most in COUNTS}
    for flag, default, about in (
        ("--games", 10, "games to play"),
        ("--jobs", 1, "games at once, in local processes"),
        ("--seed", 1, "seed of the starts"),
        ("--max-steps", None, "steps after which a game is stopped"),
    ):
        least, most = counts[flag]
        said = f" (default {default})" if default is not None else ""
        parser.add_argument(
            flag, type=whole(least, most), default=default, metavar="N",
            help=f"{about}, {least}..{most}{said}",
        )  # fmt: skip
    parser.add_argument(
        "--time", type=seconds, default=None, metavar="S",
        help=f"seconds per choice, above 0 and at most {MAX_SECONDS:g} (default: each "
        "agent's own)",
    )  # fmt: skip
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="run the games on this Dask scheduler"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the statistics as JSON (standings, results per seat, lengths, branching)",
    )
    if entry is not None:
        entry.options.add_arguments(parser)
    # The spellings of the first tournaments, where the game's own flags leave them free (a
    # game option of that name, MasterGrab's --robots, holds the same text).
    for flag in ("--robots", "--a", "--b", "--time-per-move"):
        with suppress(argparse.ArgumentError):
            parser.add_argument(flag, help=argparse.SUPPRESS)


def run(args: argparse.Namespace, entry: Entry | None = None) -> int:
    """Play the tournament ``args`` describe and print its lines; returns the exit status."""
    if entry is None:
        from game import registry

        entry = registry.get(args.game)
    from game.cli import shorten

    where = f"gamehall tournament {entry.id}"
    try:
        # Every argument is checked before the first game (or a cluster) is started.
        agents = agent_names(args)
        options = entry.options.validate(entry.options.from_arguments(args))
        budget = limits(args)
        _check_counts(args)
        work_units(
            entry, agents, args.games, options=options, seed=args.seed, limits=budget,
            max_steps=args.max_steps,
        )  # fmt: skip
        _check_address(args.scheduler)
        with _executor(args.scheduler) as executor, progress_bar() as progress:
            result = run_tournament(
                entry,
                agents,
                args.games,
                options=options,
                seed=args.seed,
                limits=budget,
                executor=executor,
                jobs=args.jobs,
                progress=progress,
                max_steps=args.max_steps,
            )
    except GameFailedError as error:
        print(f"{where}: {shorten(str(error))}", file=sys.stderr)
        return 1
    except ValueError as error:  # refused input: an agent, an option, a limit
        print(f"{where}: {shorten(str(error))}", file=sys.stderr)
        return 2
    except OSError as error:  # the scheduler named by --scheduler cannot be reached
        print(f"{where}: {shorten(str(error))}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        import json

        print(json.dumps(result.statistics(), indent=2))
        return 0
    for line in result.lines():
        print(line)
    return 0


def agent_names(args: argparse.Namespace) -> list[str]:
    """The agent per seat from ``--agents`` (or ``--robots``, or ``--a`` and ``--b``)."""
    text = args.agents or getattr(args, "robots", None)
    first, second = getattr(args, "a", None), getattr(args, "b", None)
    if text is None and (first or second):
        text = f"{first or ''},{second or ''}"
    names = [name.strip() for name in (text or "").split(",")]
    if not any(names):
        raise _Refused("name the agents with --agents a,b (one per seat)")
    if not all(names):
        raise _Refused(f"an empty agent name in {excerpt(text or '')}")
    return names


def limits(args: argparse.Namespace) -> Limits:
    """Each choice's budget from ``--time`` (or ``--time-per-move``); none: the agents' own."""
    from game.cli_args import seconds as read_seconds

    seconds = args.time if args.time is not None else getattr(args, "time_per_move", None)
    if isinstance(seconds, str):
        try:
            seconds = read_seconds(seconds)
        except argparse.ArgumentTypeError as exc:
            raise _Refused(f"--time-per-move {exc}") from None
    return Limits(time=seconds)


#: The ranges of the counting flags: (flag, attribute, least, most).
COUNTS: Final = (
    ("--games", "games", 1, 100_000),
    ("--jobs", "jobs", 1, 256),
    ("--seed", "seed", 0, 2**63 - 1),
    ("--max-steps", "max_steps", 1, 10_000_000),
)


def _check_counts(args: argparse.Namespace) -> None:
    """Refuse a count out of its range in :data:`COUNTS` (None: the default, allowed)."""
    for flag, name, least, most in COUNTS:
        value = getattr(args, name, None)
        if value is not None and not least <= value <= most:
            raise _Refused(f"{flag} must be a whole number from {least} to {most}, not {value}")


def _check_address(address: str | None) -> None:
    """Refuse a ``--scheduler`` that is neither ``PROTOCOL://WHERE`` (``tcp://host:8786``,
    ``inproc://...``) nor ``HOST:PORT``."""
    if address is None:
        return
    with_protocol = re.fullmatch(r"[a-z][a-z0-9+.-]*://[^\s]+", address)
    host_port = re.fullmatch(r"[^\s/:]+:(\d{1,5})", address)
    if not (with_protocol or (host_port and 0 < int(host_port[1]) < 65536)):
        raise _Refused(
            f"--scheduler should look like tcp://HOST:PORT (e.g. tcp://127.0.0.1:8786), "
            f"not {excerpt(address)}"
        )


@contextmanager
def progress_bar() -> Iterator[Callable[[int, int, Any], None] | None]:
    """A one-line progress bar on stderr, redrawn after each game and ended with a newline
    when the block is left; None when stderr is not a terminal (no bar in logs or pipes)."""
    if not sys.stderr.isatty():
        yield None
        return

    def show(done: int, total: int, record: GameRecord | Any) -> None:
        width = 30
        filled = round(width * done / max(1, total))
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games",
            end="",
            file=sys.stderr,
            flush=True,
        )

    try:
        yield show
    finally:
        print(file=sys.stderr)


@contextmanager
def _executor(address: str | None) -> Iterator[concurrent.futures.Executor | None]:
    """None (the runner's own pool), or a Dask cluster's executor for ``--scheduler``."""
    if address is None:
        yield None
        return
    try:
        import dask.distributed
    except ImportError:
        raise _Refused(
            "--scheduler needs dask.distributed: pip install 'gamehall[cluster]'"
        ) from None
    client_class: Any = dask.distributed.Client  # typed loosely upstream
    try:
        client = client_class(address, timeout=30)
    except (OSError, TimeoutError) as error:
        raise OSError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()
