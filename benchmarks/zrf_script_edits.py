"""Where perft.tsv counted another game than the ZRF file (``../shared/zrf/README.md``): a
compiled script edited after it was made from the file (a turn order, an option, a set-up or
a move type that the file does not hold), or a rule the other program's model reads
otherwise.

Each entry is one variant's file with the script's change written into its text.
``benchmarks/zrf_corpus.py`` counts a variant whose counts differ once more on the file as
edited here (``as_edited=equal`` or ``differs(...)``), so every claim "the other program
counted another game" is checked by counting that game. ``docs/zrf.md`` ("Where the counts
differ") says for each which side is right for the file as written.
"""

from __future__ import annotations

from typing import NamedTuple


class Edit(NamedTuple):
    """One variant (``path`` under the corpus root, ``index`` as perft.tsv's
    ``variant_index``), what the script changes (``why``), and the change written into the
    file's text: each ``(old, new)`` pair replaces every occurrence of ``old``, which must be
    there."""

    path: str
    index: int
    why: str
    changes: tuple[tuple[str, str], ...]

    def apply(self, text: str) -> str:
        """The file's text with the changes made; raises ValueError naming a missing text."""
        for old, new in self.changes:
            if old not in text:
                raise ValueError(f"no {old!r} in {self.path}")
            text = text.replace(old, new)
        return text


_TAFL = (
    "The other program lets a man stop on a corner, which the file's slide forbids (it "
    "verifies (not-in-zone? goal) at each stop; the script keeps that verify, its model "
    "passes it)."
)
_NO_CORNER_RULE = (("(verify (not-in-zone? goal))", ""),)

EDITS: tuple[Edit, ...] = (
    Edit("custodian/zrf/tafl.zrf", 0, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 3, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 4, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 6, _TAFL, _NO_CORNER_RULE),
)
