"""Cluedo case files as a hostile person writes them (issue 25, item 10): a line the console
cannot read never ends it, ``--case FILE`` is read and written, a megabyte line is quoted as
a short excerpt (in the console, the record reader and the window's banner), and a long
case opens with one sweep of the deals, a contradiction still named by its event."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from game.games.clue.assistant import AssistantController
from game.games.clue.console import assistant
from game.logic.clue import deduce
from game.logic.clue.bench import long_case
from game.logic.clue.events import Suggestion, View
from game.logic.clue.exact import NotebookCache
from game.logic.clue.notebook import EventContradiction, Notebook
from game.logic.clue.record import RecordError, dumps, loads
from game.registry import MemorySession

HEADER = [
    "deck classic", "seats 4", "dealer 3", "me 0",
    "hand Scarlett, Mustard, Candlestick, Kitchen, Ballroom",
]  # fmt: skip
EVENTS = [
    "suggest 1: Plum, Rope, Hall; passed 2; showed 3",
    "suggest 0: Plum, Rope, Study; passed 1, 2; showed 3: Rope",
]
MEGA = "x" * 1_000_000


def _run(lines: list[str], case: Path | None = None) -> str:
    out = io.StringIO()
    assert (assistant(iter(lines), out, case) if case else assistant(iter(lines), out)) == 0
    return out.getvalue()


@pytest.mark.parametrize("holder", ["²", "١", "３", "1_0", "-1", "4", "99999999999999999999999999"])
def test_a_why_line_the_console_cannot_read_is_answered_and_nothing_is_lost(
    tmp_path: Path, holder: str
) -> None:
    case = tmp_path / "case.txt"
    lines = [*HEADER, EVENTS[0], f"why Rope {holder}", EVENTS[1], "why Rope 3", f"save {case}"]
    text = _run(lines)
    assert "the holder is a seat number from 0 to 3 or 'envelope'" in text
    assert "Seat 3 holds Rope, because:" in text  # the console went on after the bad line
    assert len(loads(case.read_text()).events) == 2


def test_the_case_flag_is_read_at_the_start_and_written_after_every_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.cli import main

    case = tmp_path / "case.txt"
    case.write_text("\n".join([*HEADER, EVENTS[0]]) + "\n")
    typed = "\n".join([EVENTS[1], "why Rope ²", "suggest 2: Plum, Dagger, Hall; passed 3, 0, 1"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed + "\n"))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["clue", "--console", "--assistant", "--case", str(case)]) == 0
    assert "loaded 1 events" in out.getvalue()
    # no 'save' typed: each event was written as it was taken
    assert [e.seat for e in loads(case.read_text()).events] == [1, 0, 2]
    _run(["undo"], case)
    assert len(loads(case.read_text()).events) == 2


def test_a_new_case_file_is_made_and_a_bad_one_left_as_it_is(tmp_path: Path) -> None:
    new = tmp_path / "new.txt"
    _run([*HEADER, EVENTS[0]], new)
    assert len(loads(new.read_text()).events) == 1
    bad = tmp_path / "bad.txt"
    bad.write_text("deck classic\nseats 4\nthis is not a case file\n")
    before = bad.read_bytes()
    text = _run([*HEADER, EVENTS[0], "save"], bad)
    assert "left as it is and nothing is saved to it" in text
    assert "save FILE: name the file" in text
    assert bad.read_bytes() == before


def test_the_case_flag_without_the_assistant_is_refused(capsys: pytest.CaptureFixture) -> None:
    from game.cli import main

    assert main(["clue", "--console", "--case", "x.txt"]) == 2
    assert "--case goes with --assistant" in capsys.readouterr().err


@pytest.mark.parametrize(
    "line",
    [
        f"suggest 1: Plum, Rope, {MEGA}",
        f"suggest 1: Plum, Rope, Hall; passed {MEGA}",
        f"suggest 1: Plum, Rope, Hall; {MEGA}",
        f"suggest {MEGA}: Plum, Rope, Hall",
        MEGA,
    ],
    ids=["card", "passer", "clause", "seat", "word"],
)
def test_a_megabyte_line_is_quoted_as_a_short_excerpt(tmp_path: Path, line: str) -> None:
    text = "\n".join([*HEADER, EVENTS[0], line]) + "\n"
    with pytest.raises(RecordError) as refused:
        loads(text)
    assert "line 7: " in str(refused.value) and len(str(refused.value)) < 300
    answered = _run([*HEADER, EVENTS[0], line])
    assert len(answered) < 2000 and "characters)" in answered
    case = tmp_path / "case.txt"
    case.write_text(text)
    scene = AssistantController(MemorySession(), case=str(case), assistant=True)
    assert "line 7" in scene.message and len(scene.message) < 400
    assert not scene.started and case.read_text() == text


def _sweeps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    solve = deduce._solve

    def counted(*args, **kwargs):
        count[0] += 1
        return solve(*args, **kwargs)

    monkeypatch.setattr(deduce, "_solve", counted)
    return count


def test_a_long_case_opens_with_one_sweep_of_the_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep per event took 56 s for 2,000 events; benchmarks/clue_load.py times it."""
    view = long_case(400)
    sweeps = _sweeps(monkeypatch)
    book = Notebook.of(view)
    assert sweeps[0] <= 2, "the hand, then every event at once"
    assert len(book.view.events) == 400 and len(book.origins) == len(book.knowledge.facts)
    sweeps[0] = 0
    cached = NotebookCache().of(view)
    assert sweeps[0] <= 2
    assert (cached.probabilities == book.probabilities).all()


