"""Dice races and backgammons: the scripts' random turns and opening throws."""

from __future__ import annotations

from .edit import Edit, turns

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
    return Edit(path, 0, why, ((plain, turns(*steps)), *more))


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
    turns(
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

EDITS: tuple[Edit, ...] = (
    *_DICE_RACES,
    *_OPENING_THROW,
)
