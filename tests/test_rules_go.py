"""Go as described (``games/go.txt``): groups captured when their last liberty goes, suicide
refused, simple ko, passes, area scoring with komi, SGF positions, and move counts equal to
OpenSpiel's (``tests/data/go_perft.txt``, written by ``tools/go_reference.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from game.logic.contract import NotationError
from game.logic.rules.catalogue import rulebook, rulebook_for_text
from game.logic.rules.design import parse
from game.logic.rules.group_rulebook import GroupRulebook
from game.logic.rules.notation import position_text, read_position
from game.logic.rules.position import PASS, DescribedPosition
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.sgf_position import point_name
from tests.deep import sized

DATA = Path(__file__).parent / "data" / "go_perft.txt"


def _cases() -> list[tuple[int, list[str], list[int]]]:
    out = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        size, moves, counts = (part.strip() for part in line.split(";"))
        out.append((int(size), moves.split(), [int(c) for c in counts.split()]))
    return out


def _book(size: int) -> GroupRulebook:
    book = rulebook("go", {"size": size} if size != 9 else None)
    assert isinstance(book, GroupRulebook)
    return book


def _played(book: GroupRulebook, moves: list[str]) -> DescribedPosition:
    pos = book.start()
    for text in moves:
        legal = book.legal(pos)
        if text == "-":
            move = PASS
        else:
            at = point_name(book, text)
            move = next(m for m in legal if m[0] == (at,))
        assert move in legal, text
        book.make(pos, move)
    return pos


CASES = _cases()


def test_the_data_has_the_start_and_twenty_random_positions() -> None:
    assert len(CASES) >= 23
    assert sum(1 for _, moves, _ in CASES if moves) >= 20


@pytest.mark.parametrize("case", range(len(CASES)))
def test_counts_equal_openspiel(case: int) -> None:
    size, moves, counts = CASES[case]
    book = _book(size)
    pos = _played(book, moves)
    deepest = sized(2, 3) if size == 9 else sized(1, 2)
    for depth, expected in enumerate(counts[:deepest], start=1):
        assert book.perft(pos, depth) == expected, (size, len(moves), depth)


def _at(book: GroupRulebook, sgf: str) -> DescribedPosition:
    pos = read_position(book, sgf)
    book.begin(pos)
    return pos


def _play(book: GroupRulebook, pos: DescribedPosition, point: str) -> None:
    at = point_name(book, point)
    book.make(pos, next(m for m in book.legal(pos) if m[0] == (at,)))


def _drops(book: GroupRulebook, pos: DescribedPosition) -> set[str]:
    names = book.design.board.names
    return {names[m[0][0]] for m in book.legal(pos) if m[0]}


def _variant(old: str, new: str) -> GroupRulebook:
    text = (Path(__file__).parents[1] / "game/logic/rules/games/go.txt").read_text()
    assert old in text
    book = rulebook_for_text(text.replace(old, new), "go-variant.txt", {"size": 5})
    assert isinstance(book, GroupRulebook)
    return book


#: A ko on 5 x 5: White's b3 stone stands in Black's eye, Black's c3 would stand in White's.
KO = "SZ[5]AB[bb][ac][bd]AW[cb][dc][cd][bc]PL[B]"


def test_a_group_without_liberties_is_captured_and_counted() -> None:
    book = _book(9)
    pos = _at(book, "AB[df][dg][ff][fg][eh]AW[ef][eg]PL[B]")  # White's e4-e3, one liberty
    move = next(m for m in book.legal(pos) if m[0] == (point_name(book, "ee"),))
    assert sorted(move[1]) == sorted(point_name(book, p) for p in ("ef", "eg"))
    book.make(pos, move)
    assert not pos.board[point_name(book, "ef")] and not pos.board[point_name(book, "eg")]
    assert book.captured(pos) == (2, 0)


def test_suicide_is_refused_unless_it_captures() -> None:
    book = _book(9)
    assert "a9" not in _drops(book, _at(book, "AB[ba][ab]PL[W]"))  # Black's corner eye
    # With White beside them, b9 and a8 have a9 as their last liberty: a9 takes them.
    pos = _at(book, "AB[ba][ab]AW[ca][bb][ac]PL[W]")
    assert "a9" in _drops(book, pos)
    _play(book, pos, "aa")
    assert book.captured(pos) == (0, 2)


def test_suicide_removed_takes_the_own_group_off() -> None:
    book = _variant("(suicide forbidden)", "(suicide removed)")
    pos = _at(book, "SZ[5]AB[ba][ab]PL[W]")
    before = list(pos.board)
    _play(book, pos, "aa")
    assert pos.board == before


def test_simple_ko_forbids_the_retake_until_another_move() -> None:
    book = _book(5)
    pos = _at(book, KO)
    take = next(m for m in book.legal(pos) if m[0] == (point_name(book, "cc"),))
    assert take[1] == (point_name(book, "bc"),)
    book.make(pos, take)
    assert "b3" not in _drops(book, pos)  # White may not retake at once
    _play(book, pos, "ee")
    _play(book, pos, "aa")
    assert "b3" in _drops(book, pos)  # after a move elsewhere it may


def test_positional_superko_and_a_repeated_board() -> None:
    superko = _variant("(ko simple)", "(ko superko)")
    pos = _at(superko, KO)
    _play(superko, pos, "cc")
    assert "b3" not in _drops(superko, pos)  # it would make the board before Black's take
    free = _variant("(ko simple)", "(ko none)")
    pos = _at(free, KO)
    _play(free, pos, "cc")
    _play(free, pos, "bc")  # allowed: the board repeats, which ends the game drawn
    assert free.outcome(pos, None) == "draw"


def test_two_passes_end_the_game_scored_by_area_with_komi() -> None:
    book = _book(9)
    pos = book.start()
    book.make(pos, PASS)
    assert book.outcome(pos, None) is None
    book.make(pos, PASS)
    assert book.outcome(pos, None) == "count"
    assert book.returns(pos, "count") == (-1.0, 1.0)  # komi 7.5 on an empty board
    # Black's wall on the e line, White's on the g line; the f line between is no one's.
    walls = "AB" + "".join(f"[e{r}]" for r in "abcdefghi") + "AW"
    pos = _at(book, walls + "".join(f"[g{r}]" for r in "abcdefghi") + "PL[W]")
    book.make(pos, PASS)
    book.make(pos, PASS)
    assert book.counts(pos) == [45, 27]
    assert book.score(pos) == 45 - 27 - 7.5
    assert book.returns(pos, "count") == (1.0, -1.0)


def test_sgf_positions_read_and_write() -> None:
    book = _book(9)
    pos = read_position(book, "(;GM[1]SZ[9]AB[dd][de]AW[ee]PL[W])")
    assert position_text(book, pos) == "SZ[9]AB[dd][de]AW[ee]PL[W]"
    assert pos.board[book.design.board.names.index("d6")]  # dd: 4th column, 4th row from top
    for bad in ("AB[zz]", "SZ[13]AB[aa]", "AB[dd", "PL[X]"):
        with pytest.raises(NotationError):
            read_position(book, bad)


def test_group_end_conditions_need_the_groups_rule() -> None:
    text = (Path(__file__).parents[1] / "game/logic/rules/games/hex.txt").read_text()
    text = text.replace("(end (win (connects first-side second-side)))", "(end (count two-passes))")
    with pytest.raises(DescriptionError, match=r"hex-copy.txt:\d+:\d+: this end condition needs"):
        parse(text, "hex-copy.txt")


@pytest.mark.parametrize(
    ("size", "marked"),
    [(5, set()), (9, {"c3", "g3", "e5", "c7", "g7"}), (13, {"d4", "j4", "g7", "d10", "j10"})],
)
def test_star_points_of_the_usual_boards(size: int, marked: set[str]) -> None:
    from game.games.rules.look import star_points

    book = _book(size)
    xy = np.array(book.design.board.xy, dtype="f4")
    assert {book.design.board.names[p] for p in star_points(xy)} == marked
    if size == 13:
        nineteen = _book(19)
        found = star_points(np.array(nineteen.design.board.xy, dtype="f4"))
        assert len(found) == 9 and nineteen.design.board.names.index("d4") in found


def test_the_computer_passes_to_win_after_the_opponents_pass() -> None:
    from game.logic.rules.group_play import GroupPlay

    book = _book(5)
    pos = book.start()
    book.make(pos, PASS)  # Black passes on the empty board: White's pass wins by komi
    play = GroupPlay(book)
    choice = play.choose(pos, book.legal(pos), games=300, deadline=None, stop=None)
    assert choice.move == PASS
    assert choice.reason.startswith("passes: White leads by 7.5")
    again = play.choose(pos, book.legal(pos), games=300, deadline=None, stop=None)
    assert again == choice  # seeded by the position
