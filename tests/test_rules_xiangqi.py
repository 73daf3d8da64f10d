"""Xiangqi as described in game/logic/rules/games/xiangqi.txt, against Fairy-Stockfish: the
perft counts of the start and the ten published test positions (tests/data/xiangqi_perft.txt,
written by tools/xiangqi_reference.py), each to the deepest depth whose count stays under a
node cap so that CI stays short; the deeper ones are in benchmarks/rules_perft.py."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.notation import move_texts, position_text, read_position
from game.logic.rules.state import RulesGame
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data" / "xiangqi_perft.txt"
#: The largest count a test runs to.
NODE_CAP = 25_000


CASES = perft_cases(DATA)


def test_the_data_holds_the_start_and_the_ten_published_positions() -> None:
    assert len(CASES) == 11
    assert CASES[0][1][:3] == [44, 1920, 79666]
    assert all(len(counts) >= 3 for _, counts in CASES)


@pytest.mark.parametrize(("fen", "counts"), CASES, ids=[f"pos{i}" for i in range(len(CASES))])
def test_perft_matches_fairy_stockfish(fen: str, counts: list[int]) -> None:
    check_perft(rulebook("xiangqi"), fen, counts, NODE_CAP)


def test_the_generals_may_not_face_each_other() -> None:
    e = rulebook("xiangqi")
    # Red's general on d1, Black's on e10 and nothing between them on the e-file: Red's
    # general may not step to e1.
    pos = read_position(e, "4k4/9/9/9/9/9/9/9/9/3K5 w")
    texts = move_texts(e, pos, e.legal(pos))
    assert "d1-e1" not in texts and "d1-d2" in texts


def test_a_player_without_a_move_loses_even_when_not_in_check() -> None:
    # Black's general on e10: the chariot on a9 holds e9, the one on f2 holds f10, and d10
    # would face Red's general on d1. Black is not in check and cannot move: Red has won.
    e = rulebook("xiangqi")
    fen = "4k4/R8/9/9/9/9/9/9/5R3/3K5 b"
    assert not e.in_check(read_position(e, fen))
    state = RulesGame(e, {"position": fen}).initial_state(random.Random(0))
    assert state.is_terminal()
    assert state.returns() == (1.0, -1.0)


def test_the_start_position_reads_and_writes_as_fairy_stockfish_writes_it() -> None:
    e = rulebook("xiangqi")
    start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
    assert position_text(e, e.start()).startswith(start + " ")
    assert e.key(read_position(e, start)) == e.key(e.start())
