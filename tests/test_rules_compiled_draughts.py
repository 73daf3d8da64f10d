"""The draughts on the compiled back end (partial moves grown on a stack, selection passes:
game/logic/rules/compiled/partial.py, select.py) against the Python back end: the same legal
moves (program, changes, path) and the same perft on positions of seeded random games chosen
for their multiple captures and crownings; and the counts other programs published
(pydraughts' and OpenSpiel's in tests/data, the FMJD's listed in tests/test_rules_perft.py).
Italian draughts (prefer: preferred.py) and bashni (columns: stacks.py) too, bashni's changes
on the board compared (its columns' cells are compared in test_rules_compiled_games.py).
The games compile with GAMEHALL_DEEP_CHECKS=1 only: English draughts alone costs some 25 CPU
seconds cold, the largest single cost of a CI run; CI checks here what needs no compile."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from game.logic.rules.catalogue import design, rulebook
from game.logic.rules.compiled.build import compiled_rules
from game.logic.rules.compiled.module import module_source
from game.logic.rules.compiled.partial import row_path
from game.logic.rules.compiled.statements import Unsupported
from game.logic.rules.notation import read_position
from game.logic.rules.position import DescribedPosition
from game.logic.rules.rulebook import Move, Rulebook
from tests.deep import DEEP
from tests.perft_data import perft_cases
from tests.test_rules_perft import CASES

DATA = Path(__file__).parent / "data"

#: (game, positions compared, perft depth at each).
GAMES = [
    ("english-draughts", 40, 4),
    ("russian-draughts", 30, 3),
    ("international-draughts", 30, 3),
    ("brazilian-draughts", 30, 3),
    ("pool-checkers", 30, 3),
    ("czech-draughts", 30, 3),
    ("italian-draughts", 30, 3),
    ("bashni", 30, 3),
]

#: The FMJD's International counts (tests/test_rules_perft.py's).
FMJD = [(position, counts) for game, position, counts in CASES if game == "international-draughts"]

#: The largest count checked (a larger one takes minutes).
CAP = 10**9

#: (game, where its counts come from, (position, counts) each).
PUBLISHED = [
    ("english-draughts", "pydraughts", perft_cases(DATA / "english_perft.txt")),
    ("english-draughts", "openspiel", perft_cases(DATA / "checkers_spiel_perft.txt")),
    ("russian-draughts", "pydraughts", perft_cases(DATA / "russian_perft.txt")),
    ("brazilian-draughts", "pydraughts", perft_cases(DATA / "brazilian_perft.txt")),
    ("italian-draughts", "pydraughts", perft_cases(DATA / "italian_perft.txt")),
    ("international-draughts", "fmjd", FMJD),
]


def _striking(e: Rulebook, moves: list[Move], pos: DescribedPosition) -> bool:
    """Whether a move of ``moves`` jumps more than once or crowns its piece."""
    for path, _caps, changes, _pid in moves:
        if len(path) > 2:
            return True
        start = pos.board[path[0]]
        if changes and changes[-1][1] and e.c.kind_of[changes[-1][1]] != e.c.kind_of[start]:
            return True
    return False


def _positions(e: Rulebook, game: str, wanted: int) -> list[DescribedPosition]:
    """``wanted`` positions of seeded random games, each with a multiple capture or a
    crowning among its moves (and a few plain ones before them)."""
    found: list[DescribedPosition] = []
    rng = random.Random(f"compiled-{game}")
    for _ in range(200):
        pos = e.start()
        for ply in range(200):
            moves = e.legal(pos)
            if not moves or e.outcome(pos, moves) is not None:
                break
            if _striking(e, moves, pos) or ply == 10:
                found.append(pos.copy())
                if len(found) == wanted:
                    return found
            e.make(pos, rng.choice(moves))
    return found


if DEEP:

    @pytest.mark.deep
    @pytest.mark.parametrize(("game", "wanted", "depth"), GAMES)
    def test_compiled_draughts_moves_and_perft_equal_python(
        game: str, wanted: int, depth: int
    ) -> None:
        e = rulebook(game)
        rules = compiled_rules(e.design)
        positions = _positions(e, game, wanted)
        assert len(positions) == wanted
        for pos in positions:
            moves = e.legal(pos)
            rows = rules.legal_rows(pos)
            npos = len(pos.board)  # (bashni's columns change cells after the board)
            got = [
                (row_path(rules.rows[0][i]), r[2], tuple(zip(r[5::2], r[6::2], strict=True)))
                for i, r in enumerate(rows)
            ]
            got = [
                (path, pid, tuple(c for c in changes if c[0] < npos)) for path, pid, changes in got
            ]
            assert got == [(m[0], m[3], tuple((e[0], e[1]) for e in m[2])) for m in moves]
            assert rules.perft(pos, depth) == e.perft(pos.copy(), depth)

    @pytest.mark.deep
    @pytest.mark.parametrize(
        ("game", "source", "cases"), PUBLISHED, ids=[f"{g}-{s}" for g, s, _ in PUBLISHED]
    )
    def test_compiled_draughts_perft_matches_other_programs(
        game: str, source: str, cases: list[tuple[str, list[int]]]
    ) -> None:
        e = rulebook(game)
        rules = compiled_rules(e.design)
        for text, counts in cases:
            pos = read_position(e, text) if text else e.start()
            for depth, want in enumerate(counts, 1):
                if want > CAP and depth > 1:
                    break
                assert rules.perft(pos, depth) == want, (source, text, depth)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"prefer": design("italian-draughts").prefer}, "prefer without partial moves"),
        ({"stacks": True}, "stacks without partial moves"),
    ],
)
def test_rules_read_from_captures_in_order_stay_on_python_without_partial_moves(
    change: dict, why: str
) -> None:
    """``prefer``'s keys and the stacks read a move's captures in order, which only the rows
    of grown moves hold (the text alone: nothing compiles)."""
    with pytest.raises(Unsupported) as refused:
        module_source(replace(design("breakthrough"), **change))
    assert str(refused.value) == why
