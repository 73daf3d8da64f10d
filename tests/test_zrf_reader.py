"""The ZRF reader's first layers: text, macros, variants, includes and the board, each on
small ZRF texts of our own whose answers are worked out by hand."""

from __future__ import annotations

import pytest

from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.sexpr import DescriptionError
from game.logic.zrf.lexer import decode, read_zrf
from game.logic.zrf.load import design, forms, game_id, variants
from game.logic.zrf.macros import games

LINE = """(game (title "Line") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
    (dimensions ("a/b/c/d" (10 0)) ("2/1" (0 10)))
    (directions (e 1 0) (w -1 0) (n 0 -1) (s 0 1)))
    (kill-positions d2)
    (symmetry Black (e w) (w e))
    (zone (name goal) (players White) (positions d1))
    (zone (name goal) (players Black) (positions a1 a2)))
  (piece (name Man) (moves ((verify friend?) e (verify empty?) add)))
  (board-setup (White (Man a1)) (Black (Man d1))))"""


def test_windows_text_and_line_ends_are_read_with_their_lines() -> None:
    text = decode(b'(game\r\n  (title "Caf\xe9"))\r\n')
    (game,) = read_zrf(text, "t.zrf")
    assert str(game) == '(game (title "Café"))'
    assert game[1].line == 2 and game[1].column == 3


def test_a_list_left_open_at_the_end_is_closed_but_a_stray_close_or_string_is_refused() -> None:
    assert str(read_zrf("(game (players A B)", "t.zrf")[0]) == "(game (players A B))"
    with pytest.raises(DescriptionError, match=r"t.zrf:2:3: this '\)' closes nothing"):
        read_zrf("(a)\n  )", "t.zrf")
    with pytest.raises(DescriptionError, match=r"t.zrf:1:4: this string is never closed"):
        read_zrf('(a "b', "t.zrf")


def test_a_string_over_several_lines_keeps_the_lines_after_it_right() -> None:
    items = read_zrf('(help "one\n two\n three")\n(x)', "t.zrf")
    assert items[0][1].value == "one two three"
    assert (items[1].line, items[1].column) == (4, 1)


def test_macros_take_arguments_inside_words_and_text_and_only_a_list_head_calls() -> None:
    text = """(define hop ($1 $1-far $2 "w$1.bmp"))
              (define stay add)
              (game (moves (hop n) stay (stay)))"""
    (game,) = games(read_zrf(text, "t.zrf"))
    # $2 has no argument: it stays as written; the word stay alone is not a call.
    assert str(game) == '(game (moves (n n-far $2 "wn.bmp") stay add))'


def test_a_macro_that_calls_itself_is_refused_with_its_place() -> None:
    with pytest.raises(DescriptionError, match=r"t.zrf:1:\d+: macros call each other"):
        games(read_zrf("(define loop ((loop))) (game (loop))", "t.zrf"))


def test_a_variant_takes_what_it_does_not_give_from_the_first_game() -> None:
    text = """(game (title "A") (players X Y) (piece (name P) (moves (n))) (piece (name Q)))
              (variant (title "B") (piece (name P) (moves (s))))"""
    first, second = games(read_zrf(text, "t.zrf"))
    assert str(second) == (
        '(variant (players X Y) (piece (name Q)) (title "B") (piece (name P) (moves (s))))'
    )
    assert [v.title for v in variants(text, "t.zrf")] == ["A", "B"]
    assert first.head == "game"


def test_an_include_reads_through_the_callers_function_and_only_beside_the_file() -> None:
    wanted: list[str] = []

    def include(name: str) -> str:
        wanted.append(name)
        return "(define go-east (e))"

    east = LINE.replace("e (verify empty?)", "(go-east) (verify empty?)")
    text = '(include "common.zrf")\n' + east
    assert design(text, "line.zrf", include=include).board.names
    assert wanted == ["common.zrf"]
    with pytest.raises(DescriptionError, match=r"line\.zrf:1:1: the included file '\.\./x\.zrf'"):
        variants('(include "../x.zrf")' + LINE, "line.zrf", include)
    with pytest.raises(DescriptionError, match="cannot read the included file"):
        variants('(include "common.zrf")' + LINE, "line.zrf")


def test_the_board_grid_kill_positions_one_way_symmetry_and_zones() -> None:
    d = design(LINE, "line.zrf")
    board = d.board
    assert board.names == ("a2", "a1", "b2", "b1", "c2", "c1", "d1")
    assert board.xy[board.index("a1")] == (0, 0) and board.xy[board.index("d1")] == (3, 0)
    e, w = board.directions.index("e"), board.directions.index("w")
    assert board.links[e][board.index("c2")] == -1  # d2 is killed
    assert board.links[e][board.index("c1")] == board.index("d1")
    assert board.symmetry[1][e] == w and board.symmetry[1][w] == e
    assert board.zones["goal"][0] == {board.index("d1")}
    assert board.zones["goal"][1] == {board.index("a1"), board.index("a2")}


def test_each_side_walks_its_own_east_until_the_men_meet() -> None:
    rulebook = made_rulebook(design(LINE, "line.zrf"))
    # White's man steps a1-b1; Black's "east" is west: d1-c1; then White is blocked.
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3)] == [1, 1, 0]


def test_the_game_id_and_a_variant_out_of_range() -> None:
    assert game_id("/x/Line.zrf", 0) == "zrf-line"
    with pytest.raises(DescriptionError, match="the file has 1 games: variant 0 to 0"):
        forms(LINE, "line.zrf", 3)


