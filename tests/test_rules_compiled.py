"""The compiled back end's spike (game/logic/rules/compiled/) against the Python back end:
the same legal moves with the same changes, and the same perft, on positions of seeded
random games, some of them about to end. Breakthrough compiles in seconds; chess and
xiangqi (half a minute each the first time, from numba's cache after), Hex (drops, a
connection end) and Othello (sweeps, flips, passes) run with GAMEHALL_DEEP_CHECKS=1. The
counts of both back ends are checked against other programs in tests/test_rules_perft.py."""

from __future__ import annotations

import random

import pytest

from game.logic.rules.catalogue import rulebook
from game.logic.rules.compiled.build import compiled_rules
from game.logic.rules.compiled.module import module_source
from game.logic.rules.compiled.statements import Unsupported
from tests.deep import sized

#: (game, plies of a seeded random game before the position (fewer where it ends sooner),
#: perft depth): breakthrough's later positions have goals reached within the depth.
CASES = sized(
    [("breakthrough", 0, 3), ("breakthrough", 40, 2), ("breakthrough", 50, 2)],
    [
        ("breakthrough", 0, 3),
        ("breakthrough", 30, 3),
        ("breakthrough", 40, 3),
        ("breakthrough", 50, 3),
        ("chess", 0, 3),
        ("chess", 12, 2),
        ("chess", 60, 2),
        ("xiangqi", 0, 2),
        ("xiangqi", 10, 2),
        ("xiangqi", 60, 2),
        ("hex", 0, 3),
        ("hex", 12, 3),
        ("othello", 0, 5),
        ("othello", 40, 3),
        ("othello", 54, 4),
    ],
)
#: The parameters a game is played with here (Hex on a small board: Python's perft is slow).
VALUES = {"hex": {"side": 5}}


@pytest.mark.deep
@pytest.mark.parametrize(("game", "plies", "depth"), CASES)
def test_compiled_moves_and_perft_equal_python(game: str, plies: int, depth: int) -> None:
    e = rulebook(game, VALUES.get(game))
    rules = compiled_rules(e.design)
    pos = e.start()
    rng = random.Random(f"{game}-{plies}")
    for _ in range(plies):
        moves = e.legal(pos)
        if e.outcome(pos, moves) is not None:
            break
        e.make(pos, rng.choice(moves))
    # Each move as (from, to) (from -1: a drop; None: a pass), program, changes.
    rows = [
        ((r[0], r[1]) if r[2] >= 0 else None, r[2], tuple(zip(r[5::2], r[6::2], strict=True)))
        for r in rules.legal_rows(pos)
    ]
    assert rows == [
        ((m[0][0] if len(m[0]) > 1 else -1, m[0][-1]) if m[0] else None, m[3], m[2])
        for m in e.legal(pos)
    ]
    assert rules.perft(pos, depth) == e.perft(pos.copy(), depth)


def test_games_the_spike_cannot_compile_say_why() -> None:
    e = rulebook("go")
    with pytest.raises(Unsupported, match="groups"):
        module_source(e.design)


def test_small_generators_are_inlined_large_ones_called() -> None:
    """The move programs are inlined into ``pseudo`` where their bodies at its call sites are
    few lines together (breakthrough's steps), and stay functions of their own where they are
    many (chess's forty calls): the text alone, nothing compiles."""
    counts: dict[str, tuple[int, int]] = {}
    for game in ("breakthrough", "chess"):
        lines = [
            line
            for line in module_source(rulebook(game).design).splitlines()
            if line.startswith("prog_") and "= njit(" in line
        ]
        counts[game] = (sum('inline="always"' in line for line in lines), len(lines))
    assert counts["breakthrough"][0] == counts["breakthrough"][1] > 0
    assert counts["chess"][0] == 0 and counts["chess"][1] > 30
