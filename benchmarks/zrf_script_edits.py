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

_SHARED = (
    'The script (gess.js) sets the option "shared pieces" (checkVersion("shared-pieces", '
    '"true")), which the file has commented out: each player may move the other\'s '
    "pieces too."
)

_FOCUS = (
    'The script (focus.js) sets the option "shared pieces" (checkVersion("shared-pieces", '
    '"true")) that the file does not, so a player\'s init-type capture may start from '
    "the other's man, and it has the file's move-priorities commented out (// "
    "design.addPriority(1) and (0)), so those captures come beside the slides and drops."
)

_DROPS_FIRST = (
    "The script (3d-morris.js) is not in the other program's sources we have; its counts "
    "are drops alone at every depth (27, 702, 17550, 421200 = 27 x 26 x 25 x 24) where the "
    "file lets a dropped stone step. Its sibling three-man.js (the same Stone, drop and "
    "step) gives the drop a type of its own, first in the priorities (addPriority(1) // "
    "drop-type, then addPriority(0) // normal-type): that is written here."
)

EDITS: tuple[Edit, ...] = (
    Edit("custodian/zrf/tafl.zrf", 0, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 3, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 4, _TAFL, _NO_CORNER_RULE),
    Edit("custodian/zrf/tafl.zrf", 6, _TAFL, _NO_CORNER_RULE),
    # Options and move priorities that the scripts set otherwise than the files
    Edit(
        "elimination/zrf/gess.zrf",
        0,
        _SHARED,
        (('; (option "shared pieces"     true)', '(option "shared pieces" true)'),),
    ),
    Edit(
        "morris/zrf/3d-morris.zrf",
        0,
        _DROPS_FIRST,
        (
            ("(drops\n        (move-type normal-type)", "(drops\n        (move-type drop-type)"),
            (
                "(turn-order Blue Red)",
                "(turn-order Blue Red) (move-priorities drop-type normal-type)",
            ),
        ),
    ),
    Edit(
        "stalemate/zrf/focus.zrf",
        0,
        _FOCUS,
        (("(move-priorities init-type normal-type)", '(option "shared pieces" true)'),),
    ),
)
