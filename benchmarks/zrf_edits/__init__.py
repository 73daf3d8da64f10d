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

from . import options, races, scripts, turns
from .edit import Edit

EDITS: tuple[Edit, ...] = (*options.EDITS, *races.EDITS, *turns.EDITS, *scripts.EDITS)

__all__ = ["EDITS", "Edit"]
