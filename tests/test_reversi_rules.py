"""Reversi rules: board text, moves, transcripts, and the numba kernels against pure Python."""

from __future__ import annotations

import doctest
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.logic.contract import TERMINAL
from game.logic.reversi import board as board_module
from game.logic.reversi import kernels
from game.logic.reversi.board import (
    PASS,
    BoardTextError,
    Color,
    IllegalMoveError,
    MoveTextError,
    Position,
    ReversiError,
    TranscriptError,
    format_transcript,
    parse_move,
    parse_transcript,
    replay,
    square_name,
)

START_TEXT = "-" * 27 + "OX------XO" + "-" * 27 + "X"


def random_game(seed: int, plies: int) -> tuple[list[int], list[Position]]:
    """Up to ``plies`` random legal moves (passes included) from the start."""
    rng = random.Random(seed)
    position = Position.start()
    moves: list[int] = []
    positions = [position]
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.apply(move)
        positions.append(position)
    return moves, positions


def expected_flips(position: Position, sq: int) -> set[int]:
    """Flips by walking the eight lines square by square on (row, col) coordinates."""
    mine, theirs = position.mine, position.theirs
    row, col = divmod(sq, 8)
    flipped: set[int] = set()
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            run: list[int] = []
            r, c = row + dr, col + dc
            while 0 <= r < 8 and 0 <= c < 8 and theirs >> (r * 8 + c) & 1:
                run.append(r * 8 + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < 8 and 0 <= c < 8 and mine >> (r * 8 + c) & 1:
                flipped.update(run)
    return flipped


def bits(mask: int) -> set[int]:
    return {sq for sq in range(64) if mask >> sq & 1}


def test_doctests() -> None:
    assert doctest.testmod(board_module).failed == 0


# --- start, text, notation ---------------------------------------------------------------------


def test_start_position() -> None:
    start = Position.start()
    assert start.text() == START_TEXT
    assert start.to_move is Color.BLACK and start.to_move.other is Color.WHITE
    assert [square_name(m) for m in start.legal_moves()] == ["d3", "c4", "f5", "e6"]
    assert start.disc_count() == (2, 2)
    assert start.current_player() == 0
    assert start.returns() == (0.0, 0.0)
    assert not start.is_terminal()
    assert "X to move" in str(start)
    assert str(start).splitlines()[4] == "4 - - - O X - - -"


def test_square_names_round_trip() -> None:
    for sq in range(64):
        assert parse_move(square_name(sq)) == sq
        assert parse_move(square_name(sq).upper()) == sq
    assert square_name(PASS) == "pass" and parse_move("PASS") == PASS


@pytest.mark.parametrize("text", ["", "d9", "i1", "d", "d33", "pas", "ps", "3d"])
def test_bad_move_text(text: str) -> None:
    with pytest.raises(MoveTextError, match="is not a move") as info:
        parse_move(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ReversiError) and isinstance(info.value, ValueError)


def test_board_text_forms() -> None:
    board = START_TEXT[:64]
    for side in ("X", " X", "B", " b", "  x"):
        assert Position.from_text(board + side) == Position.start()
    assert Position.from_text(board.replace("-", ".") + " W").to_move is Color.WHITE
    assert Position.from_text(f"  {board} O\n").to_move is Color.WHITE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("-" * 63, "63 squares"),
        ("-" * 64, "lacks the side"),
        ("-" * 64 + " Z", "'Z'"),
        ("-" * 64 + " XO", "'XO'"),
        ("-" * 10 + "*" + "-" * 53 + "X", r"'\*' at character 11 \(square c2\)"),
    ],
)
def test_bad_board_text(text: str, message: str) -> None:
    with pytest.raises(BoardTextError, match=message):
        Position.from_text(text)


def test_position_validation() -> None:
    with pytest.raises(ReversiError, match="share squares: a1"):
        Position(1, 1, Color.BLACK)
    with pytest.raises(ReversiError, match="64-bit"):
        Position(1 << 64, 0, Color.BLACK)


# --- moves -------------------------------------------------------------------------------------


