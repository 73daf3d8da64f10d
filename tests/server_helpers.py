"""What the server's tests share: a host on a temporary store whose answers are recorded per
client, and a wait for the computer seats that fails only when they never answer."""

from __future__ import annotations

import concurrent.futures
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from game.server.host import MatchHost
from game.server.protocol import parse
from game.server.store import SqliteStore

#: Seconds a test waits for something that should come at once (it fails only if it never does).
PATIENCE = 60.0


class Recorder:
    """``send`` for a host: every frame each client received, as dicts."""

    def __init__(self) -> None:
        self.frames: dict[Any, list[dict[str, Any]]] = defaultdict(list)

    def __call__(self, client: Any, text: str) -> None:
        self.frames[client].append(json.loads(text))

    def last(self, client: Any, kind: str | None = None) -> dict[str, Any]:
        found = [f for f in self.frames[client] if kind is None or f["type"] == kind]
        assert found, f"{client} received no {kind or 'frame'}: {self.frames[client]}"
        return found[-1]

    def kinds(self, client: Any) -> list[str]:
        return [f["type"] for f in self.frames[client]]


def make_host(folder: Path, **kwargs: Any) -> tuple[MatchHost, Recorder]:
    sent = Recorder()
    return MatchHost(SqliteStore(folder / "server.sqlite3"), sent, **kwargs), sent


def ask(host: MatchHost, client: Any, **message: Any) -> None:
    """Send ``message`` as ``client`` would: written, read back by the protocol, handled."""
    host.handle(client, parse(json.dumps(message)))


def settle(host: MatchHost) -> None:
    """Run the computer seats' choices as they come back, until none is being made."""
    while host.thinking():
        assert host.pump(timeout=PATIENCE), "a computer seat never answered"
    while host.pump(timeout=0):
        pass


class Never(concurrent.futures.Executor):
    """An executor whose work never runs: a server killed while its computer thought."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        return concurrent.futures.Future()
