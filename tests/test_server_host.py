"""The host without sockets: matches created, joined, watched, played to their end, refused
acts that change nothing, computer seats, undo, resign, and a host made again on the same
store resuming every unfinished match."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path
from typing import Any

import pytest

from game.server.host import MatchHost
from game.server.store import MatchProgress, SqliteStore, StoreError
from tests.server_helpers import Never, Recorder, ask, make_host, settle


def created(host: MatchHost, sent: Any, client: str, **message: Any) -> dict[str, Any]:
    ask(host, client, type="create", **message)
    answer = sent.last(client)
    assert answer["type"] == "snapshot", answer
    return sent.last(client, "created")


def test_two_people_play_tic_tac_toe_to_its_end_and_a_spectator_sees_every_step(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path)
    ask(host, "ann", type="hello", version=1, name="Ann")
    assert sent.last("ann")["type"] == "welcome"
    made = created(host, sent, "ann", game="tic-tac-toe", id=3)
    assert made["re"] == 3 and made["seat"] == 0
    code, ann = made["code"], made["token"]
    ask(host, "bob", type="join", code=code.lower())
    bob = sent.last("bob", "joined")["token"]
    assert sent.last("ann")["type"] == "seats"
    ask(host, "eve", type="watch", code=code)
    assert sent.last("eve")["start_seed"] == sent.last("bob", "snapshot")["start_seed"]
    tokens = [ann, bob]
    for ply, action in enumerate(["b2", "a1", "c1", "a3", "a2", "c3", "b3", "b1", "c2"]):
        ask(host, "x", type="act", code=code, token=tokens[ply % 2], ply=ply, action=action)
    eve = [f for f in sent.frames["eve"] if f["type"] == "update"]
    assert [f["step"]["text"] for f in eve] == [
        "b2",
        "a1",
        "c1",
        "a3",
        "a2",
        "c3",
        "b3",
        "b1",
        "c2",
    ]
    assert [f["ply"] for f in eve] == list(range(1, 10))
    assert eve[-1]["over"] and eve[-1]["result"] and eve[-1]["to_move"] == -4
    ask(host, "ann", type="act", code=code, token=ann, ply=9, action="a1")
    assert sent.last("ann")["reason"] == "over"
    assert [m.code for m in SqliteStore(tmp_path / "server.sqlite3").unfinished()] == []


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"ply": 1, "action": "a1"}, "stale"),
        ({"ply": 0, "action": "z9"}, "illegal"),
        ({"ply": 0, "action": "b2", "token": "not-a-token"}, "bad-token"),
        ({"ply": 0, "action": "b2", "code": "ZZZZZZ"}, "no-match"),
    ],
)
def test_a_refused_act_is_an_error_to_its_sender_and_changes_nothing(
    tmp_path: Path, fields: dict[str, Any], reason: str
) -> None:
    host, sent = make_host(tmp_path)
    made = created(host, sent, "ann", game="tic-tac-toe")
    ask(host, "eve", type="watch", code=made["code"])
    before = len(sent.frames["eve"])
    message = {"code": made["code"], "token": made["token"], **fields}
    ask(host, "ann", type="act", id=5, **message)
    error = sent.last("ann")
    assert error["type"] == "error" and error["reason"] == reason and error["re"] == 5
    assert len(sent.frames["eve"]) == before
    assert host.matches[made["code"]].ply == 0


def test_the_seat_not_to_move_and_a_replayed_act_are_refused(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path)
    made = created(host, sent, "ann", game="tic-tac-toe")
    ask(host, "bob", type="join", code=made["code"])
    bob = sent.last("bob", "joined")["token"]
    ask(host, "bob", type="act", code=made["code"], token=bob, ply=0, action="b2")
    assert sent.last("bob")["reason"] == "not-your-turn"
    act = {"type": "act", "code": made["code"], "token": made["token"], "ply": 0, "action": "b2"}
    ask(host, "ann", **act)
    ask(host, "ann", **act)
    assert sent.last("ann")["reason"] == "stale"
    assert host.matches[made["code"]].ply == 1


def test_bad_creates_are_refused(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path)
    for message, words in [
        ({"game": "nope"}, "no game"),
        ({"game": "tic-tac-toe", "seats": ["open"]}, "2 seats"),
        ({"game": "tic-tac-toe", "seats": ["open", {"agent": "nobody"}]}, "no agent"),
        ({"game": "tic-tac-toe", "options": {"time_per_move": -1}}, "options"),
        ({"game": "tic-tac-toe", "seats": [{"agent": "random"}, "open"], "you": 0}, "seat 0"),
    ]:
        ask(host, "ann", type="create", **message)
        error = sent.last("ann")
        assert error["type"] == "error" and error["reason"] == "bad-message", error
        assert words in error["message"]
    assert host.matches == {}


def test_a_host_made_again_resumes_matches_and_their_computer_seats_think_again(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path, executor=Never())
    made = created(host, sent, "ann", game="tic-tac-toe", seats=["open", {"agent": "random"}])
    code = made["code"]
    ask(host, "ann", type="act", code=code, token=made["token"], ply=0, action="b2")
    digest = host.matches[code].key_digest()
    assert host.matches[code].ply == 1 and host.thinking() == 1
    host.close()

    again, sent = make_host(tmp_path)
    match = again.matches[code]
    assert match.key_digest() == digest and match.match.transcript() == "b2"
    settle(again)
    assert match.ply == 2
    ask(again, "ann", type="resume", code=code, token=made["token"])
    snapshot = sent.last("ann", "snapshot")
    assert snapshot["you"] == 0 and snapshot["ply"] == 2 and snapshot["to_move"] == 0
    assert snapshot["record"][0] == {"seat": 0, "text": "b2"}
    again.close()


def test_a_match_that_no_longer_rebuilds_is_marked_damaged_and_the_rest_resume(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path)
    good = created(host, sent, "ann", game="tic-tac-toe")["code"]
    bad = created(host, sent, "ann", game="tic-tac-toe")
    ask(host, "ann", type="act", code=bad["code"], token=bad["token"], ply=0, action="b2")
    host.store.record(
        bad["code"],
        0,
        [{"seat": 0, "text": "q9", "forced": False, "forfeit": None}],
        MatchProgress("x"),
    )
    again, _ = make_host(tmp_path)
    assert list(again.matches) == [good] and again.damaged == [bad["code"]]
    assert bad["code"] not in make_host(tmp_path)[0].matches


def test_a_computer_seat_plays_and_undo_takes_back_to_the_persons_turn(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path)
    made = created(
        host,
        sent,
        "ann",
        game="tic-tac-toe",
        seats=["open", {"agent": "random"}],
        rules={"undo": True, "think": 0.05},
    )
    code, token = made["code"], made["token"]
    first = sent.last("ann", "snapshot")
    assert first["to_move"] == 0 and "start_seed" in first
    # The window's opponent options say what the seats list seats; no option seats anyone.
    assert (first["options"]["first"], first["options"]["second"]) == ("human", "random")
    ask(host, "ann", type="act", code=code, token=token, ply=0, action="b2")
    settle(host)
    match = host.matches[code]
    assert match.ply >= 2 and sent.last("ann")["type"] == "update"
    ask(host, "ann", type="undo", code=code, token=token)
    assert sent.last("ann", "snapshot")["ply"] == 0
    assert match.ply == 0
    ask(host, "ann", type="hint", code=code, token=token, id=8)
    settle(host)
    hint = sent.last("ann", "hint")
    assert hint["re"] == 8 and hint["ply"] == 0 and hint["action"] in first["legal"]
    ask(host, "ann", type="resign", code=code, token=token)
    end = sent.last("ann", "update")
    assert end["over"] and end["step"] is None and "resigned" in end["ended_by"]
    assert [m.code for m in SqliteStore(tmp_path / "server.sqlite3").unfinished()] == []


def test_undo_waits_for_the_other_person_and_a_match_forbidding_it_refuses(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path)
    plain = created(host, sent, "ann", game="tic-tac-toe")
    ask(host, "ann", type="undo", code=plain["code"], token=plain["token"])
    assert sent.last("ann")["reason"] == "not-allowed"
    made = created(host, sent, "ann", game="tic-tac-toe", rules={"undo": True})
    code = made["code"]
    ask(host, "bob", type="join", code=code)
    bob = sent.last("bob", "joined")["token"]
    ask(host, "ann", type="act", code=code, token=made["token"], ply=0, action="b2")
    ask(host, "ann", type="undo", code=code, token=made["token"])
    assert sent.last("bob")["type"] == "undo-asked"
    assert host.matches[code].ply == 1
    ask(host, "bob", type="undo-answer", code=code, token=bob, accept=True)
    assert sent.last("bob", "snapshot")["ply"] == 0 and host.matches[code].ply == 0


def test_leave_opens_the_seat_and_a_spectator_is_refused_where_the_rules_say(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path)
    made = created(host, sent, "ann", game="tic-tac-toe", rules={"spectators": "none"})
    ask(host, "eve", type="watch", code=made["code"])
    assert sent.last("eve")["reason"] == "not-allowed"
    ask(host, "ann", type="leave", code=made["code"], token=made["token"])
    assert sent.last("ann", "seats")["seats"][0]["kind"] == "open"
    ask(host, "ann", type="act", code=made["code"], token=made["token"], ply=0, action="b2")
    assert sent.last("ann")["reason"] == "bad-token"
    ask(host, "bob", type="join", code=made["code"], seat=0)
    assert sent.last("bob", "joined")["seat"] == 0
    ask(host, "cat", type="join", code=made["code"], seat=0)
    assert sent.last("cat")["reason"] == "seat-taken"


class Full(SqliteStore):
    """A store whose disk filled up: no step can be written."""

    def record(self, *args: Any, **kwargs: Any) -> None:
        raise StoreError("database or disk is full")


def test_a_step_the_store_cannot_keep_is_not_played(tmp_path: Path) -> None:
    sent = Recorder()
    host = MatchHost(Full(tmp_path / "full.sqlite3"), sent)
    ask(host, "ann", type="create", game="tic-tac-toe")
    made = sent.last("ann", "created")
    ask(host, "eve", type="watch", code=made["code"])
    before = len(sent.frames["eve"])
    ask(host, "ann", type="act", code=made["code"], token=made["token"], ply=0, action="b2")
    assert sent.last("ann")["reason"] == "server"
    assert host.matches[made["code"]].ply == 0 and len(sent.frames["eve"]) == before
    ask(host, "ann", type="resign", code=made["code"], token=made["token"])
    assert not host.matches[made["code"]].over


def test_a_computer_s_choice_for_a_position_undone_meanwhile_is_dropped(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path, executor=Never())
    made = created(
        host, sent, "ann", game="tic-tac-toe", seats=["open", {"agent": "random"}],
        rules={"undo": True},
    )  # fmt: skip
    code, token = made["code"], made["token"]
    ask(host, "ann", type="act", code=code, token=token, ply=0, action="b2")
    match = host.matches[code]
    old = match.job
    ask(host, "ann", type="undo", code=code, token=token)
    assert match.ply == 0 and match.job is None and old is not None and old[1].is_set()
    ask(host, "ann", type="act", code=code, token=token, ply=0, action="a1")
    late: concurrent.futures.Future[Any] = concurrent.futures.Future()
    late.set_result((match.state.parse_action("c3"), None, 0.0))
    host._thought(match, old[1], late)
    assert match.ply == 1 and match.match.transcript() == "a1"


def test_an_option_that_seats_a_computer_in_the_window_seats_none_here(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path, executor=Never())
    made = created(host, sent, "ann", game="reversi", options={"white": "master"})
    ask(host, "ann", type="act", code=made["code"], token=made["token"], ply=0, action="d3")
    snapshot = sent.last("ann", "snapshot")
    assert snapshot["options"]["white"] == "human"
    assert [s["kind"] for s in snapshot["seats"]] == ["person", "open"]
    assert host.thinking() == 0 and host.matches[made["code"]].ply == 1


def test_computer_seats_play_a_match_by_themselves_while_its_creator_watches(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path)
    ask(host, "ann", type="create", game="tic-tac-toe", seats=[{"agent": "random"}] * 2)
    made = sent.last("ann", "created")
    assert made["seat"] is None and made["token"] is None
    settle(host)
    updates = [f for f in sent.frames["ann"] if f["type"] == "update"]
    assert updates[-1]["over"] and [f["ply"] for f in updates] == list(range(1, len(updates) + 1))
    host.drop("ann")
    assert host.matches == {}
    assert SqliteStore(tmp_path / "server.sqlite3").unfinished() == []


def test_a_resumed_match_draws_the_chance_the_running_one_draws(tmp_path: Path) -> None:
    host, sent = make_host(tmp_path, executor=Never())
    ask(host, "ann", type="create", game="backgammon", seats=["open", "open"])
    code = sent.last("ann", "created")["code"]
    ask(host, "bob", type="join", code=code)
    tokens = [sent.last("ann", "created")["token"], sent.last("bob", "joined")["token"]]
    match = host.matches[code]

    def act(on: MatchHost) -> None:
        state = on.matches[code].state
        first = state.action_text(state.legal_actions()[0])
        seat = state.current_player()
        ask(
            on,
            "x",
            type="act",
            code=code,
            token=tokens[seat],
            ply=on.matches[code].ply,
            action=first,
        )

    for _ in range(4):
        act(host)
    again, _ = make_host(tmp_path, executor=Never())
    for _ in range(4):  # the same acts on both: the same rolls after each
        act(host)
        act(again)
        assert again.matches[code].match.transcript() == match.match.transcript()
    rolls = [s.text for s in match.match.record if s.seat == -1]
    assert len(rolls) >= 3


def test_a_finished_match_let_go_from_memory_is_watched_and_resumed_from_the_store(
    tmp_path: Path,
) -> None:
    host, sent = make_host(tmp_path)
    code = created(host, sent, "ann", game="tic-tac-toe")["code"]
    ask(host, "bob", type="join", code=code)
    tokens = [sent.last("ann", "created")["token"], sent.last("bob", "joined")["token"]]
    for ply, action in enumerate(["b2", "a1", "c1", "a3", "a2", "c3", "b3", "b1", "c2"]):
        ask(host, "x", type="act", code=code, token=tokens[ply % 2], ply=ply, action=action)
    host.drop("ann")
    host.drop("bob")
    assert code not in host.matches  # over, and nobody follows it
    ask(host, "eve", type="watch", code=code)
    seen = sent.last("eve", "snapshot")
    assert seen["over"] and seen["ply"] == 9 and seen["record"][-1]["text"] == "c2"
    ask(host, "ann", type="resume", code=code, token=tokens[0])
    assert sent.last("ann", "snapshot")["you"] == 0
    ask(host, "ann", type="act", code=code, token=tokens[0], ply=9, action="a1")
    assert sent.last("ann")["reason"] == "over"
    ask(host, "eve", type="watch", code="ZZZZZZ")
    assert sent.last("eve")["reason"] == "no-match"
