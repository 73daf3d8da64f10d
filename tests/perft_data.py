"""Perft counts another program made, read from ``tests/data/*_perft.txt`` and checked
against a rulebook. Each line of such a file is a position's text, ``;`` and its counts from
depth 1 on; ``#`` starts a comment line."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.logic.rules.notation import read_position
from game.logic.rules.perft import divide
from game.logic.rules.rulebook import Rulebook


def perft_cases(path: Path) -> list[tuple[str, list[int]]]:
    """The (position text, counts) of each line of ``path``."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            text, _, counts = line.partition(";")
            out.append((text.strip(), [int(n) for n in counts.split()]))
    return out


def check_perft(e: Rulebook, text: str, counts: list[int], cap: int) -> None:
    """Fail, with the divide of the first depth that differs, unless ``e``'s perft from the
    position ``text`` equals ``counts`` at depth 1 and at each further depth whose count is at
    most ``cap``."""
    pos = read_position(e, text)
    for depth, want in enumerate(counts, 1):
        if want > cap and depth > 1:
            break
        got = e.perft(pos.copy(), depth)
        if got != want:
            lines = "\n".join(f"{t} {n}" for t, n in divide(e, pos, depth))
            pytest.fail(f"{text} perft({depth}) = {got}, want {want}; divide:\n{lines}")