def test_apply_and_illegal_moves() -> None:
    start = Position.start()
    after = start.apply(parse_move("f5"))
    assert after.to_move is Color.WHITE and after.disc_count() == (4, 1)
    assert start.flips(parse_move("f5")) == 1 << parse_move("e5")
    with pytest.raises(IllegalMoveError, match="d4 is already taken"):
        start.apply(parse_move("d4"))
    with pytest.raises(IllegalMoveError, match="a1 flips no disc"):
        start.apply(parse_move("a1"))
    with pytest.raises(IllegalMoveError, match=r"cannot pass while it has a move \(d3, c4"):
        start.apply(PASS)
    with pytest.raises(IllegalMoveError, match="neither a square"):
        start.apply(65)


def test_pass_and_game_end() -> None:
    # Black (X) has no move here, white has three.
    text = "--OOO----X-O------XX-------XX------XX-------X-------------------X"
    position = Position.from_text(text)
    assert position.legal_moves() == [PASS] and not position.is_terminal()
    with pytest.raises(IllegalMoveError, match="h8: X has no move and must pass"):
        position.apply(parse_move("h8"))
    passed = position.apply(PASS)
    assert passed.to_move is Color.WHITE
    assert [square_name(m) for m in passed.legal_moves()] == ["a3", "b4", "d6"]
    over = Position.from_text("X" * 63 + "- O")
    assert over.legal_moves() == [] and over.is_terminal()
    assert over.current_player() == TERMINAL
    assert over.score() == 64 and over.returns() == (1.0, -1.0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        over.apply(PASS)
    with pytest.raises(IllegalMoveError, match="game is over"):
        over.apply(parse_move("h8"))
    draw = Position.from_text("X" * 32 + "O" * 32 + "X")
    assert draw.score() == 0 and draw.returns() == (0.0, 0.0) and draw.winner() is None


def test_full_game_replays() -> None:
    moves, positions = random_game(7, 200)
    assert positions[-1].is_terminal()
    assert replay(moves) == positions
    black, white = positions[-1].disc_count()
    assert positions[-1].score() == (
        black - white + (64 - black - white) * (1 if black > white else -1 if white > black else 0)
    )


# --- properties on random positions ------------------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32 - 1)
plies = st.integers(min_value=0, max_value=70)


@settings(max_examples=60, deadline=None)
@given(seeds, plies)
def test_moves_add_one_disc_and_flip_only_bracketed_discs(seed: int, n: int) -> None:
    _, positions = random_game(seed, n)
    position = positions[-1]
    mover = position.to_move
    for move in position.legal_moves():
        child = position.apply(move)
        if move == PASS:
            assert child.to_move is mover.other
            assert (child.black, child.white) == (position.black, position.white)
            continue
        flipped = bits(position.flips(move))
        assert flipped == expected_flips(position, move) and flipped
        before = position.disc_count()
        after = child.disc_count()
        gained = len(flipped) + 1
        if mover is Color.BLACK:
            assert after == (before[0] + gained, before[1] - len(flipped))
        else:
            assert after == (before[0] - len(flipped), before[1] + gained)
        assert bits(child.mine ^ position.theirs) == flipped  # only those discs changed colour


@settings(max_examples=60, deadline=None)
@given(seeds, plies)
def test_pass_only_without_a_move(seed: int, n: int) -> None:
    _, positions = random_game(seed, n)
    position = positions[-1]
    has_move = any(position.flips(sq) for sq in range(64))
    legal = position.legal_moves()
    if has_move:
        assert PASS not in legal
        occupied = position.black | position.white
        assert legal == [
            sq for sq in range(64) if not occupied >> sq & 1 and expected_flips(position, sq)
        ]
    else:
        opponent = Position(position.black, position.white, position.to_move.other)
        assert legal == ([PASS] if opponent.move_mask() else [])
        assert position.is_terminal() == (legal == [])


@settings(max_examples=100, deadline=None)
@given(seeds, plies)
def test_kernels_agree_with_pure_python(seed: int, n: int) -> None:
    _, positions = random_game(seed, n)
    position = positions[-1]
    for me, them in ((position.mine, position.theirs), (position.theirs, position.mine)):
        p, o = np.uint64(me), np.uint64(them)
        mask = Position(me, them, Color.BLACK).move_mask()
        assert int(kernels.legal_moves(p, o)) == mask
        for sq in range(64):
            if (me | them) >> sq & 1:
                continue
            expected = board_module._flips(me, them, sq)
            assert int(kernels.flips(p, o, sq)) == expected
            if expected:
                new_p, new_o = kernels.play(p, o, sq)
                assert (int(new_p), int(new_o)) == (me | expected | 1 << sq, them ^ expected)
        assert kernels.popcount(p) == me.bit_count()


@settings(max_examples=40, deadline=None)
@given(seeds, plies, seeds)
def test_stable_discs_never_flip(seed: int, n: int, later: int) -> None:
    """Every disc the stability kernel calls stable keeps its colour to the end of the game."""
    _, positions = random_game(seed, n + 8)
    position = positions[-1]
    p, o = np.uint64(position.mine), np.uint64(position.theirs)
    stable_mine = int(kernels.stable_discs(p, o))
    stable_theirs = int(kernels.stable_discs(o, p))
    assert stable_mine & ~position.mine == 0 and stable_theirs & ~position.theirs == 0
    rng = random.Random(later)
    for _ in range(3):  # three random continuations to the end
        current = position
        while current.legal_moves():
            current = current.apply(rng.choice(current.legal_moves()))
        same = current.to_move is position.to_move
        now_mine = current.mine if same else current.theirs
        now_theirs = current.theirs if same else current.mine
        assert stable_mine & ~now_mine == 0
        assert stable_theirs & ~now_theirs == 0


def test_stable_discs_examples() -> None:
    full = Position.from_text("X" * 64 + "X")
    assert int(kernels.stable_discs(np.uint64(full.mine), np.uint64(0))) == full.mine
    corner = Position.from_text("XXO" + "-" * 61 + "X")  # a1, b1 stable; c1 is white's
    assert int(kernels.stable_discs(np.uint64(corner.mine), np.uint64(corner.theirs))) == 0b11
    assert int(kernels.stable_discs(np.uint64(corner.theirs), np.uint64(corner.mine))) == 0


@settings(max_examples=40, deadline=None)
@given(seeds, plies)
def test_ordered_moves_lists_every_legal_move(seed: int, n: int) -> None:
    _, positions = random_game(seed, n)
    position = positions[-1]
    out = np.zeros(32, dtype=np.int64)
    count = kernels.ordered_moves(np.uint64(position.mine), np.uint64(position.theirs), out)
    assert sorted(out[:count].tolist()) == _squares(position.move_mask())


def _squares(mask: int) -> list[int]:
    return [sq for sq in range(64) if mask >> sq & 1]


# --- text round trips --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=100))
def test_transcript_and_text_round_trip(seed: int, n: int) -> None:
    moves, positions = random_game(seed, n)
    while moves and moves[-1] == PASS:  # a trailing pass is only implied by a later move
        moves.pop()
        positions.pop()
    text = format_transcript(moves)
    assert "pass" not in text and len(text) == 2 * sum(m != PASS for m in moves)
    assert parse_transcript(text) == moves
    assert parse_transcript(" ".join(square_name(m).upper() for m in moves)) == moves
    for position in positions:
        assert Position.from_text(position.text()) == position
        assert Position.from_text(position.text()).key() == position.key()


def test_transcript_from_another_start() -> None:
    moves, positions = random_game(11, 30)
    start = positions[10]
    tail = moves[10:]
    while tail and tail[-1] == PASS:
        tail.pop()
    assert parse_transcript(format_transcript(tail), start) == tail


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f5d6c3z9", r"character 7: 'z9' is not a square"),
        ("f5 d6 c3 d4", r"character 10 \(ply 4\): d4 is already taken"),
        ("f5a1", r"character 3 \(ply 2\): a1 flips no disc"),
        ("f5 pass", r"character 4 \(ply 2\): O cannot pass"),
        ("f5d", r"character 3: 'd' is not a square"),
    ],
)
def test_bad_transcripts(text: str, message: str) -> None:
    with pytest.raises(TranscriptError, match=message):
        parse_transcript(text)


def test_replay_names_the_bad_ply() -> None:
    with pytest.raises(IllegalMoveError, match=r"ply 2 \(a1\)"):
        replay([parse_move("f5"), parse_move("a1")])
