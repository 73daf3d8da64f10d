"""The real server on loopback in the test's own event loop: port 0 (the system picks), its
store in the test's temporary folder, its host reachable for the true state."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from game.server.host import MatchHost
from game.server.serve import GameServer
from game.server.store import SqliteStore
from tests.server_helpers import PATIENCE

__all__ = ["PATIENCE", "loopback"]


@contextlib.asynccontextmanager
async def loopback(folder: Path) -> AsyncIterator[tuple[MatchHost, int]]:
    """``gamehall serve`` on ``127.0.0.1`` at a free port, keeping its matches under
    ``folder``: yields its host and the port."""
    store = SqliteStore(folder / "server.sqlite3")
    server = GameServer(store, "127.0.0.1", 0)
    _, port = await server.start()
    try:
        assert server.host is not None
        yield server.host, port
    finally:
        await server.stop()
        store.close()
