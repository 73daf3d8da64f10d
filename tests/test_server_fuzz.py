"""Hostile messages against a live server: each is answered with an error, none changes a match.

A loopback server runs in the test's own event loop. Three tic-tac-toe matches are made with
good messages (one in progress that forbids hints and undo, a second in progress, one played
to its end); then a seeded generator sends at least 2,000 hostile frames over a few
connections: bad JSON, JSON that is not a message, unknown types, missing fields, wrong types,
huge numbers, deep nesting, unicode junk in names, forged tokens (the right length, other
bytes; another match's), a seat acting out of turn, replayed and out-of-order acts, acts for
the finished match, illegal actions, hints and undo the match forbids, joins of taken seats,
and frames over the limit (the documented close, 1009; a new connection then works).

Every frame gets an ``error`` whose reason is one of those the kind of fault allows (never
``server``), the ``id`` of a frame the protocol reads comes back as ``re`` (a frame it refuses
is answered without one), the server stays up, and every match's record, state key and seats,
read from the host in-process, are what they were; then a good act still plays.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from game.server import protocol
from game.server.serve import GameServer
from game.server.store import SqliteStore
from tests.deep import sized

#: Hostile frames a run sends (the generator's count; the deep checks send more).
FRAMES = sized(2200, 20000)
#: A connection is used for this many frames, then another is opened: the server's rate
#: limit (``busy``) stays out of the way, and many connections come and go.
PER_CONNECTION = 120
#: One frame in this many is over the limit (each closes its connection).
BIG_EVERY = 150
#: Generous: only a server that never answers fails on it.
ANSWER_S = 30.0
#: The match's moves that end it (tic-tac-toe: the first seat takes column a).
WINNING = ("a1", "b1", "a2", "b2", "a3")

SYNTAX = frozenset({"bad-json", "bad-message"})


@dataclass(frozen=True)
class Frame:
    """One hostile frame: what is sent, the reasons its error may carry, and the id the
    answer must echo (None: the frame has no readable id)."""

    data: str | bytes
    reasons: frozenset[str]
    id: int | None = None
    too_big: bool = False


@dataclass
class Matches:
    """The codes and tokens of the fuzz's matches."""

    live: str
    live_tokens: tuple[str, str]
    other: str
    other_tokens: tuple[str, str]
    done: str
    done_tokens: tuple[str, str]
    ply: int  # the live match's record length
    last_act: dict[str, Any]  # the live match's last accepted act, to replay


def frames(rng: random.Random, m: Matches, count: int) -> Iterator[Frame]:
    """``count`` hostile frames drawn by ``rng`` from every kind of fault, in turn."""
    kinds = list(_KINDS)
    for number in range(count):
        if number % BIG_EVERY == BIG_EVERY - 1:
            yield _too_big(rng, m)
            continue
        kind = kinds[number % len(kinds)] if number < 4 * len(kinds) else rng.choice(kinds)
        yield kind(rng, m)


@pytest.mark.deep
def test_hostile_messages_get_errors_and_change_no_match(tmp_path: Path) -> None:
    asyncio.run(_fuzz(tmp_path, random.Random(30)))


def test_an_integer_too_big_for_a_float_is_refused(tmp_path: Path) -> None:
    asyncio.run(_one_frame(tmp_path, '{"type": "ping", "t": 1%s, "id": 3}' % ("0" * 400)))


async def _one_frame(folder: Path, text: str) -> None:
    """``text`` sent on a fresh connection is answered with ``bad-message``."""
    store = SqliteStore(folder / "server.sqlite3")
    server = GameServer(store, "127.0.0.1", 0)
    host, port = await server.start()
    try:
        connection = await _open(f"ws://{host}:{port}")
        await connection.send(text)
        answer = await _answer(connection)
        assert (answer["type"], answer["reason"]) == ("error", "bad-message")
        await connection.close()
    finally:
        await server.stop()
        store.close()


