"""``gamehall rules``: the described games' own commands.

    gamehall rules perft chess 4
    gamehall rules perft english-draughts 3 --position "B:W18,26,27:B1,2,3" --divide
    gamehall rules check my-game.txt
    gamehall rules list
    gamehall rules record game.pgn --out again.pgn

``perft`` counts the move paths of a depth from the start (or ``--position``, in the game's
own notation: FEN for chess, PDN's FEN for draughts, the 64 squares and the side for
Othello), with ``--divide`` a line per first move; its last line is
``depth=D nodes=N seconds=S``. ``check`` reads a description and says what is wrong (file,
line, column) or what it holds. ``list`` prints the shipped descriptions. ``record`` reads a
game record (PGN, PDN, SGF or the plain record: :mod:`game.logic.rules.records`), plays every
variation and prints what it holds and where its main line ends; ``--out FILE`` writes it again
as Gamehall writes it.
GAME is a shipped game's id or a description file.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Final

__all__ = ["add_arguments", "run_rules"]

#: The deepest perft asked for; each ply multiplies the time (chess: about 30 times).
MAX_DEPTH: Final = 20
ACTIONS: Final = ("perft", "check", "list", "record")


def add_arguments(p: argparse.ArgumentParser, full: bool) -> None:
    from game.arguments import whole

    p.add_argument("action", nargs=None if full else "?", choices=ACTIONS, help="what to do")
    p.add_argument(
        "game", nargs="?", metavar="GAME", help="a described game's id or file (record: the record)"
    )
    p.add_argument("--out", type=Path, metavar="FILE", help="record: write the record here")
    p.add_argument("depth", nargs="?", type=whole(0, MAX_DEPTH), help="perft: the depth")
    p.add_argument("--position", metavar="TEXT", help="perft: the position to start from")
    p.add_argument("--divide", action="store_true", help="perft: a line per first move")
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
        rulebook = _rulebook(args.game, values)
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
        return 0
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


def _rulebook(name: str, values: dict[str, int]):  # type: ignore[no-untyped-def]
    from game.logic.rules import catalogue
    from game.logic.rules.design import parse
    from game.logic.rules.sexpr import DescriptionError
    from game.userfiles import read_text

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
