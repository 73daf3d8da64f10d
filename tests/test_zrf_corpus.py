"""A sample of the ZRF corpus (``../shared/zrf/``, beside the checkout; never copied here),
read as ``gamehall rules perft FILE.zrf`` reads it: each variant's perft equals the count of
``perft.tsv`` (its plain count, or its count with its rule extensions) at every depth whose
count is at most :data:`MOST_NODES` (all its rows under ``GAMEHALL_DEEP_CHECKS=1``).

The sample is variants the reader counts exactly now, one or two of each kind of game: a
drop game (hex), races (breakthrough, gauntlet), draughts (English, international, Turkish),
a hunt with drops (bagh-chal), a placement game with captures (yote), chess of the old rules
(shatranj) and a Windows-1252 file (troitzky-chess). ``benchmarks/zrf_corpus.py``
measures the whole corpus."""

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
MOST_NODES = sized(2_500, 2_000_000)

SAMPLE = [
    ("arrange/zrf/hex.zrf", 0),
    ("breakthrough/zrf/breakthrough.zrf", 0),
    ("breakthrough/zrf/gauntlet.zrf", 1),
    ("checkers/zrf/english-checkers.zrf", 0),
    ("checkers/zrf/international-checkers.zrf", 0),
    ("checkers/zrf/turkish-dama.zrf", 0),
    ("checkers-like/zrf/bagh-chal.zrf", 0),
    ("checkers-like/zrf/yote.zrf", 0),
    ("checkmate/zrf/shatranj.zrf", 0),
    ("checkmate/zrf/troitzky-chess.zrf", 0),
]


def _reference(path: str, variant: int) -> dict[int, set[int]]:
    """The counts of ``perft.tsv`` for one variant, by depth (plain and extended)."""
    found: dict[int, set[int]] = {}
    with (CORPUS / "perft.tsv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if row["zrf_path"] == path and int(row["variant_index"]) == variant:
                counts = found.setdefault(int(row["depth"]), set())
                for count, status in (("nodes", "status"), ("ext_nodes", "ext_status")):
                    if row[status] == "ok" and row[count]:
                        counts.add(int(row[count]))
    return found


@pytest.mark.deep
@pytest.mark.parametrize(("path", "variant"), SAMPLE, ids=[f"{p}#{v}" for p, v in SAMPLE])
def test_the_counts_equal_the_reference(path: str, variant: int) -> None:
    from game.games.rules.file import zrf_file
    from game.logic.rules.catalogue import rulebook_for_zrf

    reference = _reference(path, variant)
    depths = [d for d, counts in sorted(reference.items()) if counts and min(counts) <= MOST_NODES]
    assert depths, f"{path}#{variant}: no count of perft.tsv to compare"
    rulebook = rulebook_for_zrf(*zrf_file(CORPUS / path, variant))
    ours = {d: rulebook.perft(rulebook.start(), d) for d in depths}
    assert {d: n for d, n in ours.items() if n not in reference[d]} == {}, reference
