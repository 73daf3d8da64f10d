"""Turns in which one player moves another's pieces: ``(turn-order White (White Black)
Black)``, on a small description of our own whose counts are worked out by hand."""

from __future__ import annotations

import random
import re

import pytest

from game.logic.contract import Limits, Stop
from game.logic.rules.agents import make_agent
from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.design import parse
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame

#: Two men on a row of six, each stepping one or two empty cells towards the other's end;
#: White moves, then White moves Black's man, then Black moves it.
GIVE = """(game give) (players White Black)
(board (grid (columns a b c d e f) (rows 1)) (directions (e 1 0) (w -1 0))
  (symmetry Black (e w) (w e)) (zone goal (White f1) (Black a1)))
(piece Man (letter "M")
  (moves (move one e (verify empty) add) (move two e (verify empty) e (verify empty) add)))
(setup (White (Man a1)) (Black (Man f1)))
(rules (turn-order White (White Black) Black))
(end (win (reached goal Man)))"""


def test_a_player_chooses_the_move_of_anothers_pieces() -> None:
    rulebook = made_rulebook(parse(GIVE, "t.txt"))
    assert rulebook.design.turn_seats == (0, 0, 1)
    # a1-b1 or a1-c1; then Black's f1-e1 or f1-d1 (either way); then Black again from
    # (b1, e1) 2, (b1, d1) 1, (c1, e1) 1, (c1, d1) 0.
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3)] == [2, 4, 4]
    state = RulesGame(rulebook).initial_state(random.Random(0))
    state = state.apply(state.parse_action("a1-b1"))
    assert state.current_player() == 0 and rulebook.player(state.pos) == 1
    assert state.texts() == ["f1-e1", "f1-d1"]
    move = make_agent("beginner").choose(state, Limits(nodes=60), random.Random(0), Stop())
    state = state.apply(move)
    assert state.current_player() == 1


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("(Nobody Black)", "t.txt:7:27: no player 'Nobody'"),
        ("(White Black jump)", "t.txt:7:39: no move program has the type 'jump'"),
        ("(White Blak one)", "t.txt:7:33: no player 'Blak'"),
        ("(White Black one two)", "t.txt:7:26: a turn is PLAYER, (PLAYER MOVE-TYPE) or"),
    ],
)
def test_a_turn_of_anothers_pieces_that_cannot_be_played_is_refused(
    step: str, message: str
) -> None:
    with pytest.raises(DescriptionError, match=re.escape(message)):
        parse(GIVE.replace("(White Black)", step), "t.txt")
