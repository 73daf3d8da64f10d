"""The described games on the command line: ``gamehall bench GAME`` (random playouts a second
and perft speed) and ``gamehall solve GAME`` (the computer's move for a position and what it
says of it); the hooks yield their lines for the CLI to print
(:func:`game.hooks.hook`). ``play`` and ``shot`` take, beyond the options' flags, ``--time S``
(the computer's seconds for a move), ``--load FILE``, a game record (PGN, PDN, SGF or
the plain record), and ``--seed S`` (the same seed, the same throws of the dice)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from game.games.flags import seed_flag, shot_seats, time_flag
from game.games.rules.seats import HINT, HUMAN, SIDES, TIME_PER_MOVE
from game.hooks import hook

if TYPE_CHECKING:
    from game.registry import Entry

MAX_PLAYOUTS: Final = 100_000


def play_arguments(parser: argparse.ArgumentParser) -> None:
    """``--time S``, the computer's seconds for a move, ``--load FILE``, a record, and
    ``--seed S``."""
    time_flag(
        parser,
        f"{TIME_PER_MOVE.help}, {TIME_PER_MOVE.metavar} (default {TIME_PER_MOVE.default:g})",
    )
    parser.add_argument(
        "--load", type=Path, metavar="FILE",
        help="a game record to open: PGN (chess), PDN (draughts), SGF (Hex) or Gamehall's text",
    )  # fmt: skip
    seed_flag(
        parser,
        "the throws of the dice and the random players' choices (the same seed, the same game)",
    )


def play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """``time_per_move`` from ``--time`` (checked as the option is), the record of
    ``--load`` as its text and file name; for ``shot``, a person on each side that
    ``--first`` / ``--second`` left unnamed."""
    out: dict[str, Any] = {}
    typed = getattr(args, "time_per_move", None)
    if typed is not None:
        out["time_per_move"] = TIME_PER_MOVE.check(typed)
    path = getattr(args, "load", None)
    if path is not None:  # read now, so that a bad file is refused before the window opens
        out["record"] = (_checked_record(path, getattr(args, "game", None)), str(path))
    if getattr(args, "seed", None) is not None:
        out["seed"] = args.seed
    seats = [seat for seat in ("first", "second") if hasattr(args, seat)]  # a puzzle: one
    return out | shot_seats(args, HUMAN, *seats)


def _checked_record(path: Path, game: str | None) -> str:
    """The text of the record at ``path``, every line played when it is of a shipped game;
    a GameRecordError (a ValueError) says what is wrong."""
    from game.logic.rules.catalogue import rulebook, shipped
    from game.logic.rules.records import GameRecordError, check_record, read_record
    from game.userfiles import read_text

    text = read_text(path, "game record")
    record = read_record(text, str(path))
    if game in shipped() and record.game != game:
        raise GameRecordError(f"{path} is a game of {record.game}, not {game}")
    if record.game in shipped():
        check_record(rulebook(record.game, record.parameters), record, str(path))
    return text


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from game.arguments import whole

    parser.add_argument(
        "--playouts", type=whole(1, MAX_PLAYOUTS), default=200, metavar="N",
        help="random games to play to the end (default 200)",
    )  # fmt: skip
    parser.add_argument(
        "--depth", type=whole(0, 12), default=3, metavar="D",
        help="perft depth from the start (default 3; 0 skips it)",
    )  # fmt: skip


@hook("random playouts a second and perft speed", _bench_arguments)
def bench(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    """``playouts=N seconds=S playouts_per_s=R plies_per_s=P`` and the perft line."""
    import random

    from game.logic.rules.bench import playouts
    from game.logic.rules.perft import perft_line

    game = entry.game(args.options if hasattr(args, "options") else {})
    rulebook = game.rulebook  # type: ignore[attr-defined]
    yield playouts(rulebook, args.playouts, random.Random(1))
    if args.depth:
        yield perft_line(rulebook, rulebook.start(), args.depth)


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    from game.arguments import seconds

    parser.add_argument(
        "--time", type=seconds, default=2.0, metavar="S", help="seconds to think (default 2)"
    )
    from game.logic.search.agents import BASELINES

    parser.add_argument(
        "--agent",
        choices=(*SIDES[1:], *BASELINES),
        default=HINT,
        help=f"who thinks (default {HINT})",
    )


@hook("the computer's move for a position and why (--position, --time, --agent)", _solve_arguments)
def solve(args: argparse.Namespace, entry: Entry) -> Iterator[str]:
    """The chosen move, what the agent says about it, then ``move=TEXT``."""
    import random

    from game.logic.contract import CHANCE, Limits, Stop

    game = entry.game(args.options)
    state = game.initial_state(random.Random(0))
    if state.is_terminal():
        raise ValueError(f"the game is over: {game.result_text(state)}")
    if state.current_player() == CHANCE:
        raise ValueError(
            "the dice are still to be thrown: give the throw (--position '... / roll 3')"
        )
    agent = entry.make_agent(args.agent, args.options)
    started = time.perf_counter()
    move = agent.choose(state, Limits(time=args.time), random.Random(0), Stop())
    from game.logic.contract import explain

    said = explain(agent)
    describe = getattr(state, "describe", state.action_text)
    yield f"{describe(move)}  ({said}, {time.perf_counter() - started:.1f} s)"
    yield f"move={state.action_text(move)}"
