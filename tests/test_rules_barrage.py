"""Barrage (Stratego's small game) described as text, with concealed pieces: its moves and
fights agree with a Barrage written here by hand from the rules, what a seat observes never
holds the other's unrevealed types, a determinized state looks the same to that seat, and
the computer chooses the same move in two states that look the same to it.

No program we did not write plays Barrage, so the hand-written one is the reference."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame, RulesState

RANK = {"Marshal": 10, "General": 9, "Miner": 3, "Scout": 2, "Spy": 1}
LAKES = {"c4", "c5", "f4", "f5"}
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))
#: The pieces of each player, placed at the start.
SET = ("Marshal", "General", "Miner", "Scout", "Scout", "Spy", "Bomb", "Flag")

# A hand-written position: square name -> (owner, type).
Board = dict[str, tuple[int, str]]


def _fight(attacker: str, defender: str) -> str:
    """Who is left after ``attacker`` moves onto ``defender``: "attacker", "defender" or
    "none"."""
    if defender == "Flag":
        return "attacker"
    if defender == "Bomb":
        return "attacker" if attacker == "Miner" else "defender"
    if attacker == "Spy" and defender == "Marshal":
        return "attacker"
    a, d = RANK[attacker], RANK[defender]
    return "attacker" if a > d else "none" if a == d else "defender"


def _square(col: int, row: int) -> str | None:
    if 0 <= col < 8 and 0 <= row < 8:
        name = f"{'abcdefgh'[col]}{row + 1}"
        return None if name in LAKES else name
    return None


def _moves(board: Board, player: int) -> dict[str, tuple[str, str]]:
    """Every move's text (``a2-a3``, ``a2xa3``) -> (from, to)."""
    out = {}
    for at, (owner, kind) in board.items():
        if owner != player or kind in ("Bomb", "Flag"):
            continue
        col, row = "abcdefgh".index(at[0]), int(at[1:]) - 1
        for dc, dr in STEPS:
            c, r = col + dc, row + dr
            while (to := _square(c, r)) is not None:
                if to in board:
                    if board[to][0] != player:
                        out[f"{at}x{to}"] = (at, to)
                    break
                out[f"{at}-{to}"] = (at, to)
                if kind != "Scout":
                    break
                c, r = c + dc, r + dr
    return out


def _play(board: Board, at: str, to: str) -> Board:
    out = dict(board)
    piece = out.pop(at)
    if to not in out:
        out[to] = piece
    else:
        left = _fight(piece[1], out[to][1])
        if left == "attacker":
            out[to] = piece
        elif left == "none":
            del out[to]
    return out


def _board(state: RulesState) -> Board:
    names = state.rulebook.design.board.names
    return {names[i]: (owner, kind) for i, owner, kind in state.pieces()}


def _perft(board: Board, player: int, depth: int) -> int:
    if depth == 0:
        return 1
    if not any(k == "Flag" and o == player for o, k in board.values()):
        return 0
    moves = _moves(board, player)
    if depth == 1:
        return len(moves)
    return sum(_perft(_play(board, a, t), 1 - player, depth - 1) for a, t in moves.values())


def _random_state(seed: int, plies: int) -> RulesState:
    """A state ``plies`` random moves into a seeded game (fewer where the next would end it)."""
    rng = random.Random(seed)
    state = RulesGame(rulebook("barrage")).initial_state(rng)
    for _ in range(plies):
        after = state.apply(rng.choice(list(state.legal_actions())))
        if after.is_terminal():
            break
        state = after
    return state


def test_barrage_set_up_is_a_drop_of_any_piece_in_the_own_two_rows() -> None:
    state = RulesGame(rulebook("barrage")).initial_state(random.Random(0))
    assert len(state.legal_actions()) == 7 * 16  # seven types, sixteen squares
    assert state.rulebook.perft(state.pos.copy(), 2) == (7 * 16) ** 2


@pytest.mark.parametrize("seed", range(20))
def test_barrage_moves_and_fights_agree_with_the_hand_written_game(seed: int) -> None:
    state = _random_state(seed, 16 + 4 * seed)
    board, player = _board(state), state.current_player()
    expected = _moves(board, player)
    assert sorted(state.texts()) == sorted(expected)
    for move, text in zip(state.legal_actions(), state.texts(), strict=True):
        assert _board(state.apply(move)) == _play(board, *expected[text])
    assert state.rulebook.perft(state.pos.copy(), 2) == _perft(board, player, 2)


def test_barrage_fights_reveal_the_piece_left_standing() -> None:
    state = _random_state(2, 80)
    seen = state.rulebook
    fights = 0
    rng = random.Random(4)
    while not state.is_terminal() and fights < 6:
        moves = list(state.legal_actions())
        attacks = [m for m in moves if m[1]]
        move = rng.choice(attacks or moves)
        after = state.apply(move)
        if move[1] and after.pos.board[move[0][-1]]:
            fights += 1
            assert seen.revealed(after.pos.board[move[0][-1]])
        state = after
    assert fights


@pytest.mark.parametrize("seed", range(6))
def test_barrage_observation_never_holds_the_others_unrevealed_types(seed: int) -> None:
    state = _random_state(seed, 10 + 20 * seed)
    rb = state.rulebook
    for seat in (0, 1):
        seen = state.observation(seat)
        board, hands = seen[0], seen[1]  # type: ignore[index]
        for v, truth in zip(board, state.pos.board, strict=True):
            if truth and rb.c.owner[truth] != seat and not rb.revealed(truth):
                # its owner and whether it moved (the attributes), not its type
                assert v == -1 - rb.c.owner[truth] - 2 * rb.c.attrs[truth]
            else:
                assert v == truth
        assert isinstance(hands[1 - seat], int)