async def _fuzz(folder: Path, rng: random.Random) -> None:
    store = SqliteStore(folder / "server.sqlite3")
    server = GameServer(store, "127.0.0.1", 0)
    host, port = await server.start()
    address = f"ws://{host}:{port}"
    assert server.host is not None
    try:
        # the setup connection stays open: it follows every match, so none is let go
        keeper = await _open(address)
        m = await _matches(keeper)
        before = _states(server.host.matches)
        sent = too_big = 0
        connection = await _open(address)
        for number, frame in enumerate(frames(rng, m, FRAMES)):
            if number % PER_CONNECTION == 0:
                await connection.close()
                connection = await _open(address)
            await connection.send(frame.data)
            sent += 1
            if frame.too_big:
                async with asyncio.timeout(ANSWER_S):
                    while True:  # websockets' own close for a frame over max_size
                        try:
                            await connection.recv()
                        except ConnectionClosed as closed:
                            assert closed.rcvd is not None and closed.rcvd.code == 1009
                            break
                too_big += 1
                connection = await _open(address)
                continue
            answer = await _answer(connection)
            assert answer["type"] == "error", (frame, answer)
            assert answer["reason"] in frame.reasons, (frame.data[:200], answer)
            if frame.id is not None and not frame.reasons <= SYNTAX:
                assert answer.get("re") == frame.id, (frame.data[:200], answer)
        await connection.close()
        assert sent >= 2000 and too_big >= 10
        assert _states(server.host.matches) == before
        # the server is still up and the live match still plays
        await keeper.send(json.dumps(_good_fields("act", m) | {"action": "c1", "id": 1}))
        async with asyncio.timeout(ANSWER_S):
            while (frame := json.loads(await keeper.recv()))["type"] != "update":
                assert frame["type"] != "error", frame
        assert frame["ply"] == m.ply + 1 and frame["step"]["text"] == "c1"
        assert len(server.host.matches[m.live].match.record) == m.ply + 1
        await keeper.close()
    finally:
        await server.stop()
        store.close()


async def _open(address: str) -> ClientConnection:
    connection = await connect(address, max_size=None, max_queue=None)
    await connection.send(json.dumps({"type": "hello", "version": 1, "name": "fuzz"}))
    assert (await _answer(connection))["type"] == "welcome"
    return connection


async def _answer(connection: ClientConnection) -> dict[str, Any]:
    """The next frame: the answer (a test that waits forever fails on the timeout)."""
    async with asyncio.timeout(ANSWER_S):
        answer: dict[str, Any] = json.loads(await connection.recv())
    return answer


async def _matches(keeper: ClientConnection) -> Matches:
    """Three tic-tac-toe matches, every seat held by ``keeper``: one in progress with no
    hints nor undo, another in progress, one played to its end."""
    made: list[tuple[str, tuple[str, str]]] = []
    for rules in ({"hints": False, "undo": False}, {}, {}):
        created = await _send(
            keeper,
            "created",
            type="create",
            game="tic-tac-toe",
            seats=["person", "person"],
            you=0,
            rules=rules,
        )
        joined = await _send(keeper, "joined", type="join", code=created["code"], seat=1)
        made.append((created["code"], (created["token"], joined["token"])))
    (live, live_tokens), other, (done, done_tokens) = made
    last: dict[str, Any] = {}
    for code, tokens, moves in ((live, live_tokens, WINNING[:2]), (done, done_tokens, WINNING)):
        for ply, text in enumerate(moves):
            last = {
                "type": "act",
                "code": code,
                "token": tokens[ply % 2],
                "ply": ply,
                "action": text,
            }
            await _send(keeper, "update", **last)
    replayed = {
        "type": "act",
        "code": live,
        "token": live_tokens[1],
        "ply": 1,
        "action": WINNING[1],
    }
    return Matches(live, live_tokens, other[0], other[1], done, done_tokens, 2, replayed)


