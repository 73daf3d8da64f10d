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

What goes wrong where the games are played ends in one line on stderr per problem, exit status
1, and the results of the games that finished on stdout: a local worker process that is lost
is replaced and its game played again (a game that loses it :data:`TRIES` times is given up);
on a cluster, a scheduler that does not answer as one within ``--scheduler-wait`` seconds (a
silent port, another server) is refused before any game, and a cluster that has no worker, or
does not answer, for that long, or whose scheduler goes away, ends the tournament.
distributed's own log goes to ours at INFO (``-v`` shows it), not to stderr.

The old spellings still work: ``--robots a,b`` and ``--a A --b B`` for ``--agents``,
``--time-per-move`` for ``--time``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import logging
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from game.cli.options import add_option_flags, typed_options
from game.logic.contract import Limits
from game.logic.quoting import excerpt
from game.logic.tournament import (
    TRIES,
    GameFailedError,
    TournamentResult,
    run_tournament,
    work_units,
)
from game.progress import games_bar

if TYPE_CHECKING:
    from game.registry import Entry

log = logging.getLogger(__name__)

#: The default of ``--scheduler-wait``: the seconds a tournament on a cluster waits for the
#: scheduler's first answer, for a worker while it has none, or for an answer at all.
SCHEDULER_WAIT: Final = 30

__all__ = ["add_arguments", "agent_names", "limits", "progress_bar", "run"]

HELP = "computer against computer, seats rotated; prints each agent's results, winrates last"


class _Refused(ValueError):
    """Input the command refuses before any game is played."""


def add_arguments(parser: argparse.ArgumentParser, entry: Entry | None = None) -> None:
    """The command's flags; with ``entry``, its game's option flags too."""
    from game.arguments import MAX_SECONDS, seconds, whole

    names = "e.g. " + ",".join(list(entry.agents())[:2]) if entry is not None else "a,b"
    parser.add_argument("--agents", help=f"one agent name per seat, comma-separated ({names})")
    counts = {flag: (least, most) for flag, _, least, most in COUNTS}
    for flag, default, about in (
        ("--games", 10, "games to play"),
        (
            "--jobs",
            1,
            "games at once, in local processes (a process that is lost is replaced and "
            f"its game played again; a game whose process is lost {TRIES} times is given up)",
        ),
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
        "--scheduler-wait",
        type=whole(*counts["--scheduler-wait"]),
        default=SCHEDULER_WAIT,
        metavar="SECONDS",
        help=f"with --scheduler: how long to wait for its first answer, for a worker while it "
        f"has none, for any answer, {'..'.join(map(str, counts['--scheduler-wait']))} "
        f"(default {SCHEDULER_WAIT}); then, or when it goes away, "
        f"the tournament stops with one line, keeping the finished games",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print the statistics as JSON (standings, results per seat, lengths, branching)",
    )
    if entry is not None:
        add_option_flags(parser, entry.options)
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
    from game.cli.lines import shorten

    where = f"gamehall tournament {entry.id}"
    try:
        # Every argument is checked before the first game (or a cluster) is started.
        agents = agent_names(args)
        options = entry.options.validate(typed_options(entry.options, args))
        budget = limits(args)
        _check_counts(args)
        work_units(
            entry, agents, args.games, options=options, seed=args.seed, limits=budget,
            max_steps=args.max_steps,
        )  # fmt: skip
        _check_address(args.scheduler)
        wait = getattr(args, "scheduler_wait", SCHEDULER_WAIT)
        scheduler = _Scheduler(args.scheduler, wait) if args.scheduler is not None else None
        with _executor(scheduler) as executor, progress_bar() as progress:
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
                watch=getattr(executor, "problem", None),
            )
    except GameFailedError as error:
        if error.result is not None and error.result.games:  # the finished games are kept
            _print(error.result, getattr(args, "json", False))
        print(f"{where}: {shorten(str(error))}", file=sys.stderr)
        return 1
    except ValueError as error:  # refused input: an agent, an option, a limit
        print(f"{where}: {shorten(str(error))}", file=sys.stderr)
        return 2
    except OSError as error:  # the scheduler named by --scheduler cannot be reached
        print(f"{where}: {shorten(str(error))}", file=sys.stderr)
        return 2
    if result.games or getattr(args, "json", False):
        _print(result, getattr(args, "json", False))
    for line in result.failed:
        print(f"{where}: {line}", file=sys.stderr)
    if result.stopped:
        print(
            f"{where}: stopped after {len(result.games)} of {args.games} games: {result.stopped}",
            file=sys.stderr,
        )
    return 1 if result.failed or result.stopped else 0


