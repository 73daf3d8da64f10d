"""The server that runs inside another program (``gamehall play GAME --serve``): it listens
once ``start`` returns, keeps its matches in the folder it was given, says in one line that
a port is taken, and closes every connection when stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from game.server.background import BackgroundServer, reachable_address
from game.server.protocol import VERSION


def _ask(ws, **message):
    ws.send(json.dumps(message))
    while True:  # the answer to this message (snapshots and seat news may come between)
        answer = json.loads(ws.recv(timeout=60))
        if answer.get("re") == message.get("id") or answer["type"] == "error":
            return answer


def test_a_server_in_the_background_hosts_keeps_and_stops(tmp_path: Path) -> None:
    served = BackgroundServer(tmp_path, "127.0.0.1", 0)
    port = served.start()
    try:
        with connect(f"ws://127.0.0.1:{port}") as ws:
            welcome = _ask(ws, type="hello", id=1, version=VERSION, name="Ann")
            assert welcome["type"] == "welcome"
            made = _ask(ws, type="create", id=2, game="tic-tac-toe", seats=["person", "open"])
            assert made["type"] == "created" and len(made["code"]) == 6
            taken = BackgroundServer(tmp_path, "127.0.0.1", port)
            with pytest.raises(OSError):
                taken.start()
        assert Path(served.database).parent == tmp_path and Path(served.database).is_file()
        with connect(f"ws://127.0.0.1:{port}") as ws:
            served.stop()
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=60)
    finally:
        served.stop()


def test_the_address_a_friend_dials_is_not_the_loopback() -> None:
    found = reachable_address()
    assert found and not found.startswith("127.0.0.1")
