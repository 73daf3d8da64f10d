"""A partial move that comes back to its start square: no move where the piece comes back as
the piece it started as (the board would be the one the move began with), a move where it
comes back as another piece; on a small ZRF file of our own (moves worked out by hand)."""

from __future__ import annotations

import random
from pathlib import Path

from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.state import RulesGame
from game.logic.zrf.lexer import decode
from game.logic.zrf.load import design

DATA = Path(__file__).parent / "data" / "zrf"


def test_a_roll_back_to_the_start_as_the_first_piece_is_no_continuation() -> None:
    path = DATA / "roll.zrf"
    rulebook = made_rulebook(design(decode(path.read_bytes()), str(path), 0, None))
    state = RulesGame(rulebook).initial_state(random.Random(0))
    # East: c1 as Down, whose roll back to b1 makes Up again: the prefix alone is the move.
    # West: a1 as Left, whose roll back to b1 makes Side: the whole roll is the move.
    assert sorted(state.action_text(a) for a in state.legal_actions()) == ["b1-a1-b1", "b1-c1"]
    after = {state.action_text(a): state.apply(a) for a in state.legal_actions()}
    assert after["b1-c1"].stacks() == [(2, [(0, "Down")])]
    assert after["b1-a1-b1"].stacks() == [(1, [(0, "Side")])]
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2)] == [2, 0]
