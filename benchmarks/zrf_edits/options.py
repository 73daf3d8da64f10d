"""Options, move priorities and rules that the scripts (or the other program's model) read
otherwise than the files."""

from __future__ import annotations

from .edit import PASS_FORCED, PASS_PARTIAL, SHARED, Edit, after

_TAFL = (
    "The other program lets a man stop on a corner, which the file's slide forbids (it "
    "verifies (not-in-zone? goal) at each stop; the script keeps that verify, its model "
    "passes it)."
)
_NO_CORNER_RULE = (("(verify (not-in-zone? goal))", ""),)


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

_GESS = (
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
    # options the scripts set that the files do not
    Edit("races/zrf/bushi.zrf", 0, _BUSHI, (after("(turn-order Black White)", PASS_PARTIAL),)),
    Edit(
        "races/zrf/bushi.zrf",
        1,
        _BUSHI_4,
        (after("(turn-order Black White Blue Red)", PASS_PARTIAL, PASS_FORCED),),
    ),
    # move priorities the scripts leave out
    Edit(
        "checkers/zrf/fighting-checkers.zrf",
        0,
        _FIGHTING,
        (("(move-priorities jump-type normal-type)", PASS_PARTIAL),),
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
        (("(move-priorities kill-type drop-type normal-type)", SHARED),),
    ),
    # shared pieces the files do not turn on
    Edit(
        "checkers-like/zrf/choko.zrf",
        0,
        _CHOKO,
        (('; (option "shared pieces"       true)', SHARED + "\n  " + PASS_FORCED),),
    ),
    Edit(
        "checkers-like/zrf/yote.zrf",
        0,
        _YOTE,
        (after("(turn-order White Black)", SHARED),),
    ),
    Edit(
        "checkers/zrf/stavropol-adiuh-checkers.zrf",
        0,
        _ADIUH,
        (after("(turn-order White Black)", SHARED),),
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
    # options and move priorities that the scripts set otherwise than the files
    Edit(
        "elimination/zrf/gess.zrf",
        0,
        _GESS,
        (('; (option "shared pieces"     true)', SHARED),),
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
        (("(move-priorities init-type normal-type)", SHARED),),
    ),
)
