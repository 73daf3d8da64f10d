"""The compiled back end's further forms (game/logic/rules/compiled/: hands.py, scans.py,
counters.py) against the Python back end: the same legal moves with the same changes (the
hands' cells after the board as the Python back end's hands after the move), the same perft,
on the positions of seeded random games. In CI a shogi in miniature of our own
(tests/data/hands_mini.txt: drops, captures to hand, a promotion choice) that compiles in
seconds; with GAMEHALL_DEEP_CHECKS=1 shogi itself (a cold compile of a minute or two), also
against cshogi's counts (tests/data/shogi_perft.txt), nine men's morris (drops first,
anywhere, lines and counts), Kalah (counters, sowing, taking to the store, again) and Oware
(sowing past the pit sown from, next, exists, a flag, the score end), also against
OpenSpiel's counts (tests/data/oware_perft.txt), Neutron (a turn order of move types, a
piece both players move) and Surakarta (walks that turn round the circuits); and Pentago's
perft (a quarter turn of a zone: rotate.py; its moves against the Python back end's in
tests/test_rules_compiled_games.py) against OpenSpiel's counts (tests/data/pentago_perft.txt)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import CompiledRules, compiled_rules
from game.logic.rules.design import parse
from game.logic.rules.notation import read_position
from game.logic.rules.position import DescribedPosition
from game.logic.rules.rulebook import Rulebook
from game.logic.rules.writer import AGAIN
from tests.deep import DEEP, sized
from tests.perft_data import perft_cases

DATA = Path(__file__).parent / "data"

#: (game, seeded random games, perft depth).
CASES = sized(
    [("hands-mini", 6, 3)],
    [
        ("hands-mini", 30, 4),
        ("shogi", 12, 2),
        ("nine-mens-morris", 12, 3),
        ("kalah", 12, 4),
        ("oware", 12, 4),
        ("neutron", 12, 3),
        ("surakarta", 8, 3),
    ],
)
#: What the moves of the positions tried must include, by game: drops, captures, moves
#: that play again.
SEEN = {"kalah": {"again"}, "oware": set(), "neutron": set(), "surakarta": {"captures"}}


def _rulebook(game: str) -> Rulebook:
    if game == "hands-mini":
        text = (DATA / "hands_mini.txt").read_text(encoding="utf-8")
        return Rulebook(parse(text, "hands_mini.txt"))
    return rulebook(game)


def _hands(pos: DescribedPosition) -> list[int]:
    return [x for row in pos.hands for x in row]


def _compare(e: Rulebook, rules: CompiledRules, pos: DescribedPosition) -> int:
    """Assert that both back ends give ``pos`` the same moves; their count."""
    npos = rules.module.NPOS
    rows = rules.legal_rows(pos)
    moves = e.legal(pos)
    assert len(rows) == len(moves)
    for row, move in zip(rows, moves, strict=True):
        pairs = list(zip(row[5::2], row[6::2], strict=True))
        ends = (row[0], row[1]) if row[2] >= 0 else None
        path = move[0]
        assert (ends, row[2], tuple(p for p in pairs if p[0] < npos)) == (
            (path[0] if len(path) > 1 else -1, path[-1]) if path else None,
            move[3],
            move[2],
        )
        hands = _hands(pos)
        for cell, count in pairs:
            if cell >= npos:
                hands[cell - npos] = count
        saved = e.make(pos, move)
        try:
            assert hands == _hands(pos), move
        finally:
            e.unmake(pos, saved)
    return len(rows)


@pytest.mark.deep
@pytest.mark.parametrize(("game", "games", "depth"), CASES)
def test_compiled_hands_moves_and_perft_equal_python(game: str, games: int, depth: int) -> None:
    """Every position of seeded random games compared, perft from one of each game's."""
    e = _rulebook(game)
    rules = compiled_rules(e.design)
    rng = random.Random(game)
    seen: set[str] = set()
    for _ in range(games):
        pos = e.start()
        stop = rng.randrange(0, 60)
        for ply in range(120):
            moves = e.legal(pos)
            assert _compare(e, rules, pos) == len(moves)
            for r in rules.legal_rows(pos):
                seen.update(
                    word
                    for word, found in (
                        ("drops", r[0] < 0 and r[2] >= 0 and not e.design.counters),
                        ("captures", r[3] > 0),
                        ("again", r[2] >= 0 and r[2] & AGAIN),
                    )
                    if found
                )
            if ply == stop or e.outcome(pos, moves) is not None:
                break
            e.make(pos, rng.choice(moves))
        assert rules.perft(pos, depth) == e.perft(pos.copy(), depth)
    assert SEEN.get(game, {"drops", "captures"}) <= seen


#: The counts of other programs: (game, data file). Checked under the deep checks only (shogi
#: compiles for a minute or two; CI checks hands on the miniature, and the Python back end
#: against these counts in tests/test_rules_perft.py).
OTHERS = [
    ("shogi", "shogi_perft.txt"),
    ("oware", "oware_perft.txt"),
    ("pentago", "pentago_perft.txt"),
]


if DEEP:

    @pytest.mark.deep
    @pytest.mark.parametrize(("game", "data"), OTHERS)
    def test_compiled_perft_matches_other_programs(game: str, data: str) -> None:
        """cshogi's counts (shogi), OpenSpiel's (Oware, Pentago), every depth of every position."""
        e = rulebook(game)
        rules = compiled_rules(e.design)
        for text, counts in perft_cases(DATA / data):
            pos = read_position(e, text)
            assert [rules.perft(pos, d) for d in range(1, len(counts) + 1)] == counts, text
