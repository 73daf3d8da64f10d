"""Chess's record is written in standard algebraic notation, checked against python-chess's
SAN for every legal move of every position of seeded random games; both SAN and the path
(``e2-e4``) are read back."""

from __future__ import annotations

import random

import chess
import pytest

from game.games.rules.entry import entry_for
from game.logic.contract import NotationError
from game.logic.rules.catalogue import rulebook
from game.logic.rules.state import RulesGame, RulesState

GAMES = 12
PLIES = 160


def _start(position: str = "") -> RulesState:
    chess_rulebook = rulebook("chess")
    options = entry_for("chess", chess_rulebook).options.validate({"position": position})
    state = RulesGame(chess_rulebook, options).initial_state(random.Random(0))
    assert isinstance(state, RulesState)
    return state


def _uci(state: RulesState, move: tuple) -> str:
    """The move in UCI (python-chess's move format), from its path and its promotion."""
    names = state.design.board.names
    path = move[0]
    text = names[path[0]] + names[path[-1]]
    long = state.texts()[state.moves().index(move)]
    if "=" in long:  # a promotion's path text names the new piece (four moves share the path)
        text += long.split("=")[1][0].lower()
    return text


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_move_reads_as_python_chess_writes_it(seed: int) -> None:
    rng = random.Random(seed)
    state = _start()
    board = chess.Board()
    for ply in range(PLIES):
        if state.is_terminal() or board.is_game_over(claim_draw=False):
            break
        moves = list(state.legal_actions())
        ours = {_uci(state, m): state.action_text(m) for m in moves}
        theirs = {m.uci(): board.san(m) for m in board.legal_moves}
        assert ours == theirs, (seed, ply, board.fen())
        move = rng.choice(moves)
        assert state.parse_action(ours[_uci(state, move)]) == move
        assert state.parse_action(state.texts()[moves.index(move)]) == move
        board.push_uci(_uci(state, move))
        state = state.apply(move)


def test_san_names_castling_promotion_and_the_piece_that_moves() -> None:
    state = _start("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    texts = {state.action_text(m) for m in state.legal_actions()}
    assert {"O-O", "O-O-O", "b8=Q+", "b8=N", "bxa8=Q+", "Rxa8+", "Kf1"} <= texts
    assert state.apply(state.parse_action("0-0")).text().startswith("r3k2r/1P6/8/8/8/8/8/R4RK1 b")
    state = _start("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1")
    texts = {state.action_text(m) for m in state.legal_actions()}
    assert {"Rab1", "Rfb1", "Ra2", "Rf8+"} <= texts
    for text in ("Rab1", "a1-b1", "Rab1+", "Rab1!"):
        assert state.action_text(state.parse_action(text)) == "Rab1"
    with pytest.raises(NotationError):
        state.parse_action("Rb1")  # two rooks can go there


def test_mate_is_marked() -> None:
    state = _start()
    for text in ("f3", "e5", "g4"):
        state = state.apply(state.parse_action(text))
    mate = state.parse_action("Qh4")
    assert state.action_text(mate) == "Qh4#"
