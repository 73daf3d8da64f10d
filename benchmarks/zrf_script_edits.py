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

_DABLOT = (
    "The script was compiled from an earlier text of the file (Dagaz a869bb1b): one capture "
    "program `jump` with no (not-piece? ...) checks, listed as a normal-type move as well as "
    "a jump-type one (its addMove(..., 1, [d, d], 0) and (..., 1)), and addPriority(0) alone: "
    "a capture is never compulsory and a Man may take a King or Prince."
)
_CAPTURES_AS_STEPS = (
    "(jump-king n) (jump-king w) (jump-king s) (jump-king e)\n"
    "         (jump-king nw) (jump-king sw) (jump-king se) (jump-king ne)\n"
    "         (move-type jump-type)\n"
)
_DABLOT_CHANGES = (
    ("(move-priorities jump-type normal-type)", "(move-priorities normal-type)"),
    ("  (verify (not-piece? King))\n", ""),
    ("  (verify (not-piece? Prince))\n", ""),
    ("(move-type jump-type)\n", _CAPTURES_AS_STEPS),
)
_DABLOT_CHILD = _DABLOT + (
    " The Child script perft.tsv counted is not in the mirror; its White Man on i7, off the "
    "7-file board, stands on g7 there, as in the mirror's older Child scripts (setup at "
    "position 7, the rank-7 end cell): with it the counts equal at depths 1-4."
)

EDITS: tuple[Edit, ...] = (
    Edit("custodian/zrf/tafl.zrf", 0, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 3, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 4, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 6, _TAFL, _NO_CORNER_RULE),
    Edit("checkers-like/zrf/dablot.zrf", 0, _DABLOT, _DABLOT_CHANGES),
    Edit(
        "checkers-like/zrf/dablot.zrf",
        1,
        _DABLOT_CHILD,
        (*_DABLOT_CHANGES, ("e7 i7", "e7 g7")),
    ),
    Edit("checkers-like/zrf/dablot.zrf", 2, _DABLOT, _DABLOT_CHANGES),
    Edit("checkers-like/zrf/dablot.zrf", 3, _DABLOT, _DABLOT_CHANGES),
    Edit("checkers-like/zrf/dablot.zrf", 4, _DABLOT, _DABLOT_CHANGES),
    Edit("checkers-like/zrf/dablot.zrf", 5, _DABLOT, _DABLOT_CHANGES),
)
