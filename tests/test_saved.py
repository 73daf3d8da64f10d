"""A kept game comes back as it was: every registered game's match, played a little at random
(Cluedo's deal and MasterGrab's map from the seed, undo included), written as its record,
read back through TOML and replayed, is the same at every point; a record that does not fit
is refused with the step named."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest
import tomli_w

from game.logic.contract import Limits
from game.logic.grab.game import GrabGame
from game.logic.grab.options import GrabOptions
from game.logic.match import Match, ReplayError
from game.logic.saved import in_progress, match_record, resume
from game.registry import all_entries

ENTRIES = {e.id: e for e in all_entries()}


def _played(game: Any, seed: int, plies: int) -> Match[Any]:
    match: Match[Any] = Match(game, [None] * game.seats, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        match.poll()  # a deal, a forced pass
        if match.over:
            break
        match.play_any(rng.choice(list(match.state.legal_actions())))
    return match


@pytest.mark.parametrize("game_id", sorted(ENTRIES))
def test_every_game_s_record_replays_to_the_same_states(game_id: str) -> None:
    entry = ENTRIES[game_id]
    match = _played(entry.game(), seed=11, plies=8)
    if match.can_undo():
        match.undo(to_person=False)  # the record goes on past the point the game is at
    data = tomllib.loads(tomli_w.dumps(match_record(match)))  # as the file holds it
    again: Match[Any] = Match(entry.game(), [None] * match.game.seats)
    resume(again, data)
    assert again.seed == match.seed and again.cursor == match.cursor
    assert [s.text for s in again.full_record] == [s.text for s in match.full_record]
    assert [s.seat for s in again.full_record] == [s.seat for s in match.full_record]
    for index in range(len(match.full_record) + 1):
        ours, theirs = again.state_at(index), match.state_at(index)
        assert ours.key() == theirs.key(), (game_id, index)
        for seat in range(match.game.seats):  # hidden hands too
            assert ours.observation(seat) == theirs.observation(seat), (game_id, index, seat)


class Failing:
    """A robot whose every move fails: MasterGrab records its lost turns."""

    name = "failing"
    description = "raises"

    def choose(self, state: Any, limits: Limits, rng: random.Random, stop: Any) -> Any:
        raise RuntimeError("no move today")


def test_lost_turns_replay() -> None:
    options = GrabOptions(countries=30, robots=("basic", "basic"))
    game = GrabGame(options, size=(320, 200))
    match: Match[Any] = Match(game, [None, Failing(), Failing()], seed=4)
    for _ in range(3):
        match.play(match.state.legal_actions()[0])
        match.run()
    assert any(s.forfeit for s in match.record)
    again: Match[Any] = Match(GrabGame(options, size=(320, 200)), [None, None, None])
    resume(again, tomllib.loads(tomli_w.dumps(match_record(match))))
    assert again.state.key() == match.state.key()
    assert [s.forfeit for s in again.record] == [s.forfeit for s in match.record]


def test_a_record_that_does_not_fit_names_the_step() -> None:
    entry = ENTRIES["chess"]
    match = _played(entry.game(), seed=2, plies=4)
    data = match_record(match)
    bad = {**data, "steps": [*data["steps"][:2], {"seat": 0, "text": "Ke2"}, *data["steps"][3:]]}
    again: Match[Any] = Match(entry.game(), [None, None])
    with pytest.raises(ReplayError, match="step 3"):
        resume(again, bad)
    assert again.cursor == 0
    wrong = [
        {**data, "format": 9},
        {**data, "seed": "x"},
        {**data, "cursor": 99},
        {**data, "steps": [{"seat": 0}]},
        {**data, "steps": [{"seat": 1, "text": "e4"}]},
    ]
    for record in wrong:
        with pytest.raises(ReplayError):
            resume(again, record)


def test_a_game_is_in_progress_once_a_seat_has_acted_until_it_ends() -> None:
    match = _played(ENTRIES["clue"].game(), seed=1, plies=0)
    match.poll()  # the deal
    assert match.cursor > 0 and not in_progress(match)  # dealt, nobody has played
    match.play_any(match.state.legal_actions()[0])
    assert in_progress(match)


def test_a_kept_cluedo_file_does_not_show_the_envelope() -> None:
    """The kept file held the deal as text ("envelope Rope"): a look at it gave the answer
    away. Chance steps of a game with hidden cards are kept sealed, and come back."""
    from game.logic.clue.game import ClueGame, start_match

    game = ClueGame(ENTRIES["clue"].options.validate({}))
    match = start_match(game, [None] * game.seats, seed=5)
    envelope = game.rules.deck.triple_text(match.state.envelope).split(", ")
    text = tomli_w.dumps(match_record(match))
    assert not [card for card in envelope if card in text]
    assert "envelope" not in text and "deal " not in text
    again = start_match(ClueGame(game.options), [None] * game.seats, deal=False)
    resume(again, tomllib.loads(text))
    assert again.state.envelope == match.state.envelope
    # A sealed step that was tampered with is refused with its number.
    data = tomllib.loads(text)
    data["steps"][1] = {**data["steps"][1], "sealed": "not sealed!"}
    with pytest.raises(ReplayError, match="step 2: not a sealed text"):
        resume(again, data)


def test_an_open_game_keeps_its_chance_steps_readable() -> None:
    """Only a game with hidden chance seals: MasterGrab's robots' lost turns and the river's
    steps stay plain text, as a person or a script may read them."""
    match = _played(ENTRIES["river"].game(), seed=3, plies=3)
    assert all("text" in step for step in match_record(match)["steps"])


def test_a_step_s_detail_stays_with_it_through_undo_redo_jumps_and_a_resume() -> None:
    """What the window showed of a step (the river: which devil boarded) goes with the step
    wherever the record goes; the saved record keeps its text, the details come beside it."""
    from game.logic.river.game import RiverGame

    match: Match[Any] = Match(RiverGame({}), [None], seed=3)
    match.play_text("board:devil")
    match.play(match.state.parse_action("board:devil"), detail="devil3")
    match.play_text("boat")
    assert [s.detail for s in match.record] == ["", "devil3", ""]
    match.undo()
    match.undo()
    assert [s.detail for s in match.full_record] == ["", "devil3", ""]
    match.redo()
    match.jump(3)
    match.jump(2)
    assert match.record[-1].detail == "devil3"
    data = match_record(match)
    assert all("detail" not in step for step in data["steps"])  # the file's text unchanged
    again: Match[Any] = Match(RiverGame({}), [None])
    resume(again, data, ["devil1", "devil3"])
    assert [s.detail for s in again.full_record] == ["devil1", "devil3", ""]
    assert again.cursor == 2
