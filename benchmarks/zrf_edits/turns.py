"""Turn orders, set-ups, set-up phases and positions of the other program's scripts."""

from __future__ import annotations

from .edit import Edit

# Turn orders (and the options that go with them) of the other program's scripts.
_MANA = (
    "The script (mana.js) opens with six set-up turns of White's, then six of Black's, each "
    "a setup-mode move (addTurn(1, [4]) x6, addTurn(2, [4]) x6, then repeatMark and one "
    "turn each); the file says (turn-order White Black)."
)
_MANA_TURNS = (
    (
        "(turn-order White Black)",
        "(turn-order "
        + "(White setup-mode) " * 6
        + "(Black setup-mode) " * 6
        + "repeat White Black)",
    ),
)
_UXO = (
    "The script (uxo.js) gives each turn one drop type, in a cycle of six turns: "
    "addTurn(1, [0]), addTurn(2, [0]), then [1] and [2] (type-1, type-2, type-3); the file "
    "says (turn-order X O), every turn all three."
)
_UXO_TURNS = (
    (
        "(turn-order X O)",
        "(turn-order (X type-1) (O type-1) (X type-2) (O type-2) (X type-3) (O type-3))",
    ),
)
_APOCALYPSE = (
    "The script (apocalypse.js) has one turn entry, addTurn(1): White's, every ply (its "
    "ko-sync option, which plays both sides' moves at once, is an extension the plain count "
    "leaves out); the file says (turn-order White Black)."
)
_APOCALYPSE_TURNS = (("(turn-order White Black)", "(turn-order White)"),)
_DROPPER = (
    "The scripts perft.tsv names are not in the other program's sources we have; the one in "
    "DagazServer (public/dagaz/scripts/dropper-10x10.js) sets shared-pieces and four turns: "
    "addTurn(1, [0]), addTurn(2, [1]), addTurn(2, [0]), addTurn(1, [1]) (drop-type, "
    "move-type): a drop, then the other player moves a stone of the first (move-stone "
    "verifies enemy?), then drops. The file says (turn-order Black White): its move-stone "
    "never moves."
)
_DROPPER_TURNS = (
    (
        "(turn-order Black White)",
        '(option "shared pieces" true) (turn-order (Black drop-type) (White move-type) '
        "(White drop-type) (Black move-type))",
    ),
)
_MAGYAR = (
    "The script (magyar-checkers.js) sets shared-pieces and pass-partial and gives each "
    "player two turns: its stones' moves (addTurn(1, [0, 1]); they verify friend?), then a "
    "move of one of N's tiles (addTurn(1, [2])), written here as (Red N), Red moving N's "
    "pieces. The file says (turn-order Red White) and sets neither option."
)
_MAGYAR_TURNS = (
    (
        "(turn-order Red White)",
        '(option "pass partial" true) (turn-order Red (Red N) White (White N))',
    ),
)
_ZERTZ = (
    "The script perft.tsv names is not in the other program's sources we have; the one in "
    "DagazServer (public/dagaz/scripts/zertz.js) sets shared-pieces (the marbles are N's) "
    "and a forced pass, has its addPriority lines commented out, and four turns: "
    "addTurn(1, [0, 1]) and addTurn(1, [2]), then the same two for Second (a jump-type or "
    "init-type move, then a drop-type one). A turn of the file names one move type, so "
    "init-type is written jump-type: a marble's init move verifies (in-zone? init) first, "
    "so a jump's continuation from a field gains nothing by it."
)
_ZERTZ_TURNS = (
    (
        "(turn-order First Second)",
        '(option "shared pieces" true) (option "pass turn" forced) (turn-order '
        "(First jump-type) (First drop-type) (Second jump-type) (Second drop-type))",
    ),
    ("(move-priorities jump-type init-type)", ""),
    ("(move-type init-type)", "(move-type jump-type)"),
)

