"""Numbers in move programs (game/logic/rules/piece_numbers.py): a piece's whole-number
attributes, tallies read and changed by a move, arithmetic and comparisons. Each form is
read, compiled and played; make and unmake restore what a move changed; the key and the
position text hold it; a malformed use is refused at its file, line and column."""

from __future__ import annotations

import random

import pytest

from game.logic.contract import NotationError
from game.logic.rules import tree
from game.logic.rules.catalogue import rulebook
from game.logic.rules.design import parse
from game.logic.rules.notation import position_text, read_position
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError

#: A 4 x 4 race: a Runner steps forward or sideways; it counts its own steps (at most
#: three), each player counts theirs, the game counts every move, and each square counts
#: the pieces that stopped on it (a square stopped on twice is closed). A Runner takes a
#: piece whose strength is at most its own.
GAME = """(game numbers)
(players White Black)
(board (grid (columns a b c d) (rows 1 2 3 4))
  (directions (n 0 1) (e 1 0) (w -1 0) (s 0 -1))
  (symmetry Black (n s)))
(tally steps per-player)
(tally moves (start 5))
(tally visits per-square)
(define (go d)
  d (verify (< (tally visits) 2)) (verify (< (number walked moving) 3))
  (verify (or empty (and enemy (<= (number strength) (number strength moving)))))
  (add-number walked 1) (add-tally steps 1) (add-tally moves (+ 1 (* 0 (tally steps theirs))))
  (add-tally visits 1) add)
(piece Runner (letter "R") (number walked 0 (range 0 3)) (number strength 2)
  (moves (go n) (go e) (go w)))
(piece Weak (letter "W") (number strength 1) (moves (go n)))
(setup (White (Runner a1 b1) (Weak c1)) (Black (Runner a4 b4) (Weak d4)))
(end (win (>= (tally steps) 6)) (draw stuck))
"""


def _book(text: str = GAME) -> Rulebook:
    return Rulebook(parse(text, "t.txt"))


def _move(book: Rulebook, pos, start: str, end: str):  # type: ignore[no-untyped-def]
    names = book.design.board.names
    path = (names.index(start), names.index(end))
    return next(m for m in book.legal(pos) if m[0] == path)


def _num(book: Rulebook, name: str, v: int) -> int:
    names = [p for piece in book.design.pieces for p, *_ in piece.numbers]
    k = list(dict.fromkeys(names)).index(name)
    return int(book.c.namespace[f"NUM{k}"][v])  # type: ignore[attr-defined]


def test_the_forms_read_to_a_tree_that_prints_back() -> None:
    book = _book()
    body = book.design.pieces[0].programs[0].tree
    shown = tree.text(body)
    assert "(verify (< (number walked moving) 3))" in shown
    assert "(add-tally moves (+ 1 (* 0 (tally steps theirs))))" in shown
    assert "(verify (or empty (and enemy (<= (number strength) (number strength moving)))))" in (
        shown
    )
    assert "(add-number walked 1)" in shown and "(add-tally visits 1)" in shown


def test_a_piece_starts_with_its_types_numbers_and_a_move_adds_to_its_own() -> None:
    book = _book()
    pos = book.start()
    a1 = book.design.board.names.index("a1")
    assert (_num(book, "walked", pos.board[a1]), _num(book, "strength", pos.board[a1])) == (0, 2)
    saved = book.make(pos, _move(book, pos, "a1", "a2"))
    a2 = book.design.board.names.index("a2")
    v = pos.board[a2]
    assert (_num(book, "walked", v), _num(book, "strength", v), book.c.kind_of[v]) == (1, 2, 0)
    book.unmake(pos, saved)
    assert pos == book.start()


