"""``gamehall status HOST:PORT``: a server's matches, their seats, who is connected and how
fast each connection answers, as a table (the server's ``status`` message)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from typing import Any

from game.server.client import Client, Refused, Unreachable, parse_address

__all__ = ["fetch_status", "run_status", "status_table"]


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


def status_table(status: Mapping[str, Any]) -> str:
    """``status`` as a table: a row a seat, under its match's code, game, ply and state."""
    matches = list(status.get("matches") or ())
    if not matches:
        return "no matches"
    rows = [("match", "game", "ply", "state", "seat", "kind", "name", "connected", "latency")]
    for match in matches:
        state = "over" if match.get("over") else "playing"
        first = (str(match.get("code")), str(match.get("game")), str(match.get("ply")), state)
        for seat in match.get("seats") or ():
            latency = seat.get("latency_ms")
            rows.append(
                (
                    *first,
                    str(seat.get("seat")),
                    str(seat.get("kind") or ""),
                    str(seat.get("name") or "-"),
                    "yes" if seat.get("connected") else "no",
                    "-" if latency is None else f"{float(latency):.1f} ms",
                )
            )
            first = ("", "", "", "")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(line.rstrip() for line in lines)


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
    print(status_table(status), flush=True)
    return 0
