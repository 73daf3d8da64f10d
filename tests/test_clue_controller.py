"""The Cluedo table, headless: it deals and draws at every window size, plays your
suggestion through the command table, asks you which card to show, takes the hint, undoes,
and counts a finished game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from game.engine.director import Director
from game.games.clue.controller import ClueController
from game.logic.clue.events import Suggestion
from game.logic.clue.rules import ActionKind, Phase
from game.registry import MemorySession
from tests.clue_scenes import lent, open_clue
from tests.waiting import HANG_S

pytestmark = pytest.mark.gl


@pytest.fixture(autouse=True)
def _lent(director: Director) -> Iterator[None]:
    with lent(director):
        yield


def _controller(director: Director, seed: int = 4) -> ClueController:
    controller = open_clue(director, {"seats": 3, "opponent": "article"}, seed=seed)
    assert isinstance(controller, ClueController)
    return controller


def _settle(director: Director, controller: ClueController, seconds: int = 20) -> None:
    """Simulated time until you are to play (or the game ends); a computer's thinking is
    waited for in real time, so the steps do not depend on how threads are scheduled."""
    for _ in range(seconds * 10):
        assert controller.match.wait(timeout=HANG_S)  # the computer's choice is made
        director.advance(0.1)
        if controller.idle() and (
            controller.state.is_terminal() or controller.state.current_player() == 0
        ):
            return


def test_the_table_deals_and_your_suggestion_is_answered(director: Director) -> None:
    c = _controller(director)
    assert c.state.phase is Phase.TURN and c.state.current_player() == 0
    assert len([n for n in c.scene if n.name.startswith("hand-")]) == 18
    director.perform("room", strict=True)  # the second room
    director.perform("suggest", strict=True)
    _settle(director, c, 5)
    assert c.state.log and c.state.log[-1].cards == tuple(c.choice)
    assert c.state.phase is Phase.AFTER
    assert "You suggest" in c.status().banner
    assert any(n.name.startswith("named-") for n in c.scene)
    director.perform("end", strict=True)
    _settle(director, c)
    assert c.state.current_player() == 0 or c.state.is_terminal()
    assert "status=" in c.status_line()


def test_hint_next_and_undo(director: Director) -> None:
    c = _controller(director)
    director.perform("hint", strict=True)
    _settle(director, c, 5)
    hint = c.match.current_hint()
    assert hint is not None and hint.action.kind in (ActionKind.SUGGEST, ActionKind.ACCUSE)
    verb = hint.action.kind.value.capitalize()
    assert c.status().banner.startswith(f"Hint: {verb} {c.deck.triple_text(hint.action.cards)}: ")
    director.perform("next", strict=True)
    _settle(director, c, 5)
    assert len(c.state.log) == 1 and c.state.phase is Phase.AFTER
    director.perform("hint", strict=True)
    _settle(director, c, 5)
    # Once: "Hint: end. ends the turn: the envelope is not certain yet"
    assert c.status().banner == "Hint: End your turn: the envelope is not certain yet."
    director.perform("undo", strict=True)
    assert c.state.log == () and c.state.current_player() == 0


def test_next_with_no_hint_yet_asks_for_it_and_plays_it_when_it_comes(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    """N used to make the full detective choose in the frame it was pressed (up to its two
    seconds); now it asks for the hint, which the match's worker works out, and plays it
    when it comes."""
    import threading

    c = _controller(director)
    agent = c.match.hint_agent
    assert agent is not None
    gate = threading.Event()
    chose: list[str] = []
    choose = agent.choose

    def gated(*args: Any, **kwargs: Any) -> Any:
        chose.append(threading.current_thread().name)
        assert gate.wait(HANG_S)
        return choose(*args, **kwargs)

    monkeypatch.setattr(agent, "choose", gated)
    director.perform("next", strict=True)
    director.advance(0.1)
    assert c.state.log == () and "Thinking about the move to play" in c.status().banner
    assert not c.idle()
    gate.set()
    _settle(director, c, 5)
    assert len(c.state.log) == 1 and c.state.phase is Phase.AFTER  # the hint's suggestion
    assert chose and threading.main_thread().name not in chose


def test_next_whose_hint_fails_says_so_and_waits_for_you(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = _controller(director)
    agent = c.match.hint_agent
    assert agent is not None

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a broken detective")

    monkeypatch.setattr(agent, "choose", broken)
    director.perform("next", strict=True)
    _settle(director, c, 5)
    assert not c.play_hint and c.idle() and c.state.log == ()
    assert c.status().banner.startswith("No hint came"), c.status().banner


def test_playing_the_hint_to_the_end_counts_the_game(director: Director) -> None:
    c = _controller(director)
    for _ in range(200):
        if c.state.is_terminal():
            break
        if c.state.current_player() == 0:
            director.perform("next", strict=True)
        _settle(director, c, 2)
    assert c.state.is_terminal()
    session = c.session
    assert isinstance(session, MemorySession) and len(session.records) == 1
    assert any(n.name.startswith("envelope-") for n in c.scene), "the envelope is opened"


def test_you_choose_the_card_to_show_when_you_hold_several(director: Director) -> None:
    # From seed 2, the first deal that asks you early: seed 1's game never asked, and was
    # played to its end first (most of the test's time).
    for seed in range(2, 30):
        c = _controller(director, seed=seed)
        for _ in range(100):
            state = c.state
            if state.is_terminal():
                break
            if state.current_player() == 0 and state.phase is Phase.REFUTE:
                names = [cmd.name for cmd in c.commands() if cmd.name.startswith("show-")]
                assert len(names) == len(state.matching(0)) >= 2
                director.perform(names[-1], strict=True)
                event = c.state.log[-1]
                assert isinstance(event, Suggestion) and event.shown == state.matching(0)[-1]
                return
            if state.current_player() == 0:
                director.perform("next", strict=True)
            _settle(director, c, 2)
    raise AssertionError("no deal of 29 asked you to choose a card to show")


@pytest.mark.parametrize("size", [(800, 600), (1280, 720), (1920, 1080)])
def test_the_table_renders_at_every_size(director: Director, size: tuple[int, int]) -> None:
    c = _controller(director)
    fbo = director.offscreen(size)
    director.render(fbo, size)
    assert director.ctx.error == "GL_NO_ERROR"
    pixels = director.capture()
    assert pixels.std() > 5, "a picture, not a blank frame"
    assert c.scene is not None and c.status().title == "Cluedo"


def test_an_accusation_asks_first_then_opens_the_envelope(director: Director) -> None:
    c = _controller(director)
    envelope = c.state.envelope
    director.perform("accuse", strict=True)
    assert c.state.log == () and "Press Accuse again" in c.status().banner
    director.perform("weapon", strict=True)  # changing a card cancels the question
    director.perform("accuse", strict=True)
    assert c.state.log == ()
    director.perform("accuse", strict=True)
    assert c.state.log and c.state.log[-1].cards == tuple(c.choice)
    if tuple(c.choice) != envelope:
        assert 0 in c.state.out()
    _settle(director, c)


def test_in_a_window_the_likeliest_envelope_is_weighed_on_a_thread_of_its_own(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notebook's likeliest envelope takes a sweep of the deals per choice of envelope
    (tens of milliseconds at the start, more as the clauses pile up): the frame each event
    came in waited for it. In a window it is worked out on a thread of its own, with the
    notebook; the sheet says so meanwhile, then shows it."""
    import threading

    from game.games.clue.panel import WORKING
    from game.logic.clue.deduce import Knowledge

    c = _controller(director)
    c.notebook_in_background = True  # as in a window
    gate = threading.Event()  # the weighing waits for it: the sheet is seen first
    threads: list[str] = []
    joint = Knowledge.envelope_joint

    def envelope_joint(self: Knowledge) -> dict[tuple[int, ...], float]:
        threads.append(threading.current_thread().name)
        if threads[-1] == "clue-notebook":
            assert gate.wait(HANG_S)
        return joint(self)

    monkeypatch.setattr(Knowledge, "envelope_joint", envelope_joint)
    from game.logic.clue.exact import NotebookCache

    c._books, c._counted = NotebookCache(), None  # the notebook made anew (the open made it)
    sheet = c.sheet()
    assert sheet is not None and sheet.footer[0] == WORKING
    gate.set()
    thread = c.background_threads["notebook"]
    thread.join(HANG_S)
    assert not thread.is_alive() and threads == ["clue-notebook"]
    c.take_answers()  # as the next frame does
    book = c.shown_notebook()
    assert book is not None and book.weighed()  # the sheet uses what the thread worked out
    sheet = c.sheet()
    assert sheet is not None and sheet.footer[0].startswith("Likeliest: ")


