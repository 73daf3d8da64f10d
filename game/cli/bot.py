"""``gamehall bot``: one seat of a server's match played by an agent of the game.

    gamehall bot --join ABC234@127.0.0.1:8765 --agent alphabeta
    gamehall bot --host 127.0.0.1:8765 --game reversi --seats bot,open

Parsed and checked here, played by :mod:`game.server.bot`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser, full: bool) -> None:
    from game.arguments import seconds, whole

    where = p.add_mutually_exclusive_group(required=full)
    where.add_argument("--join", metavar="CODE@HOST:PORT", help="take a seat of this match")
    where.add_argument("--host", metavar="HOST:PORT", help="create a match on this server")
    p.add_argument(
        "--seat", type=whole(0, 63), metavar="N", help="--join: this seat (default: the first open)"
    )
    p.add_argument(
        "--agent", metavar="NAME", help="the game's agent that plays (default: its hint agent)"
    )
    p.add_argument(
        "--think", type=seconds, default=1.0, metavar="SECONDS", help="seconds a choice (default 1)"
    )
    p.add_argument("--game", metavar="GAME", help="--host: the game of the match")
    p.add_argument(
        "--seats", metavar="A,B,...",
        help="--host: who sits where: bot (this bot), open (for a friend or another bot) or an "
        "agent the server plays (default: bot, then open)",
    )  # fmt: skip
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="--host: one of the game's options (repeat for more)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from game.server.address import parse_address, parse_join
    from game.server.bot import BotPlan, run_bot

    # A refused value raises ValueError: the dispatcher prints its line, status 2.
    if args.join:
        code, address = parse_join(args.join)
        host, port = parse_address(address)
        game: str | None = None
        seats: tuple[str, ...] = ()
        options: tuple[tuple[str, Any], ...] = ()
    else:
        host, port = parse_address(args.host)
        code = None
        game, seats, options = _creation(args)
    plan = BotPlan(
        host, port, code=code, seat=args.seat, agent=args.agent, think=args.think, game=game,
        seats=seats, options=options,
    )  # fmt: skip
    return run_bot(plan)


def _creation(args: argparse.Namespace) -> tuple[str, tuple[str, ...], tuple[tuple[str, Any], ...]]:
    """``--game``, ``--seats`` and ``--option`` of ``bot --host``, checked by the game's
    entry (raises ValueError with a line)."""
    from game.registry import get
    from game.server.bot import seats_of

    if not args.game:
        raise ValueError("bot --host needs --game GAME")
    entry = get(args.game)
    options: dict[str, Any] = {}
    for item in args.option:
        name, equals, text = item.partition("=")
        if not equals:
            raise ValueError(f"--option {item!r}: write NAME=VALUE")
        try:
            options[name.strip()] = json.loads(text)
        except ValueError:
            options[name.strip()] = text
    game = entry.game(options)
    seats = seats_of(args.seats) if args.seats else ("bot", *("open",) * (game.seats - 1))
    if len(seats) != game.seats:
        raise ValueError(f"--seats: {entry.title} has {game.seats} seats, not {len(seats)}")
    return entry.id, seats, tuple(options.items())
