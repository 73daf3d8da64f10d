"""Games of one player (puzzles, solved by the hint's breadth-first search) and random players
(``(rules (random P))``: chance plays that seat), on small descriptions of our own whose
counts are worked out by hand."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import CHANCE, Limits, Stop, sample_chance
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.design import parse
from game.logic.rules.puzzle import solve
from game.logic.rules.records import (
    Record,
    check_record,
    graft,
    record_format,
    result_text,
    write_record,
)
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame, RulesState

#: Five tiles on a board of 3 x 2, the hole at b2; the Red tile home at b2 solves it. The
#: shortest solution: b1-b2, a1-b1, a2-a1, b2-a2, b1-b2 (five moves; none shorter, as the
#: Red tile must go a1-b1-b2 and the hole must reach b1 first and b2 after).
SLIDE = """(game tiny-slide) (players You)
(board (grid (columns a b c) (rows 1 2)) (directions (n 0 1) (s 0 -1) (e 1 0) (w -1 0))
  (zone home (You b2)))
(define (slide d) d (verify empty) add)
(piece Tile (letter "T") (moves (move n (slide n)) (move s (slide s)) (move e (slide e))
  (move w (slide w))))
(piece Red (letter "R") (moves (move n (slide n)) (move s (slide s)) (move e (slide e))
  (move w (slide w))))
(setup (You (Red a1) (Tile b1 c1 a2 c2)))
(end (win (reached home Red)))"""

#: You step or jump a Man east to e1; before each of your turns the Die drops a Pip on an
#: empty cell of its tray (five cells).
DUO = """(game duo) (players You Die)
(board (grid (columns a b c d e) (rows 1 2)) (directions (e 1 0))
  (zone goal (You e1)) (zone tray (Die a2 b2 c2 d2 e2)))
(piece Man (letter "M") (moves (move step e (verify empty) add)
  (move jump e e (verify empty) add)))
(piece Pip (letter "P") (drops (move roll (verify (in-zone tray)) (verify empty) add)))
(setup (You (Man a1)) (Die (in-hand Pip 9)))
(rules (turn-order Die You) (random Die))
(end (win (reached goal Man)))"""


def _state(text: str) -> RulesState:
    return RulesGame(made_rulebook(parse(text, "t.txt"))).initial_state(random.Random(0))


def test_a_puzzle_is_a_game_of_one_player_who_moves_every_turn() -> None:
    state = _state(SLIDE)
    rulebook = state.rulebook
    # The hole's walks: from a corner 2 ways, from b1 or b2 three (C/M counts by hand).
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3, 4)] == [3, 7, 17, 41]
    for text in ("b1-b2", "a1-b1", "a2-a1", "b2-a2"):
        assert state.current_player() == 0
        state = state.apply(state.parse_action(text))
    assert not state.is_terminal()
    state = state.apply(state.parse_action("b1-b2"))
    assert state.outcome() == "win" and state.returns() == (1.0,)
    assert RulesGame(state.rulebook).result_text(state) == "solved"
    record = Record(state.rulebook.design.id, record_format(state.rulebook))
    lines = ["b1-b2", "a1-b1", "a2-a1", "b2-a2", "b1-b2"]
    graft(record.moves, [(0, text) for text in lines])
    record.result = result_text(state.rulebook, state.returns())
    written = write_record(state.rulebook, check_record(state.rulebook, record))
    assert record.result == "*" and written.rstrip().endswith("5. b1-b2 *")


def test_the_hint_solves_a_puzzle_by_the_shortest_line() -> None:
    state = _state(SLIDE)
    agent = make_agent("master")
    said = []
    while not state.is_terminal():
        move = agent.choose(state, Limits(nodes=500), random.Random(0), Stop())
        said.append(agent.explain())
        state = state.apply(move)
    assert state.returns() == (1.0,)
    assert said[0] == "solves the puzzle in 5 moves" and said[-1] == "solves the puzzle in 1 move"
    assert len(said) == 5


def test_a_puzzle_without_a_way_to_its_goal_is_searched_to_the_end() -> None:
    # Tiles that only climb: the one move b1-b2, and then none; Red never reaches b2.
    climb = SLIDE.replace("(move s (slide s)) (move e (slide e))\n  (move w (slide w))", "")
    state = _state(climb)
    found = solve(state.rulebook, state.pos, 1000)
    assert found.moves == () and found.complete and found.nodes == 1
    assert make_agent("master").choose(state, Limits(nodes=50), random.Random(0), Stop())


def test_a_random_players_turn_is_a_chance_node_over_its_moves() -> None:
    state = _state(DUO)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_text(m) for m, _ in outcomes] == ["a2", "b2", "c2", "d2", "e2"]
    assert all(p == pytest.approx(0.2) for _, p in outcomes)
    rulebook = state.rulebook
    # A drop (5 outcomes), then a step or a jump (2), then a drop on one of 4 cells left.
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3)] == [5, 10, 40]
    state = state.apply(outcomes[1][0])
    assert state.current_player() == 0
    move = make_agent("master").choose(state, Limits(nodes=200), random.Random(0), Stop())
    assert state.action_text(move) == "a1-c1"  # the jump: two more steps reach e1 either way


def test_random_games_with_a_random_player_end() -> None:
    rng = random.Random(5)
    for _ in range(5):
        state = _state(DUO)
        while not state.is_terminal():
            chance = state.current_player() == CHANCE
            state = state.apply(
                sample_chance(state, rng) if chance else rng.choice(list(state.legal_actions()))
            )
        assert state.returns() == (1.0, -1.0)


def test_a_random_rule_that_cannot_be_played_is_refused_with_its_place() -> None:
    refused = {
        "(random You Die)": "t.txt:8:29: every player is random",
        "(random Dice)": "t.txt:8:37: no player 'Dice'",
        "(random Die Die)": "t.txt:8:41: random player 'Die' is given twice",
    }
    for rule, message in refused.items():
        with pytest.raises(DescriptionError, match=message):
            parse(DUO.replace("(random Die)", rule), "t.txt")


def test_up_to_twelve_players_take_turns_each_in_a_colour_and_a_seat_of_their_own() -> None:
    from game.games.rules.entry import entry_for

    names = [f"P{k}" for k in range(1, 13)]
    places = ["a1", "g1", "a8", "g8", "d1", "e8", "a4", "g5", "b2", "g7", "c6", "f3"]
    text = f"""(game twelve) (players {" ".join(names)})
    (board (grid (columns a b c d e f g h) (rows 1 2 3 4 5 6 7 8)) (directions (e 1 0)))
    (piece Rook (letter "R") (moves (move e e (verify empty) add)))
    (setup {" ".join(f"({n} (Rook {p}))" for n, p in zip(names, places, strict=True))})
    (end (win (none-left Rook)))"""
    state = _state(text)
    seen = []
    for _ in range(12):
        seen.append(state.current_player())
        state = state.apply(state.legal_actions()[0])
    assert seen == list(range(12))
    design = state.rulebook.design
    assert len(set(design.colours)) == 12
    options = [o.name for o in entry_for(design.id, state.rulebook, "").options.options]
    assert "twelfth" in options and "first" in options
    with pytest.raises(DescriptionError, match="takes 1 to 12 arguments, not 13"):
        parse(text.replace("(players P1", "(players P0 P1"), "t.txt")