def _print(result: TournamentResult, as_json: bool) -> None:
    """The result's lines (or its statistics as JSON) on stdout."""
    if as_json:
        import json

        print(json.dumps(result.statistics(), indent=2))
        return
    for line in result.lines():
        print(line)


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
    from game.arguments import seconds as read_seconds

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
    ("--scheduler-wait", "scheduler_wait", 1, 86_400),
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


def progress_bar() -> AbstractContextManager[Callable[[int, int, Any], None] | None]:
    """A bar of the games played on stderr (tqdm), or None when stderr is not a terminal (no
    bar in logs or pipes): :func:`game.progress.games_bar`."""
    return games_bar()


@dataclass(frozen=True)
class _Scheduler:
    """``--scheduler`` and ``--scheduler-wait``; its text is the address."""

    address: str
    wait: float = SCHEDULER_WAIT

    def __str__(self) -> str:
        return self.address


@contextmanager
def _executor(scheduler: _Scheduler | None) -> Iterator[concurrent.futures.Executor | None]:
    """None (the runner's own pool), or the executor of the Dask cluster of ``scheduler``,
    whose ``problem()`` says when to stop waiting for it (see :class:`_Cluster`). Raises
    :class:`OSError` with one line when no scheduler answers as one within its wait."""
    if scheduler is None:
        yield None
        return
    address, wait = scheduler.address, scheduler.wait
    import asyncio

    try:
        import dask.distributed
    except ImportError:
        raise _Refused(
            "--scheduler needs dask.distributed: pip install 'gamehall[cluster]'"
        ) from None
    with _distributed_log_to_ours():
        _greet(address, wait)
        client_class: Any = dask.distributed.Client  # typed loosely upstream
        try:
            client = client_class(address, timeout=wait)
        except Exception as error:  # it answered a moment ago: gone since, or stopped
            raise OSError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        cluster = _Cluster(client, address, wait)
        try:
            yield cluster
        finally:
            cluster.shutdown(wait=False)
            # A scheduler gone: nothing is left to close there (asyncio's CancelledError is
            # not an Exception).
            with suppress(Exception, asyncio.CancelledError):
                client.close(timeout=min(wait, 5))


class _Cluster(concurrent.futures.Executor):
    """A Dask client's executor that can say why to stop waiting for it: :meth:`problem`
    reads what a thread of its own learns from the scheduler every second (how many workers,
    when it last answered) and hands it to a :class:`_Vigil`."""

    #: How often the scheduler is asked how it is.
    LISTEN_SECONDS = 1.0
    #: How long a scheduler that does not answer is waited for (None: as long as ``wait``).
    SILENCE_SECONDS: float | None = None

    def __init__(self, client: Any, address: str, wait: float) -> None:
        self.client = client
        self.executor = client.get_executor(pure=False)
        self.vigil = _Vigil(address, wait, silence=self.SILENCE_SECONDS)
        self.workers = -1  # not heard yet
        self.answered = time.monotonic()
        self.closed = threading.Event()
        threading.Thread(target=self._listen, name="gamehall-dask-watch", daemon=True).start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        return self.executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.closed.set()

    def problem(self) -> str | None:
        """Why the games still out will not come back (None: wait on)."""
        connected = self.client.status in ("running", "newly-created")
        return self.vigil.problem(connected, self.workers, self.answered)

    def _listen(self) -> None:
        while not self.closed.wait(self.LISTEN_SECONDS):
            try:
                info = self.client.scheduler_info(n_workers=0)
            except Exception as error:  # asked again in a second
                log.debug("the Dask scheduler did not say how it is: %s", error)
                continue
            workers = info.get("n_workers")  # older versions list every worker instead
            self.workers = int(workers if workers is not None else len(info.get("workers", ())))
            self.answered = time.monotonic()


