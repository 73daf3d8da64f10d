"""A server on loopback in the test's own event loop: port 0 (the system picks), its store in
the test's temporary folder, the host reachable for the true state."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

from game.server.host import MatchHost as Host
from game.server.protocol import MAX_FRAME, ProtocolError, encode, parse
from game.server.store import SqliteStore

#: Seconds a test waits for what should come at once: it fails only if it never comes.
PATIENCE = 60.0


@contextlib.asynccontextmanager
async def loopback(folder: Path) -> AsyncIterator[tuple[Host, int]]:
    """A server on ``127.0.0.1`` at a free port, keeping its matches under ``folder``:
    yields its host and the port."""
    loop = asyncio.get_running_loop()
    sockets: dict[Any, ServerConnection] = {}
    sending: set[asyncio.Task[None]] = set()

    def sent(task: asyncio.Task[None]) -> None:
        sending.discard(task)
        if not task.cancelled():
            task.exception()  # a frame to a connection that closed meanwhile: dropped

    def send(client: Any, text: str) -> None:
        ws = sockets.get(client)
        if ws is not None:
            task = loop.create_task(ws.send(text))
            sending.add(task)
            task.add_done_callback(sent)

    host = Host(SqliteStore(folder / "server.sqlite3"), send, schedule=loop.call_soon_threadsafe)

    async def handler(ws: ServerConnection) -> None:
        sockets[ws.id] = ws
        try:
            async for raw in ws:
                try:
                    message = parse(raw)
                except ProtocolError as exc:
                    await ws.send(encode("error", reason=exc.reason, message=exc.message))
                    continue
                host.handle(ws.id, message)
        except Exception:
            pass
        finally:
            sockets.pop(ws.id, None)
            host.drop(ws.id)

    async with serve(handler, "127.0.0.1", 0, max_size=MAX_FRAME) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        try:
            yield host, port
        finally:
            host.close()
