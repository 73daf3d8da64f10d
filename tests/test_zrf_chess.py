"""Chess written in ZRF (tests/data/zrf/chess.zrf: castling with to and cascade, en passant,
a choice of promotions, checkmate) counts chess's published numbers."""

from __future__ import annotations

from pathlib import Path

from game.logic.rules.catalogue import made_rulebook
from game.logic.zrf.load import decode, design

CHESS = Path(__file__).parent / "data" / "zrf" / "chess.zrf"


def _zrf():  # type: ignore[no-untyped-def]
    return made_rulebook(design(decode(CHESS.read_bytes()), str(CHESS)))


def test_chess_from_zrf_counts_the_published_numbers_from_the_start() -> None:
    book = _zrf()
    assert [book.perft(book.start(), d) for d in (1, 2, 3)] == [20, 400, 8902]


def test_no_program_of_chess_from_zrf_is_run_forward_by_the_check_test() -> None:
    # Castling relays two pieces onto squares it verified empty, en passant lands on an
    # empty square: neither can take a king, so the check test leaves both out.
    assert _zrf().c.check_modes.count("fallback") == 0


def _setup(fen: str) -> str:
    """A ZRF board-setup for a FEN's pieces (every King and Rook not moved yet)."""
    names = {"p": "Pawn", "n": "Knight", "b": "Bishop", "r": "Rook", "q": "Queen", "k": "King"}
    sides: dict[str, list[str]] = {"White": [], "Black": []}
    for r, row in enumerate(fen.split()[0].split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
                continue
            side = "White" if ch.isupper() else "Black"
            sides[side].append(f"({names[ch.lower()]} {'abcdefgh'[c]}{8 - r})")
            c += 1
    return "(board-setup " + " ".join(f"({s} {' '.join(p)})" for s, p in sides.items()) + ")"


def test_castling_promotion_and_pins_from_kiwipete_and_a_promotion_position() -> None:
    text = decode(CHESS.read_bytes())
    start = text.index("  (board-setup")
    end = text.index("  (piece (name Pawn)")
    counts = []
    for fen in (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    ):
        made = text[:start] + _setup(fen) + "\n" + text[end:]
        book = made_rulebook(design(made, str(CHESS)))
        counts.append([book.perft(book.start(), d) for d in (1, 2)])
    # The published perft counts of both positions (the second has no castling rights, and
    # its Kings and Rooks never move in two plies: the attribute changes nothing).
    assert counts == [[48, 2039], [24, 496]]
