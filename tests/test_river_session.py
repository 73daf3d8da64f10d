"""The river controller without a window: the match behind it, its options and its session.

No scene is entered, so nothing needs GL: moves, undo and redo, New game, Next step and Solve,
the option buttons and what goes to the session.
"""

from __future__ import annotations

import sys

import pytest

from game.engine.controller import Tone
from game.games.river.controller import RiverController
from game.logic.options import OptionError, OptionsSchema
from game.logic.river.game import (
    OPTIONS,
    BoardBoat,
    Cross,
    Goal,
    Kind,
    Outcome,
    RiverPuzzle,
    RiverRules,
    RiverState,
    Rowers,
    Unboard,
)
from game.registry import MemorySession

P, D = Kind.PRIEST, Kind.DEVIL


def finish(river: RiverController, limit: int = 500) -> None:
    """Let Next step or Solve play out (each update plays one click with no window)."""
    for _ in range(limit):
        if river.idle():
            return
        river.update(1 / 60)
    raise AssertionError("autoplay did not finish")


class NotingSession(MemorySession):
    """A session that keeps statistics: it answers every record with a note."""

    def record(self, key: str, **fields: object) -> str:
        super().record(key, **fields)  # type: ignore[arg-type]
        return f"Won {sum(r['won'] for r in self.records)} of {len(self.records)}."


def test_the_session_options_and_overrides_start_the_game() -> None:
    river = RiverController(MemorySession(options={"priests": 5, "devils": 4}))
    assert river.rules == RiverRules(5, 4, 2)
    assert RiverController(MemorySession(), capacity=3).rules == RiverRules(3, 3, 3)
    with pytest.raises(OptionError, match="cannot cross"):
        RiverController(MemorySession(), priests=4, devils=4)


def test_moves_undo_and_redo_go_through_the_match() -> None:
    river = RiverController(MemorySession())
    for action in (BoardBoat(D), BoardBoat(D), Cross()):
        river.play(action)
    assert river.match.transcript() == "board:devil board:devil boat"
    assert river.state.crossings == 1
    assert sum(place.aboard for place in river.places.values()) == 2
    river.undo()
    river.undo()
    assert river.match.cursor == 1 and river.state.boat.devils == 1
    assert [name for name, place in river.places.items() if place.aboard] == ["devil1"]
    river.redo()
    river.redo()
    assert river.match.cursor == 3 and river.state.crossings == 1
    with pytest.raises(ValueError, match="Nothing to redo"):
        river.redo()
    with pytest.raises(ValueError, match="the boat is full"):
        river.play(BoardBoat(P))
    river.click("devil2")  # clicked by name: that one lands
    assert not river.places["devil2"].aboard and river.places["devil1"].aboard


def test_a_click_boards_the_one_clicked_not_the_first() -> None:
    river = RiverController(MemorySession())
    river.click("priest3")
    assert river.places["priest3"].aboard and not river.places["priest1"].aboard
    river.play(Unboard(P))
    assert not river.places["priest3"].aboard


def test_next_step_and_solve_play_the_agents_clicks() -> None:
    river = RiverController(MemorySession())
    puzzle = RiverPuzzle(RiverRules())
    river.next_step()
    assert not river.idle()
    finish(river)
    assert river.match.transcript() == "board:devil board:devil boat"
    river.solve()
    finish(river)
    assert river.state.outcome() is Outcome.WON
    assert river.match.actions() == puzzle.solve_actions()


def test_new_game_asks_for_a_second_press_during_a_game() -> None:
    river = RiverController(MemorySession())
    river.new_game()  # nothing played: at once
    assert river.match.cursor == 0 and not river.asking
    river.play(BoardBoat(D))
    river.new_game()
    assert river.match.cursor == 1 and river.asking
    assert river.status().tone is Tone.WARN and "again" in river.status().banner
    river.commands().run("new")
    assert river.match.cursor == 0
    river.play(BoardBoat(D))
    river.commands().run("new")
    river.commands().run("hint")  # another command in between: the question is forgotten
    river.commands().run("new")
    assert river.match.cursor == 1


