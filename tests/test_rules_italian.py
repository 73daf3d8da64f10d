"""Italian draughts as described in game/logic/rules/games/italian-draughts.txt, and the
``(prefer ...)`` rule it is written with: perft against pydraughts from the start and from
positions of seeded random games (tests/data/italian_perft.txt, written by
tools/italian_reference.py), and the same check of the Russian, Brazilian and English
descriptions as a second opinion; each count to the deepest depth under a node cap (all of
them with ``GAMEHALL_DEEP``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.rules.catalogue import path_of, rulebook
from game.logic.rules.design import parse
from game.logic.rules.notation import move_texts, read_position
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError
from tests.deep import sized
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data"
#: The largest count a test runs to.
NODE_CAP = sized(2_000, 10**9)
#: The same for the second opinions on games checked elsewhere already.
SECOND_CAP = sized(300, 10**9)
#: pydraughts' name of each variant checked, and the shipped game it checks.
GAMES = {
    "italian": "italian-draughts",
    "russian": "russian-draughts",
    "brazilian": "brazilian-draughts",
    "english": "english-draughts",
}


def _cases(variant: str) -> list[tuple[str, list[int]]]:
    return perft_cases(DATA / f"{variant}_perft.txt")


CASES = [(v, fen, counts) for v in GAMES for fen, counts in _cases(v)]


def test_the_data_holds_the_start_and_twenty_random_positions_of_each_variant() -> None:
    italian = _cases("italian")
    assert italian[0][1][:4] == [7, 49, 302, 1469]
    assert len(italian) >= 21 and all(len(_cases(v)) >= 21 for v in GAMES)
    assert sum(1 for fen, _ in italian if "K" in fen) >= 10  # kings, where the keys decide


@pytest.mark.parametrize(
    ("variant", "fen", "counts"), CASES, ids=[f"{v}{i}" for i, (v, _, _) in enumerate(CASES)]
)
def test_perft_matches_pydraughts(variant: str, fen: str, counts: list[int]) -> None:
    check_perft(
        rulebook(GAMES[variant]), fen, counts, NODE_CAP if variant == "italian" else SECOND_CAP
    )


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("W:W22:BK18", ["22-19"]),  # a man does not capture a king
        ("W:W22:B18", ["22x13"]),
        ("B:WK23,15:BK27,K19", ["27x20x11"]),  # the most pieces
        ("W:W32,25,27,28,14,15,K6:B10", ["6x13"]),  # with the king, not the man
        ("B:W32,18,10,K11,8:BK14", ["14x7"]),  # the most kings
        ("W:WK14,12,K8:B26,K27,17,18,K19,13", ["14x23x30x21x14"]),  # a king first
    ],
)
def test_each_key_of_the_capture_choice(fen: str, moves: list[str]) -> None:
    e = rulebook("italian-draughts")
    pos = read_position(e, fen)
    assert move_texts(e, pos, e.legal(pos)) == moves


def test_the_board_is_numbered_from_the_top_left_corner_and_its_bottom_left_is_light() -> None:
    board = rulebook("italian-draughts").design.board
    assert board.names[board.names.index("1")] == "1"
    assert board.xy[board.names.index("1")] == (0.0, 7.0)  # a8
    assert board.xy[board.names.index("32")] == (7.0, 0.0)  # h1
    assert (0.0, 0.0) not in board.xy
    assert board.dark == frozenset(range(32))  # the squares played on are drawn dark


def test_most_captures_keeps_the_moves_of_prefer_most_captured() -> None:
    text = path_of("brazilian-draughts").read_text(encoding="utf-8")
    assert "(most-captures)" in text
    e = Rulebook(parse(text.replace("(most-captures)", "(prefer (most captured))"), "b.txt"))
    for fen, counts in _cases("brazilian")[:8]:
        check_perft(e, fen, counts, 500)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("(prefer (most Queen))", r"i\.txt:\d+:\d+: expected captured or"),
        ("(prefer (most (captured Queen)))", r"i\.txt:\d+:\d+: no piece type 'Queen'"),
        ("(prefer (earliest (moving King)))", r"i\.txt:\d+:\d+: \(earliest \.\.\.\) reads"),
        ("(prefer (best captured))", r"i\.txt:\d+:\d+: a key is \(most MEASURE\)"),
        ("(prefer)", r"i\.txt:\d+:\d+: \(prefer \.\.\.\) takes 1 to 8 arguments"),
    ],
)
def test_a_bad_key_is_refused_with_its_place(rule: str, message: str) -> None:
    text = path_of("italian-draughts").read_text(encoding="utf-8")
    start = text.index("(prefer")
    end = text.index(")))", start) + 3  # (earliest (captured King)) and (prefer
    with pytest.raises(DescriptionError, match=message):
        parse(text[:start] + rule + text[end:], "i.txt")


def test_pydraughts_start_position_reads_as_the_start() -> None:
    e = rulebook("italian-draughts")
    start = _cases("italian")[0][0]
    assert start.startswith("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,")
    assert e.key(read_position(e, start)) == e.key(e.start())
