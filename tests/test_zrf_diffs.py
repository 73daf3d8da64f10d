"""Corpus files whose counts differ from ``perft.tsv`` because the other program counted a
compiled script edited by hand, not the file (``docs/zrf.md``, "Where the counts differ").

Each case rewrites one form of the corpus file (``../shared/zrf/``, beside the checkout;
never copied here) as the edited script has it: the dice races' turn orders, where each die
is a turn of its own that drops a die piece and the men move at another, and Bushi's options
``pass partial`` (and ``pass turn`` for four players). With that one change our count equals
the row of ``perft.tsv`` at every depth, so the difference is the edit and nothing else."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.deep import sized

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "zrf"

pytestmark = pytest.mark.skipif(
    not (CORPUS / "perft.tsv").is_file(),
    reason=f"the ZRF corpus is not at {CORPUS} (it sits beside the checkout in CI)",
)

#: The largest reference count the CI run compares (every count in a deep run).
MOST_NODES = sized(80_000, 2_000_000)

#: One player's turns in the edited scripts: four that only drop a die, then the men's move.
_PULUC_DICE = " ".join(["(White setup-type)"] * 4 + ["(White normal-type)"])
_SENET_DICE = " ".join(["(Blue dice-type)"] * 4 + ["(Blue normal-type)"])
_SHEN_BLACK = " ".join(["(Black setup-type)"] * 4)

#: (file, variant, the form as the file writes it, the form as the edited script has it)
CASES = [
    (
        "races/zrf/puluc.zrf",
        0,
        "(turn-order White Black)",
        f"(turn-order {_PULUC_DICE} {_PULUC_DICE.replace('White', 'Black')})",
    ),
    (
        "races/zrf/senet.zrf",
        0,
        "(turn-order Blue Green)",
        f"(turn-order {_SENET_DICE} {_SENET_DICE.replace('Blue', 'Green')})",
    ),
    (
        "races/zrf/shen.zrf",
        0,
        "(turn-order White Black)",
        f"(turn-order {_SHEN_BLACK} repeat {_SHEN_BLACK.replace('Black', 'White')} White"
        f" {_SHEN_BLACK} Black)",
    ),
    (
        "races/zrf/daldosa.zrf",
        0,
        "(turn-order Black White)",
        "(turn-order (Black dice-mode) (Black dice-mode) (Black normal-mode) (Black normal-mode)"
        " (White dice-mode) (White dice-mode) (White normal-mode) (White normal-mode))",
    ),
    (
        "races/zrf/tablan.zrf",
        0,
        "(turn-order White Black)",
        "(turn-order White (White once) repeat"
        " (Black setup) (Black setup) (Black setup) (Black setup) Black (Black once)"
        " (White setup) (White setup) (White setup) (White setup) White (White once))",
    ),
    (
        "races/zrf/bushi.zrf",
        0,
        "(players Black White)",
        '(option "pass partial" true) (players Black White)',
    ),
    (
        "races/zrf/bushi.zrf",
        1,
        "(players Black White Blue Red)",
        '(option "pass partial" true) (option "pass turn" forced) (players Black White Blue Red)',
    ),
]


def _plain_counts(path: str, variant: int) -> dict[int, int]:
    """The plain counts of ``perft.tsv`` for one variant, by depth (equal on every page)."""
    found: dict[int, int] = {}
    with (CORPUS / "perft.tsv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            wanted = row["zrf_path"] == path and int(row["variant_index"]) == variant
            if wanted and row["status"] == "ok" and row["nodes"]:
                found[int(row["depth"])] = int(row["nodes"])
    return found


@pytest.mark.deep
@pytest.mark.parametrize(
    ("path", "variant", "written", "edited"), CASES, ids=[f"{c[0]}#{c[1]}" for c in CASES]
)
def test_the_edited_scripts_form_gives_the_reference_counts(
    path: str, variant: int, written: str, edited: str
) -> None:
    from game.games.rules.file import zrf_file
    from game.logic.rules.catalogue import rulebook_for_zrf

    text, source, _, include = zrf_file(CORPUS / path, variant)
    assert text.count(written) == 1, f"{path}: {written} is not written once"
    reference = _plain_counts(path, variant)
    depths = [d for d, n in sorted(reference.items()) if n <= MOST_NODES]
    assert depths, f"{path}#{variant}: no count of perft.tsv to compare"
    rulebook = rulebook_for_zrf(text.replace(written, edited), source, variant, include)
    ours = {d: rulebook.perft(rulebook.start(), d) for d in depths}
    assert ours == {d: reference[d] for d in depths}