def test_a_number_at_the_end_of_its_range_stops_the_piece() -> None:
    book = _book()
    pos = book.start()
    names = book.design.board.names
    for start, end, reply in (("a1", "a2", "a4"), ("a2", "a3", "b4"), ("b1", "b2", "d4")):
        book.make(pos, _move(book, pos, start, end))
        book.make(pos, next(m for m in book.legal(pos) if m[0][0] == names.index(reply)))
    # a3 has walked twice: one more step, then it cannot move.
    a3 = book.design.board.names.index("a3")
    assert _num(book, "walked", pos.board[a3]) == 2
    assert any(m[0][0] == a3 for m in book.legal(pos))
    book.make(pos, _move(book, pos, "a3", "b3"))
    book.make(pos, book.legal(pos)[0])
    b3 = book.design.board.names.index("b3")
    assert _num(book, "walked", pos.board[b3]) == 3
    assert not any(m[0][0] == b3 for m in book.legal(pos))


def test_strength_decides_what_a_piece_may_take() -> None:
    book = _book()
    pos = read_position(
        book, "White: Runner b2, Weak c2 / Black: Runner b3, Weak c3 / White to move"
    )
    names = book.design.board.names
    takes = {(names[m[0][0]], names[m[0][-1]]) for m in book.legal(pos) if m[1]}
    assert takes == {("b2", "b3"), ("c2", "c3")}  # the Weak cannot take the Runner: none here
    pos = read_position(book, "White: Weak b2 / Black: Runner b3 / White to move")
    assert not [m for m in book.legal(pos) if m[1]]


def test_the_key_and_the_text_hold_a_pieces_numbers() -> None:
    book = _book()
    pos = book.start()
    book.make(pos, _move(book, pos, "a1", "a2"))
    text = position_text(book, pos)
    assert "a2{walked=1}" in text and "b1," not in text.split("/")[0] + ","
    again = read_position(book, text)
    assert again.board == pos.board
    plain = read_position(book, text.replace("a2{walked=1}", "a2"))
    assert plain.board != pos.board and book.key(plain) != book.key(again)
    with pytest.raises(NotationError, match="outside the range"):
        read_position(book, text.replace("walked=1", "walked=9"))
    with pytest.raises(NotationError, match="no number 'pace'"):
        read_position(book, text.replace("walked=1", "pace=1"))


def test_tallies_change_with_the_program_and_back_with_unmake() -> None:
    book = _book()
    pos = book.start()
    n = len(book.design.board.names)
    assert pos.tallies == (0, 0, 5, *([0] * n))
    rng = random.Random(3)
    steps = [0, 0]
    for _ in range(8):
        moves = book.legal(pos)
        if book.outcome(pos, moves) is not None:
            break
        move = rng.choice(moves)
        before, key = pos.tallies, book.key(pos)
        saved = book.make(pos, move)
        book.unmake(pos, saved)
        assert pos.tallies == before and book.key(pos) == key
        steps[book.player(pos)] += 1
        book.make(pos, move)
        assert pos.tallies[:3] == (*steps, 5 + sum(steps))
        assert pos.tallies[3 + move[0][-1]] >= 1
    other = pos.copy()
    other.tallies = (pos.tallies[0] + 1, *pos.tallies[1:])
    assert book.key(other) != book.key(pos)


def test_a_square_stopped_on_twice_is_closed() -> None:
    book = _book()
    pos = book.start()
    a2 = book.design.board.names.index("a2")
    visits = book.tally_slots["visits"]
    pos.tallies = (*pos.tallies[: visits + a2], 2, *pos.tallies[visits + a2 + 1 :])
    assert not any(m[0][-1] == a2 for m in book.legal(pos))


def test_a_per_player_tally_read_by_an_end_ends_the_game() -> None:
    book = _book()
    pos = book.start()
    rng = random.Random(5)
    while (outcome := book.outcome(pos, moves := book.legal(pos))) is None:
        book.make(pos, rng.choice(moves))
    assert outcome == "win" and max(pos.tallies[:2]) == 6


