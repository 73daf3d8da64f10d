"""Moves of more than one piece, cursor jumps, and pieces created or changed: the engine's
``from``, ``to``, ``relay``, ``add-copy``, ``go`` and ``put``, and the ZRF forms that map onto
them (``cascade``, ``to``, position names as statements, ``create``, ``change-owner``,
``change-type``, ``(add T1 T2)``, ``add-copy``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.rules.design import parse
from game.logic.rules.rulebook import Rulebook
from game.logic.zrf.load import decode, design

DATA = Path(__file__).parent / "data" / "zrf"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "zrf"

OURS = """
(game relay-test)
(players A B)
(board (grid (columns a b c d) (rows 1 2))
  (directions (e 1 0) (w -1 0) (n 0 1) (s 0 -1)))
(piece K (moves (move castle e (verify empty) to e (verify (friend R)) relay w w add)
                (move push e (verify friend) relay e (verify empty) add)
                (move jump (go d2) (verify empty) add)
                (move spawn n (put R) (go from) (put none mover e) n add-copy)))
(piece R)
(setup (A (K a1) (R c1)) (B (K d1)))
(end (draw stuck))
"""


def _boards(e: Rulebook) -> list[list[int]]:
    pos, out = e.start(), []
    for move in e.legal(pos):
        saved = e.make(pos, move)
        out.append(list(pos.board))
        e.unmake(pos, saved)
    return out


def test_relay_moves_a_second_piece_and_put_and_go_change_the_board() -> None:
    e = Rulebook(parse(OURS, "relay.txt"))
    names = e.design.board.names
    at = {n: i for i, n in enumerate(names)}
    king, rook = e.c.code(0, 0), e.c.code(0, 1)
    castle, jump, spawn = _boards(e)
    # castle: the king lands at b1 (to), the rook moves on from c1 to a1.
    assert (castle[at["b1"]], castle[at["a1"]], castle[at["c1"]]) == (king, rook, 0)
    assert e.legal(e.start())[0][0] == (at["a1"], at["b1"])  # the path: the king's move
    assert (jump[at["d2"]], jump[at["a1"]]) == (king, 0)
    # spawn: a rook put at a2, b1 emptied, and the king copied onto a2 (it stays at a1).
    assert (spawn[at["a1"]], spawn[at["a2"]], spawn[at["b1"]]) == (king, king, 0)
    assert e.perft(e.start(), 2) == 2  # B's king jumps to d2 where it is empty


def _zrf(path: Path, variant: int = 0) -> Rulebook:
    text = decode(path.read_bytes())
    return Rulebook(
        design(text, str(path), variant, lambda name: decode((path.parent / name).read_bytes()))
    )


def test_zrf_cascade_create_change_owner_change_type_and_promotion_choices() -> None:
    e = _zrf(DATA / "relays.zrf")
    at = {n: i for i, n in enumerate(e.design.board.names)}
    code = e.c.code
    castle, mage, to_rook, to_queen = _boards(e)
    assert (castle[at["b1"]], castle[at["a1"]]) == (code(0, 0), code(0, 1))
    # the mage moves to c2, the rook below becomes a queen, a black queen is made at d2
    assert (mage[at["c2"]], mage[at["c1"]], mage[at["d2"]]) == (code(0, 3), code(0, 2), code(1, 2))
    assert (to_rook[at["c2"]], to_queen[at["c2"]]) == (code(0, 1), code(0, 2))
    # Black: the pawn copies itself to c2 (add-copy), or jumps to a1 (a position's name),
    # takes over the piece there (change-owner), goes back to where it started and steps s.
    assert e.perft(e.start(), 2) == 2 + 0 + 1 + 1
    pos = e.start()
    e.make(pos, e.legal(pos)[0])  # castled: the rook stands at a1
    e.make(pos, e.legal(pos)[1])
    taken = (pos.board[at["a1"]], pos.board[at["d1"]], pos.board[at["d2"]])
    assert taken == (code(1, 1), code(1, 4), 0)


@pytest.mark.parametrize(
    ("path", "counts"),
    [
        ("breakthrough/zrf/epaminondas.zrf", (90,)),  # cascade, to (phalanxes)
        ("checkers-like/zrf/queah.zrf", (10, 86, 685)),  # drops that jump to a1
        ("checkmate/zrf/shakti.zrf", (26, 670)),  # create
    ],
)
def test_corpus_counts_equal_the_reference(path: str, counts: tuple[int, ...]) -> None:
    if not (CORPUS / path).exists():
        pytest.skip("the ZRF corpus (../shared/zrf) is not beside the checkout")
    e = _zrf(CORPUS / path)
    assert [e.perft(e.start(), d) for d in range(1, len(counts) + 1)] == list(counts)


def test_take_own_lets_a_move_take_a_piece_of_the_movers() -> None:
    text = """
    (game own)
    (players A B)
    (board (grid (columns a b c) (rows 1)) (directions (e 1 0) (w -1 0)))
    (piece K (moves (move step e add)))
    (setup (A (K a1) (K b1)) (B (K c1)))
    (end (draw stuck))
    """
    plain = Rulebook(parse(text, "own.txt"))
    assert len(plain.legal(plain.start())) == 1  # b1 takes c1; a1 may not land on b1
    taking = Rulebook(parse(text.replace("(end", "(rules (take-own)) (end"), "own.txt"))
    moves = taking.legal(taking.start())
    assert sorted(len(m[1]) for m in moves) == [1, 1]  # a1 takes b1, b1 takes c1


def test_zrf_capture_and_flip_at_a_direction_leave_the_cursor_where_it_is() -> None:
    e = _zrf(DATA / "relays.zrf", 1)
    at = {n: i for i, n in enumerate(e.design.board.names)}
    mage_type, pawn = e.design.type_index("Mage"), e.design.type_index("Pawn")
    mage = _boards(e)[1]
    # the mage lands at c2; the rook below it is taken, the pawn east of it turns white
    landed = (mage[at["c2"]], mage[at["c1"]], mage[at["d2"]])
    assert landed == (e.c.code(0, mage_type), 0, e.c.code(0, pawn))


def test_a_relayed_piece_that_lands_on_a_royal_piece_gives_check() -> None:
    text = """
    (game relay-check)
    (players A B)
    (board (grid (columns a b c) (rows 1 2)) (directions (e 1 0) (n 0 1)))
    (piece P (moves (move shove e (verify friend) relay e add)))
    (piece K (royal) (moves (move up n (verify empty) add)))
    (piece M (moves (move on e (verify empty) add)))
    (setup (A (K c1) (M b2)) (B (P a1) (P b1) (K a2)))
    (end (draw stuck))
    """
    e = Rulebook(parse(text, "check.txt"))
    names = e.design.board.names
    # B's pawn at a1 shoves the one at b1 onto c1: A's king must step away; M may not move.
    assert [tuple(names[p] for p in m[0]) for m in e.legal(e.start())] == [("c1", "c2")]
