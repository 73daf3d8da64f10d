"""``gamehall serve``: host matches of every game over WebSocket JSON until stopped.

It prints ``serving on ws://HOST:PORT`` (the real port, with ``--port 0``) and
``database: PATH`` before it accepts anyone; Ctrl-C or SIGTERM closes every connection
(1001), keeps what was played and exits 0. ``docs/server.md`` describes the protocol.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from game.server.protocol import DEFAULT_PORT

if TYPE_CHECKING:
    from game.server.store import MatchStore

__all__ = ["add_arguments", "run_serve"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    from game.arguments import whole

    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0: every network)",
    )
    p.add_argument(
        "--port", type=whole(0, 65535), default=DEFAULT_PORT,
        help=f"port to listen on, 0..65535 (default {DEFAULT_PORT}; 0: any free one)",
    )  # fmt: skip
    p.add_argument(
        "--data",
        type=Path,
        metavar="FOLDER",
        help="folder of the matches' database (default: the user data folder)",
    )
    p.add_argument("--database", metavar="URL", help="the database instead: sqlite:///PATH")


def run_serve(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM; returns 0 after a clean stop."""
    from game.server.store import open_store

    store = open_store(args.data, args.database)
    try:
        return asyncio.run(_serve(args, store))
    finally:
        store.close()


async def _serve(args: argparse.Namespace, store: MatchStore) -> int:
    from game.server.serve import GameServer

    server = GameServer(store, args.host, args.port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    host, port = await server.start()
    shown = f"[{host}]" if ":" in host else host
    print(f"serving on ws://{shown}:{port}", flush=True)
    print(f"database: {getattr(store, 'path', args.database)}", flush=True)
    if server.host is not None and server.host.damaged:
        print(f"damaged matches kept aside: {', '.join(server.host.damaged)}", file=sys.stderr)
    await stop.wait()
    await server.stop()
    print("stopped", file=sys.stderr, flush=True)
    return 0