class _Vigil:
    """When a tournament on a cluster stops waiting, from what is seen of it: the scheduler's
    connection lost; no answer from it for ``silence`` seconds (``wait`` unless given); no
    worker for ``wait`` seconds (workers counted ``-1``: not heard yet)."""

    def __init__(
        self,
        address: str,
        wait: float,
        clock: Callable[[], float] = time.monotonic,
        silence: float | None = None,
    ) -> None:
        self.address, self.wait, self.clock = address, wait, clock
        self.silence = wait if silence is None else silence
        self.worked = clock()  # when a worker was last seen (or the watch began)

    def problem(self, connected: bool, workers: int, answered: float) -> str | None:
        now = self.clock()
        if not connected:
            return f"the connection to the Dask scheduler at {self.address} was lost"
        if now - answered >= self.silence:
            return f"the Dask scheduler at {self.address} has not answered for {self.silence:g} s"
        if workers != 0:
            self.worked = now
        elif now - self.worked >= self.wait:
            return f"the Dask scheduler at {self.address} has had no worker for {self.wait:g} s"
        return None


def _greet(address: str, wait: float) -> None:
    """Return when a Dask scheduler answers at ``address`` within ``wait`` seconds (its
    handshake and who it is), else raise :class:`OSError` saying what answered instead:
    nothing, a server of another kind, a Dask worker. (distributed's own connect waits for
    the handshake without a limit, and takes an HTTP reply for a message of exabytes.)"""
    import asyncio

    import distributed.comm.core

    connect: Any = distributed.comm.core.connect  # typed loosely upstream

    async def hello() -> Any:
        comm = await connect(address, timeout=wait)  # refused: tried again until ``wait``
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            with suppress(Exception):
                await comm.close()

    try:
        # A little more than connect's own limit, so that its reason (refused) comes first.
        who = asyncio.run(asyncio.wait_for(hello(), wait + min(1.0, wait / 4)))
    except (TimeoutError, asyncio.CancelledError):
        raise OSError(
            f"no answer from {address} within {wait:g} s: is it a Dask scheduler?"
        ) from None
    except OSError as error:
        raise OSError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    except Exception as error:  # garbage where a handshake should be: a size of exabytes ...
        raise OSError(
            f"what answers at {address} is not a Dask scheduler "
            f"({type(error).__name__} reading its answer)"
        ) from None
    kind = who.get("type") if isinstance(who, dict) else None
    if kind != "Scheduler":
        said = f"a Dask {kind}" if isinstance(kind, str) else "it does not say what it is"
        raise OSError(f"what answers at {address} is not a Dask scheduler ({said})")


@contextmanager
def _distributed_log_to_ours() -> Iterator[None]:
    """While the block runs, what distributed, tornado and bokeh log goes to this module's
    log at INFO (``gamehall -v`` shows it), not to stderr through their own handlers: a
    cluster's trouble is said once, by the command, in one line."""
    names = ("distributed", "tornado", "bokeh")
    saved = []
    handler = _ToOurLog()
    for name in names:
        logger = logging.getLogger(name)
        saved.append((logger, logger.handlers[:], logger.propagate))
        logger.handlers[:] = [handler]
        logger.propagate = False
    try:
        yield
    finally:
        for logger, handlers, propagate in saved:
            logger.handlers[:] = handlers
            logger.propagate = propagate


class _ToOurLog(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        level = min(record.levelno, logging.INFO)
        log.log(level, "%s: %s", record.name, record.getMessage(), exc_info=record.exc_info)
