"""Dice in described games: the throws and their chances, a throw as a chance node of the game
contract and as text that reads back, and the Royal Game of Ur described as text against a
small Ur written here by hand from Finkel's rules (each player's route as squares 1 to 14 and
15 off the board, 0 the hand): the same perft through the throws, and the same moves and
positions along random games."""

from __future__ import annotations

import math
import random

import pytest

from game.logic.contract import CHANCE, NotationError, sample_chance
from game.logic.rules.catalogue import rulebook
from game.logic.rules.design import parse
from game.logic.rules.dice import Dice
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame, RulesState
from tests.deep import sized

#: Perft through the throws (a throw is a ply): 8 in CI (plies of four throws and four moves),
#: 10 under benchmarks/slow_checks.py.
PERFT_DEPTH = sized(8, 10)
#: Random games played in both Urs side by side.
GAMES = sized(12, 100)

WHITE_ROUTE = ["d1", "c1", "b1", "a1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "h1", "g1"]
BLACK_ROUTE = ["d3", "c3", "b3", "a3", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "h3", "g3"]
ROSETTES = (4, 8, 14)  # the route's squares that throw again; 8 is safe
OFF = 15

#: (White's squares on their route, Black's, White's hand, Black's hand, White's off,
#: Black's off, the player to move, the throw or None)
Ur = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int, int, int | None]
START: Ur = ((), (), 7, 7, 0, 0, 0, None)


def _square(player: int, step: int) -> str:
    return (WHITE_ROUTE, BLACK_ROUTE)[player][step - 1]


def _moves(ur: Ur) -> list[tuple[int, int]]:
    """(from, to) route steps of the player to move for the throw (0 from: the hand);
    [(-1, -1)] for a pass."""
    mine, theirs, hand_w, hand_b, _, _, player, throw = ur
    if player == 1:
        mine, theirs = theirs, mine
    hand = (hand_w, hand_b)[player]
    assert throw is not None
    out = []
    for at in sorted(set(mine) | ({0} if hand else set())):
        to = at + throw
        if throw == 0 or to > OFF or (to < OFF and to in mine):
            continue
        if 5 <= to <= 12 and to in theirs and to == 8:
            continue  # the middle rosette is safe
        out.append((at, to))
    return out or [(-1, -1)]


def _play(ur: Ur, move: tuple[int, int]) -> Ur:
    pieces = [list(ur[0]), list(ur[1])]
    hands, off = [ur[2], ur[3]], [ur[4], ur[5]]
    player = ur[6]
    at, to = move
    again = False
    if at >= 0:
        if at == 0:
            hands[player] -= 1
        else:
            pieces[player].remove(at)
        if to == OFF:
            off[player] += 1
        else:
            pieces[player].append(to)
            if 5 <= to <= 12 and to in pieces[1 - player]:
                pieces[1 - player].remove(to)
                hands[1 - player] += 1
        again = to in ROSETTES
    w, b = tuple(sorted(pieces[0])), tuple(sorted(pieces[1]))
    return (w, b, hands[0], hands[1], off[0], off[1], player if again else 1 - player, None)


def _perft(ur: Ur, depth: int) -> int:
    if depth == 0:
        return 1
    if 7 in (ur[4], ur[5]):
        return 0
    if ur[7] is None:
        return sum(_perft((*ur[:7], t), depth - 1) for t in range(5))  # type: ignore[arg-type]
    return sum(_perft(_play(ur, m), depth - 1) for m in _moves(ur))


def _read(state: RulesState) -> Ur:
    """The hand-written Ur's view of a described Ur's state."""
    names = state.rulebook.design.board.names
    routes = [[], []]  # type: list[list[int]]
    off = [0, 0]
    for position, owner, _ in state.pieces():
        name = names[position]
        if name[0] in "wv":  # the trays
            off["wv".index(name[0])] += 1
        else:
            routes[owner].append((WHITE_ROUTE, BLACK_ROUTE)[owner].index(name) + 1)
    hands = [sum(h.values()) for h in state.hands()]
    throw = state.pos.throw
    player = state.rulebook.player(state.pos)
    return (
        tuple(sorted(routes[0])),
        tuple(sorted(routes[1])),
        hands[0],
        hands[1],
        off[0],
        off[1],
        player,
        throw[0] if throw is not None else None,
    )


