"""Reversi in the registry: its options, its computer levels, its scene controller,
``gamehall solve reversi`` and ``gamehall bench reversi``.

``play`` and ``shot`` take the options as flags (``--black LEVEL``, ``--white LEVEL``,
``--time-per-move S``, ``--time S`` for short; the look: ``--animation/--no-animation``,
``--animation-speed slow|normal|fast``, ``--legal-marks/--no-legal-marks``,
``--last-move-mark/--no-last-move-mark``, ``--theme classic|wood|contrast``) and ``--load
FILE``, a saved transcript. A
``shot`` is a scripted game: both colours are played by its ``--do`` list unless ``--black``
or ``--white`` names a computer level.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from game.games.reversi.look import SPEEDS, THEMES
from game.logic.options import Option, OptionsSchema
from game.logic.reversi.game import DEFAULT_HINT, HUMAN, ReversiGame
from game.logic.reversi.game import OPTIONS as GAME_OPTIONS
from game.registry import CliHook, Entry, UnknownAgentError

#: How the board looks and moves play: the window reads them, the game's logic does not.
LOOK_OPTIONS: Final = (
    Option("animation", bool, True, help="animate moves: discs drop in and turn over"),
    Option("animation_speed", str, "normal", choices=tuple(SPEEDS),
           help="how fast moves play when animated"),
    Option("legal_marks", bool, True, help="rings on the squares where you may play"),
    Option("last_move_mark", bool, True, help="a dot on the disc played last"),
    Option("theme", str, "classic", choices=tuple(THEMES),
           help="the colours of the board and the discs"),
)  # fmt: skip
#: Every Reversi option: who plays, the computer's time, then the look.
OPTIONS: Final = OptionsSchema((*GAME_OPTIONS.options, *LOOK_OPTIONS))

#: Up to this many empty squares ``solve reversi`` solves exactly without being asked.
EXACT_EMPTIES: Final = 20
#: Past this many empty squares an exact solve may take minutes to hours (measured on two
#: cores: 22 empties 2 to 5 s, 24 empties 10 to 30 s, about three times more per square), so
#: ``solve reversi --exact`` without ``--time`` says so before it starts.
LONG_EMPTIES: Final = 22
#: A search's seconds when ``solve reversi`` is given no ``--time``.
SEARCH_S: Final = 5.0
#: The deepest ``bench reversi --perft-depth``: 15 counts 1.9e12 leaves (hours here); 16
#: would take about a day, and each further ply nine times longer.
MAX_PERFT_DEPTH: Final = 15
#: A benchmark estimated to take longer than this many seconds says so before it starts.
LONG_S: Final = 20.0


def _agents() -> dict[str, str]:
    from game.logic.reversi.players import PLAYERS

    return {name: player.description for name, player in PLAYERS.items()}


def _make_agent(name: str, options: Mapping[str, Any]) -> Any:
    from game.logic.reversi.players import UnknownPlayerError, get_agent

    try:
        return get_agent(name)
    except UnknownPlayerError as exc:
        raise UnknownAgentError(str(exc)) from None


# -- play and shot --------------------------------------------------------------------------


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time",
        dest="time_per_move",
        default=None,
        metavar="S",
        help="the computer's seconds for a move (short for --time-per-move)",
    )
    parser.add_argument("--load", type=Path, help="a saved Reversi game (a transcript like f5d6c3)")


def _play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """``moves`` from ``--load`` (a bad file is a ValueError naming it); for ``shot``, a
    person on each colour that ``--black`` / ``--white`` left unnamed."""
    from game.logic.reversi.board import ReversiError, parse_transcript
    from game.userfiles import read_text

    out: dict[str, Any] = {}
    path = getattr(args, "load", None)
    if path is not None:
        text = read_text(path, "Reversi transcript")
        try:
            out["moves"] = parse_transcript(text)
        except ReversiError as exc:
            raise ValueError(f"{path}: not a Reversi transcript: {exc}") from None
    if getattr(args, "command", None) == "shot":
        out["black"] = getattr(args, "black", None) or HUMAN
        out["white"] = getattr(args, "white", None) or HUMAN
    return out


# -- solve ------------------------------------------------------------------------------------


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import seconds

    parser.add_argument(
        "position",
        nargs="?",
        help='"BOARD SIDE": 64 characters A1..H8 of X/O/- and X or O',
    )
    parser.add_argument("--all", action="store_true", help="every best move")
    parser.add_argument("--exact", action="store_true", help="solve to the end")
    parser.add_argument(
        "--time",
        type=seconds,
        default=None,
        metavar="S",
        help=f"seconds to think: a search's budget (default {SEARCH_S:g}), or the most an "
        "exact solve may take (default: no limit)",
    )


def _solve(args: argparse.Namespace, entry: Entry) -> int:
    """Exact score and best moves when the endgame is small enough (or --exact, within
    --time if given); otherwise the best move found in --time seconds, with its depth and
    evaluation. Ctrl-C stops either (exit status 130)."""
    from game.logic.reversi.board import Position, ReversiError, square_name
    from game.logic.reversi.solver import SearchCancelled

    where = "gamehall solve reversi"
    if not args.position:
        print(f'{where}: give a position, e.g. "<64 chars of X/O/-> X"', file=sys.stderr)
        return 2
    try:
        position = Position.from_text(args.position)
    except ReversiError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    if position.is_terminal():
        print(
            f"score={position.score() * (1 if position.to_move.value == 'X' else -1):+d} best=none"
        )
        return 0
    empties = 64 - sum(position.disc_count())
    if args.exact or empties <= EXACT_EMPTIES:
        if args.time is None and empties > LONG_EMPTIES:
            print(
                f"{where}: {empties} empty squares and no --time: an exact solve has no time "
                f"limit and may take hours or more (each empty square past {LONG_EMPTIES} "
                "about three times longer); Ctrl-C stops it",
                file=sys.stderr,
                flush=True,
            )
        try:
            sol = solve_exact(position, all_moves=args.all, time_limit=args.time)
        except SearchCancelled:
            print(
                f"{where}: no exact result within --time {args.time:g} s ({empties} empty "
                "squares); give it more time, or leave out --exact for a search",
                file=sys.stderr,
            )
            return 2
        best = sol.best if args.all else sol.best[:1]
        names = ",".join(_upper_move(m) for m in best)
        print(f"empties={empties} nodes={sol.nodes} seconds={sol.seconds:.2f}", file=sys.stderr)
        print(f"score={sol.score:+d} best={names}")
        return 0
    result = search_position(position, args.time if args.time is not None else SEARCH_S)
    pv = " ".join(square_name(m) if m < 64 else "pass" for m in result.pv)
    print(
        f"depth={result.depth} nodes={result.nodes} seconds={result.seconds:.2f} pv={pv}",
        file=sys.stderr,
    )
    kind = "score" if result.exact else "eval"
    value = f"{int(result.score):+d}" if result.exact else f"{result.score:+.2f}"
    print(f"best={_upper_move(result.move)} depth={result.depth} {kind}={value}")
    return 0


def solve_exact(position: Any, *, all_moves: bool, time_limit: float | None) -> Any:
    """The exact :class:`~game.logic.reversi.solver.Solution` of ``position``, solved on a
    worker thread that Ctrl-C stops; raises SearchCancelled when ``time_limit`` runs out."""
    from game.cli.args import run_stoppable
    from game.logic.reversi.solver import solve

    empties = position.empties
    return run_stoppable(
        lambda stop: solve(position, all_moves=all_moves, time_limit=time_limit, stop=stop.flag),
        lambda elapsed: f"solving {empties} empty squares exactly: {elapsed:.0f} s (Ctrl-C stops)",
    )


def search_position(position: Any, seconds: float) -> Any:
    """The midgame :class:`~game.logic.reversi.search.SearchResult` of ``position`` after
    ``seconds``, searched on a worker thread that Ctrl-C stops."""
    from game.cli.args import run_stoppable
    from game.logic.reversi.search import search

    return run_stoppable(
        lambda stop: search(position, time_limit=seconds, stop=stop.flag),
        lambda elapsed: f"searching: {elapsed:.0f} of {seconds:g} s (Ctrl-C stops)",
    )


# -- bench ------------------------------------------------------------------------------------


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import whole

    parser.add_argument(
        "--perft-depth",
        type=whole(1, MAX_PERFT_DEPTH),
        default=11,
        metavar="D",
        help=f"the deepest perft, 1..{MAX_PERFT_DEPTH} (default 11; each ply takes about nine "
        "times longer: 13 takes minutes, 15 hours)",
    )


def _bench(args: argparse.Namespace, entry: Entry) -> int:
    return run_bench(args.perft_depth)


def run_bench(depth: int) -> int:
    """Perft speed to ``depth`` (checked by the parser) and the FFO #40-#44 endgames (times
    exclude numba's first compilation). A perft that may take long says so before it
    starts; Ctrl-C stops any part."""
    from game.logic.reversi.board import Position
    from game.logic.reversi.ffo import FFO
    from game.logic.reversi.perft import PERFT_START, perft

    start = Position.start()
    depths = sorted({max(1, depth - 1), depth})
    perft(start, 6)  # compile (or load the cached kernels) before timing
    t0 = time.perf_counter()
    rate = perft(start, 9) / max(time.perf_counter() - t0, 1e-6)  # leaves a second, here
    guess = sum(PERFT_START[d][0] for d in depths) / rate
    if guess > LONG_S:
        print(
            f"gamehall bench reversi: perft depth {depth} has no time limit and may take "
            f"about {_duration(guess)} here; Ctrl-C stops it",
            file=sys.stderr,
            flush=True,
        )
    for d in depths:
        leaves, seconds = perft_in_pieces(start, d)
        print(
            f"perft depth={d} leaves={leaves} seconds={seconds:.3f} "
            f"leaves_per_s={leaves / max(seconds, 1e-9):.3g}",
            flush=True,
        )
    solve_exact(Position.from_text(FFO[40].text), all_moves=False, time_limit=None)  # warm up
    total = 0.0
    for number in range(40, 45):
        ffo = FFO[number]
        sol = solve_exact(Position.from_text(ffo.text), all_moves=False, time_limit=None)
        total += sol.seconds
        best = _upper_move(sol.best[0]) if sol.best else "none"
        correct = sol.score == ffo.score and best in ffo.best
        print(
            f"ffo={number} empties={ffo.empties} seconds={sol.seconds:.2f} nodes={sol.nodes} "
            f"score={sol.score:+d} best={best} correct={'yes' if correct else 'no'}",
            flush=True,
        )
    print(f"ffo=40-44 total_seconds={total:.2f}")
    return 0


def perft_in_pieces(start: Any, depth: int) -> tuple[int, float]:
    """Bik's perft of ``start`` to ``depth`` and its seconds, counted subtree by subtree on a
    worker thread (each piece at most 9 plies deep, a few milliseconds to a second), so that
    Ctrl-C stops it between pieces and a terminal shows how far it got."""
    from game.cli.args import run_stoppable
    from game.logic.game import Stop
    from game.logic.reversi.perft import perft, perft_subtrees

    pieces = perft_subtrees(start, depth, min(6, max(0, depth - 9)))
    done = [0]

    def count(stop: Stop) -> tuple[int, float]:
        t0 = time.perf_counter()
        leaves = 0
        for position, left in pieces:
            stop.check()
            leaves += perft(position, left)
            done[0] += 1
        return leaves, time.perf_counter() - t0

    return run_stoppable(
        count,
        lambda elapsed: (
            f"perft depth {depth}: {done[0]}/{len(pieces)} subtrees, {elapsed:.0f} s (Ctrl-C stops)"
        ),
    )


def _duration(seconds: float) -> str:
    """``seconds`` as a person says it: 40 seconds, 12 minutes, 3 hours, 2 days."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} seconds"