async def _send(connection: ClientConnection, kind: str, **message: Any) -> dict[str, Any]:
    """Send a good message; the first frame of ``kind`` that comes back (frames about the
    matches the connection follows may come before it)."""
    await connection.send(json.dumps(message))
    while True:
        frame = await _answer(connection)
        assert frame["type"] != "error", frame
        if frame["type"] == kind:
            return frame


def _states(matches: dict[str, Any]) -> dict[str, Hashable]:
    """Each match's record (seats and texts), state key, seats and end, as the host holds it."""
    return {
        code: (
            tuple((s.seat, s.text) for s in match.match.full_record),
            match.match.cursor,
            match.state.key(),
            tuple((s.kind, s.token) for s in match.seats),
            match.over,
        )
        for code, match in matches.items()
    }


# -- the faults ------------------------------------------------------------------------------


def _message(rng: random.Random, data: dict[str, Any], reasons: set[str]) -> Frame:
    """A JSON message, often with an id of the client's that the answer must echo."""
    ident = None
    if rng.random() < 0.7:
        ident = rng.randrange(-(2**40), 2**40)
        data = {**data, "id": ident}
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
    if not text.isascii() and "\ud800" in text:  # a lone surrogate travels escaped only
        text = json.dumps(data)
    return Frame(text, frozenset(reasons), ident)


def _bad_json(rng: random.Random, m: Matches) -> Frame:
    good = json.dumps({"type": "act", "code": m.live, "token": m.live_tokens[0], "ply": m.ply})
    junk = [
        good[: rng.randrange(1, len(good))],  # cut short
        good.replace('"', "'"),
        good[:-1] + ",}",
        '{"type": "ping", "t": NaN}',
        '{"type": "ping", "t": Infinity}',
        "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 60))),
        "",
        "{" * rng.randrange(1, 50),
        '{"type": "hello" "version": 1}',
    ]
    choice = rng.randrange(len(junk) + 1)
    if choice == len(junk):  # a binary frame, UTF-8 or not
        data = bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 40)))
        return Frame(data, SYNTAX)
    # random characters may happen to be JSON that is no message ("7")
    return Frame(junk[choice], SYNTAX if choice == 5 else frozenset({"bad-json"}))


def _not_a_message(rng: random.Random, m: Matches) -> Frame:
    text = rng.choice(["[]", "1", '"act"', "null", "true", '[{"type": "ping"}]', "3.5"])
    return Frame(text, frozenset({"bad-message"}))


def _unknown_type(rng: random.Random, m: Matches) -> Frame:
    kind: Any = rng.choice(
        ["fly", "", "ACT", "act ", "snapshot", "error", 5, None, ["act"], {"act": 1}, True]
    )
    data: dict[str, Any] = {"code": m.live, "token": m.live_tokens[0]}
    if rng.random() < 0.9:
        data["type"] = kind
    return _message(rng, data, {"bad-message"})


def _missing_field(rng: random.Random, m: Matches) -> Frame:
    kind = rng.choice(
        [k for k, fields in protocol.MESSAGES.items() if any(r for _, r in fields.values())]
    )
    data = _good_fields(kind, m)
    required = [name for name, (_, r) in protocol.MESSAGES[kind].items() if r]
    del data[rng.choice(required)]
    return _message(rng, data, {"bad-message"})


def _wrong_type(rng: random.Random, m: Matches) -> Frame:
    kind = rng.choice([k for k, fields in protocol.MESSAGES.items() if fields])
    data = _good_fields(kind, m)
    name = rng.choice(list(protocol.MESSAGES[kind]))
    data[name] = rng.choice(_WRONG[name])
    return _message(rng, data, SYNTAX)  # 1e400 is written Infinity: not JSON


def _huge_number(rng: random.Random, m: Matches) -> Frame:
    kind, field = rng.choice(
        [("act", "ply"), ("join", "seat"), ("hello", "version"), ("ping", "t")]
    )
    data = _good_fields(kind, m)
    data[field] = rng.choice([2**53, 2**64, 10**30, -(2**60), 10**400])
    text = json.dumps(data)
    if kind == "ping" and rng.random() < 0.3:  # a float literal too big for a double
        text = text.replace(str(data[field]), "1e999")
    return Frame(text, frozenset({"bad-message", "bad-json"}))


