"""A turn played die by die (``(dice ... (each))``, :mod:`game.logic.rules.per_die`): a small
race described here, whose pieces leave their start square only with a 3 (a move gated on
``thrown``), against the same race written here by hand: each part a move of one die, a
double played four times, both dice where the turn can use both, else the larger."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import CHANCE, sample_chance
from game.logic.rules.design import parse
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame

RACE = """
(game race) (players A B)
(dice (count 2) (faces 3) (ordered) (each) (doubles 4))
(board (grid (columns a b c d e f g h i j k l) (rows 1 2)) (directions (e 1 0) (w -1 0))
  (symmetry B (e w)) (zone start (A a1) (B l2)) (zone goal (A l1) (B a2)))
(piece P (moves (move run (if (in-zone start) (repeat (minus thrown 3) e))
                          (repeat thrown e) (verify empty) add)))
(setup (A (P a1 c1)) (B (P l2 j2)))
(rules (pass-when-stuck) (prefer (most dice-used) (most pips-used)))
(end (win (reached goal)))
"""
GOAL = 11  # each player's squares counted 0 (the start) to 11 (the goal) along its row

#: (A's squares, B's squares, the player to move, the dice left or None before the throw)
Race = tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...] | None]
START: Race = ((0, 2), (0, 2), 0, None)


def _steps(race: Race, die: int) -> list[tuple[int, int]]:
    mine = race[race[2]]
    return [
        (x, x + die)
        for x in sorted(set(mine))
        if (x or die == 3) and x + die <= GOAL and x + die not in mine
    ]


def _play(race: Race, step: tuple[int, int], die: int) -> Race:
    player, dice = race[2], race[3]
    assert dice is not None
    pieces = [list(race[0]), list(race[1])]
    pieces[player].remove(step[0])
    pieces[player].append(step[1])
    left = list(dice)
    left.remove(die)
    after: Race = (tuple(sorted(pieces[0])), tuple(sorted(pieces[1])), player, tuple(left))
    if left and any(_steps(after, d) for d in set(left)):
        return after
    return (after[0], after[1], 1 - player, None)


def _best(race: Race) -> tuple[int, int]:
    """(dice used, pips used) of the best rest of the turn."""
    dice = race[3]
    best = (0, 0)
    for die in set(dice or ()):
        for step in _steps(race, die):
            after = _play(race, step, die)
            rest = _best(after) if after[2] == race[2] else (0, 0)
            best = max(best, (1 + rest[0], die + rest[1]))
    return best


def _parts(race: Race) -> list[tuple[int, int, int]]:
    """(die, from, to) of every legal part; [] for a pass."""
    best = _best(race)
    out = []
    for die in set(race[3] or ()):
        for step in _steps(race, die):
            after = _play(race, step, die)
            rest = _best(after) if after[2] == race[2] else (0, 0)
            if (1 + rest[0], die + rest[1]) == best:
                out.append((die, *step))
    return out


def _perft(race: Race, depth: int) -> int:
    if depth == 0:
        return 1
    if GOAL in race[0] or GOAL in race[1]:
        return 0
    if race[3] is None:
        throws = [(a, b) for a in (1, 2, 3) for b in (1, 2, 3)]
        return sum(
            _perft((*race[:3], (a,) * 4 if a == b else (a, b)), depth - 1) for a, b in throws
        )
    parts = _parts(race)
    if not parts:
        return _perft((race[0], race[1], 1 - race[2], None), depth - 1)
    return sum(_perft(_play(race, (f, t), die), depth - 1) for die, f, t in parts)


def _read(state: object) -> Race:
    pos = state.pos  # type: ignore[attr-defined]
    book = state.rulebook  # type: ignore[attr-defined]
    names = book.design.board.names
    squares: list[list[int]] = [[], []]
    for at, v in enumerate(pos.board):
        if v:
            column = "abcdefghijkl".index(names[at][0])
            owner = book.c.owner[v]
            squares[owner].append(column if owner == 0 else GOAL - column)
    player = book.player(pos)
    return (tuple(sorted(squares[0])), tuple(sorted(squares[1])), player, pos.throw)


def _race() -> Rulebook:
    return Rulebook(parse(RACE, "race.txt"))


def test_each_part_uses_one_die_and_the_turn_goes_on_while_a_die_can_be_used() -> None:
    state = RulesGame(_race()).initial_state(random.Random(0))
    assert len(state.chance_outcomes()) == 9
    thrown = state.apply(state.parse_action("roll 1-2"))
    # a1 leaves the start only with a 3: c1 moves one square or two
    assert [thrown.action_text(a) for a in thrown.legal_actions()] == ["c1-d1", "c1-e1"]
    part = thrown.apply(thrown.parse_action("c1-d1"))
    assert part.current_player() == 0 and part.text().endswith("/ roll 2")
    assert [part.action_text(a) for a in part.legal_actions()] == ["d1-f1"]
    assert part.apply(part.legal_actions()[0]).current_player() == CHANCE
    double = state.apply(state.parse_action("roll 3-3"))
    assert double.text().endswith("/ roll 3-3-3-3")
    again = RulesGame(_race(), {"position": double.text()}).initial_state(random.Random(0))
    assert again.key() == double.key()


def test_a_turn_that_can_use_one_die_only_uses_the_larger() -> None:
    text = "A: P i1 / B: P l2 / A to move / roll 1-3"
    state = RulesGame(_race(), {"position": text}).initial_state(random.Random(0))
    # i1 with the 3 reaches the goal, with the 1 goes to j1, after which the 3 cannot be used
    assert [state.action_text(a) for a in state.legal_actions()] == ["i1-l1"]
    text = "A: P a1 / B: P l2 / A to move / roll 1-2"
    stuck = RulesGame(_race(), {"position": text}).initial_state(random.Random(0))
    assert [stuck.action_text(a) for a in stuck.legal_actions()] == ["pass"]


def test_race_perft_agrees_with_the_race_written_by_hand() -> None:
    book = _race()
    assert [book.perft(book.start(), d) for d in range(1, 7)] == [
        _perft(START, d) for d in range(1, 7)
    ]


def _text(race: Race, f: int, t: int) -> str:
    """A part's text: the squares of the player to move."""
    row = "1" if race[2] == 0 else "2"
    columns = "abcdefghijkl" if race[2] == 0 else "lkjihgfedcba"
    return f"{columns[f]}{row}-{columns[t]}{row}"


