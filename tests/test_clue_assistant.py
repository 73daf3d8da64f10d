"""The Cluedo assistant in the window: set up a hand, enter a real table's suggestions and
answers with the buttons, refuse what contradicts without losing anything, take back and put
back, save and load the case file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.engine.director import Director
from game.games.clue.assistant import AssistantController
from game.logic.clue.events import Suggestion
from game.logic.clue.record import loads
from tests.clue_scenes import lent, open_clue

pytestmark = pytest.mark.gl

HAND = ("Miss Scarlett", "Colonel Mustard", "Rope", "Hall", "Study")


@pytest.fixture(autouse=True)
def _lent(director: Director) -> Iterator[None]:
    with lent(director):
        yield


def _assistant(director: Director, case: Path | None = None) -> AssistantController:
    extra = {"case": str(case)} if case is not None else {}
    controller = open_clue(director, {"seats": 4}, assistant=True, **extra)
    assert isinstance(controller, AssistantController)
    return controller


def _do(director: Director, *commands: str) -> None:
    for command in commands:
        director.perform(command, strict=True)


def _started(director: Director, case: Path | None = None) -> AssistantController:
    a = _assistant(director, case)
    assert not director.commands().enabled("start")
    _do(director, *(f"hold:{name}" for name in HAND))
    assert a.hand_sizes[0] == 5 and director.commands().enabled("start")
    _do(director, "start")
    assert a.started and a.draft.seat == 0, "the dealer is seat 3: you suggest first"
    return a


def test_a_real_tables_suggestions_are_entered_answer_by_answer(director: Director) -> None:
    a = _started(director)
    deck = a.deck
    # Your suggestion: Seat 1 passes, Seat 2 shows you the Dagger.
    _do(director, "choose:Plum", "choose:Dagger", "choose:Kitchen", "pass", "showed")
    assert a.draft.refuter == 2 and not a.events
    _do(director, f"shown-{deck.card('Dagger')}")
    assert a.events == [Suggestion(0, deck.triple("Plum, Dagger, Kitchen"), (1,), 2,
                                   deck.card("Dagger"))]  # fmt: skip
    assert a.notebook().holder(deck.card("Dagger")) == 2
    # Seat 1 suggests; Seat 2 passes, Seat 3 shows a card you do not see.
    assert a.draft.seat == 1
    _do(director, "choose:White", "choose:Lead Pipe", "choose:Lounge", "pass", "showed")
    assert a.events[-1] == Suggestion(1, deck.triple("White, Lead Pipe, Lounge"), (2,), 3)
    # Seat 2 names your Rope: Seat 3 passes, then you must show it.
    _do(director, "choose:Green", "choose:Rope", "choose:Library", "pass")
    assert a.draft.asked() == 0
    table = director.commands()
    assert table is not None and "pass" not in table, "you hold the Rope: no pass offered"
    assert [c.name for c in table if c.name.startswith("show-")] == [f"show-{deck.card('Rope')}"]
    _do(director, f"show-{deck.card('Rope')}")
    assert a.events[-1].refuter == 0 and a.events[-1].shown == deck.card("Rope")
    assert a.status_line() == "status=recording events=3 hand=5 seats=4"


def test_a_contradiction_is_refused_and_nothing_is_lost(director: Director) -> None:
    a = _started(director)
    deck = a.deck
    _do(director, "choose:Scarlett", "choose:Dagger", "choose:Kitchen", "showed")
    _do(director, f"shown-{deck.card('Scarlett')}")  # you hold it: nobody else can show it
    assert not a.events and a.draft.refuter == 1, "the answer waits to be entered again"
    assert "Not recorded" in a.status().banner
    _do(director, f"shown-{deck.card('Kitchen')}")
    assert len(a.events) == 1


def test_undo_and_redo_walk_answers_and_events(director: Director) -> None:
    a = _started(director)
    _do(director, "choose:Plum", "pass", "pass", "pass")
    assert len(a.events) == 1 and a.events[0].passed == (1, 2, 3)
    _do(director, "pass")  # Seat 1's suggestion: Seat 2 passes
    assert a.draft.passed == (2,)
    _do(director, "undo")  # the answer
    assert a.draft.passed == () and len(a.events) == 1
    _do(director, "undo")  # the event, whole: its suggester and cards stay chosen
    assert a.events == [] and a.draft.seat == 0 and not a.draft.answering
    _do(director, "redo")
    assert len(a.events) == 1 and a.draft.seat == 1
    _do(director, "undo", "pass")  # a new answer: what was taken back is gone
    assert not director.commands().enabled("redo")


def test_a_new_table_forgets_what_was_taken_back(director: Director) -> None:
    a = _started(director)
    _do(director, "suggester", "suggester", "suggester")
    assert a.draft.seat == 3
    _do(director, "choose:Plum", "pass", "pass", "pass")  # seat 3's suggestion
    _do(director, "undo", "undo")  # the event, then back to the setup
    assert not a.started and a.undone
    _do(director, "seats")  # five players now
    assert not a.undone and a.seats == 5
    _do(director, "seats", "seats")  # six, then round to three players
    assert a.seats == 3 and len(a.hand) <= a.hand_sizes[0]
    status = a.status()  # nothing out of range after the table changed
    assert "Setting up" in status.counter


def test_the_hint_follows_the_events(director: Director) -> None:
    a = _started(director)
    _do(director, "hint")
    assert a.hinted is not None
    first = a.hinted[1]
    _do(director, "next")
    assert a.draft.seat == 0 and a.draft.cards == first
    _do(director, "showed")
    _do(director, f"shown-{first[0]}")
    _do(director, "hint")
    assert a.hinted[1] != first or a.notebook().holder(first[0]) == 1
    assert a.hinted is not None and a.hinted[0] == a._view_key()


def test_the_case_file_saves_and_loads(director: Director, tmp_path: Path) -> None:
    case = tmp_path / "table.txt"
    a = _started(director, case)
    _do(director, "choose:Plum", "pass", "showed")
    _do(director, f"shown-{a.deck.card('Plum')}", "save")
    saved = loads(case.read_text(encoding="utf-8"))
    assert saved.events == tuple(a.events) and saved.hand == tuple(sorted(a.hand))
    b = _assistant(director, case)  # a new window reads it back at the start
    assert b.started and b.events == a.events and b.draft.seat == 1
    case.write_text(case.read_text(encoding="utf-8") + "suggest 9: Plum, Rope, Hall\n")
    assert director.perform("load") is False
    assert "line 8" in director.toast and b.events == a.events, "nothing changed"


def test_the_assistant_draws_at_every_size(director: Director) -> None:
    _started(director)
    for size in ((800, 600), (1280, 720)):
        fbo = director.offscreen(size)
        director.render(fbo, size)
        assert director.ctx.error == "GL_NO_ERROR"


def test_an_impossible_answer_is_refused_as_it_is_entered(director: Director) -> None:
    a = _started(director)
    _do(director, "choose:Plum", "choose:Dagger", "pass", "showed")
    _do(director, f"shown-{a.deck.card('Dagger')}")  # Seat 2 holds the Dagger
    _do(director, "choose:White")  # Seat 1 names White, Dagger, Kitchen: Seat 2 is asked
    assert a.draft.asked() == 2
    assert director.perform("pass") is False, "Seat 2 holds the Dagger: it cannot pass"
    assert "Seat 2 cannot have passed" in director.toast and a.draft.passed == ()
    _do(director, "showed")
    assert a.events[-1].refuter == 2


def test_a_case_of_another_table_size_loads_whole(director: Director, tmp_path: Path) -> None:
    case = tmp_path / "three.txt"
    case.write_text(
        "deck classic\nseats 3\ndealer 2\nme 0\n"
        "hand Scarlett, Mustard, Rope, Hall, Study, Kitchen\n"
        "suggest 0: Plum, Dagger, Lounge; showed 1: Dagger\n",
        encoding="utf-8",
    )
    a = _assistant(director)  # four players
    a.path = case
    _do(director, "load")
    assert a.seats == 3 and a.dealer == 2 and len(a.events) == 1
    _do(director, "undo", "undo")  # the event, then the setup
    assert not a.started and "Setting up" in a.status().counter
    _do(director, "new")
    assert a.hand_sizes == (6, 6, 6)


def test_a_bad_case_file_at_the_start_is_named_and_the_window_opens(
    director: Director, tmp_path: Path
) -> None:
    case = tmp_path / "bad.txt"
    case.write_text("deck classic\nseats 9\n", encoding="utf-8")
    a = _assistant(director, case)
    assert not a.started and "line 2" in a.status().banner


def test_in_a_window_the_notebook_is_worked_out_off_the_drawing_thread(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The assistant's sheet weighed the likeliest envelope (a sweep of the deals for each
    choice of envelope, a third of a second at six seats late in a case) in the frame each
    answer was entered in. In a window that is done on the notebook's thread, as in the game
    against the computers: the sheet says so meanwhile, then shows it. Each answer is still
    checked at once (one sweep), so that a contradiction is refused as it is entered."""
    import threading

    from game.games.clue.panel import WORKING
    from game.logic.clue.deduce import Knowledge
    from tests.waiting import HANG_S

    a = _started(director)
    a.notebook_in_background = True  # as in a window
    deck = a.deck
    gate = threading.Event()
    weighed: list[str] = []
    joint = Knowledge.envelope_joint

    def held(self: Knowledge) -> dict[tuple[int, ...], float]:
        if not self.weighed():  # a sweep for each choice of envelope to come
            weighed.append(threading.current_thread().name)
            if weighed[-1] == "clue-notebook":
                assert gate.wait(HANG_S)
        return joint(self)

    monkeypatch.setattr(Knowledge, "envelope_joint", held)
    _do(director, "choose:Plum", "choose:Dagger", "choose:Kitchen", "pass", "showed")
    _do(director, f"shown-{deck.card('Dagger')}")
    assert len(a.events) == 1  # checked and entered at once
    sheet = a.sheet()
    assert sheet is not None and sheet.footer[0] == WORKING
    gate.set()
    thread = a.background_threads["notebook"]
    thread.join(HANG_S)
    assert not thread.is_alive()
    director.update(1 / 60)  # the next frame takes it
    sheet = a.sheet()
    assert sheet is not None and sheet.footer[0].startswith(("Likeliest: ", "Solved: "))
    assert weighed and set(weighed) == {"clue-notebook"}