def test_a_finished_game_is_recorded_once_with_its_setting() -> None:
    session = MemorySession()
    river = RiverController(session)
    for action in RiverPuzzle(RiverRules()).solve_actions():
        river.play(action)
    assert session.records == [
        {"key": "river:3/3/2", "won": True, "drawn": False, "setting": "3/3/2", "score": 11}
    ]
    assert river.status().tone is Tone.WON
    assert river.status().banner.startswith("You win! All 3 priests and 3 devils reached")
    river.undo()
    river.redo()  # won again: still one game
    assert len(session.records) == 1
    river.commands().run("new")
    for action in (BoardBoat(P), BoardBoat(P), Cross()):
        river.play(action)
    assert session.records[-1]["won"] is False and session.records[-1]["score"] is None


def test_a_solver_helped_win_sets_no_best_score() -> None:
    session = NotingSession()
    river = RiverController(session)
    river.play(BoardBoat(P))
    river.solve()
    finish(river)
    assert session.records[-1]["score"] is None
    assert river.status().banner.endswith(
        "crossings (best possible 11). Won 1 of 1. (Solved with help: no best score.)"
    )


def test_option_buttons_step_through_the_schema_and_save() -> None:
    session = MemorySession()
    river = RiverController(session)
    table = river.commands()
    assert [c.name for c in table if c.group == "options"] == [
        "priests-", "priests+", "devils-", "devils+", "capacity-", "capacity+",
        "boat_counts", "rowers", "goal", "stats",
    ]  # fmt: skip
    table.run("priests+")
    assert river.rules == RiverRules(4, 3, 2) and session.saved == [river.options]
    with pytest.raises(ValueError, match="Refused: 4 priests and 4 devils cannot cross"):
        table.run("devils+")
    assert river.rules == RiverRules(4, 3, 2) and len(session.saved) == 1
    river.set_options(OPTIONS.validate({"priests": 1, "devils": 0, "capacity": 1}))
    assert not table.enabled("capacity-")  # below the schema's range: greyed
    with pytest.raises(ValueError):
        table.run("capacity-")


