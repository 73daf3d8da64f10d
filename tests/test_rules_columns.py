"""Columns of positions and stack layers (``(column ...)``, ``(NAME X Y LAYER)``) and the
board's look options (``(point-shape triangle)``, ``(dice-at X Y)``, ``(hand-at ZONE)``):
what they add to a board, the messages of their mistakes, and that backgammon, whose points
are columns, keeps its names and its moves."""

from __future__ import annotations

import pytest

from game.logic.rules.catalogue import design
from game.logic.rules.design import parse
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.sexpr import DescriptionError

PILES = """
(game piles)
(players A B)
(board
  (positions (a 0 0) (b 1 0) (t 3 0) (t2 3 0 1) (ha 2 0) (hb 2 1))
  (off-board ha hb)
  (directions (up 0 0) (down 0 0) (e 1 0))
  (column (a b) 7 (step 0 1) (fold 3) (track up down))
  (point-shape triangle)
  (dice-at 1.5 4)
  (zone bar (A ha) (B hb))
  (hand-at bar))
(piece Disc (shape disc) (moves (move climb up add)))
(setup (A (Disc a)))
(end (draw stuck))
"""


def _error(text: str) -> DescriptionError:
    with pytest.raises(DescriptionError) as caught:
        Rulebook(parse(text, "my.txt"))
    return caught.value


def test_a_column_adds_its_positions_layer_over_layer() -> None:
    board = parse(PILES, "piles.txt").board
    index = board.index
    assert [board.names[p] for p in board.look.columns[0].positions] == [
        "a",
        *(f"a.{k}" for k in range(2, 8)),
    ]
    # three to a layer: a.4 stands where a does, one layer up; a.7 on the third layer
    assert board.xy[index("a.4")] == board.xy[index("a")] == (0.0, 0.0)
    assert board.xy[index("a.3")] == (0.0, 2.0)
    layers = board.look.layer
    assert [layers[index(n)] for n in ("a", "a.3", "a.4", "a.6", "a.7", "t", "t2")] == [
        0, 0, 1, 1, 2, 0, 1
    ]  # fmt: skip
    up = board.directions.index("up")
    assert board.links[up][index("a.3")] == index("a.4")
    assert board.links[board.directions.index("down")][index("b.2")] == index("b")
    # a grid step reaches the first layer only: nothing stands beside a.4 one layer up
    east = board.directions.index("e")
    assert board.links[east][index("a")] == index("b")
    assert board.links[east][index("a.4")] == -1
    look = board.look
    assert (look.point_shape, look.dice_at) == ("triangle", (1.5, 4.0))
    assert [board.names[p] for p in look.hand_at] == ["ha", "hb"]


def test_a_board_without_the_look_options_looks_as_before() -> None:
    board = design("chess").board
    assert board.look.columns == () and board.look.layer == ()
    assert (board.look.point_shape, board.look.dice_at, board.look.hand_at) == ("dot", None, ())


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("(step 0 1) (fold 3) ", "(fold 3) ", "a column needs its (step DX DY)"),
        ("(column (a b)", "(column (a q)", "no position 'q' (place it with (positions ...)"),
        ("(fold 3)", "(fold 9)", "expected a number from 1 to 7, not 9"),
        ("(fold 3)", "(fold 3) (lean 2)", "expected (step DX DY), (fold N) or (track UP"),
        ("(track up down)", "(track up sideways)", "unknown direction 'sideways'"),
        ("(point-shape triangle)", "(point-shape star)", "a point's shape is dot or triangle"),
        ("(t2 3 0 1)", "(t2 3 0 99)", "expected a number from 0 to 15, not 99"),
        ("(t2 3 0 1)", "(t2 3 0 1 5)", "a position is (NAME X Y) or (NAME X Y LAYER)"),
        ("(hand-at bar)", "(hand-at moat)", "no zone 'moat'"),
        ("(zone bar (A ha) (B hb))", "(zone bar (A ha t) (B hb))", "a zone of one position"),
        ("(a b) 7", "(a b) 7 0", "expected (step DX DY), (fold N) or (track UP DOWN)"),
    ],
)
def test_mistakes_are_named_where_they_stand(old: str, new: str, says: str) -> None:
    assert old in PILES
    error = _error(PILES.replace(old, new, 1))
    assert says in str(error)
    assert str(error).startswith("my.txt:")


def test_triangles_need_columns() -> None:
    text = PILES.replace("(column (a b) 7 (step 0 1) (fold 3) (track up down))", "")
    text = text.replace("(move climb up add)", "(move climb (verify false) add)")
    assert "(point-shape ...) draws columns" in str(_error(text))


def test_backgammon_points_are_columns_with_their_old_names() -> None:
    board = design("backgammon").board
    assert len(board.look.columns) == 24
    assert all(len(c.positions) == 15 and c.fold == 5 for c in board.look.columns)
    names = set(board.names)
    assert {"p1", "p1.2", "p1.15", "p24.15", "w15", "b15", "wbar", "bbar"} <= names
    up = board.directions.index("up")
    assert board.links[up][board.index("p13.5")] == board.index("p13.6")
    assert board.look.layer[board.index("p13.6")] == 1
    assert board.look.layer[board.index("w11")] == 2
    assert [board.names[p] for p in board.look.hand_at] == ["wbar", "bbar"]