def test_the_move_list_says_each_suggestion_and_a_click_says_it_in_full(
    director: Director,
) -> None:
    from game.games.clue.moves import LIST_ROOM

    c = _controller(director)
    director.perform("suggest", strict=True)
    _settle(director, c, 5)
    director.perform("end", strict=True)
    _settle(director, c)
    events = c.state.observation(0).events
    assert len(events) >= 2  # yours, and the computers' until your turn came again
    rows = [command for command in c.commands() if command.group == "list"]
    # Beside the docked notebook only where the window leaves the table its room.
    assert bool(rows) == (director.area_size()[0] >= LIST_ROOM)
    director.perform("notebook", strict=True)  # the notebook hidden: the list has room
    rows = [command for command in c.commands() if command.group == "list"]
    assert [r.name for r in rows] == [f"move-{n}" for n in range(1, len(events) + 1)]
    first = events[0]
    assert isinstance(first, Suggestion) and first.seat == 0
    refuter = "nobody" if first.refuter is None else c.names()[first.refuter]
    assert rows[0].label.startswith("1. You: ") and rows[0].label.endswith(f"{refuter} showed")
    cursor = c.match.cursor
    director.perform("move-1", strict=True)
    assert c.status().banner.startswith("You suggest ") and c.match.cursor == cursor