def _steps(state: RulesState) -> dict[tuple[int, int], object]:
    """The described game's legal moves as (from, to) route steps."""
    names = state.rulebook.design.board.names
    player = state.rulebook.player(state.pos)
    route = (WHITE_ROUTE, BLACK_ROUTE)[player]
    out: dict[tuple[int, int], object] = {}
    for move in state.legal_actions():
        path = move[0]
        if not path:
            out[(-1, -1)] = move
            continue
        to = OFF if names[path[-1]][0] in "wv" else route.index(names[path[-1]]) + 1
        at = 0 if len(path) == 1 else route.index(names[path[0]]) + 1
        assert (at, to) not in out, "each step is one move"
        out[(at, to)] = move
    return out


def test_dice_list_every_distinct_throw_with_its_chance() -> None:
    sticks = Dice(count=4, faces=(0, 1), total=True).outcomes()
    assert [(v, round(p * 16)) for v, p in sticks] == [
        ((n,), c) for n, c in enumerate((1, 4, 6, 4, 1))
    ]
    two = Dice(count=2, faces=tuple(range(1, 7))).outcomes()
    assert len(two) == 21 and math.isclose(sum(p for _, p in two), 1.0)
    assert dict(two)[(3, 3)] == pytest.approx(1 / 36) and dict(two)[(2, 5)] == pytest.approx(2 / 36)
    ordered = Dice(count=2, faces=tuple(range(1, 7)), ordered=True).outcomes()
    assert len(ordered) == 36 and all(p == pytest.approx(1 / 36) for _, p in ordered)
    assert (5, 2) in dict(ordered) and (2, 5) in dict(ordered)


def test_a_throw_is_a_chance_node_whose_outcome_is_part_of_the_position() -> None:
    state = RulesGame(rulebook("ur")).initial_state(random.Random(0))
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_text(a) for a, _ in outcomes] == [f"roll {n}" for n in range(5)]
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    thrown = state.apply(state.parse_action("roll 3"))
    assert thrown.current_player() == 0 and thrown.chance_outcomes() == []
    assert thrown.key() != state.key()
    assert [thrown.action_text(m) for m in thrown.legal_actions()] == ["b1"]
    moved = thrown.apply(thrown.legal_actions()[0])
    assert moved.current_player() == CHANCE
    with pytest.raises(NotationError):
        state.parse_action("roll 5")


def test_a_position_with_its_throw_and_hands_reads_back() -> None:
    rng = random.Random(3)
    game = RulesGame(rulebook("ur"))
    state = game.initial_state(rng)
    for _ in range(60):
        text = state.text()
        again = RulesGame(rulebook("ur"), {"position": text}).initial_state(rng)
        assert again.key() == state.key() and again.text() == text
        action = (
            sample_chance(state, rng)
            if state.current_player() == CHANCE
            else rng.choice(list(state.legal_actions()))
        )
        state = state.apply(action)
    assert "in hand: White" in state.text()
    with pytest.raises(NotationError, match="not a throw"):
        RulesGame(rulebook("ur"), {"position": "White: / Black: / roll 9"}).initial_state(rng)


def test_ur_perft_through_the_throws_agrees_with_the_hand_written_ur() -> None:
    book = rulebook("ur")
    assert [book.perft(book.start(), d) for d in range(1, PERFT_DEPTH + 1)] == [
        _perft(START, d) for d in range(1, PERFT_DEPTH + 1)
    ]


