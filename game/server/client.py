"""A client of ``gamehall serve``: one WebSocket connection that keeps what it was sent.

:class:`Client` (asyncio) says ``hello``, sends the protocol's requests (each with an ``id``
its answer echoes as ``re``), and reads every frame on a task of its own: a ``snapshot``
replaces what it knew of a match, each ``update`` is applied in order of ``ply`` (a gap, or
a step its replica cannot read, asks the server for a snapshot again). A lost connection is
retried with a capped exponential back-off; once back, every seat it holds is resumed by its
token and every match it watched is watched again, so the match goes on where it was.
``ping`` runs meanwhile: :attr:`Client.latency_ms` is the running median of the round trips,
:attr:`Client.reconnects` counts the connections made again.

:class:`RemoteMatch` is what the client knows of one match, with its
:class:`~game.server.replica.Replica` where the match is public. A game that hides something
sends no ``start_seed``; its client reads the ``view`` and ``legal`` it is sent.

:class:`RemoteLink` runs a :class:`Client` on a thread of its own and hands what arrives to a
queue, for a caller (a window's drawing thread) that must never wait for the network.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import json
import logging
import os
import queue
import random
import socket
import statistics
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from game.server.protocol import MAX_FRAME, VERSION
from game.server.replica import Replica, ReplicaError

__all__ = [
    "Client",
    "Refused",
    "RemoteLink",
    "RemoteMatch",
    "Unreachable",
]

log = logging.getLogger(__name__)

#: Seconds the first wait after a lost connection lasts; each failed try doubles it up to
#: :data:`MAX_BACKOFF`.
FIRST_BACKOFF: Final = 0.05
MAX_BACKOFF: Final = 5.0
#: Round trips the latency's median is taken over.
LATENCY_SAMPLES: Final = 15


class Unreachable(ConnectionError):
    """No server answered at the address (or it stopped answering for good)."""


class Refused(Exception):
    """The server's ``error`` answer to a request: ``reason`` (the protocol's word) and its
    ``message``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{message} ({reason})" if message else reason)
        self.reason = reason
        self.message = message


@dataclass
class RemoteMatch:
    """What this client knows of one match: the latest snapshot with every update since
    applied (``ply``, ``to_move``, ``over``, ``result``, ``returns``, ``view``, ``legal``),
    the seat it holds with its token (None: it watches), and the replica of a public match.
    ``version`` grows with every change; :meth:`Client.changed` waits for it."""

    code: str
    token: str | None = None
    seat: int | None = None
    snapshot: dict[str, Any] = field(default_factory=dict)
    record: list[dict[str, Any]] = field(default_factory=list)
    ply: int = -1  # no snapshot yet
    to_move: int | None = None
    over: bool = False
    result: str | None = None
    returns: list[float] | None = None
    view: Any = None
    legal: list[str] | None = None
    replica: Replica | None = None
    version: int = 0
    resyncs: int = 0
    _changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def hides(self) -> bool:
        """Whether the server keeps this match's start and others' steps from this client."""
        return self.snapshot.get("start_seed") is None

    def take_snapshot(self, message: Mapping[str, Any]) -> None:
        self.snapshot = dict(message)
        self.record = [dict(s) for s in message.get("record") or ()]
        self.ply = int(message.get("ply", len(self.record)))
        if message.get("you") is not None:
            self.seat = int(message["you"])
        self._take(message)
        try:
            self.replica = Replica.from_snapshot(message)
        except ReplicaError as exc:
            log.warning("match %s: the replica does not rebuild: %s", self.code, exc)
            self.replica = None

    def take_update(self, message: Mapping[str, Any]) -> None:
        """Apply an update whose ``ply`` follows this one's; raises ReplicaError when the
        replica cannot follow its step (nothing of the match is changed then)."""
        step = dict(message.get("step") or {})
        if self.replica is not None:
            self.replica.apply(step)
        self.record.append(step)
        self.ply = int(message["ply"])
        self._take(message)

    def end(self, message: Mapping[str, Any]) -> None:
        """Take the end of the match that an update with no new step says (a resignation)."""
        self._take(message)

    def _take(self, message: Mapping[str, Any]) -> None:
        self.to_move = message.get("to_move")
        self.over = bool(message.get("over"))
        self.result = message.get("result")
        self.returns = message.get("returns")
        if "view" in message:
            self.view = message["view"]
        legal = message.get("legal")
        self.legal = list(legal) if isinstance(legal, list) else None
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()


