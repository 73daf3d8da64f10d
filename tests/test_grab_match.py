"""MasterGrab through the game contract and the generic Match (spec 4.1, 6.1-6.3): seeding,
replay, passing, forced turns, lost turns, country states, cheap markers and the end."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import TERMINAL, IllegalActionError, Limits
from game.logic.grab.discovery import RobotRegistry
from game.logic.grab.game import GrabGame, play_rounds, robots_match
from game.logic.grab.options import GrabOptions
from game.logic.grab.record import CountryState, country_marks, failures, grab_state, round_steps
from game.logic.grab.robot import RobotGame
from game.logic.grab.rules import MOUNTAIN
from game.logic.grab.state import (
    NO_MOVE,
    GrabMoveError,
    GrabNotationError,
    GrabState,
    Move,
    MoveKind,
)
from game.logic.match import Match, MatchError

ROBOTS = GrabOptions(countries=30, robots=("basic", "basic", "simple"), human_playing=False)
HUMAN = GrabOptions(countries=45, robots=("basic", "basic", "basic"))
REGISTRY = RobotRegistry.builtins()


def _match(options: GrabOptions = ROBOTS, seed: int = 3) -> Match[Move]:
    game = GrabGame(options, size=(320, 200))
    seats = [None] if options.human_playing else []
    seats += [REGISTRY.agent(key) for key in options.robots]
    return Match(game, seats, seed=seed, limits=Limits(time=30.0))


def test_the_state_keeps_the_game_contract() -> None:
    game = GrabGame(HUMAN, size=(320, 200))
    state = game.initial_state(random.Random(1))
    assert state.current_player() == 0 and not state.is_terminal()
    assert state.returns() == (0.0,) * 4 and state.chance_outcomes() == ()
    legal = state.legal_actions()
    assert list(legal) == list(state.legal_actions()) == state.legal_moves(0)
    assert legal == state.legal_actions() and legal[0] == NO_MOVE
    for move in legal:
        assert state.parse_action(state.action_text(move)) == move
    # A subset of a listed move's sources is legal too; a stranger's country is not.
    attack = next(m for m in legal if m.kind is MoveKind.ATTACK and len(m.sources) > 1)
    assert Move(MoveKind.ATTACK, attack.target, attack.sources[:1]) in legal
    theirs = state.owners.index(1)
    assert Move(MoveKind.GATHER, theirs, ()) not in legal and "none" not in legal
    with pytest.raises(GrabNotationError):
        state.parse_action("attack 3>")
    assert isinstance(GrabMoveError("x"), IllegalActionError)
    after = state.apply(attack)
    assert after.current_player() == 1 and state.key() != after.key()
    assert state.observation(2) == state.key()


def test_returns_name_the_winner_and_a_lost_human_game_names_the_leader() -> None:
    game = GrabGame(GrabOptions(countries=15, robots=("basic", "basic")), size=(120, 80))
    state = game.initial_state(random.Random(2))
    board = state.board
    land = [c for c in range(board.countries) if c not in board.mountains]
    # Robot 2 owns the most land, robot 1 one country, the human none: after the last
    # player's move the game is over with no winner (spec 4.4), and the leader takes it.
    owners = tuple(
        MOUNTAIN if c in board.mountains else (1 if c == land[0] else 2)
        for c in range(board.countries)
    )
    lost = GrabState(board, owners, state.armies, to_move=2).apply(NO_MOVE)
    assert lost.is_terminal() and lost.current_player() == TERMINAL and lost.winner is None
    assert lost.decided_winner() == 2 and lost.returns() == (0.0, 0.0, 1.0)
    assert list(lost.legal_actions()) == [] and NO_MOVE not in lost.legal_actions()
    assert game.result_text(lost) == "You lost: no country left. Robot2 leads the ranking."
    assert sum(lost.returns()) == game.returns_sum


def test_the_same_seed_gives_the_same_game() -> None:
    one, two, other = _match(), _match(), _match(seed=4)
    assert one.state.key() == two.state.key() != other.state.key()
    play_rounds(one, 20)
    play_rounds(two, 20)
    assert one.state.key() == two.state.key() and one.actions() == two.actions()
    assert one.cursor == 60 and grab_state(one).turn == 60
    # Replaying the recorded moves on the first state gives the same state.
    state = one.state_at(0)
    for move in one.actions():
        state = state.apply(move)
    assert state.key() == one.state.key()


def test_seat_names_follow_the_spec() -> None:
    robots, human = _match(), _match(HUMAN)
    assert [robots.game.seat_name(s) for s in range(3)] == ["Robot1", "Robot2", "Robot3"]
    assert [human.game.seat_name(s) for s in range(4)] == ["You", "Robot1", "Robot2", "Robot3"]


def test_replay_from_the_start_plays_the_same_game_with_fresh_robots() -> None:
    match = _match()
    play_rounds(match, 15)
    first = (match.state.key(), match.actions())
    match.restart(start=match.state_at(0))
    assert match.cursor == 0 and match.record == []
    play_rounds(match, 15)
    # Fresh BasicRobots (no remembered gathering country) replay exactly the same game.
    assert (match.state.key(), match.actions()) == first


def test_a_pass_lets_every_robot_answer_and_undo_comes_back_to_you() -> None:
    match = _match(HUMAN)
    assert match.person_to_move()
    match.play(NO_MOVE)
    with pytest.raises(MatchError):
        match.play(NO_MOVE)  # the robots' turn
    match.run()
    steps = round_steps(match)
    assert [s.seat for s in steps] == [0, 1, 2, 3] and steps[0].action == NO_MOVE
    assert match.person_to_move() and grab_state(match).turn == 4
    assert all(len(match.seconds[s].moves) == 1 for s in (1, 2, 3))
    match.undo()
    assert match.cursor == 0 and match.can_redo()
    match.redo()
    assert match.cursor == 4 and match.person_to_move()


def test_an_illegal_move_changes_nothing() -> None:
    match = _match(HUMAN)
    state = grab_state(match)
    theirs = state.owners.index(1)
    mine = state.owners.index(0)
    for text in (f"gather >{theirs}", f"attack {mine}>{mine}", f"attack {theirs}>{mine}"):
        with pytest.raises(IllegalActionError):
            match.play_text(text)
    assert match.state is state and match.record == []


def test_country_states_and_cheap_markers() -> None:
    match = _match(HUMAN)
    state = grab_state(match)
    # Find a winning attack for the human, play it: the target is TAKEN from its owner.
    game = RobotGame(state, 0)
    attack = next(
        m
        for m in game.legal_moves()
        if m.kind is MoveKind.ATTACK and game.can_be_attacked(m.target, m.sources)
    )
    loser = state.owners[attack.target]
    match.play(attack)
    marks = country_marks(match)
    assert marks.states[attack.target] is CountryState.TAKEN
    assert marks.previous_owners[attack.target] == loser
    assert sum(s is not CountryState.NORMAL for s in marks.states) == 1
    match.run()
    marks = country_marks(match)
    # After the last robot: 45 // 15 = 3 cheap candidates, the least armies of the non-inland.
    state = grab_state(match)
    owners, armies, table = state.owners, state.armies, state.board.neighbours
    border = [
        c
        for c in range(len(owners))
        if owners[c] != MOUNTAIN and any(owners[n] != owners[c] for n in table[c])
    ]
    first = sorted(border, key=lambda c: (armies[c], c))[:3]
    cheap = {c for c, s in enumerate(marks.states) if s is CountryState.CHEAP}
    assert cheap <= set(first) and cheap
    assert all(marks.states[c] is not CountryState.NORMAL for c in first)
    # The robots' moves left their marks, each as its result says.
    for step in round_steps(match)[1:]:
        result = state.results[step.seat]
        if step.action.kind is MoveKind.ATTACK and result.success:
            assert marks.previous_owners[step.action.target] == result.defender
    # The human's next move resets them all; an undo brings them back.
    match.play(NO_MOVE)
    assert set(country_marks(match).states) == {CountryState.NORMAL}
    match.undo()
    assert country_marks(match) == marks


def test_robots_only_have_no_cheap_markers() -> None:
    match = _match()
    for _ in range(5):
        play_rounds(match, 1)
        assert [s.seat for s in round_steps(match)] == [0, 1, 2]
        assert CountryState.CHEAP not in country_marks(match).states


def test_a_game_ends_with_a_winner_and_eliminated_robots_pass_by_themselves() -> None:
    with robots_match(("basic", "basic", "basic"), 1, countries=15) as match:
        play_rounds(match, 600)
        assert match.over
        state = grab_state(match)
        land = [o for o in state.owners if o != MOUNTAIN]
        assert set(land) == {state.winner} and match.returns()[state.winner] == 1.0
        assert match.result_text() == f"Robot{state.winner + 1} won."
        # The eliminated robots' turns were played as none without asking them.
        forced = [s for s in match.record if s.forced]
        assert forced and all(s.action == NO_MOVE for s in forced)
        asked = sum(len(s.moves) for s in match.seconds)
        assert asked + len(forced) == len(match.record)
        assert failures(match) == []
        assert play_rounds(match, 5) == 0


def test_run_stops_after_max_steps_in_a_game_that_never_ends() -> None:
    # Spec 1.4: two basic robots can keep taking the same countries from each other; this
    # game is still running after 600 rounds. run(max_steps) must stop it (tournament caps).
    with robots_match(("basic", "basic", "basic"), 2, countries=15) as match:
        assert len(match.run(max_steps=10)) == 10 and match.cursor == 10
        assert play_rounds(match, 600) == 600 and not match.over


def test_the_round_summary_says_what_the_person_took_and_lost() -> None:
    """Once "3 conquests, 1 of them yours" for a round in which a robot took one of yours."""
    from game.games.grab.text import round_summary

    match = _match(HUMAN, seed=2)
    said = []
    for _ in range(40):
        if match.over:
            break
        start = match.cursor
        state = grab_state(match)
        attacks = [
            m
            for m in match.state.legal_actions()
            if m.kind is MoveKind.ATTACK and state.apply(m).owners[m.target] == 0
        ]
        match.play(attacks[0] if attacks else NO_MOVE)
        match.run()
        # Counted from the owners step by step: countries that became yours, and stopped.
        took = lost = 0
        for index in range(start, match.cursor):
            before, after = grab_state(match, index).owners, grab_state(match, index + 1).owners
            took += sum(b != 0 and a == 0 for b, a in zip(before, after, strict=True))
            lost += sum(b == 0 and a != 0 for b, a in zip(before, after, strict=True))
        text = round_summary(match)
        said.append(text)
        assert "yours" not in text
        if took and lost:
            assert f"you took {took} countr" in text, text
            assert f"and lost {lost};" in text or f"and lost {lost}." in text, text
        elif took:
            assert f"you took {took} countr" in text and "lost" not in text, text
        elif lost:
            assert f"you lost {lost} countr" in text and "took" not in text.split(";")[0], text
        else:
            assert not text.split(": ", 1)[1].startswith("you"), text
    assert any("lost" in text for text in said), said


@pytest.mark.parametrize("options", [HUMAN, ROBOTS], ids=["human", "robots"])
def test_a_move_list_row_says_by_name_how_many_countries_each_player_won_or_lost(options):
    """A row of the move list (list_row) names, as the ranking does, each player whose
    country count the round changed, with the change; "…" when some were left out."""
    from game.games.grab.text import ROW_CHARS, list_row

    match = _match(options, seed=2)
    game = match.game
    assert isinstance(game, GrabGame)
    players = grab_state(match).board.players
    names = {game.seat_name(p): p for p in range(players)}
    rows = []
    for _ in range(15):
        start = match.cursor
        if options.human_playing:
            match.play(NO_MOVE)
            match.run()
        elif not play_rounds(match, 1):
            break
        before, after = grab_state(match, start).owners, grab_state(match, match.cursor).owners
        counts = [(before.count(p), after.count(p)) for p in range(players)]
        net = {p: b - a for p, (a, b) in enumerate(counts) if a != b}
        row = list_row(match, start, match.cursor)
        rows.append(row)
        if row == "no change":
            assert before == after
            continue
        if row.endswith("changed hands"):
            assert not net and before != after, row
            continue
        body = row.removesuffix(" …")
        said = {}
        for part in body.split(" · "):
            name, change = part.rsplit(" ", 1)
            said[names[name]] = int(change.replace("−", "-"))
        assert said.items() <= net.items(), (row, net)
        assert (said == net) is (body == row), (row, net)  # "…": someone left out
        assert len(row) <= ROW_CHARS
        assert list(said) == sorted(said)  # in the ranking's seat order, you first
        if options.human_playing and 0 in net:
            assert 0 in said
        if match.over:
            break
    assert any(" · " in row for row in rows), rows
    assert options.human_playing or not any("You" in row for row in rows)
