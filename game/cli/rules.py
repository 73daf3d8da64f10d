"""``gamehall rules``: the described games' own commands.

    gamehall rules perft chess 4
    gamehall rules perft chess 5 --backend compiled
    gamehall rules perft english-draughts 3 --position "B:W18,26,27:B1,2,3" --divide
    gamehall rules check my-game.txt
    gamehall rules list
    gamehall rules analyse breakthrough --games 100 --out breakthrough.png
    gamehall rules record game.pgn --out again.pgn
    gamehall rules variants english-checkers.zrf
    gamehall rules perft english-checkers.zrf 4 --variant 0

``perft`` counts the move paths of a depth from the start (or ``--position``, in the game's
own notation: FEN for chess, PDN's FEN for draughts, the 64 squares and the side for
Othello), with ``--divide`` a line per first move; its last line is
``depth=D nodes=N seconds=S``; ``--backend compiled`` counts on the compiled back end
(compiled the first time, its progress on stderr; refused with the reason for a game it does
not express), ``python`` (the default) on the reference. ``check`` reads a description and
says what is wrong (file, line, column) or what it holds, and the back end it plays on.
``list`` prints the shipped descriptions. ``analyse`` plays
``--games`` games between two agents (``--agents``, random by default; each thinks for
``--nodes`` positions a move) and prints the games' length, the branching factor, each seat's
win rate with its 95% interval and the draw rate; ``--out`` writes them as a picture.
``record`` reads a game record (PGN, PDN, SGF or the plain record:
:mod:`game.logic.rules.records`), plays every variation and prints what it holds and where its
main line ends; ``--out FILE`` writes it again as Gamehall writes it.
GAME is a shipped game's id or a description file: our own language, or a Zillions file
(``.zrf``), whose games ``variants`` lists (``N title``, N from 0 in file order) and
``--variant N`` chooses.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Final

__all__ = ["add_arguments", "run_rules"]

#: The deepest perft asked for; each ply multiplies the time (chess: about 30 times).
MAX_DEPTH: Final = 20
ACTIONS: Final = ("perft", "check", "list", "analyse", "record", "variants")
#: The most games a ``.zrf`` file's ``--variant`` may name.
MAX_VARIANT: Final = 9999


def add_arguments(p: argparse.ArgumentParser, full: bool) -> None:
    from game.arguments import whole

    p.add_argument("action", nargs=None if full else "?", choices=ACTIONS, help="what to do")
    p.add_argument(
        "game", nargs="?", metavar="GAME", help="a described game's id or file (record: the record)"
    )
    p.add_argument("depth", nargs="?", type=whole(0, MAX_DEPTH), help="perft: the depth")
    p.add_argument("--position", metavar="TEXT", help="perft: the position to start from")
    p.add_argument(
        "--variant", type=whole(0, MAX_VARIANT), default=0, metavar="N",
        help="a .zrf file's game N, from 0 in file order (rules variants FILE lists them)",
    )  # fmt: skip
    p.add_argument("--divide", action="store_true", help="perft: a line per first move")
    p.add_argument(
        "--backend", choices=("python", "compiled"), default="python",
        help="perft: the rules' back end (default: python, the reference)",
    )  # fmt: skip
    p.add_argument("--games", type=whole(1, 100_000), default=100, help="analyse: games to play")
    p.add_argument("--agents", default="random", help="analyse: one agent, or one per seat (a,b)")
    p.add_argument(
        "--nodes", type=whole(1, 10**9), default=200, help="analyse: positions a move may search"
    )
    p.add_argument("--seed", type=whole(0, 2**63), default=0, help="analyse: the first game's seed")
    p.add_argument(
        "--out", metavar="FILE", help="analyse: the picture to write; record: the record again"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=N",
        help="a parameter of the description (gomoku's width=9, hex's side=5); again for more",
    )


def run_rules(args: argparse.Namespace) -> int:
    from game.logic.rules.sexpr import DescriptionError

    where = f"gamehall rules {args.action}"
    if args.action == "list":
        from game.logic.rules.catalogue import design, shipped

        for game_id in shipped():
            d = design(game_id)
            print(f"{game_id:24} {d.title} ({d.lines} lines)")
        return 0
    if not args.game:
        print(f"{where}: name a game or a description file", file=sys.stderr)
        return 2
    if args.action == "record":
        return _record(args, where)
    if args.action == "variants":
        return _variants(args.game, where)
    from game.logic.numbers import parse_whole
    from game.logic.quoting import excerpt

    values: dict[str, int] = {}
    for item in args.set:
        name, _, number = item.partition("=")
        value = parse_whole(number)
        if value is None:
            print(
                f"{where}: --set takes NAME=N (a whole number), not {excerpt(item)}",
                file=sys.stderr,
            )
            return 2
        values[name.strip()] = value
    from game.userfiles import UserFileError

    try:
        rulebook = _rulebook(args.game, values, args.variant)
    except (DescriptionError, UserFileError) as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    if args.action == "check":
        d = rulebook.design
        hooks = ", ".join(d.hooks) or "none"
        print(
            f"{d.id}: {d.title}; {len(d.board.names)} positions, {len(d.pieces)} piece types, "
            f"{sum(len(p.programs) for p in d.pieces)} move programs, {d.lines} lines, "
            f"Python hooks: {hooks}"
        )
        modes = rulebook.c.check_modes
        if d.royal or "probe" in modes or "fallback" in modes:
            print(
                f"check: {modes.count('probe')} programs walked back from the piece asked"
                f" about, {modes.count('fallback')} run forward from each piece, "
                f"{modes.count('none')} that cannot capture it left out"
            )
        from game.logic.rules.compiled.build import reason

        print(f"backend: {reason(d, decide=True)}")
        return 0
    if args.action == "analyse":
        return _analyse(args, rulebook, where)
    if args.depth is None:
        print(f"{where}: give the depth (gamehall rules perft GAME DEPTH)", file=sys.stderr)
        return 2
    from game.logic.contract import NotationError
    from game.logic.rules.notation import read_position
    from game.logic.rules.perft import divide, perft_line

    try:
        pos = read_position(rulebook, args.position) if args.position else rulebook.start()
    except NotationError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    if args.backend == "compiled":
        return _compiled_perft(args, rulebook, pos, where)
    if args.divide:
        started = time.perf_counter()
        total = 0
        for text, count in divide(rulebook, pos, args.depth):
            print(f"{text} {count}", flush=True)
            total += count
        print(f"depth={args.depth} nodes={total} seconds={time.perf_counter() - started:.3f}")
        return 0
    print(perft_line(rulebook, pos, args.depth))
    return 0


def _compiled_perft(args: argparse.Namespace, rulebook: Any, pos: Any, where: str) -> int:
    """``perft`` on the compiled back end (built here, compiling it the first time)."""
    from game.logic.rules.compiled.build import MAX_DEPTH as COMPILED_DEPTH
    from game.logic.rules.compiled.build import available, reason
    from game.progress import status_line

    if args.divide or args.depth > COMPILED_DEPTH:
        too = "--divide" if args.divide else f"a depth over {COMPILED_DEPTH}"
        print(f"{where}: {too} counts on the Python back end only", file=sys.stderr)
        return 2
    with status_line() as show:
        report = None if show is None else lambda f: show(f"compiling the rules: {f:.0%}")
        rules = available(rulebook.design, wait=True, report=report)
    if rules is None:
        print(f"{where}: {rulebook.design.id} has no compiled back end: "
              f"{reason(rulebook.design).removeprefix('python: ')}", file=sys.stderr)  # fmt: skip
        return 2
    started = time.perf_counter()
    nodes = rules.perft(pos, args.depth)
    print(f"depth={args.depth} nodes={nodes} seconds={time.perf_counter() - started:.3f}")
    return 0


def _analyse(args: argparse.Namespace, rulebook: object, where: str) -> int:
    from game.logic.analyse import play_games
    from game.logic.contract import Limits
    from game.logic.rules.agents import make_agent
    from game.logic.rules.state import RulesGame
    from game.progress import games_bar

    game = RulesGame(rulebook)  # type: ignore[arg-type]
    names = [n.strip() for n in args.agents.split(",") if n.strip()]
    if len(names) not in (1, game.seats):
        print(f"{where}: give one agent or {game.seats}, not {args.agents!r}", file=sys.stderr)
        return 2
    try:
        agents = [make_agent(name) for name in names]
    except ValueError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    with games_bar() as show:
        analysis = play_games(
            game,
            agents,
            args.games,
            seed=args.seed,
            limits=Limits(nodes=args.nodes),
            progress=(lambda done, total: show(done, total, None)) if show else None,
        )
    if args.out:
        from game.cli.chart import write_chart

        try:
            path = write_chart(analysis, args.out)
        except OSError as exc:
            print(f"{where}: cannot write {args.out}: {exc}", file=sys.stderr)
            return 1
        print(f"picture: {path}")
    print("\n".join(analysis.lines()))
    return 0


def _record(args: argparse.Namespace, where: str) -> int:
    """``rules record FILE [--out FILE]``: the record read, every line played, and written."""
    from game.logic.rules.records import check_record, end_of, read_record, write_record
    from game.logic.rules.sexpr import DescriptionError
    from game.safewrite import write_bytes_atomic
    from game.userfiles import UserFileError, read_text

    try:
        record = read_record(read_text(args.game, "game record"), args.game)
        rulebook = _rulebook(record.game, record.parameters)
        record = check_record(rulebook, record, args.game)
    except (ValueError, UserFileError, DescriptionError) as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    print(
        f"game={record.game} format={record.format} lines={sum(1 for _ in record.lines())} "
        f"moves={len(record.main_line())} all_moves={record.count()} result={record.result}"
    )
    print(f"end={end_of(rulebook, record).text()}")
    if args.out is not None:
        try:
            write_bytes_atomic(Path(args.out), write_record(rulebook, record).encode("utf-8"))
        except OSError as exc:
            print(f"{where}: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"wrote {args.out}")
    return 0


def _variants(name: str, where: str) -> int:
    """``rules variants FILE.zrf``: ``N title`` for each game of the file."""
    from game.games.rules.file import zrf_file
    from game.logic.rules.sexpr import DescriptionError
    from game.logic.zrf.load import variants
    from game.userfiles import UserFileError

    if Path(name).suffix.lower() != ".zrf":
        print(f"{where}: {name} is not a .zrf file (only those have variants)", file=sys.stderr)
        return 2
    try:
        text, source, _, include = zrf_file(Path(name))
        found = variants(text, source, include)
    except (DescriptionError, UserFileError) as exc:
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    for variant in found:
        print(f"{variant.index} {variant.title}")
    return 0


def _rulebook(name: str, values: dict[str, int], variant: int = 0):  # type: ignore[no-untyped-def]
    from game.logic.rules import catalogue
    from game.logic.rules.design import parse
    from game.logic.rules.sexpr import DescriptionError
    from game.userfiles import read_text

    if variant or Path(name).suffix.lower() == ".zrf":  # a variant of a non-.zrf: refused
        from game.games.rules.file import read_rulebook

        return read_rulebook(Path(name), values, variant)
    if name in catalogue.shipped():
        if values:  # checked here, so that a shipped game names what is wrong as a file does
            parse(catalogue.path_of(name).read_text(encoding="utf-8"), name, values)
        return catalogue.rulebook(name, values)
    path = Path(name)
    if path.suffix != ".txt" and not path.exists():
        raise DescriptionError(
            f"no described game {name!r} and no such file; the games: "
            f"{', '.join(catalogue.shipped())}"
        )
    # The one reader of a file a person names: a pipe, a device or a folder is refused
    # before it is opened, and so is a file over its size cap.
    text = read_text(path, "game description")
    return catalogue.rulebook_for_text(text, str(path), values)