def test_race_random_games_agree_with_the_race_written_by_hand() -> None:
    """Eight seeded random games, the legal parts compared at every decision, perft to 3
    from some of them (in the middle of a turn too)."""
    game = RulesGame(_race())
    for seed in range(8):
        rng = random.Random(seed)
        state = game.initial_state(rng)
        race = START
        while not state.is_terminal():
            assert _read(state) == race
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                race = _read(state)
                continue
            texts = [state.action_text(a) for a in state.legal_actions()]
            parts = {_text(race, f, t): (die, f, t) for die, f, t in _parts(race)}
            assert sorted(texts) == (sorted(parts) or ["pass"])
            if rng.random() < 0.2:
                assert state.rulebook.perft(state.pos.copy(), 3) == _perft(race, 3)
            action = rng.choice(list(state.legal_actions()))
            chosen = state.action_text(action)
            state = state.apply(action)
            if chosen == "pass":
                race = (race[0], race[1], 1 - race[2], None)
            else:
                die, f, t = parts[chosen]
                race = _play(race, (f, t), die)


def test_dice_used_needs_each_and_doubles_need_each() -> None:
    plain = RACE.replace(" (each) (doubles 4)", "")
    with pytest.raises(DescriptionError, match=r"race.txt:\d+:\d+: dice-used counts the dice"):
        parse(plain, "race.txt")
    with pytest.raises(DescriptionError, match=r"\(doubles N\) multiplies"):
        parse(RACE.replace(" (each)", ""), "race.txt")
    with pytest.raises(DescriptionError, match=r"\(each\) plays the dice one by one"):
        parse(RACE.replace("(ordered)", "(total)"), "race.txt")
