"""ZRF piece attributes, flags, conditions asked at a named position and the board's extras
(game/logic/zrf/properties.py, geometry.py): our own file's counts worked out by hand, and corpus
files that use the forms against the counts of perft.tsv (../shared/zrf/)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.logic.rules.catalogue import made_rulebook
from game.logic.rules.sexpr import DescriptionError
from game.logic.zrf.load import decode, design

OURS = Path(__file__).parent / "data" / "zrf" / "properties.zrf"
CORPUS = Path(__file__).parent.parent.parent / "shared" / "zrf"


def _counts(path: Path, variant: int, depths: int) -> list[int]:
    text = decode(path.read_bytes())

    def include(name: str) -> str:
        return decode((path.parent / name).read_bytes())

    book = made_rulebook(design(text, os.fspath(path), variant, include))
    return [book.perft(book.start(), d) for d in range(1, depths + 1)]


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        # A step sets moved? (default false), a leap of two needs fresh? (default true) and
        # clears it: 2 moves a side, then 3 after the step and 2 after the leap.
        (0, [2, 4, 10]),
        # fresh? true for the Rook, false for the Pawn, set from a condition, read at a1 and
        # one step west: Rook a1-b1, a1-a2, Pawn c1-d1; Black's Pawn b2 steps once, twice
        # when the Rook (still fresh) stands west of it on a2.
        (1, [3, 4]),
        # Flags set from conditions, position flags read at the cursor, one step away and
        # at a1, position? b1: White's two moves; Black's second needs a flag at a1.
        (2, [2, 2, 1]),
        # b1-c1 unlinked and c2 cut off, a zone of a board without it (not-in-zone? left),
        # a zone naming a player of no game here, adjacent-to-enemy?, in-zone? one step east.
        (3, [3, 0]),
    ],
)
def test_our_file_counts_as_worked_out(variant: int, counts: list[int]) -> None:
    assert _counts(OURS, variant, len(counts)) == counts


def test_an_attribute_read_by_a_move_must_be_true_or_false() -> None:
    with pytest.raises(DescriptionError) as caught:
        _counts(OURS, 4, 1)
    assert str(caught.value).endswith(
        "properties.zrf:75:40: the attribute 'weight' is read by a move: "
        "its value must be true or false"
    )


@pytest.mark.parametrize(
    ("path", "variant", "counts"),
    [
        ("breakthrough/zrf/jungle.zrf", 0, [24, 576]),  # attributes no move reads
        ("checkmate/zrf/dragonchess.zrf", 0, [86]),  # unlink
        ("custodian/zrf/tafl.zrf", 1, [76]),  # a zone the variant's board does not give
    ],
)
def test_corpus_files_count_as_perft_tsv_says(path: str, variant: int, counts: list[int]) -> None:
    assert _counts(CORPUS / path, variant, len(counts)) == counts


def test_past_the_engine_bounds_the_reader_says_which_and_how_many() -> None:
    with pytest.raises(DescriptionError, match="the board has 3214 positions"):
        _counts(CORPUS / "control/zrf/filler.zrf", 0, 1)
    pieces = " ".join(f"(piece (name P{k}) (moves (n add)))" for k in range(65))
    many = (
        "(game (title Many) (players A B) (turn-order A B) (board (grid (start-rectangle 0 0 9 9)"
        f' (dimensions ("a/b" (10 0)) ("2/1" (0 10))) (directions (n 0 -1)))) {pieces})'
    )
    with pytest.raises(DescriptionError, match=r"many.zrf:1:.*the game has 65 piece types"):
        design(many, "many.zrf")


def test_a_game_of_36_piece_types_is_read() -> None:
    path = CORPUS / "arrange/zrf/fool.zrf"
    assert len(design(decode(path.read_bytes()), os.fspath(path)).pieces) == 36
