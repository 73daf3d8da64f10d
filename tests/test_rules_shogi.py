"""Shogi as described in game/logic/rules/games/shogi.txt, against cshogi: the perft counts of
the start, of positions set up to try the drop rules and of positions from seeded random
games (tests/data/shogi_perft.txt, written by tools/shogi_reference.py), each to the deepest
depth whose count stays under a node cap; and the hands, the drop rules, SFEN and the move
texts one at a time; lines of moves that repeat a position, ended where python-shogi counts
the fourth time and as cshogi judges it (tests/data/shogi_repetition.txt, written by
tools/shogi_repetition_reference.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.contract import NotationError
from game.logic.rules.catalogue import rulebook
from game.logic.rules.design import parse
from game.logic.rules.notation import move_texts, parse_move, position_text, read_position
from game.logic.rules.sexpr import DescriptionError
from tests.deep import sized
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data" / "shogi_perft.txt"
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: The largest count a test runs to.
NODE_CAP = sized(3_000, 1_000_000)


CASES = perft_cases(DATA)
REPEATS = [
    [part.strip() for part in line.split(";")]
    for line in (Path(__file__).parent / "data" / "shogi_repetition.txt").read_text().splitlines()
    if line and not line.startswith("#")
]


def test_the_data_holds_the_start_and_twenty_random_positions_with_hands_and_checks() -> None:
    assert CASES[0] == (START, [30, 900, 25470, 719731])  # the published counts
    assert len(CASES) >= 26
    in_hand = [s for s, _ in CASES if s.split()[2] != "-"]
    assert len(in_hand) >= 20
    e = rulebook("shogi")
    assert sum(e.in_check(read_position(e, s)) for s, _ in CASES) >= 5


@pytest.mark.parametrize(("sfen", "counts"), CASES, ids=[f"pos{i}" for i in range(len(CASES))])
def test_perft_matches_cshogi(sfen: str, counts: list[int]) -> None:
    check_perft(rulebook("shogi"), sfen, counts, NODE_CAP)


def test_sfen_reads_and_writes_the_start_as_cshogi_writes_it() -> None:
    e = rulebook("shogi")
    assert position_text(e, e.start()) == START
    assert e.key(read_position(e, START)) == e.key(e.start())


def _texts(sfen: str) -> list[str]:
    e = rulebook("shogi")
    pos = read_position(e, sfen)
    return move_texts(e, pos, e.legal(pos))


def test_a_pawn_drop_that_mates_is_refused_but_one_that_checks_is_not() -> None:
    # The king on 1a, its knight on 2a: P*1b checks; with the gold on 2c guarding 1b and
    # holding 2b it would mate, and is refused (uchifuzume).
    assert "P*1b" not in _texts("7nk/9/7G1/9/9/9/9/9/K8 b P 1")
    assert "P*1c" in _texts("7nk/9/7G1/9/9/9/9/9/K8 b P 1")
    assert "P*1b" in _texts("7nk/9/9/9/9/9/9/9/K8 b P 1")


def test_pawn_drops_keep_out_of_a_file_with_a_pawn_and_off_the_last_rank() -> None:
    texts = _texts("4k4/9/9/9/4P4/9/2+P6/9/4K4 b P 1")
    drops = {t for t in texts if t.startswith("P*")}
    assert not any(t[2] == "5" for t in drops)  # nifu: the pawn on 5e
    assert "P*7h" in drops  # a tokin is no pawn
    assert not any(t.endswith("a") for t in drops)  # it could never move from rank a
    knights = {t for t in _texts("4k4/9/9/9/9/9/9/9/4K4 b N 1") if t.startswith("N*")}
    assert knights and not any(t[-1] in "ab" for t in knights)


def test_a_captured_piece_goes_to_the_captors_hand_unpromoted() -> None:
    e = rulebook("shogi")
    # Black's rook on 5e takes White's dragon (+R) on 5c.
    pos = read_position(e, "4k4/9/4+r4/9/4R4/9/9/9/K8 b - 1")
    moves = e.legal(pos)
    texts = move_texts(e, pos, moves)
    e.make(pos, parse_move(e, pos, moves, texts, "5ex5c"))
    assert position_text(e, pos) == "4k4/9/4R4/9/9/9/9/9/K8 w R 2"
    assert "R*5d" not in move_texts(e, pos, e.legal(pos))  # White's turn: not its rook
    assert read_position(e, "4k4/9/9/9/9/9/9/9/K8 w r 2").hands == (
        (0,) * 14,
        (0,) * 6 + (1,) + (0,) * 7,
    )


def test_promotion_is_optional_in_the_camp_and_forced_where_no_move_is_left() -> None:
    texts = _texts("4k4/P1L3N2/9/2N6/9/9/9/9/4K4 b - 1")
    assert "9b-9a+" in texts and "9b-9a" not in texts  # a pawn on the last rank
    assert "7b-7a+" in texts and "7b-7a" not in texts  # a lance too
    assert "7d-8b+" in texts and "7d-8b" not in texts  # a knight on the last two ranks
    slides = _texts("3k5/1R3S3/9/5B3/9/9/9/9/4K4 b - 1")
    assert {"8b-8f", "8b-8f+", "4d-6b", "4d-6b+", "4b-3c", "4b-3c+"} <= set(slides)
    assert "4d-3e+" not in slides  # neither end in the camp


def test_a_bad_sfen_says_what_is_wrong() -> None:
    e = rulebook("shogi")
    with pytest.raises(NotationError, match="row 1 of the SFEN has 8 squares"):
        read_position(e, "8/9/9/9/9/9/9/9/4K4 b - 1")
    with pytest.raises(NotationError, match="unknown piece"):
        read_position(e, "4k4/9/9/9/9/9/9/9/4K4 b Q 1")
    with pytest.raises(NotationError, match="side to move"):
        read_position(e, "4k4/9/9/9/9/9/9/9/4K4 x - 1")


def test_two_types_promoting_to_one_cannot_go_to_hand() -> None:
    text = """(game twin) (players A B)
    (board (grid (size 3 3)) (directions (n 0 1)))
    (piece X (moves (move up n (verify empty) (promote Z) add)))
    (piece Y (moves (move up n (verify empty) (promote Z) add)))
    (piece Z (moves (move up n (verify empty) add)))
    (rules (captures-to-hand)) (end (win stuck))"""
    with pytest.raises(
        DescriptionError,
        match=r"^twin.txt:4:\d+: with \(captures-to-hand\), Z would go to a hand as X or Y",
    ):
        parse(text, "twin.txt")


@pytest.mark.parametrize(("sfen", "cycle", "end"), REPEATS, ids=[r[0] for r in REPEATS])
def test_a_fourth_repetition_ends_where_and_as_python_shogi_and_cshogi_say(
    sfen: str, cycle: str, end: str
) -> None:
    e = rulebook("shogi")
    pos = read_position(e, sfen)
    moves = cycle.split()
    ply, outcome = end.split()
    for i in range(int(ply)):
        assert e.outcome(pos, None) is None, f"ended before ply {i + 1}"
        legal = e.legal(pos)
        e.make(pos, parse_move(e, pos, legal, move_texts(e, pos, legal), moves[i % len(moves)]))
    assert e.outcome(pos, None) == outcome


def test_the_data_has_perpetual_checks_by_either_side_and_a_cycle_through_drops() -> None:
    ends = [r[2].split()[1] for r in REPEATS]
    assert {"win", "loss", "draw"} <= set(ends)
    assert any("*" in r[1] and r[2].endswith("draw") for r in REPEATS)


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        ("(perpetual-check 1)", "a number from 2 to 10000, not 1"),
        ("(perpetual-check 4 mine)", r"\(perpetual-check N theirs\)"),
    ],
)
def test_a_bad_perpetual_check_says_where(condition: str, message: str) -> None:
    text = f"""(game p) (players A B)
    (board (grid (size 3 3)) (directions (n 0 1)))
    (piece X (moves (move up n (verify empty) add)))
    (end (loss {condition}))"""
    with pytest.raises(DescriptionError, match=rf"^p.txt:4:\d+: .*{message}"):
        parse(text, "p.txt")


def test_the_search_scores_a_cycle_of_checks_as_lost_for_the_checker_at_its_first_return() -> None:
    from game.logic.rules.perpetual import repeat_outcome

    e = rulebook("shogi")
    for sfen, cycle, end in REPEATS[:5]:
        pos = read_position(e, sfen)
        for text in cycle.split():
            legal = e.legal(pos)
            e.make(pos, parse_move(e, pos, legal, move_texts(e, pos, legal), text))
        assert repeat_outcome(e, pos) == end.split()[1], sfen  # one cycle, as after four
