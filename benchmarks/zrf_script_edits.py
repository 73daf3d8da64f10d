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


def _turns(*steps: str | tuple[str, str, int]) -> str:
    """A ``turn-order`` form: a text step as it is, ``(PLAYER TYPE N)`` as N turns of
    PLAYER, each restricted to move type TYPE (an empty TYPE: any of the player's types)."""
    words: list[str] = []
    for step in steps:
        if isinstance(step, str):
            words.append(step)
        else:
            player, kind, count = step
            words.extend([f"({player} {kind})" if kind else player] * count)
    return f"(turn-order {' '.join(words)})"


_TAFL = (
    "The other program lets a man stop on a corner, which the file's slide forbids (it "
    "verifies (not-in-zone? goal) at each stop; the script keeps that verify, its model "
    "passes it)."
)
_NO_CORNER_RULE = (("(verify (not-in-zone? goal))", ""),)


# The races' scripts are perft.tsv's `script` column, races/scripts/NAME.js, as the collection
# publishes them (github.com/DagazProject/DagazProject.github.io); the other program's own
# sources (GlukKazan/Dagaz, src/debug/games/races/) lack rosespring, chasing-girls and tawula,
# and their shen.js says "pass turn" where the published one does not.
#
# Dice races: the files give each turn one move, a man's step or a die that the player drops
# himself; the scripts (perft.tsv's notes: random-turns, turn-order=N) have turns of their
# own, written here as the file's turn order. A random turn (addRandom) counts each outcome
# as a move, as a turn of that move type counts each drop.
_DICE = (
    "The script's turn order is not the file's {plain}: {script}. Its random turns "
    "(addRandom) only drop a die; here they are turns of the file's die-drop type."
)
_Step = str | tuple[str, str, int]


def _rounds(players: tuple[str, ...], *turns: tuple[str, int]) -> tuple[_Step, ...]:
    """Each player in turn has ``turns``: (move type, how many turns of it)."""
    return tuple((player, kind, count) for player in players for kind, count in turns)


def _race(
    path: str,
    script: str,
    plain: str,
    steps: tuple[_Step, ...],
    more: tuple[tuple[str, str], ...] = (),
) -> Edit:
    """The file's ``plain`` turn order replaced by the script's ``steps`` (and the script's
    ``more`` changes)."""
    why = _DICE.format(plain=plain, script=script)
    return Edit(path, 0, why, ((plain, _turns(*steps)), *more))


_WB = ("White", "Black")
#: Two random die drops, then four men's turns, each player in turn (chasing-girls, backgammons).
_BACKGAMMON_ROUNDS = _rounds(_WB, ("drop-type", 2), ("normal-type", 4))

_DICE_RACES = (
    _race(
        "races/zrf/puluc.zrf",
        "puluc.js has addRandom(1, [0]) four times, then addTurn(1, [1, 2, 3, 4, 5]) (type 0: "
        "the file's setup-type drops; 1-5: its normal-type steps), the same for Black; it "
        'has no "pass turn" option',
        "(turn-order White Black)",
        _rounds(_WB, ("setup-type", 4), ("normal-type", 1)),
        (('(option "pass turn"   forced)', ""),),
    ),
    _race(
        "races/zrf/senet.zrf",
        "senet.js has addRandom(1, [0]) four times, then addTurn(1, [1, 2, 3, 4, 5]) (type 0: "
        "the file's dice-type drops; 1-5: its normal-type steps), the same for Green; it sets "
        'up five stones a side where the file has seven, and says "pass turn" forced',
        "(turn-order Blue Green)",
        _rounds(("Blue", "Green"), ("dice-type", 4), ("normal-type", 1)),
        (
            ("(Stone a3 c3 e3 g3 i3 j2 h2)", "(Stone a3 c3 e3 g3 i3)"),
            ("(Stone b3 d3 f3 h3 j3 i2 g2)", "(Stone b3 d3 f3 h3 j3)"),
            (
                '(option "smart moves" false)',
                '(option "smart moves" false) (option "pass turn" forced)',
            ),
        ),
    ),
    _race(
        "races/zrf/shen.zrf",
        "shen.js (players Blue and Red for White and Black) starts with addRandom(2, [0]) four "
        "times, then repeats addRandom(1, [0]) three times and addRandom(1, [7]) (type 7: the "
        "same die drop), addTurn(1, [1, 2, 3, 4, 5]), and the same for Black (type 0: the "
        "file's setup-type drops; 1-5: type-1 to type-5, one type here, as a turn of the file "
        'names one type; continue-type is left out of that turn); it has no "pass turn" option',
        "(turn-order White Black)",
        (
            ("Black", "setup-type", 4),
            "repeat",
            ("White", "setup-type", 4),
            ("White", "type-1", 1),
            ("Black", "setup-type", 4),
            ("Black", "type-1", 1),
        ),
        (
            *((f"(move-type type-{n})", "") for n in range(2, 6)),
            ('(option "pass turn"    forced)', ""),
        ),
    ),
    _race(
        "races/zrf/daldosa.zrf",
        "daldosa.js has addRandom(1, [0]) twice, then addTurn(1, [1, 2, 3, 4]) twice (type 0: "
        "the file's dice-mode drops; 1-4: its normal-mode moves), the same for White",
        "(turn-order Black White)",
        _rounds(("Black", "White"), ("dice-mode", 2), ("normal-mode", 2)),
    ),
    _race(
        "races/zrf/tablan.zrf",
        "tablan.js starts with addTurn(1, [1, 4, 6, 2, 8, 12]) (the file's once and double "
        "types: here White's plain turn, whose setup drops never find a die square that is not "
        "White's) and addTurn(1, [1, 4, 6]) (once), then repeats addRandom(2, [0]) four times "
        "(type 0: the file's setup drops) and Black's two such turns, then White's; it sets up "
        'dice0 on x1 x2 x3 and dice1 on x4, and says "pass turn" forced',
        "(turn-order White Black)",
        (
            "White",
            ("White", "once", 1),
            "repeat",
            ("Black", "setup", 4),
            "Black",
            ("Black", "once", 1),
            ("White", "setup", 4),
            "White",
            ("White", "once", 1),
        ),
        (
            ("(dice1 x1) (dice0 x2 x3 x4)", "(dice0 x1 x2 x3) (dice1 x4)"),
            ('(title "Tablan")', '(title "Tablan") (option "pass turn" forced)'),
        ),
    ),
    _race(
        "races/zrf/tavola.zrf",
        "tavola.js has addRandom(1, [0]) three times, then addTurn(1, [1, 2, 3, 4, 5, 6]) six "
        "times (type 0: the file's drop-type drops; 1-6: its normal-type steps), the same for "
        "Green, Red and Black",
        "(turn-order White Green Red Black)",
        _rounds(("White", "Green", "Red", "Black"), ("drop-type", 3), ("normal-type", 6)),
    ),
    _race(
        "races/zrf/rosespring.zrf",
        "rosespring.js has addRandom(1, [0]) three times, then addTurn(1, [1, 2, 3, 4, 5, 6]) "
        "three times (type 0: the file's drop-type drops; 1-6: its normal-type steps), the "
        "same for Black",
        "(turn-order White Black)",
        _rounds(_WB, ("drop-type", 3), ("normal-type", 3)),
    ),
    _race(
        "races/zrf/chasing-girls.zrf",
        "chasing-girls.js has addRandom(1, [0]) twice, "
        "then addTurn(1, [1, 2, 3, 4, 5, 6, 8, 9]) four times (type 0: the file's drop-type "
        "drops; 1-6: its normal-type steps along wx), the same for Black, and says pass-turn "
        "forced; its Man also has addMove(0, 0, [2, 2], 8, 1) and addMove(0, 1, [2, 2, 2], 9, "
        "1), the file's step-1 and step-2 along px, which the file does not give it",
        "(turn-order White Black)",
        _BACKGAMMON_ROUNDS,
        (
            (
                '(title "Chasing the Girls")',
                '(title "Chasing the Girls") (option "pass turn" forced)',
            ),
            ("(step-5 wx) (step-6 wx)", "(step-5 wx) (step-6 wx) (step-1 px) (step-2 px)"),
        ),
    ),
)


