"""The described chess against python-chess: the same random games played in both, move for
move, with the same legal moves and the same end at every ply (repetition, dead positions,
the fifty-move rule, mate and stalemate).

``chess.txt`` ends a game by itself (no one claims): at the third occurrence of a position
(``(repetition 3)``), after 100 plies without a capture or a pawn move (``(quiet-moves 100
Pawn)``) and when no side has the material to mate. python-chess's answers for that are
``is_repetition(3)`` (not ``can_claim_threefold_repetition``, which also counts a repetition
the next move could make), ``halfmove_clock >= 100`` (``is_fifty_moves``, without the claim
one move early) and ``is_insufficient_material``; checkmate comes first, as FIDE's laws say
of a mate on the hundredth ply. Fivefold repetition and the 75-move rule come later than
these, so they never decide a game here.
"""

from __future__ import annotations

import random

import chess
import pytest

from game.logic.rules import catalogue
from game.logic.rules.notation import coordinate_text
from game.logic.rules.position import Move
from game.logic.rules.state import RulesState
from tests.deep import sized

GAMES = 100
#: The seeds CI plays: the first 25 and seed 50, the one game of the hundred that ends in a
#: threefold repetition (18 CPU s for all 100, which benchmarks/slow_checks.py plays).
SEEDS = sized((*range(25), 50), tuple(range(GAMES)))
#: A random game of chess ends within about 450 plies (the fifty-move rule, dead material);
#: the cap only bounds a test that has gone wrong.
MAX_PLIES = 1500


def _rulebook():  # type: ignore[no-untyped-def]
    return catalogue.rulebook("chess")


def uci(state: RulesState, move: Move) -> str:
    """A chess move as python-chess writes it (from, to, the piece a pawn becomes)."""
    return coordinate_text(state.rulebook, state.pos, move)


def expected(board: chess.Board) -> str | None:
    """How a game of chess.txt ends here, by python-chess: "win" (for the player who moved
    last), "draw" or None."""
    if board.is_checkmate():
        return "win"
    if (
        board.is_stalemate()
        or board.is_insufficient_material()
        or board.is_repetition(3)
        or board.halfmove_clock >= 100
    ):
        return "draw"
    return None


def play(seed: int) -> tuple[int, str | None, str]:
    """A random game in both programs: (plies, how it ended, python-chess's reason)."""
    rng = random.Random(seed)
    board = chess.Board()
    state = RulesState(_rulebook(), _rulebook().start())
    for ply in range(MAX_PLIES):
        ours, theirs = state.outcome(), expected(board)
        assert ours == theirs, f"seed {seed} ply {ply}: {ours} against {theirs} at {board.fen()}"
        if ours is not None:
            reason = board.outcome(claim_draw=True)
            return ply, ours, reason.termination.name if reason else "?"
        moves = {uci(state, m): m for m in state.legal_actions()}
        legal = sorted(m.uci() for m in board.legal_moves)
        assert sorted(moves) == legal, f"seed {seed} ply {ply}: moves differ at {board.fen()}"
        choice = rng.choice(legal)
        board.push_uci(choice)
        state = state.apply(moves[choice])
    raise AssertionError(f"seed {seed}: no end in {MAX_PLIES} plies")


@pytest.mark.slow
@pytest.mark.deep
def test_random_games_end_as_python_chess_says() -> None:
    ends: dict[str, int] = {}
    for seed in SEEDS:
        _, _, reason = play(seed)
        ends[reason] = ends.get(reason, 0) + 1
    # The games reach every kind of end the comparison is about.
    assert {"INSUFFICIENT_MATERIAL", "THREEFOLD_REPETITION", "FIFTY_MOVES", "CHECKMATE"} <= set(
        ends
    ), ends


def _line(moves: str) -> tuple[RulesState, chess.Board]:
    """The moves played in both programs, which agree on the end at every ply."""
    board = chess.Board()
    state = RulesState(_rulebook(), _rulebook().start())
    for move in moves.split():
        assert state.outcome() is None
        board.push_uci(move)
        state = state.apply(state.parse_action(f"{move[:2]}-{move[2:]}"))
        assert state.outcome() == expected(board), board.fen()
    return state, board


def test_knights_out_and_back_twice_is_threefold_repetition() -> None:
    once = "g1f3 g8f6 f3g1 f6g8"
    state, board = _line(f"{once} {once}")
    assert board.is_repetition(3)
    assert state.outcome() == "draw"
    state, _ = _line(f"{once} g1f3 g8f6 f3g1")
    assert state.outcome() is None


def test_a_double_step_no_pawn_can_take_en_passant_repeats_the_position() -> None:
    # After 1. e4 the e3 square counts for nothing (no black pawn beside e4): the position
    # after the knights go out and back twice is the same as after 1. e4, as FEN says.
    state, board = _line("e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1")
    assert board.is_repetition(3) and state.outcome() == "draw"


def test_a_double_step_a_pawn_can_take_en_passant_does_not_repeat() -> None:
    # 1. e4 d5 2. e5 f5: exf6 is possible now, and never again after the knights move.
    dance = "b1c3 b8c6 c3b1 c6b8"
    state, board = _line(f"e2e4 d7d5 e4e5 f7f5 {dance} {dance}")
    assert not board.is_repetition(3) and state.outcome() is None
    # (The third time round, the knight's first step repeats a position three times.)
    state, board = _line(f"e2e4 d7d5 e4e5 f7f5 {dance} {dance} b1c3")
    assert board.is_repetition(3) and state.outcome() == "draw"


def test_a_rook_that_moves_after_its_king_has_moved_loses_no_right() -> None:
    # The kings have moved: the rooks' first moves change nothing that decides the future,
    # so the position after they go to g1/g8 and back repeats the one before (python-chess's
    # castling rights, FIDE's "same position").
    state, board = _line(
        "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 h1g1 h8g8 g1h1 g8h8"
    )
    assert board.is_repetition(3) and state.outcome() == "draw"
    # While the king has not moved, the rook's move takes a right away: no repetition.
    state, board = _line("g1f3 g8f6 h1g1 h8g8 g1h1 g8h8 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")
    assert not board.is_repetition(3) and state.outcome() is None


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",  # K v K
        "8/8/8/4k3/8/8/8/2N1K3 w - - 0 1",  # K+N v K
        "8/8/8/4k3/8/8/8/2B1K3 b - - 0 1",  # K+B v K
        "8/8/3b4/4k3/8/8/8/2B1K3 w - - 0 1",  # bishops on squares of one colour
        "8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1",  # bishops on both colours
        "8/8/2n5/4k3/8/8/8/2N1K3 w - - 0 1",  # K+N v K+N (a mate can be helped)
        "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1",  # K+N+N v K
        "8/8/8/4k3/8/8/8/2NBK3 w - - 0 1",  # K+N+B v K
        "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",  # a pawn
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",  # a rook
    ],
)
def test_a_dead_position_is_drawn_where_python_chess_says(fen: str) -> None:
    from game.logic.rules.notation import read_position

    rulebook = _rulebook()
    state = RulesState(rulebook, read_position(rulebook, fen))
    dead = chess.Board(fen).is_insufficient_material()
    assert (state.outcome() == "draw") == dead
