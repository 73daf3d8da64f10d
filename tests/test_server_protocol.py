"""The server's messages: every field checked before anything acts on it, every refusal a
reason and a line; and what each recipient may see of a match (views)."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from typing import Any, NamedTuple

import numpy as np
import pytest

from game import registry
from game.server import protocol, views
from game.server.protocol import MAX_FRAME, ProtocolError, encode, parse


def refused(text: str | bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        parse(text)
    assert caught.value.reason in protocol.REASONS
    assert "\n" not in str(caught.value)
    return caught.value.reason


def test_every_message_reads_back_with_its_fields() -> None:
    token = "t" * 32
    sent: list[dict[str, Any]] = [
        {"type": "hello", "version": 1, "name": "Ann"},
        {
            "type": "create",
            "game": "reversi",
            "options": {"size": 8, "black": "human"},
            "seats": ["person", "open", {"agent": "random"}],
            "you": 0,
            "rules": {"hints": False, "undo": True, "spectators": "none", "think": 0.5},
        },
        {"type": "join", "code": "ABC234", "seat": 1},
        {"type": "watch", "code": "ABC234"},
        {"type": "resume", "code": "ABC234", "token": token},
        {"type": "act", "code": "ABC234", "token": token, "ply": 3, "action": "d3"},
        {"type": "hint", "code": "ABC234", "token": token},
        {"type": "undo", "code": "ABC234", "token": token},
        {"type": "undo-answer", "code": "ABC234", "token": token, "accept": True},
        {"type": "resign", "code": "ABC234", "token": token},
        {"type": "leave", "code": "ABC234", "token": token},
        {"type": "ping", "t": 12.5},
        {"type": "status"},
    ]
    assert {m["type"] for m in sent} == set(protocol.MESSAGES)
    for message in sent:
        assert parse(json.dumps({**message, "id": 9})) == {**message, "id": 9}


def test_codes_read_in_either_case_and_unknown_fields_are_dropped() -> None:
    assert parse('{"type": "watch", "code": "abc234", "extra": [1]}') == {
        "type": "watch",
        "code": "ABC234",
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "bad-json"),
        ("NaN", "bad-json"),
        ('{"type": "ping", "t": NaN}', "bad-json"),
        (b"\xff\xfe", "bad-json"),
        ("[1, 2]", "bad-message"),
        ('{"t": 1}', "bad-message"),
        ('{"type": "fly"}', "bad-message"),
        ('{"type": 7}', "bad-message"),
        ('{"type": "ping"}', "bad-message"),
        ('{"type": "ping", "t": "now"}', "bad-message"),
        ('{"type": "ping", "t": 1, "id": 1.5}', "bad-message"),
        ('{"type": "ping", "t": 1, "id": true}', "bad-message"),
        ('{"type": "ping", "t": 1e300}', "bad-message"),
        ('{"type": "ping", "t": 1e400}', "bad-message"),
        ('{"type": "ping", "t": 1' + "0" * 400 + "}", "bad-message"),
        ('{"type": "ping", "t": 1, "id": 1' + "0" * 400 + "}", "bad-message"),
        ('{"type": "ping", "t": 1' + "0" * 5000 + "}", "bad-json"),
        ('{"type": "watch", "code": "ABC10O"}', "bad-message"),
        ('{"type": "watch", "code": "ABC2345"}', "bad-message"),
        ('{"type": "join", "code": "ABC234", "seat": -1}', "bad-message"),
        (
            '{"type": "act", "code": "ABC234", "token": "x", "ply": -1, "action": "a1"}',
            "bad-message",
        ),
        ('{"type": "act", "code": "ABC234", "token": "x", "ply": 0, "action": ""}', "bad-message"),
        (
            '{"type": "act", "code": "ABC234", "token": "x", "ply": 0, "action": "a\\n1"}',
            "bad-message",
        ),
        ('{"type": "hello", "version": 1, "name": "' + "n" * 41 + '"}', "bad-message"),
        ('{"type": "create", "game": "reversi", "seats": []}', "bad-message"),
        ('{"type": "create", "game": "reversi", "seats": ["robot"]}', "bad-message"),
        ('{"type": "create", "game": "reversi", "seats": [{"agent": 3}]}', "bad-message"),
        ('{"type": "create", "game": "reversi", "options": {"size": [8]}}', "bad-message"),
        ('{"type": "create", "game": "reversi", "rules": {"think": 0}}', "bad-message"),
        ('{"type": "create", "game": "reversi", "rules": {"think": 1000}}', "bad-message"),
        ('{"type": "create", "game": "reversi", "rules": {"spectators": "all"}}', "bad-message"),
        ('{"type": "create", "game": "reversi", "rules": {"cheat": true}}', "bad-message"),
        ('{"type": "undo-answer", "code": "ABC234", "token": "x", "accept": 1}', "bad-message"),
    ],
)
def test_a_bad_frame_is_refused_with_its_reason(text: str | bytes, reason: str) -> None:
    assert refused(text) == reason


def test_a_frame_over_the_limit_is_too_big() -> None:
    assert refused('{"type": "status", "pad": "' + "x" * MAX_FRAME + '"}') == "too-big"
    assert refused("[" * 100_000) == "too-big"
    assert refused("[" * 60_000) in ("bad-json", "bad-message")


def test_encode_leaves_out_a_missing_answer_id_and_refuses_nan() -> None:
    assert json.loads(encode("error", re=None, reason="busy", message="slow down")) == {
        "type": "error",
        "reason": "busy",
        "message": "slow down",
    }
    assert json.loads(encode("pong", re=4, t=1)) == {"type": "pong", "re": 4, "t": 1}
    with pytest.raises(ValueError):
        encode("pong", t=float("nan"))


class Colour(enum.Enum):
    BLACK = 1


class Point(NamedTuple):
    x: int
    y: int


@dataclasses.dataclass(frozen=True)
class Seen:
    colour: Colour
    where: Point
    cards: frozenset[int]


def test_to_json_writes_any_observation_as_plain_values() -> None:
    value = {
        "seen": Seen(Colour.BLACK, Point(1, 2), frozenset({10, 3})),
        "grid": np.arange(4, dtype=np.int8).reshape(2, 2),
        "n": np.float32(0.5),
        "mixed": {"a", 2, None},
        5: float("inf"),
        "other": object,
    }
    out = views.to_json(value)
    assert json.loads(json.dumps(out, allow_nan=False)) == out
    assert out["seen"] == {"colour": "BLACK", "where": {"x": 1, "y": 2}, "cards": [3, 10]}
    assert out["grid"] == [[0, 1], [2, 3]] and out["n"] == 0.5
    assert out["mixed"] == [2, "a", None] and out["5"] == "inf"
    assert isinstance(out["other"], str)


def start_of(game_id: str, **options: Any) -> tuple[Any, Any]:
    game = registry.get(game_id).game(options)
    return game, game.initial_state(random.Random(1))


@pytest.mark.parametrize("game_id", ["reversi", "river", "grab", "backgammon", "tic-tac-toe"])
def test_public_games_hide_nothing(game_id: str) -> None:
    game, state = start_of(game_id)
    assert not views.game_hides(game, [state])


def test_concealed_pieces_hide_and_a_spectator_sees_no_seat_s_pieces() -> None:
    game, state = start_of("barrage")
    assert views.game_hides(game, [state])
    public = views.view_of(state, None)
    assert public != views.view_of(state, 0) and public != views.view_of(state, 1)


def test_cluedo_hides_and_a_recipient_sees_only_its_own_step_and_moves() -> None:
    game, state = start_of("clue")
    assert views.game_hides(game, [state])
    assert views.step_for(2, "deal", recipient=2, hides=True) == {"seat": 2, "text": "deal"}
    assert views.step_for(2, "deal", recipient=1, hides=True) == {"seat": 2, "text": None}
    assert views.step_for(2, "deal", recipient=None, hides=True)["text"] is None
    assert views.step_for(2, "d3", recipient=None, hides=False)["text"] == "d3"
    assert views.view_fields(state, 0, hides=False) == {}


def test_a_spectator_of_cluedo_sees_no_hand() -> None:
    game = registry.get("clue").game({})
    match_state = game.initial_state(random.Random(3))
    rng = random.Random(4)
    while match_state.current_player() == -1:  # deal every card
        outcomes = [a for a, _ in match_state.chance_outcomes()]
        match_state = match_state.apply(rng.choice(outcomes))
    spectator = views.view_fields(match_state, None, hides=True)
    assert "legal" not in spectator
    assert spectator["view"]["hand"] == [] and spectator["view"]["seat"] is None
    mover = match_state.current_player()
    own = views.view_fields(match_state, mover, hides=True)
    assert own["legal"] and own["view"]["hand"]
    others = views.view_fields(match_state, (mover + 1) % game.seats, hides=True)
    assert "legal" not in others
    assert others["view"]["hand"] != own["view"]["hand"]
