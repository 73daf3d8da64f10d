"""ZRF counts that the draughts-like files of the corpus rely on, on our own small ZRF files
(tests/data/zrf/) with counts worked out by hand."""

from __future__ import annotations

from pathlib import Path

from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.rulebook import Rulebook
from game.logic.zrf.load import design

DATA = Path(__file__).parent / "data" / "zrf"


def _book(name: str, variant: int = 0) -> Rulebook:
    path = DATA / name
    return made_rulebook(design(path.read_text(), str(path), variant))


def test_shared_pieces_let_each_player_move_every_piece_in_its_own_directions() -> None:
    # White: a1-a2 and c2-c3 (Black's Man, White's n is up); then Black (its n is down)
    # after a1-a2: a2-a1, c2-c1; after c2-c3: c3-c2 (a1 cannot go down); then White 2 each.
    book = _book("shared.zrf")
    assert [book.perft(book.start(), d) for d in (1, 2, 3)] == [2, 3, 6]
    own = _book("shared.zrf", 1)  # the option off: each moves its own Man only
    assert [own.perft(own.start(), d) for d in (1, 2, 3)] == [1, 1, 1]
