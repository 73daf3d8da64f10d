"""Pentago and Oware as described in game/logic/rules/games/, against OpenSpiel: perft of the
start and 24 positions of seeded random games each (tests/data/pentago_perft.txt and
oware_perft.txt, written by tools/pentago_reference.py and tools/oware_reference.py), each
to the deepest depth whose count stays under a node cap so that CI stays short; and the
forms they use: ``rotate``, ``sow-skip``, ``row-of``, ``score-at-least``."""

from __future__ import annotations

from pathlib import Path

import pytest
from deep import sized

from game.logic.rules.catalogue import rulebook
from game.logic.rules.design import parse
from game.logic.rules.notation import move_texts, parse_move, read_position
from game.logic.rules.sexpr import DescriptionError
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data"
#: The largest count a test runs to, per game (a Pentago node costs more: every move turns
#: a quadrant and the end looks at every row).
NODE_CAP = {"pentago": sized(2_500, 2_000_000), "oware": sized(12_000, 1_000_000)}


def _cases(game: str) -> list[tuple[str, str, list[int]]]:
    return [(game, text, counts) for text, counts in perft_cases(DATA / f"{game}_perft.txt")]


CASES = _cases("pentago") + _cases("oware")


def test_the_data_holds_the_start_and_24_positions_of_each_game() -> None:
    for game, first in (("pentago", [288, 80640]), ("oware", [6, 36, 190, 1014, 5219])):
        cases = [c for c in CASES if c[0] == game]
        assert len(cases) == 25
        assert cases[0][2][: len(first)] == first


@pytest.mark.deep
@pytest.mark.parametrize(
    ("game", "text", "counts"), CASES, ids=[f"{g}{i % 25}" for i, (g, _, _) in enumerate(CASES)]
)
def test_perft_matches_openspiel(game: str, text: str, counts: list[int]) -> None:
    check_perft(rulebook(game), text, counts, NODE_CAP[game])


def _after(game: str, text: str, move: str) -> tuple[object, object]:
    e = rulebook(game)
    pos = read_position(e, text)
    moves = e.legal(pos)
    e.make(pos, parse_move(e, pos, moves, move_texts(e, pos, moves), move))
    return e, pos


def _placed(e: object, pos: object) -> dict[str, int]:
    """Each occupied position's name and its player."""
    names = e.design.board.names  # type: ignore[attr-defined]
    owner = e.c.owner  # type: ignore[attr-defined]
    return {names[p]: owner[v] for p, v in enumerate(pos.board) if v}  # type: ignore[attr-defined]


def test_a_marble_turns_with_its_quadrant() -> None:
    # a4 is the lower left corner of the north-west quadrant (a4-c6): a quarter turn
    # clockwise, as the board is drawn, takes it to the upper left corner, a6, and Black's
    # marble on c6 to c4; anticlockwise, a4 goes to c4 and c6 to a6.
    start = "White: marble / Black: marble c6 / White to move"
    assert _placed(*_after("pentago", start, "a4 nw cw")) == {"a6": 0, "c4": 1}
    assert _placed(*_after("pentago", start, "a4 nw ccw")) == {"c4": 0, "a6": 1}
    # A marble outside the quadrant stays where it was placed; the centre never moves.
    assert _placed(*_after("pentago", start, "b5 se cw")) == {"b5": 0, "c6": 1}


def test_every_turn_is_a_move_of_its_own_with_its_own_text() -> None:
    e = rulebook("pentago")
    pos = e.start()
    texts = move_texts(e, pos, e.legal(pos))
    assert len(texts) == len(set(texts)) == 288
    assert texts[:2] == ["a1 nw cw", "a1 nw ccw"]


def test_rows_count_after_the_turn_for_both_players() -> None:
    # Turning the north-west quadrant clockwise brings White's c5 to b4 (b1-b5) and Black's
    # c4 to a4 and b4 to a5 (a1-a5): both rows at once draw. Without Black's c4, the turn
    # makes White's row alone, and Black, who turned, loses.
    both = "White: marble b1 b2 b3 b5 c5 / Black: marble a1 a2 a3 b4 c4 / Black to move"
    e, pos = _after("pentago", both, "f6 nw cw")
    assert e.outcome(pos, None) == "draw"  # type: ignore[attr-defined]
    theirs = "White: marble b1 b2 b3 b5 c5 / Black: marble a1 a2 a3 b4 f1 / Black to move"
    e, pos = _after("pentago", theirs, "f6 nw cw")
    assert e.outcome(pos, None) == "loss"  # type: ignore[attr-defined]
    assert e.returns(pos, "loss") == (1.0, -1.0)  # type: ignore[attr-defined]
    e, pos = _after("pentago", theirs, "f6 nw ccw")
    assert e.outcome(pos, None) is None  # type: ignore[attr-defined]


def test_a_rotate_zone_that_is_not_a_square_is_refused_with_its_place() -> None:
    text = (Path(__file__).parent.parent / "game/logic/rules/games/pentago.txt").read_text()
    bad = text.replace("(zone nw a4 b4 c4 a5 b5 c5 a6 b6 c6)", "(zone nw a4 b4 c4 a5)")
    with pytest.raises(DescriptionError, match=r"pentago.txt:\d+:\d+: the zone 'nw' cannot turn"):
        parse(bad, "pentago.txt")
    bad = text.replace("(rotate nw clockwise)", "(rotate nw sideways)")
    with pytest.raises(DescriptionError, match="clockwise"):
        parse(bad, "pentago.txt")


def test_oware_sowing_passes_over_the_pit_it_came_from() -> None:
    # 12 seeds from s1: one in each of the other eleven pits, the twelfth in s2.
    e, pos = _after("oware", "Seed: s1 12, n3 1 / South to move", "s1")
    names = e.design.board.names  # type: ignore[attr-defined]
    seeds = {names[p]: n for p, n in enumerate(pos.board) if n}  # type: ignore[attr-defined]
    assert seeds["s2"] == 2 and "s1" not in seeds and seeds["n3"] == 2


def test_oware_takes_2s_and_3s_backwards_but_never_every_seed() -> None:
    # s6's two seeds end in n2 (3 seeds) after n1 (2): both taken, n4 keeps North in seeds.
    e, pos = _after("oware", "Seed: s6 2, n1 1, n2 2, n4 5 / South to move", "s6")
    assert e.counts(pos, final=False) == [5, 0]  # type: ignore[attr-defined]
    # Without n4 it would take every seed North has: a grand slam takes nothing.
    e, pos = _after("oware", "Seed: s6 2, n1 1, n2 2, s1 1 / South to move", "s6")
    assert e.counts(pos, final=False) == [0, 0]  # type: ignore[attr-defined]


def test_oware_a_player_must_feed_an_opponent_without_seeds() -> None:
    e = rulebook("oware")
    pos = read_position(e, "Seed: s1 1, s5 2, s6 3, N 10 / South to move")
    assert move_texts(e, pos, e.legal(pos)) == ["s5", "s6"]  # s1's seed stays on South's side


def test_oware_ends_past_24_taken() -> None:
    e = rulebook("oware")
    pos = read_position(e, "Seed: s6 2, n1 1, n2 2, n4 5, S 21, N 10 / South to move")
    moves = e.legal(pos)
    e.make(pos, moves[0])
    assert e.outcome(pos, None) == "count" and e.returns(pos, "count") == (1.0, -1.0)