# Set-ups, set-up phases and positions of the other program's scripts.
_TRAVERSE = (
    "The script (traverse.js) starts from an empty board: South has two of each piece in "
    'hand (reserve("South", "S", 2) ...; the others none), every piece has the drop '
    "onto the home row (addDrop(..., 2)), and eight South drop turns (addTurn(1, [2]) x8) "
    "come before the repeatMark and the file's four turns; the file sets every piece on the "
    "board and gives only the C its drop."
)
_TRAVERSE_SETUP = (
    (
        "(turn-order South West North East)",
        "(turn-order " + "(South drop-type) " * 8 + "repeat South West North East)",
    ),
    ("(drops\n         (drop)\n     )\n", ""),  # the C's drop, now every piece's
    ("(moves", "(drops (move-type drop-type) (drop)) (moves"),
    ("(S a0 h0)", "(S off 2)"),
    ("(T b0 g0)", "(T off 2)"),
    ("(R c0 f0)", "(R off 2)"),
    ("(C d0 e0)", "(C off 2)"),
    *(
        (f"({piece} {squares})", "")  # West's, North's and East's pieces
        for piece, squares in (
            ("S", "X1 X8"), ("T", "X2 X7"), ("R", "X3 X6"), ("C", "X4 X5"),
            ("S", "a9 h9"), ("T", "b9 g9"), ("R", "c9 f9"), ("C", "d9 e9"),
            ("S", "Y1 Y8"), ("T", "Y2 Y7"), ("R", "Y3 Y6"), ("C", "Y4 Y5"),
        )
    ),
)  # fmt: skip
_SHORT_ASSIZE = (
    "The script (short-assize.js) keeps White's Rooks, Knights, Bishops and King in hand "
    '(reserve("White", "Rook", 2) ...), gives those pieces a drop onto the home zone '
    "(addDrop(..., 0), command 7: in-zone? home, empty?), types the moves (drop-type, "
    "normal-type) with addPriority(0) and addPriority(1), and opens with seven White turns "
    "(addTurn(1) x7, repeatMark, then White and Black). Black's set-up is the file's under "
    "its setupSelector 1 (2 and 3 move Black's Rooks, Knights and King)."
)
_DROP_HOME = "(drops (move-type drop-type) ((verify (in-zone? home)) (verify empty?) add))"
_SHORT_ASSIZE_SETUP = (
    (
        "(turn-order White Black)",
        "(move-priorities drop-type normal-type) "
        "(turn-order " + "White " * 7 + "repeat White Black)",
    ),
    ("(moves", "(moves (move-type normal-type)"),
    *((f"(name {p})", f"(name {p}) {_DROP_HOME}") for p in ("Rook", "Knight", "Bishop", "King")),
    ("(Rook b1 g1)", "(Rook off 2)"),
    ("(Knight d2 e2)", "(Knight off 2)"),
    ("(Bishop c1 f1)", "(Bishop off 2)"),
    ("(King e1)", "(King off 1)"),
)
_RAUMSCHACH = (
    "The file has no set-up and no symmetry (so no move at the start, and Black's pawns would "
    "go n and u as White's). The script perft.tsv names (raumschach.js) is not in the other "
    "program's sources we have; the one in DagazServer (public/dagaz/scripts/raumschach.js) "
    'sets White on levels A and B and Black on E and D (setup("Black", "Unicorn", '
    "p('Da5')) ...) and turns all of Black's directions round (addPlayer(\"Black\", [6, 7, "
    "5, 4, 3, 2, 0, 1, 9, 8]): n s, e w, ne sw, nw se, u d)."
)
_RAUMSCHACH_SETUP = (
    (
        "(turn-order White Black)",
        "(turn-order White Black) (board-setup "
        "(White (Rook a1A e1A) (Knight b1A d1A) (King c1A) (Pawn a2A b2A c2A d2A e2A) "
        "(Bishop a1B d1B) (Unicorn b1B e1B) (Queen c1B) (Pawn a2B b2B c2B d2B e2B)) "
        "(Black (Rook a5E e5E) (Knight b5E d5E) (King c5E) (Pawn a4E b4E c4E d4E e4E) "
        "(Unicorn a5D d5D) (Bishop b5D e5D) (Queen c5D) (Pawn a4D b4D c4D d4D e4D)))",
    ),
    (
        "(links d",
        "(symmetry Black (n s) (s n) (e w) (w e) (ne sw) (sw ne) (nw se) (se nw) (u d) (d u)) "
        "(links d",
    ),
)
_IKUSA = (
    "The script (ikusa-shogi.js) sets the pieces in hand on Z1, T1, Z2, T2 and Y7, X7, Y6, X6 "
    '(setup("South", "Lance", 75) ...), where the file names y1 z1 y2 z2 and n7 m7 n6 m6, '
    "which its board does not have (its hand columns are X Y Z T), so only four pieces a "
    "side stand."
)
_IKUSA_SETUP = (
    ("(Lance  y1)", "(Lance  Z1)"),
    ("(Knight z1)", "(Knight T1)"),
    ("(Bishop y2)", "(Bishop Z2)"),
    ("(Rook   z2)", "(Rook   T2)"),
    ("(Lance  n7)", "(Lance  Y7)"),
    ("(Knight m7)", "(Knight X7)"),
    ("(Bishop n6)", "(Bishop Y6)"),
    ("(Rook   m6)", "(Rook   X6)"),
)
_GENESIS = (
    "The scripts (genesis-chess.js, genesis-chess-variant.js) add four positions X1 to X4, "
    'linked to nothing (addPosition("X1", [0, ...]) ...), which the drops (verify empty?) '
    "may use as any square; the file's board is the 8x8 grid alone."
)
_GENESIS_POSITIONS = (
    (
        "(symmetry Black",
        "(positions (X1 560 2 628 70) (X2 560 70 628 138) (X3 560 138 628 206) "
        "(X4 560 206 628 274)) (symmetry Black",
    ),
)

EDITS: tuple[Edit, ...] = (
    Edit("elimination/zrf/mana.zrf", 0, _MANA, _MANA_TURNS),
    Edit("arrange/zrf/uxo.zrf", 0, _UXO, _UXO_TURNS),
    Edit("elimination/zrf/apocalypse.zrf", 0, _APOCALYPSE, _APOCALYPSE_TURNS),
    Edit("go/zrf/dropper.zrf", 0, _DROPPER, _DROPPER_TURNS),
    Edit("go/zrf/dropper.zrf", 1, _DROPPER, _DROPPER_TURNS),
    Edit("checkers/zrf/magyar-checkers.zrf", 0, _MAGYAR, _MAGYAR_TURNS),
    Edit("checkers-like/zrf/zertz.zrf", 0, _ZERTZ, _ZERTZ_TURNS),
    Edit("races/zrf/traverse.zrf", 0, _TRAVERSE, _TRAVERSE_SETUP),
    Edit("checkmate/zrf/short-assize.zrf", 0, _SHORT_ASSIZE, _SHORT_ASSIZE_SETUP),
    Edit("checkmate/zrf/raumschach.zrf", 0, _RAUMSCHACH, _RAUMSCHACH_SETUP),
    Edit("shogi/zrf/ikusa-shogi.zrf", 0, _IKUSA, _IKUSA_SETUP),
    Edit("checkmate/zrf/genesis-chess.zrf", 0, _GENESIS, _GENESIS_POSITIONS),
    Edit("checkmate/zrf/genesis-chess.zrf", 1, _GENESIS, _GENESIS_POSITIONS),
)
