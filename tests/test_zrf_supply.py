"""Drops from a counted supply beside drops without limit: ``(in-hand PIECE unlimited)`` in
our own descriptions, and a ZRF file where one player has an ``off`` count of a piece and the
other none, and another piece has no count at all (counts worked out by hand)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.design import parse
from game.logic.rules.sexpr import DescriptionError
from game.logic.rules.state import RulesGame
from game.logic.zrf.lexer import decode
from game.logic.zrf.load import design

DATA = Path(__file__).parent / "data" / "zrf"

#: Four cells; White has one Stone in hand and Pebbles without limit, Black Pebbles only.
FOUR = """(game supply) (players White Black)
(board (grid (columns a b c d) (rows 1)) (directions (e 1 0)))
(piece Stone (letter "S") (drops (move put (verify empty) add)))
(piece Pebble (letter "P") (drops (move put (verify empty) add)))
(setup (White (in-hand Stone 1) (in-hand Pebble unlimited)) (Black (in-hand Pebble {n})))
(end (draw stuck))"""


def test_an_unlimited_hand_drops_every_turn_and_shows_nothing_in_hand() -> None:
    rulebook = made_rulebook(parse(FOUR.format(n="unlimited"), "t.txt"))
    # White: Stone or Pebble on 4 cells; Black: a Pebble on 3; White: a Pebble on 2, and
    # the Stone too where it is still in hand (4 of the 8 first moves); Black: the last cell.
    counts = [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3, 4, 5)]
    assert counts == [8, 24, 4 * 3 * 2 + 4 * 3 * 4, 72, 0]
    state = RulesGame(rulebook).initial_state(random.Random(0))
    assert state.hands() == [{"Stone": 1}, {}]
    for text in ("P@a1", "P@b1", "P@c1"):
        state = state.apply(state.parse_action(text))
    assert state.hands() == [{"Stone": 1}, {}]
    assert sorted(state.legal_actions()) == sorted([state.parse_action("P@d1")])


def test_a_counted_hand_still_runs_out_beside_an_unlimited_one() -> None:
    rulebook = made_rulebook(parse(FOUR.format(n=1), "t.txt"))
    # Black's one Pebble is dropped at its first turn: at its second it has none, and every
    # line ends with a cell left empty.
    assert [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3, 4)] == [8, 24, 72, 0]


def test_a_hand_count_is_a_number_or_unlimited() -> None:
    with pytest.raises(DescriptionError, match="expected a whole number"):
        parse(FOUR.format(n="many"), "t.txt")


def test_zrf_drops_of_a_piece_no_player_has_a_count_of_are_unlimited() -> None:
    path = DATA / "supply.zrf"
    rulebook = made_rulebook(design(decode(path.read_bytes()), str(path), 0, None))
    # White: its one Stone or a Pebble on 3 cells; Black, with no Stone (White has a count
    # of Stones, Black none): a Pebble on 2; White: a Pebble on the last cell, and the Stone
    # where it was not dropped first. Rock has no drops and gets no hand.
    counts = [rulebook.perft(rulebook.start(), k) for k in (1, 2, 3, 4)]
    assert counts == [6, 12, 3 * 2 * 1 + 3 * 2 * 2, 0]
