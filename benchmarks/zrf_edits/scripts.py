"""Scripts made from another text of the file, or another game on its board: Dablot's
earlier text, dice, hands, tiles."""

from __future__ import annotations

from .edit import Edit

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

_DICE_TURNS = (
    "The script throws the dice for the player: random turns that only drop a die "
    "(addRandom(P, [0]), mode 0 the file's die drops), then turns of the men's moves "
    "(addTurn(P, [1..N]), move types the script gives the pieces by hand), with pass-turn "
    "forced; the file has no random player, and a player drops a die as one of his moves."
)
_TYPED_MEN = ("(moves", "(moves (move-type normal-type)")
_CHATURAJI = _DICE_TURNS + (
    " Chaturaji's script: two throws and two moves per player (addTurn 0-15), and a die "
    "may be taken off its square as a move (template 6: from, capture, to)."
)
_CHATURAJI_TURNS = " ".join(
    f"(?Dice {p} setup) (?Dice {p} setup) ({p} normal-type) ({p} normal-type)"
    for p in ("South", "West", "North", "East")
)
_OBLONG_TURNS = (
    "(?Dice White drop-type) (White normal-type) (?Dice Black drop-type) (Black normal-type)"
)
_OBLONG = _DICE_TURNS + (
    " Oblong Shatranj's script: one throw and one move per player. The version counted is "
    "later than the mirror's (945c38fe: its Shah also may stand still, 150 at depth 2)."
)

_QXO = (
    "The script (qxo.js) has a fifth big piece (addPiece B5, with S5 and None) and holds two "
    "of each in hand (design.reserve(P, Bn, 2)), where the file has B1-B4 off 1."
)
_QUANTUM_MORRIS = (
    "The script (quantum-morris.js) has the big pieces B1-B3 alone, two of each in hand "
    "(design.reserve(P, Bn, 2)), where the file says off 1 and the variant inherits the "
    "game's B4, whose drops no count limits."
)

_OHOJICHI = (
    "The file calls (step nx) where the macro tests (in-zone? $2): the unbound $2 is no zone, "
    "so that step never moves. The converter compiled it as zone 0 (ohojichi-2x6.js: "
    "IN_ZONE 0 // $2, the file's one zone, home), so a seed of the home row also steps on "
    "along nx, onto its neighbour (6 more first moves). Its mancala-setup=4 the plain count "
    "ignores."
)

_LINES = (
    "The script (lines.js) plays the puzzle's balls by random turns of the player "
    "(addRandom(1, ...)): three drops on the board (mode 5, the drop program of drop-type), "
    "then, repeated, three preview drops, one turn of the player's (mode 0) and three drops; "
    "its pieces have no step moves. The file's one turn offers every type at once."
)
_LINES_TURNS = (
    "(turn-order (?Dice You drop-type) (?Dice You drop-type) (?Dice You drop-type) repeat "
    "(?Dice You preview-1-type) (?Dice You preview-2-type) (?Dice You preview-3-type) "
    "(You normal-type) (?Dice You drop-type) (?Dice You drop-type) (?Dice You drop-type))"
)

_REVERSI_3D = (
    "The script (reversi-3d.js) is not in the mirror; its counts and flags show a cube of six "
    "levels of 6x6 cells with 8 stones set up (208 = 216 - 8 first drops, 43056 = 208 x 207) "
    "and pass-turn forced, where the file has two levels and no set-up (72 drops). The edit "
    "writes six levels and the usual opening of the 3D game, the centre 2x2x2 cube in "
    "alternate colours: Reversi's flanking from that set-up on that cube gives 16, 252, "
    "4512, perft.tsv's counts with extensions (its plain counts do not depend on where the "
    "8 stones stand)."
)
_REVERSI_3D_SETUP = (
    '  (option "pass turn" forced)\n'
    "  (board-setup (Black (Stone c3D d4D c4C d3C)) (White (Stone c4D d3D c3C d4C)))\n"
    "  (piece"
)