def _deep(rng: random.Random, m: Matches) -> Frame:
    # deeper than any parser's recursion, shallower than the frame limit
    if rng.random() < 0.5:
        depth = rng.randrange(2_000, 30_000)
        nested = "[" * depth + "]" * depth
    else:
        depth = rng.randrange(2_000, 10_000)
        nested = '{"a":' * depth + "1" + "}" * depth
    text = '{"type": "create", "game": "tic-tac-toe", "options": ' + nested + "}"
    return Frame(text, frozenset({"bad-json", "bad-message"}))


def _junk_name(rng: random.Random, m: Matches) -> Frame:
    name = rng.choice(
        [
            "\u202egniht",
            "a\x00b",
            "\x1b[31mred",
            "tab\there",
            "\ud800",
            "line\nbreak",
            "x" * rng.randrange(41, 400),
            "",
            "\u2028",
            "zero\u200bwidth",
        ]
    )
    return _message(rng, {"type": "hello", "version": 1, "name": name}, {"bad-message"})


def _bad_version(rng: random.Random, m: Matches) -> Frame:
    version = rng.choice([0, 2, 99, -1])
    return _message(rng, {"type": "hello", "version": version}, {"version"})


def _forged_token(rng: random.Random, m: Matches) -> Frame:
    right = m.live_tokens[rng.randrange(2)]
    forged = rng.choice(
        [
            _flip(rng, right),
            m.other_tokens[0],
            m.other_tokens[1],
            m.done_tokens[0],
            "".join(rng.choice("ABCxyz019-_") for _ in range(len(right))),
        ]
    )
    kind = rng.choice(["act", "hint", "undo", "resign", "leave", "resume", "undo-answer"])
    data = _good_fields(kind, m)
    data["token"] = forged
    return _message(rng, data, {"bad-token"})


def _out_of_turn(rng: random.Random, m: Matches) -> Frame:
    data = _good_fields("act", m)
    data["token"] = m.live_tokens[1 - m.ply % 2]
    return _message(rng, data, {"not-your-turn", "not-your-seat"})


def _replayed(rng: random.Random, m: Matches) -> Frame:
    if rng.random() < 0.5:  # the seat that made it is no longer to move
        return _message(rng, dict(m.last_act), {"stale", "not-your-turn"})
    data = _good_fields("act", m)
    data["ply"] = rng.choice([m.ply - 1, m.ply + 1, m.ply + rng.randrange(2, 1000), 0])
    return _message(rng, data, {"stale"})


def _finished(rng: random.Random, m: Matches) -> Frame:
    seat = rng.randrange(2)
    data = {
        "type": "act",
        "code": m.done,
        "token": m.done_tokens[seat],
        "ply": rng.choice([len(WINNING), len(WINNING) - 1]),
        "action": rng.choice(["c3", "b3", "c1"]),
    }
    return _message(rng, data, {"over", "stale"})


def _illegal(rng: random.Random, m: Matches) -> Frame:
    data = _good_fields("act", m)
    data["action"] = rng.choice(["a1", "zz", "d9", "pass", "b1 b2", "🂡", "1", "-"])
    return _message(rng, data, {"illegal"})


def _forbidden(rng: random.Random, m: Matches) -> Frame:
    kind = rng.choice(["hint", "undo"])
    data = _good_fields(kind, m)
    return _message(rng, data, {"not-allowed"})


def _taken_seat(rng: random.Random, m: Matches) -> Frame:
    code = rng.choice([m.live, m.other, m.done])
    reasons = {"seat-taken", "over"} if code == m.done else {"seat-taken"}
    return _message(rng, {"type": "join", "code": code, "seat": rng.randrange(2)}, reasons)