def test_ur_perft_from_random_positions_agrees_with_the_hand_written_ur() -> None:
    """Perft 1 to 3 from 24 positions of seeded random games (some before a throw, some
    after), each read from its text."""
    book, game = rulebook("ur"), RulesGame(rulebook("ur"))
    kinds = set()
    for seed in range(24):
        rng = random.Random(100 + seed)
        state, ur = game.initial_state(rng), START
        for _ in range(rng.randrange(20, 160)):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                ur = (*ur[:7], state.pos.throw[0])  # type: ignore[index,assignment]
                continue
            steps = _steps(state)
            step = rng.choice(sorted(steps))
            state, ur = state.apply(steps[step]), _play(ur, step)  # type: ignore[arg-type]
        if seed % 2 and state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            ur = (*ur[:7], state.pos.throw[0])  # type: ignore[index,assignment]
        kinds.add(state.current_player())
        pos = RulesGame(book, {"position": state.text()}).initial_state(rng).pos
        assert [book.perft(pos, d) for d in (1, 2, 3)] == [_perft(ur, d) for d in (1, 2, 3)]
    assert CHANCE in kinds and len(kinds) > 1


@pytest.mark.deep
def test_ur_random_games_agree_with_the_hand_written_ur() -> None:
    game = RulesGame(rulebook("ur"))
    ended = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        state, ur = game.initial_state(rng), START
        while not state.is_terminal():
            assert _read(state) == ur
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                ur = (*ur[:7], state.pos.throw[0])  # type: ignore[index,assignment]
                continue
            steps = _steps(state)
            assert sorted(steps) == sorted(_moves(ur)), state.text()
            step = rng.choice(sorted(steps))
            state, ur = state.apply(steps[step]), _play(ur, step)  # type: ignore[arg-type]
        assert 7 in (ur[4], ur[5])
        ended += 1
    assert ended == GAMES


def test_thrown_needs_dice_and_dice_need_sense() -> None:
    text = (
        "(game t) (players A B) (board (grid (columns a b) (rows 1 2)) (directions (n 0 1)))"
        " (piece P (moves (move m (repeat thrown n) add))) (setup (A (P a1))) (end (win stuck))"
    )
    with pytest.raises(DescriptionError, match=r"t.txt:1:\d+: thrown is the throw of the dice"):
        parse(text, "t.txt")
    with pytest.raises(DescriptionError, match=r"t.txt:1:\d+: expected a number from 2 to 64"):
        parse(text + " (dice (faces 1))", "t.txt")
    design = parse(text + " (dice (count 2) (faces 4))", "t.txt")
    assert design.dice == Dice(2, (1, 2, 3, 4))
    with pytest.raises(DescriptionError, match=r"t.txt:1:\d+: \(total\) and \(ordered\)"):
        parse(text + " (dice (count 2) (total) (ordered))", "t.txt")


SIXES = """
(game sixes) (players A B)
(board (grid (columns a b c d e f g h i j k l m n) (rows 1)) (directions (e 1 0)))
(dice (faces 6))
(piece P (moves (move run (repeat thrown e) (verify empty) (if (= thrown 6) (goto again)) add)))
(setup (A (P a1)) (B (P b1)))
(rules (turn-order (label again) A (label again) B) (pass-when-stuck))
(end (win stuck))
"""


def test_thrown_is_a_number_in_a_move_program_a_six_throwing_again() -> None:
    """``(= thrown 6)`` in a move program: after a six the mover throws again, after any
    other throw the turn passes; without dice the comparison is refused where it stands."""
    game = RulesGame(Rulebook(parse(SIXES, "sixes.txt")))
    for throw, next_player in ((6, 0), (3, 1)):
        state = game.initial_state(random.Random(0))
        assert state.current_player() == CHANCE
        state = state.apply(state.parse_action(f"roll {throw}"))
        assert state.current_player() == 0
        (only,) = list(state.legal_actions())
        state = state.apply(only)
        assert state.current_player() == CHANCE, "the dice are thrown again"
        state = state.apply(state.parse_action("roll 1"))
        assert state.current_player() == next_player
    text = SIXES.replace("(dice (faces 6))", "")
    with pytest.raises(DescriptionError, match=r"t.txt:5:\d+: thrown is the throw of the dice"):
        parse(text, "t.txt")