_SHARED_TILES = (
    'The script says shared-pieces true (checkVersion("shared-pieces", "true")), an '
    "option the file does not set: a player also moves the other side's tiles (420 tile "
    "moves at the start, not the 210 of his own)."
)
_TILE_CHESS = (
    "The script (tile-chess.js) is not in the mirror; its plain counts (242, 56848) are "
    "exactly ours for the file with the tiles' swap moves taken out: in its plain model the "
    "tiles have no move, and the men have the file's moves."
)
_SHARED_PIECES = (("(players", '(option "shared pieces" true) (players'),)

EDITS: tuple[Edit, ...] = (
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
    Edit(
        "checkmate/zrf/chaturaji.zrf",
        0,
        _CHATURAJI,
        (
            (
                "(players South West North East)",
                '(players South West North East ?Dice) (option "pass turn" forced)',
            ),
            ("(turn-order South West North East)", f"(turn-order {_CHATURAJI_TURNS})"),
            _TYPED_MEN,
            ("(drops", "(moves (move-type normal-type) (capture add)) (drops"),
        ),
    ),
    Edit(
        "checkmate/zrf/shatranj.zrf",
        16,
        _OBLONG,
        (
            ("(players White Black)", '(players White Black ?Dice) (option "pass turn" forced)'),
            ("(turn-order White Black)", f"(turn-order {_OBLONG_TURNS})"),
            _TYPED_MEN,
        ),
    ),
    Edit(
        "arrange/zrf/qxo.zrf",
        0,
        _QXO,
        (
            (
                "(X (B1 off 1) (B2 off 1) (B3 off 1) (B4 off 1))",
                "(X (B1 off 2) (B2 off 2) (B3 off 2) (B4 off 2) (B5 off 2))",
            ),
            (
                "(O (B1 off 1) (B2 off 1) (B3 off 1) (B4 off 1))",
                "(O (B1 off 2) (B2 off 2) (B3 off 2) (B4 off 2) (B5 off 2))",
            ),
            (
                "(board-setup",
                "(piece (name B5) (drops (move-type type-5) (drop-piece))) (board-setup",
            ),
        ),
    ),
    Edit(
        "arrange/zrf/qxo.zrf",
        1,
        _QUANTUM_MORRIS,
        (
            (
                "(X (B1 off 1) (B2 off 1) (B3 off 1))",
                "(X (B1 off 2) (B2 off 2) (B3 off 2) (B4 off 0))",
            ),
            (
                "(O (B1 off 1) (B2 off 1) (B3 off 1))",
                "(O (B1 off 2) (B2 off 2) (B3 off 2) (B4 off 0))",
            ),
        ),
    ),
    Edit("mancala/zrf/ohojichi.zrf", 0, _OHOJICHI, (("(step nx)", "(step nx home)"),)),
    Edit(
        "arrange/zrf/lines.zrf",
        0,
        _LINES,
        (
            ("(players You)", "(players You ?Dice)"),
            ("(turn-order You)", _LINES_TURNS),
            ("(step n) (step e) (step w) (step s)", ""),
        ),
    ),
    Edit(
        "custodian/zrf/reversi-3d.zrf",
        0,
        _REVERSI_3D,
        (('("F/E" (0 0))', '("F/E/D/C/B/A" (0 0))'), ("  (piece", _REVERSI_3D_SETUP)),
    ),
    Edit("xiangqi/zrf/litter.zrf", 0, _SHARED_TILES, _SHARED_PIECES),
    Edit("xiangqi/zrf/custom-passive-chess.zrf", 0, _SHARED_TILES, _SHARED_PIECES),
    Edit(
        "checkmate/zrf/tile-chess.zrf",
        0,
        _TILE_CHESS,
        (
            ("(swap n) (swap e) (swap w) (swap s)", ""),
            ("(swap nw) (swap ne) (swap sw) (swap se)", ""),
        ),
    ),
)
