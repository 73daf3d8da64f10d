"""A server that runs beside something else in the same process: ``gamehall play GAME
--serve`` hosts its match from the window's own process, so that a person needs one command
to host and their friend one to join.

:class:`BackgroundServer` runs a :class:`~game.server.serve.GameServer` on an event loop of
its own thread; :meth:`BackgroundServer.start` returns once it listens (or raises
``OSError`` in one line: the port is taken) and :meth:`BackgroundServer.stop` closes every
connection and the store. :func:`reachable_address` is the address a friend on the same
network dials.

>>> reachable_address() != ""
True
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import threading
from pathlib import Path
from typing import Final

from game.server.serve import GameServer
from game.server.store import MatchStore, open_store

__all__ = ["BackgroundServer", "reachable_address"]

#: Seconds :meth:`BackgroundServer.start` waits for the server to listen.
START_S: Final = 30.0
#: An address of the documentation range: a datagram socket "connected" to it says which of
#: this machine's addresses faces the network, without sending anything.
PROBE: Final = ("192.0.2.1", 9)


def reachable_address() -> str:
    """This machine's address on its network (the one its default route leaves from), else
    its host name; never a loopback address where another is known."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found = str(probe.getsockname()[0])
    except OSError:
        found = ""
    if found and not found.startswith("127.") and found != "0.0.0.0":
        return found
    return socket.gethostname() or "127.0.0.1"


class BackgroundServer:
    """A game server on a thread of its own (see the module docstring)."""

    def __init__(self, data: Path | None = None, host: str = "0.0.0.0", port: int = 0) -> None:
        self.data, self.bind = data, (host, port)
        self.port = 0
        self.database = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> int:
        """Listen; returns the port. Raises OSError (the port is taken, the database cannot
        be opened) with the reason in one line."""
        ready: concurrent.futures.Future[int] = concurrent.futures.Future()
        self._thread = threading.Thread(
            target=self._run, args=(ready,), name="gamehall-server", daemon=True
        )
        self._thread.start()
        try:
            self.port = ready.result(timeout=START_S)
        except concurrent.futures.TimeoutError:
            raise OSError("the server did not start listening in time") from None
        return self.port

    def stop(self) -> None:
        """Close every connection (1001) and the store; waits for the thread."""
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopped.set)
        if self._thread is not None:
            self._thread.join(timeout=START_S)

    def _run(self, ready: concurrent.futures.Future[int]) -> None:
        # The store is opened here: its database connection belongs to the thread using it.
        try:
            store = open_store(self.data, None)
        except Exception as exc:  # a database that cannot be opened: said by start()
            ready.set_exception(OSError(str(exc)))
            return
        self.database = str(getattr(store, "path", ""))
        try:
            asyncio.run(self._serve(store, ready))
        except Exception as exc:  # a port taken: said by start(), not on this thread
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, OSError) else OSError(str(exc)))
            else:
                raise
        finally:
            store.close()

    async def _serve(self, store: MatchStore, ready: concurrent.futures.Future[int]) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        server = GameServer(store, *self.bind)
        _host, port = await server.start()
        ready.set_result(port)
        try:
            await self._stopped.wait()
        finally:
            await server.stop()
