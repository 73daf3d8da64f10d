"""Reversi in the registry: its options, its computer levels, its scene controller,
``gamehall solve reversi`` and ``gamehall bench reversi``.

``play`` and ``shot`` take the options as flags (``--black LEVEL``, ``--white LEVEL``,
``--time-per-move S``, ``--time S`` for short) and ``--load FILE``, a saved transcript. A
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

from game.logic.reversi.game import DEFAULT_HINT, HUMAN, OPTIONS, ReversiGame
from game.registry import CliHook, Entry, UnknownAgentError

#: Up to this many empty squares ``solve reversi`` solves exactly without being asked.
EXACT_EMPTIES: Final = 20


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

    out: dict[str, Any] = {}
    path = getattr(args, "load", None)
    if path is not None:
        try:
            out["moves"] = parse_transcript(path.read_text(encoding="utf-8"))
        except ReversiError as exc:
            raise ValueError(f"{path}: {exc}") from None
    if getattr(args, "command", None) == "shot":
        out["black"] = getattr(args, "black", None) or HUMAN
        out["white"] = getattr(args, "white", None) or HUMAN
    return out


# -- solve ------------------------------------------------------------------------------------


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "position",
        nargs="?",
        help='"BOARD SIDE": 64 characters A1..H8 of X/O/- and X or O',
    )
    parser.add_argument("--all", action="store_true", help="every best move")
    parser.add_argument("--exact", action="store_true", help="solve to the end")
    parser.add_argument(
        "--time",
        type=float,
        default=5.0,
        help="seconds for a search when not solving exactly",
    )


def _solve(args: argparse.Namespace, entry: Entry) -> int:
    """Exact score and best moves when the endgame is small enough (or --exact); otherwise
    the best move found in --time seconds, with its depth and evaluation."""
    from game.logic.reversi.board import Position, ReversiError, square_name

    if not args.position:
        print(
            'gamehall solve reversi: give a position, e.g. "<64 chars of X/O/-> X"', file=sys.stderr
        )
        return 2
    try:
        position = Position.from_text(args.position)
    except ReversiError as exc:
        print(f"gamehall solve reversi: {exc}", file=sys.stderr)
        return 2
    if position.is_terminal():
        print(
            f"score={position.score() * (1 if position.to_move.value == 'X' else -1):+d} best=none"
        )
        return 0
    empties = 64 - sum(position.disc_count())
    if args.exact or empties <= EXACT_EMPTIES:
        from game.logic.reversi.solver import solve

        sol = solve(position, all_moves=args.all)
        best = sol.best if args.all else sol.best[:1]
        names = ",".join(_upper_move(m) for m in best)
        print(f"empties={empties} nodes={sol.nodes} seconds={sol.seconds:.2f}", file=sys.stderr)
        print(f"score={sol.score:+d} best={names}")
        return 0
    from game.logic.reversi.search import search

    result = search(position, time_limit=args.time)
    pv = " ".join(square_name(m) if m < 64 else "pass" for m in result.pv)
    print(
        f"depth={result.depth} nodes={result.nodes} seconds={result.seconds:.2f} pv={pv}",
        file=sys.stderr,
    )
    kind = "score" if result.exact else "eval"
    value = f"{int(result.score):+d}" if result.exact else f"{result.score:+.2f}"
    print(f"best={_upper_move(result.move)} depth={result.depth} {kind}={value}")
    return 0


# -- bench ------------------------------------------------------------------------------------


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--perft-depth", type=int, default=11, help="the deepest perft")


def _bench(args: argparse.Namespace, entry: Entry) -> int:
    """Perft speed and the FFO #40-#44 endgames (times exclude numba's first compilation)."""
    from game.logic.reversi.board import Position
    from game.logic.reversi.ffo import FFO
    from game.logic.reversi.perft import perft
    from game.logic.reversi.solver import solve

    start = Position.start()
    perft(start, 6)  # compile (or load the cached kernels) before timing
    for depth in (args.perft_depth - 1, args.perft_depth):
        t0 = time.perf_counter()
        leaves = perft(start, depth)
        seconds = time.perf_counter() - t0
        print(
            f"perft depth={depth} leaves={leaves} seconds={seconds:.3f} "
            f"leaves_per_s={leaves / seconds:.3g}",
            flush=True,
        )
    solve(Position.from_text(FFO[40].text))  # warm the solver's kernels once
    total = 0.0
    for number in range(40, 45):
        ffo = FFO[number]
        sol = solve(Position.from_text(ffo.text), all_moves=False)
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
    controller="game.controllers.reversi:ReversiController",
    picture="docs/reversi.png",
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
