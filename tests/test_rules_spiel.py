"""Chess, English draughts and Breakthrough against OpenSpiel, a second opinion beside the
references the other tests read: perft from the start and 24 positions of seeded random
games each (tests/data/*_spiel_perft.txt, written by tools/*_spiel_reference.py; OpenSpiel's
checkers splits a multi-jump into actions, which that script joins into whole moves), to the
deepest depth whose count stays under a node cap so that CI stays short."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.rules.catalogue import rulebook
from tests.deep import sized
from tests.perft_data import check_perft, perft_cases

DATA = Path(__file__).parent / "data"
#: Each data file's game, and the largest count a test runs to.
GAMES = {
    "chess": ("chess", sized(10_000, 100_000)),
    "checkers": ("english-draughts", sized(10_000, 100_000)),
    "breakthrough": ("breakthrough", sized(10_000, 100_000)),
}


def _cases(data: str) -> list[tuple[str, str, list[int]]]:
    return [(data, text, counts) for text, counts in perft_cases(DATA / f"{data}_spiel_perft.txt")]


CASES = _cases("chess") + _cases("checkers") + _cases("breakthrough")


def test_the_data_holds_the_start_and_24_positions_of_each_game() -> None:
    starts = {"chess": [20, 400, 8902], "checkers": [7, 49, 302], "breakthrough": [22, 484, 11132]}
    for data, first in starts.items():
        cases = [c for c in CASES if c[0] == data]
        assert len(cases) == 25
        assert cases[0][2] == first


@pytest.mark.parametrize(("data", "text", "counts"), CASES, ids=lambda v: str(v)[:24])
def test_perft_agrees_with_openspiel(data: str, text: str, counts: list[int]) -> None:
    game, cap = GAMES[data]
    check_perft(rulebook(game), text, counts, cap)