def test_in_a_window_the_hint_is_worked_out_on_a_thread(
    director: Director, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full detective's suggestion (a few hundred milliseconds at six seats) was chosen
    in the frame H or N was pressed; in a window it is chosen on a thread, said (H) or
    entered (N) in the frame after it comes."""
    import threading

    from game.logic.clue.exact import FullAgent
    from tests.waiting import HANG_S

    a = _started(director)
    a.notebook_in_background = True  # as in a window
    gate = threading.Event()
    chose: list[str] = []
    suggest = FullAgent.suggest

    def gated(self: FullAgent, *args: object) -> object:
        chose.append(threading.current_thread().name)
        assert gate.wait(HANG_S)
        return suggest(self, *args)

    monkeypatch.setattr(FullAgent, "suggest", gated)
    _do(director, "hint")
    assert a.status().banner.startswith("Thinking about a hint")
    gate.set()
    a.background_threads["hint"].join(HANG_S)
    assert not a.background_threads["hint"].is_alive()
    director.update(1 / 60)
    assert a.status().banner.startswith("On your turn, suggest "), a.status().banner
    assert chose == ["clue-hint"]
    _do(director, "next")  # the same case: the hint is known, entered at once
    assert a.draft.seat == 0 and a.status().banner.startswith("You suggest ")
    assert chose == ["clue-hint"]


def test_the_move_list_has_each_event_and_a_click_says_it_in_full(director: Director) -> None:
    a = _started(director)
    deck = a.deck
    _do(director, "choose:Plum", "choose:Dagger", "choose:Kitchen", "pass", "showed")
    _do(director, f"shown-{deck.card('Dagger')}", "notebook")  # the notebook hidden: room
    _do(director, "choose:White", "choose:Lead Pipe", "choose:Lounge")  # seat 1 asks
    rows = [c for c in director.commands() if c.group == "list"]
    # The events entered, then the buttons of the answer being entered, in one column.
    assert [(c.name, c.label) for c in rows] == [
        ("move-1", f"1. You: Plum, Dagger, Kitchen; {a.names()[2]} showed"),
        ("pass", f"{a.names()[2]} passed"),
        ("showed", f"{a.names()[2]} showed a card"),
    ]
    _do(director, "move-1")
    assert a.status().banner.startswith("You suggest Professor Plum") and len(a.events) == 1
