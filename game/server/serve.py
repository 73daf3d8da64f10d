"""The WebSocket server around the host: connections, fan-out, limits, ``/status`` and a
clean stop.

Everything runs on one asyncio event loop: each connection reads its frames, checks each
with :func:`~game.server.protocol.parse` and hands it to the :class:`MatchHost`, which
answers through :meth:`Peer.send` (a queue per connection, written by its own task, so a slow
reader holds up nobody; one that falls too far behind is closed). Computer seats think in the
host's executor and their choices come back to the loop (``call_soon_threadsafe``). A plain
HTTP ``GET /status`` on the same port answers the matches as a text table.

>>> limiter = Bucket(rate=1.0, burst=2, now=lambda: 0.0)
>>> limiter.take(), limiter.take(), limiter.take()
(True, True, False)
"""

from __future__ import annotations

import asyncio
import http
import itertools
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from game.server.host import MatchHost
from game.server.protocol import MAX_FRAME, ProtocolError, encode, parse
from game.server.store import MatchStore

__all__ = ["MAX_CONNECTIONS", "Bucket", "GameServer", "Peer", "status_table"]

log = logging.getLogger(__name__)

#: The most connections open at once; more are refused with HTTP 503.
MAX_CONNECTIONS: Final = 4096
#: Messages a connection may send: this many a second on average, this many at once.
RATE: Final = 50.0
BURST: Final = 200
#: Frames waiting for a connection that reads too slowly before it is closed (1008).
BACKLOG: Final = 4096


class Bucket:
    """A token bucket: :meth:`take` is True while the sender stays under ``rate`` a second on
    average, with up to ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.now = rate, burst, now
        self.tokens = float(burst)
        self.when = now()

    def take(self) -> bool:
        moment = self.now()
        self.tokens = min(self.burst, self.tokens + (moment - self.when) * self.rate)
        self.when = moment
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Peer:
    """One connection as the host knows it: what to send it, in order."""

    _numbers = itertools.count(1)

    def __init__(self, websocket: ServerConnection, bucket: Bucket) -> None:
        self.websocket = websocket
        self.number = next(self._numbers)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = bucket
        self.closing = False
        address = websocket.remote_address
        self.address = f"{address[0]}:{address[1]}" if address else "?"

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= BACKLOG:
            log.warning("%s reads too slowly; closing it", self)
            self.closing = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    def latency(self) -> float | None:
        """The last measured round trip of a keep-alive ping, in seconds."""
        seconds = self.websocket.latency
        return seconds if seconds > 0 else None

    async def write(self) -> None:
        """Send what is queued until the connection closes (or falls too far behind)."""
        while True:
            text = await self.outbox.get()
            if text is None:
                await self.websocket.close(1008, "too far behind")
                return
            await self.websocket.send(text)

    def __repr__(self) -> str:
        return f"peer {self.number} ({self.address})"


class GameServer:
    """The server: ``await start()`` binds and returns the address; ``await stop()`` closes
    every connection with 1001 and waits for them; the store is the caller's to close."""

    def __init__(
        self,
        store: MatchStore,
        host: str = "127.0.0.1",
        port: int = 8765,
        *,
        rate: tuple[float, int] = (RATE, BURST),
    ) -> None:
        self.store = store
        self.rate = rate  # each connection's messages: a second on average, at once
        self.bind = (host, port)
        self.peers: set[Peer] = set()
        self.host: MatchHost | None = None
        self.server: Server | None = None
        self.started = time.time()

    async def start(self) -> tuple[str, int]:
        loop = asyncio.get_running_loop()

        def schedule(callback: Callable[[], None]) -> None:
            loop.call_soon_threadsafe(callback)

        self.host = MatchHost(self.store, self._send, schedule=schedule)
        self.server = await serve(
            self._connection,
            *self.bind,
            max_size=MAX_FRAME,
            process_request=self._http,
            ping_interval=20,
            # Frames are short JSON: compressing each costs more time than it saves bytes.
            compression=None,
            ping_timeout=20,
        )
        address = self.server.sockets[0].getsockname()
        return str(address[0]), int(address[1])

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close(close_connections=True)
            await self.server.wait_closed()
        if self.host is not None:
            self.host.close()

    def status(self) -> list[dict[str, Any]]:
        assert self.host is not None
        return self.host.status(lambda peer: peer.latency() if isinstance(peer, Peer) else None)

    def _send(self, client: Any, text: str) -> None:
        client.send(text)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """``GET /status`` answers the table; too many connections are refused (503)."""
        if request.path.split("?")[0] == "/status":
            return connection.respond(http.HTTPStatus.OK, status_table(self.status()))
        if len(self.peers) >= MAX_CONNECTIONS:
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "the server is full\n")
        return None

    async def _connection(self, websocket: ServerConnection) -> None:
        assert self.host is not None
        peer = Peer(websocket, Bucket(*self.rate))
        self.peers.add(peer)
        writer = asyncio.create_task(peer.write())
        log.info("%s connected", peer)
        try:
            async for frame in websocket:
                self._frame(peer, frame)
        except ConnectionClosed:
            pass
        finally:
            self.peers.discard(peer)
            self.host.drop(peer)
            writer.cancel()
            log.info("%s left", peer)

    def _frame(self, peer: Peer, frame: str | bytes) -> None:
        assert self.host is not None
        if not peer.bucket.take():
            self.host.refused(peer, "?", ProtocolError("busy", "too many messages: slow down"))
            return
        try:
            message = parse(frame)
        except ProtocolError as exc:
            self.host.refused(peer, "?", exc, re=exc.re)
            return
        except Exception:  # our bug in reading it: answered and logged, the connection stays
            log.exception("reading a frame from %s failed", peer)
            self.host.error(peer, "server", "the server failed to read this message (logged)")
            return
        if message["type"] == "status":  # the host's, with each connection's latency
            peer.send(encode("status", re=message.get("id"), matches=self.status()))
            return
        self.host.handle(peer, message)


def status_table(matches: list[dict[str, Any]]) -> str:
    """The matches as a text table: one line a match, its seats after it."""
    if not matches:
        return "no matches\n"
    lines = [f"{'code':6}  {'game':22}  {'ply':>5}  {'state':5}  seats"]
    for match in matches:
        seats = []
        for seat in match["seats"]:
            who = seat["name"] or seat["kind"]
            lag = f" {seat['latency_ms']:g}ms" if seat.get("latency_ms") is not None else ""
            mark = "+" if seat["connected"] else "-"
            seats.append(f"{seat['seat']}:{seat['kind']}:{who}{mark}{lag}")
        state = "over" if match["over"] else "live"
        head = f"{match['code']:6}  {match['game']:22}  {match['ply']:>5}  {state:5}"
        lines.append(f"{head}  {' '.join(seats)}")
    return "\n".join(lines) + "\n"