def test_a_contradiction_in_a_long_case_is_named_by_its_event() -> None:
    view = long_case(300)
    mine = view.hand[0]
    others = [next(c for c in r if c != mine) for r in view.deck.ranges]
    cards = tuple(mine if view.deck.category_of(mine) == k else c for k, c in enumerate(others))
    # seat 0 "passes" on a card it holds: no deal agrees
    wrong = Suggestion(3, cards, (0,), 1, None)
    events = (*view.events[:137], wrong, *view.events[137:])
    bad = View(view.deck, view.hand_sizes, view.seat, view.hand, events)
    with pytest.raises(EventContradiction) as refused:
        Notebook.of(bad)
    assert refused.value.index == 137 and refused.value.event == wrong
    assert "event 138 contradicts" in str(refused.value)
    assert loads(dumps(bad)) == bad


def test_why_in_a_long_case_takes_tens_of_deductions_not_one_per_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = long_case(400)
    book = Notebook.of(view)
    card, seat = next(
        (c, s) for c in range(view.deck.n_cards) if c not in view.hand
        for s in range(1, view.seats) if not book.possible(c, s)
    )  # fmt: skip  # a cell the events decide (not the hand)
    sweeps = _sweeps(monkeypatch)
    reasons = book.why(card, seat)
    assert reasons and max(reasons) >= 0 and sweeps[0] < 60, sweeps[0]  # one an event: 400
    monkeypatch.undo()
    layout = book.knowledge.layout

    def decides(kept: set[int]) -> bool:
        facts = [f for f, o in zip(book.knowledge.facts, book.origins, strict=True) if o in kept]
        return not deduce.Knowledge(layout, facts).possible(card, seat)

    assert decides(set(reasons))
    assert not any(decides(set(reasons) - {r}) for r in reasons)


def test_the_window_keeps_a_case_file_it_could_not_read_before_saving_over_it(
    tmp_path: Path,
) -> None:
    case = tmp_path / "case.txt"
    bad = "\n".join([*HEADER, f"suggest 1: Plum, Rope, {MEGA}"]) + "\n"
    case.write_text(bad)
    scene = AssistantController(MemorySession(), case=str(case), assistant=True)
    for name in ("Scarlett", "Mustard", "Candlestick", "Kitchen", "Ballroom"):
        scene.hold(scene.deck.card(name))
    scene.start()
    scene.save()
    assert "the file that could not be read is case.txt.bad-" in scene.message
    (aside,) = tmp_path.glob("case.txt.bad-*")
    assert aside.read_text() == bad and len(loads(case.read_text()).hand) == 5
    scene.save()  # the new case is this table's own: written over, nothing more set aside
    assert len(list(tmp_path.glob("case.txt.bad-*"))) == 1
