"""The compiled back end's attack probes: written once for both players where every
program's backward walk is the same for both, the walks that differ only in their directions
as one loop; else once per player. (Generating text only: no numba.)"""

from __future__ import annotations

import pytest

from game.logic.rules import attacks
from game.logic.rules.catalogue import design
from game.logic.rules.compiled.module import module_source


def test_chess_probes_are_one_function_for_both_players() -> None:
    source = module_source(design("chess"))
    assert "def P(b, f, lf, lt, p):" in source
    assert "def R(b, f, lf, lt, m, p):" in source
    assert "def P0(" not in source and "def R1(" not in source
    # In each of P and R: the knight's eight leaps, the eight slides (the rook's four and the
    # bishop's, the queen's being theirs) and the king's eight steps, each one loop.
    assert source.count("    for _k in range(8):\n") == 2 * 3


def test_probes_that_differ_between_players_are_written_per_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    royal_safe = attacks.royal_safe

    def one_sided(*args: object) -> bool:  # player 1's programs never capture a king
        return True if args[2] == 1 else royal_safe(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(attacks, "royal_safe", one_sided)
    source = module_source(design("chess"))
    assert "def P(" not in source
    assert "def P0(b, f, lf, lt):" in source and "def P1(b, f, lf, lt):" in source
    assert "P(b, square, lf, lt, by)" not in source