def _no_match(rng: random.Random, m: Matches) -> Frame:
    code = "".join(rng.choice(protocol.CODE_ALPHABET) for _ in range(protocol.CODE_LENGTH))
    if code in (m.live, m.other, m.done):
        code = "ZZZZZZ"
    kind = rng.choice(["join", "watch", "resume", "act", "hint"])
    data = _good_fields(kind, m)
    data["code"] = code
    return _message(rng, data, {"no-match"})


def _bad_create(rng: random.Random, m: Matches) -> Frame:
    data: dict[str, Any] = {"type": "create", "game": "tic-tac-toe"}
    choice = rng.randrange(5)
    if choice == 0:
        data["game"] = rng.choice(["no-such-game", "TIC-TAC-TOE", "../etc/passwd"])
    elif choice == 1:
        data["options"] = rng.choice([{"nope": 1}, {"first": "nobody"}, {"time_per_move": -1}])
    elif choice == 2:
        data["seats"] = ["person"] * rng.choice([1, 3, 9])
    elif choice == 3:
        data["seats"] = ["person", {"agent": "nobody-at-all"}]
    else:
        data["you"] = rng.choice([2, 5, 63])
    return _message(rng, data, {"bad-message"})


def _too_big(rng: random.Random, m: Matches) -> Frame:
    filler = "x" * (protocol.MAX_FRAME + rng.randrange(1, 50_000))
    return Frame(
        json.dumps({"type": "hello", "version": 1, "name": filler}),
        frozenset({"too-big"}),
        too_big=True,
    )


_KINDS: tuple[Callable[[random.Random, Matches], Frame], ...] = (
    _bad_json,
    _not_a_message,
    _unknown_type,
    _missing_field,
    _wrong_type,
    _huge_number,
    _deep,
    _junk_name,
    _bad_version,
    _forged_token,
    _out_of_turn,
    _replayed,
    _finished,
    _illegal,
    _forbidden,
    _taken_seat,
    _no_match,
    _bad_create,
)

_WRONG: dict[str, tuple[Any, ...]] = {
    "code": (123, "ABC", "0OIL1!", "", None, ["ABCDEF"], "ABCDEFG", "abc de"),
    "token": (5, "", "t" * 200, None, ["x"], "\x00" * 32),
    "ply": ("1", -1, 1.5, True, None, 2**53, []),
    "seat": ("0", -1, 64, 1.0, False, None),
    "version": ("1", 1.0, None, True),
    "t": ("now", None, True, [], 1e400),
    "accept": (1, "yes", None),
    "action": (7, "", None, ["a1"], "x" * 2000, "a1\x00"),
    "game": (5, "", None, "g" * 500),
    "options": ([], "x", 5, {"a": [1]}, {"a": {"b": 1}}),
    "seats": ("person", [], ["nobody"], [{"agent": 5}], [{"agent": "a", "x": 1}], 2),
    "you": (-1, "0", 64, None),
    "rules": ([], {"hints": "yes"}, {"undo": 1}, {"think": 0}, {"think": 1e9}, {"fly": 1}),
    "name": (5, None, []),
}


def _good_fields(kind: str, m: Matches) -> dict[str, Any]:
    """A well-formed ``kind`` message about the live match (the seat to move's token)."""
    token = m.live_tokens[m.ply % 2]
    every = {
        "code": m.live,
        "token": token,
        "ply": m.ply,
        "action": "c3",
        "seat": 0,
        "version": 1,
        "name": "fuzz",
        "t": 1.0,
        "accept": True,
        "game": "tic-tac-toe",
        "options": {},
        "seats": ["person", "person"],
        "you": 0,
        "rules": {},
    }
    return {
        "type": kind,
        **{name: every[name] for name in protocol.MESSAGES[kind] if name in every},
    }


def _flip(rng: random.Random, token: str) -> str:
    """The same length, other bytes (one character, or all)."""
    if rng.random() < 0.5:
        at = rng.randrange(len(token))
        other = "A" if token[at] != "A" else "B"
        return token[:at] + other + token[at + 1 :]
    return token[::-1] if token[::-1] != token else "x" * len(token)
