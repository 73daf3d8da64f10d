"""The bot and the client against a real server on loopback: a bot plays a computer seat
to the end on its replica, a lost connection is resumed and the match finishes, a hiding
match refuses an agent that needs the state, the status command lists the match, and the
threaded link answers without blocking its caller."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from game.server.bot import BotError, BotPlan, play, play_seat
from game.server.client import Client, RemoteLink
from game.server.serve import status_table
from game.server.status import fetch_status
from tests.server_loopback import PATIENCE, loopback

GAME = "tic-tac-toe"


def test_a_bot_plays_a_computer_seat_to_the_end_on_its_replica(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (host, port):
            client = Client("127.0.0.1", port, name="bot")
            await client.connect(timeout=PATIENCE)
            remote = await client.create(GAME, ["person", {"agent": "random"}], you=0)
            said: list[str] = []
            plan = BotPlan("127.0.0.1", port, agent="alphabeta", think=0.05)
            line = await asyncio.wait_for(play_seat(client, remote, plan, said.append), PATIENCE)
            match = host.matches[remote.code]  # still followed: the client is connected
            assert match.over and line == f"{remote.code}: {match.game.result_text(match.state)}"
            assert said == [f"match {remote.code}: seat 0 played by the agent alphabeta"]
            assert remote.replica is not None and remote.replica.state.key() == match.state.key()
            assert [s["text"] for s in remote.record] == [s.text for s in match.match.record]
            await client.close()

    asyncio.run(main())


def test_two_bots_meet_one_creating_the_match_and_one_joining_it(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (_host, port):
            said: list[str] = []
            joined: list[asyncio.Task[str]] = []

            def say(line: str) -> None:
                said.append(line)
                if line.startswith("match ") and "--join" in line and not joined:
                    join = BotPlan("127.0.0.1", port, code=line.split()[1].rstrip(":"),
                                   agent="random", seed=4)  # fmt: skip
                    joined.append(asyncio.create_task(play(join, lambda line: None)))

            host_plan = BotPlan("127.0.0.1", port, game=GAME, seats=("bot", "open"),
                                agent="random", seed=3)  # fmt: skip
            first = await asyncio.wait_for(play(host_plan, say), PATIENCE)
            second = await asyncio.wait_for(joined[0], PATIENCE)
            assert first == second and first.startswith(said[0].split()[1])
            assert f"@127.0.0.1:{port}" in said[0]

    asyncio.run(main())


def test_a_lost_connection_is_resumed_and_the_match_finishes(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (host, port):
            client = Client("127.0.0.1", port, ping_every=0.05)
            await client.connect(timeout=PATIENCE)
            remote = await client.create(GAME, ["person", {"agent": "random"}], you=0)
            plan = BotPlan("127.0.0.1", port, agent="random", seed=2)
            playing = asyncio.create_task(play_seat(client, remote, plan, lambda line: None))
            seen = -1
            while remote.ply < 2:  # the bot played, the server's agent answered
                remote = await client.changed(remote.code, seen, timeout=PATIENCE)
                seen = remote.version
            client.drop()
            line = await asyncio.wait_for(playing, PATIENCE)
            match = host.matches[remote.code]
            assert client.reconnects >= 1 and match.over
            assert line.endswith(match.game.result_text(match.state))
            assert [s["text"] for s in remote.record] == [s.text for s in match.match.record]
            assert remote.replica is not None
            assert remote.replica.state.key() == match.state.key()
            assert await client.ping() >= 0
            assert client.latency_ms is not None and client.latency_ms >= 0
            await client.close()

    asyncio.run(main())


def test_a_hiding_match_refuses_an_agent_that_needs_the_state(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (_host, port):
            client = Client("127.0.0.1", port)
            await client.connect(timeout=PATIENCE)
            seats = ["person", {"agent": "random"}, {"agent": "random"}]
            remote = await client.create(
                "clue", seats, options={"deck": "quick", "seats": 3}, you=0
            )
            plan = BotPlan("127.0.0.1", port, agent="full")
            with pytest.raises(BotError, match="hides what the agent 'full' needs"):
                await play_seat(client, remote, plan, lambda line: None)
            status = await asyncio.wait_for(fetch_status("127.0.0.1", port), PATIENCE)
            table = status_table(status["matches"])
            assert remote.code in table and "clue" in table
            await client.close()

    asyncio.run(main())


def test_the_threaded_link_hands_every_message_to_its_queue(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (_host, port):
            link = RemoteLink("127.0.0.1", port, name="window")
            try:
                welcome = await asyncio.wrap_future(link.start())
                assert any(g["id"] == GAME for g in welcome["games"])
                answer = await asyncio.wrap_future(link.request("status"))
                assert answer["type"] == "status"
                assert link.messages.get(timeout=PATIENCE)["type"] == "status"
            finally:
                await asyncio.to_thread(link.close)

    asyncio.run(main())
