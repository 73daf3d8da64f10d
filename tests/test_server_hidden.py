"""Hidden information stays hidden through a real server: Cluedo (two test clients and a
server agent, a spectator watching) and Barrage (concealed pieces, two test clients) played
over WebSocket on loopback; every frame each client received is checked against the true
state the server's host holds at that frame's ply."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from game.server import views
from game.server.client import Client, RemoteMatch
from tests.server_loopback import PATIENCE, loopback

#: Plies Barrage is played to (its set-up is 16 of them; the match goes on after).
BARRAGE_PLIES = 40


def _keys(value: Any) -> set[str]:
    """Every key of every object inside ``value``."""
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def check_frame(frame: dict[str, Any], seat: int | None, true: Any) -> None:
    """What every frame of a hiding match must hold back from ``seat`` (None: a spectator):
    the start, the others' step texts, the legal actions when it is not the seat's turn; its
    view is exactly the seat's observation of the true state."""
    assert frame.get("start_seed") is None, frame
    if frame["type"] not in ("created", "joined"):  # a seat's own token comes once, there
        assert not _keys(frame) & {"seed", "start_seed", "envelope", "hands", "token"}, frame
    steps = list(frame.get("record") or ()) + ([frame["step"]] if frame.get("step") else [])
    for step in steps:
        assert step["text"] is None or step["seat"] == seat, step
    if "legal" in frame:
        assert seat is not None and true.current_player() == seat
        legal = [true.action_text(a) for a in true.legal_actions()]
        assert frame["legal"] == legal
    if "view" in frame:
        assert frame["view"] == views.to_json(true.observation(-1 if seat is None else seat))


async def _play_random(
    client: Client, code: str, rng: random.Random, plies: int | None = None
) -> None:
    """Play the seat ``client`` holds in ``code`` with random legal texts until the end (or
    ``plies`` plies)."""
    seen = -1
    while True:
        remote: RemoteMatch = await client.changed(code, seen, timeout=PATIENCE)
        seen = remote.version
        if remote.over or (plies is not None and remote.ply >= plies):
            return
        if remote.to_move == remote.seat and remote.legal:
            await client.act(code, rng.choice(remote.legal), remote.ply, timeout=PATIENCE)


async def _recording(port: int, name: str) -> tuple[Client, list[dict[str, Any]]]:
    frames: list[dict[str, Any]] = []
    client = Client("127.0.0.1", port, name=name, ping_every=3600, on_message=frames.append)
    await client.connect(timeout=PATIENCE)
    return client, frames


def test_cluedo_through_the_server_shows_each_seat_only_its_own_cards(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (host, port):
            ann, ann_frames = await _recording(port, "ann")
            bob, bob_frames = await _recording(port, "bob")
            eve, eve_frames = await _recording(port, "eve")
            seats = ["person", "open", {"agent": "random"}]
            made = await ann.create(
                "clue", seats, options={"seats": 3, "deck": "quick"}, you=0,
                rules={"think": 0.05},
            )  # fmt: skip
            code = made.code
            await bob.join(code)
            await eve.watch(code)
            assert made.hides and made.replica is None
            await asyncio.gather(
                _play_random(ann, code, random.Random(1)),
                _play_random(bob, code, random.Random(2)),
            )
            await eve.changed(code, -1, timeout=PATIENCE)
            match = host.matches[code]
            assert match.over, "the match did not reach its end"
            final = match.match.state
            shown_to: dict[int | None, int] = {}
            for client, frames, seat in ((ann, ann_frames, 0), (bob, bob_frames, 1),
                                          (eve, eve_frames, None)):  # fmt: skip
                mine = [f for f in frames if f.get("code") == code]
                assert any(f.get("over") for f in mine), f"seat {seat} did not see the end"
                shown = 0
                for frame in mine:
                    true = match.match.state_at(frame.get("ply", 0))
                    check_frame(frame, seat, true)
                    view = frame.get("view")
                    if view is None:
                        continue
                    hand = [] if seat is None else views.to_json(final.hands[seat])
                    if true.phase.name not in ("ENVELOPE", "DEAL"):
                        assert view["hand"] == hand  # its own hand, never another's
                    others = set().union(*(set(h) for s, h in enumerate(final.hands) if s != seat))
                    assert not set(view["hand"]) & (others | set(final.envelope))
                    for event in view["events"]:
                        if event.get("shown") is not None:
                            assert seat in (event["seat"], event["refuter"]), event
                            shown += 1
                if seat is None:
                    assert shown == 0
                shown_to[seat] = shown
                await client.close()
            assert shown_to[0] + shown_to[1] > 0  # the seats did see cards shown to them

    asyncio.run(main())


def test_barrage_through_the_server_hides_the_opponents_concealed_pieces(tmp_path: Path) -> None:
    async def main() -> None:
        async with loopback(tmp_path) as (host, port):
            red, red_frames = await _recording(port, "red")
            blue, blue_frames = await _recording(port, "blue")
            made = await red.create("barrage", ["person", "open"], you=0)
            code = made.code
            await blue.join(code)
            assert made.hides
            await asyncio.gather(
                _play_random(red, code, random.Random(3), BARRAGE_PLIES),
                _play_random(blue, code, random.Random(4), BARRAGE_PLIES),
            )
            match = host.matches[code]
            assert match.ply >= BARRAGE_PLIES or match.over
            for client, frames, seat in ((red, red_frames, 0), (blue, blue_frames, 1)):
                hidden: dict[int, set[int]] = {}  # a blank the seat saw -> the types under it
                for frame in (f for f in frames if f.get("code") == code and "view" in f):
                    true = match.match.state_at(frame["ply"])
                    check_frame(frame, seat, true)
                    board = frame["view"][0]
                    truth = list(true.pos.board)  # the true pieces, as the game codes them
                    for seen, piece in zip(board, truth, strict=True):
                        if seen != piece:  # a concealed piece: a blank, never its type
                            assert seen < 0 < piece
                            hidden.setdefault(seen, set()).add(piece)
                # The blanks stood for several types: the seat could not tell them apart.
                assert any(len(types) > 1 for types in hidden.values()), hidden
                await client.close()

    asyncio.run(main())


def test_frames_to_record_are_json_objects() -> None:
    """The helper's own check: the keys of nested objects are all found."""
    assert _keys(json.loads('{"a": [{"b": 1}, {"c": {"d": 2}}]}')) == {"a", "b", "c", "d"}