# Backgammons (races/zrf/): the scripts open with one throw for each player, a second drop
# program of every die (move type 7: (verify (in-zone? init-zone)) add, no empty? check) onto
# a square the file names init-zone (tawula) or does not have.
_OPENING = (
    "The script ({script}) opens with addRandom(1, [7]) and addRandom(2, [7]): each die piece "
    "has a second drop, addDrop(k, 7, [], 7) with template 7 = (verify (in-zone? init-zone)) "
    "add, onto one square of each player's dice (init-zone: D4 for White, D1 for Black){zone}; "
    "then it repeats addRandom(1, [0]) twice (the file's drop-type) and addTurn(1, [1, 2, 3, "
    "4, 5, 6]) four times (its normal-type steps), the same for Black.{more}"
)
_INIT_DROP = (
    "(drop-dice)",
    "(drop-dice) (move-type init-type) ((verify (in-zone? init-zone)) add)",
)
_INIT_ZONES = (
    "(zone (name dice-zone) (players White)",
    "(zone (name init-zone) (players Black) (positions D1)) "
    "(zone (name init-zone) (players White) (positions D4)) "
    "(zone (name dice-zone) (players White)",
)
_OPENING_TURNS = (
    "(turn-order White Black)",
    _turns(
        ("White", "init-type", 1),
        ("Black", "init-type", 1),
        "repeat",
        *_BACKGAMMON_ROUNDS,
    ),
)
_NO_INIT_ZONE = ", which the file does not have"
_OPENING_THROW = (
    Edit(
        "races/zrf/longgammon.zrf",
        0,
        _OPENING.format(script="longgammon.js", zone=_NO_INIT_ZONE, more=""),
        (_OPENING_TURNS, _INIT_DROP, _INIT_ZONES),
    ),
    Edit(
        "races/zrf/russian-backgammon.zrf",
        0,
        _OPENING.format(
            script="russian-backgammon.js",
            zone=_NO_INIT_ZONE,
            more=(
                " Left out: its dice's move type 8 (the die taken off: from capture to), which "
                "only White's first men's turn allows (addTurn(1, [1, 2, 3, 4, 5, 6, 8])), one "
                "ply past perft.tsv's depths, and which one type per turn of the file cannot "
                "say; and its pieces B1-B6, which have no move."
            ),
        ),
        (_OPENING_TURNS, _INIT_DROP, _INIT_ZONES),
    ),
    Edit(
        "races/zrf/tawula.zrf",
        0,
        _OPENING.format(script="tawula.js", zone="", more=""),
        (_OPENING_TURNS, _INIT_DROP),
    ),
)


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
    *_DICE_RACES,
    *_OPENING_THROW,
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
    # options and move priorities that the scripts set otherwise than the files
    Edit(
        "elimination/zrf/gess.zrf",
        0,
        _GESS,
        (('; (option "shared pieces"     true)', _SHARED),),
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
        (("(move-priorities init-type normal-type)", _SHARED),),
    ),
)
