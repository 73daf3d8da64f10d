"""The server's client without a server: addresses, the replica rebuilt from a recorded
snapshot, updates applied in order (a repeated one ignored, a gap or an unreadable step
answered by asking for a snapshot)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from game.registry import get
from game.server.address import parse_address, parse_join
from game.server.bot import seats_of
from game.server.client import Client
from game.server.replica import Replica, ReplicaError

GAME = "tic-tac-toe"


def _recorded(texts: list[str], seed: int = 7) -> dict[str, Any]:
    """A public match's snapshot as the server would send it after ``texts``."""
    state = get(GAME).game({}).initial_state(random.Random(seed))
    for text in texts:
        state = state.apply(state.parse_action(text))
    return {
        "type": "snapshot", "code": "ABCDEF", "game": GAME, "options": {}, "rules": {},
        "seats": [], "you": 0, "start_seed": seed,
        "record": [{"seat": i % 2, "text": t} for i, t in enumerate(texts)],
        "ply": len(texts), "to_move": state.current_player(), "over": state.is_terminal(),
        "result": None, "returns": list(state.returns()), "view": None,
    }  # fmt: skip


def _update(ply: int, text: str | None, to_move: int) -> str:
    return json.dumps(
        {"type": "update", "code": "ABCDEF", "ply": ply, "step": {"seat": 1 - to_move,
         "text": text}, "to_move": to_move, "over": False, "result": None, "returns": [0, 0]}
    )  # fmt: skip


def test_addresses_and_seats_read_back_or_are_refused_with_a_line() -> None:
    assert parse_address("127.0.0.1:9000") == ("127.0.0.1", 9000)
    assert parse_address("ws://example.org:80/") == ("example.org", 80)
    assert parse_address("[::1]:8765") == ("::1", 8765)
    assert parse_address("localhost") == ("localhost", 8765)
    assert parse_join("abc234@127.0.0.1:1234") == ("ABC234", "127.0.0.1:1234")
    with pytest.raises(ValueError, match="not an address"):
        parse_join("ABC234@127.0.0.1:http")
    for bad in ("127.0.0.1:http", "host:0", "host:70000", ":80", ""):
        with pytest.raises(ValueError, match="not an address"):
            parse_address(bad)
    with pytest.raises(ValueError, match="CODE@HOST:PORT"):
        parse_join("127.0.0.1:8765")
    assert seats_of("bot, open,master") == ("bot", "open", "master")
    with pytest.raises(ValueError, match="once"):
        seats_of("bot,bot")


def test_the_replica_is_the_servers_state_after_the_recorded_steps() -> None:
    texts = ["b2", "a1", "c3"]
    snapshot = _recorded(texts)
    replica = Replica.from_snapshot(snapshot)
    assert replica is not None and replica.ply == 3
    state = get(GAME).game({}).initial_state(random.Random(7))
    for text in texts:
        state = state.apply(state.parse_action(text))
    assert replica.state.key() == state.key()
    # A step it cannot read changes nothing.
    for bad in ({"seat": 1, "text": "b2"}, {"seat": 1, "text": "z9"}, {"seat": 1, "text": None}):
        with pytest.raises(ReplicaError):
            replica.apply(bad)
        assert replica.ply == 3 and replica.state.key() == state.key()
    # A hiding match (no start_seed) and an unknown game have no replica.
    assert Replica.from_snapshot({**snapshot, "start_seed": None}) is None
    assert Replica.from_snapshot({**snapshot, "game": "no-such-game"}) is None


def test_updates_apply_in_order_and_a_gap_or_a_bad_step_asks_for_a_snapshot() -> None:
    async def main() -> tuple[list[str], Any]:
        client = Client("127.0.0.1", 1)
        asked: list[str] = []

        async def resync(remote: Any) -> None:
            asked.append(remote.code)

        client.resync = resync  # type: ignore[method-assign]
        client._take(_update(1, "b2", 1))  # before any snapshot: ignored
        client._take(json.dumps(_recorded(["b2"])))
        remote = client.match("ABCDEF")
        client._take(_update(2, "a1", 0))
        client._take(_update(2, "a1", 0))  # repeated: ignored
        client._take(_update(4, "c1", 0))  # a gap
        client._take(_update(3, "a1", 1))  # a step the replica cannot apply
        await asyncio.sleep(0)  # the resyncs were scheduled on the loop
        assert not remote.over and remote.result is None
        # A resignation ends the match with no step: the same ply, over.
        resigned = json.loads(_update(2, None, -4)) | {"over": True, "result": "seat 1 won"}
        client._take(json.dumps(resigned))
        return asked, remote

    asked, remote = asyncio.run(main())
    assert remote.ply == 2 and [s["text"] for s in remote.record] == ["b2", "a1"]
    assert remote.replica is not None and remote.replica.ply == 2
    assert asked == ["ABCDEF", "ABCDEF"]
    assert remote.over and remote.result == "seat 1 won" and remote.to_move == -4


def test_a_busy_refusal_without_an_id_answers_every_waiting_request() -> None:
    """The server's rate limit refuses a frame before reading it, so its ``busy`` error
    names no request: each one waiting gets it (a bot then sends its action again), instead
    of waiting for an answer that never comes."""

    async def main() -> list[dict[str, Any]]:
        client = Client("127.0.0.1", 1)
        loop = asyncio.get_running_loop()
        waiting = {n: loop.create_future() for n in (1, 2)}
        client._pending.update(waiting)
        client._take(json.dumps({"type": "error", "reason": "stale", "message": "x"}))
        assert not any(f.done() for f in waiting.values())  # another refusal: not theirs
        client._take(json.dumps({"type": "error", "reason": "busy", "message": "slow down"}))
        return [await f for f in waiting.values()]

    answers = asyncio.run(main())
    assert [a["reason"] for a in answers] == ["busy", "busy"]
