"""More than two players in a description: every other player (or every other team) is an
enemy, check comes from any of them, results are a vector, the levels search for each seat,
and the window's options name a side per player."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook_for_text
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame, RulesState

THREE = """
(game three) (title "Three in a row for three") (players Red Green Blue)
(board (grid (columns a b c d e) (rows 1 2 3 4 5))
  (directions (n 0 1) (e 1 0) (ne 1 1) (nw -1 1) (s 0 -1) (w -1 0) (sw -1 -1) (se 1 -1)))
(piece mark (letter "") (shape stone) (drops (move place (verify empty) add)))
(end (win (line 3)) (draw full))
"""

ROOKS = """
(game rooks) (title "Rooks for four") (players North East South West)
(board (grid (columns a b c d e f) (rows 1 2 3 4 5 6))
  (directions (n 0 1) (e 1 0) (s 0 -1) (w -1 0)))
(define (slide d) d (while empty add d) (verify enemy) add)
(piece Rook (letter "R") (shape rook) (moves (slide n) (slide e) (slide s) (slide w)))
(piece King (letter "K") (shape king) (royal)
  (moves (move step (one-of n e s w) (verify (not friend)) add)))
(setup SETUP)
TEAMS
(end (win stuck))
"""


def _rooks(setup: str, teams: str = "") -> RulesState:
    text = ROOKS.replace("SETUP", setup).replace("TEAMS", f"(rules {teams})" if teams else "")
    rulebook = rulebook_for_text(text, "rooks.txt", {})
    return RulesState(rulebook, rulebook.start())


def _moves(state: RulesState) -> set[str]:
    return {state.action_text(m) for m in state.legal_actions()}


def test_three_players_take_turns_in_seat_order() -> None:
    rulebook = rulebook_for_text(THREE, "three.txt", {})
    assert rulebook.perft(rulebook.start(), 3) == 25 * 24 * 23
    state = RulesState(rulebook, rulebook.start())
    seats = []
    for text in ("a1", "a2", "a3", "b1"):
        seats.append(state.current_player())
        state = state.apply(state.parse_action(text))
    assert seats == [0, 1, 2, 0]


def test_a_line_wins_for_its_player_and_the_others_share_the_loss() -> None:
    rulebook = rulebook_for_text(THREE, "three.txt", {})
    state = RulesState(rulebook, rulebook.start())
    for text in ("a1", "a5", "e5", "b1", "b5", "e4", "c1"):  # Red: a1 b1 c1
        state = state.apply(state.parse_action(text))
    assert state.is_terminal()
    assert state.returns() == (1.0, -0.5, -0.5)
    assert sum(state.returns()) == 0.0


def test_every_other_player_is_an_enemy() -> None:
    # North's rook on d6 looks down the d file at West's king (the player after next) and
    # along row 6 at East's rook (the next player).
    state = _rooks("(North (King a5) (Rook d6)) (East (King f1) (Rook f6)) "
                   "(South (King a1)) (West (King d2))")  # fmt: skip
    moves = _moves(state)
    assert {"d6xd2", "d6xf6"} <= moves
    assert "d6xd1" not in moves and "d6-d1" not in moves  # the king stands in the way


def test_check_comes_from_any_enemy() -> None:
    # South's rook (not the next player) covers row 5: North's king may not step to a5.
    state = _rooks("(North (King a6)) (East (King f1)) (South (King c1) (Rook c5)) "
                   "(West (King f3))")  # fmt: skip
    assert _moves(state) == {"a6-b6"}


def test_a_teammates_piece_is_neither_friend_nor_enemy() -> None:
    setup = (
        "(North (King a6) (Rook d6)) (East (King f1)) (South (King a1) (Rook d3)) (West (King f4))"
    )
    alone = _moves(_rooks(setup))
    together = _moves(_rooks(setup, "(teams (North South) (East West))"))
    assert "d6xd3" in alone  # South is an enemy when everyone plays alone
    assert "d6xd3" not in together and "d6-d4" in together  # a teammate blocks


def test_a_team_wins_together() -> None:
    setup = "(North (King a6)) (East (King f6)) (South (King a1)) (West (King f1) (Rook b5))"
    state = _rooks(setup, "(teams (North South) (East West))")
    # North's king cannot move (West's rook covers a5 and b6): North, and South with it, lose.
    assert state.is_terminal()
    assert state.returns() == (-1.0, 1.0, -1.0, 1.0)


@pytest.mark.parametrize(
    ("teams", "words"),
    [
        ("(teams (North Nobody))", "no player 'Nobody'"),
        ("(teams (North South) (South East))", "South is in two teams"),
        ("(teams (North))", "a team has two players or more"),
        ("(teams (North East South West))", "leaves no one to play against"),
    ],
)
def test_bad_teams_are_refused_with_their_place(teams: str, words: str) -> None:
    with pytest.raises(DescriptionError, match=words):
        _rooks("(North (King a6)) (East (King f6)) (South (King a1)) (West (King f1))", teams)


def test_teams_need_more_than_two_players() -> None:
    text = THREE.replace("(players Red Green Blue)", "(players Red Green)")
    with pytest.raises(DescriptionError, match="more than two players"):
        rulebook_for_text(text + "(rules (teams (Red Green)))", "two.txt", {})


def test_a_level_chooses_for_its_own_seat_and_the_same_way_twice() -> None:
    rulebook = rulebook_for_text(THREE, "three.txt", {})
    state = RulesState(rulebook, rulebook.start())
    for text in ("a1", "e5", "a5", "b1", "e4", "a4"):  # Red to move with a1 b1: c1 wins
        state = state.apply(state.parse_action(text))
    assert state.current_player() == 0  # Red
    agent = make_agent("intermediate")
    chosen = {state.action_text(agent.choose(state, Limits(), random.Random(i), Stop()))
              for i in range(2)}  # fmt: skip
    assert chosen == {"c1"}
    assert "Red" in agent.explain()


def test_the_beginner_beats_two_random_players() -> None:
    from game.logic.analyse import play_games

    game = RulesGame(rulebook_for_text(THREE, "three.txt", {}))
    agents = [make_agent("beginner"), make_agent("random"), make_agent("random")]
    analysis = play_games(game, agents, 8, seed=5, limits=Limits(nodes=40))
    assert analysis.wins(0) >= 6  # a third of the games for an even share


def test_the_window_has_a_side_option_per_player() -> None:
    from game.games.rules.entry import entry_for

    rulebook = rulebook_for_text(ROOKS.replace("SETUP", "(North (King a6)) (East (King f6)) "
                                 "(South (King a1)) (West (King f1))").replace("TEAMS", ""),
                                 "rooks.txt", {})  # fmt: skip
    entry = entry_for(rulebook.design.id, rulebook, "")
    names = [o.name for o in entry.options.options]
    assert [n for n in ("first", "second", "third", "fourth") if n in names] == [
        "first", "second", "third", "fourth"
    ]  # fmt: skip
    assert len(rulebook.design.colours) >= 4
    assert len(set(rulebook.design.colours[:4])) == 4  # four players, four colours


@pytest.mark.parametrize(("seat", "quarter"), [(0, 2), (1, 1), (2, 0), (3, 3)])
def test_the_board_turns_to_the_persons_side(seat: int, quarter: int) -> None:
    from game.games.rules.seats import quarter_turns

    rulebook = rulebook_for_text(
        ROOKS.replace("SETUP", "(North (King c6)) (East (King f3)) (South (King d1)) "
                      "(West (King a4))").replace("TEAMS", ""), "rooks.txt", {},
    )  # fmt: skip
    sides = ["master"] * 4
    sides[seat] = "human"
    assert quarter_turns(rulebook.design, sides) == quarter


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_a_turned_board_finds_the_position_under_the_mouse(quarter: int) -> None:
    import numpy as np

    from game.games.rules.view import BoardView

    rulebook = rulebook_for_text(THREE, "three.txt", {})
    view = object.__new__(BoardView)
    view.design = rulebook.design
    view.xy = np.asarray(rulebook.design.board.xy, dtype="f8")
    view.centre, view.scale, view.step = np.array([2.0, 2.0]), 0.3, 1.0
    view.off_board = frozenset()
    view.layer = np.zeros(len(view.xy))
    view._turn = ((1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0))[quarter]
    names = rulebook.design.board.names
    assert [view.position_at(view.world(p)) for p in range(len(names))] == list(range(25))
    # The side nearest the camera (the largest z): row 1 unturned, column e a quarter on.
    near = max(range(25), key=lambda p: (float(view.world(p)[2]), -float(view.world(p)[0])))
    assert names[near] == {0: "a1", 1: "e1", 2: "e5", 3: "a5"}[quarter]
