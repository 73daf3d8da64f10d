"""A piece type with drops that no player has an ``off`` count of drops without limit, also
where the set-up counts other types; a counted type is counted for every player: our own
small ZRF file, counts worked out by hand (tests/data/zrf/supply.zrf)."""

from __future__ import annotations

from pathlib import Path

from game.logic.rules.catalogue import made_rulebook
from game.logic.zrf.load import design

DATA = Path(__file__).parent / "data" / "zrf"


def test_an_uncounted_type_drops_beside_a_counted_one() -> None:
    path = DATA / "supply.zrf"
    book = made_rulebook(design(path.read_text(), str(path), 0))
    start = book.start()
    assert [book.perft(start, d) for d in (1, 2, 3, 4)] == [8, 24, 72, 72]
