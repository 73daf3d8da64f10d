"""Hidden information stays hidden: every frame the host makes for a Cluedo seat or a
spectator, checked against the true state the host holds."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from game.server import views
from game.server.store import SqliteStore
from tests.server_helpers import Never, ask, make_host, settle


def check_frame(frame: dict[str, Any], seat: int | None, true: Any) -> None:
    """Nothing in ``frame`` (to ``seat``, None: a spectator) that ``seat`` may not see."""
    assert "start_seed" not in frame
    steps = frame.get("record", []) + ([frame["step"]] if frame.get("step") else [])
    for step in steps:
        assert step["text"] is None or step["seat"] == seat, step
    if "view" not in frame:
        return
    view = frame["view"]
    assert set(view) == {"deck", "hand_sizes", "seat", "hand", "events", "course"}
    assert view["seat"] == seat
    course = view["course"]  # where the game stands, as the whole table sees it
    assert (course["phase"], course["turn"]) == (true.phase.value, true.turn)
    asking = course["asking"]
    assert (asking is None) == (true.asking is None)
    assert asking is None or (asking["refuter"], asking["shown"]) == (true.asking.refuter, None)
    assert view["hand"] == (views.to_json(true.hands[seat]) if seat is not None else [])
    for event in view["events"]:
        if event.get("shown") is not None:
            assert seat in (event["seat"], event["refuter"]), event
    if "legal" in frame:
        assert seat is not None and true.current_player() == seat


def test_cluedo_frames_hold_no_card_their_recipient_may_not_see(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path)
    ask(
        host,
        "ann",
        type="create",
        game="clue",
        options={"seats": 3},
        seats=["open", {"agent": "random"}, {"agent": "random"}],
        rules={"think": 0.05},
    )
    made = sent.last("ann", "created")
    code, token = made["code"], made["token"]
    ask(host, "eve", type="watch", code=code)
    match = host.matches[code]
    assert match.hides and match.ply > 0  # the deal is dealt
    rng = random.Random(7)
    checked = {"ann": 0, "eve": 0}
    # Kept: the secret deal replays from its stored chance steps.
    again, _ = make_host(tmp_path, executor=Never())
    assert again.matches[code].key_digest() == match.key_digest()
    assert again.matches[code].hides
    acted = 0
    while not match.over and match.ply < 5000:
        settle(host)
        if match.state.current_player() == 0:
            acted += 1
            legal = sent.last("ann")["legal"]
            ask(
                host,
                "ann",
                type="act",
                code=code,
                token=token,
                ply=match.ply,
                action=rng.choice(legal),
            )
            assert sent.last("ann")["type"] == "update", sent.last("ann")
    for client, seat in (("ann", 0), ("eve", None)):
        for frame in sent.frames[client]:
            if frame["type"] in ("snapshot", "update"):
                check_frame(frame, seat, match.match.state_at(frame["ply"]))
                checked[client] += 1
    assert min(checked.values()) >= 2
    own = [
        f["step"] for f in sent.frames["ann"] if f["type"] == "update" and f["step"]["seat"] == 0
    ]
    assert len(own) >= acted and all(step["text"] for step in own)  # and its forced shows
    assert match.over
    assert SqliteStore(tmp_path / "server.sqlite3").unfinished() == []
