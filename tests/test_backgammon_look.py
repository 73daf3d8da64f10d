"""Backgammon's board in the window: the points as filled triangles, checkers as wide as a
point, stacked five to a layer, the checkers on the bar piled on it, the dice on the board."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_board_controller import drawn, expected, index, open_board  # noqa: F401

#: White with seven on the 1-point (two on the second layer), four borne off and one on the
#: bar; Black with two on the bar.
POSITION = (
    "White: Checker p1 p1.2 p1.3 p1.4 p1.5 p1.6 p1.7 p3 p3.2 p5 w1 w2 w3 w4 / Black: Checker"
    " p24 p24.2 p24.3 p23 p23.2 p22 p21 p20 p19 p19.2 p19.3 p4 b1 / Black to move"
    " / in hand: White 1, Black 2 / roll 3-5"
)


@pytest.mark.gl
def test_the_board_shows_points_stacks_the_bar_and_the_dice(director, open_board):  # noqa: F811
    c = open_board("backgammon", position=POSITION)
    board = c.board
    assert board is not None and drawn(c) == expected(c)
    spikes = [n for n in director.scene if n.mesh == "spike" and not n.hidden]
    assert len(spikes) == 24
    # a checker is as wide as a point: the step from one point to the next
    p1, p2 = board.world(index(c, "p1")), board.world(index(c, "p2"))
    assert board.cell == pytest.approx(float(np.hypot(*(p1 - p2)[[0, 2]])), rel=1e-5)
    [bottom], [above] = board.pieces[index(c, "p1")], board.pieces[index(c, "p1.6")]
    assert np.allclose(bottom.position[[0, 2]], above.position[[0, 2]])
    assert above.position[1] > bottom.position[1] + 0.5 * board.mesh_height("counter") * board.cell
    # the bar: White's one and Black's two piled on their own places, nothing beside the board
    for owner, name, count in ((0, "wbar", 1), (1, "bbar", 2)):
        pile = [n for n in board.shelf.nodes if n.tags["hand"] == (owner, "Checker")]
        assert len(pile) == count
        assert all(
            np.allclose(n.position[[0, 2]], board.world(index(c, name))[[0, 2]]) for n in pile
        )
    lo, hi = board.world_xy(0.0, 0.0), board.world_xy(12.0, 10.0)
    assert c.dice is not None
    for spot in c.dice.spots:
        assert lo[0] < spot[0] < hi[0] and hi[2] < spot[2] < lo[2]
    # a click on a stack finds the layer a click can go to now (a checker put there goes
    # on top), else the top checker, else the lowest position
    p3, p1 = board.world(index(c, "p3")), board.world(index(c, "p1"))
    assert board.position_at(p3, [index(c, "p3.6")]) == index(c, "p3.6")
    assert board.position_at(p3) == index(c, "p3")
    assert board.position_at(p1, [index(c, "p1.11")]) == index(c, "p1.11")
    assert board.position_at(p1, [index(c, "p24")]) == index(c, "p1.6")
    assert board.position_at(board.world(index(c, "p9"))) == index(c, "p9")
