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


def _after(anchor: str, *lines: str) -> tuple[str, str]:
    """A change that writes ``lines`` (each a form of the game) on new lines after
    ``anchor``."""
    return anchor, anchor + "".join("\n  " + line for line in lines)


_PASS_PARTIAL = '(option "pass partial" true)'
_PASS_FORCED = '(option "pass turn" forced)'
_SHARED = '(option "shared pieces" true)'

_BUSHI = (
    "The script (bushi.js) sets pass-partial true, which the file does not, so a jump that "
    "can go on may also stop."
)
_BUSHI_4 = (
    "The script (bushi-4.js) sets pass-partial true and pass-turn forced, which the file "
    "does not, so a jump that can go on may also stop."
)
_FIGHTING = (
    "The script (fighting-checkers.js) has the file's addPriority lines commented out and "
    "sets pass-partial true, so a step or leap may be played beside a jump over a friend."
)
_KHANS = (
    "The compiled script is not in the other program's sources; its plain counts are those "
    "of the file without (move-priorities jump-type normal-type), so a man may step where a "
    "capture is there (its counts with extensions are the file's)."
)
_RHOMBIC = (
    "The variant's script (rhombic-chess-variant.js) has no addPriority, where the variant "
    "inherits (move-priorities drop-type normal-type), so Stones already down move while "
    "others are in hand."
)
_DAFANG = (
    "The compiled script is not in the other program's sources; its plain counts (36, 1296, "
    "49476) are the file's with shared pieces, which the sister games' scripts set "
    "(ningxia-fangqi.js, xinjiang-fangqi.js: shared-pieces true), and no move-priorities, "
    "which only the counts show: a player then also takes the other's stone beside a drop."
)
_CHOKO = (
    "The script (choko.js) sets shared-pieces true, an option the file has commented out, "
    "and pass-turn forced: a player may also take the other's stones (kill)."
)
_YOTE = (
    "The script (yote.js) sets shared-pieces true, which the file does not: a player may "
    "also take the other's stones (kill)."
)
_ADIUH = (
    "The compiled script is not in the other program's sources; its counts are Stavropol "
    "Checkers', whose script (stavropol-checkers.js) sets shared-pieces true, which this "
    "file does not: a player may move the other player's men."
)
_CHECKMATED = (
    "The other program's plain engine leaves Zillions' checkmated rule out (a move may leave "
    "the {0} attacked), and its count with extensions adds the collection's own rules too; "
    "its plain count is the file with (checkmated {0}) read as stalemated."
)
_OFF_COUNTS = (
    "The other program's model lets a player with no reserve of a piece drop it without "
    "limit (zrf-model.js, isDropDisabled), and the script reserves RedPieces for Red alone "
    '(design.reserve("Red", "RedPiece", 1)): Green drops RedPieces as its own, a supply '
    "that never runs out, written here as off 99."
)
_GREEN_DROPS = (
    ("(Green (GreenPiece a2 b1 c2))", "(Green (GreenPiece a2 b1 c2) (RedPiece off 99))"),
)
_ALTAI = (
    "perft.tsv counted the first compiled script (Dagaz commit 737147f2), made from the "
    "text before ca8f2697: a man's capture may not land in the gate or home zones, and the "
    "nx links (d4 a5) and (d11 g10) are not there yet."
)

EDITS += (
    # options the scripts set that the files do not
    Edit("races/zrf/bushi.zrf", 0, _BUSHI, (_after("(turn-order Black White)", _PASS_PARTIAL),)),
    Edit(
        "races/zrf/bushi.zrf",
        1,
        _BUSHI_4,
        (_after("(turn-order Black White Blue Red)", _PASS_PARTIAL, _PASS_FORCED),),
    ),
    # move priorities the scripts leave out
    Edit(
        "checkers/zrf/fighting-checkers.zrf",
        0,
        _FIGHTING,
        (("(move-priorities jump-type normal-type)", _PASS_PARTIAL),),
    ),
    Edit(
        "checkers-like/zrf/khans.zrf", 0, _KHANS, (("(move-priorities jump-type normal-type)", ""),)
    ),
    Edit(
        "stalemate/zrf/rhombic-chess.zrf",
        1,
        _RHOMBIC,
        (("(move-priorities drop-type normal-type)", ""),),
    ),
    Edit(
        "arrange/zrf/dafang.zrf",
        0,
        _DAFANG,
        (("(move-priorities kill-type drop-type normal-type)", _SHARED),),
    ),
    # shared pieces the files do not turn on
    Edit(
        "checkers-like/zrf/choko.zrf",
        0,
        _CHOKO,
        (('; (option "shared pieces"       true)', _SHARED + "\n  " + _PASS_FORCED),),
    ),
    Edit(
        "checkers-like/zrf/yote.zrf",
        0,
        _YOTE,
        (_after("(turn-order White Black)", _SHARED),),
    ),
    Edit(
        "checkers/zrf/stavropol-adiuh-checkers.zrf",
        0,
        _ADIUH,
        (_after("(turn-order White Black)", _SHARED),),
    ),
    # Zillions' checkmated rule, which the plain count leaves out
    Edit(
        "checkmate/zrf/anti-king.zrf",
        0,
        _CHECKMATED.format("King"),
        (("(checkmated King)", "stalemated"),),
    ),
    Edit(
        "checkmate/zrf/caissa.zrf",
        0,
        _CHECKMATED.format("Queen"),
        (("(checkmated Queen)", "stalemated"),),
    ),
    Edit(
        "checkmate/zrf/teleport-chess.zrf",
        0,
        _CHECKMATED.format("King"),
        (("(checkmated King)", "stalemated"),),
    ),
    # a player with no count of a piece drops it without limit
    Edit(
        "breakthrough/zrf/game-of-dwarfs.zrf",
        0,
        _OFF_COUNTS,
        _GREEN_DROPS,
    ),
    Edit(
        "breakthrough/zrf/french-military.zrf",
        0,
        _OFF_COUNTS,
        _GREEN_DROPS,
    ),
    # an earlier text of the file
    Edit(
        "checkers/zrf/altai-shatra.zrf",
        0,
        _ALTAI,
        (
            (
                "capture \n   $1 (verify empty?)\n   (if",
                "capture \n   $1 (verify empty?)\n   (verify (not-in-zone? gate))\n"
                "   (verify (not-in-zone? home))\n   (if",
            ),
            ("(d4 a5)", ""),
            (" (d11 g10)", ""),
        ),
    ),
)
