"""The described board games in the registry: one entry per shipped description
(``game/logic/rules/games/*.txt``), and one made on the spot for a user's file
(``gamehall play path/to/game.txt``).

Every entry has the same options (who plays each side, the computer's time, a start
position in the game's notation), the levels beginner to master and the plain agents random,
alphabeta and uct, the board scene, and
``gamehall bench GAME`` (random playouts and perft speed) and ``gamehall solve GAME``
(alpha-beta's move for a position).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from game.logic.options import Option, OptionsSchema
from game.logic.search.agents import BASELINES
from game.registry import CliHook, Entry, UnknownAgentError

__all__ = ["ENTRIES", "HUMAN", "entry_for", "entry_for_file"]

HUMAN: Final = "human"
#: Who can play a side: a person, the levels weakest first (the registry adds every game's
#: agents, :mod:`game.logic.search.agents`), and ``uct``, the older name of ``mcts``, which
#: saved settings may hold (accepted, not offered: :meth:`game.registry.Entry.seat_choices`).
SIDES: Final = (
    HUMAN,
    "beginner",
    "intermediate",
    "advanced",
    "master",
    "uct",
)
#: The menu's group of a described game whose description names no family.
OTHER_FAMILY: Final = "Other board games"
#: The agent the hint and a computer side use unless the description names another.
HINT: Final = "master"


#: The computer's time: ``--time`` on ``play`` and ``shot`` (no flag of the schema's own).
TIME_PER_MOVE: Final = Option(
    "time_per_move", float, 1.0, minimum=0.05, maximum=600.0, step=0.5,
    help="the computer's seconds for a move", cli=False,
)  # fmt: skip


def _options(
    players: Sequence[str], parameters: Sequence[Any] = (), computer: str = HINT
) -> OptionsSchema:
    """Who plays each side, the computer's time and a start position, after the
    description's own parameters (a board's size)."""
    first, second = players[0], players[1]
    described = tuple(
        Option(p.name, int, p.default, minimum=p.least, maximum=p.most, help=p.help or p.name)
        for p in parameters
    )
    return OptionsSchema(
        (
            *described,
            Option(
                "first", str, HUMAN, choices=SIDES, help=f"who plays {first}: human or an agent"
            ),
            Option("second", str, computer, choices=SIDES, help=f"who plays {second}"),
            TIME_PER_MOVE,
            Option("position", str, "", help="a start position in the game's notation"),
        )
    )


def _agents() -> dict[str, str]:
    from game.logic.rules.agents import AGENTS

    return dict(AGENTS)


def _make_agent(name: str, options: Mapping[str, Any]) -> Any:
    from game.logic.rules.agents import make_agent

    try:
        return make_agent(name)
    except ValueError as exc:
        raise UnknownAgentError(str(exc)) from None


def _seat_options(agents: Sequence[str]) -> dict[str, Any]:
    return {"first": agents[0], "second": agents[1]}


def entry_for(game_id: str, engine: Any = None, text: str = "") -> Entry:
    """The registry entry of a shipped description, or of ``engine`` (a user's file). The
    description is read now and compiled when its first game is made."""
    from game.logic.rules import catalogue

    design = engine.design if engine is not None else catalogue.design(game_id)

    names = [p.name for p in design.parameters]

    def make_game(options: Mapping[str, Any]) -> Any:
        from game.logic.rules.state import RulesGame

        values = {n: int(options[n]) for n in names if n in options}
        changed = {n: v for n, v in values.items() if v != design.values.get(n)}
        if engine is None:
            chosen = catalogue.engine(game_id, changed)
        elif changed:  # a user's file with other parameters: read it again with them
            chosen = catalogue.engine_for_text(text, design.source, values)
        else:
            chosen = engine
        game = RulesGame(chosen, options)
        if options.get("position"):
            game.initial_state(__import__("random").Random(0))  # a bad text is refused now
        return game

    return Entry(
        id=design.id,
        title=design.title,
        summary=(design.about.split(". ")[0].rstrip(".") + ".") if design.about else design.title,
        options=_options(design.players, design.parameters, design.computer),
        make_game=make_game,
        agents=_agents,
        make_agent=_make_agent,
        hint_agent=design.computer,
        opponents=("first", "second"),
        warm_up=True,  # the description compiles on its first game
        think_apart=True,  # the searches are Python: they would hold up the drawing thread
        controller="game.games.rules.controller:BoardController",
        picture=f"scenes/cards/{design.id}.png",
        group=design.family or OTHER_FAMILY,
        hooks={
            "bench": CliHook(
                help="random playouts a second and perft speed",
                add_arguments=_bench_arguments,
                run=_bench,
            ),
            "solve": CliHook(
                help="the computer's move for a position and why (--position, --time, --agent)",
                add_arguments=_solve_arguments,
                run=_solve,
            ),
        },
        play_arguments=_play_arguments,
        play_overrides=_play_overrides,
        seat_options=_seat_options,
        bench_render={},
    )


def entry_for_file(path: Path) -> Entry:
    """An entry for a user's description file; DescriptionError (a ValueError) or OSError
    when it cannot be read or does not make a game."""
    from game.logic.rules.catalogue import engine_for_text
    from game.userfiles import read_text

    text = read_text(path, "game description")
    engine = engine_for_text(text, str(path))
    entry = entry_for(engine.design.id, engine, text)
    return _with_file(entry, path)


def _with_file(entry: Entry, path: Path) -> Entry:
    from dataclasses import replace

    overrides = entry.play_overrides

    def play_overrides(args: argparse.Namespace) -> dict[str, Any]:
        out = dict(overrides(args)) if overrides else {}
        out["description"] = path
        return out

    return replace(entry, play_overrides=play_overrides, picture="")


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time",
        dest="time_per_move",
        default=None,
        metavar="S",
        help="the computer's seconds for a move, 0.05..600 (default 1)",
    )


def _play_overrides(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    typed = getattr(args, "time_per_move", None)
    if typed is not None:  # --time, checked as the option is (0.05 to 600 seconds)
        out["time_per_move"] = TIME_PER_MOVE.check(typed)
    if getattr(args, "command", None) == "shot":
        out["first"] = getattr(args, "first", None) or HUMAN
        out["second"] = getattr(args, "second", None) or HUMAN
    return out


# -- bench and solve ----------------------------------------------------------------------

MAX_PLAYOUTS: Final = 100_000


def _bench_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import whole

    parser.add_argument(
        "--playouts", type=whole(1, MAX_PLAYOUTS), default=200, metavar="N",
        help="random games to play to the end (default 200)",
    )  # fmt: skip
    parser.add_argument(
        "--depth", type=whole(0, 12), default=3, metavar="D",
        help="perft depth from the start (default 3; 0 skips it)",
    )  # fmt: skip


def _bench(args: argparse.Namespace, entry: Entry) -> int:
    """``playouts=N seconds=S playouts_per_s=R plies_per_s=P`` and the perft line."""
    import random

    from game.logic.rules.bench import playouts
    from game.logic.rules.perft import perft_line

    game = entry.game(args.options if hasattr(args, "options") else {})
    engine = game.engine  # type: ignore[attr-defined]
    print(playouts(engine, args.playouts, random.Random(1)), flush=True)
    if args.depth:
        print(perft_line(engine, engine.start(), args.depth), flush=True)
    return 0


def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    from game.cli.args import seconds

    parser.add_argument(
        "--time", type=seconds, default=2.0, metavar="S", help="seconds to think (default 2)"
    )
    parser.add_argument(
        "--agent",
        choices=(*SIDES[1:], *BASELINES),
        default=HINT,
        help=f"who thinks (default {HINT})",
    )


def _solve(args: argparse.Namespace, entry: Entry) -> int:
    """The chosen move, what the agent says about it, then ``move=TEXT``."""
    import random

    from game.logic.game import Limits, Stop

    game = entry.game(args.options)
    state = game.initial_state(random.Random(0))
    if state.is_terminal():
        print(f"gamehall solve: the game is over: {game.result_text(state)}", file=sys.stderr)
        return 2
    agent = entry.make_agent(args.agent, args.options)
    started = time.perf_counter()
    move = agent.choose(state, Limits(time=args.time), random.Random(0), Stop())
    from game.logic.game import explain

    said = explain(agent)
    describe = getattr(state, "describe", state.action_text)
    print(f"{describe(move)}  ({said}, {time.perf_counter() - started:.1f} s)")
    print(f"move={state.action_text(move)}")
    return 0


def _entries() -> list[Entry]:
    from game.logic.rules.catalogue import shipped

    return [entry_for(game_id) for game_id in shipped()]


ENTRIES: Final = _entries()