def test_a_form_not_read_yet_is_named_with_its_place() -> None:
    text = LINE.replace("(board-setup", "(frobnicate 1) (board-setup")
    with pytest.raises(DescriptionError, match=r"line.zrf:10:\d+: the game form \(frobnicate"):
        design(text, "line.zrf")


def test_a_variant_written_before_the_game_still_completes_itself_from_the_game() -> None:
    text = """(variant (title "Small") (piece (name P) (moves (s))))
              (game (title "Big") (players X Y) (piece (name P) (moves (n))))"""
    small, big = games(read_zrf(text, "t.zrf"))
    assert str(small) == '(variant (players X Y) (title "Small") (piece (name P) (moves (s))))'
    assert big.head == "game"


def test_add_onto_a_piece_of_ones_own_takes_it_as_zillions_does() -> None:
    text = LINE.replace("(verify friend?) e (verify empty?) add", "e add").replace(
        "(White (Man a1))", "(White (Man a1 b1))"
    )
    rulebook = made_rulebook(design(text, "line.zrf"))
    pos = rulebook.start()
    moves = {m[0]: m[1] for m in rulebook.legal(pos)}
    a1, b1, c1 = (rulebook.design.board.index(n) for n in ("a1", "b1", "c1"))
    assert moves == {(a1, b1): (b1,), (b1, c1): ()}


def test_opposite_steps_back_along_the_direction() -> None:
    text = LINE.replace("(verify friend?) e (verify empty?) add", "e e (opposite e) add")
    rulebook = made_rulebook(design(text, "line.zrf"))
    a1, b1 = (rulebook.design.board.index(n) for n in ("a1", "b1"))
    assert [m[0] for m in rulebook.legal(rulebook.start())] == [(a1, b1)]


def test_a_piece_that_captures_itself_where_it_stands_leaves_the_board() -> None:
    # Konane's first move: (capture add) on the stone's own square removes it.
    text = LINE.replace("(verify friend?) e (verify empty?) add", "capture add")
    rulebook = made_rulebook(design(text, "line.zrf"))
    pos = rulebook.start()
    (move,) = rulebook.legal(pos)
    rulebook.make(pos, move)
    a1 = rulebook.design.board.index("a1")
    assert pos.board[a1] == 0 and sum(1 for v in pos.board if v) == 1


SQUARE = """(game (title "Square") (players White Black) (turn-order White Black)
  (board (grid (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (ne 1 -1) (s 0 1) (nw -1 -1))))
  (piece (name Man) (moves (move-type jump)
    (ne (verify enemy?) capture ne (verify empty?) (add-partial jump))
    (s (verify enemy?) capture s (verify empty?) (add-partial jump))
    (nw (verify not-empty?) nw (verify empty?) (add-partial jump))))
  (board-setup (White (Man a1)) (Black (Man b2 c2))))"""


def test_a_partial_move_goes_on_from_the_board_its_parts_made() -> None:
    rulebook = made_rulebook(design(SQUARE, "square.zrf"))
    names = rulebook.design.board.names
    moves = [[names[p] for p in m[0]] for m in rulebook.legal(rulebook.start())]
    # a1 takes b2 landing on c3, then c2 landing on c1; the hop from c1 over b2 to a3
    # finds b2 already taken, so the move ends on c1.
    assert moves == [["a1", "c3", "c1"]]


def test_what_zillions_forgives_an_unused_argument_a_second_setup_a_type_never_continued() -> None:
    text = (
        LINE.replace(
            "(moves ((verify friend?) e (verify empty?) add))",
            "(moves (e (verify empty?) add) (w $2 add) (e e (add-partial nothing)))",
        )
        .replace("(White (Man a1))", "(White (Man a1) (Man b1) (Man a1))")
        .replace("(piece (name Man)", "(piece (name Man) (moves)) (piece (name Man)")
    )
    rulebook = made_rulebook(design(text, "line.zrf"))
    names = rulebook.design.board.names
    # A $2 no call gave fails its move; a1 set up twice holds one man; a continuation of a
    # type no move has ends the move; the piece declared again is the last declaration.
    moves = sorted("-".join(names[p] for p in m[0]) for m in rulebook.legal(rulebook.start()))
    assert moves == ["a1-c1", "b1-c1", "b1-d1"]


def test_a_move_type_that_move_priorities_leaves_out_never_starts_a_move() -> None:
    two_types = (
        "(moves (move-type a) (w (verify empty?) add)"
        " (move-type b) ((verify friend?) e (verify empty?) add))"
    )
    text = LINE.replace("(moves ((verify friend?) e (verify empty?) add))", two_types)
    listed = text.replace(
        "(turn-order White Black)", "(turn-order White Black) (move-priorities a b)"
    )
    alone = text.replace("(turn-order White Black)", "(turn-order White Black) (move-priorities a)")
    # a1 has no west: type a has no move; b gives a1-b1 only where the list holds b.
    counts = []
    for made in (listed, alone):
        rulebook = made_rulebook(design(made, "line.zrf"))
        counts.append(rulebook.perft(rulebook.start(), 1))
    assert counts == [1, 0]


def test_a_zone_written_where_a_move_steps_is_refused_naming_it() -> None:
    text = LINE.replace("e (verify empty?) add", "goal (verify empty?) add")
    with pytest.raises(DescriptionError, match=r"t.zrf:9:46: the zone 'goal' stands where"):
        design(text, "t.zrf")
