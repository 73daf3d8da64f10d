"""The server over real sockets: two clients play a public game to its end while a spectator
sees every step, in the test's own event loop; and ``gamehall serve`` killed and started again
on the same folder resumes a match from the same ply."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from game.server.protocol import MAX_FRAME
from game.server.serve import GameServer
from game.server.store import SqliteStore
from tests.server_helpers import PATIENCE


class Client:
    """A plain websockets client that keeps every frame it received."""

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self.frames: list[dict[str, Any]] = []

    async def send(self, **message: Any) -> None:
        await self.websocket.send(json.dumps(message))

    async def next(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next frame of ``kind`` (with ``fields``), awaited; the ones before it are kept."""
        async with asyncio.timeout(PATIENCE):
            while True:
                frame = json.loads(await self.websocket.recv())
                self.frames.append(frame)
                if frame["type"] == kind and all(frame.get(k) == v for k, v in fields.items()):
                    return frame


async def opened(address: str) -> Client:
    # No backpressure: a test client reads only what it waits for and closes at once.
    return Client(await connect(address, max_size=MAX_FRAME, max_queue=None))


async def play_over_loopback(folder: Path) -> None:
    store = SqliteStore(folder / "server.sqlite3")
    server = GameServer(store, "127.0.0.1", 0, rate=(1.0, 40))
    host, port = await server.start()
    address = f"ws://{host}:{port}"
    try:
        ann, bob, eve = [await opened(address) for _ in range(3)]
        await ann.send(type="hello", version=1, name="Ann")
        welcome = await ann.next("welcome")
        assert "tic-tac-toe" in {g["id"] for g in welcome["games"]}
        await ann.send(type="create", game="tic-tac-toe", id=1)
        made = await ann.next("created", re=1)
        code = made["code"]
        await bob.send(type="join", code=code)
        joined = await bob.next("joined")
        await eve.send(type="watch", code=code)
        await eve.next("snapshot")
        tokens = [made["token"], joined["token"]]
        moves = ["b2", "a1", "c1", "a3", "a2", "c3", "b3", "b1", "c2"]
        for ply, action in enumerate(moves):
            mover = (ann, bob)[ply % 2]
            await mover.send(type="act", code=code, token=tokens[ply % 2], ply=ply, action=action)
            await mover.next("update", ply=ply + 1)
        last = await eve.next("update", ply=len(moves))
        assert last["over"] and last["result"]
        seen = [f["step"]["text"] for f in eve.frames if f["type"] == "update"]
        assert seen == moves
        await ann.send(type="ping", t=5, id=2)
        assert (await ann.next("pong", re=2))["t"] == 5
        await eve.send(type="status")
        listed = (await eve.next("status"))["matches"]
        assert [(m["code"], m["ply"], m["over"]) for m in listed] == [(code, 9, True)]
        await bob.websocket.send("{not json")
        assert (await bob.next("error"))["reason"] == "bad-json"
        await status_page(host, port, code)
        for _ in range(60):  # over the burst this test allows: some are refused
            await bob.send(type="ping", t=1)
        await bob.next("error", reason="busy")
        try:
            await eve.websocket.send("x" * (MAX_FRAME + 1))
            await eve.next("never")
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1009
        for client in (ann, bob):
            await client.websocket.close()
    finally:
        await server.stop()
        store.close()


async def status_page(host: str, port: int, code: str) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /status HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    async with asyncio.timeout(PATIENCE):
        page = (await reader.read(65536)).decode()
    writer.close()
    assert page.startswith("HTTP/1.1 200") and code in page and "tic-tac-toe" in page


def test_two_clients_play_to_the_end_and_a_spectator_sees_every_step(tmp_path: Path) -> None:
    asyncio.run(play_over_loopback(tmp_path))


async def started(folder: Path) -> tuple[asyncio.subprocess.Process, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "game", "serve", "--port", "0", "--data", str(folder),
        stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert process.stdout is not None
    async with asyncio.timeout(PATIENCE):
        first = (await process.stdout.readline()).decode()
        second = (await process.stdout.readline()).decode()
    assert first.startswith("serving on ws://"), first
    assert second == f"database: {folder / 'gamehall-server.sqlite3'}\n"
    return process, first.split()[-1]


async def kill_and_resume(folder: Path) -> None:
    process, address = await started(folder)
    async with connect(address) as websocket:
        ann = Client(websocket)
        await ann.send(type="create", game="tic-tac-toe")
        made = await ann.next("created")
        await ann.send(type="act", code=made["code"], token=made["token"], ply=0, action="b2")
        await ann.next("update", ply=1)
    process.kill()
    await process.wait()

    process, address = await started(folder)
    try:
        async with connect(address) as websocket:
            ann = Client(websocket)
            await ann.send(type="resume", code=made["code"], token=made["token"])
            snapshot = await ann.next("snapshot")
            assert snapshot["ply"] == 1 and snapshot["record"] == [{"seat": 0, "text": "b2"}]
            await ann.send(type="join", code=made["code"])
            bob = (await ann.next("joined"))["token"]
            await ann.send(type="act", code=made["code"], token=bob, ply=1, action="a1")
            await ann.next("update", ply=2)
    finally:
        process.send_signal(signal.SIGINT)
        async with asyncio.timeout(PATIENCE):
            assert await process.wait() == 0


def test_serve_killed_and_started_again_resumes_the_match_and_stops_on_ctrl_c(
    tmp_path: Path,
) -> None:
    asyncio.run(kill_and_resume(tmp_path))