class Client:
    """One connection to a server; see the module docstring. ``on_message`` is called with
    every message the server sends, after the client has taken it in."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str = "gamehall",
        ping_every: float = 1.0,
        retry_for: float = 60.0,
        on_message: Any = None,
    ) -> None:
        self.uri = f"ws://{host}:{port}"
        self.name = name[:40]
        self.ping_every = ping_every
        self.retry_for = retry_for
        self.on_message = on_message
        self.matches: dict[str, RemoteMatch] = {}
        self.welcome: dict[str, Any] = {}
        self.reconnects = 0
        self.lost: BaseException | None = None
        self._rtts: deque[float] = deque(maxlen=LATENCY_SAMPLES)
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[Any]] = []
        self._closing = False
        self._online = asyncio.Event()
        self._gone = asyncio.Event()  # set once the connection is lost for good

    # -- what it knows ---------------------------------------------------------------------

    @property
    def latency_ms(self) -> float | None:
        """The median round trip of the last pings, in milliseconds (None: none yet)."""
        return statistics.median(self._rtts) * 1000 if self._rtts else None

    @property
    def connected(self) -> bool:
        return self._online.is_set()

    def match(self, code: str) -> RemoteMatch:
        """What this client knows of the match ``code`` (a blank one before its snapshot)."""
        if code not in self.matches:
            self.matches[code] = RemoteMatch(code)
        return self.matches[code]

    async def changed(self, code: str, seen: int, timeout: float | None = None) -> RemoteMatch:
        """The match ``code`` once its ``version`` is past ``seen``; raises
        :class:`Unreachable` when the connection is lost for good, TimeoutError after
        ``timeout`` seconds."""
        remote = self.match(code)
        async with asyncio.timeout(timeout):
            while remote.version <= seen:
                if self.lost is not None:
                    raise Unreachable(str(self.lost))
                waiter = asyncio.ensure_future(remote._changed.wait())
                gone = asyncio.ensure_future(self._gone.wait())
                try:
                    await asyncio.wait({waiter, gone}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    waiter.cancel()
                    gone.cancel()
        return remote

    # -- connecting ------------------------------------------------------------------------

    async def connect(self, timeout: float = 10.0) -> dict[str, Any]:
        """Open the connection and say hello; returns the ``welcome``. Raises
        :class:`Unreachable` when no server answers, :class:`Refused` when it refuses."""
        await self._open(timeout)
        self._tasks.append(asyncio.create_task(self._pinging()))
        return self.welcome

    async def _open(self, timeout: float) -> None:
        try:
            async with asyncio.timeout(timeout):
                ws = await connect(self.uri, max_size=MAX_FRAME, open_timeout=timeout)
                await ws.send(json.dumps({"type": "hello", "version": VERSION, "name": self.name}))
                answer = json.loads(await ws.recv())
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI, ConnectionClosed) as exc:
            raise Unreachable(f"no gamehall server answers at {self.uri}: {_why(exc)}") from None
        except ValueError:
            raise Unreachable(f"{self.uri} answered with something that is not JSON") from None
        if answer.get("type") == "error":
            await ws.close()
            raise Refused(str(answer.get("reason")), str(answer.get("message", "")))
        if answer.get("type") != "welcome":
            await ws.close()
            raise Unreachable(f"{self.uri} did not welcome us (it sent {answer.get('type')!r})")
        self.welcome = answer
        self._ws = ws
        self._online.set()
        self._tasks.append(asyncio.create_task(self._reading(ws)))

    async def close(self) -> None:
        """Close the connection for good (no reconnect); pending requests fail."""
        self._closing = True
        for task in self._tasks:
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._fail_pending(Unreachable("the client closed its connection"))

    def drop(self) -> None:
        """Cut the connection as a network fault would (tests): the client reconnects."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def _reading(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                self._take(raw)
        except ConnectionClosed:
            pass
        if self._closing or ws is not self._ws:
            return
        self._online.clear()
        self._fail_pending(ConnectionError("the connection was lost"))
        log.info("lost the connection to %s; trying again", self.uri)
        await self._reconnect()

    async def _reconnect(self) -> None:
        wait, since = FIRST_BACKOFF, time.monotonic()
        while not self._closing:
            await asyncio.sleep(wait * random.uniform(0.5, 1.0))
            try:
                await self._open(timeout=max(wait, 1.0))
            except (Unreachable, Refused) as exc:
                if time.monotonic() - since > self.retry_for:
                    self.lost = exc
                    self._gone.set()
                    return
                wait = min(wait * 2, MAX_BACKOFF)
                continue
            self.reconnects += 1
            log.info("connected again to %s (%d reconnects)", self.uri, self.reconnects)
            for remote in list(self.matches.values()):
                await self.resync(remote)
            return

    async def resync(self, remote: RemoteMatch) -> None:
        """Ask for a fresh snapshot of ``remote``: by its token where it holds a seat."""
        remote.resyncs += 1
        if remote.token is not None:
            await self.send("resume", code=remote.code, token=remote.token)
        else:
            await self.send("watch", code=remote.code)

    async def _pinging(self) -> None:
        while not self._closing:
            await asyncio.sleep(self.ping_every)
            if self.connected:
                with contextlib.suppress(ConnectionError, ConnectionClosed):
                    await self.send("ping", t=time.monotonic())

    # -- sending ---------------------------------------------------------------------------

    async def send(self, kind: str, **fields: Any) -> int:
        """Send one message (with a fresh ``id``, returned) without waiting for its answer;
        raises ConnectionError while there is no connection."""
        ws = self._ws
        if ws is None or not self.connected:
            raise ConnectionError("not connected")
        number = next(self._ids)
        try:
            await ws.send(json.dumps({"type": kind, "id": number, **fields}))
        except ConnectionClosed:
            raise ConnectionError("the connection was lost") from None
        return number

    async def request(self, kind: str, timeout: float = 30.0, **fields: Any) -> dict[str, Any]:
        """Send one message and return the answer that echoes its ``id``; raises
        :class:`Refused` for an ``error``, ConnectionError when the connection is lost first."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        ws = self._ws
        if ws is None or not self.connected:
            raise ConnectionError("not connected")
        number = next(self._ids)
        self._pending[number] = future
        try:
            await ws.send(json.dumps({"type": kind, "id": number, **fields}))
            async with asyncio.timeout(timeout):
                answer = await future
        except ConnectionClosed:
            raise ConnectionError("the connection was lost") from None
        finally:
            self._pending.pop(number, None)
        if answer.get("type") == "error":
            raise Refused(str(answer.get("reason")), str(answer.get("message", "")))
        return answer

    async def create(
        self,
        game: str,
        seats: list[Any],
        *,
        options: Mapping[str, Any] | None = None,
        you: int | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> RemoteMatch:
        """Create a match (taking seat ``you``, if given); returns it once its snapshot came."""
        fields: dict[str, Any] = {"game": game, "options": dict(options or {}), "seats": seats}
        if you is not None:
            fields["you"] = you
        if rules:
            fields["rules"] = dict(rules)
        return await self._seated(await self.request("create", **fields))

    async def join(self, code: str, seat: int | None = None) -> RemoteMatch:
        """Take a seat of the match ``code`` (the first open one unless ``seat``)."""
        fields: dict[str, Any] = {"code": code} if seat is None else {"code": code, "seat": seat}
        return await self._seated(await self.request("join", **fields))

    async def watch(self, code: str) -> RemoteMatch:
        """Watch the match ``code``; returns it once its snapshot came."""
        await self.request("watch", code=code)
        return await self.changed(code, 0, timeout=30)

    async def _seated(self, answer: Mapping[str, Any]) -> RemoteMatch:
        remote = self.match(str(answer["code"]))
        remote.token, remote.seat = answer.get("token"), answer.get("seat")
        return await self.changed(remote.code, 0, timeout=30)  # its first snapshot

    async def act(
        self, code: str, action: str, ply: int | None = None, timeout: float = 30.0
    ) -> None:
        """Play ``action`` (its text) for the seat held in ``code`` at ``ply`` (default: the
        point this client saw) and return once the match has moved past that point; raises
        :class:`Refused` with the server's refusal, ConnectionError when the connection is
        lost first (the snapshot after the reconnect tells whether it was taken)."""
        remote = self.match(code)
        at = remote.ply if ply is None else ply
        fields = {"code": code, "token": remote.token, "ply": at, "action": action}
        answer = asyncio.ensure_future(self.request("act", timeout=timeout, **fields))
        answer.add_done_callback(_retrieved)
        moved = asyncio.ensure_future(self._past(remote, at))
        try:
            done, _ = await asyncio.wait(
                {answer, moved}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            moved.cancel()
        if answer in done or not done:
            if not done:
                answer.cancel()
                raise TimeoutError(f"no answer to {action!r} in {timeout:g} s")
            answer.result()  # raises the refusal
        else:
            answer.cancel()

    async def _past(self, remote: RemoteMatch, ply: int) -> None:
        seen = remote.version
        while remote.ply <= ply:
            await self.changed(remote.code, seen)
            seen = remote.version

    async def resume(self, code: str, token: str) -> RemoteMatch:
        """Take up again a seat held by ``token`` (kept from an earlier connection); returns
        the match once its snapshot came."""
        remote = self.match(code)
        remote.token = token
        await self.request("resume", code=code, token=token)  # the snapshot is the answer
        return remote

    async def hint(self, code: str) -> dict[str, Any]:
        """The server's hint for the seat held in ``code`` (``hint {action, text}``)."""
        return await self.request("hint", code=code, token=self.match(code).token)

    async def undo(self, code: str) -> int:
        """Ask to take back the last steps; the other persons answer (``undo-asked``)."""
        return await self.send("undo", code=code, token=self.match(code).token)

    async def answer_undo(self, code: str, accept: bool) -> int:
        """Accept or refuse another seat's ``undo-asked``."""
        return await self.send("undo-answer", code=code, token=self.match(code).token,
                               accept=accept)  # fmt: skip

    async def resign(self, code: str) -> int:
        return await self.send("resign", code=code, token=self.match(code).token)

    async def leave(self, code: str) -> int:
        return await self.send("leave", code=code, token=self.match(code).token)

    async def ping(self) -> float:
        """One round trip to the server, in milliseconds (it joins :attr:`latency_ms`)."""
        start = time.monotonic()
        await self.request("ping", t=start)
        return (time.monotonic() - start) * 1000

    async def status(self) -> dict[str, Any]:
        """The server's ``status``: its matches, their seats, who is connected."""
        return await self.request("status")

    # -- receiving -------------------------------------------------------------------------

    def _take(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            log.warning("%s sent a frame that is not JSON", self.uri)
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        try:
            if kind == "snapshot":
                self.match(str(message["code"])).take_snapshot(message)
            elif kind == "update":
                self._take_update(message)
            elif kind == "pong":
                t = message.get("t")
                if isinstance(t, int | float):
                    self._rtts.append(max(0.0, time.monotonic() - float(t)))
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("%s sent a %s this client cannot read: %s", self.uri, kind, exc)
        if kind == "error" and message.get("re") is None and message.get("reason") == "busy":
            # Refused before it was read (the server's rate limit): which request is not
            # said, so every one waiting is answered with it and may be sent again later.
            for future in self._pending.values():
                if not future.done():
                    future.set_result(message)
        waiting = self._pending.get(message.get("re"))  # type: ignore[arg-type]
        if waiting is not None and not waiting.done():
            waiting.set_result(message)
        if self.on_message is not None:
            self.on_message(message)

    def _take_update(self, message: dict[str, Any]) -> None:
        remote = self.match(str(message["code"]))
        ply = int(message["ply"])
        if remote.ply >= 0 and ply == remote.ply and message.get("over") and not remote.over:
            remote.end(message)  # a resignation: the match ends with no step
            return
        if remote.ply < 0 or ply <= remote.ply:
            return  # before the snapshot, or a step the snapshot already holds
        if ply > remote.ply + 1:
            log.info("match %s: update %d after %d; asking for a snapshot", remote.code, ply,
                     remote.ply)  # fmt: skip
            self._later(self.resync(remote))
            return
        try:
            remote.take_update(message)
        except ReplicaError as exc:
            log.warning("match %s: %s; asking for a snapshot", remote.code, exc)
            self._later(self.resync(remote))

    def _later(self, work: Any) -> None:
        async def run() -> None:
            with contextlib.suppress(ConnectionError, ConnectionClosed):
                await work

        self._tasks.append(asyncio.create_task(run()))

    def _fail_pending(self, error: BaseException) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()


class RemoteLink:
    """A :class:`Client` on a thread of its own (see the module docstring): every message
    the server sends goes to :attr:`messages`; :meth:`send` and :meth:`request` never block
    the caller (they return a ``concurrent.futures.Future``)."""

    def __init__(self, host: str, port: int, *, name: str = "gamehall") -> None:
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self.client = Client(host, port, name=name, on_message=self.messages.put)
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="gamehall-link")  # fmt: skip
        self._thread.start()

    def start(self) -> concurrent.futures.Future[dict[str, Any]]:
        """Connect; the future gives the ``welcome`` (or raises :class:`Unreachable`)."""
        return asyncio.run_coroutine_threadsafe(self.client.connect(), self._loop)

    def send(self, kind: str, **fields: Any) -> concurrent.futures.Future[int]:
        return asyncio.run_coroutine_threadsafe(self.client.send(kind, **fields), self._loop)

    def request(self, kind: str, **fields: Any) -> concurrent.futures.Future[dict[str, Any]]:
        return asyncio.run_coroutine_threadsafe(self.client.request(kind, **fields), self._loop)

    @property
    def latency_ms(self) -> float | None:
        return self.client.latency_ms

    @property
    def reconnects(self) -> int:
        return self.client.reconnects

    def close(self) -> None:
        """Close the connection and end the thread."""
        if self._loop.is_closed():
            return
        done = asyncio.run_coroutine_threadsafe(self.client.close(), self._loop)
        with contextlib.suppress(Exception):
            done.result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        self._loop.close()


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Mark what a task raised as seen: an answer no longer awaited (the match moved on, or
    the connection went) is nobody's error."""
    if not task.cancelled():
        task.exception()


def _why(exc: BaseException) -> str:
    """A short reason for a failed connection."""
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, socket.gaierror):
        return "no such host"
    if isinstance(exc, OSError) and exc.errno:
        return os.strerror(exc.errno).lower()
    return str(exc) or type(exc).__name__