def test_zero_devils_from_the_window_is_what_the_next_start_gets() -> None:
    """The window once went down to 0 devils while the settings file wanted at least 1, so
    the next start silently fell back to 3 devils. Both now read the one schema."""
    session = MemorySession(options={"priests": 2, "devils": 1, "capacity": 2})
    river = RiverController(session)
    assert river.commands().enabled("devils-")
    river.commands().run("devils-")
    assert river.rules == RiverRules(2, 0, 2)
    assert session.saved[-1] == {
        "priests": 2,
        "devils": 0,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    problems: list[str] = []
    assert OPTIONS.load(session.saved[-1], "river", problems)["devils"] == 0
    assert problems == []
    assert RiverController(session).rules == RiverRules(2, 0, 2)  # the next start
    assert not river.commands().enabled("devils-")  # -1 is below the schema's minimum


def test_zero_devils_survive_the_settings_file() -> None:
    """The same through the settings file ``gamehall play`` reads and writes (in the test's
    own GAMEHALL_HOME)."""
    from game.session import Session
    from game.settings import Settings, Store

    store = Store()
    session = Session("river", OPTIONS, Settings(), store)
    river = RiverController(session, priests=1, devils=1)
    river.commands().run("devils-")
    loaded, messages = store.load_settings()
    assert messages == []
    again = Session("river", OPTIONS, loaded, store)
    assert again.options == {
        "priests": 1,
        "devils": 0,
        "capacity": 2,
        "boat_counts": True,
        "rowers": "anyone",
        "goal": "everyone",
    }
    assert RiverController(again).rules == RiverRules(1, 0, 2)


def test_variant_buttons_step_to_the_next_solvable_value_and_save() -> None:
    session = MemorySession()
    river = RiverController(session)
    labels = {c.name: c.label for c in river.commands() if c.group == "options"}
    assert labels["boat_counts"] == "Boat counts: yes" and labels["rowers"] == "Rowers: anyone"
    river.commands().run("boat_counts")
    assert river.rules == RiverRules(3, 3, 2, boat_counts=False)
    assert session.saved[-1]["boat_counts"] is False
    assert river.puzzle.optimal_crossings() == 9
    assert "passengers count for no bank" in river.status().banner
    # The label follows the value (the table is rebuilt with the options).
    assert river.commands()["boat_counts"].label == "Boat counts: no"
    # 3/3/2 with passengers counting for no bank: only priests rowing has no solution, devils
    # rowing has.
    river.commands().run("rowers")
    assert river.rules.rowers is Rowers.DEVILS
    assert river.commands()["rowers"].label == "Rowers: devils"
    river.commands().run("goal")
    assert river.rules.goal is Goal.PRIESTS and river.puzzle.optimal_crossings() == 7
    # Passengers counting again: only anyone rowing makes 3/3/2 solvable, so the button
    # has nowhere to go and says why (the first value it tried).
    river.set_options(
        OPTIONS.validate({"boat_counts": True, "rowers": "anyone", "goal": "everyone"})
    )
    saved = len(session.saved)
    with pytest.raises(ValueError, match=r"Refused: .* when only priests row"):
        river.commands().run("rowers")
    assert river.rules == RiverRules() and len(session.saved) == saved


def test_a_variant_game_is_judged_and_recorded_under_its_own_key() -> None:
    session = MemorySession()
    river = RiverController(session, boat_counts=False)
    for action in RiverPuzzle(river.rules).solve_actions():
        river.play(action)
    assert river.state.outcome() is Outcome.WON and river.state.crossings == 9
    assert session.records[-1]["key"] == "river:3/3/2 boat_counts=no"
    assert session.records[-1]["score"] == 9
    river.commands().run("new")
    # Passengers counting for no bank: a priest boards, leaving 2 priests with 3 devils
    # ashore: lost at once.
    river.play(BoardBoat(P))
    assert river.state.outcome() is Outcome.LOST
    assert "ashore" in river.status().banner and "left bank" in river.status().banner
    records = {k: r for k, r in session.statistics().games.items() if k.startswith("river:")}
    assert records["river:3/3/2 boat_counts=no"].played == 2
    assert records["river:3/3/2 boat_counts=no"].won == 1
    assert records["river:3/3/2 boat_counts=no"].lost == 1
    assert records["river:3/3/2 boat_counts=no"].best == {"3/3/2 boat_counts=no": 9}


def test_a_boat_nobody_may_row_is_stranded_and_says_why() -> None:
    """The rower arrives with the boat, so a boat is stranded only from the start: devils
    alone where only priests row. The judge says so, and the options refuse the setting."""
    state = RiverState.start(RiverRules(0, 2, 2, rowers=Rowers.PRIESTS))
    assert state.outcome() is Outcome.LOST
    assert "stranded on the left bank: only priests row" in state.verdict().message
    with pytest.raises(ValueError, match="2 devils cannot cross in a boat for 2 when only"):
        RiverController(MemorySession(), priests=0, devils=2, rowers="priests")


def test_the_statistics_table_lists_each_setting_and_survives_the_file() -> None:
    """Two settings played through the settings file's session; a new session (the next
    start) reads the same counts back, and the T table shows them, current setting first."""
    from game.session import Session
    from game.settings import Settings, Store

    store = Store()
    session = Session("river", OPTIONS, Settings(), store)
    river = RiverController(session)
    for action in RiverPuzzle(RiverRules()).solve_actions():
        river.play(action)
    river.commands().run("new")
    river.play(BoardBoat(P))
    river.play(BoardBoat(P))
    river.play(Cross())  # lost on the left bank
    river.commands().run("boat_counts")  # passengers counting for no bank: a new setting, saved
    for action in RiverPuzzle(river.rules).solve_actions():
        river.play(action)

    loaded, messages = store.load_settings()
    assert messages == []
    again = Session("river", OPTIONS, loaded, store)
    records = {k: r for k, r in again.statistics().games.items() if k.startswith("river:")}
    assert set(records) == {"river:3/3/2", "river:3/3/2 boat_counts=no"}
    classic, ashore = records["river:3/3/2"], records["river:3/3/2 boat_counts=no"]
    assert (classic.played, classic.won, classic.lost, classic.best) == (2, 1, 1, {"3/3/2": 11})
    assert (ashore.played, ashore.won, ashore.lost) == (1, 1, 0)
    assert ashore.best == {"3/3/2 boat_counts=no": 9}

    river = RiverController(again)  # starts with the saved options: the boat counts for no bank
    assert river.rules == RiverRules(3, 3, 2, boat_counts=False)
    assert river.sheet() is None
    river.commands().run("stats")
    sheet = river.sheet()
    assert sheet is not None
    rows = [[cell.text for cell in row] for row in sheet.rows]
    assert rows == [
        ["3P 3D 2 seats, boat counts no", "1", "1", "0", "9"],
        ["3P 3D 2 seats", "2", "1", "1", "11"],
    ]
    assert any("9 crossings" in line for line in sheet.footer)
    river.commands().run("stats")
    assert river.sheet() is None


def test_a_hand_edited_statistics_key_is_shown_as_it_is() -> None:
    session = MemorySession()
    session.record("river:7/x/2", won=False)
    river = RiverController(session)
    river.toggle_stats()
    sheet = river.sheet()
    assert sheet is not None
    assert [row[0].text for row in sheet.rows] == ["3P 3D 2 seats", "7/x/2"]


def test_statistics_saved_under_the_old_boat_apart_key_count_for_the_same_rules() -> None:
    # Earlier versions wrote "boat-apart" for boat_counts=no in the key; those games are one
    # row with the ones played since, and the fewest crossings of both is the best.
    session = MemorySession()
    session.record("river:3/3/2 boat_counts=no", won=True, setting="3/3/2 boat_counts=no", score=11)
    session.record("river:3/3/2 boat_counts=no", won=False)
    session.record("river:3/3/2 boat_counts=no", won=True, setting="3/3/2 boat_counts=no", score=9)
    river = RiverController(session)
    river.commands().run("boat_counts")
    assert river.rules == RiverRules(3, 3, 2, boat_counts=False)
    river.toggle_stats()
    sheet = river.sheet()
    assert sheet is not None
    rows = [[cell.text for cell in row] for row in sheet.rows]
    assert rows == [["3P 3D 2 seats, boat counts no", "3", "2", "1", "9"]]


def test_options_are_checked_once_on_their_way_in(monkeypatch):
    """The schema is the window side's one check: a kept game's options once when it
    resumes, a button's press once (the controller takes the pressed values as they are).
    The river's Game still guards its own door (checks made in game.logic are not counted)."""
    checked: list[dict[str, object]] = []
    real = OptionsSchema.validate

    def counting(self, values, **how):
        if not sys._getframe(1).f_globals["__name__"].startswith("game.logic."):
            checked.append(dict(values))
        return real(self, values, **how)

    monkeypatch.setattr(OptionsSchema, "validate", counting)
    session = MemorySession(options={"devils": 2})
    river = RiverController(session)
    assert checked == [{"devils": 2}]  # the session's, once
    river.click("devil1")
    session.keep_match(river.kept_now())
    checked.clear()
    again = RiverController(session)
    assert again.match.cursor == 1 and again.places["devil1"].aboard
    assert len(checked) == 1  # the kept file's options, once
    pressed = OPTIONS.press(again.options, "priests", 1)
    checked.clear()
    again.set_options(pressed)
    assert checked == [] and again.rules.priests == 4
