"""A royal piece put down where none stood (a drop under ``(checkmated KING)``) is not left
attacked, as a royal piece moved is not: our own small ZRF file, counts worked out by hand
(tests/data/zrf/royal-drop.zrf)."""

from __future__ import annotations

from pathlib import Path

from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.notation import move_texts
from game.logic.zrf.load import design

DATA = Path(__file__).parent / "data" / "zrf"


def test_a_king_is_not_dropped_where_it_stands_attacked() -> None:
    path = DATA / "royal-drop.zrf"
    book = made_rulebook(design(path.read_text(), str(path), 0))
    start = book.start()
    moves = book.legal(start)
    assert sorted(move_texts(book, start, moves)) == ["K*b1", "K*b2", "K*c1", "K*c2"]
    assert book.perft(start, 2) == 16


def test_without_checkmated_the_king_drops_anywhere_empty() -> None:
    path = DATA / "royal-drop.zrf"
    book = made_rulebook(design(path.read_text(), str(path), 1))
    assert book.perft(book.start(), 1) == 8
