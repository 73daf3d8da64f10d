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
    Told,
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


def cluedo_told(seat: int) -> tuple[Any, LinkedMatch, FakeLink]:
    """A dealt Cluedo match (the truth, kept here as a server would) and seat ``seat``'s
    linked match of it, which has been told only its view."""
    from game.logic.clue.game import ClueGame, start_match
    from game.server.views import legal_texts, to_json

    game = ClueGame({"seats": 3, "deck": "quick"})
    truth = start_match(game, [None] * 3, seed=4)
    link = FakeLink()
    match = LinkedMatch(game, link, seat, ["Ann", "Bob", "Cy"], start_seed=None)
    state = truth.state
    legal = tuple(legal_texts(state)) if state.current_player() == seat else None
    record = tuple((s.seat, s.text if s.seat == seat else None) for s in truth.record)
    link.queued = [Began(None, record, seat, Told(to_json(state.observation(seat)), legal))]
    match.poll()
    return truth, match, link


def test_a_hiding_match_plays_on_a_stand_in_and_sends_only_legal_texts():
    from game.server.views import legal_texts, to_json

    truth, match, link = cluedo_told(0)
    assert match.stands_in and match.cursor == len(truth.record)
    assert match.state.observation(0) == truth.state.observation(0)  # made from the view
    with pytest.raises(IllegalActionError):
        match.play_text("end")  # not before a suggestion
    suggestion = match.state.parse_action("suggest " + " / ".join(
        truth.game.rules.deck.name(r[0]) for r in truth.game.rules.deck.ranges
    ))  # fmt: skip
    match.play(suggestion)
    text = match.state.action_text(suggestion)
    assert link.sent == [("act", len(truth.record), text)] and text in (match.legal or ())
    truth.play(suggestion)
    while truth.state.current_player() not in (0, -4):  # the others answer, unseen here
        truth.play(truth.state.legal_actions()[0])
    shown = []
    for ply in range(match.cursor + 1, truth.cursor + 1):
        step, state = truth.record[ply - 1], truth.state_at(ply)
        told = Told(to_json(state.observation(0)), None)
        shown.append(Stepped(ply, step.seat, step.text if step.seat == 0 else None, told))
    link.queued = shown
    steps = match.poll()
    assert [s.seat for s in steps] == [s.seat for s in truth.record[-len(steps) :]]
    assert steps[0].action == suggestion and all(s.action is None for s in steps[1:])
    assert match.state.observation(0) == truth.state.observation(0) and match.sent is None
    assert link.sent == [("act", len(truth.record) - len(steps), text)]  # nothing else left
    dealt = sum(1 for s in truth.record if s.seat == -1)  # an undo back to the deal
    back = tuple((s.seat, None) for s in truth.record[:dealt])
    view = to_json(truth.state_at(dealt).observation(0))
    link.queued = [Began(None, back, 0, Told(view, tuple(legal_texts(truth.state_at(dealt)))))]
    match.poll()  # the server's record is another one: rebuilt, and counted
    assert match.resets == 1 and match.cursor == dealt and match.person_to_move()
