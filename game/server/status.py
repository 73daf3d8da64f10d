"""``gamehall status HOST:PORT``: a server's matches, their seats, who is connected and how
fast each connection answers: the server's ``status`` message, as the table its ``/status``
page shows."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from game.server.address import parse_address
from game.server.client import Client, Refused, Unreachable
from game.server.serve import status_table

__all__ = ["fetch_status", "run_status"]


async def fetch_status(host: str, port: int, timeout: float = 10.0) -> dict[str, Any]:
    """The server's ``status`` answer; raises :class:`~game.server.client.Unreachable` when
    no server answers."""
    client = Client(host, port, name="gamehall status", ping_every=3600.0)
    await client.connect(timeout=timeout)
    try:
        return await client.status()
    except (ConnectionError, TimeoutError) as exc:
        raise Unreachable(f"the server at {client.uri} stopped answering: {exc}") from None
    finally:
        await client.close()


def run_status(address: str, timeout: float = 10.0) -> int:
    """``gamehall status``: print the table; 1 with one line when no server answers."""
    try:
        host, port = parse_address(address)
    except ValueError as exc:
        print(f"gamehall status: {exc}", file=sys.stderr)
        return 2
    try:
        status = asyncio.run(fetch_status(host, port, timeout))
    except (Unreachable, Refused) as exc:
        print(f"gamehall status: {exc}", file=sys.stderr)
        return 1
    print(status_table(list(status.get("matches") or ())), end="", flush=True)
    return 0
