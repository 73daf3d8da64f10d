"""Banqi described as text, with face-down pieces turned up by chance, agrees with a small
Banqi written here by hand straight from the rules: the same moves and the same perft from the
start and from 24 positions of seeded random games, with chance nodes counted as
``docs/rules.md`` says (no ply; each distinct piece that can turn up starts paths of its own).

No program we did not write plays Banqi (Fairy-Stockfish and OpenSpiel have no face-down
pieces), so the hand-written one is the independent reference."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from game.logic.contract import CHANCE, Limits, Stop, sample_chance
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.hidden import HiddenPosition
from game.logic.rules.state import RulesGame, RulesState
from tests.deep import sized

#: Highest first; a piece takes by a step one of its rank or lower (see _takes).
RANKS = "KABRNCP"
SET = {"K": 1, "A": 2, "B": 2, "R": 2, "N": 2, "P": 5, "C": 2}
COLUMNS, ROWS = "abcdefgh", 4
#: Random games' positions compared (see _random_positions) and the perft depth there.
POSITIONS = 24
DEPTH = sized(2, 3)
#: The start's perft: 32, 6,944, and (the deep checks) 2,890,088.
START = sized((32, 6944), (32, 6944, 2_890_088))

# A hand-written position: squares "a1".."h4" -> "?" (face down), "R" + letter (Red's), "B" +
# letter (Black's); the pieces not seen yet by colour; whose turn (0 Red, 1 Black).
Board = dict[str, str]
Unseen = dict[str, Counter[str]]


def _square(col: int, row: int) -> str | None:
    return f"{COLUMNS[col]}{row + 1}" if 0 <= col < 8 and 0 <= row < ROWS else None


def _takes(mover: str, victim: str) -> bool:
    if mover == "C":
        return False  # a cannon takes only by jumping
    if mover == "K" and victim == "P":
        return False
    if mover == "P" and victim == "K":
        return True
    return RANKS.index(mover) <= RANKS.index(victim)


def _moves(board: Board, turn: int) -> list[str]:
    me, them = "RB"[turn], "RB"[1 - turn]
    out = []
    for sq in sorted(board, key=lambda s: (int(s[1:]), s[0])):
        piece = board[sq]
        if piece == "?":
            out.append(sq)  # turned up where it stands
            continue
        if piece[0] != me:
            continue
        col, row = COLUMNS.index(sq[0]), int(sq[1:]) - 1
        for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            to = _square(col + dc, row + dr)
            if to is None:
                continue
            there = board.get(to)
            if there is None:
                out.append(f"{sq}-{to}")
            elif there[0] == them and _takes(piece[1], there[1]):
                out.append(f"{sq}x{to}")
            if piece[1] == "C":  # past the first piece on the line, the next one
                c, r, screens = col + dc, row + dr, 0
                while (at := _square(c, r)) is not None:
                    if at in board:
                        screens += 1
                        if screens == 2:
                            if board[at][0] == them:
                                out.append(f"{sq}x{at}")
                            break
                    c, r = c + dc, r + dr
    return out


def _turn_ups(unseen: Unseen, turn: int) -> list[tuple[str, str]]:
    """What a piece turned up can be: (colour, letter), each once."""
    first = sum(sum(c.values()) for c in unseen.values()) == 32
    colours = "RB"[turn] if first else "RB"
    return [(c, k) for c in colours for k in RANKS if unseen[c][k]]


def _perft(board: Board, unseen: Unseen, turn: int, depth: int) -> int:
    if depth == 0:
        return 1
    moves = _moves(board, turn)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        if len(move) == 2:  # a face-down piece turned up: every piece it can be
            for colour, kind in _turn_ups(unseen, turn):
                after = dict(board)
                after[move] = colour + kind
                left = {c: Counter(n) for c, n in unseen.items()}
                left[colour][kind] -= 1
                total += _perft(after, left, 1 - turn, depth - 1)
            continue
        after = dict(board)
        f, to = move[:2], move[3:]
        after[to] = after.pop(f)
        total += _perft(after, unseen, 1 - turn, depth - 1)
    return total


def _mine(state: RulesState) -> tuple[Board, Unseen, int]:
    """The described game's position as the hand-written one's."""
    pos = state.pos
    assert isinstance(pos, HiddenPosition) and pos.reveal < 0
    board: Board = {}
    names = state.rulebook.design.board.names
    for at, owner, kind in state.pieces():
        piece = state.rulebook.design.pieces[state.rulebook.design.type_index(kind)]
        board[names[at]] = "?" if owner < 0 else "RB"[owner] + piece.letter
    types = [p.letter for p in state.rulebook.design.pieces]
    unseen = {
        "RB"[s]: Counter({types[t]: n for t, n in enumerate(row) if n})
        for s, row in enumerate(pos.unseen)
    }
    return board, unseen, state.current_player()


def _random_positions(count: int) -> list[RulesState]:
    """Positions of seeded random games where a player is to move: three a game, after 8,
    20 and 40 plies (fewer where a game ends sooner)."""
    game = RulesGame(rulebook("banqi"))
    out: list[RulesState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.initial_state(rng)
        plies = 0
        while not state.is_terminal() and plies <= 40 and len(out) < count:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if plies in (8, 20, 40):
                out.append(state)
            state = state.apply(rng.choice(list(state.legal_actions())))
            plies += 1
    return out


@pytest.mark.deep
def test_banqi_start_perft_agrees_with_banqi_written_by_hand() -> None:
    rules = rulebook("banqi")
    state = RulesGame(rules).initial_state(random.Random(0))
    board, unseen, turn = _mine(state)
    assert board == {f"{c}{r}": "?" for c in COLUMNS for r in range(1, 5)}
    # 32 flips; each turns up one of Red's 7 types (the first piece is the flipper's); then
    # 31 flips each (a piece in a full board cannot step); depth 3 counts the steps too.
    depths = range(1, len(START) + 1)
    assert START[1] == 32 * 7 * 31
    assert tuple(rules.perft(state.pos.copy(), d) for d in depths) == START
    assert tuple(_perft(board, unseen, turn, d) for d in depths) == START


@pytest.mark.deep
def test_banqi_moves_and_perft_agree_in_random_positions() -> None:
    positions = _random_positions(POSITIONS)
    assert len({p.key() for p in positions}) == POSITIONS
    for state in positions:
        board, unseen, turn = _mine(state)
        assert sorted(state.texts()) == sorted(_moves(board, turn)), state.text()
        for depth in range(1, DEPTH + 1):
            expected = _perft(board, unseen, turn, depth)
            assert state.rulebook.perft(state.pos.copy(), depth) == expected, (state, depth)


def test_a_turn_up_is_a_chance_node_weighed_by_what_is_left() -> None:
    game = RulesGame(rulebook("banqi"))
    start = game.initial_state(random.Random(0))
    flip = start.parse_action("c2")
    state = start.apply(flip)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    # The first piece turned up is the flipper's (Red's): by how many of each type Red has.
    assert [state.action_text(m) for m, _ in outcomes] == [f"c2={k}" for k in "KABRNPC"]
    assert [round(p * 16) for _, p in outcomes] == [1, 2, 2, 2, 2, 5, 2]
    soldier = state.parse_action("c2=P")
    after = state.apply(soldier)
    assert after.current_player() == 1 and ("c2", 0, "Soldier") in [
        (after.design.board.names[a], o, k) for a, o, k in after.pieces()
    ]
    second = after.apply(after.parse_action("d4"))
    # Later ones: either colour, by count; Black's letters in lower case.
    odds = {second.action_text(m): p for m, p in second.chance_outcomes()}
    assert odds["d4=P"] == pytest.approx(4 / 31) and odds["d4=p"] == pytest.approx(5 / 31)
    assert sum(odds.values()) == pytest.approx(1.0)


def test_a_flip_and_its_turn_up_unmake_to_the_same_position() -> None:
    rules = rulebook("banqi")
    for state in _random_positions(3):
        pos = state.pos.copy()
        key = rules.key(pos)
        for move in rules.legal(pos):
            saved = rules.make(pos, move)
            for outcome, _ in rules.chance(pos):
                inner = rules.make(pos, outcome)
                assert rules.chance(pos) == []
                rules.unmake(pos, inner)
            rules.unmake(pos, saved)
            assert rules.key(pos) == key


def test_the_computer_reads_nothing_chance_has_not_turned_up() -> None:
    """Two games whose chance draws differ (other seeds) reach the same position by the same
    moves and turn-ups: the state holds nothing of what still lies face down, so each seat's
    observation is the whole state and the computer chooses the same move in both."""
    game = RulesGame(rulebook("banqi"))
    script = ["b2", "b2=R", "c2", "c2=b", "b3", "b3=N", "b1", "b1=a"]
    ends = []
    for seed in (1, 2):
        state = game.initial_state(random.Random(seed))
        for text in script:
            state = state.apply(state.parse_action(text))
        ends.append(state)
    first, second = ends
    assert first.observation(0) == second.observation(0) == first.observation(1)
    agent = make_agent("advanced")
    limits = Limits(nodes=400)
    choices = [agent.choose(s, limits, random.Random(seed), Stop()) for seed, s in enumerate(ends)]
    assert choices[0] == choices[1]


def test_a_player_with_no_move_loses() -> None:
    game = RulesGame(rulebook("banqi"))
    state = game.initial_state(random.Random(0))
    rng = random.Random(1)  # a game that ends with a player stuck, not drawn
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
    assert state.outcome() == "win" and state.moves() == []
    assert state.returns()[state.rulebook.last_mover(state.pos)] == 1.0


def test_a_position_text_reads_back_with_the_pieces_still_face_down() -> None:
    game = RulesGame(rulebook("banqi"))
    state = game.initial_state(random.Random(0))
    for text in ["c2", "c2=R", "d3", "d3=k", "b2", "b2=P"]:
        state = state.apply(state.parse_action(text))
    again = RulesGame(rulebook("banqi"), {"position": state.text()}).initial_state(random.Random(0))
    assert again.key() == state.key()
    flipped = again.apply(again.parse_action("e3"))
    assert flipped.current_player() == CHANCE and len(flipped.chance_outcomes()) == 13