@pytest.mark.parametrize("seed", range(4))
def test_barrage_a_determinized_state_looks_the_same_and_deals_again(seed: int) -> None:
    state = _random_state(seed, 12 + 10 * seed)
    seat = state.current_player()
    draw = state.determinizer(seat)  # type: ignore[attr-defined]
    truths = set()
    for k in range(12):
        other = draw(random.Random(k))
        assert other.observation(seat) == state.observation(seat)
        assert sorted(other.texts()) == sorted(state.texts())
        truths.add(tuple(other.pos.board) + tuple(other.pos.hands))
    assert len(truths) > 1  # the hidden part is drawn, not copied


@pytest.mark.parametrize("seed", range(4))
def test_barrage_a_piece_seen_to_move_is_never_dealt_a_bomb_or_the_flag(seed: int) -> None:
    state = _random_state(seed, 60)
    seat = state.current_player()
    rb = state.rulebook
    moved = 1 << rb.design.attributes.index("moved")
    immobile = {rb.design.type_index("Bomb"), rb.design.type_index("Flag")}
    hidden = [
        p
        for p, v in enumerate(state.pos.board)
        if v and rb.c.owner[v] != seat and not rb.revealed(v) and rb.c.attrs[v] & moved
    ]
    assert hidden  # sixty random plies move some of the other's pieces
    draw = state.determinizer(seat)  # type: ignore[attr-defined]
    for k in range(20):
        board = draw(random.Random(k)).pos.board
        assert all(rb.c.kind_of[board[p]] not in immobile for p in hidden)


def test_barrage_lakes_are_water_and_the_ranks_are_written_on_the_pieces() -> None:
    from game.games.rules.look import piece_meshes

    design = rulebook("barrage").design
    board = design.board
    assert {board.names[p] for p in board.water} == LAKES
    assert [p.letter for p in design.pieces] == ["10", "9", "3", "2", "1", "B", "F"]
    # an enemy piece the watcher cannot see is a blank of the pieces' one shape
    assert piece_meshes(design, [(1, "?")]) == piece_meshes(design, [(1, "Flag")])


def test_barrage_the_window_shows_every_piece_once_the_game_is_over() -> None:
    from game.games.rules.look import stacks_of

    rng = random.Random(11)
    state = RulesGame(rulebook("barrage")).initial_state(rng)
    while not (after := state.apply(rng.choice(list(state.legal_actions())))).is_terminal():
        state = after
    assert any(stack == [(1, "?")] for stack in stacks_of(state, 0).values())
    assert all(name != "?" for stack in stacks_of(after, 0).values() for _, name in stack)


def test_barrage_the_computer_takes_a_piece_it_knows_to_be_weaker() -> None:
    # Red's General beside Blue's Scout, revealed by a fight; every other piece far off.
    state = _random_state(1, 16)  # the set-up done, Red to move
    rb = state.rulebook
    names, kinds = rb.design.board.names, rb.design.type_index
    seen = 1 << rb.design.attributes.index("revealed")
    board = [0] * len(names)
    for name, owner, kind, attrs in (
        ("a1", 0, "Flag", 0),
        ("b1", 0, "Bomb", 0),
        ("e4", 0, "General", seen),
        ("e5", 1, "Scout", seen),
        ("h8", 1, "Flag", 0),
        ("g8", 1, "Bomb", 0),
        ("a8", 1, "Marshal", 0),
    ):
        board[names.index(name)] = rb.c.code(owner, kinds(kind), attrs)
    pos = state.pos.copy()
    pos.board[:] = board
    state = RulesState(rb, pos)
    move = make_agent("master").choose(state, Limits(nodes=2_000), random.Random(0), Stop())
    assert state.action_text(move) == "e4xe5"


def test_barrage_moves_do_not_tell_what_a_fight_will_give() -> None:
    state = _random_state(3, 40)
    seat = state.current_player()
    other = state.determinizer(seat)(random.Random(1))  # type: ignore[attr-defined]
    assert other.pos.board != state.pos.board
    assert list(other.legal_actions()) == list(state.legal_actions())


@pytest.mark.parametrize("plies", [5, 30, 60])
def test_barrage_the_computer_chooses_alike_in_states_that_look_alike(plies: int) -> None:
    state = _random_state(7, plies)
    seat = state.current_player()
    other = state.determinizer(seat)(random.Random(3))  # type: ignore[attr-defined]
    assert other.observation(seat) == state.observation(seat)
    assert other.pos.board != state.pos.board or other.pos.hands != state.pos.hands
    agent = make_agent("master")
    limits = Limits(nodes=600)  # several deals
    first = agent.choose(state, limits, random.Random(0), Stop())
    again = make_agent("master").choose(other, limits, random.Random(9), Stop())
    assert first == again


def test_the_move_list_hides_the_other_sides_placements() -> None:
    from types import SimpleNamespace

    from game.games.rules.variations import hidden_placements
    from game.logic.match import Step

    shown_to_red = SimpleNamespace(board=SimpleNamespace(watcher=0), rulebook=rulebook("barrage"))
    hidden = hidden_placements(shown_to_red)  # type: ignore[arg-type]
    assert hidden(Step(1, None, "M@c8")) and not hidden(Step(0, None, "M@c1"))
    assert not hidden(Step(1, None, "c7-c6"))  # a move shows where, as the board does
    chess = SimpleNamespace(board=SimpleNamespace(watcher=0), rulebook=rulebook("chess"))
    assert not hidden_placements(chess)(Step(1, None, "e5"))  # type: ignore[arg-type]