def _upper_move(move: int) -> str:
    from game.logic.reversi.board import PASS, square_name

    return "PASS" if move == PASS else square_name(move).upper()


ENTRY = Entry(
    id="reversi",
    title="Reversi",
    summary="Outflank and flip discs against the computer at nine levels.",
    options=OPTIONS,
    make_game=ReversiGame,
    agents=_agents,
    make_agent=_make_agent,
    hint_agent=DEFAULT_HINT,
    opponents=("black", "white"),
    warm_up=True,  # the engine's compiled kernels load on its first search
    # The kernels compile (the first start) or load in a worker process, which then thinks:
    # the window's process never holds numba's compiler or its lock.
    engine="game.logic.reversi.players:prepare",
    controller="game.games.reversi.controller:ReversiController",
    picture="scenes/cards/reversi.png",
    statistics="game.games.reversi.stats:statistics_sheet",
    hooks={
        "solve": CliHook(
            help='the exact score and best moves of a position "BOARD SIDE" (up to '
            f"{EXACT_EMPTIES} empty squares, or --exact), else the best move found in --time "
            "seconds",
            add_arguments=_solve_arguments,
            run=_solve,
        ),
        "bench": CliHook(
            help="perft speed from the start and exact solves of FFO #40-#44",
            add_arguments=_bench_arguments,
            run=_bench,
        ),
    },
    play_arguments=_play_arguments,
    play_overrides=_play_overrides,
)