def test_ur_counts_the_pieces_borne_off_and_wins_at_seven() -> None:
    ur = rulebook("ur")
    pos = ur.start()
    rng = random.Random(2)
    while (outcome := ur.outcome(pos, moves := ur.legal(pos))) is None:
        ur.make(pos, rng.choice(moves))
    winner = ur.last_mover(pos)
    tray = ur.design.board.zones["tray"][winner]
    assert outcome == "win" and pos.tallies[winner] == 7
    assert sum(1 for p in tray if pos.board[p]) == 7


def test_a_game_without_numbers_keeps_its_piece_codes() -> None:
    chess = rulebook("chess")
    assert chess.c.codes == 1 + 2 * 6 * 2 and "NUM0" not in chess.c.namespace  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "(number walked moving)",
            "(number pace moving)",
            r"t\.txt:10:\d+: no piece has the number 'pace'",
        ),
        (
            "(add-number walked 1)",
            "(add-number strength 1)",
            r"t\.txt:12:\d+: the number 'strength' has no \(range",
        ),
        ("(tally visits)", "(tally trips)", r"t\.txt:10:\d+: no tally 'trips'"),
        ("(tally steps theirs)", "(tally steps mine)", r"t\.txt:12:\d+: \(tally NAME theirs\)"),
        (
            "(* 0 (tally steps theirs))",
            "(* 0 (tally visits theirs))",
            r"t\.txt:12:\d+: the tally 'visits' is not per-player",
        ),
        (
            "(< (tally visits) 2)",
            "(< (tally visits) 2 3)",
            r"t\.txt:10:\d+: \(< \.\.\.\) takes 2 arguments",
        ),
        (
            "(< (tally visits) 2)",
            "(< (tally visits) (/ 1 2))",
            r"t\.txt:10:\d+: a number is a whole number",
        ),
        (
            "(range 0 3)",
            "(range 1 3)",
            r"t\.txt:14:\d+: the start value 0 is outside the range 1\.\.3",
        ),
        (
            "(range 0 3)",
            "(range 0 99999)",
            r"t\.txt:14:\d+: the pieces' numbers make \d+ kinds of piece",
        ),
        (
            "(tally visits per-square)",
            "(tally visits per-square (add 1))",
            r"t\.txt:8:\d+: a per-square tally",
        ),
        (
            "(>= (tally steps) 6)",
            "(>= (tally visits) 6)",
            r"t\.txt:\d+:\d+: no tally 'visits' an end can read",
        ),
    ],
)
def test_a_malformed_use_is_refused_at_its_place(old: str, new: str, message: str) -> None:
    assert old in GAME
    with pytest.raises(DescriptionError, match=message):
        _book(GAME.replace(old, new, 1))


def test_banqi_ranks_are_numbers() -> None:
    banqi = rulebook("banqi")
    ranks = {p.name: p.numbers[0][1] for p in banqi.design.pieces if p.numbers}
    assert ranks == {
        "General": 7, "Advisor": 6, "Elephant": 5, "Chariot": 4, "Horse": 3, "Soldier": 1,
        "Cannon": 2,
    }  # fmt: skip


def test_the_generic_text_holds_the_tallies_that_differ_from_their_start() -> None:
    book = _book()
    pos = book.start()
    assert "tallies" not in position_text(book, pos)
    book.make(pos, _move(book, pos, "a1", "a2"))
    book.make(pos, _move(book, pos, "b4", "b3"))
    text = position_text(book, pos)
    assert "tallies: steps 1 1, moves 7, visits a2=1 b3=1" in text
    again = read_position(book, text)
    assert again.tallies == pos.tallies and book.key(again) == book.key(pos)
    with pytest.raises(NotationError, match="no tally 'trips'"):
        read_position(book, text.replace("visits", "trips"))
    with pytest.raises(NotationError, match="'steps 1': a tally's values"):
        read_position(book, text.replace("steps 1 1", "steps 1"))
    ur = rulebook("ur")
    pos = read_position(ur, "White: Piece w1 / Black: / tallies: off 1 0 / White to move / roll 2")
    assert pos.tallies == (1, 0) and pos.throw == (2,)
    assert read_position(ur, position_text(ur, pos)) == pos
