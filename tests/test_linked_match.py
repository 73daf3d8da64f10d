"""A match played on a server (:mod:`game.logic.linked`), through a fake link: nothing is
applied that the server did not send back, and its snapshots, refusals, hints and questions
reach the match."""

from __future__ import annotations

from typing import Any

import pytest

from game.logic.contract import IllegalActionError
from game.logic.linked import (
    Began,
    Hinted,
    LinkedMatch,
    Noticed,
    Rejected,
    Stepped,
    UndoAsked,
)
from game.logic.match import MatchError, Step
from game.registry import get


class FakeLink:
    """Keeps what the match sent; hands over what the test queued."""

    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.queued: list[Any] = []
        self.closed = False

    def events(self) -> list[Any]:
        out, self.queued = self.queued, []
        return out

    def act(self, ply: int, text: str) -> None:
        self.sent.append(("act", ply, text))

    def hint(self) -> None:
        self.sent.append(("hint",))

    def undo(self) -> None:
        self.sent.append(("undo",))

    def answer_undo(self, accept: bool) -> None:
        self.sent.append(("answer", accept))

    def resync(self) -> None:
        self.sent.append(("resync",))

    def close(self) -> None:
        self.closed = True


def reversi(you: int | None = 0) -> tuple[LinkedMatch, FakeLink, list[Step]]:
    game = get("reversi").game({"black": "human", "white": "human"})
    link = FakeLink()
    match = LinkedMatch(game, link, you, ["Ann", "Bob"], start_seed=7)
    shown: list[Step] = []
    match.on_step = shown.append
    return match, link, shown


def test_a_move_is_sent_and_applied_only_when_the_server_sends_it_back():
    match, link, shown = reversi()
    match.play_text("d3")
    assert link.sent == [("act", 0, "d3")]
    assert match.cursor == 0 and shown == []
    with pytest.raises(MatchError, match="on its way"):
        match.play_text("c4")
    link.queued = [Stepped(1, 0, "d3")]
    assert [s.text for s in match.poll()] == ["d3"]
    assert [s.text for s in shown] == ["d3"] and match.sent is None
    assert match.to_move() == 1 and not match.person_to_move() and match.thinking()


def test_an_illegal_move_is_refused_at_once_and_nothing_is_sent():
    match, link, _ = reversi()
    with pytest.raises(IllegalActionError):
        match.play_text("a1")
    with pytest.raises(MatchError, match="watching"):
        reversi(None)[0].play_text("d3")
    assert link.sent == [] and match.cursor == 0


def test_another_seats_steps_come_in_order_a_gap_asks_for_the_match_again(caplog):
    match, link, shown = reversi(1)
    with pytest.raises(MatchError, match="not yours"):
        match.play_text("d3")
    link.queued = [Stepped(1, 0, "d3"), Stepped(1, 0, "d3"), Stepped(3, 0, "c3")]
    with caplog.at_level("INFO", logger="game.logic.linked"):
        match.poll()
        assert [s.text for s in shown] == ["d3"]
        assert link.sent == [("resync",)]
        assert match.person_to_move()
        link.queued = [Began(7, ((0, "d3"), (1, "c5")), 1)]  # the snapshot the gap asked for
        match.poll()
    assert [s.text for s in shown] == ["d3", "c5"] and not match.person_to_move()
    # -v logs every step taken in, once, in order (what a window saw: its real-window test)
    assert caplog.messages == ["step 1, seat 0: d3", "step 2, seat 1: c5"]


def test_the_scene_still_playing_keeps_the_steps_in_the_link():
    match, link, _ = reversi()
    link.queued = [Stepped(1, 0, "d3")]
    assert match.poll(apply=False) == [] and link.queued


def test_a_snapshot_that_takes_moves_back_rebuilds_the_record_once():
    match, link, shown = reversi()
    link.queued = [Stepped(1, 0, "d3"), Stepped(2, 1, "c5"), Stepped(3, 0, "d6")]
    match.poll()
    shown.clear()
    link.queued = [Began(7, ((0, "d3"),), 0)]
    match.poll()
    assert match.transcript() == "d3" and match.resets == 1 and shown == []
    link.queued = [Began(7, ((0, "d3"), (1, "c5")), 0)]  # a reconnect that missed a step
    match.poll()
    assert [s.text for s in shown] == ["c5"] and match.resets == 1


def test_refusals_hints_and_questions_reach_the_person():
    match, link, _ = reversi()
    match.play_text("d3")
    link.queued = [Rejected("act", "stale"), Noticed("Connection lost")]
    match.poll()
    assert match.sent is None and list(match.notices) == ["stale", "Connection lost"]
    match.hint()
    assert match.hinting() and link.sent[-1] == ("hint",)
    link.queued = [Hinted(0, "f5")]
    match.poll()
    hint = match.current_hint()
    assert hint is not None and hint.text == "f5" and not match.hinting()


def test_undo_asks_the_server_and_agrees_to_a_question():
    match, link, _ = reversi()
    match.restart()  # a scene that opens with a new game: nothing happens at the start
    with pytest.raises(MatchError):
        match.undo()
    link.queued = [Stepped(1, 0, "d3"), UndoAsked("Bob")]
    match.poll()
    match.undo()
    assert link.sent[-1] == ("answer", True) and not match.can_undo()
    link.queued = [Rejected("undo", "Bob keeps the move.")]
    match.poll()
    match.undo()
    assert link.sent[-1] == ("undo",) and not match.can_undo()  # asked once at a time
    for refused in (match.redo, match.restart, lambda: match.jump(0)):
        with pytest.raises(MatchError):
            refused()
    match.close()
    assert link.closed
