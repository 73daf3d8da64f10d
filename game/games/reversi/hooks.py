"""Reversi on the command line: ``gamehall solve reversi`` (a position's exact score and best
moves, or the best move a search finds in its time) and ``gamehall bench reversi`` (perft
speed, the FFO #40-#44 endgames). The hooks yield their lines for the CLI to print
(:func:`game.hooks.hook`); the searches run on a worker thread that Ctrl-C stops.

``play`` and ``shot`` take, beyond the options' flags, ``--time S`` (short for
``--time-per-move``) and ``--load FILE``, a saved transcript. A ``shot`` is a scripted game:
both colours are played by its ``--do`` list unless ``--black`` or ``--white`` names a
computer level."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from game.games.flags import shot_seats, time_flag
from game.hooks import Note, Refusal, hook

if TYPE_CHECKING:
    from game.hooks import Said
    from game.registry import Entry

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


# -- play and shot ---------------------------------------------------------------------------


def play_arguments(parser: argparse.ArgumentParser) -> None:
    """``--time S`` (short for ``--time-per-move``) and ``--load FILE``, a saved transcript."""
    time_flag(parser, "the computer's seconds for a move (short for --time-per-move)")
    parser.add_argument("--load", type=Path, help="a saved Reversi game (a transcript like f5d6c3)")


def play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """``moves`` from ``--load`` (a bad file is a ValueError naming it); for ``shot``, a
    person on each colour that ``--black`` / ``--white`` left unnamed."""
    from game.logic.reversi.board import ReversiError, parse_transcript
    from game.logic.reversi.game import HUMAN
    from game.userfiles import read_text

    out: dict[str, Any] = {}
    path = getattr(args, "load", None)
    if path is not None:
        text = read_text(path, "Reversi transcript")
        try:
            out["moves"] = parse_transcript(text)
        except ReversiError as exc:
            raise ValueError(f"{path}: not a Reversi transcript: {exc}") from None
    return out | shot_seats(args, HUMAN, "black", "white")


# -- solve ------------------------------------------------------------------------------------


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    from game.arguments import seconds

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


@hook(
    'the exact score and best moves of a position "BOARD SIDE" (up to '
    f"{EXACT_EMPTIES} empty squares, or --exact), else the best move found in --time seconds",
    _solve_arguments,
)
def solve(args: argparse.Namespace, entry: Entry) -> Iterator[Said]:
    """Exact score and best moves when the endgame is small enough (or --exact, within
    --time if given); otherwise the best move found in --time seconds, with its depth and
    evaluation. Ctrl-C stops either (exit status 130)."""
    from game.logic.reversi.board import Position, ReversiError, square_name
    from game.logic.reversi.solver import SearchCancelled

    if not args.position:
        raise Refusal('give a position, e.g. "<64 chars of X/O/-> X"')
    try:
        position = Position.from_text(args.position)
    except ReversiError as exc:
        raise Refusal(str(exc)) from None
    if position.is_terminal():
        sign = 1 if position.to_move.value == "X" else -1
        yield f"score={position.score() * sign:+d} best=none"
        return
    empties = 64 - sum(position.disc_count())
    if args.exact or empties <= EXACT_EMPTIES:
        if args.time is None and empties > LONG_EMPTIES:
            yield Note(
                f"{empties} empty squares and no --time: an exact solve has no time "
                f"limit and may take hours or more (each empty square past {LONG_EMPTIES} "
                "about three times longer); Ctrl-C stops it",
                warning=True,
            )
        try:
            sol = solve_exact(position, all_moves=args.all, time_limit=args.time)
        except SearchCancelled:
            raise Refusal(
                f"no exact result within --time {args.time:g} s ({empties} empty "
                "squares); give it more time, or leave out --exact for a search"
            ) from None
        best = sol.best if args.all else sol.best[:1]
        names = ",".join(_upper_move(m) for m in best)
        yield Note(f"empties={empties} nodes={sol.nodes} seconds={sol.seconds:.2f}")
        yield f"score={sol.score:+d} best={names}"
        return
    result = search_position(position, args.time if args.time is not None else SEARCH_S)
    pv = " ".join(square_name(m) if m < 64 else "pass" for m in result.pv)
    yield Note(f"depth={result.depth} nodes={result.nodes} seconds={result.seconds:.2f} pv={pv}")
    kind = "score" if result.exact else "eval"
    value = f"{int(result.score):+d}" if result.exact else f"{result.score:+.2f}"
    yield f"best={_upper_move(result.move)} depth={result.depth} {kind}={value}"


def solve_exact(position: Any, *, all_moves: bool, time_limit: float | None) -> Any:
    """The exact :class:`~game.logic.reversi.solver.Solution` of ``position``, solved on a
    worker thread that Ctrl-C stops; raises SearchCancelled when ``time_limit`` runs out."""
    from game.arguments import run_stoppable
    from game.logic.reversi.solver import solve

    empties = position.empties
    return run_stoppable(
        lambda stop: solve(position, all_moves=all_moves, time_limit=time_limit, stop=stop.flag),
        lambda elapsed: f"solving {empties} empty squares exactly: {elapsed:.0f} s (Ctrl-C stops)",
    )


def search_position(position: Any, seconds: float) -> Any:
    """The midgame :class:`~game.logic.reversi.search.SearchResult` of ``position`` after
    ``seconds``, searched on a worker thread that Ctrl-C stops."""
    from game.arguments import run_stoppable
    from game.logic.reversi.search import search

    return run_stoppable(
        lambda stop: search(position, time_limit=seconds, stop=stop.flag),
        lambda elapsed: f"searching: {elapsed:.0f} of {seconds:g} s (Ctrl-C stops)",
    )


# -- bench ------------------------------------------------------------------------------------


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from game.arguments import whole

    parser.add_argument(
        "--perft-depth",
        type=whole(1, MAX_PERFT_DEPTH),
        default=11,
        metavar="D",
        help=f"the deepest perft, 1..{MAX_PERFT_DEPTH} (default 11; each ply takes about nine "
        "times longer: 13 takes minutes, 15 hours)",
    )


@hook("perft speed from the start and exact solves of FFO #40-#44", _bench_arguments)
def bench(args: argparse.Namespace, entry: Entry) -> Iterator[Said]:
    return run_bench(args.perft_depth)


def run_bench(depth: int) -> Iterator[Said]:
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
        yield Note(
            f"perft depth {depth} has no time limit and may take "
            f"about {_duration(guess)} here; Ctrl-C stops it",
            warning=True,
        )
    for d in depths:
        leaves, seconds = perft_in_pieces(start, d)
        yield (
            f"perft depth={d} leaves={leaves} seconds={seconds:.3f} "
            f"leaves_per_s={leaves / max(seconds, 1e-9):.3g}"
        )
    solve_exact(Position.from_text(FFO[40].text), all_moves=False, time_limit=None)  # warm up
    total = 0.0
    for number in range(40, 45):
        ffo = FFO[number]
        sol = solve_exact(Position.from_text(ffo.text), all_moves=False, time_limit=None)
        total += sol.seconds
        best = _upper_move(sol.best[0]) if sol.best else "none"
        correct = sol.score == ffo.score and best in ffo.best
        yield (
            f"ffo={number} empties={ffo.empties} seconds={sol.seconds:.2f} nodes={sol.nodes} "
            f"score={sol.score:+d} best={best} correct={'yes' if correct else 'no'}"
        )
    yield f"ffo=40-44 total_seconds={total:.2f}"


def perft_in_pieces(start: Any, depth: int) -> tuple[int, float]:
    """Bik's perft of ``start`` to ``depth`` and its seconds, counted subtree by subtree on a
    worker thread (each piece at most 9 plies deep, a few milliseconds to a second), so that
    Ctrl-C stops it between pieces and a terminal shows how far it got."""
    from game.arguments import run_stoppable
    from game.logic.contract import Stop
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
